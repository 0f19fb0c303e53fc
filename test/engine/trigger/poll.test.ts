/**
 * SentiOne Trigger (polling) against the simulator, through n8n-core's real PollContext: every
 * scenario compares the mentions emitted with what the simulator collected (0 lost, 0 duplicated)
 * and counts the search requests each poll spent. What a scenario measured is written with
 * writePart (part `trigger-poll`, rendered into docs/triggers.md by `npm run docs`).
 */
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { PollHarness, pollParameters } from '../../support/triggers';
import { waitFor, sleep } from '../../support/wait';
import {
	type Sim,
	admin,
	emptyProject,
	groundTruth,
	addMentions,
	searchRequests,
	startLiveSim,
} from '../../support/simulator';
import { idsOf, tally } from '../../support/tally';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';

jest.setTimeout(30_000);

let sim: Sim;
/** measured figures, written at the end for docs/triggers.md */
const figures: Record<string, unknown> = {};
/** one row per scenario, pushed once its assertions passed */
const rows: ResultRow[] = [];

beforeAll(async () => {
	sim = await startLiveSim(['--index-lag-ms', '0']);
});

afterAll(async () => {
	// a run filtered to other tests measured nothing: keep the figures of the last run that did
	if (rows.length > 0)
		writePart({
			part: 'trigger-poll',
			title: 'SentiOne Trigger against the simulator',
			command: 'npx jest test/engine/trigger/poll.test.ts',
			rows,
			figures,
		});
	await sim.stop();
});

beforeEach(async () => {
	await admin(sim, 'DELETE', '/faults');
	await admin(sim, 'POST', '/limits', {
		mode: 'spec',
		hourly: { search: 100_000 },
		resetWindows: true,
	});
	await admin(sim, 'DELETE', '/requests');
});

/** Polls until one returns null (caught up); returns the requests each poll spent. */
async function drain(harness: PollHarness, maxPolls = 20): Promise<number[]> {
	const perPoll: number[] = [];
	for (let i = 0; i < maxPolls; i++) {
		const before = (await searchRequests(sim)).length;
		const outcome = await harness.poll('init');
		if (outcome.error) throw outcome.error;
		perPoll.push((await searchRequests(sim)).length - before);
		if (outcome.items === null) return perPoll;
	}
	throw new Error(`not caught up after ${maxPolls} polls`);
}

test('first activation starts from now; a test fetch returns the latest with one request and leaves the watermark alone', async () => {
	const projectId = await emptyProject(sim);
	await addMentions(sim, projectId, 30); // already there before activation: never emitted
	const harness = new PollHarness(pollParameters(projectId), credentials(sim));

	const activation = await harness.poll('activate');
	expect(activation).toEqual({ items: null, error: undefined });
	expect(await searchRequests(sim)).toHaveLength(1);
	const afterSeed = JSON.stringify(harness.staticData());

	await admin(sim, 'DELETE', '/requests');
	const sample = await harness.manual();
	expect(sample.error).toBeUndefined();
	expect(sample.items).toHaveLength(25);
	const requests = await searchRequests(sim);
	expect(requests).toHaveLength(1);
	expect(requests[0].body.sortType).toBe('CollectedAtDescending');
	expect(JSON.stringify(harness.staticData())).toBe(afterSeed);

	const fresh = idsOf(await addMentions(sim, projectId, 3));
	const next = await harness.poll();
	expect(idsOf(next.items ?? []).sort()).toEqual(fresh.sort());
	expect((await harness.poll()).items).toBeNull();
});

test('backfill on first activation passes on the last N hours, oldest first', async () => {
	const projectId = await emptyProject(sim);
	const now = Date.now();
	const old = await addMentions(sim, projectId, 2, {
		collectedAt: new Date(now - 5 * 3600_000).toISOString(),
	});
	const recent = await addMentions(sim, projectId, 3, {
		collectedAt: new Date(now - 30 * 60_000).toISOString(),
	});
	const harness = new PollHarness(
		pollParameters(projectId, { startFrom: 'backfill', backfillHours: 2 }),
		credentials(sim),
	);
	const first = await harness.poll('activate');
	expect(idsOf(first.items ?? []).sort()).toEqual(idsOf(recent).sort());
	expect(idsOf(first.items ?? [])).not.toContain(old[0].id);
});

