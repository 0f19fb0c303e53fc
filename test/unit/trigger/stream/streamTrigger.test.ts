/**
 * The SentiOne Stream Trigger's entry (trigger/stream/streamTrigger.ts), through
 * `new SentiOneStreamTrigger().trigger` with a fake n8n trigger context (emits, their keys, errors
 * and failed executions recorded) and a fake SentiOne whose live stream the test feeds
 * (FakeStream): the request it opens, what it passes on and under which deduplication key (n8n
 * 2.41+ and 1.x), the memory it resumes from after a restart, and "Listen for test event". The
 * engine tier runs the same against the simulator (test/engine/trigger/stream.test.ts,
 * streamRestart.test.ts).
 */
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { STREAM_STATE_KEY } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { executionKey } from '../../../../nodes/SentiOne/trigger/stream/streamTrigger';
import { FakeApi, FakeStream, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { emittedRows, runTrigger, untilRecorded } from '../../../support/fake/context';
import { mentionAt, sse } from '../../../support/fake/mentions';
import {
	LIVE,
	SEARCH,
	connections,
	emittedIds,
	keyOf,
	streamContext as contextOf,
	streamNode as node,
	useStreamTrigger,
} from '../../../support/fake/streamTrigger';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';

const T = NOW_MS;
const { activate, started } = useStreamTrigger();
useFakeClock(T);

describe('activation', () => {
	test('opens the project’s live stream: POST with the filters in the body, the backfill asked for, Accept text/event-stream', async () => {
		const stream = new FakeStream();
		const { api, ctx, trigger } = await started([{ stream }], {
			parameters: {
				filters: { query: 'acme', mentionTypes: ['Post'] },
				options: { backfillMinutes: 2 },
			},
		});
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({
			method: 'POST',
			path: LIVE,
			qs: { backfillMinutes: 2 },
			body: { filters: { content: { query: 'acme' }, type: ['Post'] } },
		});
		expect(api.requests[0].headers.Accept).toBe('text/event-stream');
		expect(api.requests[0].headers['X-API-KEY']).toBe(api.credentials.apiKey);
		expect(ctx.recorded.emitted).toEqual([]);
		await trigger.close();
		expect(stream.closed).toBe(true);
	});

	test('JSON Lines asks for application/x-ndjson; no backfill asked at start by default', async () => {
		const { api } = await started([{ stream: new FakeStream() }], {
			parameters: { options: { streamFormat: 'jsonLines' } },
		});
		expect(api.requests[0].headers.Accept).toBe('application/x-ndjson');
		expect(api.requests[0].qs).toEqual({});
	});
});

describe('passing mentions on', () => {
	test('each mention event once, in its own execution, under a deduplication key (n8n 2.41+: emit takes four)', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { emitArity: 4 });
		stream.send(
			sse.mention(mentionAt('m1', T)),
			sse.heartbeat(T),
			sse.mention(mentionAt('m2', T)),
			sse.mention(mentionAt('m1', T)),
			sse.comment('keep-alive'),
			sse.mention(mentionAt('m3', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(ctx.recorded.emitted.map((items) => items.length)).toEqual([1, 1, 1]);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm3']);
		expect(ctx.recorded.keys).toEqual([keyOf('m1'), keyOf('m2'), keyOf('m3')]);
		// Simplify (the default): the flat row
		expect(emittedRows(ctx)[0]).toMatchObject({
			id: 'm1',
			text: 'The Acme phone is great (m1)',
			sourceType: 'Facebook',
		});
		// the memory a restart resumes from, saved with every emit
		expect(ctx.staticData[STREAM_STATE_KEY]).toEqual({
			v: 1,
			target: 'newMention:1001',
			lastAliveAt: T,
			ids: [
				['m1', T, 1],
				['m2', T, 1],
				['m3', T, 1],
			],
		});
		await trigger.close();
		expect(ctx.recorded.logs.at(-1)).toMatch(
			/^info: SentiOne stream closed: 1 connection\(s\), 0 dropped, .* 3 item\(s\) passed on, 1 repeat\(s\) dropped/,
		);
	});

	test('on n8n 1.x (emit takes three) the same, without keys, and the memory trusted as it is', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], { emitArity: 3 });
		stream.send(
			sse.mention(mentionAt('m1', T)),
			sse.mention(mentionAt('m1', T)),
			sse.mention(mentionAt('m2', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2']);
		expect(ctx.recorded.keys).toEqual([undefined, undefined]);
		expect((ctx.staticData[STREAM_STATE_KEY] as { ids: unknown[] }).ids).toEqual([
			['m1', T],
			['m2', T],
		]);
	});

	test('a mention that does not match the filters is dropped, and that SentiOne did not apply them is said once', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], {
			parameters: { filters: { mentionTypes: ['Post'] } },
		});
		stream.send(
			sse.mention(mentionAt('c1', T, { type: 'Comment' })),
			sse.mention(mentionAt('c2', T, { type: 'Comment' })),
			sse.mention(mentionAt('p1', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(emittedIds(ctx)).toEqual(['p1']);
		expect(ctx.recorded.failed.map((e) => e.message)).toEqual([
			expect.stringMatching(
				/^SentiOne did not apply every filter it was sent: .*Mention Types \(1 mention\)/,
			),
		]);
	});

	test('engagement updates: each once as the stream sends it, keyed per update', async () => {
		const stream = new FakeStream();
		const api = new FakeApi().once('POST', PATHS.engagementStream(), { stream });
		const ctx = contextOf(api, { parameters: { event: 'engagementUpdate' } });
		await activate(ctx);
		const update = {
			mentionId: 'm1',
			engagementMetrics: { likeCount: 3 },
			updatedAt: '2026-11-21T10:31:00.000Z',
		};
		stream.send(
			sse.engagementUpdate(update, 'e1'),
			sse.engagementUpdate(update, 'e1'),
			sse.engagementUpdate({ ...update, engagementMetrics: { likeCount: 4 } }, 'e1'),
			sse.mention(mentionAt('ignored', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		await sleep(20);
		expect(emittedRows(ctx)).toEqual([update, { ...update, engagementMetrics: { likeCount: 4 } }]);
		expect(ctx.recorded.keys).toHaveLength(2);
		expect(new Set(ctx.recorded.keys).size).toBe(2);
		expect(api.requests[0]).toMatchObject({ path: PATHS.engagementStream(), body: {} });
	});
});

describe('after a restart of n8n', () => {
	const memory = (ids: unknown[]) => ({
		[STREAM_STATE_KEY]: { v: 1, target: 'newMention:1001', lastAliveAt: T - 2 * MINUTE, ids },
	});

	test('asks for a backfill covering the outage and drops what it had passed on', async () => {
		const stream = new FakeStream();
		const { api, ctx } = await started([{ stream }], {
			emitArity: 3,
			staticData: memory([['m1', T - 2 * MINUTE]]),
		});
		// 2 minutes down plus the 30 s margin: 3 minutes
		expect(api.requests[0].qs).toEqual({ backfillMinutes: 3 });
		stream.send(
			sse.mention(mentionAt('m1', T - 2 * MINUTE)),
			sse.mention(mentionAt('m2', T - MINUTE)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await sleep(20);
		expect(emittedIds(ctx)).toEqual(['m2']);
	});

	test('where n8n deduplicates, the last ids before the shutdown are passed on again under the same key', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([{ stream }], {
			emitArity: 4,
			staticData: memory([
				['early', T - 2 * MINUTE - 30 * SECOND, 1],
				['last', T - 2 * MINUTE, 1],
			]),
		});
		stream.send(
			sse.mention(mentionAt('early', T - 3 * MINUTE)),
			sse.mention(mentionAt('last', T - 2 * MINUTE)),
			sse.mention(mentionAt('new', T - MINUTE)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(emittedIds(ctx)).toEqual(['last', 'new']);
		expect(ctx.recorded.keys).toEqual([keyOf('last'), keyOf('new')]);
	});
});

describe('"Listen for test event" (manual)', () => {
	test('the newest matching mention by one search, no live connection spent; emitted without a key', async () => {
		const api = new FakeApi().on('POST', SEARCH, {
			body: page([mentionAt('m9', T - SECOND), mentionAt('m8', T - 2 * SECOND)], 'more'),
		});
		const ctx = contextOf(api, { mode: 'manual', emitArity: 4 });
		const trigger = await activate(ctx);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await trigger.close();
		expect(emittedIds(ctx)).toEqual(['m9']);
		expect(ctx.recorded.keys).toEqual([undefined]);
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({
			path: SEARCH,
			body: { filters: {}, sortType: 'CollectedAtDescending' },
		});
		expect(ctx.staticData).toEqual({});
	});

	test('no mention found: opens the stream with the 5-minute backfill and passes on the first to arrive, then stops listening', async () => {
		const stream = new FakeStream();
		const api = new FakeApi().on('POST', SEARCH, { body: page([]) }).once('POST', LIVE, { stream });
		const ctx = contextOf(api, { mode: 'manual' });
		const trigger = await activate(ctx);
		await waitFor(() => connections(api).length === 1, { what: 'the stream', stepMs: 2 });
		expect(connections(api)[0].qs).toEqual({ backfillMinutes: 5 });
		stream.send(sse.mention(mentionAt('first', T)), sse.mention(mentionAt('second', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await waitFor(() => stream.closed, { what: 'the stream to close', stepMs: 2 });
		await trigger.close();
		expect(emittedIds(ctx)).toEqual(['first']);
		expect(api.requests.map((r) => r.path)).toEqual([SEARCH, LIVE]);
	});

	test('with anonymization asked for, the sample comes from the stream (a search is never anonymized)', async () => {
		const stream = new FakeStream();
		const api = new FakeApi().once('POST', LIVE, { stream });
		const ctx = contextOf(api, {
			mode: 'manual',
			parameters: { options: { anonymization: 'author' } },
		});
		await activate(ctx);
		expect(api.requests.map((r) => [r.path, r.qs])).toEqual([
			[LIVE, { backfillMinutes: 5, anonymization: 'author' }],
		]);
	});

	test('a spent stream budget fails the test at once (no waiting for the reset)', async () => {
		const api = new FakeApi().on('POST', LIVE, {
			status: 429,
			headers: rateLimitHeaders(5, 0, T + 20 * MINUTE),
			body: { message: 'Rate limit exceeded.' },
		});
		const ctx = contextOf(api, {
			mode: 'manual',
			parameters: { options: { anonymization: 'author' } },
		});
		await expect(runTrigger(node, ctx)).rejects.toThrow(/live stream budget is used up \(429\)/);
		expect(ctx.recorded.failed).toEqual([]);
	});
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
