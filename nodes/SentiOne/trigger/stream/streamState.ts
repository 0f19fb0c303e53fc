/**
 * What the Stream Trigger keeps across a restart of n8n (issue 16): the instant the stream was last
 * alive and the ids it passed on recently, in the node's static data. n8n saves static data with
 * every execution a trigger starts, so the memory written right before each emit is on disk before
 * the mentions it lists are processed; after a restart (a deploy, a crash, a leader change in queue
 * mode) the trigger resumes with a backfill covering the outage and a search for a longer one, and
 * drops the ids it had already passed on.
 *
 * Bounded (it is saved with every emit): ids of the last REMEMBER_MS of collection, at most
 * MAX_SAVED_IDS of them, a long id kept as its SHA-256. Saved state is input: every field is checked
 * on load; what cannot be read is dropped (the trigger then resumes as on a first activation).
 * Pure: no requests; the clock is a parameter.
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS, idKey, plausibleInstant } from '../../shared/bounds';

export const STREAM_STATE_KEY = 'sentiOneStream';
const VERSION = 1;

/** Ids saved at most (about 30 bytes each as JSON). */
export const MAX_SAVED_IDS = 1000;
/**
 * How far back (collection time) saved ids reach: the longest backfill (5 minutes) plus the
 * recovery margins, with room to spare.
 */
export const REMEMBER_MS = 10 * 60_000;

export interface StreamMemory {
	/** which stream the memory belongs to (event and project): another stream starts afresh */
	target: string;
	/** epoch ms when the stream last delivered something */
	lastAliveAt: number;
	/** [id key, epoch ms passed on], oldest first */
	ids: Array<[string, number]>;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The saved memory for `target`, checked field by field; undefined when absent, unusable or for another stream. */
export function loadStreamMemory(staticData: IDataObject, target: string, now: number): StreamMemory | undefined {
	const raw = staticData[STREAM_STATE_KEY];
	if (!isObject(raw) || raw.v !== VERSION || raw.target !== target) return undefined;
	const ceiling = now + BOUNDS.futureAllowanceMs;
	if (!plausibleInstant(raw.lastAliveAt) || raw.lastAliveAt > ceiling) return undefined;
	const ids: Array<[string, number]> = [];
	if (Array.isArray(raw.ids)) {
		for (const entry of raw.ids.slice(-MAX_SAVED_IDS)) {
			if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && entry[0] !== '' && plausibleInstant(entry[1])) {
				ids.push([idKey(entry[0]), Math.min(entry[1], ceiling)]);
			}
		}
	}
	return { target, lastAliveAt: Math.min(raw.lastAliveAt, now), ids };
}

/** Writes the memory (one assignment, so n8n notices the change), keeping only what a recovery can need. */
export function saveStreamMemory(staticData: IDataObject, memory: StreamMemory): void {
	const horizon = memory.lastAliveAt - REMEMBER_MS;
	const ids = memory.ids.filter(([, at]) => at >= horizon).slice(-MAX_SAVED_IDS);
	memory.ids = ids;
	staticData[STREAM_STATE_KEY] = { v: VERSION, target: memory.target, lastAliveAt: memory.lastAliveAt, ids: ids.map(([id, at]) => [id, at]) };
}

/** The key a stream's memory is filed under: its event and project. */
export function streamMemoryTarget(event: string, projectId: number | undefined): string {
	return `${event}:${projectId ?? '-'}`;
}
