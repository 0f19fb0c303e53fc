/**
 * What a stream session passes on, and how (trigger/stream/delivery.ts), with a recorded stand-in
 * for the session around it: each mention and engagement update once, only when it matches the
 * filters and (when asked) is anonymized, search results and test-event samples, and the memory a
 * restart of n8n resumes from — saved before every emit; and, with Mark Delivered When, alerts
 * and items too large to keep all waiting for their execution.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { Delivery } from '../../../../nodes/SentiOne/trigger/stream/delivery';
import type { DeliveryAttempt } from '../../../../nodes/SentiOne/trigger/stream/redeliveryPolicy';
import { REDELIVERY } from '../../../../nodes/SentiOne/trigger/stream/redeliveryPolicy';
import type {
	SessionContext,
	SessionOptions,
} from '../../../../nodes/SentiOne/trigger/stream/sessionTypes';
import { newStats } from '../../../../nodes/SentiOne/trigger/stream/sessionTypes';
import type { StreamSettings } from '../../../../nodes/SentiOne/trigger/stream/streamSettings';
import type { StreamMemory } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { useFakeClock } from '../../../support/fake/clock';
import { fakeRun } from '../../../support/fake/context';
import { mentionAt } from '../../../support/fake/mentions';
import { MINUTE, NOW_MS } from '../../../support/time';
import { waitFor } from '../../../support/wait';

const T = NOW_MS;
const clock = useFakeClock(T);

const HASHED_AUTHOR = { id: 'a'.repeat(64), name: 'b'.repeat(64), avatar: null };

/** A session as Delivery sees it, recording what it is asked to do. */
function session(
	settings: Partial<StreamSettings> = {},
	options: Partial<SessionOptions> = {},
	deduplicates = false,
) {
	const emitted: Array<{ row: IDataObject; id?: string; attempt?: DeliveryAttempt }> = [];
	const closed = new AbortController();
	const reported: Error[] = [];
	const failed: unknown[] = [];
	let stopped = false;
	let finished = false;
	const ctx: SessionContext = {
		node: { name: 'SentiOne Stream Trigger' } as INode,
		transport: {} as SentiOneTransport,
		settings: {
			event: 'newMention',
			projectId: 1001,
			filters: {},
			simplify: false,
			notAnonymized: 'fail',
			format: 'sse',
			startBackfillMinutes: 0,
			fillGaps: true,
			maxGapRequests: 6,
			stallTimeoutMs: 45_000,
			...settings,
		},
		hooks: {
			deduplicates,
			emit: (row, id, attempt) => emitted.push(attempt ? { row, id, attempt } : { row, id }),
			fatal: () => undefined,
			report: (error) => reported.push(error),
			log: () => undefined,
		},
		options: { manual: false, ...options },
		stats: newStats(),
		signal: closed.signal,
		get stopped() {
			return stopped;
		},
		unsent: [],
		lastAliveAt: T,
		// the session's received point: its last delivery, in this stand-in
		get receivedThrough() {
			return this.lastAliveAt;
		},
		connectedAt: T,
		connectedBackfill: 0,
		fail: (error) => {
			failed.push(error);
			stopped = true;
		},
		finishTest: () => {
			finished = true;
			stopped = true;
		},
	};
	return {
		ctx,
		emitted,
		reported,
		failed,
		ids: () => emitted.map((e) => e.id),
		finished: () => finished,
		stop: () => {
			stopped = true;
			closed.abort();
		},
	};
}

