/**
 * The Stream Trigger's alert events (trigger/stream/streamAlerts.ts) with a fake live stream and a
 * fake clock: mentions go to the alert engine instead of the workflow, a digest comes once its
 * window is over and seen whole, under its own deduplication key, saved with the stream's memory;
 * an outage the reconnect could not fill keeps the window incomplete.
 */

import { ALERT_STATE_KEY } from '../../../../nodes/SentiOne/trigger/alerts';
import { STREAM_STATE_KEY } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import { FakeStream } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { emittedRows, untilRecorded } from '../../../support/fake/context';
import { mentionAt, sse } from '../../../support/fake/mentions';
import { useStreamTrigger } from '../../../support/fake/streamTrigger';
import { NOW_MS } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';

const T = NOW_MS; // 10:30 UTC
const { started } = useStreamTrigger();
const clock = useFakeClock(T);
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 21, hh, mm, ss);

const hourly = {
	event: 'digest',
	digestWindow: 'hours',
	digestEvery: 1,
	options: { stallTimeout: 600 },
};

/** Lets the trigger read what was sent. */
const settle = async () => await sleep(15);

/** Moves the clock to `ms` and sends a heartbeat (the stream ticks the alerts on every event). */
async function tickAt(stream: FakeStream, ms: number) {
	clock().now = ms;
	stream.send(sse.heartbeat(ms));
	await settle();
}

test('a digest of the live stream: counted once, sent after the window, under its own key, saved with the memory', async () => {
	const stream = new FakeStream();
	const { ctx } = await started([{ stream }], { parameters: hourly });
	// the trigger started at 10:30: the 10:00 window is incomplete; the 11:00 one is seen whole.
	// The 10:00 window (empty, not seen whole) is due once read to its end and the grace is over;
	// nothing could fill its first half, so it does not wait for it
	await tickAt(stream, at(11, 1, 30));
	await untilRecorded(ctx, (r) => r.emitted.length === 1);
	clock().now = at(11, 5);
	stream.send(sse.mention(mentionAt('a', at(11, 4))));
	stream.send(sse.mention(mentionAt('a', at(11, 4)))); // a repeat
	stream.send(
		sse.mention(
			mentionAt('b', at(11, 30), { content: { sentiment: 'Negative', text: 'It broke' } }),
		),
	);
	await settle();
	await tickAt(stream, at(11, 10));
	expect(emittedRows(ctx)).toMatchObject([
		{ kind: 'digest', windowStart: '2026-11-21T10:00:00.000Z', complete: false, total: 0 },
	]);
	expect(emittedRows(ctx)[0].summary).toBe(
		'Digest for Sat 21 Nov 2026 10:00–11:00 (UTC): no matching mentions seen (the trigger started in the middle of this window).',
	);
	await tickAt(stream, at(12, 0, 30)); // within the grace
	expect(emittedRows(ctx)).toHaveLength(1);
	await tickAt(stream, at(12, 1, 30));
	await untilRecorded(ctx, (r) => r.emitted.length === 2);
	expect(emittedRows(ctx)[1]).toMatchObject({
		kind: 'digest',
		windowStart: '2026-11-21T11:00:00.000Z',
		total: 2,
		complete: true,
		bySentiment: { Positive: 1, Negative: 1 },
	});
	expect(ctx.recorded.keys[1]).toMatch(/^sentione:[0-9a-f]{64}$/);
	expect(ctx.recorded.keys[0]).not.toBe(ctx.recorded.keys[1]);
	expect(ctx.staticData[ALERT_STATE_KEY]).toMatchObject({ emittedEnd: at(12, 0) });
	expect(ctx.staticData[STREAM_STATE_KEY]).toBeDefined();
});

test('an outage the reconnect cannot fill (gap filling off) leaves its window incomplete', async () => {
	const first = new FakeStream();
	const second = new FakeStream();
	const { ctx } = await started([{ stream: first }, { stream: second }], {
		parameters: { ...hourly, options: { stallTimeout: 600, fillGaps: false } },
	});
	await tickAt(first, at(11, 0));
	clock().now = at(11, 10);
	clock().holdFrom = 1;
	first.drop();
	await waitFor(() => clock().holding > 0, { what: 'the reconnect wait' });
	// reconnects at 11:25 with at most 5 minutes of backfill: 11:10–11:20 stays a hole
	clock().now = at(11, 25);
	clock().holdFrom = Infinity;
	clock().release();
	await settle();
	for (const m of [30, 40, 50]) await tickAt(second, at(11, m));
	await tickAt(second, at(12, 16, 30));
	const digest = emittedRows(ctx).find((r) => r.windowStart === '2026-11-21T11:00:00.000Z');
	expect(digest).toMatchObject({
		complete: false,
		incompleteBecause:
			'the live stream was interrupted and what it missed could not all be read again',
	});
});
