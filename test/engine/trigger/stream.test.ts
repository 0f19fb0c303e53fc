/**
 * SentiOne Stream Trigger against the simulator, through n8n-core's real TriggerContext and
 * manual execution path. Each scenario compares the mentions emitted with what the simulator
 * collected (0 lost, 0 duplicated), counts the connections and backfills from the simulator's
 * request log, and checks that closing leaves no stream open on the simulator and no timer or
 * socket in this process. What a scenario measured is written with writePart (part
 * `trigger-stream`, rendered into docs/triggers.md by `npm run docs`).
 */
import type { IDataObject } from 'n8n-workflow';

import { setClock } from '../../../nodes/SentiOne/shared/clock';
import type { ActiveStreamTrigger } from '../../support/triggers';
import {
	activateStreamTrigger,
	activeResources,
	runStreamTriggerManually,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { seededRandom as random } from '../../support/random';
import { waitFor, sleep } from '../../support/wait';
import {
	type Sim,
	admin,
	clockNow,
	emptyProject,
	groundTruth,
	addMentions,
	searchRequests,
	startLiveSim,
	stats,
} from '../../support/simulator';
import { idsOf, tally } from '../../support/tally';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';

jest.setTimeout(40_000);

let sim: Sim;
const figures: Record<string, unknown> = {};
/** one row per scenario, pushed once its assertions passed (docs/triggers.md) */
const rows: ResultRow[] = [];
const STREAM = 'SentiOne Stream Trigger';
/** every trigger a test activated, closed after each test even when it failed */
const opened: ActiveStreamTrigger[] = [];

async function activate(
	...args: Parameters<typeof activateStreamTrigger>
): Promise<ActiveStreamTrigger> {
	const trigger = await activateStreamTrigger(...args);
	opened.push(trigger);
	return trigger;
}

beforeAll(async () => {
	sim = await startLiveSim();
});

afterAll(async () => {
	// a run filtered to other tests measured nothing: keep the figures of the last run that did
	if (rows.length > 0)
		writePart({
			part: 'trigger-stream',
			title: 'SentiOne Stream Trigger against the simulator',
			command: 'npx jest test/engine/trigger/stream.test.ts',
			rows,
			figures,
		});
	await sim.stop();
});

afterEach(async () => {
	for (const trigger of opened.splice(0)) await trigger.close();
});

beforeEach(async () => {
	await admin(sim, 'DELETE', '/faults');
	await admin(sim, 'POST', '/live', { ratePerMinute: 0, engagementPerMinute: 0 });
	await admin(sim, 'POST', '/limits', {
		mode: 'spec',
		hourly: { live: 1000, search: 100_000, engagement: 3600 },
		concurrency: { live: 2, engagement: 1 },
		monthlyCap: { basic: 10_000_000, enterprise: 100_000_000 },
		resetWindows: true,
	});
	await admin(sim, 'DELETE', '/requests');
	await sleep(50);
});

/** Stream connections the simulator accepted (status 200), in order. */
async function connections(group = 'live'): Promise<Array<{ query: Record<string, string> }>> {
	const r = await admin<{
		requests: Array<{ group: string; status: number; query: Record<string, string> }>;
	}>(sim, 'GET', '/requests');
	return r.requests.filter((e) => e.group === group && e.status === 200);
}

async function openStreams(): Promise<number> {
	const s = await stats(sim);
	return Object.values(s.openStreams as Record<string, number>).reduce((a, b) => a + b, 0);
}

/** Closes the triggers; then nothing may be left: no stream on the simulator, no timer or socket here. */
async function closeCleanly(
	triggers: ActiveStreamTrigger | ActiveStreamTrigger[],
	baseline: Record<string, number>,
): Promise<number> {
	const started = Date.now();
	for (const trigger of Array.isArray(triggers) ? triggers : [triggers]) await trigger.close();
	const closeMs = Date.now() - started;
	await waitFor(async () => (await openStreams()) <= streamsBefore, 3000);
	await waitFor(() => {
		const now = activeResources();
		return (
			(now.Timeout ?? 0) <= (baseline.Timeout ?? 0) &&
			(now.TCPSocketWrap ?? 0) <= (baseline.TCPSocketWrap ?? 0)
		);
	}, 3000);
	return closeMs;
}

/** Streams the simulator had open before the test's trigger started (see the in-flight close test). */
let streamsBefore = 0;

async function settle(): Promise<Record<string, number>> {
	await sleep(100);
	streamsBefore = await openStreams();
	return activeResources();
}

const mentionParams = (projectId: number, options: IDataObject = {}) =>
	streamParameters({ project: projectParam(projectId) }, options);

test('passes each mention on once as it arrives; closing leaves nothing behind', async () => {
	const projectId = await emptyProject(sim);
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId), credentials(sim, BASIC));
	for (let i = 0; i < 5; i++) {
		await addMentions(sim, projectId, 3);
		await sleep(100);
	}
	const truth = await groundTruth(sim, projectId);
	await trigger.until(() => trigger.items().length >= truth.length);
	await sleep(300);
	const t = tally(idsOf(trigger.items()), truth);
	expect(t).toMatchObject({ expected: 15, lost: [], duplicated: [], unexpected: [] });
	expect(trigger.emitted.every((batch) => batch.length === 1)).toBe(true);
	expect(await connections()).toHaveLength(1);
	expect(trigger.errors).toEqual([]);
	expect(trigger.failures).toEqual([]);
	const closeMs = await closeCleanly(trigger, baseline);
	figures.plain = { mentions: t.expected, lost: 0, duplicated: 0, closeMs };
	rows.push({
		fault: 'plain',
		through: STREAM,
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `1 connection, one execution per mention; closed in ${closeMs} ms, nothing left`,
	});
});

