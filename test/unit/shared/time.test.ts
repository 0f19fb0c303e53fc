/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Dates and the clock (nodes/SentiOne/shared/time.ts, clock.ts): the strict reader for every date input
 * (readDate) and for the server's instants (readServerInstant), wall-clock text read in the
 * workflow's time zone — across the DST changes of Europe/Warsaw and America/New_York and in zones
 * whose offset is not a whole hour — how an instant is shown to a person (formatLocal) and the
 * replaceable clock. Every expected instant is written out by hand (Date.UTC of the UTC time the
 * local time stands for), never computed with the functions under test.
 *
 * The 2026 changes used here: Europe/Warsaw springs forward on 29 March at 01:00 UTC (02:00 CET →
 * 03:00 CEST) and falls back on 25 October at 01:00 UTC (03:00 CEST → 02:00 CET);
 * America/New_York springs forward on 8 March at 07:00 UTC (02:00 EST → 03:00 EDT) and falls back
 * on 1 November at 06:00 UTC (02:00 EDT → 01:00 EST); Australia/Lord_Howe moves by 30 minutes on
 * 4 October at 15:30 UTC (02:00 +10:30 → 02:30 +11:00).
 */
import { DateTime } from 'luxon';

import { clock, setClock } from '../../../nodes/SentiOne/shared/clock';
import {
	DATE_FORMS,
	formatLocal,
	instantProblem,
	readDate,
	readServerInstant,
	showValue,
	toEpochMs,
	toIso,
} from '../../../nodes/SentiOne/shared/time';

const OUTSIDE = 'is outside the years 1990 to 2100';
const ms = (value: number) => ({ ms: value });

