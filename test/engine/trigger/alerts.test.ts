/**
 * The alert events in n8n-core's engine against the simulator (its own reading of the API): a
 * digest of the SentiOne Trigger over simulated hours of shaped traffic, and one of the Stream
 * Trigger over simulated minutes, each with a restart of n8n in the middle (the static data as n8n
 * saved it, reloaded). Every window is emitted once and counts exactly the mentions the simulator
 * collected in it (its ground truth); a window the trigger started inside says "at least".
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentials, type EngineCredentials } from '../../support/engine';
import { BASIC } from '../../support/keys';
import type { SimClock } from '../../support/simClock';
import { useSimulator } from '../../support/simClock';
import { admin, createProject, type Loose, type Sim } from '../../support/simulator';
import { MINUTE } from '../../support/time';
import {
	activateStreamTrigger,
	type ActiveStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { sleep, waitFor } from '../../support/wait';

let sim: Sim;
let clock: SimClock;
useSimulator(['--projects', '1', '--mentions', '10', '--heartbeat-ms', '200'], (s, c) => {
	sim = s;
	clock = c;
});

/** What the simulator collected for the project in [from, to). */
async function truth(projectId: number, from: string, to: string): Promise<number> {
	const q = new URLSearchParams({
		projectId: String(projectId),
		collectedFrom: from,
		collectedTo: to,
	});
	const r = await admin<{ mentions: Loose[] }>(sim, 'GET', `/mentions?${q.toString()}`);
	return r.mentions.filter((m) => m.collectedAt >= from && m.collectedAt < to).length;
}

/**
 * `count` simulated minutes in 10-second steps: the simulator collects each step and streams it, so
 * a mention reaches the node within seconds of its collection, as on SentiOne's live stream.
 */
async function liveMinutes(count: number): Promise<void> {
	for (let step = 0; step < count * 6; step++) {
		await clock.advance(MINUTE / 6);
		await sleep(25); // heartbeats (real time) tick the alerts
	}
}

/** A project collecting 3 mentions a minute, and a Stream Trigger digest of it every `every` minutes. */
async function liveDigest(name: string, every: number) {
	const projectId = await createProject(sim, name, 'acme');
	await admin(sim, 'POST', '/live', { ratePerMinute: 3 });
	const params = streamParameters(
		{
			project: projectParam(projectId),
			event: 'digest',
			digestWindow: 'minutes',
			digestEvery: every,
		},
		{ stallTimeout: 600 },
	);
	return { projectId, params, creds: credentials(sim, BASIC) };
}

/**
 * n8n stops (the static data it wrote last comes back; the digests the stopped trigger emitted go
 * to `all`), `downMinutes` pass, n8n starts again. The reconnect's backfill and gap fill arrive
 * within real time, as the node's clock runs on (the node counts a backfill as arrived
 * RECONNECT.backfillSettleMs after the connection).
 */
async function restartStream(
	trigger: ActiveStreamTrigger,
	all: IDataObject[],
	live: { params: INodeParameters; creds: EngineCredentials },
	downMinutes: number,
): Promise<ActiveStreamTrigger> {
	const saved = trigger.savedStaticData();
	all.push(...trigger.items().filter((i) => i.kind === 'digest'));
	await trigger.close();
	await clock.advance(downMinutes * MINUTE);
	const again = await activateStreamTrigger(live.params, live.creds, saved);
	await sleep(500);
	return again;
}

/** Each digest emitted: checked against the ground truth of its window; the windows, in order. */
async function checkDigests(projectId: number, digests: IDataObject[]): Promise<string[]> {
	const windows = digests.map((d) => String(d.windowStart));
	expect(new Set(windows).size).toBe(windows.length); // each window once
	for (const [i, digest] of digests.entries()) {
		const collected = await truth(projectId, String(digest.windowStart), String(digest.windowEnd));
		// the window the trigger started in may not have been seen whole: never more than collected;
		// every later one is whole and exact
		if (i > 0) expect(digest.complete).toBe(true);
		if (digest.complete)
			expect([digest.windowStart, digest.total]).toEqual([digest.windowStart, collected]);
		else expect(digest.total as number).toBeLessThanOrEqual(collected);
	}
	return windows;
}

