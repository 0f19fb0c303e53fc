/**
 * What the Stream Trigger keeps across a restart of n8n (issue 16): the instant the stream was last
 * alive and the ids it passed on recently, in the node's static data. n8n saves static data with
 * every execution a trigger starts, so the memory written right before each emit is on disk before
 * the mentions it lists are processed; after a restart (a deploy, a crash, a leader change in queue
 * mode) the trigger resumes with a backfill covering the outage and a search for a longer one, and
 * drops the ids it had already passed on.
 *
 * n8n saves static data without waiting (its `emit` starts the save and the execution side by
 * side), so a restart can find a memory one emit behind or one emit ahead of the executions that
 * were created. Where n8n checks a deduplication key per execution (n8n 2.41+: `emit`'s fourth
 * argument), each id passed on alone under such a key is saved with a flag, and the ids flagged in
 * the last UNCERTAIN_MS before the last save are taken as uncertain on resume: passed on again
 * when the backfill brings them, under the same key, n8n starts them only if it had not (see
 * delivery.ts). Elsewhere the memory is trusted as it is (at most once).
 *
 * With Options → Mark Delivered When other than Emitted (issue 21.5, redelivery.ts), the memory
 * also holds the items whose delivery is not confirmed yet (`pending`: the item itself, its
 * attempts, when the next one is due), so a restart passes them on again.
 *
 * Bounded (it is saved with every emit): ids of the last REMEMBER_MS of collection, at most
 * MAX_SAVED_IDS of them, a long id kept as its SHA-256; pending items within REDELIVERY's bounds.
 * Saved state is input: every field is checked on load; what cannot be read is dropped (the
 * trigger then resumes as on a first activation). Pure: no requests; the clock is a parameter.
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS, plausibleInstant } from '../../shared/bounds';
import { idKey } from '../../shared/text';
import { MINUTE_MS } from '../../shared/units';
import { REDELIVERY } from './redeliveryPolicy';

export const STREAM_STATE_KEY = 'sentiOneStream';
const VERSION = 1;

/** Ids saved at most (about 30 bytes each as JSON). */
export const MAX_SAVED_IDS = 1000;
/**
 * How far back (collection time) saved ids reach: the longest backfill (5 minutes) plus the
 * recovery margins, with room to spare.
 */
export const REMEMBER_MS = 10 * MINUTE_MS;

/**
 * Ids flagged as passed on under a deduplication key within this long before the newest saved id
 * are uncertain after a restart: a shutdown can cut the creation of their executions short.
 */
export const UNCERTAIN_MS = 10_000;

/** An id the memory holds: its key, when it was passed on, and whether alone under a deduplication key. */
export type SavedId = [string, number] | [string, number, 1];

/**
 * An item passed on under Mark Delivered When (not Emitted) whose delivery is not confirmed yet:
 * its last attempt is running, or failed and the next one is due at `retryAt`.
 */
export interface PendingItem {
	/** what it is known by: a mention's id (its idKey), an engagement update's or an alert's key */
	key: string;
	/** attempts made so far (1: the first execution) */
	attempt: number;
	/** epoch ms when it was first passed on */
	firstAt: number;
	/** epoch ms when the next attempt is due (the last one failed); absent while the last one runs */
	retryAt?: number;
	/** the item as it is passed on */
	row: IDataObject;
}