test('a stream dropped at random byte offsets reconnects with a backfill: 0 lost, 0 duplicated', async () => {
	const projectId = await emptyProject(sim);
	const next = random(20261122);
	const drops = 4;
	const offsets = Array.from({ length: drops }, () => 150 + Math.floor(next() * 6000));
	await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: offsets[0], dropTimes: 1 } });
	// on the simulator's clock: the ground truth is what it collected from then on
	const since = new Date((await clockNow(sim)) - 1000).toISOString();
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId), credentials(sim, BASIC));
	await admin(sim, 'POST', '/live', { ratePerMinute: 300 });
	for (let k = 1; k < drops; k++) {
		// connection k is open with its drop decided: arm the drop of connection k + 1
		await waitFor(async () => (await connections()).length >= k, 10_000);
		await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: offsets[k], dropTimes: 1 } });
	}
	// quick drops in a row back off: 0.5 s, 1 s, 2 s, 4 s
	await waitFor(async () => (await connections()).length >= drops + 1, 25_000);
	await sleep(1000);
	await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
	await sleep(300);
	const truth = await groundTruth(sim, projectId, since);
	// a loaded machine delays the backoffs and the backfills by seconds: what has not arrived after a
	// minute is lost
	await trigger
		.until(() => new Set(idsOf(trigger.items())).size >= truth.length, 60_000)
		.catch(() => undefined);
	const t = tally(idsOf(trigger.items()), truth);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	expect(t.unexpected).toEqual([]);
	expect(t.expected).toBeGreaterThan(20);
	const opened = await connections();
	expect(opened).toHaveLength(drops + 1);
	// each reconnect asks a backfill back to where everything had been received: a connection
	// dropped before its own backfill could have arrived (RECONNECT.backfillSettleMs) does not move
	// that point, so quick drops in a row ask for more minutes
	const asked = opened.slice(1).map((c) => Number(c.query.backfillMinutes));
	expect(asked.every((m) => m >= 1 && m <= 5)).toBe(true);
	expect(asked).toEqual([...asked].sort((a, b) => a - b));
	expect(trigger.errors).toEqual([]);
	await closeCleanly(trigger, baseline);
	figures.drops = {
		offsets,
		mentions: t.expected,
		reconnects: opened.length - 1,
		backfillMinutes: asked,
		lost: 0,
		duplicated: 0,
	};
	rows.push({
		fault: `dropped at ${drops} seeded byte offsets (${offsets.join(', ')}) under a steady flow of mentions`,
		through: STREAM,
		cases: drops,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `${opened.length - 1} reconnects, backfillMinutes ${asked.join(', ')}`,
	});
});

