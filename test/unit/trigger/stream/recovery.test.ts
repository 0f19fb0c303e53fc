/**
 * What the Stream Trigger fetches by search instead of the stream (trigger/stream/recovery.ts),
 * through `new SentiOneStreamTrigger().trigger` with a fake SentiOne and a fake clock: mentions that
 * arrived malformed (looked up by the moments they arrived in), an outage longer than the 5-minute
 * backfill (a collected-at search), and what could not be recovered — reported as a failed
 * execution while the stream goes on.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FakeAnswer } from '../../../support/fake/api';
import { FakeStream, page } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { untilRecorded } from '../../../support/fake/context';
import { mentionAt, sse } from '../../../support/fake/mentions';
import {
	SEARCH,
	connections,
	emittedIds,
	useStreamTrigger,
} from '../../../support/fake/streamTrigger';
import { MINUTE, NOW_MS, SECOND, iso } from '../../../support/time';
import { waitFor } from '../../../support/wait';

const T = NOW_MS;
const streamTrigger = useStreamTrigger();
const clock = useFakeClock(T);

/** A Stream Trigger on `streams` (in order) and the search answers, with these options. */
const started = async (streams: FakeStream[], search: FakeAnswer[], options: IDataObject = {}) =>
	await streamTrigger.started(
		streams.map((s) => ({ stream: s })),
		{ parameters: { options } },
		search,
	);

