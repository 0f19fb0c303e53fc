/**
 * The connection a Stream Trigger keeps (trigger/stream/streamSession.ts), through
 * `new SentiOneStreamTrigger().trigger` with a fake SentiOne whose live stream the test feeds,
 * ends or drops (FakeStream) and a fake clock for every wait the session makes through it (backoff,
 * the stream budget): what activation does with each first outcome, heartbeats and the stall
 * guard, reconnects with their backoff and backfill, persistent failures through emitError, and
 * closing at any point leaving nothing behind. The stall guard runs on real time: the test that
 * needs it sets a small Stall Timeout.
 */
import { PATHS, UNAUTHORIZED_TEXTS } from '../../../../nodes/SentiOne/shared/contract';
import type { FakeAnswer } from '../../../support/fake/api';
import { FakeApi, FakeStream, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { runTrigger, untilRecorded } from '../../../support/fake/context';
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
import { activeResources } from '../../../support/triggers';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';

const T = NOW_MS;
const { activate, started } = useStreamTrigger();
const clock = useFakeClock(T);

describe('activation', () => {
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
			/^SentiOne refused access \(403\): Forbidden\.$/,
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
			.on('POST', SEARCH, { body: page([mentionAt('meanwhile', T + 10 * MINUTE)]) });
		const ctx = contextOf(api);
		await activate(ctx);
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
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.errors).toEqual([]);
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
		second.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a dropped stream reconnects after the backoff asking for a backfill; the repeats it brings are dropped', async () => {
		const first = new FakeStream();
		const second = new FakeStream();
		const { api, ctx, trigger } = await started([{ stream: first }, { stream: second }]);
		first.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T + SECOND)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		clock().advance(10 * SECOND);
		first.drop();
		await waitFor(() => connections(api).length === 2, { what: 'the reconnect', stepMs: 2 });
		expect(clock().slept).toEqual([1000]);
		// last alive 11 s before the reconnect, plus the 30 s margin: one minute
		expect(connections(api)[1].qs).toEqual({ backfillMinutes: 1 });
		second.send(
			sse.mention(mentionAt('m2', T + SECOND)),
			sse.mention(mentionAt('m3', T + 2 * SECOND)),
		);
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

describe('closing', () => {
	test('ends the connection and leaves nothing running: no further request, no wait, no timer', async () => {
		const timers = activeResources().Timeout ?? 0;
		const stream = new FakeStream();
		const { api, ctx, trigger } = await started([{ stream }]);
		stream.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		await trigger.close();
		expect(stream.closed).toBe(true);
		// what arrives after the close is not passed on
		stream.send(sse.mention(mentionAt('m2', T)));
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
		const trigger = await activate(ctx);
		first.drop();
		await waitFor(() => connections(api).length === 2, { what: 'the reconnect', stepMs: 2 });
		await trigger.close();
		await sleep(30);
		expect(connections(api)).toHaveLength(2);
		expect(ctx.recorded.errors).toEqual([]);
		expect(ctx.recorded.failed).toEqual([]);
	});
});