test('a stalled stream (no bytes, not even heartbeats) is replaced after the stall timeout and backfilled', async () => {
	const projectId = await emptyProject(sim);
	await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 3 } });
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId), credentials(sim, BASIC));
	await waitFor(async () => (await connections()).length === 1);
	await admin(sim, 'DELETE', '/faults'); // the replacement connection is healthy
	await addMentions(sim, projectId, 2);
	await sleep(50);
	await addMentions(sim, projectId, 4); // the third event stalls the connection: these never arrive on it
	const stalledAt = Date.now();
	await waitFor(async () => (await connections()).length === 2, 5000);
	const detectedMs = Date.now() - stalledAt;
	const truth = await groundTruth(sim, projectId);
	await trigger.until(() => trigger.items().length >= truth.length);
	await sleep(300);
	const t = tally(idsOf(trigger.items()), truth);
	expect(t).toMatchObject({ expected: 6, lost: [], duplicated: [], unexpected: [] });
	expect((await connections())[1].query.backfillMinutes).toBe('1');
	expect(detectedMs).toBeGreaterThanOrEqual(700);
	await closeCleanly(trigger, baseline);
	figures.stall = {
		mentions: t.expected,
		detectedAfterMs: detectedMs,
		reconnects: 1,
		lost: 0,
		duplicated: 0,
	};
	rows.push({
		fault: `stalled: no bytes at all, not even heartbeats (Stall Timeout ${String((mentionParams(projectId).options as IDataObject).stallTimeout)} s)`,
		through: STREAM,
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `replaced ${(detectedMs / 1000).toFixed(1)} s after the stall (the Stall Timeout, then the reconnect backoff), backfillMinutes 1`,
	});
});

test('malformed mention events are recovered by a search of the moments they arrived in; unknown events are ignored', async () => {
	const projectId = await emptyProject(sim);
	await admin(sim, 'POST', '/faults', { stream: { malformedEvery: 3, unknownEventEvery: 2 } });
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId), credentials(sim, BASIC));
	for (let i = 0; i < 4; i++) {
		await addMentions(sim, projectId, 3);
		await sleep(100);
	}
	const truth = await groundTruth(sim, projectId);
	await trigger.until(() => trigger.items().length >= truth.length, 15_000);
	await sleep(300);
	const t = tally(idsOf(trigger.items()), truth);
	expect(t).toMatchObject({ expected: 12, lost: [], duplicated: [], unexpected: [] });
	const searches = await searchRequests(sim);
	expect(searches.length).toBe(1);
	expect(searches[0].body.filters.collectedAt).toBeDefined();
	expect(await connections()).toHaveLength(1);
	expect(trigger.failures).toEqual([]);
	await closeCleanly(trigger, baseline);
	figures.malformed = {
		mentions: t.expected,
		malformed: 4,
		searchRequests: searches.length,
		lost: 0,
		duplicated: 0,
	};
	rows.push({
		fault: 'every 3rd mention event malformed, an unknown event every 2nd',
		through: STREAM,
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `1 connection; ${searches.length} search request recovered the malformed ones; unknown events ignored`,
	});
});