describe('live mentions', () => {
	test('each is passed on once, as sent (Simplify off) or simplified, with its id', () => {
		const s = session();
		const delivery = new Delivery(s.ctx);
		delivery.mention('m1', mentionAt('m1', T));
		delivery.mention('m2', mentionAt('m2', T));
		delivery.mention('m1', mentionAt('m1', T));
		expect(s.emitted).toEqual([
			{ row: mentionAt('m1', T), id: 'm1' },
			{ row: mentionAt('m2', T), id: 'm2' },
		]);
		expect(s.ctx.stats).toMatchObject({ emitted: 2, duplicates: 1 });
		expect(delivery.passedOn('m1')).toBe(true);
		expect(delivery.passedOn('m3')).toBe(false);

		const simplified = session({ simplify: true });
		new Delivery(simplified.ctx).mention('m1', mentionAt('m1', T));
		expect(simplified.emitted[0].row).toMatchObject({
			id: 'm1',
			text: 'The Acme phone is great (m1)',
			language: 'en',
		});
	});

	test('one that does not match the filters is dropped; the first drop is reported once', () => {
		const s = session({ filters: { type: ['Comment'] } });
		const delivery = new Delivery(s.ctx);
		delivery.mention('p1', mentionAt('p1', T));
		delivery.mention('p2', mentionAt('p2', T));
		delivery.mention('c1', mentionAt('c1', T, { type: 'Comment' }));
		expect(s.ids()).toEqual(['c1']);
		expect(s.ctx.stats.unmatched).toBe(2);
		expect(s.reported.map((e) => e.message)).toEqual([
			'SentiOne did not apply every filter it was sent: 1 of the 1 mentions it returned did not match and were removed (did not match: Mention Types (1 mention)). The output holds only mentions that match. The trigger keeps checking every mention and passes on only matching ones. This is reported once.',
		]);
	});

	test('anonymization asked for, an author in clear: the trigger stops and the mention is not passed on', () => {
		const s = session({ anonymization: 'author' });
		const delivery = new Delivery(s.ctx);
		delivery.mention('ok', mentionAt('ok', T, { author: HASHED_AUTHOR }));
		delivery.mention('clear', mentionAt('clear', T));
		expect(s.ids()).toEqual(['ok']);
		expect(s.failed).toHaveLength(1);
		expect((s.failed[0] as Error).message).toBe(
			'Anonymization (Author) was asked for, but SentiOne sent mention clear with author.name, author.id, author.avatar in clear',
		);
		expect(s.ctx.stats.notAnonymized).toBe(1);
	});

	test('with "Remove Identifying Fields" the author in clear is nulled and passed on', () => {
		const s = session({ anonymization: 'author', notAnonymized: 'remove' });
		new Delivery(s.ctx).mention('clear', mentionAt('clear', T));
		expect(s.emitted[0].row.author).toEqual({
			id: null,
			name: null,
			avatar: null,
			gender: 'Female',
			influenceMetrics: { followerCount: 1200, fanCount: null },
		});
		expect(s.failed).toEqual([]);
		expect(s.ctx.stats.notAnonymized).toBe(1);
	});

	test('nothing is passed on once the session stopped', () => {
		const s = session();
		const delivery = new Delivery(s.ctx);
		s.stop();
		delivery.mention('m1', mentionAt('m1', T));
		expect(s.emitted).toEqual([]);
	});
});

