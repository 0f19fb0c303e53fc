/**
 * The poll trigger's memory, kept in the node's static data (plain JSON, so it survives n8n
 * saving and reloading it):
 * - the watermark: the collectedAt of the newest mention in hand;
 * - the ids passed on recently, with their collectedAt, covering the late-mention window behind the
 *   watermark (the ids at the watermark instant itself are the boundary ids): a mention that shows
 *   up late with an older collectedAt is passed on once, one already passed on is never repeated;
 * - a floor: when the id memory is full, the oldest ids are forgotten and the next scan starts
 *   after them, so a forgotten id can never come back as a duplicate;
 * - an unfinished round (a backlog bigger than one poll): the request and the cursor to continue;
 * - the search budget last seen.
 * Everything here is pure: no requests, no clock.
 */
import type { IDataObject } from 'n8n-workflow';

export const STATE_KEY = 'sentiOneMentions';
const STATE_VERSION = 1;

/** Most ids remembered (about 40 bytes each in static data). */
export const MAX_REMEMBERED_IDS = 2000;

/** Most mentions already passed on that a new scan reads again (fewer than one page of 25). */
export const MAX_REREAD = 24;

export interface PollRound {
	/** The request body the round was started with (JSON); a cursor only fits that body. */
	body: string;
	/** The settings the round was started with (source and filters); a change starts a new round. */
	key: string;
	cursor: string;
}

export interface PollBudget {
	limit?: number;
	remaining?: number;
	resetAt?: number;
	/** The reset instant of the window whose exhaustion was already reported (reported once). */
	reported?: number;
}

export interface PollState {
	v: number;
	projectId: number;
	/** collectedAt (epoch ms) of the newest mention in hand; null: nothing matched yet, so everything that appears is new */
	watermark: number | null;
	/** [id, collectedAt ms] of mentions passed on (or noted at the start), oldest first */
	seen: Array<[string, number]>;
	/** Exclusive lower bound of every scan (ids at or before it may have been forgotten); null: none */
	floor: number | null;
	round?: PollRound;
	budget?: PollBudget;
}

function isFiniteNumber(v: unknown): v is number {
	return typeof v === 'number' && Number.isFinite(v);
}

/** Reads the state for a project from static data; undefined when absent, malformed or for another project. */
export function loadState(staticData: IDataObject, projectId: number): PollState | undefined {
	const raw = staticData[STATE_KEY] as Partial<PollState> | undefined;
	if (!raw || typeof raw !== 'object' || raw.v !== STATE_VERSION || raw.projectId !== projectId) return undefined;
	const watermark = raw.watermark === null ? null : isFiniteNumber(raw.watermark) ? raw.watermark : undefined;
	if (watermark === undefined) return undefined;
	const seen = Array.isArray(raw.seen)
		? raw.seen.filter(
				(e): e is [string, number] =>
					Array.isArray(e) && typeof e[0] === 'string' && isFiniteNumber(e[1]),
			)
		: [];
	const floor = isFiniteNumber(raw.floor) ? raw.floor : null;
	const round =
		raw.round &&
		typeof raw.round.body === 'string' &&
		typeof raw.round.key === 'string' &&
		typeof raw.round.cursor === 'string'
			? { body: raw.round.body, key: raw.round.key, cursor: raw.round.cursor }
			: undefined;
	const budget = raw.budget && typeof raw.budget === 'object' ? { ...raw.budget } : undefined;
	return { v: STATE_VERSION, projectId, watermark, seen, floor, round, budget };
}

/** Writes the state (one assignment, so n8n notices the change). */
export function saveState(staticData: IDataObject, state: PollState): void {
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}

export function newState(projectId: number, watermark: number | null, floor: number | null = null): PollState {
	return { v: STATE_VERSION, projectId, watermark, seen: [], floor };
}

/**
 * Where a new scan starts (inclusive collectedAt, epoch ms): the late-mention window behind the
 * watermark, but re-reading at most `maxReread` mentions already passed on (so a check that finds
 * nothing new costs one request; only a group of more than 24 mentions sharing the watermark
 * instant is always read whole), and never at or below the floor. Undefined: no lower bound.
 */
export function scanFrom(state: PollState, lateWindowMs: number, maxReread = MAX_REREAD): number | undefined {
	if (state.watermark === null) return state.floor === null ? undefined : state.floor + 1;
	let from = state.watermark - lateWindowMs;
	const inWindow = state.seen.map(([, at]) => at).filter((at) => at >= from && at <= (state.watermark as number));
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
 * Takes the mentions of one poll in the order the search returned them (collectedAt ascending)
 * and returns the indexes of those to pass on: never an id seen before. Advances the watermark to
 * the newest collectedAt in hand. Mutates `state`.
 */
export function admit(state: PollState, mentions: Array<Collected | undefined>): number[] {
	const seen = new Map<string, number>(state.seen);
	const fresh: number[] = [];
	mentions.forEach((m, index) => {
		if (!m) {
			fresh.push(index);
			return;
		}
		if (!seen.has(m.id)) {
			seen.set(m.id, m.collectedAt);
			fresh.push(index);
		}
		if (state.watermark === null || m.collectedAt > state.watermark) state.watermark = m.collectedAt;
	});
	state.seen = Array.from(seen.entries());
	return fresh;
}

/**
 * Forgets ids the next scan cannot meet again (collected before the late-mention window) and,
 * when more than `max` remain, the oldest of them, raising the floor past the forgotten ones.
 */
export function prune(state: PollState, lateWindowMs: number, max = MAX_REMEMBERED_IDS): void {
	if (state.watermark === null) {
		state.seen = state.seen.slice(-max);
		return;
	}
	const cut = state.watermark - lateWindowMs;
	const kept = state.seen
		.filter(([, at]) => at >= cut)
		.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
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