export interface StreamMemory {
	/** which stream the memory belongs to (event and project): another stream starts afresh */
	target: string;
	/** epoch ms when the stream last delivered something */
	lastAliveAt: number;
	/** [id key, epoch ms passed on, 1 when alone under a deduplication key], oldest first */
	ids: SavedId[];
	/** items whose delivery is not confirmed yet, oldest first (Mark Delivered When, not Emitted) */
	pending?: PendingItem[];
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The saved memory for `target`, checked field by field; undefined when absent, unusable or for another stream. */
export function loadStreamMemory(
	staticData: IDataObject,
	target: string,
	now: number,
): StreamMemory | undefined {
	const raw = staticData[STREAM_STATE_KEY];
	if (!isObject(raw) || raw.v !== VERSION || raw.target !== target) return undefined;
	const ceiling = now + BOUNDS.futureAllowanceMs;
	if (!plausibleInstant(raw.lastAliveAt) || raw.lastAliveAt > ceiling) return undefined;
	const ids: SavedId[] = [];
	if (Array.isArray(raw.ids)) {
		for (const entry of raw.ids.slice(-MAX_SAVED_IDS)) {
			if (
				Array.isArray(entry) &&
				(entry.length === 2 || (entry.length === 3 && entry[2] === 1)) &&
				typeof entry[0] === 'string' &&
				entry[0] !== '' &&
				plausibleInstant(entry[1])
			) {
				const at = Math.min(entry[1], ceiling);
				ids.push(entry.length === 3 ? [idKey(entry[0]), at, 1] : [idKey(entry[0]), at]);
			}
		}
	}
	const pending = loadPending(raw.pending, ceiling);
	return {
		target,
		lastAliveAt: Math.min(raw.lastAliveAt, now),
		ids,
		...(pending.length > 0 ? { pending } : {}),
	};
}

/** The pending items of a saved memory, checked one by one, within REDELIVERY's bounds (the newest kept). */
function loadPending(raw: unknown, ceiling: number): PendingItem[] {
	if (!Array.isArray(raw)) return [];
	const items: PendingItem[] = [];
	for (const entry of raw.slice(-REDELIVERY.maxPending)) {
		if (!isObject(entry)) continue;
		const { key, attempt, firstAt, retryAt, row } = entry;
		if (
			typeof key !== 'string' ||
			key === '' ||
			typeof attempt !== 'number' ||
			!Number.isInteger(attempt) ||
			attempt < 1 ||
			attempt > REDELIVERY.maxAttempts ||
			!plausibleInstant(firstAt) ||
			(retryAt !== undefined && !plausibleInstant(retryAt)) ||
			!isObject(row)
		)
			continue;
		items.push({
			key: idKey(key),
			attempt,
			firstAt: Math.min(firstAt, ceiling),
			...(retryAt === undefined ? {} : { retryAt: Math.min(retryAt as number, ceiling) }),
			row,
		});
	}
	let chars = 0;
	const kept: PendingItem[] = [];
	for (const item of items.reverse()) {
		chars += JSON.stringify(item.row).length;
		if (kept.length > 0 && chars > REDELIVERY.maxPendingChars) break;
		kept.push(item);
	}
	return kept.reverse();
}

/** Writes the memory (one assignment, so n8n notices the change), keeping only what a recovery can need. */
export function saveStreamMemory(staticData: IDataObject, memory: StreamMemory): void {
	const horizon = memory.lastAliveAt - REMEMBER_MS;
	const ids = memory.ids.filter(([, at]) => at >= horizon).slice(-MAX_SAVED_IDS);
	memory.ids = ids;
	const pending = memory.pending ?? [];
	staticData[STREAM_STATE_KEY] = {
		v: VERSION,
		target: memory.target,
		lastAliveAt: memory.lastAliveAt,
		ids: ids.map((entry) => [...entry]),
		// only where there is something pending: an Emitted trigger's memory stays as it was
		...(pending.length > 0 ? { pending: pending.map((item) => ({ ...item })) } : {}),
	};
}

/**
 * The saved ids a resume may not take as passed on: those flagged (alone under a deduplication
 * key) within UNCERTAIN_MS before the newest saved id. Empty when none is flagged.
 */
export function uncertainIds(memory: StreamMemory): Set<string> {
	const newest = memory.ids.reduce((max, [, at]) => Math.max(max, at), -Infinity);
	return new Set(
		memory.ids
			.filter((entry) => entry[2] === 1 && entry[1] >= newest - UNCERTAIN_MS)
			.map(([id]) => id),
	);
}

/** The key a stream's memory is filed under: its event and project. */
export function streamMemoryTarget(event: string, projectId: number | undefined): string {
	return `${event}:${projectId ?? '-'}`;
}