describe('malformed mention events', () => {
	test('are looked up 5 s later by a search of the moments they arrived in; only what was not passed on is passed on', async () => {
		const stream = new FakeStream();
		const { api, ctx } = await started(
			[stream],
			[{ body: page([mentionAt('m1', T), mentionAt('m2', T), mentionAt('m3', T)]) }],
		);
		stream.send(
			sse.mention(mentionAt('m1', T)),
			sse.malformedMention('m2'),
			sse.mention(mentionAt('m3', T)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(api.sent(SEARCH)).toEqual([]);
		// 5 s later (the node's clock), the next event makes the repair due
		clock().advance(5 * SECOND);
		stream.send(sse.heartbeat(T + 5 * SECOND));
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(emittedIds(ctx)).toEqual(['m1', 'm3', 'm2']);
		// arrived at T: from a minute and the 30 s margin before, to 30 s after, widened by whole seconds
		expect(api.sent(SEARCH)).toHaveLength(1);
		expect(api.sent(SEARCH)[0].body).toEqual({
			filters: { collectedAt: { from: iso(T - 91 * SECOND), to: iso(T + 31 * SECOND) } },
			sortType: 'CollectedAtAscending',
		});
		expect(ctx.recorded.failed).toEqual([]);
	});

	test('what the search does not return is reported with its ids; the stream goes on', async () => {
		const stream = new FakeStream();
		const { ctx } = await started([stream], [{ body: page([mentionAt('m1', T)]) }]);
		stream.send(sse.mention(mentionAt('m1', T)), sse.malformedMention('m2'));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		clock().advance(5 * SECOND);
		stream.send(sse.heartbeat(T + 5 * SECOND));
		await untilRecorded(ctx, (r) => r.failed.length === 1);
		expect(ctx.recorded.failed[0].message).toBe(
			'1 mention arrived malformed on the SentiOne stream and could not be recovered',
		);
		expect((ctx.recorded.failed[0] as Error & { description?: string }).description).toMatch(
			/^Mention IDs: m2\. /,
		);
		stream.send(sse.mention(mentionAt('m4', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 2);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('with gap filling off, nothing is searched', async () => {
		const stream = new FakeStream();
		const { api, ctx } = await started([stream], [], { fillGaps: false });
		stream.send(sse.malformedMention('m2'), sse.mention(mentionAt('m1', T)));
		clock().advance(10 * SECOND);
		// a repair would be searched for right after m3, before m4 is read
		stream.send(sse.mention(mentionAt('m3', T)), sse.mention(mentionAt('m4', T)));
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(api.sent(SEARCH)).toEqual([]);
		expect(ctx.recorded.failed).toEqual([]);
	});
});

describe('an outage longer than the 5-minute backfill', () => {
	/** The stream was last alive at T (m1); it goes silent for 10 minutes, then breaks. */
	async function outage(search: FakeAnswer[], options: IDataObject = {}) {
		const first = new FakeStream();
		const second = new FakeStream();
		const started_ = await started([first, second], search, options);
		first.send(sse.mention(mentionAt('m1', T)));
		await untilRecorded(started_.ctx, (r) => r.emitted.length === 1);
		clock().advance(10 * MINUTE);
		first.drop();
		await waitFor(() => connections(started_.api).length === 2, {
			what: 'the reconnect',
			stepMs: 2,
		});
		return { ...started_, second };
	}

	test('is filled by a collected-at search after the reconnect (which asks for the 5 minutes it can)', async () => {
		const { api, ctx, second } = await outage([
			{
				body: page([
					mentionAt('m1', T),
					mentionAt('g1', T + 2 * MINUTE),
					mentionAt('g2', T + 4 * MINUTE),
				]),
			},
		]);
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(connections(api)[1].qs).toEqual({ backfillMinutes: 5 });
		// from 30 s before the last event to 5 minutes before the reconnect plus 30 s (widened)
		const reconnectAt = T + 10 * MINUTE + 1000;
		expect(api.sent(SEARCH)[0].body).toEqual({
			filters: {
				collectedAt: {
					from: iso(T - 31 * SECOND),
					to: iso(reconnectAt - 5 * MINUTE + 31 * SECOND),
				},
			},
			sortType: 'CollectedAtAscending',
		});
		expect(emittedIds(ctx)).toEqual(['m1', 'g1', 'g2']);
		// the backfill brings the end of the outage: repeats dropped
		second.send(
			sse.mention(mentionAt('g2', T + 4 * MINUTE)),
			sse.mention(mentionAt('b1', T + 7 * MINUTE)),
		);
		await untilRecorded(ctx, (r) => r.emitted.length === 4);
		expect(emittedIds(ctx)).toEqual(['m1', 'g1', 'g2', 'b1']);
		expect(ctx.recorded.failed).toEqual([]);
	});

	test('what the request cap leaves unsearched is reported, naming the range and the option; the stream goes on', async () => {
		const { api, ctx, second } = await outage(
			[{ body: page([mentionAt('g1', T + MINUTE)], 'more') }],
			{
				maxGapRequests: 1,
			},
		);
		await untilRecorded(ctx, (r) => r.failed.length === 1);
		expect(api.sent(SEARCH)).toHaveLength(1);
		expect(emittedIds(ctx)).toEqual(['m1', 'g1']);
		expect(ctx.recorded.failed[0].message).toBe(
			'Only part of the mentions collected between 2026-11-21 10:29:30 UTC and 2026-11-21 10:35:31 UTC could be searched for after the SentiOne stream was interrupted',
		);
		expect((ctx.recorded.failed[0] as Error & { description?: string }).description).toMatch(
			/^The search stopped after 1 requests \(Options → Max Search Requests per Gap\)\./,
		);
		second.send(sse.mention(mentionAt('live', T + 10 * MINUTE)));
		await untilRecorded(ctx, (r) => r.emitted.length === 3);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a failed search is reported, and the stream goes on', async () => {
		const { ctx } = await outage([{ status: 500, body: { message: 'Search is down.' } }]);
		await untilRecorded(ctx, (r) => r.failed.length === 1);
		expect(ctx.recorded.failed[0].message).toMatch(
			/^Could not search for mentions collected between .* \(stream outage\): SentiOne had a server error \(500\): Search is down\./,
		);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('with gap filling off, the possible loss is reported instead', async () => {
		const { api, ctx } = await outage([], { fillGaps: false });
		await untilRecorded(ctx, (r) => r.failed.length === 1);
		expect(ctx.recorded.failed[0].message).toBe(
			'The SentiOne stream was down longer than its 5-minute backfill: mentions collected between 2026-11-21 10:29:30 UTC and 2026-11-21 10:35:31 UTC may be missing',
		);
		expect((ctx.recorded.failed[0] as Error & { description?: string }).description).toBe(
			'Gap filling is turned off (Options → Fill Gaps with Search).',
		);
		expect(api.sent(SEARCH)).toEqual([]);
	});
});
