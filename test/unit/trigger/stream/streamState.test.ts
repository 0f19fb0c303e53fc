/**
 * What the Stream Trigger keeps across a restart of n8n (trigger/stream/streamState.ts, pure): the
 * instant it was last alive and the ids it passed on recently, checked on load like input, bounded
 * on save, and the ids a shutdown may have cut short (uncertain where n8n deduplicates); with
 * Mark Delivered When, the items not delivered yet (pending), checked and bounded the same way.
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS } from '../../../../nodes/SentiOne/shared/bounds';
import { REDELIVERY } from '../../../../nodes/SentiOne/trigger/stream/redeliveryPolicy';
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

describe('items not delivered yet (Mark Delivered When)', () => {
	const row = { id: 'm1', text: 'The Acme phone is great' };

	test('saved only when there are some, and read back as they were', () => {
		const staticData: IDataObject = {};
		saveStreamMemory(staticData, { target: 't', lastAliveAt: now, ids: [], pending: [] });
		expect(staticData[STREAM_STATE_KEY]).toStrictEqual({
			v: 1,
			target: 't',
			lastAliveAt: now,
			ids: [],
		});
		const pending = [
			{ key: 'm1', attempt: 2, firstAt: now - 60_000, retryAt: now + 120_000, row },
			{
				key: 'alert:digest:2026-11-24T09:00:00.000Z',
				attempt: 1,
				firstAt: now,
				row: { kind: 'digest' },
			},
		];
		saveStreamMemory(staticData, { target: 't', lastAliveAt: now, ids: [], pending });
		const loaded = loadStreamMemory(
			JSON.parse(JSON.stringify(staticData)) as IDataObject,
			't',
			now,
		);
		expect(loaded?.pending).toEqual(pending);
	});

	test('read as input: an entry that cannot be read is dropped, the others kept', () => {
		const loaded = loadStreamMemory(
			{
				[STREAM_STATE_KEY]: {
					v: 1,
					target: 't',
					lastAliveAt: now,
					ids: [],
					pending: [
						{ key: '', attempt: 1, firstAt: now, row },
						{ key: 'a', attempt: 0, firstAt: now, row },
						{ key: 'b', attempt: REDELIVERY.maxAttempts + 1, firstAt: now, row },
						{ key: 'c', attempt: 1.5, firstAt: now, row },
						{ key: 'd', attempt: 1, firstAt: 'yesterday', row },
						{ key: 'e', attempt: 1, firstAt: now, retryAt: -1, row },
						{ key: 'f', attempt: 1, firstAt: now, row: 'not an item' },
						['g', 1, now, row],
						{ key: 'ok', attempt: 3, firstAt: now + 3_600_000, retryAt: now + 3_600_000, row },
					],
				},
			},
			't',
			now,
		);
		// instants in the future are brought back within the allowance, like the ids'
		expect(loaded?.pending).toEqual([
			{
				key: 'ok',
				attempt: 3,
				firstAt: now + BOUNDS.futureAllowanceMs,
				retryAt: now + BOUNDS.futureAllowanceMs,
				row,
			},
		]);
	});

	test('bounded on load: the newest 500, within 2 MB', () => {
		const many = Array.from({ length: REDELIVERY.maxPending + 20 }, (_, i) => ({
			key: `m${i}`,
			attempt: 1,
			firstAt: now,
			row: { id: `m${i}` },
		}));
		const loaded = loadStreamMemory(
			{ [STREAM_STATE_KEY]: { v: 1, target: 't', lastAliveAt: now, ids: [], pending: many } },
			't',
			now,
		);
		expect(loaded?.pending).toHaveLength(REDELIVERY.maxPending);
		expect(loaded?.pending?.[0].key).toBe('m20');
		const big = (key: string) => ({
			key,
			attempt: 1,
			firstAt: now,
			row: { text: 'x'.repeat(REDELIVERY.maxPendingChars / 2) },
		});
		const bounded = loadStreamMemory(
			{
				[STREAM_STATE_KEY]: {
					v: 1,
					target: 't',
					lastAliveAt: now,
					ids: [],
					pending: [big('a'), big('b'), big('c')],
				},
			},
			't',
			now,
		);
		expect(bounded?.pending?.map((p) => p.key)).toEqual(['c']);
	});
});
