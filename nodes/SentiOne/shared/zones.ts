/**
 * Wall-clock time in a time zone: the parts of an instant as a person there reads them, and the
 * instant of a wall-clock time — which, on the days clocks change, may not exist (spring forward:
 * a gap) or exist twice (fall back). Every date the nodes compute from what a person typed in the
 * workflow's time zone goes through here, so a DST day is handled by one stated rule.
 */

/** Every part of a wall-clock time, in 24-hour form, as Intl.DateTimeFormat gives them. */
const WALL_CLOCK_PARTS: Intl.DateTimeFormatOptions = {
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
	weekday: 'short',
};

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
	let f = formatters.get(zone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...WALL_CLOCK_PARTS });
		formatters.set(zone, f);
	}
	return f;
}

export function isValidZone(zone: unknown): zone is string {
	if (typeof zone !== 'string' || zone === '') return false;
	try {
		formatter(zone);
		return true;
	} catch {
		return false;
	}
}

/** A wall-clock time: month 1–12, weekday 1 (Monday) – 7 (Sunday). */
export interface WallClock {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	weekday: number;
}

/** The wall-clock time of an instant in `zone`. */
export function wallClockOf(epochMs: number, zone: string): WallClock {
	const parts = formatter(zone).formatToParts(new Date(epochMs));
	const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return {
		year: Number(get('year')),
		month: Number(get('month')),
		day: Number(get('day')),
		hour: Number(get('hour')),
		minute: Number(get('minute')),
		second: Number(get('second')),
		weekday: WEEKDAYS.indexOf(get('weekday')) + 1,
	};
}

/** Offset (ms) of `zone` at the UTC instant `utcMs`: local = utc + offset. */
export function zoneOffset(utcMs: number, zone: string): number {
	const w = wallClockOf(utcMs, zone);
	const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Where a wall-clock time falls on the time line of a zone. */
export type WallClockInstant =
	| { ms: number }
	/** the time does not exist that day (clocks jump over it); `after` is the first instant past the gap */
	| { gap: true; after: number }
	/** the time exists twice that day (clocks go back); both instants, earlier first */
	| { ambiguous: [number, number] };

/** The instant(s) of a wall-clock time in `zone` (date parts; seconds and milliseconds optional). */
export function wallClockToUtc(
	wall: Pick<WallClock, 'year' | 'month' | 'day' | 'hour' | 'minute'> & {
		second?: number;
		ms?: number;
	},
	zone: string,
): WallClockInstant {
	const naive = Date.UTC(
		wall.year,
		wall.month - 1,
		wall.day,
		wall.hour,
		wall.minute,
		wall.second ?? 0,
		wall.ms ?? 0,
	);
	// the offsets in force a day before and a day after cover every transition of that day
	const offsets = new Set([
		zoneOffset(naive - 86_400_000, zone),
		zoneOffset(naive + 86_400_000, zone),
	]);
	const instants = [...offsets]
		.map((offset) => naive - offset)
		.filter((ms) => zoneOffset(ms, zone) === naive - ms)
		.sort((a, b) => a - b);
	if (instants.length === 1) return { ms: instants[0] };
	if (instants.length >= 2) return { ambiguous: [instants[0], instants[instants.length - 1]] };
	// in the gap: the instant the clocks jump, read with the offset in force after it
	const after = naive - Math.min(...offsets);
	const jump = naive - Math.max(...offsets);
	return { gap: true, after: Math.max(after, jump) };
}

/** The earliest instant of a wall-clock time (a time in a DST gap: the first instant after the gap). */
export function earliestInstant(instant: WallClockInstant): number {
	if ('ms' in instant) return instant.ms;
	if ('ambiguous' in instant) return instant.ambiguous[0];
	return instant.after;
}

/** The calendar day after (or `days` after) a date, as year/month/day. */
export function addDays(
	date: Pick<WallClock, 'year' | 'month' | 'day'>,
	days: number,
): Pick<WallClock, 'year' | 'month' | 'day'> {
	const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
	return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