test('legacy heartbeats keep the connection judged alive (JSON lines too)', async () => {
	const projectId = await emptyProject(sim);
	await admin(sim, 'POST', '/faults', { stream: { legacyHeartbeat: true } });
	const baseline = await settle();
	const sse = await activate(mentionParams(projectId), credentials(sim, BASIC));
	const lines = await activate(
		mentionParams(projectId, { streamFormat: 'jsonLines' }),
		credentials(sim, ENTERPRISE),
	);
	await sleep(3000); // three stall timeouts without a mention: heartbeats only
	expect(await connections()).toHaveLength(2);
	const sent = idsOf(await addMentions(sim, projectId, 2));
	await sse.until(() => sse.items().length === 2);
	await lines.until(() => lines.items().length === 2);
	expect(idsOf(sse.items()).sort()).toEqual(sent.sort());
	expect(idsOf(lines.items()).sort()).toEqual(sent.sort());
	const opened = await connections();
	expect(opened).toHaveLength(2);
	await closeCleanly([sse, lines], baseline);
	rows.push({
		fault: 'legacy heartbeats (bare timestamps) only, for three Stall Timeouts, SSE and JSON lines',
		through: STREAM,
		cases: 2,
		items: sent.length,
		lost: 0,
		duplicated: 0,
		outcome: `${opened.length} connections for the 2 triggers: no reconnect, the heartbeats keep them alive`,
	});
});

test('401 (and other refusals) at activation fail activation with a clear message and leave nothing open', async () => {
	const projectId = await emptyProject(sim);
	const baseline = await settle();
	await expect(
		activateStreamTrigger(mentionParams(projectId), credentials(sim, NOACCESS)),
	).rejects.toThrow(
		/needs API access \(SentiOne's Basic tier\), and this API key has none \(401\)/,
	);
	await expect(
		activateStreamTrigger(streamParameters({ event: 'engagementUpdate' }), credentials(sim, BASIC)),
	).rejects.toThrow(/Enterprise tier/);
	await expect(
		activateStreamTrigger(mentionParams(987654), credentials(sim, BASIC)),
	).rejects.toThrow(/404/);
	expect(await openStreams()).toBe(streamsBefore);
	await waitFor(() => (activeResources().Timeout ?? 0) <= (baseline.Timeout ?? 0), 3000);
	rows.push({
		fault: '401, a tier refused, 404 at activation',
		through: STREAM,
		cases: 3,
		outcome: "activation fails with the API's words; nothing left open",
	});
});

test('a spent stream budget at activation activates all the same and says when it connects; closing leaves nothing open', async () => {
	const projectId = await emptyProject(sim);
	const baseline = await settle();
	await admin(sim, 'POST', '/limits', { hourly: { live: 0 } });
	try {
		const trigger = await activateStreamTrigger(mentionParams(projectId), credentials(sim, BASIC));
		expect(trigger.errors).toEqual([]);
		expect(trigger.failures.map((e) => e.message)).toEqual([
			expect.stringMatching(
				/^SentiOne's live stream budget is used up \(429\): .* It resets at .* The trigger is active and connects at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC \((in \d+ min|now)\), when the budget resets\.$/,
			),
		]);
		expect((trigger.failures[0] as Error & { description?: string }).description).toMatch(
			/fetched then with a search/,
		);
		expect(await openStreams()).toBe(streamsBefore);
		await trigger.close();
	} finally {
		await admin(sim, 'POST', '/limits', { hourly: { live: 5 } });
	}
	await waitFor(() => (activeResources().Timeout ?? 0) <= (baseline.Timeout ?? 0), 3000);
	rows.push({
		fault: 'the stream budget spent at activation',
		through: STREAM,
		cases: 1,
		outcome: 'activates; one failed execution says when it connects; nothing left open',
	});
});

test('a transient failure at activation still activates; a refusal later is reported through emitError and stops the trigger', async () => {
	const projectId = await emptyProject(sim);
	await admin(sim, 'POST', '/faults', {
		script: [
			{
				match: { group: 'live' },
				times: 1,
				respond: { status: 503, kind: 'json', body: { message: 'Service unavailable.' } },
			},
		],
		stream: { dropAfterBytes: 1500, dropTimes: 1 }, // the connection that follows breaks after a few heartbeats
	});
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId), credentials(sim, BASIC));
	await waitFor(async () => (await connections()).length === 1, 5000); // retried after the backoff
	expect(trigger.errors).toEqual([]);
	// meanwhile the key is revoked: the reconnect after the break is refused
	await admin(sim, 'POST', '/faults', {
		script: [
			{
				match: { group: 'live' },
				times: 5,
				respond: { status: 401, kind: 'json', body: { message: 'API key is not recognised.' } },
			},
		],
	});
	await trigger.until(() => trigger.errors.length > 0, 15_000);
	expect(trigger.errors).toHaveLength(1);
	expect(trigger.errors[0].message).toMatch(/401.*not recognise/);
	await closeCleanly(trigger, baseline);
	rows.push({
		fault: '503 at activation, then the key refused on a reconnect',
		through: STREAM,
		cases: 1,
		outcome: 'activates and connects after the backoff; the 401 goes to emitError once',
	});
});

