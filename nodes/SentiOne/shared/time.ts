/**
 * Dates as n8n hands them to a node: a dateTime parameter is a wall-clock string without a zone
 * (to be read in the workflow's time zone), an expression may give an ISO string with an offset,
 * a Date, or a Luxon DateTime. Everything leaves here as UTC ISO 8601 with milliseconds and `Z`,
 * the form the API documents.
 * The clock the date rules read (now) is clock.ts.
 */
import { BOUNDS } from './bounds';
import { clock } from './clock';
import { earliestInstant, isValidZone, wallClockOf, wallClockToUtc } from './zones';
import { MINUTE_MS } from './units';

/**
 * ISO 8601 as people and servers write it: a calendar date, optionally a time (minutes, seconds
 * and a fraction optional), optionally a zone (`Z` or an offset such as +02:00, +0200 or +02).
 */
const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The forms every date refusal names. */
export const DATE_FORMS =
	"an ISO 8601 date and time such as 2026-11-21T10:00:00 (read in the workflow's time zone) or 2026-11-21T10:00:00Z, a Luxon DateTime such as {{ $now.minus(1, 'day') }}, or epoch milliseconds";

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** What reading a date gave: an instant, nothing (empty), or why it is not a date. */
export type DateReading = { ms: number } | { empty: true } | { problem: string };

const plausible = (ms: number) =>
	ms >= BOUNDS.earliestPlausibleMs && ms <= BOUNDS.latestPlausibleMs;
const outOfRange = (ms: number) =>
	`${Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString().slice(0, 10) : 'it'} is outside the years 1990 to 2100`;

/**
 * Reads an ISO 8601 string strictly: every part in range (no 2026-02-30, no 25:00), nothing around
 * it. Without a zone it is wall-clock time in `timezone`; `requireZone` refuses that (server data).
 */
function readIsoText(text: string, timezone: string, requireZone: boolean): DateReading {
	const m = ISO_DATE.exec(text);
	if (!m) return { problem: 'it is not in ISO 8601 form' };
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	const hour = h === undefined ? 0 : Number(h);
	const minute = mi === undefined ? 0 : Number(mi);
	const second = s === undefined ? 0 : Number(s);
	if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
		return { problem: 'that day does not exist' };
	}
	if (hour > 23 || minute > 59 || second > 59)
		return { problem: 'that time of day does not exist' };
	const fraction = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
	const wall = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
	let ms: number;
	if (zone !== undefined) {
		let offset = 0;
		if (zone !== 'Z' && zone !== 'z') {
			const sign = zone[0] === '-' ? -1 : 1;
			const digits = zone.slice(1).replace(':', '');
			const oh = Number(digits.slice(0, 2));
			const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
			if (oh > 18 || om > 59) return { problem: 'its UTC offset is impossible' };
			offset = sign * (oh * 60 + om) * 60_000;
		}
		ms = wall - offset;
	} else if (requireZone) {
		return { problem: 'it has no time zone (Z or an offset)' };
	} else {
		const tz = isValidZone(timezone) ? timezone : 'UTC';
		const local = wallClockToUtc({ year, month, day, hour, minute, second, ms: fraction }, tz);
		if ('gap' in local) {
			return {
				problem: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')} does not exist in ${tz} on ${y}-${mo}-${d}: the clocks jump over it (daylight saving time). Give a time outside the skipped hour, or a time with an offset such as ${y}-${mo}-${d}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`,
			};
		}
		// a time that exists twice (the clocks go back) is the earlier one
		ms = earliestInstant(local);
	}
	return plausible(ms) ? { ms } : { problem: outOfRange(ms) };
}

/**
 * The one date reader for every date input: parameters (a dateTime field is wall-clock text read
 * in the workflow's time zone), expressions (ISO text with or without a zone, a Date, a Luxon
 * DateTime, epoch milliseconds) and saved state. Strict: impossible dates, junk around a date,
 * numbers that are not plausible epoch milliseconds (Unix seconds are named as such), and instants
 * outside 1990–2100 are refused with the reason.
 */
