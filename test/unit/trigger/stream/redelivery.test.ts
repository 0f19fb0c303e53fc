/**
 * Options → Mark Delivered When (issue 21.5; trigger/stream/redelivery.ts and redeliveryPolicy.ts),
 * through `new SentiOneStreamTrigger().trigger` with a fake n8n context that records every emit's
 * done promise (the test settles it as n8n would — a run that succeeded or failed, nothing for a
 * refused duplicate, a rejection — or holds it) and a fake clock that holds the trigger's waits of
 * a minute or more, so each retry's backoff is seen, then let pass:
 * - Execution Succeeded: delivered on success; a failure passed on again under a new deduplication
 *   key after 1, 2, 4 … minutes until one succeeds, never twice once delivered; 12 attempts, then
 *   given up and reported; no word from n8n for an hour, or too many waiting: given up, reported;
 * - a restart of n8n (static data reloaded from JSON): a failed item is retried when due, a running
 *   one passed on again under the same key (n8n 2.41+) or taken as delivered (n8n 1.x);
 * - Execution Finished; and Emitted, the default, exactly as before the option existed.
 */
import type { IDataObject } from 'n8n-workflow';
import { ManualExecutionCancelledError } from 'n8n-workflow';

import {
	REDELIVERY,
	retryDelay,
	retrySchedule,
} from '../../../../nodes/SentiOne/trigger/stream/redeliveryPolicy';
import type { PendingItem } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { STREAM_STATE_KEY } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { FakeApi, FakeStream } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import type { TriggerRecord } from '../../../support/fake/context';
import { emittedRows, settleEmit, untilRecorded } from '../../../support/fake/context';
import { mentionAt, sse } from '../../../support/fake/mentions';
import {
	LIVE,
	emittedIds,
	keyOf,
	streamContext,
	useStreamTrigger,
} from '../../../support/fake/streamTrigger';
import { HOUR, MINUTE, NOW_MS } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';

const T = NOW_MS;
const { activate, started } = useStreamTrigger();
const clock = useFakeClock(T);
// the trigger's waits of a minute or more are held: a test sees each and lets it pass
beforeEach(() => {
	clock().holdFrom = MINUTE;
});

const SUCCEEDED = { options: { markDelivered: 'executionSucceeded' } };
const FINISHED = { options: { markDelivered: 'executionFinished' } };

type Ctx = { recorded: TriggerRecord; staticData: IDataObject };

/** The items the trigger's memory holds as not delivered yet. */
const pending = (ctx: Ctx): PendingItem[] =>
	((ctx.staticData[STREAM_STATE_KEY] as { pending?: PendingItem[] } | undefined)?.pending ??
		[]) as PendingItem[];

/** Waits until the trigger's last wait on its clock is `ms` long, held. */
async function waitsFor(ms: number): Promise<void> {
	await waitFor(() => clock().holding === 1 && clock().slept.at(-1) === ms, {
		what: `the trigger to wait ${ms} ms`,
		stepMs: 2,
	});
}

/** Lets the held wait pass and waits for the emit it leads to. */
async function passWait(ctx: Ctx, emits: number): Promise<void> {
	clock().release();
	await untilRecorded(ctx, (r) => r.emitted.length === emits, `emit number ${emits}`);
}