test('engagement updates: mention id, metrics and time, each once across a reconnect backfill', async () => {
	const [mention] = await addMentions(sim, 1001, 1);
	await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 5 } });
	const baseline = await settle();
	const trigger = await activate(
		streamParameters({ event: 'engagementUpdate' }),
		credentials(sim, ENTERPRISE),
	);
	await waitFor(async () => (await connections('engagement')).length === 1);
	await admin(sim, 'DELETE', '/faults');
	const first = await admin<{ updates: IDataObject[] }>(sim, 'POST', '/engagement', {
		mentionId: mention.id,
		count: 5,
	});
	await trigger.until(() => trigger.items().length >= 5);
	// the connection stalled after 5 events; the replacement backfills the same 5: dropped as repeats
	await waitFor(async () => (await connections('engagement')).length === 2, 5000);
	const second = await admin<{ updates: IDataObject[] }>(sim, 'POST', '/engagement', {
		mentionId: mention.id,
		count: 3,
	});
	await trigger.until(() => trigger.items().length >= 8);
	await sleep(500);
	const items = trigger.items();
	expect(items).toHaveLength(8);
	expect(items[0]).toEqual({
		mentionId: mention.id,
		engagementMetrics: expect.any(Object),
		updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
	});
	const keys = items.map(
		(u) => `${String(u.mentionId)}:${String(u.updatedAt)}:${JSON.stringify(u.engagementMetrics)}`,
	);
	expect(new Set(keys).size).toBe(8);
	expect([...first.updates, ...second.updates]).toHaveLength(8);
	expect((await connections('engagement'))[1].query.backfillMinutes).toBe('1');
	await closeCleanly(trigger, baseline);
	rows.push({
		fault: 'Engagement Update: stalled after 5 updates, the replacement backfills the same 5',
		through: STREAM,
		cases: 1,
		items: items.length,
		lost: 0,
		duplicated: 0,
		outcome: '1 reconnect, backfillMinutes 1; the repeats dropped',
	});
});