export function readDate(value: unknown, timezone = 'UTC'): DateReading {
	if (value === undefined || value === null || value === '') return { empty: true };
	if (value instanceof Date) {
		const ms = value.getTime();
		if (Number.isNaN(ms)) return { problem: 'it is an invalid Date' };
		return plausible(ms) ? { ms } : { problem: outOfRange(ms) };
	}
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return { problem: 'it is not a finite number' };
		if (plausible(value)) return { ms: value };
		if (plausible(value * 1000)) {
			return {
				problem: `it looks like Unix seconds (${new Date(value * 1000).toISOString()}), and a number is read as epoch milliseconds`,
			};
		}
		return { problem: 'as epoch milliseconds it is outside the years 1990 to 2100' };
	}
	if (typeof value === 'object') {
		const candidate = value as {
			isValid?: unknown;
			toMillis?: () => number;
			toISO?: () => string | null;
		};
		if (typeof candidate.toMillis === 'function') {
			if (candidate.isValid === false) return { problem: 'it is an invalid DateTime' };
			const ms = candidate.toMillis();
			if (!Number.isFinite(ms)) return { problem: 'it is an invalid DateTime' };
			return plausible(ms) ? { ms } : { problem: outOfRange(ms) };
		}
		if (Array.isArray(value)) return { problem: 'it is a list' };
		return { problem: 'it is an object' };
	}
	if (typeof value !== 'string') return { problem: `it is a ${typeof value}` };
	const text = value.trim();
	if (text === '') return { empty: true };
	return readIsoText(text, timezone, false);
}

/** How a refused date value is shown in a message (short, one line). */
export function showValue(value: unknown): string {
	let text: string;
	if (typeof value === 'string') text = value;
	else if (typeof value === 'number') text = String(value);
	else if (value instanceof Date)
		text = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	else {
		try {
			text = JSON.stringify(value) ?? String(value);
		} catch {
			text = String(value);
		}
	}
	text = text.replace(/\s+/g, ' ').trim();
	return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * An instant the server sent (collectedAt, publishedAt, a heartbeat date, a reset in a message):
 * ISO 8601 with a zone, plausible; undefined for anything else.
 */
export function readServerInstant(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.length > 64) return undefined;
	const reading = readIsoText(value.trim(), 'UTC', true);
	return 'ms' in reading ? reading.ms : undefined;
}

/**
 * Converts a date value to epoch milliseconds: undefined for an empty value, NaN for a value that
 * is not a date (readDate says why).
 */
export function toEpochMs(value: unknown, timezone = 'UTC'): number | undefined {
	const reading = readDate(value, timezone);
	if ('empty' in reading) return undefined;
	return 'ms' in reading ? reading.ms : NaN;
}

/**
 * Why an instant cannot go into a request, or undefined when it can: it must be finite and within
 * the years 1990 to 2100 (BOUNDS), the years SentiOne's data and any sensible input lie in.
 */
export function instantProblem(epochMs: number): string | undefined {
	if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) return 'it is not a finite instant';
	return plausible(epochMs) ? undefined : outOfRange(epochMs);
}

/**
 * UTC ISO 8601 with milliseconds: the one constructor of the dates a request carries. An instant
 * outside 1990–2100 (or not finite) throws a RangeError naming `what` instead of becoming text, so
 * no request can carry "an invalid instant" or a year no one meant. Code that computes an instant
 * from user input checks it first with `instantProblem`, to refuse it naming the field.
 */
export function toIso(epochMs: number, what = 'a date the node computed'): string {
	const problem = instantProblem(epochMs);
	if (problem !== undefined) {
		throw new RangeError(
			`${what[0].toUpperCase()}${what.slice(1)} cannot be sent to SentiOne: ${problem}. Nothing was sent.`,
		);
	}
	return new Date(epochMs).toISOString();
}

/**
 * An instant as a person reads it in the workflow's time zone: `2026-11-21 12:00 Europe/Warsaw`
 * (seconds only when there are any; `UTC` when the zone is UTC or unknown).
 */
export function formatLocal(epochMs: number, zone = 'UTC'): string {
	if (!Number.isFinite(epochMs) || Math.abs(epochMs) > 8.64e15) return 'an invalid instant';
	const tz = zone && isValidZone(zone) ? zone : 'UTC';
	const w = wallClockOf(epochMs, tz);
	const two = (n: number) => String(n).padStart(2, '0');
	const time = `${two(w.hour)}:${two(w.minute)}${w.second !== 0 ? `:${two(w.second)}` : ''}`;
	return `${w.year}-${two(w.month)}-${two(w.day)} ${time} ${tz === 'Etc/UTC' || tz === 'UTC' ? 'UTC' : tz}`;
}

/** An instant for a message: in the workflow's time zone, and how far away it is. */
export function formatInstant(epochMs: number, now = clock.now(), zone = 'UTC'): string {
	const iso = formatLocal(epochMs, zone);
	if (!Number.isFinite(epochMs) || !Number.isFinite(now)) return iso;
	const minutes = Math.round((epochMs - now) / MINUTE_MS);
	if (minutes <= 0) return `${iso} (now)`;
	if (minutes < 120) return `${iso} (in ${minutes} min)`;
	return `${iso} (in ${Math.round(minutes / 60)} h)`;
}
