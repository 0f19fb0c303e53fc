/**
 * The SentiOne Stream Trigger step by step, through `new SentiOneStreamTrigger().trigger` with a
 * fake n8n trigger context (emits, errors and failed executions recorded), a fake SentiOne whose
 * live stream the test feeds (FakeStream) and a fake clock for every wait the node makes through
 * it (backoff, the stream budget). The stall guard runs on real time: the tests that need it set a
 * small Stall Timeout. The engine tier runs the same against the simulator
 * (test/engine/trigger/stream.test.ts, streamRestart.test.ts).
 */
import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { SentiOneStreamTrigger } from '../../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { PATHS, UNAUTHORIZED_TEXTS } from '../../../../nodes/SentiOne/shared/contract';
import { STREAM_STATE_KEY } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { executionKey } from '../../../../nodes/SentiOne/trigger/stream/streamTrigger';
import type { FakeAnswer } from '../../../support/fake/api';
import { FakeApi, FakeStream, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import {
	emittedRows,
	runTrigger,
	triggerContext,
	untilRecorded,
	useActivations,
} from '../../../support/fake/context';
import { mention, sse } from '../../../support/fake/mentions';
import { idsOf } from '../../../support/tally';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';
import { activeResources, projectParam } from '../../../support/triggers';

const node = new SentiOneStreamTrigger();
const LIVE = PATHS.liveStream(1001);
const SEARCH = PATHS.recentSearch(1001);
const T = NOW_MS;
const project = projectParam(1001);
const activate = useActivations();
const clock = useFakeClock(T);

/** The deduplication key the trigger gives the execution of mention `id` (fake context's ids). */
const keyOf = (id: string, target = 'newMention:1001') =>
	executionKey('fake-workflow-id', 'fake-node-id', target, id);

interface Setup {
	parameters?: IDataObject;
	mode?: WorkflowExecuteMode;
	emitArity?: 3 | 4;
	staticData?: IDataObject;
}

/** A Stream Trigger's context on `api` for project 1001. */
const contextOf = (api: FakeApi, o: Setup = {}) =>
	triggerContext({
		nodeType: node,
		api,
		mode: o.mode,
		emitArity: o.emitArity,
		staticData: o.staticData,
		parameters: { project, ...(o.parameters ?? {}) },
	});

/** Activates a Stream Trigger whose live stream answers with `answers`, in order. */
async function started(answers: FakeAnswer[], o: Setup = {}) {
	const api = new FakeApi();
	for (const answer of answers) api.once('POST', LIVE, answer);
	const ctx = contextOf(api, o);
	const trigger = await activate(node, ctx);
	return { api, ctx, trigger };
}

const emittedIds = (ctx: Parameters<typeof emittedRows>[0]) => idsOf(emittedRows(ctx));
const connections = (api: FakeApi) => api.sent(LIVE);

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

	test.each([
		[
			'an unknown key (401)',
			{ status: 401, body: { message: UNAUTHORIZED_TEXTS.notRecognised } },
			/^SentiOne refused the API key \(401\): SentiOne does not recognise the API key/,
		],
		[
			'a key without the tier (401)',
			{ status: 401, body: { message: UNAUTHORIZED_TEXTS.lacksTier('Basic') } },
			/^SentiOne Stream Trigger → New Mention needs API access \(SentiOne's Basic tier\), and this API key has none \(401\)$/,
		],
		[
			'a forbidden project (403)',
			{ status: 403, body: { message: 'Forbidden.' } },
			/403.*Forbidden\./,
		],
		[
			'an unknown project (404)',
			{ status: 404, body: { message: 'Project 1001 not found.' } },
			/^SentiOne could not find what the request names \(404\): Project 1001 not found\.$/,
		],
	])(
		'a refusal (%s) rejects trigger() with the API’s words and leaves nothing running',
		async (_, answer, words) => {
			const api = new FakeApi().on('POST', LIVE, answer);
			const ctx = contextOf(api);
			await expect(runTrigger(node, ctx)).rejects.toThrow(words);
			await sleep(30);
			expect(api.requests).toHaveLength(1);
			expect(ctx.recorded).toMatchObject({ emitted: [], errors: [], failed: [] });
			expect(clock().slept).toEqual([]);
		},
	);

	test('engagement updates need the Enterprise tier: a Basic key is refused at activation', async () => {
		const api = new FakeApi().on('POST', PATHS.engagementStream(), {
			status: 401,
			body: { message: UNAUTHORIZED_TEXTS.lacksTier('Enterprise') },
		});
		await expect(
			runTrigger(node, contextOf(api, { parameters: { event: 'engagementUpdate' } })),
		).rejects.toThrow(
			/needs SentiOne's Enterprise tier, and this API key does not have it \(401\)/,
		);
	});

	test('a spent stream budget activates all the same, says when it connects, then connects after the reset and searches the wait', async () => {
		const resetAt = T + 20 * MINUTE;
		const stream = new FakeStream();
		const api = new FakeApi()
			.once('POST', LIVE, {
				status: 429,
				headers: rateLimitHeaders(5, 0, resetAt),
				body: { message: 'Rate limit exceeded.' },
			})
			.once('POST', LIVE, { stream })
			.on('POST', SEARCH, { body: page([mention('meanwhile', T + 10 * MINUTE)]) });
		const ctx = contextOf(api);
		await activate(node, ctx);
		expect(ctx.recorded.failed.map((e) => e.message)).toEqual([
			"SentiOne's live stream budget is used up (429): at most 5 requests an hour for this key. It resets at 2026-11-21 10:50 UTC (in 20 min). The trigger is active and connects at 2026-11-21 10:50 UTC (in 20 min), when the budget resets.",
		]);
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(Math.max(...clock().slept)).toBeGreaterThanOrEqual(20 * MINUTE);
		expect(connections(api)).toHaveLength(2);
		// the outage is longer than the 5-minute backfill: the most backfill, and a search for the rest
		expect(connections(api)[1].qs).toEqual({ backfillMinutes: 5 });
		expect(api.sent(SEARCH)[0].body).toMatchObject({ sortType: 'CollectedAtAscending' });
		expect(emittedIds(ctx)).toEqual(['meanwhile']);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a transient failure (503) activates all the same and connects after the backoff', async () => {
		const stream = new FakeStream();
		const { api, ctx } = await started([
			{ status: 503, body: { message: 'Service unavailable.' } },
			{ stream },
		]);
		await waitFor(() => connections(api).length === 2, {
			what: 'the second connection',
			stepMs: 2,
		});
		expect(clock().slept).toEqual([1000]);
		stream.send(sse.mention(mention('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.errors).toEqual([]);
	});
});

describe('passing mentions on', () => {
	test('each mention event once, in its own execution, under a deduplication key (n8n 2.41+: emit takes four)', async () => {
		const stream = new FakeStream();
		const { ctx, trigger } = await started([{ stream }], { emitArity: 4 });
		stream.send(
			sse.mention(mention('m1', T)),
			sse.heartbeat(T),
			sse.mention(mention('m2', T)),
			sse.mention(mention('m1', T)),
			sse.comment('keep-alive'),
			sse.mention(mention('m3', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(ctx.recorded.emitted.map((items) => items.length)).toEqual([1, 1, 1]);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm3']);
		expect(ctx.recorded.keys).toEqual([keyOf('m1'), keyOf('m2'), keyOf('m3')]);
		// Simplify (the default): the flat row
		expect(emittedRows(ctx)[0]).toMatchObject({
			id: 'm1',
			text: 'text of m1',
			sourceType: 'Twitter',
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
			sse.mention(mention('m1', T)),
			sse.mention(mention('m1', T)),
			sse.mention(mention('m2', T)),
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
			sse.mention(mention('c1', T, { type: 'Comment' })),
			sse.mention(mention('c2', T, { type: 'Comment' })),
			sse.mention(mention('p1', T)),
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
		await activate(node, ctx);
		const update = {
			mentionId: 'm1',
			engagementMetrics: { likeCount: 3 },
			updatedAt: '2026-11-21T10:31:00.000Z',
		};
		stream.send(
			sse.engagementUpdate(update, 'e1'),
			sse.engagementUpdate(update, 'e1'),
			sse.engagementUpdate({ ...update, engagementMetrics: { likeCount: 4 } }, 'e1'),
			sse.mention(mention('ignored', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		await sleep(20);
		expect(emittedRows(ctx)).toEqual([update, { ...update, engagementMetrics: { likeCount: 4 } }]);
		expect(ctx.recorded.keys).toHaveLength(2);
		expect(new Set(ctx.recorded.keys).size).toBe(2);
		expect(api.requests[0]).toMatchObject({ path: PATHS.engagementStream(), body: {} });
	});
});

describe('keeping the connection', () => {
	test('heartbeats keep it alive; silence for the Stall Timeout replaces it, asking for the minute it missed', async () => {
		const first = new FakeStream();
		const second = new FakeStream();
		const { api, ctx } = await started([{ stream: first }, { stream: second }], {
			parameters: { options: { stallTimeout: 0.5 } },
		});
		// 0.7 s of heartbeats only (both forms), longer than the Stall Timeout: one connection
		for (let i = 0; i < 14; i++) {
			first.send(sse.heartbeat(T, i % 2 === 1));
			await sleep(50);
		}
		expect(connections(api)).toHaveLength(1);
		expect(first.closed).toBe(false);
		// then silence: judged stalled, closed and replaced
		await waitFor(() => connections(api).length === 2, { what: 'the reconnect', stepMs: 5 });
		expect(first.closed).toBe(true);
		expect(connections(api)[1].qs).toEqual({ backfillMinutes: 1 });
		second.send(sse.mention(mention('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a dropped stream reconnects after the backoff asking for a backfill; the repeats it brings are dropped', async () => {
		const first = new FakeStream();
		const second = new FakeStream();
		const { api, ctx, trigger } = await started([{ stream: first }, { stream: second }]);
		first.send(sse.mention(mention('m1', T)), sse.mention(mention('m2', T + SECOND)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		clock().advance(10 * SECOND);
		first.drop();
		await waitFor(() => connections(api).length === 2, { what: 'the reconnect', stepMs: 2 });
		expect(clock().slept).toEqual([1000]);
		// last alive 11 s before the reconnect, plus the 30 s margin: one minute
		expect(connections(api)[1].qs).toEqual({ backfillMinutes: 1 });
		second.send(sse.mention(mention('m2', T + SECOND)), sse.mention(mention('m3', T + 2 * SECOND)));
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(emittedIds(ctx)).toEqual(['m1', 'm2', 'm3']);
		expect(ctx.recorded.keys).toEqual([keyOf('m1'), keyOf('m2'), keyOf('m3')]);
		await trigger.close();
		expect(ctx.recorded.logs.at(-1)).toMatch(
			/2 connection\(s\), 1 dropped, 0 stalled, 0 closed by the server, 0 failed attempt\(s\), 0 budget wait\(s\); 3 item\(s\) passed on, 1 repeat\(s\) dropped/,
		);
	});

	test('a stream the server ends is replaced the same way; quick ends in a row back off longer', async () => {
		const streams = [new FakeStream(), new FakeStream(), new FakeStream()];
		const { api } = await started(streams.map((stream) => ({ stream })));
		streams[0].send(sse.heartbeat(T));
		streams[0].end();
		await waitFor(() => connections(api).length === 2, {
			what: 'the second connection',
			stepMs: 2,
		});
		streams[1].end();
		await waitFor(() => connections(api).length === 3, { what: 'the third connection', stepMs: 2 });
		expect(clock().slept).toEqual([1000, 2000]);
	});

	test('a refusal on a reconnect goes through emitError once, and nothing runs after it', async () => {
		const first = new FakeStream();
		const { api, ctx } = await started([
			{ stream: first },
			{ status: 401, body: { message: UNAUTHORIZED_TEXTS.notRecognised } },
		]);
		first.drop();
		await untilRecorded(ctx, (r) => r.errors.length === 1);
		expect(ctx.recorded.errors[0].message).toMatch(
			/^SentiOne refused the API key \(401\): SentiOne does not recognise the API key/,
		);
		await sleep(30);
		expect(connections(api)).toHaveLength(2);
		expect(ctx.recorded.errors).toHaveLength(1);
	});

	test('six failed attempts in a row are reported through emitError as persistent', async () => {
		const first = new FakeStream();
		const failures = Array.from({ length: 6 }, () => ({ status: 503, body: { message: 'Down.' } }));
		const { api, ctx } = await started([{ stream: first }, ...failures]);
		first.drop();
		await untilRecorded(ctx, (r) => r.errors.length === 1);
		expect(ctx.recorded.errors[0].message).toMatch(/^SentiOne had a server error \(503\): Down\./);
		expect(connections(api)).toHaveLength(7);
		expect(clock().slept).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000]);
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
		stream.send(sse.mention(mention('m1', T - 2 * MINUTE)), sse.mention(mention('m2', T - MINUTE)));
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
			sse.mention(mention('early', T - 3 * MINUTE)),
			sse.mention(mention('last', T - 2 * MINUTE)),
			sse.mention(mention('new', T - MINUTE)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(emittedIds(ctx)).toEqual(['last', 'new']);
		expect(ctx.recorded.keys).toEqual([keyOf('last'), keyOf('new')]);
	});
});

describe('"Listen for test event" (manual)', () => {
	test('the newest matching mention by one search, no live connection spent; emitted without a key', async () => {
		const api = new FakeApi().on('POST', SEARCH, {
			body: page([mention('m9', T - SECOND), mention('m8', T - 2 * SECOND)], 'more'),
		});
		const ctx = contextOf(api, { mode: 'manual', emitArity: 4 });
		const trigger = await activate(node, ctx);
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
		const trigger = await activate(node, ctx);
		await waitFor(() => connections(api).length === 1, { what: 'the stream', stepMs: 2 });
		expect(connections(api)[0].qs).toEqual({ backfillMinutes: 5 });
		stream.send(sse.mention(mention('first', T)), sse.mention(mention('second', T)));
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
		await activate(node, ctx);
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

describe('closing', () => {
	test('ends the connection and leaves nothing running: no further request, no wait, no timer', async () => {
		const timers = activeResources().Timeout ?? 0;
		const stream = new FakeStream();
		const { api, ctx, trigger } = await started([{ stream }]);
		stream.send(sse.mention(mention('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await trigger.close();
		expect(stream.closed).toBe(true);
		// what arrives after the close is not passed on
		stream.send(sse.mention(mention('m2', T)));
		await sleep(30);
		expect(api.requests).toHaveLength(1);
		expect(emittedIds(ctx)).toEqual(['m1']);
		expect(clock().slept).toEqual([]);
		expect(ctx.recorded.errors).toEqual([]);
		// the stall guard's timer went with the connection
		expect(activeResources().Timeout ?? 0).toBeLessThanOrEqual(timers);
	});

	test('while waiting for the stream budget: the wait ends at once', async () => {
		clock().holdFrom = MINUTE;
		const stream = new FakeStream();
		const { api, ctx, trigger } = await started([
			{ stream, headers: rateLimitHeaders(5, 0, T + 30 * MINUTE) },
		]);
		stream.drop();
		await waitFor(() => clock().holding === 1, { what: 'the budget wait', stepMs: 2 });
		expect(clock().slept).toEqual([30 * MINUTE + 1000]);
		await trigger.close();
		expect(clock().holding).toBe(0);
		await sleep(30);
		expect(api.requests).toHaveLength(1);
		expect(ctx.recorded.errors).toEqual([]);
		expect(ctx.recorded.logs.at(-1)).toMatch(/1 budget wait\(s\)/);
	});

	test('while a reconnect is in flight: the request is cancelled and nothing follows', async () => {
		const first = new FakeStream();
		const api = new FakeApi()
			.once('POST', LIVE, { stream: first })
			.once('POST', LIVE, () => new Promise<FakeAnswer>(() => undefined));
		const ctx = contextOf(api);
		const trigger = await activate(node, ctx);
		first.drop();
		await waitFor(() => connections(api).length === 2, { what: 'the reconnect', stepMs: 2 });
		await trigger.close();
		await sleep(30);
		expect(connections(api)).toHaveLength(2);
		expect(ctx.recorded.errors).toEqual([]);
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