test('"Listen for test event" passes on the newest matching mention found by one search (no live connection spent), or the next to arrive on the stream, and closes', async () => {
	const projectId = await emptyProject(sim);
	const [recent] = await addMentions(sim, projectId, 1, {
		collectedAt: new Date(Date.now() - 60_000).toISOString(),
	});
	const baseline = await settle();
	const fromSearch = await runStreamTriggerManually(
		mentionParams(projectId),
		credentials(sim, BASIC),
	);
	expect(fromSearch.error).toBeUndefined();
	expect(idsOf(fromSearch.items ?? [])).toEqual([recent.id]);
	expect(await connections()).toEqual([]);
	await waitFor(async () => (await openStreams()) <= streamsBefore, 3000);

	// with anonymization asked for, the sample comes from the stream (a search is never anonymized)
	const anonymized = await runStreamTriggerManually(
		mentionParams(projectId, { anonymization: 'author' }),
		credentials(sim, BASIC),
	);
	expect(anonymized.error).toBeUndefined();
	expect(idsOf(anonymized.items ?? [])).toEqual([recent.id]);
	expect((await connections())[0].query.backfillMinutes).toBe('5');
	await waitFor(async () => (await openStreams()) <= streamsBefore, 3000);

	const other = await emptyProject(sim, 'quiet project');
	const waiting = runStreamTriggerManually(
		mentionParams(other, { simplify: true } as IDataObject),
		credentials(sim, BASIC),
	);
	await sleep(800);
	const [arrived] = await addMentions(sim, other, 1);
	const next = await waiting;
	expect(next.error).toBeUndefined();
	expect(idsOf(next.items ?? [])).toEqual([arrived.id]);
	await waitFor(async () => (await openStreams()) <= streamsBefore, 3000);
	await waitFor(() => (activeResources().Timeout ?? 0) <= (baseline.Timeout ?? 0), 3000);
	rows.push({
		fault: '"Listen for test event"',
		through: `${STREAM} (manual)`,
		cases: 3,
		outcome:
			'the newest matching mention by one search (no connection); from the stream with a 5-minute backfill when anonymization is asked for; else the next live mention; closed afterwards',
	});
});

/** Jumps both clocks (the simulator's and the node's) forward while the stream is stalled. */
async function outage(projectId: number, minutes: number, options: IDataObject) {
	// the node's clock follows the simulator's (an earlier test may have moved it)
	const health = await admin<{ now: string }>(sim, 'GET', '/health');
	let offset = Date.parse(health.now) - Date.now();
	const restore = setClock({ now: () => Date.now() + offset });
	await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 2 } });
	const since = new Date(Date.now() + offset - 1000).toISOString();
	const baseline = await settle();
	const trigger = await activate(mentionParams(projectId, options), credentials(sim, BASIC));
	await waitFor(async () => (await connections()).length === 1);
	await admin(sim, 'DELETE', '/faults');
	await addMentions(sim, projectId, 2); // arrive, then the connection goes silent
	await trigger.until(() => trigger.items().length === 2);
	// while it is silent, `minutes` pass: SentiOne keeps collecting (12 a minute)
	await admin(sim, 'POST', '/live', { ratePerMinute: 12 });
	const { now } = await admin<{ now: string }>(sim, 'POST', '/clock', {
		advanceMs: minutes * 60_000,
	});
	offset = Date.parse(now) - Date.now();
	await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
	return { trigger, since, baseline, restore };
}

test('an outage longer than the 5-minute backfill is filled with a collected-at search', async () => {
	const projectId = await emptyProject(sim);
	const { trigger, since, baseline, restore } = await outage(projectId, 10, {});
	try {
		await waitFor(async () => (await connections()).length === 2, 5000);
		const truth = await groundTruth(sim, projectId, since);
		await trigger
			.until(() => new Set(idsOf(trigger.items())).size >= truth.length, 10_000)
			.catch(() => undefined);
		const t = tally(idsOf(trigger.items()), truth);
		expect(t.expected).toBeGreaterThan(100);
		expect(t.lost).toEqual([]);
		expect(t.duplicated).toEqual([]);
		expect((await connections())[1].query.backfillMinutes).toBe('5');
		const searches = await searchRequests(sim);
		expect(searches.length).toBeGreaterThanOrEqual(1);
		expect(searches.length).toBeLessThanOrEqual(6);
		expect(trigger.failures).toEqual([]);
		await closeCleanly(trigger, baseline);
		figures.longOutage = {
			minutes: 10,
			mentions: t.expected,
			gapSearchRequests: searches.length,
			lost: 0,
			duplicated: 0,
		};
		rows.push({
			fault: 'a 10-minute outage (both clocks moved), mentions collected meanwhile',
			through: STREAM,
			cases: 1,
			items: t.expected,
			lost: t.lost.length,
			duplicated: t.duplicated.length,
			outcome: `reconnected with backfillMinutes 5, the rest filled by ${searches.length} gap search request(s)`,
		});
	} finally {
		restore();
	}
});