describe('Execution Succeeded', () => {
	test('a mention is delivered when its execution succeeds; until then the memory keeps it', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { parameters: SUCCEEDED });
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.keys).toEqual([keyOf('m1')]);
		// saved with the emit: the item itself, its first attempt, running
		expect(pending(ctx)).toEqual([{ key: 'm1', attempt: 1, firstAt: T, row: emittedRows(ctx)[0] }]);
		// n8n has an hour to say how the execution ended
		await waitsFor(REDELIVERY.noWordMs);
		settleEmit(ctx, 0, 'success');
		await waitFor(() => pending(ctx).length === 0, { what: 'm1 delivered', stepMs: 2 });
		expect(ctx.staticData[STREAM_STATE_KEY]).not.toHaveProperty('pending');
		// a backfill bringing it again: it was passed on
		stream.send(sse.mention(mentionAt('m1', T)));
		await sleep(20);
		expect(ctx.recorded.emitted).toHaveLength(1);
		await trigger.close();
		expect(ctx.recorded.logs).toContainEqual(
			'info: SentiOne stream (Mark Delivered When: executionSucceeded): 1 item(s) delivered, 0 passed on again, 0 unconfirmed, 0 given up, 0 still waiting (saved for the next start)',
		);
	});

	test('a failed execution is passed on again after 1, 2, 4 minutes, each attempt under its own key, until one succeeds; never twice once delivered', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { parameters: SUCCEEDED });
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		settleEmit(ctx, 1, 'success');
		// Slack is down: the execution of m1 fails
		settleEmit(ctx, 0, 'error');
		await waitsFor(MINUTE);
		expect(pending(ctx)).toEqual([
			{ key: 'm1', attempt: 1, firstAt: T, retryAt: T + MINUTE, row: emittedRows(ctx)[0] },
		]);
		await passWait(ctx, 3);
		settleEmit(ctx, 2, 'error');
		await waitsFor(2 * MINUTE);
		await passWait(ctx, 4);
		settleEmit(ctx, 3, 'crashed');
		await waitsFor(4 * MINUTE);
		await passWait(ctx, 5);
		// Slack is back
		settleEmit(ctx, 4, 'success');
		await waitFor(() => pending(ctx).length === 0, { what: 'm1 delivered', stepMs: 2 });

		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm1', 'm1', 'm1']);
		expect(ctx.recorded.keys).toEqual([
			keyOf('m1'),
			keyOf('m2'),
			keyOf('m1', undefined, 2),
			keyOf('m1', undefined, 3),
			keyOf('m1', undefined, 4),
		]);
		expect(new Set(ctx.recorded.keys).size).toBe(5);
		// every attempt carries the same item
		expect(emittedRows(ctx)[4]).toEqual(emittedRows(ctx)[0]);
		// once delivered: a repeat on the stream is dropped and nothing waits any more
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await sleep(20);
		expect(ctx.recorded.emitted).toHaveLength(5);
		expect(clock().holding).toBe(0);
		await trigger.close();
		expect(ctx.recorded.logs).toContainEqual(
			expect.stringMatching(
				/: 2 item\(s\) delivered, 3 passed on again, 0 unconfirmed, 0 given up, 0 still waiting/,
			),
		);
		expect(ctx.recorded.failed).toEqual([]);
	});

	test('bounded: after 12 failed executions (211 minutes of waits) the item is given up and reported once', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], { parameters: SUCCEEDED });
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		for (let attempt = 1; attempt < REDELIVERY.maxAttempts; attempt++) {
			settleEmit(ctx, attempt - 1, 'error');
			await waitsFor(retryDelay(attempt));
			await passWait(ctx, attempt + 1);
		}
		settleEmit(ctx, REDELIVERY.maxAttempts - 1, 'error');
		await untilRecorded(ctx, (r) => r.failed.length === 1, 'the report');
		expect(ctx.recorded.failed[0].message).toBe(
			'1 item passed on by the SentiOne Stream Trigger was given up: 12 executions of each did not succeed',
		);
		expect((ctx.recorded.failed[0] as { description?: string }).description).toBe(
			"Options → Mark Delivered When passes an item on again 1, 2, 4, 8 and 16 minutes after a failed execution, then every half hour, 12 executions in all (over about 3.5 hours). Given up: m1. Their failed executions are in the workflow's list of executions, where each can be retried.",
		);
		// the waits between the attempts: 1, 2, 4, 8, 16, then 30 minutes
		expect(clock().slept.filter((ms) => ms < HOUR)).toEqual(retrySchedule());
		expect(clock().now - T).toBe(211 * MINUTE);
		expect(ctx.recorded.emitted).toHaveLength(12);
		expect(new Set(ctx.recorded.keys).size).toBe(12);
		expect(pending(ctx)).toEqual([]);
		await sleep(20);
		expect(ctx.recorded.emitted).toHaveLength(12);
		expect(clock().holding).toBe(0);
	});

	test('a run n8n refused (its deduplication key existed) or that started waiting is not passed on again', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { parameters: SUCCEEDED });
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		settleEmit(ctx, 0, 'refused');
		settleEmit(ctx, 1, 'waiting');
		await waitFor(() => pending(ctx).length === 0, { what: 'both settled', stepMs: 2 });
		await trigger.close();
		expect(ctx.recorded.emitted).toHaveLength(2);
		expect(ctx.recorded.logs).toContainEqual(
			'info: SentiOne stream: n8n started no new execution for m1 (attempt 1): one with its deduplication key exists, so it is not passed on again',
		);
		expect(ctx.recorded.logs).toContainEqual(
			expect.stringMatching(/: 1 item\(s\) delivered, 0 passed on again, 1 unconfirmed/),
		);
	});

	test('no word from n8n for an hour: given up and reported, and a late outcome changes nothing', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], { parameters: SUCCEEDED });
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await waitsFor(HOUR);
		clock().release();
		await untilRecorded(ctx, (r) => r.failed.length === 1, 'the report');
		expect(ctx.recorded.failed[0].message).toBe(
			'1 item passed on by the SentiOne Stream Trigger was given up: n8n said nothing of its execution within 60 minutes',
		);
		expect(pending(ctx)).toEqual([]);
		settleEmit(ctx, 0, 'error');
		await sleep(20);
		expect(ctx.recorded.emitted).toHaveLength(1);
		expect(clock().holding).toBe(0);
	});

	test('bounded memory: beyond 500 items waiting, the oldest is given up and reported', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], { parameters: SUCCEEDED });
		const count = REDELIVERY.maxPending + 1;
		stream.send(
			Array.from({ length: count }, (_, i) => sse.mention(mentionAt(`m${i}`, T))).join(''),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === count, 'every emit', 10_000);
		await untilRecorded(ctx, (r) => r.failed.length === 1, 'the report');
		expect(ctx.recorded.failed[0].message).toBe(
			'1 item passed on by the SentiOne Stream Trigger was given up: more than 500 items (or 2 MB of them) were waiting for a successful execution',
		);
		expect((ctx.recorded.failed[0] as { description?: string }).description).toContain(
			'Given up: m0.',
		);
		const waiting = pending(ctx);
		expect(waiting).toHaveLength(REDELIVERY.maxPending);
		expect(waiting[0].key).toBe('m1');
		// the one given up is not passed on again when its execution fails
		settleEmit(ctx, 0, 'error');
		await sleep(20);
		expect(pending(ctx)).toHaveLength(REDELIVERY.maxPending);
	});
});