test('equal timestamps at the watermark: a page boundary inside a group and more of the group arriving later', async () => {
	const projectId = await emptyProject(sim);
	const harness = new PollHarness(
		pollParameters(projectId, { options: { lateWindowMinutes: 0, maxRequestsPerPoll: 1 } }),
		credentials(sim),
	);
	await harness.poll('activate');
	const instant = new Date(Date.now() - 10_000).toISOString();
	await addMentions(sim, projectId, 30, { collectedAt: instant });

	const first = await harness.poll();
	expect(first.items).toHaveLength(25); // one page: the group is split
	await addMentions(sim, projectId, 7, { collectedAt: instant }); // same instant, arriving later
	const perPoll = await drain(harness);

	const t = tally(idsOf(harness.allItems()), await groundTruth(sim, projectId));
	expect(t.expected).toBe(37);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	expect(t.unexpected).toEqual([]);
	expect(Math.max(...perPoll)).toBeLessThanOrEqual(1);
	// every id of the group is remembered as a boundary id at the watermark
	const state = harness.staticData().sentiOneMentions as {
		watermark: number;
		seen: Array<[string, number]>;
	};
	expect(state.watermark).toBe(Date.parse(instant));
	expect(state.seen.filter(([, at]) => at === state.watermark)).toHaveLength(37);
	figures.equalTimestamps = {
		polls: perPoll.length + 1,
		mentions: t.expected,
		maxRequestsPerPoll: Math.max(...perPoll),
		lost: t.lost.length,
		duplicated: t.duplicated.length,
	};
	rows.push({
		fault:
			'equal timestamps at the watermark: one instant, a page boundary inside, more of it arriving later (Max Requests per Poll 1, Late Mention Window 0)',
		through: 'SentiOne Trigger',
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `${perPoll.length + 1} checks, at most ${Math.max(...perPoll)} request each`,
	});
});

test('mentions indexed late (they appear with an older collectedAt): the late window catches them, the id memory keeps them single', async () => {
	await admin(sim, 'POST', '/faults', { indexLagMs: 1500 });
	const projectId = await emptyProject(sim);
	const withWindow = new PollHarness(pollParameters(projectId), credentials(sim));
	const withoutWindow = new PollHarness(
		pollParameters(projectId, { options: { lateWindowMinutes: 0 } }),
		credentials(sim),
	);
	await withWindow.poll('activate');
	await withoutWindow.poll('activate');

	const start = Date.now();
	for (let round = 0; round < 6; round++) {
		await addMentions(sim, projectId, 4); // fresh: searchable 1.5 s after their collectedAt
		// collected a minute ago, searchable only now: behind any watermark already passed
		await addMentions(sim, projectId, 2, {
			collectedAt: new Date(Date.now() - 60_000).toISOString(),
		});
		await sleep(400);
		await withWindow.poll();
		await withoutWindow.poll();
	}
	await sleep(1600); // let the index catch up
	await drain(withWindow);
	await drain(withoutWindow);

	const truth = await groundTruth(sim, projectId);
	const t = tally(idsOf(withWindow.allItems()), truth);
	expect(t.expected).toBe(36);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	const blind = tally(idsOf(withoutWindow.allItems()), truth);
	expect(blind.duplicated).toEqual([]);
	expect(blind.lost.length).toBeGreaterThan(0); // what the window is for
	figures.lateMentions = {
		seconds: Math.round((Date.now() - start) / 1000),
		mentions: t.expected,
		withWindow: { lost: t.lost.length, duplicated: t.duplicated.length },
		withoutWindow: { lost: blind.lost.length, duplicated: blind.duplicated.length },
	};
	rows.push(
		{
			fault:
				'mentions searchable late (an index lag, and mentions back-dated by a minute), the default Late Mention Window',
			through: 'SentiOne Trigger',
			cases: 1,
			items: t.expected,
			lost: t.lost.length,
			duplicated: t.duplicated.length,
			outcome: 'caught by the late window, each passed on once',
		},
		{
			fault: 'the same, Late Mention Window 0',
			through: 'SentiOne Trigger',
			cases: 1,
			items: blind.expected,
			lost: blind.lost.length,
			duplicated: blind.duplicated.length,
			outcome: 'the back-dated mentions are missed: what the window is for',
		},
	);
});