test('an outage the search cap cannot fill is reported as a failed execution, the stream goes on', async () => {
	const projectId = await emptyProject(sim);
	const { trigger, since, baseline, restore } = await outage(projectId, 10, { maxGapRequests: 1 });
	try {
		await waitFor(async () => (await connections()).length === 2, 5000);
		await trigger.until(() => trigger.failures.length > 0, 10_000);
		expect(trigger.failures[0].message).toMatch(/Only part of the mentions collected between/);
		expect(trigger.errors).toEqual([]);
		const truth = await groundTruth(sim, projectId, since);
		const t = tally(idsOf(trigger.items()), truth);
		expect(t.duplicated).toEqual([]);
		expect(t.lost.length).toBeGreaterThan(0);
		expect(await searchRequests(sim)).toHaveLength(1);
		const [late] = await addMentions(sim, projectId, 1);
		await trigger.until(() => idsOf(trigger.items()).includes(late.id));
		await closeCleanly(trigger, baseline);
		figures.unfilledOutage = {
			mentions: t.expected,
			lost: t.lost.length,
			duplicated: 0,
			reported: true,
		};
		rows.push({
			fault: 'the same outage, Max Search Requests per Gap 1',
			through: STREAM,
			cases: 1,
			items: t.expected,
			lost: t.lost.length,
			duplicated: t.duplicated.length,
			outcome:
				'1 gap search request; what it could not fetch is reported by a failed execution naming the range; the stream goes on',
		});
	} finally {
		restore();
	}
});

test('closing while waiting for the stream budget, or while a reconnect is in flight, ends at once', async () => {
	const projectId = await emptyProject(sim);
	// (a) the budget is spent: after a drop the trigger waits for the hourly reset
	await admin(sim, 'POST', '/limits', { hourly: { live: 1 } });
	await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 300, dropTimes: 1 } });
	let baseline = await settle();
	const waiting = await activate(mentionParams(projectId), credentials(sim, BASIC));
	await waitFor(async () => (await openStreams()) === 0, 5000); // dropped, not reconnected
	await sleep(700);
	expect(await connections()).toHaveLength(1);
	const waitClose = await closeCleanly(waiting, baseline);
	expect(waitClose).toBeLessThan(500);
	expect(waiting.errors).toEqual([]);

	// (b) the reconnect request is on its way (slow server)
	await admin(sim, 'POST', '/limits', { hourly: { live: 1000 }, resetWindows: true });
	await admin(sim, 'DELETE', '/requests');
	await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 300, dropTimes: 1 } });
	baseline = await settle();
	// (another key: the simulator keeps the stream it opens after this client left, see the report)
	const connecting = await activate(mentionParams(projectId), credentials(sim, ENTERPRISE));
	await admin(sim, 'POST', '/faults', { latencyMs: 3000 });
	await waitFor(async () => {
		const r = await admin<{ requests: Array<{ group: string }> }>(sim, 'GET', '/requests');
		return r.requests.filter((e) => e.group === 'live').length >= 2;
	}, 5000);
	const inFlightClose = await closeCleanly(connecting, baseline);
	expect(inFlightClose).toBeLessThan(500);
	expect(connecting.errors).toEqual([]);
	figures.closeDuringReconnect = { budgetWaitCloseMs: waitClose, inFlightCloseMs: inFlightClose };
	rows.push({
		fault: 'closed while waiting for the stream budget / while a reconnect is in flight',
		through: STREAM,
		cases: 2,
		outcome: `close returned in ${waitClose} ms / ${inFlightClose} ms; no stream on the simulator, no socket or timer left`,
	});
});
