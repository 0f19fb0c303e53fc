/**
 * What the Stream Trigger keeps across a restart of n8n (trigger/stream/streamState.ts, pure): the
 * instant it was last alive and the ids it passed on recently, checked on load like input, bounded
 * on save, and the ids a shutdown may have cut short (uncertain where n8n deduplicates).
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS } from '../../../../nodes/SentiOne/shared/bounds';
import {
	loadStreamMemory,
	MAX_SAVED_IDS,
	REMEMBER_MS,
	saveStreamMemory,
	STREAM_STATE_KEY,
	streamMemoryTarget,
	UNCERTAIN_MS,
	uncertainIds,
} from '../../../../nodes/SentiOne/trigger/stream/streamState';

const now = Date.UTC(2026, 10, 24, 12);

test('ids passed on alone under a deduplication key keep their flag; the last 10 s of them are uncertain', () => {
	const staticData: IDataObject = {};
	saveStreamMemory(staticData, {
		target: 'newMention:1',
		lastAliveAt: now,
		ids: [
			['old-flagged', now - UNCERTAIN_MS - 1, 1],
			['batch', now - 5_000],
			['recent-flagged', now - UNCERTAIN_MS, 1],
			['newest', now, 1],
		],
	});
	const loaded = loadStreamMemory(
		JSON.parse(JSON.stringify(staticData)) as IDataObject,
		'newMention:1',
		now,
	);
	expect(loaded?.ids).toEqual([
		['old-flagged', now - UNCERTAIN_MS - 1, 1],
		['batch', now - 5_000],
		['recent-flagged', now - UNCERTAIN_MS, 1],
		['newest', now, 1],
	]);
	expect([...uncertainIds(loaded!)].sort()).toEqual(['newest', 'recent-flagged']);
});

test('a flag other than 1, or an entry of another length, is dropped; nothing flagged means nothing uncertain', () => {
	const loaded = loadStreamMemory(
		{
			[STREAM_STATE_KEY]: {
				v: 1,
				target: 't',
				lastAliveAt: now,
				ids: [
					['a', now, 2],
					['b', now, 1, 1],
					['c', now, true],
					['d', now],
				],
			},
		},
		't',
		now,
	);
	expect(loaded?.ids).toEqual([['d', now]]);
	expect(uncertainIds(loaded!).size).toBe(0);
});

test('a memory of another stream, another version, or without a plausible last-alive instant is not used', () => {
	const memory = (extra: IDataObject) => ({
		[STREAM_STATE_KEY]: {
			v: 1,
			target: 'newMention:1',
			lastAliveAt: now - 60_000,
			ids: [],
			...extra,
		},
	});
	expect(loadStreamMemory(memory({}), 'newMention:1', now)).toEqual({
		target: 'newMention:1',
		lastAliveAt: now - 60_000,
		ids: [],
	});
	expect(loadStreamMemory(memory({}), 'newMention:2', now)).toBeUndefined();
	expect(loadStreamMemory(memory({ v: 2 }), 'newMention:1', now)).toBeUndefined();
	expect(loadStreamMemory(memory({ lastAliveAt: 'noon' }), 'newMention:1', now)).toBeUndefined();
	expect(
		loadStreamMemory(
			memory({ lastAliveAt: now + BOUNDS.futureAllowanceMs + 1 }),
			'newMention:1',
			now,
		),
	).toBeUndefined();
	expect(loadStreamMemory({ [STREAM_STATE_KEY]: 'junk' }, 'newMention:1', now)).toBeUndefined();
	expect(loadStreamMemory({}, 'newMention:1', now)).toBeUndefined();
});

test('on load, an instant a little ahead of the clock is brought back to it; long ids are hashed', () => {
	const loaded = loadStreamMemory(
		{
			[STREAM_STATE_KEY]: {
				v: 1,
				target: 't',
				lastAliveAt: now + 1000,
				ids: [
					['x'.repeat(500), now + 10 * 60_000],
					['', now],
					['ok', 'noon'],
				],
			},
		},
		't',
		now,
	);
	expect(loaded?.lastAliveAt).toBe(now);
	expect(loaded?.ids).toEqual([
		[expect.stringMatching(/^sha256:[0-9a-f]{64}$/), now + BOUNDS.futureAllowanceMs],
	]);
});

test('saving keeps only what a recovery can need: the last 10 minutes, at most 1,000 ids', () => {
	const staticData: IDataObject = {};
	const memory = {
		target: 't',
		lastAliveAt: now,
		ids: [
			['too-old', now - REMEMBER_MS - 1],
			...Array.from(
				{ length: MAX_SAVED_IDS + 5 },
				(_, i) => [`id${i}`, now - 1000] as [string, number],
			),
		] as Array<[string, number]>,
	};
	saveStreamMemory(staticData, memory);
	const saved = staticData[STREAM_STATE_KEY] as { ids: Array<[string, number]> };
	expect(saved.ids).toHaveLength(MAX_SAVED_IDS);
	expect(saved.ids[0][0]).toBe('id5');
	// the memory passed in is trimmed the same way (it goes on from there)
	expect(memory.ids).toHaveLength(MAX_SAVED_IDS);
	// a copy: changing the memory afterwards does not change what n8n keeps
	memory.ids[0][0] = 'changed';
	expect(saved.ids[0][0]).toBe('id5');
});

test('a memory is filed under its event and project', () => {
	expect(streamMemoryTarget('newMention', 1001)).toBe('newMention:1001');
	expect(streamMemoryTarget('engagementUpdate', undefined)).toBe('engagementUpdate:-');
});
