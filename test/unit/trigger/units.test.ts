/**
 * The pure parts of the triggers: the poll state's bounds (memory, floor, re-read cap), the dedup
 * memory, and the reconnect plan (backoff, stream budget, backfill and gap).
 */
import type { IDataObject } from 'n8n-workflow';

import { DedupMemory } from '../../../nodes/SentiOne/trigger/stream/dedupMemory';
import { BOUNDS } from '../../../nodes/SentiOne/shared/bounds';
import { loadState, newState, saveState } from '../../../nodes/SentiOne/trigger/poll/pollState';
import {
	MAX_REREAD,
	admit,
	boundaryIds,
	prune,
	rereadAllowance,
	scanFrom,
} from '../../../nodes/SentiOne/trigger/poll/watermark';
import { pollProperties } from '../../../nodes/SentiOne/trigger/poll/pollDescription';
import { POLL_DEFAULTS } from '../../../nodes/SentiOne/trigger/poll/pollSettings';
import {
	backoffDelay,
	failureKind,
	reconnectWait,
	recoveryPlan,
	RECONNECT,
} from '../../../nodes/SentiOne/trigger/stream/reconnect';
import { streamProperties } from '../../../nodes/SentiOne/trigger/stream/streamDescription';
import { STREAM_DEFAULTS } from '../../../nodes/SentiOne/trigger/stream/streamSettings';
import {
	loadStreamMemory,
	saveStreamMemory,
	STREAM_STATE_KEY,
	UNCERTAIN_MS,
	uncertainIds,
} from '../../../nodes/SentiOne/trigger/stream/streamState';
import { executionKey } from '../../../nodes/SentiOne/trigger/stream/streamTrigger';

const MIN = 60_000;

describe('poll state', () => {
	/** a plausible instant (the state refuses dates outside 1990–2100) and the clock of these tests */
	const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
	const NOW = T0 + 60 * MIN;

	test('admits each id once and moves the watermark to the newest collectedAt', () => {
		const state = newState(1, null);
		expect(
			admit(
				state,
				[
					{ id: 'a', collectedAt: T0 + 10 },
					{ id: 'b', collectedAt: T0 + 20 },
					{ id: 'a', collectedAt: T0 + 10 },
				],
				NOW,
			),
		).toEqual([0, 1]);
		expect(state.watermark).toBe(T0 + 20);
		expect(
			admit(
				state,
				[
					{ id: 'b', collectedAt: T0 + 20 },
					{ id: 'c', collectedAt: T0 + 20 },
				],
				NOW,
			),
		).toEqual([1]);
		expect(boundaryIds(state).sort()).toEqual(['b', 'c']);
	});

	test('a collectedAt far ahead of the clock moves the watermark only to the clock plus the allowance', () => {
		const state = newState(1, T0);
		expect(admit(state, [{ id: 'future', collectedAt: NOW + 365 * 24 * 60 * MIN }], NOW)).toEqual([
			0,
		]);
		expect(state.watermark).toBe(NOW + BOUNDS.futureAllowanceMs);
		// the mention is remembered, so it is never passed on twice
		expect(admit(state, [{ id: 'future', collectedAt: NOW + 365 * 24 * 60 * MIN }], NOW)).toEqual(
			[],
		);
	});

	test('a full memory forgets the oldest ids and raises the floor past them: a forgotten id can never come back', () => {
		const state = newState(1, null);
		admit(
			state,
			Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, collectedAt: T0 + 1000 + i })),
			NOW,
		);
		prune(state, 10 * MIN, 4);
		expect(state.seen.map(([id]) => id)).toEqual(['m6', 'm7', 'm8', 'm9']);
		expect(state.floor).toBe(T0 + 1005);
		expect(scanFrom(state, 10 * MIN)).toBe(T0 + 1006);
	});

	test('the late window is read again, but never more than 24 mentions already passed on (one request when nothing is new)', () => {
		const state = newState(1, null);
		admit(
			state,
			Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, collectedAt: T0 + i * 1000 })),
			NOW,
		);
		const from = scanFrom(state, 10 * MIN) as number;
		expect(state.seen.filter(([, at]) => at >= from)).toHaveLength(MAX_REREAD);
		// a group sharing the watermark instant is always read whole
		const group = newState(1, null);
		admit(
			group,
			Array.from({ length: 40 }, (_, i) => ({ id: `g${i}`, collectedAt: T0 + 5000 })),
			NOW,
		);
		expect(scanFrom(group, 10 * MIN)).toBe(T0 + 5000);
	});

	test('the re-read fits the pages a check needs anyway: none when the last check filled its page, the whole window while mentions arrive late', () => {
		const state = newState(1, T0);
		expect(rereadAllowance(state, NOW)).toBe(MAX_REREAD);
		state.lastNew = 15;
		expect(rereadAllowance(state, NOW)).toBe(9);
		state.lastNew = 25;
		expect(rereadAllowance(state, NOW)).toBe(0);
		state.lastNew = 40;
		expect(rereadAllowance(state, NOW)).toBe(9);
		state.lateAt = NOW - 60 * MIN;
		expect(rereadAllowance(state, NOW)).toBe(MAX_REREAD);
		state.lateAt = NOW - 25 * 60 * MIN;
		expect(rereadAllowance(state, NOW)).toBe(9);
	});

	test('ids behind the late window are forgotten without moving the floor', () => {
		const state = newState(1, null);
		admit(
			state,
			[
				{ id: 'old', collectedAt: T0 },
				{ id: 'new', collectedAt: T0 + 20 * MIN },
			],
			NOW,
		);
		prune(state, 10 * MIN);
		expect(state.seen).toEqual([['new', T0 + 20 * MIN]]);
		expect(state.floor).toBeNull();
	});

	test('state survives a JSON round trip and is ignored for another project', () => {
		const data: IDataObject = {};
		const state = newState(7, T0 + 123, T0 + 100);
		admit(state, [{ id: 'x', collectedAt: T0 + 123 }], NOW);
		state.round = { body: '{}', key: 'k', cursor: 'c' };
		saveState(data, state);
		const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
		expect(loadState(copy, 7, NOW)).toEqual({ state, repairs: [] });
		expect(loadState(copy, 8, NOW)).toEqual({ repairs: [] });
	});

	test('a long id is remembered by its hash, so memory stays small', () => {
		const state = newState(1, null);
		const long = 'x'.repeat(100_000);
		expect(admit(state, [{ id: long, collectedAt: T0 }], NOW)).toEqual([0]);
		expect(state.seen[0][0]).toMatch(/^sha256:[0-9a-f]{64}$/);
		expect(admit(state, [{ id: long, collectedAt: T0 }], NOW)).toEqual([]);
	});
});