test('restart between polls: static data reloaded from a JSON copy, mid-backlog, loses and repeats nothing', async () => {
	const projectId = await emptyProject(sim);
	let harness = new PollHarness(
		pollParameters(projectId, { options: { maxRequestsPerPoll: 1 } }),
		credentials(sim),
	);
	await harness.poll('activate');
	const emitted: string[] = [];
	const base = Date.now() - 120_000;
	for (let i = 0; i < 60; i++) {
		await addMentions(sim, projectId, 1, { collectedAt: new Date(base + i * 1000).toISOString() });
	}
	const first = await harness.poll();
	emitted.push(...idsOf(first.items ?? []));
	expect(first.items).toHaveLength(25);

	harness = harness.restart(); // n8n restarted: the Workflow is rebuilt from the saved static data
	await addMentions(sim, projectId, 5);
	const second = await harness.poll('init');
	emitted.push(...idsOf(second.items ?? []));
	harness = harness.restart();
	await drain(harness);
	emitted.push(...idsOf(harness.allItems()));

	const t = tally(emitted, await groundTruth(sim, projectId));
	expect(t.expected).toBe(65);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	figures.restart = { mentions: t.expected, lost: t.lost.length, duplicated: t.duplicated.length };
	rows.push({
		fault:
			'n8n restarted between checks, twice, mid-backlog (static data reloaded from a JSON copy; Max Requests per Poll 1)',
		through: 'SentiOne Trigger',
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: 'the backlog continues where it stopped',
	});
});

test('a backlog bigger than one poll continues over several polls within the request cap, oldest first', async () => {
	const projectId = await emptyProject(sim);
	const harness = new PollHarness(pollParameters(projectId), credentials(sim)); // default cap: 2
	await harness.poll('activate');
	const base = Date.now() - 600_000;
	for (let i = 0; i < 13; i++) {
		// 130 mentions in 13 batches at distinct instants
		await addMentions(sim, projectId, 10, {
			collectedAt: new Date(base + i * 10_000).toISOString(),
		});
	}
	const perPoll = await drain(harness);
	const items = harness.allItems();
	const t = tally(idsOf(items), await groundTruth(sim, projectId));
	expect(t.expected).toBe(130);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	expect(harness.emitted.map((batch) => batch.length)).toEqual([50, 50, 30]);
	expect(perPoll).toEqual([2, 2, 2, 1]); // the last poll finds nothing new with one request
	const times = items.map((m) => Date.parse(String(m.collectedAt)));
	expect(times).toEqual([...times].sort((a, b) => a - b));
	figures.backlog = {
		mentions: t.expected,
		requestsPerPoll: perPoll,
		emittedPerPoll: harness.emitted.map((b) => b.length),
	};
	rows.push({
		fault: 'a backlog bigger than one check, the default Max Requests per Poll',
		through: 'SentiOne Trigger',
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `requests per check: ${perPoll.join(', ')}; passed on per check: ${harness.emitted.map((b) => b.length).join(', ')}; oldest first`,
	});
});

