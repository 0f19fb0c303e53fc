/**
 * The poll trigger's memory, kept in the node's static data (plain JSON, so it survives n8n
 * saving and reloading it):
 * - the watermark: the collectedAt of the newest mention in hand (never more than a small allowance
 *   ahead of the node's own clock, so one mention dated in the future cannot hide later ones);
 * - the ids passed on recently, with their collectedAt, covering the late-mention window behind the
 *   watermark (the ids at the watermark instant itself are the boundary ids): a mention that shows
 *   up late with an older collectedAt is passed on once, one already passed on is never repeated;
 * - a floor: when the id memory is full, the oldest ids are forgotten and the next scan starts
 *   after them, so a forgotten id can never come back as a duplicate;
 * - an unfinished round (a backlog bigger than one poll): the request, the cursor to continue and,
 *   for a newest-first round, the newest collectedAt it passed on;
 * - how new mentions are found: SentiOne's collectedAt filter, or (once SentiOne is seen not to
 *   honour it) a newest-first scan down to the watermark;
 * - the search budget last seen, what the last check found, and notices for the user.
 *
 * Saved state is input like any other: `loadState` checks it field by field, keeps what is
 * readable and repairs the rest conservatively (never a flood of repeats, never a silent skip),
 * listing each repair so the trigger can report it once.
 * What the scans do with the state (watermark, remembered ids, floor) is in watermark.ts. Everything
 * here is pure: no requests; the clock is a parameter.
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS, plausibleInstant, plausibleReset } from '../../shared/bounds';
import { isEndCursor } from '../../shared/pager';
import { idKey } from '../../shared/text';
import type { PollBudget, PollRound, PollState, ScanMode } from './pollState.types';
import { MAX_REMEMBERED_IDS, prune } from './watermark';

export type { KeyUse, PollBudget, PollRound, PollState, ScanMode } from './pollState.types';

export const STATE_KEY = 'sentiOneMentions';
const STATE_VERSION = 2;

const MAX_NOTICES = 10;
const MAX_NOTICE_CHARS = 1000;
const MAX_ROUND_TEXT = 64 * 1024;

function isObject(v: unknown): v is IDataObject {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function wholeIn(v: unknown, min: number, max: number): number | undefined {
	return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined;
}

function shortStrings(v: unknown, maxCount: number): string[] | undefined {
	if (!Array.isArray(v)) return undefined;
	return v
		.filter((s): s is string => typeof s === 'string' && s.length <= MAX_NOTICE_CHARS)
		.slice(-maxCount);
}

export interface Loaded {
	/** undefined: nothing usable is saved for this project (a first activation, or another project) */
	state?: PollState;
	/** what was unreadable and how it was repaired, in words (empty when nothing was) */
	repairs: string[];
	/**
	 * The first check (the seed) got a 429: no position yet, and no request before this reset
	 * (`waitingSeed` saved it; `repairs` are those that made the seed necessary, still to report).
	 */
	seedWait?: PollBudget & { resetAt: number };
}

/**
 * What a first check that got a 429 saves: no position, the reset it waits for, and the repairs it
 * has yet to report (loadState gives them back), so later checks before the reset send nothing.
 */
export function waitingSeed(
	staticData: IDataObject,
	projectId: number,
	budget: PollBudget & { resetAt: number },
	repairs: string[],
): void {
	const seedWait: IDataObject = { resetAt: budget.resetAt, repairs };
	if (budget.limit !== undefined) seedWait.limit = budget.limit;
	staticData[STATE_KEY] = { v: STATE_VERSION, projectId, seedWait };
}

/**
 * Reads the state for a project from static data, checking every field (types, finite, plausible
 * ranges against `now`). A state saved for another project is not this project's: undefined, no
 * repair. A state that cannot give a watermark in any way is undefined with a repair saying so (the
 * trigger then starts again from the newest mention, and reports it).
 */