describe('readDate: the forms accepted', () => {
	test.each([
		['Z', '2026-11-21T10:00:00Z', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['lower-case z and t', '2026-11-21t10:00:00z', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['a space instead of T', '2026-11-21 10:00:00Z', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['a space before the zone', '2026-11-21T10:00:00 Z', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['spaces around', '  2026-11-21T10:00:00Z \n', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['+02:00', '2026-11-21T12:00:00+02:00', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['+0200', '2026-11-21T12:00:00+0200', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['+02', '2026-11-21T12:00:00+02', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['-05:30', '2026-11-21T04:30:00-05:30', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['+05:45 (Nepal)', '2026-11-21T15:45:00+05:45', Date.UTC(2026, 10, 21, 10, 0, 0)],
		[
			'+14:00 (the largest offset in use)',
			'2026-11-22T00:00:00+14:00',
			Date.UTC(2026, 10, 21, 10, 0, 0),
		],
		['-00:00', '2026-11-21T10:00:00-00:00', Date.UTC(2026, 10, 21, 10, 0, 0)],
		[
			'an offset that moves the date',
			'2026-11-21T00:30:00+01:00',
			Date.UTC(2026, 10, 20, 23, 30, 0),
		],
		['minutes without seconds', '2026-11-21T10:00Z', Date.UTC(2026, 10, 21, 10, 0, 0)],
		['a date alone (midnight)', '2026-11-21', Date.UTC(2026, 10, 21)],
		['milliseconds', '2026-11-21T10:00:00.123Z', Date.UTC(2026, 10, 21, 10, 0, 0, 123)],
		[
			'a comma before the fraction',
			'2026-11-21T10:00:00,25Z',
			Date.UTC(2026, 10, 21, 10, 0, 0, 250),
		],
		['one digit of fraction', '2026-11-21T10:00:00.5Z', Date.UTC(2026, 10, 21, 10, 0, 0, 500)],
		[
			'nanoseconds, rounded to the millisecond',
			'2026-11-21T10:00:00.123456789Z',
			Date.UTC(2026, 10, 21, 10, 0, 0, 123),
		],
		[
			'a fraction that rounds up into the next second',
			'2026-11-21T10:00:00.9996Z',
			Date.UTC(2026, 10, 21, 10, 0, 1, 0),
		],
		['29 February of a leap year', '2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
		[
			'the last instant of a day',
			'2026-12-31T23:59:59.999Z',
			Date.UTC(2026, 11, 31, 23, 59, 59, 999),
		],
		['the earliest accepted instant', '1990-01-01T00:00:00Z', Date.UTC(1990, 0, 1)],
		['the latest accepted instant', '2100-01-01T00:00:00Z', Date.UTC(2100, 0, 1)],
	])('%s: %s', (_what, text, expected) => {
		expect(readDate(text)).toEqual(ms(expected));
	});

	test('epoch milliseconds, a Date and a Luxon DateTime', () => {
		const instant = Date.UTC(2026, 10, 21, 10, 0, 0);
		expect(readDate(instant)).toEqual(ms(instant));
		expect(readDate(new Date(instant))).toEqual(ms(instant));
		expect(readDate(DateTime.fromISO('2026-11-21T11:00:00', { zone: 'Europe/Warsaw' }))).toEqual(
			ms(instant),
		);
		expect(readDate(DateTime.fromISO('2026-11-21T10:00:00Z'), 'America/New_York')).toEqual(
			ms(instant),
		);
	});

	test('nothing: undefined, null, empty or blank text', () => {
		for (const value of [undefined, null, '', '   ', '\t\n'])
			expect(readDate(value)).toEqual({ empty: true });
	});
});

describe('readDate: the forms refused, with the reason', () => {
	test.each([
		// not ISO 8601
		['words', 'yesterday', 'it is not in ISO 8601 form'],
		['a day-first date', '21/11/2026', 'it is not in ISO 8601 form'],
		['months and days without their zero', '2026-1-5', 'it is not in ISO 8601 form'],
		['junk after the zone', '2026-11-21T10:00:00Zjunk', 'it is not in ISO 8601 form'],
		['junk before the date', 'on 2026-11-21', 'it is not in ISO 8601 form'],
		['an hour without minutes', '2026-11-21T10Z', 'it is not in ISO 8601 form'],
		[
			'a zone name instead of an offset',
			'2026-11-21T10:00:00 Europe/Warsaw',
			'it is not in ISO 8601 form',
		],
		['ten digits of fraction', '2026-11-21T10:00:00.1234567890Z', 'it is not in ISO 8601 form'],
		['Unix seconds as text', '1763719200', 'it is not in ISO 8601 form'],
		// impossible dates and times
		['30 February', '2026-02-30T10:00:00Z', 'that day does not exist'],
		['29 February of a common year', '2026-02-29', 'that day does not exist'],
		['31 April', '2026-04-31', 'that day does not exist'],
		['month 13', '2026-13-01', 'that day does not exist'],
		['month 00', '2026-00-10', 'that day does not exist'],
		['day 00', '2026-11-00', 'that day does not exist'],
		['hour 24', '2026-11-21T24:00:00Z', 'that time of day does not exist'],
		['minute 60', '2026-11-21T10:60:00Z', 'that time of day does not exist'],
		['a leap second', '2026-12-31T23:59:60Z', 'that time of day does not exist'],
		['an offset of 19 hours', '2026-11-21T10:00:00+19:00', 'its UTC offset is impossible'],
		['an offset of 60 minutes', '2026-11-21T10:00:00+05:60', 'its UTC offset is impossible'],
		// outside 1990–2100 (the date shown is the UTC day of the instant)
		['the last second of 1989', '1989-12-31T23:59:59Z', `1989-12-31 ${OUTSIDE}`],
		['a millisecond after 2100 began', '2100-01-01T00:00:00.001Z', `2100-01-01 ${OUTSIDE}`],
		['1990 by its wall clock, 1989 in UTC', '1990-01-01T00:30:00+01:00', `1989-12-31 ${OUTSIDE}`],
		['the year 9999', '9999-12-31T00:00:00Z', `9999-12-31 ${OUTSIDE}`],
	])('%s: %s', (_what, text, problem) => {
		expect(readDate(text)).toEqual({ problem });
	});

	test.each([
		[
			'Unix seconds',
			Date.UTC(2025, 10, 21, 10) / 1000,
			'it looks like Unix seconds (2025-11-21T10:00:00.000Z), and a number is read as epoch milliseconds',
		],
		['a small number', 42, 'as epoch milliseconds it is outside the years 1990 to 2100'],
		['zero', 0, 'as epoch milliseconds it is outside the years 1990 to 2100'],
		['a negative number', -1, 'as epoch milliseconds it is outside the years 1990 to 2100'],
		['a huge number', 1e20, 'as epoch milliseconds it is outside the years 1990 to 2100'],
		['NaN', NaN, 'it is not a finite number'],
		['Infinity', Infinity, 'it is not a finite number'],
		['an invalid Date', new Date('nope'), 'it is an invalid Date'],
		['a Date in 1970', new Date(0), `1970-01-01 ${OUTSIDE}`],
		['an invalid Luxon DateTime', DateTime.fromISO('nope'), 'it is an invalid DateTime'],
		['a Luxon DateTime in 2150', DateTime.fromISO('2150-06-01T00:00:00Z'), `2150-06-01 ${OUTSIDE}`],
		['a list', ['2026-11-21T10:00:00Z'], 'it is a list'],
		['an object', { iso: '2026-11-21T10:00:00Z' }, 'it is an object'],
		['a boolean', true, 'it is a boolean'],
		['a bigint', BigInt(1_763_719_200_000), 'it is a bigint'],
	])('%s', (_what, value, problem) => {
		expect(readDate(value)).toEqual({ problem });
	});

	test('the accepted forms, as every refusal names them', () => {
		expect(DATE_FORMS).toBe(
			"an ISO 8601 date and time such as 2026-11-21T10:00:00 (read in the workflow's time zone) or 2026-11-21T10:00:00Z, a Luxon DateTime such as {{ $now.minus(1, 'day') }}, or epoch milliseconds",
		);
	});
});

describe('readDate: text without an offset is wall-clock time in the workflow time zone', () => {
	test.each([
		['UTC by default', '2026-11-21T12:00:00', undefined, Date.UTC(2026, 10, 21, 12)],
		[
			'Europe/Warsaw in winter (UTC+1)',
			'2026-11-21T12:00:00',
			'Europe/Warsaw',
			Date.UTC(2026, 10, 21, 11),
		],
		[
			'Europe/Warsaw in summer (UTC+2)',
			'2026-07-01T12:00:00',
			'Europe/Warsaw',
			Date.UTC(2026, 6, 1, 10),
		],
		[
			'a date alone in Europe/Warsaw: its midnight',
			'2026-11-21',
			'Europe/Warsaw',
			Date.UTC(2026, 10, 20, 23),
		],
		[
			'America/New_York in winter (UTC−5)',
			'2026-11-21T12:00:00',
			'America/New_York',
			Date.UTC(2026, 10, 21, 17),
		],
		[
			'America/New_York in summer (UTC−4)',
			'2026-07-01T12:00:00',
			'America/New_York',
			Date.UTC(2026, 6, 1, 16),
		],
		[
			'Asia/Kolkata (UTC+5:30)',
			'2026-11-21T12:00:00',
			'Asia/Kolkata',
			Date.UTC(2026, 10, 21, 6, 30),
		],
		[
			'Asia/Kathmandu (UTC+5:45)',
			'2026-11-21T12:00:00',
			'Asia/Kathmandu',
			Date.UTC(2026, 10, 21, 6, 15),
		],
		[
			'Australia/Adelaide in its summer (UTC+10:30)',
			'2026-11-21T12:00:00',
			'Australia/Adelaide',
			Date.UTC(2026, 10, 21, 1, 30),
		],
		[
			'Pacific/Chatham in its summer (UTC+13:45)',
			'2026-11-21T12:00:00',
			'Pacific/Chatham',
			Date.UTC(2026, 10, 20, 22, 15),
		],
		[
			'America/St_Johns in winter (UTC−3:30)',
			'2026-11-21T12:00:00',
			'America/St_Johns',
			Date.UTC(2026, 10, 21, 15, 30),
		],
		['Etc/UTC', '2026-11-21T12:00:00', 'Etc/UTC', Date.UTC(2026, 10, 21, 12)],
		[
			'an unknown zone name: read as UTC',
			'2026-11-21T12:00:00',
			'Mars/Olympus',
			Date.UTC(2026, 10, 21, 12),
		],
		['an empty zone name: read as UTC', '2026-11-21T12:00:00', '', Date.UTC(2026, 10, 21, 12)],
		[
			'an offset in the text wins over the zone',
			'2026-11-21T12:00:00Z',
			'Europe/Warsaw',
			Date.UTC(2026, 10, 21, 12),
		],
		[
			'a +01:00 offset wins in New York too',
			'2026-11-21T12:00:00+01:00',
			'America/New_York',
			Date.UTC(2026, 10, 21, 11),
		],
	])('%s', (_what, text, zone, expected) => {
		expect(readDate(text, zone)).toEqual(ms(expected));
	});

	test('around the DST changes of Europe/Warsaw (2026)', () => {
		const warsaw = (text: string) => readDate(text, 'Europe/Warsaw');
		// spring forward: 01:59 CET is 00:59 UTC, 03:00 CEST is 01:00 UTC
		expect(warsaw('2026-03-29T01:59:00')).toEqual(ms(Date.UTC(2026, 2, 29, 0, 59)));
		expect(warsaw('2026-03-29T03:00:00')).toEqual(ms(Date.UTC(2026, 2, 29, 1, 0)));
		// 02:30 never happens that night: refused, naming the day and the zone (issue 21)
		expect(warsaw('2026-03-29T02:30:00')).toEqual({
			problem:
				'02:30 does not exist in Europe/Warsaw on 2026-03-29: the clocks jump over it (daylight saving time). Give a time outside the skipped hour, or a time with an offset such as 2026-03-29T02:30:00Z',
		});
		// fall back: 02:30 happens twice (00:30 UTC in CEST, 01:30 UTC in CET): the earlier, in every zone
		expect(warsaw('2026-10-25T02:30:00')).toEqual(ms(Date.UTC(2026, 9, 25, 0, 30)));
		expect(warsaw('2026-10-25T01:59:00')).toEqual(ms(Date.UTC(2026, 9, 24, 23, 59)));
		expect(warsaw('2026-10-25T03:00:00')).toEqual(ms(Date.UTC(2026, 9, 25, 2, 0)));
	});

	test('around the DST changes of America/New_York (2026)', () => {
		const newYork = (text: string) => readDate(text, 'America/New_York');
		// spring forward: 01:59 EST is 06:59 UTC, 03:00 EDT is 07:00 UTC
		expect(newYork('2026-03-08T01:59:00')).toEqual(ms(Date.UTC(2026, 2, 8, 6, 59)));
		expect(newYork('2026-03-08T03:00:00')).toEqual(ms(Date.UTC(2026, 2, 8, 7, 0)));
		// 02:30 never happens that night: refused, as in every zone
		expect(newYork('2026-03-08T02:30:00')).toMatchObject({
			problem: expect.stringMatching(/^02:30 does not exist in America\/New_York on 2026-03-08/),
		});
		// fall back: 01:30 happens twice (05:30 UTC in EDT, 06:30 UTC in EST): the earlier
		expect(newYork('2026-11-01T01:30:00')).toEqual(ms(Date.UTC(2026, 10, 1, 5, 30)));
		expect(newYork('2026-11-01T00:59:00')).toEqual(ms(Date.UTC(2026, 10, 1, 4, 59)));
		expect(newYork('2026-11-01T02:00:00')).toEqual(ms(Date.UTC(2026, 10, 1, 7, 0)));
	});

	test('a DST change of 30 minutes (Australia/Lord_Howe, 4 October 2026)', () => {
		const lordHowe = (text: string) => readDate(text, 'Australia/Lord_Howe');
		// 01:59 at +10:30 is 15:29 UTC the day before; 02:30 at +11:00 is 15:30 UTC
		expect(lordHowe('2026-10-04T01:59:00')).toEqual(ms(Date.UTC(2026, 9, 3, 15, 29)));
		expect(lordHowe('2026-10-04T02:30:00')).toEqual(ms(Date.UTC(2026, 9, 3, 15, 30)));
		// 02:15 never happens (30 minutes skipped): refused
		expect(lordHowe('2026-10-04T02:15:00')).toMatchObject({
			problem: expect.stringMatching(/^02:15 does not exist in Australia\/Lord_Howe on 2026-10-04/),
		});
	});
});

describe('readServerInstant: only ISO 8601 with a zone, plausible, at most 64 characters', () => {
	test('accepted', () => {
		expect(readServerInstant('2026-11-21T10:00:00Z')).toBe(Date.UTC(2026, 10, 21, 10));
		expect(readServerInstant('2026-11-21T10:00:00.250Z')).toBe(
			Date.UTC(2026, 10, 21, 10, 0, 0, 250),
		);
		expect(readServerInstant('2026-11-21T12:00:00+02:00')).toBe(Date.UTC(2026, 10, 21, 10));
		expect(readServerInstant('2026-11-21T05:00:00-05')).toBe(Date.UTC(2026, 10, 21, 10));
		expect(readServerInstant(' 2026-11-21T10:00:00Z ')).toBe(Date.UTC(2026, 10, 21, 10));
		expect(readServerInstant('1990-01-01T00:00:00Z')).toBe(Date.UTC(1990, 0, 1));
		// 64 characters exactly
		const long = `2026-11-21T10:00:00.123${' '.repeat(40)}Z`;
		expect(long).toHaveLength(64);
		expect(readServerInstant(long)).toBe(Date.UTC(2026, 10, 21, 10, 0, 0, 123));
	});

	test('refused', () => {
		for (const value of [
			'2026-11-21T10:00:00', // no zone: never read in a local time zone
			'2026-11-21', // a date alone has no zone either
			'2026-02-30T10:00:00Z',
			'2026-11-21T24:00:00Z',
			'2026-11-21T10:00:00+19:00',
			'2026-11-21T10:00:00Zjunk',
			'1989-12-31T23:59:59Z',
			'2101-01-01T00:00:00Z',
			`2026-11-21T10:00:00.123${' '.repeat(41)}Z`, // 65 characters
			'',
			Date.UTC(2026, 10, 21, 10), // a number is no server instant
			new Date(Date.UTC(2026, 10, 21, 10)),
			null,
			undefined,
			{ at: '2026-11-21T10:00:00Z' },
		]) {
			expect(readServerInstant(value)).toBeUndefined();
		}
	});
});

describe('toEpochMs, toIso, showValue', () => {
	test('toEpochMs: the instant, undefined for nothing, NaN for what is not a date', () => {
		expect(toEpochMs('2026-11-21T12:00:00', 'Europe/Warsaw')).toBe(Date.UTC(2026, 10, 21, 11));
		expect(toEpochMs('2026-11-21T12:00:00')).toBe(Date.UTC(2026, 10, 21, 12));
		expect(toEpochMs('')).toBeUndefined();
		expect(toEpochMs(null)).toBeUndefined();
		expect(toEpochMs('2026-02-30')).toBeNaN();
		expect(toEpochMs(42)).toBeNaN();
	});

	test('toIso: UTC with milliseconds and Z, for the years 1990 to 2100 only', () => {
		expect(toIso(Date.UTC(2026, 10, 21, 10))).toBe('2026-11-21T10:00:00.000Z');
		expect(toIso(Date.UTC(2026, 10, 21, 10, 0, 0, 7))).toBe('2026-11-21T10:00:00.007Z');
		expect(toIso(Date.UTC(1990, 0, 1))).toBe('1990-01-01T00:00:00.000Z');
		expect(toIso(Date.UTC(2100, 0, 1))).toBe('2100-01-01T00:00:00.000Z');
	});

	test('toIso refuses what a request must never carry: it throws, naming what was computed', () => {
		const cases: Array<[number, string]> = [
			[NaN, 'it is not a finite instant'],
			[Infinity, 'it is not a finite instant'],
			[-Infinity, 'it is not a finite instant'],
			[8.64e15 + 1, 'it is outside the years 1990 to 2100'],
			[-1e308, 'it is outside the years 1990 to 2100'],
			[0, '1970-01-01 is outside the years 1990 to 2100'],
			[Date.UTC(1990, 0, 1) - 1, '1989-12-31 is outside the years 1990 to 2100'],
			[Date.UTC(2100, 0, 1) + 1, '2100-01-01 is outside the years 1990 to 2100'],
		];
		for (const [bad, problem] of cases) {
			expect(instantProblem(bad)).toBe(problem);
			expect(() => toIso(bad, 'the start of the gap search')).toThrow(
				new RangeError(
					`The start of the gap search cannot be sent to SentiOne: ${problem}. Nothing was sent.`,
				),
			);
		}
		expect(instantProblem(Date.UTC(2026, 10, 21))).toBeUndefined();
	});

	test('showValue: one short line', () => {
		expect(showValue('2026-02-30')).toBe('2026-02-30');
		expect(showValue('  two\n\tlines  ')).toBe('two lines');
		expect(showValue(1763719200)).toBe('1763719200');
		expect(showValue(new Date(Date.UTC(2026, 10, 21, 10)))).toBe('2026-11-21T10:00:00.000Z');
		expect(showValue(new Date('nope'))).toBe('Invalid Date');
		expect(showValue(['a', 1])).toBe('["a",1]');
		expect(showValue({ iso: 'x' })).toBe('{"iso":"x"}');
		expect(showValue(undefined)).toBe('undefined');
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		expect(showValue(circular)).toBe('[object Object]');
		expect(showValue('x'.repeat(61))).toBe(`${'x'.repeat(60)}…`);
		expect(showValue('x'.repeat(60))).toBe('x'.repeat(60));
	});
});

describe('formatLocal: an instant as a person reads it in the workflow time zone', () => {
	test.each([
		['UTC', Date.UTC(2026, 10, 21, 12), 'UTC', '2026-11-21 12:00 UTC'],
		['UTC is the default', Date.UTC(2026, 10, 21, 12), undefined, '2026-11-21 12:00 UTC'],
		['Etc/UTC is shown as UTC', Date.UTC(2026, 10, 21, 12), 'Etc/UTC', '2026-11-21 12:00 UTC'],
		[
			'seconds only when there are any',
			Date.UTC(2026, 10, 21, 12, 0, 5),
			'UTC',
			'2026-11-21 12:00:05 UTC',
		],
		[
			'milliseconds are not shown',
			Date.UTC(2026, 10, 21, 12, 0, 0, 999),
			'UTC',
			'2026-11-21 12:00 UTC',
		],
		['midnight is 00:00, not 24:00', Date.UTC(2026, 10, 21), 'UTC', '2026-11-21 00:00 UTC'],
		[
			'Europe/Warsaw in winter',
			Date.UTC(2026, 10, 21, 11),
			'Europe/Warsaw',
			'2026-11-21 12:00 Europe/Warsaw',
		],
		[
			'Europe/Warsaw in summer',
			Date.UTC(2026, 6, 1, 10),
			'Europe/Warsaw',
			'2026-07-01 12:00 Europe/Warsaw',
		],
		[
			'America/New_York in winter',
			Date.UTC(2026, 10, 21, 17),
			'America/New_York',
			'2026-11-21 12:00 America/New_York',
		],
		[
			'America/New_York, the day before in UTC terms',
			Date.UTC(2026, 10, 21, 3),
			'America/New_York',
			'2026-11-20 22:00 America/New_York',
		],
		[
			'Asia/Kolkata (UTC+5:30)',
			Date.UTC(2026, 10, 21, 6, 30),
			'Asia/Kolkata',
			'2026-11-21 12:00 Asia/Kolkata',
		],
		[
			'Asia/Kathmandu (UTC+5:45)',
			Date.UTC(2026, 10, 21, 6, 15),
			'Asia/Kathmandu',
			'2026-11-21 12:00 Asia/Kathmandu',
		],
		[
			'Pacific/Chatham (UTC+13:45)',
			Date.UTC(2026, 10, 21),
			'Pacific/Chatham',
			'2026-11-21 13:45 Pacific/Chatham',
		],
		[
			'across the new year (Asia/Tokyo)',
			Date.UTC(2026, 11, 31, 23, 30),
			'Asia/Tokyo',
			'2027-01-01 08:30 Asia/Tokyo',
		],
		[
			'an unknown zone name: shown in UTC',
			Date.UTC(2026, 10, 21, 12),
			'Mars/Olympus',
			'2026-11-21 12:00 UTC',
		],
		['an empty zone name: shown in UTC', Date.UTC(2026, 10, 21, 12), '', '2026-11-21 12:00 UTC'],
	])('%s', (_what, instant, zone, expected) => {
		expect(formatLocal(instant, zone)).toBe(expected);
	});

	test('across the DST changes of Europe/Warsaw (2026)', () => {
		const warsaw = (instant: number) => formatLocal(instant, 'Europe/Warsaw');
		expect(warsaw(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('2026-03-29 01:59:59 Europe/Warsaw');
		expect(warsaw(Date.UTC(2026, 2, 29, 1, 0))).toBe('2026-03-29 03:00 Europe/Warsaw');
		expect(warsaw(Date.UTC(2026, 9, 25, 0, 59, 59))).toBe('2026-10-25 02:59:59 Europe/Warsaw');
		expect(warsaw(Date.UTC(2026, 9, 25, 1, 0))).toBe('2026-10-25 02:00 Europe/Warsaw');
		// the repeated hour: two instants an hour apart read the same (the text has no offset)
		expect(warsaw(Date.UTC(2026, 9, 25, 0, 30))).toBe('2026-10-25 02:30 Europe/Warsaw');
		expect(warsaw(Date.UTC(2026, 9, 25, 1, 30))).toBe('2026-10-25 02:30 Europe/Warsaw');
	});

	test('across the DST changes of America/New_York (2026)', () => {
		const newYork = (instant: number) => formatLocal(instant, 'America/New_York');
		expect(newYork(Date.UTC(2026, 2, 8, 6, 59, 59))).toBe('2026-03-08 01:59:59 America/New_York');
		expect(newYork(Date.UTC(2026, 2, 8, 7, 0))).toBe('2026-03-08 03:00 America/New_York');
		expect(newYork(Date.UTC(2026, 10, 1, 5, 59, 59))).toBe('2026-11-01 01:59:59 America/New_York');
		expect(newYork(Date.UTC(2026, 10, 1, 6, 0))).toBe('2026-11-01 01:00 America/New_York');
		expect(newYork(Date.UTC(2026, 10, 1, 5, 30))).toBe('2026-11-01 01:30 America/New_York');
		expect(newYork(Date.UTC(2026, 10, 1, 6, 30))).toBe('2026-11-01 01:30 America/New_York');
	});

	test('across the 30-minute DST change of Australia/Lord_Howe (2026)', () => {
		expect(formatLocal(Date.UTC(2026, 9, 3, 15, 29), 'Australia/Lord_Howe')).toBe(
			'2026-10-04 01:59 Australia/Lord_Howe',
		);
		expect(formatLocal(Date.UTC(2026, 9, 3, 15, 30), 'Australia/Lord_Howe')).toBe(
			'2026-10-04 02:30 Australia/Lord_Howe',
		);
	});

	test('what no Date can hold reads "an invalid instant"', () => {
		for (const bad of [NaN, Infinity, -Infinity, 8.64e15 + 1])
			expect(formatLocal(bad, 'Europe/Warsaw')).toBe('an invalid instant');
	});
});

describe('the clock', () => {
	test('real time by default', () => {
		const before = Date.now();
		const now = clock.now();
		expect(now).toBeGreaterThanOrEqual(before);
		expect(now).toBeLessThanOrEqual(Date.now());
	});

	test('setClock replaces now and sleep; the function it returns restores the previous clock', async () => {
		const slept: number[] = [];
		const restoreOuter = setClock({ now: () => Date.UTC(2026, 10, 21, 10) });
		expect(clock.now()).toBe(Date.UTC(2026, 10, 21, 10));
		const restoreInner = setClock({ sleep: async (waitMs) => void slept.push(waitMs) });
		// a replacement of one part keeps the other
		expect(clock.now()).toBe(Date.UTC(2026, 10, 21, 10));
		await clock.sleep(3_600_000);
		expect(slept).toEqual([3_600_000]);
		restoreInner();
		expect(clock.now()).toBe(Date.UTC(2026, 10, 21, 10));
		restoreOuter();
		expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000);
	});

	test('the real sleep waits, and stops when its signal aborts', async () => {
		const started = performance.now();
		await clock.sleep(30);
		expect(performance.now() - started).toBeGreaterThanOrEqual(25);

		const controller = new AbortController();
		const waiting = clock.sleep(60_000, controller.signal);
		setTimeout(() => controller.abort(new Error('closed')), 10);
		await expect(waiting).rejects.toThrow('closed');

		const aborted = new AbortController();
		aborted.abort(new Error('already closed'));
		await expect(clock.sleep(10, aborted.signal)).rejects.toThrow('already closed');
	});
});
