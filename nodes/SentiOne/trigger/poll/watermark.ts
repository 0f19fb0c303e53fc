/**
 * The watermark and the ids behind it, as each check moves them: where a scan starts (the
 * late-mention window, re-reading no more mentions already passed on than fit in the pages the
 * check needs anyway), which mentions are new (never an id seen before), how far the watermark
 * moves (never past the clock and a small allowance), and what is forgotten (raising the floor past
 * it, so a forgotten id can never come back as a duplicate). Pure: no requests; the clock is a
 * parameter.
 */
import { BOUNDS } from '../../shared/bounds';
import { idKey } from '../../shared/text';
import { DAY_MS } from '../../shared/units';
import { PAGE_SIZES } from '../../shared/contract';
import type { PollState } from './pollState.types';

/** Most ids remembered (about 40 bytes each in static data; a long id is kept as its 71-character hash). */
export const MAX_REMEMBERED_IDS = 2000;

/** Mentions a search page holds (D-20). */
const PAGE_SIZE = PAGE_SIZES.search as number;

/** Most mentions already passed on that a new scan reads again (fewer than one page). */
export const MAX_REREAD = PAGE_SIZE - 1;

/** After a mention arrived late, the whole late window is read again for this long. */
const LATE_ALERT_MS = DAY_MS;

/**
 * How many mentions already passed on a new scan may read again: as many as fit in the pages the
 * check needs anyway for the new mentions it expects (the last check's count), so re-reading
 * costs no extra request; the whole late window (up to 24) while mentions are arriving late.
 */
export function rereadAllowance(state: PollState, now: number): number {
	if (state.lateAt !== undefined && now - state.lateAt < LATE_ALERT_MS) return MAX_REREAD;
	const expected = Math.max(0, state.lastNew ?? 0);
	const pages = Math.max(1, Math.ceil(expected / PAGE_SIZE));
	return Math.max(0, Math.min(MAX_REREAD, pages * PAGE_SIZE - expected - 1));
}

/**
 * Where a new scan starts (inclusive collectedAt, epoch ms): the late-mention window behind the
 * watermark, but re-reading at most `maxReread` mentions already passed on (so a check that finds
 * nothing new costs one request; the ids at the watermark instant itself are always read), and
 * never at or below the floor. Undefined: no lower bound.
 */
export function scanFrom(
	state: PollState,
	lateWindowMs: number,
	maxReread = MAX_REREAD,
): number | undefined {
	if (state.watermark === null) return state.floor === null ? undefined : state.floor + 1;
	let from = state.watermark - lateWindowMs;
	const inWindow = state.seen
		.map(([, at]) => at)
		.filter((at) => at >= from && at <= (state.watermark as number));
	if (inWindow.length > maxReread) {
		// start just after the (maxReread + 1)-th newest, but always include the watermark instant
		inWindow.sort((a, b) => a - b);
		from = Math.max(from, Math.min(inWindow[inWindow.length - maxReread - 1] + 1, state.watermark));
	}
	if (state.floor !== null) from = Math.max(from, state.floor + 1);
	return from;
}

export interface Collected {
	id: string;
	collectedAt: number;
}

/**
 * Takes mentions in the order they are to be passed on and returns the indexes of those to pass
 * on: never an id seen before (nor one twice in the list). Advances the watermark to the newest
 * collectedAt in hand, but never past `now` plus the future allowance; with `holdWatermark` (an
 * unfinished newest-first round) the watermark stays and the round's `top` records the newest.
 * Mutates `state`.
 */
export function admit(
	state: PollState,
	mentions: Collected[],
	now: number,
	holdWatermark = false,
): number[] {
	const seen = new Map<string, number>(state.seen);
	const ceiling = now + BOUNDS.futureAllowanceMs;
	const fresh: number[] = [];
	let newest: number | undefined;
	mentions.forEach((m, index) => {
		const key = idKey(m.id);
		if (!seen.has(key)) {
			// remembered at its real collectedAt (even in the future), so it is kept until the
			// watermark passes it and can never come back as new
			seen.set(key, m.collectedAt);
			fresh.push(index);
		}
		const at = Math.min(m.collectedAt, ceiling);
		if (newest === undefined || at > newest) newest = at;
	});
	state.seen = Array.from(seen.entries());
	if (newest !== undefined) {
		if (holdWatermark && state.round) state.round.top = Math.max(state.round.top ?? newest, newest);
		else if (!holdWatermark && (state.watermark === null || newest > state.watermark))
			state.watermark = newest;
	}
	return fresh;
}

/** True when the id was passed on before (or is remembered from the start). */
export function wasSeen(state: PollState, id: string): boolean {
	const key = idKey(id);
	return state.seen.some(([seenId]) => seenId === key);
}

/**
 * Forgets ids the next scan cannot meet again (collected before the late-mention window) and,
 * when more than `max` remain, the ones it will not meet first: during a newest-first round, the
 * middle of its backlog (between the old watermark and the late window below the round's top);
 * then the oldest, raising the floor past the forgotten ones.
 */
export function prune(
	state: PollState,
	lateWindowMs: number,
	max = MAX_REMEMBERED_IDS,
	capOnly = false,
): void {
	const byAge = (a: [string, number], b: [string, number]) =>
		a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
	if (state.watermark === null) {
		state.seen = state.seen.slice(-max);
		return;
	}
	const cut = state.watermark - lateWindowMs;
	let kept = (capOnly ? state.seen.slice() : state.seen.filter(([, at]) => at >= cut)).sort(byAge);
	const top = state.round?.top;
	if (kept.length > max && top !== undefined) {
		const watermark = state.watermark;
		const middle = (at: number) => at > watermark && at < top - lateWindowMs;
		let excess = kept.length - max;
		kept = kept.filter(([, at]) => !(excess > 0 && middle(at) && excess-- > 0));
	}
	if (kept.length > max) {
		const dropped = kept.splice(0, kept.length - max);
		const newest = dropped[dropped.length - 1][1];
		state.floor = state.floor === null ? newest : Math.max(state.floor, newest);
	}
	state.seen = kept;
}

/** The ids at the watermark instant (the boundary ids). */
export function boundaryIds(state: PollState): string[] {
	return state.seen.filter(([, at]) => at === state.watermark).map(([id]) => id);
}