describe('across a restart of n8n (static data reloaded)', () => {
	/**
	 * n8n runs the trigger, m1's execution fails (its retry is due a minute later), m2's is still
	 * running when n8n stops; the static data as n8n saved it (JSON), and 2 minutes pass.
	 */
	async function shutDown(emitArity: 3 | 4): Promise<IDataObject> {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { parameters: SUCCEEDED, emitArity });
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		settleEmit(ctx, 0, 'error');
		await waitsFor(MINUTE);
		await trigger.close();
		expect(pending(ctx).map((p) => [p.key, p.attempt, p.retryAt])).toEqual([
			['m1', 1, T + MINUTE],
			['m2', 1, undefined],
		]);
		clock().advance(2 * MINUTE);
		return JSON.parse(JSON.stringify(ctx.staticData)) as IDataObject;
	}

	/** n8n starts again: the trigger on the saved static data, its stream bringing m1, m2 again and m3. */
	async function startAgain(staticData: IDataObject, emitArity: 3 | 4) {
		const stream = new FakeStream();
		const api = new FakeApi().once('POST', LIVE, { stream });
		const ctx = streamContext(api, { parameters: SUCCEEDED, emitArity, staticData });
		const trigger = await activate(ctx);
		return { ctx, stream, trigger };
	}

	test('n8n 2.41+: the failed item is retried when due (next key), the running one passed on again under its key (n8n starts it only if it never did)', async () => {
		const { ctx, stream, trigger } = await startAgain(await shutDown(4), 4);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2']);
		expect(ctx.recorded.keys).toEqual([keyOf('m1', undefined, 2), keyOf('m2')]);
		stream.send(
			sse.mention(mentionAt('m1', T)),
			sse.mention(mentionAt('m2', T)),
			sse.mention(mentionAt('m3', T + 2 * MINUTE)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		settleEmit(ctx, 0, 'success');
		// m2's execution had been created before the stop: n8n refuses the same key again
		settleEmit(ctx, 1, 'refused');
		settleEmit(ctx, 2, 'success');
		await waitFor(() => pending(ctx).length === 0, { what: 'all settled', stepMs: 2 });
		await sleep(20);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm3']);
		await trigger.close();
		expect(ctx.recorded.logs).toContainEqual(
			expect.stringMatching(
				/: 2 item\(s\) delivered, 1 passed on again, 1 unconfirmed, 0 given up/,
			),
		);
	});

	test('n8n 1.x (no deduplication key): the failed item is retried; the running one is taken as delivered, not run twice', async () => {
		const { ctx, stream } = await startAgain(await shutDown(3), 3);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(emittedIds(ctx)).toEqual(['m1']);
		expect(ctx.recorded.keys).toEqual([undefined]);
		expect(ctx.recorded.done[0]).toBeDefined();
		stream.send(sse.mention(mentionAt('m2', T)), sse.mention(mentionAt('m3', T + 2 * MINUTE)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		await sleep(20);
		expect(emittedIds(ctx)).toEqual(['m1', 'm3']);
		expect(pending(ctx).map((p) => p.key)).toEqual(['m1', 'm3']);
	});
});

describe('Execution Finished', () => {
	test('a failed execution counts as delivered; one n8n could not run is passed on again; a cancelled one counts', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { parameters: FINISHED });
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		settleEmit(ctx, 0, 'error');
		settleEmit(ctx, 1, { reject: new Error('Connection terminated unexpectedly') });
		await waitsFor(MINUTE);
		await passWait(ctx, 3);
		expect(ctx.recorded.keys[2]).toBe(keyOf('m2', undefined, 2));
		settleEmit(ctx, 2, { reject: new ManualExecutionCancelledError('42') });
		await waitFor(() => pending(ctx).length === 0, { what: 'all settled', stepMs: 2 });
		await trigger.close();
		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm2']);
		expect(ctx.recorded.logs).toContainEqual(
			expect.stringMatching(
				/Mark Delivered When: executionFinished\): 2 item\(s\) delivered, 1 passed on again/,
			),
		);
	});
});