describe('engagement updates', () => {
	const update = (likes: number) => ({
		mentionId: 'm1',
		engagementMetrics: { likeCount: likes },
		updatedAt: '2026-11-21T10:31:00.000Z',
	});

	test('each is passed on once as the stream sends it, keyed by its event id and its metrics', () => {
		const s = session({ event: 'engagementUpdate' });
		const delivery = new Delivery(s.ctx);
		delivery.engagement({ type: 'engagementUpdate', id: 'e1', update: update(1) });
		// a backfill repeats it exactly
		delivery.engagement({ type: 'engagementUpdate', id: 'e1', update: update(1) });
		// two changes of one mention in the same instant differ in their metrics
		delivery.engagement({ type: 'engagementUpdate', id: 'e1', update: update(2) });
		// without an event id: the mention id and time
		delivery.engagement({ type: 'engagementUpdate', update: update(3) });
		expect(s.emitted.map((e) => e.row)).toEqual([update(1), update(2), update(3)]);
		expect(s.ids()).toEqual([
			expect.stringMatching(/^e1#[0-9a-f]+$/),
			expect.stringMatching(/^e1#[0-9a-f]+$/),
			expect.stringMatching(/^m1:2026-11-21T10:31:00\.000Z#[0-9a-f]+$/),
		]);
		expect(new Set(s.ids()).size).toBe(3);
		expect(s.ctx.stats.duplicates).toBe(1);
	});
});

describe('mentions found by search', () => {
	test('those not passed on yet, each in its own execution; the caller hears of every id returned', () => {
		const s = session();
		const delivery = new Delivery(s.ctx);
		delivery.mention('m1', mentionAt('m1', T));
		const found: string[] = [];
		delivery.searched(
			[
				mentionAt('m1', T),
				mentionAt('m2', T),
				{ collectedAt: new Date(T).toISOString() },
				mentionAt('m2', T),
			],
			(id) => found.push(id),
		);
		expect(found).toEqual(['m1', 'm2', 'm2']);
		// a mention without an id cannot be remembered: it is passed on
		expect(s.ids()).toEqual(['m1', 'm2', undefined]);
		expect(s.ctx.stats.duplicates).toBe(2);
	});

	test('a test event’s sample: the first admissible mention, without a key; then listening stops', () => {
		const s = session({ filters: { type: ['Post'] } }, { manual: true });
		const delivery = new Delivery(s.ctx);
		expect(
			delivery.sample([
				mentionAt('c', T, { type: 'Comment' }),
				mentionAt('p', T),
				mentionAt('q', T),
			]),
		).toBe(true);
		expect(s.emitted).toEqual([{ row: mentionAt('p', T), id: undefined }]);
		expect(s.finished()).toBe(true);
		// a test is not told of the filter SentiOne did not apply
		expect(s.reported).toEqual([]);
		expect(new Delivery(session().ctx).sample([])).toBe(false);
	});
});

describe('the memory a restart resumes from', () => {
	const store = (saved?: StreamMemory) => {
		const saves: StreamMemory[] = [];
		return {
			saves,
			store: {
				load: () => saved,
				save: (memory: StreamMemory) =>
					saves.push(JSON.parse(JSON.stringify(memory)) as StreamMemory),
			},
		};
	};

	test('a first start saves an empty memory; every emit saves it first, with the id (flagged where n8n deduplicates)', () => {
		const { saves, store: st } = store();
		const s = session({}, { store: st, memoryTarget: 'newMention:1001' }, true);
		const delivery = new Delivery(s.ctx);
		expect(delivery.resume()).toBeUndefined();
		expect(saves).toEqual([{ target: 'newMention:1001', lastAliveAt: T, ids: [] }]);
		clock().advance(1000);
		delivery.mention('m1', mentionAt('m1', T));
		// saved with the emit: the point the session has received everything to, the id and when
		expect(saves[1]).toEqual({
			target: 'newMention:1001',
			lastAliveAt: T,
			ids: [['m1', T + 1000, 1]],
		});
		const plain = store();
		const without = new Delivery(session({}, { store: plain.store, memoryTarget: 't' }, false).ctx);
		without.resume();
		without.mention('m1', mentionAt('m1', T));
		expect(plain.saves[1].ids).toEqual([['m1', T + 1000]]);
	});

	test('after a restart the ids passed on are dropped; where n8n deduplicates, the last ones (uncertain) are passed on again', () => {
		const saved = (): StreamMemory => ({
			target: 't',
			lastAliveAt: T - 60_000,
			ids: [
				['old', T - 60_000 - 20_000, 1],
				['recent', T - 60_000, 1],
			],
		});
		const trusted = session({}, { store: store(saved()).store, memoryTarget: 't' }, false);
		const d1 = new Delivery(trusted.ctx);
		expect(d1.resume()?.lastAliveAt).toBe(T - 60_000);
		d1.mention('old', mentionAt('old', T));
		d1.mention('recent', mentionAt('recent', T));
		expect(trusted.emitted).toEqual([]);

		const keyed = session({}, { store: store(saved()).store, memoryTarget: 't' }, true);
		const d2 = new Delivery(keyed.ctx);
		d2.resume();
		d2.mention('old', mentionAt('old', T));
		d2.mention('recent', mentionAt('recent', T));
		expect(keyed.ids()).toEqual(['recent']);
	});

	test('a test event neither reads nor writes the memory', () => {
		const { saves, store: st } = store({ target: 't', lastAliveAt: T, ids: [['m1', T]] });
		const s = session({}, { manual: true, store: st, memoryTarget: 't' });
		const delivery = new Delivery(s.ctx);
		expect(delivery.resume()).toBeUndefined();
		delivery.mention('m1', mentionAt('m1', T));
		expect(s.ids()).toEqual(['m1']);
		expect(saves).toEqual([]);
	});
});

describe('Mark Delivered When: Execution Succeeded', () => {
	test('an alert whose execution fails is passed on again under its key, attempt by attempt, until one succeeds', async () => {
		clock().holdFrom = MINUTE;
		const s = session({ markDelivered: 'executionSucceeded' });
		const delivery = new Delivery(s.ctx);
		delivery.startRedelivery();
		const key = 'alert:digest:2026-11-21T09:00:00.000Z';
		const digest = { kind: 'digest', windowStart: '2026-11-21T09:00:00.000Z', mentions: 12 };
		delivery.passAlert(digest, key);
		expect(s.emitted).toEqual([
			{ row: digest, id: key, attempt: expect.objectContaining({ number: 1 }) },
		]);
		s.emitted[0].attempt?.settled({ run: fakeRun('error') });
		await waitFor(() => clock().holding === 1 && clock().slept.at(-1) === MINUTE, {
			what: 'the retry wait',
			stepMs: 2,
		});
		clock().release();
		await waitFor(() => s.emitted.length === 2, { what: 'the second attempt', stepMs: 2 });
		expect(s.emitted[1]).toEqual({
			row: digest,
			id: key,
			attempt: expect.objectContaining({ number: 2 }),
		});
		s.emitted[1].attempt?.settled({ run: fakeRun('success') });
		await waitFor(() => s.ctx.stats.delivered === 1, { what: 'the alert delivered', stepMs: 2 });
		expect(s.ctx.stats).toMatchObject({ emitted: 1, redelivered: 1, givenUp: 0 });
		s.stop();
		await delivery.close();
	});

	test('what waits is bounded in size too: the oldest large item is given up, and said so', async () => {
		clock().holdFrom = MINUTE;
		const s = session({ markDelivered: 'executionSucceeded', simplify: false });
		const delivery = new Delivery(s.ctx);
		delivery.startRedelivery();
		const text = 'x'.repeat(REDELIVERY.maxPendingChars / 3);
		for (const id of ['big1', 'big2', 'big3'])
			delivery.mention(id, mentionAt(id, T, { content: { text } }));
		await waitFor(() => s.reported.length === 1, { what: 'the report', stepMs: 2 });
		expect(s.reported[0].message).toBe(
			'1 item passed on by the SentiOne Stream Trigger was given up: more than 500 items (or 2 MB of them) were waiting for a successful execution',
		);
		expect(s.ctx.stats.givenUp).toBe(1);
		// given up: its execution failing changes nothing
		s.emitted[0].attempt?.settled({ run: fakeRun('error') });
		s.stop();
		await delivery.close();
		expect(s.emitted.map((e) => e.id)).toEqual(['big1', 'big2', 'big3']);
	});
});