test('SentiOne Trigger, hourly digest over 5 simulated hours with a restart: each window once, exact', async () => {
	const projectId = await createProject(sim, 'Digest', 'acme');
	await admin(sim, 'POST', '/live', {
		ratePerMinute: 1,
		daily: 'office-hours',
		variation: 'poisson',
	});
	const params = pollParameters(projectId, {
		event: 'digest',
		digestWindow: 'hours',
		digestEvery: 1,
		options: { requestsPerHour: 12 },
	});
	let harness = new PollHarness(params, credentials(sim, BASIC));
	await harness.poll(); // activation: starts from now
	const digests: IDataObject[] = [];
	for (let check = 1; check <= 60; check++) {
		await clock.advance(5 * MINUTE);
		if (check === 30) harness = harness.restart(); // n8n restarts: the saved static data reloaded
		const outcome = await harness.poll();
		expect(outcome.error).toBeUndefined();
		digests.push(...(outcome.items ?? []).filter((i) => i.kind === 'digest'));
	}
	const windows = await checkDigests(projectId, digests);
	expect(windows.length).toBeGreaterThanOrEqual(4);
	expect(digests.slice(1).reduce((n, d) => n + (d.total as number), 0)).toBeGreaterThan(30);
});

test('SentiOne Stream Trigger, 5-minute digest over 30 simulated minutes with a restart: each window once, exact', async () => {
	const live = await liveDigest('Live digest', 5);
	let trigger = await activateStreamTrigger(live.params, live.creds);
	const digests = () => trigger.items().filter((i) => i.kind === 'digest');
	const all: IDataObject[] = [];
	await liveMinutes(14);
	// n8n restarts: what it saved with the last emit comes back; two minutes pass while it is down
	trigger = await restartStream(trigger, all, live, 2);
	await liveMinutes(16);
	await waitFor(() => digests().length > 0, {
		timeoutMs: 5000,
		what: 'a digest after the restart',
	});
	all.push(...digests());
	await trigger.close();
	expect(trigger.errors).toEqual([]);
	const windows = await checkDigests(live.projectId, all);
	expect(windows.length).toBeGreaterThanOrEqual(5);
});

test('SentiOne Stream Trigger, 20-minute digest restarted before its first digest, across its boundary and mid-window (n8n writes static data only at activation and with an execution): each window once, exact', async () => {
	const live = await liveDigest('Live digest, early restarts', 20);
	const { projectId } = live;
	const EVERY = 20 * MINUTE;
	// activated 8 minutes before a window's end
	const boundary = Math.ceil((clock.now + 9 * MINUTE) / EVERY) * EVERY;
	await clock.advance(boundary - 8 * MINUTE - clock.now);
	const activatedAt = clock.now;
	let trigger = await activateStreamTrigger(live.params, live.creds);
	const all: IDataObject[] = [];
	const digests = () => trigger.items().filter((i) => i.kind === 'digest');
	await liveMinutes(4);
	// down across the first window's end, before its digest: only the activation's write is on disk
	trigger = await restartStream(trigger, all, live, 6);
	await liveMinutes(10);
	await waitFor(() => digests().length > 0, { timeoutMs: 5000, what: 'the first digest' });
	// down in the middle of the second window
	trigger = await restartStream(trigger, all, live, 3);
	await liveMinutes(30);
	await waitFor(() => digests().length > 0, { timeoutMs: 5000, what: 'the second digest' });
	all.push(...digests());
	await trigger.close();
	expect(trigger.errors).toEqual([]);
	await checkDigests(projectId, all);
	// every window from the first on, none skipped (a restart that forgot its window skips it)
	const spans = all.map((d) => [
		Date.parse(String(d.windowStart)),
		Date.parse(String(d.windowEnd)),
	]);
	expect(spans[0][1]).toBe(boundary);
	expect(spans.length).toBeGreaterThanOrEqual(2);
	for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBe(spans[i - 1][1]);
	expect(all.slice(1).map((d) => d.complete)).toEqual(all.slice(1).map(() => true));
	// the first window began before the trigger: at least what was collected from the activation on
	const since = await truth(
		projectId,
		new Date(activatedAt).toISOString(),
		new Date(boundary).toISOString(),
	);
	expect(all[0].total as number).toBeGreaterThanOrEqual(since);
});