describe('Emitted (the default)', () => {
	test.each([
		['left at its default', {}],
		['chosen', { options: { markDelivered: 'emitted' } }],
	])(
		'%s: no done promise, the same keys and the same memory as before the option existed',
		async (_name, parameters) => {
			const stream = new FakeStream();
			const { ctx, trigger } = await started([{ stream }], { parameters });
			stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
			await untilRecorded(ctx, (r) => r.emitted.length === 2);
			expect(ctx.recorded.done).toEqual([undefined, undefined]);
			expect(ctx.recorded.keys).toEqual([keyOf('m1'), keyOf('m2')]);
			expect(ctx.staticData[STREAM_STATE_KEY]).toStrictEqual({
				v: 1,
				target: 'newMention:1001',
				lastAliveAt: T,
				ids: [
					['m1', T, 1],
					['m2', T, 1],
				],
			});
			await trigger.close();
			expect(clock().slept).toEqual([]);
			expect(ctx.recorded.logs.join('\n')).not.toMatch(/Mark Delivered When/);
		},
	);

	test('a test event is always Emitted', async () => {
		const stream = new FakeStream();
		const api = new FakeApi().once('POST', LIVE, { stream });
		const ctx = streamContext(api, {
			mode: 'manual',
			parameters: { options: { ...SUCCEEDED.options, anonymization: 'author' } },
		});
		await activate(ctx);
		stream.send(
			sse.mention(
				mentionAt('m1', T, {
					author: { id: 'a'.repeat(64), name: 'b'.repeat(64), avatar: null },
				}),
			),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.done).toEqual([undefined]);
		expect(ctx.staticData).toEqual({});
	});
});

describe("n8n's Engine 2.0", () => {
	test('refuses an emit that waits for its execution: the trigger says so at activation, naming the option', async () => {
		const api = new FakeApi();
		const ctx = streamContext(api, {
			parameters: SUCCEEDED,
			workflowSettings: { engineType: 'v2' },
		});
		await expect(activate(ctx)).rejects.toThrow(
			"Options → Mark Delivered When: this workflow runs on n8n's Engine 2.0 (workflow settings), which cannot yet start an execution a trigger waits for. Choose Emitted, or run the workflow on the standard engine.",
		);
		expect(api.requests).toEqual([]);
	});

	test('Emitted runs there as before', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], {
			workflowSettings: { engineType: 'v2' },
		});
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.done).toEqual([undefined]);
		await trigger.close();
	});
});
