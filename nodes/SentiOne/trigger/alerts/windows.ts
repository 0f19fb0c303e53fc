/**
 * The windows a digest covers, in the workflow's time zone: every N minutes or hours (restarting
 * at local midnight, so "every 6 hours" is 00:00, 06:00, 12:00, 18:00 there), daily at a time of
 * day, or weekly on a weekday at a time of day. A window is [start, end) in epoch ms.
 *
 * DST days, one rule each (docs/alerts.md): a window boundary whose wall-clock time does not exist
 * that day (spring forward) moves forward by the length of the gap, as the clocks do; one that
 * exists twice (fall back) is the earlier. A daily or weekly time that falls into a gap on some day
 * of the next two years is refused when the trigger is set up (`dstProblem`), so a digest never
 * comes at a time the user did not choose. Pure: the instant is a parameter.
 */
import type { WallClock } from '../../shared/zones';
import { addDays, earliestInstant, wallClockOf, wallClockToUtc } from '../../shared/zones';

export type WindowSpec =
	| { kind: 'minutes'; every: number }
	| { kind: 'daily'; hour: number; minute: number }
	| { kind: 'weekly'; weekday: number; hour: number; minute: number };

export interface Window {
	start: number;
	end: number;
}

type Day = Pick<WallClock, 'year' | 'month' | 'day'>;

const DAY_MINUTES = 24 * 60;

function instantOf(day: Day, minuteOfDay: number, zone: string): number {
	const next = minuteOfDay >= DAY_MINUTES ? addDays(day, 1) : day;
	const minute = minuteOfDay % DAY_MINUTES;
	return earliestInstant(
		wallClockToUtc({ ...next, hour: Math.floor(minute / 60), minute: minute % 60 }, zone),
	);
}

/** The window boundaries of one local day for an interval spec (start of day first, next day's start last). */
function dayBoundaries(day: Day, every: number, zone: string): number[] {
	const out: number[] = [];
	for (let m = 0; m < DAY_MINUTES; m += every) out.push(instantOf(day, m, zone));
	out.push(instantOf(addDays(day, 1), 0, zone));
	// a boundary moved forward past the next one by a gap collapses into it
	return out.filter((ms, i) => i === out.length - 1 || ms < out[i + 1]);
}

/** The window that contains the instant `at`. */
export function windowAt(spec: WindowSpec, at: number, zone: string): Window {
	const local = wallClockOf(at, zone);
	const today: Day = { year: local.year, month: local.month, day: local.day };
	if (spec.kind === 'minutes') {
		for (const day of [addDays(today, -1), today, addDays(today, 1)]) {
			const bounds = dayBoundaries(day, spec.every, zone);
			for (let i = 0; i + 1 < bounds.length; i++) {
				if (bounds[i] <= at && at < bounds[i + 1]) return { start: bounds[i], end: bounds[i + 1] };
			}
		}
		throw new Error(`no window contains ${new Date(at).toISOString()}`);
	}
	const minuteOfDay = spec.hour * 60 + spec.minute;
	// the boundary on or before `at`: look back day by day (at most 7 for weekly)
	const lookBack = spec.kind === 'daily' ? 2 : 8;
	for (let back = -1; back <= lookBack; back++) {
		const day = addDays(today, -back);
		const weekday = wallClockOf(Date.UTC(day.year, day.month - 1, day.day, 12), 'UTC').weekday;
		if (spec.kind === 'weekly' && weekday !== spec.weekday) continue;
		const start = instantOf(day, minuteOfDay, zone);
		if (start > at) continue;
		const next = addDays(day, spec.kind === 'daily' ? 1 : 7);
		return { start, end: instantOf(next, minuteOfDay, zone) };
	}
	throw new Error(`no window contains ${new Date(at).toISOString()}`);
}

/** The window right after `window`. */
export function nextWindow(spec: WindowSpec, window: Window, zone: string): Window {
	return windowAt(spec, window.end, zone);
}

/**
 * Why a daily or weekly time cannot be used in `zone`: the first day within `years` years from
 * `from` on which it does not exist (clocks jump over it), as a sentence; undefined when it exists
 * every day.
 */
export function dstProblem(
	spec: WindowSpec,
	zone: string,
	from: number,
	years = 2,
): string | undefined {
	if (spec.kind === 'minutes') return undefined;
	const local = wallClockOf(from, zone);
	let day: Day = { year: local.year, month: local.month, day: local.day };
	for (let i = 0; i < 366 * years; i++, day = addDays(day, 1)) {
		const instant = wallClockToUtc({ ...day, hour: spec.hour, minute: spec.minute }, zone);
		if ('gap' in instant) {
			const date = `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
			return `${String(spec.hour).padStart(2, '0')}:${String(spec.minute).padStart(2, '0')} does not exist in ${zone} on ${date}: the clocks jump over it (daylight saving time)`;
		}
	}
	return undefined;
}

/** The length of a spec's windows in minutes, on a day without a clock change. */
export function nominalMinutes(spec: WindowSpec): number {
	if (spec.kind === 'minutes') return spec.every;
	return spec.kind === 'daily' ? DAY_MINUTES : 7 * DAY_MINUTES;
}
