/**
 * What "normal" is for a window, from the trigger's history (history.ts): the mean and spread of
 * the same window on past days (the time of day matters: nights are quiet), or of the windows of
 * the trailing 24 hours. Only slots the trigger saw whole and outside alert episodes count. Pure.
 */
import type { History } from './history';
import { SENTIMENTS, SLOT_MS, sumSlots } from './history';

const DAY_MS = 24 * 3_600_000;

export type BaselineMode = 'sameTime' | 'trailing24h';

export interface Baseline {
	/** mean count of matching mentions in a window like this one */
	expected: number;
	/** standard deviation of those counts */
	spread: number;
	/** how many past windows it was built from */
	samples: number;
	/** which past windows, in words: "the same time on 6 of the past 7 days" */
	basis: string;
}

/** Fewest past days "the same time" needs; fewer falls back to the trailing 24 hours. */
export const MIN_SAME_TIME_DAYS = 3;

function meanAndSpread(values: number[]): { mean: number; spread: number } {
	const mean = values.reduce((a, b) => a + b, 0) / values.length;
	const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
	return { mean, spread: Math.sqrt(variance) };
}

/**
 * The count of (from, to] on a past day, in whole 5-minute slots: the slots it covers whole, plus
 * the slot at each end weighted by the share of it the span covers. So a window that does not
 * start on a slot boundary is compared with the same minutes of a past day, not with slots up to
 * 5 minutes earlier (on a steep rise of the day, such as the morning, that would read low).
 */
function proratedSum(
	history: History,
	from: number,
	to: number,
): { total: number; usable: boolean } {
	const first = Math.floor(from / SLOT_MS) * SLOT_MS;
	const last = Math.floor(to / SLOT_MS) * SLOT_MS;
	if (first === last) {
		const slot = sumSlots(history, first, first + SLOT_MS);
		return { total: (slot.total * (to - from)) / SLOT_MS, usable: slot.usable };
	}
	const head = sumSlots(history, first, first + SLOT_MS);
	const middle = sumSlots(history, first + SLOT_MS, last);
	const tail = to > last ? sumSlots(history, last, last + SLOT_MS) : { total: 0, usable: true };
	return {
		total:
			(head.total * (first + SLOT_MS - from)) / SLOT_MS +
			middle.total +
			(tail.total * (to - last)) / SLOT_MS,
		usable: head.usable && middle.usable && tail.usable,
	};
}

/**
 * The baseline of the window (end − lengthMs, end]; undefined while the history is too short
 * (fewer than MIN_SAME_TIME_DAYS usable days and less than half of the trailing 24 hours usable).
 */
export function baselineFor(
	history: History,
	end: number,
	lengthMs: number,
	mode: BaselineMode,
): Baseline | undefined {
	if (mode === 'sameTime') {
		const days: number[] = [];
		for (let d = 1; d <= 7; d++) {
			const sum = proratedSum(history, end - d * DAY_MS - lengthMs, end - d * DAY_MS);
			if (sum.usable) days.push(sum.total);
		}
		if (days.length >= MIN_SAME_TIME_DAYS) {
			const { mean, spread } = meanAndSpread(days);
			return {
				expected: mean,
				spread,
				samples: days.length,
				basis: `the same time on ${days.length} of the past 7 days`,
			};
		}
	}
	const blocks = Math.max(1, Math.floor(DAY_MS / lengthMs));
	const values: number[] = [];
	for (let k = 1; k <= blocks; k++) {
		const sum = sumSlots(history, end - (k + 1) * lengthMs, end - k * lengthMs);
		if (sum.usable) values.push(sum.total);
	}
	if (values.length === 0 || values.length * 2 < blocks) return undefined;
	const { mean, spread } = meanAndSpread(values);
	return {
		expected: mean,
		spread,
		samples: values.length,
		basis: 'the trailing 24 hours',
	};
}

/** The share of one sentiment among the usable slots of [from, to), with the count it rests on. */
export function sentimentShare(
	history: History,
	from: number,
	to: number,
	sentiment: string,
): { share: number; total: number; usable: boolean } {
	const index = Math.max(0, SENTIMENTS.indexOf(sentiment as (typeof SENTIMENTS)[number]));
	const sum = sumSlots(history, from, to);
	return {
		share: sum.total === 0 ? 0 : sum.bySentiment[index] / sum.total,
		total: sum.total,
		usable: sum.usable,
	};
}

/**
 * The sentiment share normal for a window: the share over the usable slots of the past 7 days
 * (or the trailing 24 hours while fewer days are known), leaving out the window itself.
 */
export function baselineShare(
	history: History,
	windowStart: number,
	sentiment: string,
): { share: number; total: number; basis: string } | undefined {
	const index = Math.max(0, SENTIMENTS.indexOf(sentiment as (typeof SENTIMENTS)[number]));
	let total = 0;
	let matching = 0;
	let usableSlots = 0;
	const from = windowStart - 7 * DAY_MS;
	for (let slot = 0; slot < 7 * 288; slot++) {
		const at = from + slot * 300_000;
		const sum = sumSlots(history, at, at + 300_000);
		if (!sum.usable) continue;
		usableSlots++;
		total += sum.total;
		matching += sum.bySentiment[index];
	}
	// at least six hours of history seen whole
	if (usableSlots < 72 || total === 0) return undefined;
	return {
		share: matching / total,
		total,
		basis:
			usableSlots >= 6 * 288
				? 'the past 7 days'
				: `the past ${Math.round(usableSlots / 12)} hours seen`,
	};
}