describe('stream memory across a restart', () => {
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

	test("the deduplication key is stable, per workflow, node, stream and id, and within n8n's 255 characters", () => {
		const key = executionKey('wf1', 'node-a', 'newMention:1001', 'm1');
		expect(key).toBe(executionKey('wf1', 'node-a', 'newMention:1001', 'm1'));
		expect(
			new Set([
				key,
				executionKey('wf2', 'node-a', 'newMention:1001', 'm1'),
				executionKey('wf1', 'node-b', 'newMention:1001', 'm1'),
				executionKey('wf1', 'node-a', 'newMention:1002', 'm1'),
				executionKey('wf1', 'node-a', 'newMention:1001', 'm2'),
			]).size,
		).toBe(5);
		expect(key).toMatch(/^sentione:[0-9a-f]{64}$/);
		expect(
			executionKey('wf1', 'node-a', 'newMention:1001', 'x'.repeat(100_000)).length,
		).toBeLessThanOrEqual(255);
	});
});

describe('dedup memory', () => {
	test('passes an id once and forgets the oldest beyond its capacity', () => {
		const memory = new DedupMemory(3);
		expect(['a', 'b', 'a', 'c', 'd'].map((id) => memory.add(id))).toEqual([
			true,
			true,
			false,
			true,
			true,
		]);
		expect(memory.size).toBe(3);
		expect(memory.forgotten).toBe(1);
		expect(memory.has('a')).toBe(false);
	});

	test('is bounded in bytes too: huge ids are kept as hashes, and the oldest go when the bytes run out', () => {
		const memory = new DedupMemory(1000, 20_000);
		for (let i = 0; i < 500; i++) expect(memory.add(`${i}:${'y'.repeat(1_000_000)}`)).toBe(true);
		expect(memory.sizeBytes).toBeLessThanOrEqual(20_000);
		expect(memory.add(`499:${'y'.repeat(1_000_000)}`)).toBe(false);
		expect(memory.forgotten).toBeGreaterThan(0);
	});
});