test('a 429 mid-poll: what was fetched is passed on, the watermark stays on it, the error says when the budget resets, the rest follows after the reset', async () => {
	const projectId = await emptyProject(sim);
	const harness = new PollHarness(
		pollParameters(projectId, { options: { maxRequestsPerPoll: 3 } }),
		credentials(sim),
	);
	await harness.poll('activate');
	const base = Date.now() - 300_000;
	for (let i = 0; i < 7; i++) {
		await addMentions(sim, projectId, 10, { collectedAt: new Date(base + i * 1000).toISOString() });
	}
	// Another workflow spends the budget while this poll pages: the second page gets a real 429.
	await admin(sim, 'POST', '/faults', { latencyMs: 400 });
	await admin(sim, 'DELETE', '/requests');
	const polling = harness.poll();
	// the first page is answered; the second request is on its way (the check comes after the latency)
	await waitFor(async () => (await searchRequests(sim)).some((r) => r.status === 200), 5000);
	await admin(sim, 'POST', '/faults', { force429: { group: 'search', times: 1 } });
	const midPoll = await polling;
	await admin(sim, 'POST', '/faults', { latencyMs: 0 });
	const statuses = (await searchRequests(sim)).map((r) => r.status);
	expect(statuses).toEqual([200, 429]);
	expect(midPoll.error).toBeUndefined();
	expect(midPoll.items).toHaveLength(25);

	// Next poll: the budget is known to be spent: one clear error, no request, nothing moves.
	const stateBefore = JSON.stringify(harness.staticData());
	const reported = await harness.poll();
	expect(reported.items).toBeNull();
	expect(reported.error?.message).toMatch(/search budget is used up \(429\).*resets at \d{4}-/);
	expect(reported.error?.description).toMatch(/watermark was kept/);
	expect((reported.error as { httpCode?: string }).httpCode).toBe('429');
	expect(await searchRequests(sim)).toHaveLength(2);
	const quiet = await harness.poll(); // reported once per window
	expect(quiet).toEqual({ items: null, error: undefined });
	const watermark = (s: string) =>
		(JSON.parse(s) as { sentiOneMentions: { watermark: number } }).sentiOneMentions.watermark;
	expect(watermark(JSON.stringify(harness.staticData()))).toBe(watermark(stateBefore));

	// An hour later (both clocks): the rest arrives.
	await admin(sim, 'POST', '/clock', { advanceMs: 3_600_000 });
	const restore = setClock({ now: () => Date.now() + 3_600_000 });
	try {
		await drain(harness);
	} finally {
		restore();
	}
	const t = tally(idsOf(harness.allItems()), await groundTruth(sim, projectId));
	expect(t.expected).toBe(70);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	figures.rateLimited = {
		mentions: t.expected,
		statuses,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
	};
	rows.push({
		fault: 'a 429 on the second page of a check, the rest after the reset',
		through: 'SentiOne Trigger',
		cases: 1,
		items: t.expected,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		outcome: `answers ${statuses.join(', ')}: the first page passed on; the next check reports once, without a request; the rest after the reset`,
	});
});

test('a 429 before anything was fetched keeps the state and names the reset', async () => {
	// earlier tests moved the simulator's clock ahead; a reset more than an hour ahead of the node's
	// clock would (rightly) count as implausible, so both clocks agree again here
	await admin(sim, 'POST', '/clock', { now: new Date().toISOString() });
	const projectId = await emptyProject(sim);
	const harness = new PollHarness(pollParameters(projectId), credentials(sim));
	await harness.poll('activate');
	await addMentions(sim, projectId, 3);
	const before = JSON.stringify(harness.staticData());
	await admin(sim, 'POST', '/faults', { force429: { group: 'search', times: 1 } });
	const outcome = await harness.poll();
	expect(outcome.items).toBeNull();
	expect(outcome.error?.message).toMatch(/resets at/);
	const after = harness.staticData().sentiOneMentions as { watermark: number };
	expect(after.watermark).toBe(
		(JSON.parse(before) as { sentiOneMentions: { watermark: number } }).sentiOneMentions.watermark,
	);
});

test('auth and tier errors stop with a clear message', async () => {
	const projectId = await emptyProject(sim);
	const noAccess = await new PollHarness(
		pollParameters(projectId),
		credentials(sim, NOACCESS),
	).poll('activate');
	expect(noAccess.error?.message).toMatch(/401/);
	expect(noAccess.error?.message).toMatch(/tier|permission/i);

	const historicalBasic = await new PollHarness(
		pollParameters(projectId, { source: 'historical' }),
		credentials(sim, BASIC),
	).poll('activate');
	expect(historicalBasic.error?.message).toMatch(/Enterprise tier/);

	const historical = new PollHarness(
		pollParameters(projectId, { source: 'historical' }),
		credentials(sim, ENTERPRISE),
	);
	expect((await historical.poll('activate')).error).toBeUndefined();
	// an old post collected now: only the historical search sees it
	const old = await addMentions(sim, projectId, 1, {
		publishedAt: new Date(Date.now() - 30 * 86_400_000).toISOString(),
	});
	const recent = new PollHarness(
		pollParameters(projectId, { startFrom: 'backfill', backfillHours: 1 }),
		credentials(sim),
	);
	expect(idsOf((await recent.poll('activate')).items ?? [])).not.toContain(old[0].id);
	expect(idsOf((await historical.poll()).items ?? [])).toEqual([old[0].id]);
});