export function loadState(staticData: IDataObject, projectId: number, now: number): Loaded {
	const raw = staticData[STATE_KEY];
	const repairs: string[] = [];
	if (raw === undefined) return { repairs };
	if (!isObject(raw)) {
		return {
			repairs: ['the saved state is not an object, so where the trigger had got to is unknown'],
		};
	}
	if (typeof raw.projectId === 'number' && raw.projectId !== projectId) return { repairs };
	if (raw.projectId === projectId && isObject(raw.seedWait) && raw.watermark === undefined) {
		// a first check that got a 429: still no position; wait for a plausible reset
		const wait = raw.seedWait;
		const resetAt =
			typeof wait.resetAt === 'number' ? plausibleReset(wait.resetAt, now, 'ms') : undefined;
		const limit = wholeIn(wait.limit, 1, 10_000_000);
		const loaded: Loaded = { repairs: shortStrings(wait.repairs, MAX_NOTICES) ?? [] };
		if (resetAt !== undefined)
			loaded.seedWait = limit === undefined ? { resetAt } : { resetAt, limit };
		return loaded;
	}
	if (raw.projectId !== projectId)
		repairs.push('the project of the saved state was unreadable; it was taken as this project');
	if (raw.v !== 1 && raw.v !== STATE_VERSION)
		repairs.push(`the state version (${JSON.stringify(raw.v)}) was unknown`);

	const ceiling = now + BOUNDS.futureAllowanceMs;
	const instant = (v: unknown) => (plausibleInstant(v) ? v : undefined);

	// seen: keep every readable id (hashing long ones); an unreadable time is repaired below
	let seen: Array<[string, number]> = [];
	const timeless: string[] = [];
	let seenReadable = true;
	if (Array.isArray(raw.seen)) {
		let bad = 0;
		for (const entry of raw.seen) {
			if (
				!Array.isArray(entry) ||
				entry.length !== 2 ||
				typeof entry[0] !== 'string' ||
				entry[0] === ''
			) {
				bad++;
			} else if (instant(entry[1]) === undefined) {
				timeless.push(idKey(entry[0]));
			} else {
				// the real collectedAt, even ahead of the clock: the id must stay remembered until the
				// watermark passes it, or a mention dated in the future would come back as new
				seen.push([idKey(entry[0]), entry[1] as number]);
			}
		}
		if (bad > 0)
			repairs.push(`${bad} remembered id${bad === 1 ? ' was' : 's were'} unreadable and dropped`);
	} else if (raw.seen !== undefined) {
		seenReadable = false;
		repairs.push('the list of mentions already passed on was unreadable');
	}

	// watermark
	let watermark: number | null;
	if (raw.watermark === null) watermark = null;
	else if (instant(raw.watermark) !== undefined) {
		watermark = raw.watermark as number;
		if (watermark > ceiling) {
			repairs.push(
				`the watermark (${new Date(watermark).toISOString()}) was ahead of the clock; it was moved back to ${new Date(ceiling).toISOString()}`,
			);
			watermark = ceiling;
		}
	} else {
		const newest = seen.reduce<number | undefined>(
			(m, [, at]) => (m === undefined || at > m ? at : m),
			undefined,
		);
		const floorValue = instant(raw.floor);
		const candidate = newest ?? floorValue;
		watermark = candidate === undefined ? null : Math.min(candidate, ceiling);
		if (watermark === null) {
			return {
				repairs: [
					...repairs,
					`the watermark (${JSON.stringify(raw.watermark)?.slice(0, 40)}) was unreadable and nothing else tells where the trigger had got to`,
				],
			};
		}
		repairs.push(
			`the watermark was unreadable; it was taken from the newest mention remembered (${new Date(watermark).toISOString()})`,
		);
	}
	if (timeless.length > 0) {
		// still remembered (so never passed on twice), at the watermark: kept through the late window
		const at = watermark ?? Math.min(now, ceiling);
		for (const id of timeless) seen.push([id, at]);
		repairs.push(
			`${timeless.length} remembered id${timeless.length === 1 ? ' had' : 's had'} an unreadable time and ${timeless.length === 1 ? 'is' : 'are'} kept at the watermark`,
		);
	}

	// floor: below the watermark by definition
	let floor: number | null;
	if (raw.floor === null || raw.floor === undefined) floor = null;
	else if (instant(raw.floor) !== undefined) {
		floor = raw.floor as number;
		const highest = watermark ?? ceiling;
		if (floor > highest) {
			repairs.push(
				`the floor (${new Date(floor).toISOString()}) was ahead of the watermark; it was lowered to it`,
			);
			floor = highest;
		}
	} else {
		const oldest = seen.reduce<number | undefined>(
			(m, [, at]) => (m === undefined || at < m ? at : m),
			undefined,
		);
		floor = oldest ?? watermark;
		repairs.push(
			'the floor (below which ids may have been forgotten) was unreadable; it was raised to the oldest id remembered',
		);
	}
	if (!seenReadable && watermark !== null) {
		// what was passed on within the late window is unknown: scan only after the watermark
		floor = floor === null ? watermark : Math.max(floor, watermark);
		seen = [];
	}

	// round: our own request and the server's cursor, both bounded
	let round: PollRound | undefined;
	if (raw.round !== undefined) {
		const r = raw.round;
		if (
			isObject(r) &&
			typeof r.body === 'string' &&
			r.body.length <= MAX_ROUND_TEXT &&
			typeof r.key === 'string' &&
			r.key.length <= MAX_ROUND_TEXT &&
			typeof r.cursor === 'string' &&
			!isEndCursor(r.cursor) &&
			r.cursor.length <= BOUNDS.maxCursorChars &&
			(r.top === undefined || instant(r.top) !== undefined)
		) {
			try {
				const body = JSON.parse(r.body) as unknown;
				if (isObject(body) && (body.filters === undefined || isObject(body.filters))) {
					round = { body: r.body, key: r.key, cursor: r.cursor };
					if (r.top !== undefined) round.top = Math.min(r.top as number, ceiling);
				}
			} catch {
				round = undefined;
			}
		}
		if (!round)
			repairs.push(
				'the unfinished backlog round was unreadable; the next check starts again from the watermark',
			);
	}

	// budget: re-checked against the clock, never trusted forever
	let budget: PollBudget | undefined;
	if (isObject(raw.budget)) {
		const b = raw.budget;
		const resetAt =
			typeof b.resetAt === 'number' ? plausibleReset(b.resetAt, now, 'ms') : undefined;
		budget = {};
		const limit = wholeIn(b.limit, 1, 10_000_000);
		const remaining = wholeIn(b.remaining, 0, 10_000_000);
		if (limit !== undefined) budget.limit = limit;
		if (remaining !== undefined && resetAt !== undefined) budget.remaining = remaining;
		if (resetAt !== undefined) budget.resetAt = resetAt;
		if (typeof b.reported === 'number' && b.reported === resetAt) budget.reported = resetAt;
	}

	const mode: ScanMode | undefined = raw.mode === 'descending' ? 'descending' : undefined;
	if (raw.mode !== undefined && raw.mode !== 'descending' && raw.mode !== 'collectedAt') {
		repairs.push(
			'how the trigger finds new mentions was unreadable; it uses the collectedAt filter again (and checks it)',
		);
	}

	const state: PollState = { v: STATE_VERSION, projectId, watermark, seen, floor };
	if (round) state.round = round;
	if (budget && Object.keys(budget).length > 0) state.budget = budget;
	if (mode) state.mode = mode;
	const lastNew = wholeIn(raw.lastNew, 0, 1_000_000);
	if (lastNew !== undefined) state.lastNew = lastNew;
	const tail = wholeIn(raw.tail, 0, 1_000_000);
	if (tail !== undefined) state.tail = tail;
	const lateAt = instant(raw.lateAt);
	if (lateAt !== undefined && lateAt <= ceiling) state.lateAt = lateAt;
	if (Array.isArray(raw.unsent)) {
		const unsent = raw.unsent.filter(
			(f): f is 'language' | 'country' => f === 'language' || f === 'country',
		);
		if (unsent.length > 0) state.unsent = Array.from(new Set(unsent));
	}
	if (isObject(raw.spent) && instant(raw.spent.hour) !== undefined) {
		const count = wholeIn(raw.spent.count, 0, 10_000);
		if (count !== undefined && (raw.spent.hour as number) <= ceiling)
			state.spent = { hour: raw.spent.hour as number, count };
	}
	const checkedAt = instant(raw.checkedAt);
	// a check time ahead of the clock would silence the trigger: dropped
	if (checkedAt !== undefined && checkedAt <= now) state.checkedAt = checkedAt;
	if (isObject(raw.key)) {
		const k = raw.key;
		const resetAt =
			typeof k.resetAt === 'number' ? plausibleReset(k.resetAt, now, 'ms') : undefined;
		const limit = wholeIn(k.limit, 1, 10_000_000);
		const remaining = wholeIn(k.remaining, 0, 10_000_000);
		const mine = wholeIn(k.mine, 0, 10_000_000);
		const at = instant(k.at);
		if (
			resetAt !== undefined &&
			limit !== undefined &&
			remaining !== undefined &&
			mine !== undefined &&
			at !== undefined &&
			at <= now
		) {
			state.key = {
				resetAt,
				limit,
				remaining: Math.min(remaining, limit),
				mine: Math.min(mine, limit),
				at,
			};
			const before = k.othersBefore;
			if (
				typeof before === 'number' &&
				Number.isFinite(before) &&
				before >= 0 &&
				before <= limit * 4
			)
				state.key.othersBefore = before;
		}
	}
	const behind = instant(raw.behind);
	if (behind !== undefined && behind <= ceiling) state.behind = behind;
	if (isObject(raw.catchUp)) {
		const c = raw.catchUp;
		const catchUp: NonNullable<PollState['catchUp']> = {};
		const at = instant(c.at);
		// a time ahead of the clock would hold the catch-up back: dropped
		if (at !== undefined && at <= now) catchUp.at = at;
		const waitUntil =
			typeof c.waitUntil === 'number' ? plausibleReset(c.waitUntil, now, 'ms') : undefined;
		if (waitUntil !== undefined) catchUp.waitUntil = waitUntil;
		if (c.off === 1) catchUp.off = 1;
		if (Object.keys(catchUp).length > 0) state.catchUp = catchUp;
	}
	if (raw.urgent === true) state.urgent = true;
	const lastCost = wholeIn(raw.lastCost, 1, 100);
	if (lastCost !== undefined) state.lastCost = lastCost;
	const behindChecks = wholeIn(raw.behindChecks, 1, 10_000);
	if (behindChecks !== undefined) state.behindChecks = behindChecks;
	const told = shortStrings(raw.told, 50);
	if (told && told.length > 0) state.told = told;
	const pending = shortStrings(raw.pending, MAX_NOTICES);
	if (pending && pending.length > 0) state.pending = pending;
	prune(state, 0, MAX_REMEMBERED_IDS, true);
	return { state, repairs };
}

/** Writes the state (one assignment, so n8n notices the change). */
export function saveState(staticData: IDataObject, state: PollState): void {
	staticData[STATE_KEY] = JSON.parse(JSON.stringify(state)) as IDataObject;
}

export function newState(
	projectId: number,
	watermark: number | null,
	floor: number | null = null,
): PollState {
	return { v: STATE_VERSION, projectId, watermark, seen: [], floor };
}

/** Adds a notice to report (each `kind` at most once in the state's life; repairs always). */
export function addNotice(state: PollState, kind: string, text: string): void {
	if (kind !== '' && state.told?.includes(kind)) return;
	if (kind !== '') state.told = [...(state.told ?? []), kind].slice(-50);
	const pending = [...(state.pending ?? []), text.slice(0, MAX_NOTICE_CHARS)];
	state.pending = pending.slice(-MAX_NOTICES);
}
