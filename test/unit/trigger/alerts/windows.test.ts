/**
 * Digest windows in the workflow's time zone (trigger/alerts/windows.ts): intervals restart at
 * local midnight, daily and weekly windows at a local time of day, DST days by the stated rules,
 * odd offsets, and times that do not exist refused at set-up.
 */
import {
	dstProblem,
	nextWindow,
	windowAt,
	type WindowSpec,
} from '../../../../nodes/SentiOne/trigger/alerts/windows';
import { iso } from '../../../support/time';

const at = (text: string) => Date.parse(text);

/** The windows from the one containing `from`, `count` of them, as [start, end] ISO pairs. */
function windows(spec: WindowSpec, from: string, zone: string, count: number): string[][] {
	let w = windowAt(spec, at(from), zone);
	const out: string[][] = [];
	for (let i = 0; i < count; i++) {
		out.push([iso(w.start), iso(w.end)]);
		w = nextWindow(spec, w, zone);
	}
	return out;
}

test('every 6 hours restarts at local midnight: 00, 06, 12, 18 in Warsaw (UTC+1 in winter)', () => {
	expect(
		windows({ kind: 'minutes', every: 360 }, '2026-11-21T10:30:00Z', 'Europe/Warsaw', 3),
	).toEqual([
		['2026-11-21T05:00:00.000Z', '2026-11-21T11:00:00.000Z'], // 06:00–12:00 local
		['2026-11-21T11:00:00.000Z', '2026-11-21T17:00:00.000Z'],
		['2026-11-21T17:00:00.000Z', '2026-11-21T23:00:00.000Z'],
	]);
});

test('hourly windows across spring forward: 01:00–03:00 local is one hour, nothing is lost', () => {
	// Europe/Warsaw 2027-03-28: 02:00 → 03:00
	const ws = windows({ kind: 'minutes', every: 60 }, '2027-03-27T23:30:00Z', 'Europe/Warsaw', 4);
	expect(ws).toEqual([
		['2027-03-27T23:00:00.000Z', '2027-03-28T00:00:00.000Z'], // 00:00–01:00 CET
		['2027-03-28T00:00:00.000Z', '2027-03-28T01:00:00.000Z'], // 01:00–03:00 (02:00 does not exist)
		['2027-03-28T01:00:00.000Z', '2027-03-28T02:00:00.000Z'], // 03:00–04:00 CEST
		['2027-03-28T02:00:00.000Z', '2027-03-28T03:00:00.000Z'],
	]);
	for (let i = 1; i < ws.length; i++) expect(ws[i][0]).toBe(ws[i - 1][1]);
});

test('hourly windows across fall back: the repeated hour is one two-hour window, contiguous', () => {
	// Europe/Warsaw 2026-10-25: 03:00 → 02:00
	const ws = windows({ kind: 'minutes', every: 60 }, '2026-10-24T23:30:00Z', 'Europe/Warsaw', 4);
	for (let i = 1; i < ws.length; i++) expect(ws[i][0]).toBe(ws[i - 1][1]);
	const lengths = ws.map(([s, e]) => (at(e) - at(s)) / 3_600_000);
	expect(lengths).toContain(2);
});

test('daily at 09:00 in Warsaw: 24 h windows, 23 h and 25 h on the DST days', () => {
	const spec: WindowSpec = { kind: 'daily', hour: 9, minute: 0 };
	expect(windows(spec, '2026-11-21T10:30:00Z', 'Europe/Warsaw', 1)).toEqual([
		['2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'],
	]);
	const spring = windows(spec, '2027-03-27T12:00:00Z', 'Europe/Warsaw', 1)[0];
	expect((at(spring[1]) - at(spring[0])) / 3_600_000).toBe(23);
	const fall = windows(spec, '2026-10-24T12:00:00Z', 'Europe/Warsaw', 1)[0];
	expect((at(fall[1]) - at(fall[0])) / 3_600_000).toBe(25);
});

test('weekly on Monday 08:00 in New York; odd offsets (Kathmandu +05:45, Lord Howe’s 30-minute DST)', () => {
	const monday = windows(
		{ kind: 'weekly', weekday: 1, hour: 8, minute: 0 },
		'2026-11-26T12:00:00Z',
		'America/New_York',
		2,
	);
	expect(monday[0]).toEqual(['2026-11-23T13:00:00.000Z', '2026-11-30T13:00:00.000Z']);
	expect(monday[1][0]).toBe(monday[0][1]);
	expect(
		windows({ kind: 'daily', hour: 0, minute: 0 }, '2026-11-21T10:30:00Z', 'Asia/Kathmandu', 1),
	).toEqual([['2026-11-20T18:15:00.000Z', '2026-11-21T18:15:00.000Z']]);
	// Lord Howe: +10:30 in winter, +11:00 in summer (DST starts 2026-10-04 02:00 → 02:30)
	const lh = windows(
		{ kind: 'minutes', every: 30 },
		'2026-10-03T15:00:00Z',
		'Australia/Lord_Howe',
		6,
	);
	for (let i = 1; i < lh.length; i++) expect(lh[i][0]).toBe(lh[i - 1][1]);
});

test('a daily time inside a spring-forward gap is refused at set-up, naming the day', () => {
	expect(
		dstProblem({ kind: 'daily', hour: 2, minute: 30 }, 'Europe/Warsaw', at('2026-11-21T10:30:00Z')),
	).toBe(
		'02:30 does not exist in Europe/Warsaw on 2027-03-28: the clocks jump over it (daylight saving time)',
	);
	expect(
		dstProblem({ kind: 'daily', hour: 9, minute: 0 }, 'Europe/Warsaw', at('2026-11-21T10:30:00Z')),
	).toBeUndefined();
	expect(
		dstProblem({ kind: 'daily', hour: 2, minute: 30 }, 'UTC', at('2026-11-21T10:30:00Z')),
	).toBeUndefined();
	expect(
		dstProblem({ kind: 'minutes', every: 60 }, 'Europe/Warsaw', at('2026-11-21T10:30:00Z')),
	).toBeUndefined();
});