describe('reconnect plan', () => {
	test('backoff doubles from 0.5 s to at most 60 s', () => {
		expect([0, 1, 2, 3, 10].map(backoffDelay)).toEqual([500, 1000, 2000, 4000, 60_000]);
	});

	test('no stream connection left: wait for the reset; few left while failing: spread them over the hour', () => {
		const now = 1_000_000;
		const resetAt = now + 30 * MIN;
		expect(reconnectWait(0, { group: 'live', remaining: 0, resetAt }, now)).toEqual({
			waitMs: 30 * MIN + 1000,
			budget: true,
		});
		expect(reconnectWait(2, { group: 'live', remaining: 2, resetAt }, now)).toEqual({
			waitMs: 10 * MIN,
			budget: true,
		});
		expect(reconnectWait(1, { group: 'live', remaining: 2, resetAt }, now)).toEqual({
			waitMs: 1000,
			budget: false,
		});
		expect(reconnectWait(1, { group: 'live', remaining: 4, resetAt }, now)).toEqual({
			waitMs: 1000,
			budget: false,
		});
		expect(reconnectWait(1, undefined, now)).toEqual({ waitMs: 1000, budget: false });
	});

	test('a reset that has passed since the headers were read ends their window; one already past when read is unusable', () => {
		const now = 1_000_000 + 2 * 60 * MIN;
		const nextHour = Math.ceil(now / (60 * MIN)) * 60 * MIN;
		// stated 20 minutes ahead 30 minutes ago: a new window, the stated 0 is of the old one
		expect(
			reconnectWait(
				0,
				{ group: 'live', remaining: 0, resetAt: now - 10 * MIN, readAt: now - 30 * MIN },
				now,
			),
		).toEqual({ waitMs: 500, budget: false });
		// already past when stated (a stuck reset), or none at all: the top of the next hour
		for (const state of [
			{ group: 'live' as const, remaining: 0, resetAt: now - 2 * MIN, readAt: now - MIN },
			{ group: 'live' as const, remaining: 0, readAt: now - MIN },
			{ group: 'live' as const, remaining: 0, resetAt: now - MIN },
		])
			expect(reconnectWait(0, state, now)).toEqual({
				waitMs: nextHour - now + 1000,
				budget: true,
			});
	});

	test('backfill covers the outage (1–5 minutes); a longer outage leaves a gap for the search', () => {
		const t = 10 * MIN;
		expect(recoveryPlan(t, t + 5_000)).toEqual({ backfillMinutes: 1 });
		expect(recoveryPlan(t, t + 3 * MIN)).toEqual({ backfillMinutes: 4 });
		expect(recoveryPlan(t, t + 4 * MIN + 30_000)).toEqual({ backfillMinutes: 5 });
		expect(recoveryPlan(t, t + 20 * MIN)).toEqual({
			backfillMinutes: 5,
			gap: { from: t - RECONNECT.marginMs, to: t + 15 * MIN + RECONNECT.marginMs },
		});
	});

	test('failures retrying cannot fix are told apart from waits and blips', () => {
		expect(failureKind(new Error('socket hang up'))).toBe('transient');
		expect(failureKind(new Error('SentiOne credential: the API key is missing.'))).toBe(
			'permanent',
		);
	});
});

describe('UI defaults', () => {
	const option = (properties: typeof pollProperties, name: string) =>
		(
			properties.find((p) => p.name === 'options')?.options as Array<{
				name: string;
				default: unknown;
			}>
		).find((o) => o.name === name)?.default;

	test('are the defaults the code applies when a field is left out', () => {
		expect(pollProperties.find((p) => p.name === 'backfillHours')?.default).toBe(
			POLL_DEFAULTS.backfillHours,
		);
		expect(option(pollProperties, 'lateWindowMinutes')).toBe(POLL_DEFAULTS.lateWindowMinutes);
		expect(option(pollProperties, 'maxRequestsPerPoll')).toBe(POLL_DEFAULTS.maxRequestsPerPoll);
		expect(option(streamProperties, 'maxGapRequests')).toBe(STREAM_DEFAULTS.maxGapRequests);
		expect(option(streamProperties, 'stallTimeout')).toBe(STREAM_DEFAULTS.stallTimeoutSeconds);
	});
});
