/* eslint-disable no-console -- test code: not shipped in the package */
/**
 * Polling under fire: 1,000 polls of the SentiOne Trigger (n8n-core's real PollContext) against a
 * simulator whose clock only moves when the test moves it (and the node's clock, through
 * `setClock`, with it), so hours of polling take seconds. Between polls, mentions arrive at seededRandom
 * instants, in groups sharing one collectedAt (some at the very instant of the watermark), late
 * (collected minutes before they become searchable) and behind an index lag; polls meet the real
 * hourly budget (429 before or in the middle of a poll), a 429 caused by "another workflow",
 * 500/502/503 answers and dropped connections; n8n restarts and reloads the static data it last
 * saved (after activation and after each poll that emitted). At the end every mention the
 * simulator collected was emitted exactly once.
 *
 * Within the guarantees of docs/triggers.md: a late mention is made searchable within the Late
 * Mention Window of its collectedAt, behind fewer than 25 mentions already passed on (the re-read
 * cap of a check, "How a check works" step 3), while the trigger is not working off a backlog; the
 * last test shows the loss beyond that cap, which is by design and kept out of the 0-loss claim.
 */
import type { IDataObject } from 'n8n-workflow';

import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { admin, createProject, startSim, type Sim, groundTruth } from '../../support/simulator';
import { PollHarness, pollParameters } from '../../support/triggers';
import { RequestHook } from '../../support/probes';
import { NOW_MS, HOUR } from '../../support/time';
import { idsOf, tally } from '../../support/tally';
import { writePart } from '../../support/results';
import { credentials } from '../../support/engine';
import { between, seededRandom } from '../../support/random';
import { BASIC } from '../../support/keys';

jest.setTimeout(300_000);

const POLLS = 1000;
const LATE_WINDOW_MINUTES = 10;
const SEED = 20261121;

interface PollStateView {
	watermark: number | null;
	seen: Array<[string, number]>;
	floor: number | null;
	round?: unknown;
	budget?: { remaining?: number; resetAt?: number };
}

let sim: Sim;
let simNow = NOW_MS;
let restoreClock: () => void;
const hook = new RequestHook();

beforeAll(async () => {
	sim = await startSim(['--projects', '1', '--mentions', '20', '--heartbeat-ms', '15000']);
	await admin(sim, 'POST', '/limits', {
		mode: 'spec',
		monthlyCap: { basic: 100_000_000, enterprise: 100_000_000 },
	});
	restoreClock = setClock({ now: () => simNow });
	hook.install();
});

afterAll(async () => {
	hook.uninstall();
	restoreClock();
	await sim.stop();
});

async function advance(ms: number): Promise<void> {
	const { now } = await admin<{ now: string }>(sim, 'POST', '/clock', { advanceMs: ms });
	simNow = Date.parse(now);
}

/** How each mention arrived (for the report of a loss). */
const arrivals = new Map<string, string>();
let arrivalNote = '';

async function addMentions(projectId: number, count: number, collectedAt: number): Promise<void> {
	const r = await admin<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
		projectId,
		count,
		collectedAt: new Date(collectedAt).toISOString(),
	});
	for (const m of r.mentions)
		arrivals.set(
			m.id,
			`${arrivalNote} at ${new Date(collectedAt).toISOString()} (sim now ${new Date(simNow).toISOString()})`,
		);
}

function stateOf(harness: PollHarness): PollStateView | undefined {
	return harness.staticData().sentiOneMentions as PollStateView | undefined;
}

type ServerFault =
	| '500'
	| '502 page'
	| '503 once'
	| '503 three times'
	| 'connection reset'
	| '429 (another workflow)';

const SCRIPTS: Record<
	Exclude<ServerFault, '429 (another workflow)'>,
	{ times: number; respond: Record<string, unknown> }
> = {
	'500': { times: 1, respond: { status: 500, kind: 'json', body: { message: 'Internal error.' } } },
	'502 page': { times: 1, respond: { status: 502, kind: 'html' } },
	'503 once': {
		times: 1,
		respond: { status: 503, kind: 'json', body: { message: 'Service unavailable.' } },
	},
	'503 three times': {
		times: 3,
		respond: { status: 503, kind: 'json', body: { message: 'Service unavailable.' } },
	},
	'connection reset': { times: 1, respond: { kind: 'reset' } },
};

test(`${POLLS} polls with seededRandom arrivals, equal timestamps, late mentions, index lag, 429s, 5xx and restarts: 0 lost, 0 duplicated`, async () => {
	const next = seededRandom(SEED);
	const projectId = await createProject(sim, 'Poll soak', 'acme');
	const params = pollParameters(projectId, {
		options: { lateWindowMinutes: LATE_WINDOW_MINUTES, maxRequestsPerPoll: 2 },
	});
	const creds = credentials(sim, BASIC);
	let harness = new PollHarness(params, creds);
	await advance(1000);
	const activation = await harness.poll('activate');
	expect(activation.error).toBeUndefined();
	// n8n saves the static data after activation and after every poll that emitted
	let saved = JSON.parse(JSON.stringify(harness.workflow.staticData)) as IDataObject;

	const emitted: string[] = [];
	const counts = {
		polls: 0,
		pollsWithItems: 0,
		restarts: 0,
		bursts: 0,
		freshMentions: 0,
		groups: 0,
		groupMentions: 0,
		groupsAtWatermark: 0,
		lateMentions: 0,
		lateBehindWatermark: 0,
		indexLagPhases: 0,
		faults: {} as Record<string, number>,
		faultsMidPoll: 0,
		/** faults whose request was really sent (a poll skipped for a spent budget sends none) */
		faultsReached: {} as Record<string, number>,
		budgetReports: 0,
		pollErrors: {} as Record<string, number>,
		/** how many checks sent 0, 1, 2, 3, 4, 5+ requests */
		requestsPerPoll: [0, 0, 0, 0, 0, 0],
	};
	const lagPhases = [0, 45_000, 0, 150_000, 20_000];
	let lag = 0;

	for (let i = 1; i <= POLLS; i++) {
		// the index lag changes every 100 polls
		if (i % 100 === 1) {
			const wanted = lagPhases[Math.floor(i / 100) % lagPhases.length];
			if (wanted !== lag) {
				lag = wanted;
				await admin(sim, 'POST', '/faults', { indexLagMs: lag });
				counts.indexLagPhases++;
			}
		}
		// time passes: the poll interval is seededRandom (Poll Times, or a slow n8n)
		const from = simNow;
		await advance(between(next, 20_000, 240_000));
		const to = simNow;
		// mentions collected at seededRandom instants since the last poll
		arrivalNote = `poll ${i} fresh`;
		if (next() < 0.7) {
			const k = between(next, 1, 5);
			for (let j = 0; j < k; j++) await addMentions(projectId, 1, between(next, from + 1, to));
			counts.freshMentions += k;
		}
		// now and then a burst: more than one check can read (a backlog)
		if (next() < 0.06) {
			const k = between(next, 30, 90);
			for (let j = 0; j < k; j += 10)
				await addMentions(projectId, Math.min(10, k - j), between(next, from + 1, to));
			counts.freshMentions += k;
			counts.bursts++;
		}
		const state = stateOf(harness);
		const budgetKnownSpent = state?.budget?.remaining === 0 && (state.budget.resetAt ?? 0) > simNow;
		// late arrivals stay within the guarantees: the next check scans afresh from the watermark
		// (no backlog round open, no known spent budget), at most 9 minutes after the collectedAt
		const lateAllowed = (maxLateMs: number) =>
			state !== undefined &&
			state.watermark !== null &&
			!state.round &&
			!budgetKnownSpent &&
			simNow - maxLateMs <= (state.watermark as number);
		// a group sharing one collectedAt: a seededRandom instant, or the watermark instant itself (arriving later)
		if (next() < 0.12) {
			const size = between(next, 2, 30);
			const atWatermark = next() < 0.5 && lateAllowed(9 * 60_000);
			arrivalNote = `poll ${i} group of ${size}${atWatermark ? ' at the watermark' : ''} (round ${state?.round ? 'open' : 'none'})`;
			await addMentions(
				projectId,
				size,
				atWatermark ? (state!.watermark as number) : between(next, from + 1, to),
			);
			counts.groups++;
			counts.groupMentions += size;
			if (atWatermark) counts.groupsAtWatermark++;
		}
		// late mentions: collected up to 9 minutes ago, searchable only now, within the guarantees
		if (state && lateAllowed(Infinity) && next() < 0.15) {
			const cols = state.seen.map(([, at]) => at).sort((a, b) => b - a);
			// never behind 21 or more mentions already passed on, never more than 9 minutes late
			const behind = cols.length > 20 ? cols[20] + 1 : -Infinity;
			const earliest = Math.max(
				simNow - 9 * 60_000,
				(state.watermark as number) - 9 * 60_000,
				behind,
				(state.floor ?? -Infinity) + 1,
			);
			if (earliest < simNow) {
				const count = between(next, 1, 2);
				arrivalNote = `poll ${i} late, watermark ${new Date(state.watermark as number).toISOString()}, lag ${lag}`;
				const at = between(
					next,
					Math.ceil(earliest),
					Math.min(simNow, (state.watermark as number) + 60_000),
				);
				await addMentions(projectId, count, at);
				counts.lateMentions += count;
				if (at < (state.watermark as number)) counts.lateBehindWatermark += count;
			}
		}
		// a server fault on the first or the second request of this poll
		const r = next();
		let fault: ServerFault | undefined;
		if (r < 0.06)
			fault = (['500', '502 page', '503 once', '503 three times', 'connection reset'] as const)[
				between(next, 0, 4)
			];
		else if (r < 0.08) fault = '429 (another workflow)';
		const at = next() < 0.4 ? 1 : 2;
		if (fault) counts.faults[fault] = (counts.faults[fault] ?? 0) + 1;
		hook.reset(async (request) => {
			if (!fault || request.n !== at) return;
			if (fault === '429 (another workflow)') {
				await admin(sim, 'POST', '/faults', { force429: { group: 'search', times: 1 } });
			} else {
				await admin(sim, 'POST', '/faults', {
					script: [{ match: { group: 'search' }, ...SCRIPTS[fault] }],
				});
			}
		});
		// n8n restarts and reloads the static data it last saved
		if (next() < 0.05) {
			harness = new PollHarness(params, creds, JSON.parse(JSON.stringify(saved)) as IDataObject);
			counts.restarts++;
		}

		const outcome = await harness.poll();
		counts.polls++;
		counts.requestsPerPoll[Math.min(hook.count, 5)]++;
		if (fault && hook.count >= at) {
			counts.faultsReached[fault] = (counts.faultsReached[fault] ?? 0) + 1;
			if (at === 2) counts.faultsMidPoll++;
		}
		if (outcome.error) {
			if ((outcome.error as { httpCode?: string }).httpCode === '429') counts.budgetReports++;
			const kind = `${(outcome.error as { httpCode?: string }).httpCode ?? 'no status'}: ${outcome.error.message.slice(0, 60)}`;
			const key = kind.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z.*$/, '…');
			counts.pollErrors[key] = (counts.pollErrors[key] ?? 0) + 1;
		}
		if (outcome.items) {
			counts.pollsWithItems++;
			emitted.push(...idsOf(outcome.items));
			saved = JSON.parse(JSON.stringify(harness.workflow.staticData)) as IDataObject;
		}
		// a fault the poll never reached must not hit the next one
		if (fault && hook.count < at)
			await admin(sim, 'DELETE', '/faults').then(
				async () => await admin(sim, 'POST', '/faults', { indexLagMs: lag }),
			);
	}

	// catch up: no more faults, the hour turns, poll until nothing is left
	hook.reset();
	await admin(sim, 'DELETE', '/faults');
	await advance(HOUR - (simNow % HOUR) + 60_000);
	let drainPolls = 0;
	for (;;) {
		drainPolls++;
		const outcome = await harness.poll();
		if (outcome.items) emitted.push(...idsOf(outcome.items));
		const state = stateOf(harness);
		if (!outcome.error && outcome.items === null && !state?.round) break;
		if (drainPolls > 300) throw new Error('the trigger did not catch up within 300 polls');
		await advance(180_000);
	}

	const truth = await groundTruth(sim, projectId);
	const t = tally(emitted, truth);
	const log = await admin<{ requests: Array<{ group: string; status: number | null }> }>(
		sim,
		'GET',
		'/requests',
	);
	const search = log.requests.filter((e) => e.group === 'search');
	const statuses: Record<string, number> = {};
	for (const e of search) statuses[String(e.status)] = (statuses[String(e.status)] ?? 0) + 1;
	const figures = {
		...counts,
		drainPolls,
		mentions: t.expected,
		emitted: t.emitted,
		lost: t.lost.length,
		duplicated: t.duplicated.length,
		unexpected: t.unexpected.length,
		simulatedHours: Math.round((simNow - NOW_MS) / HOUR),
		searchRequests: search.length,
		searchStatuses: statuses,
	};
	console.log(`poll reliability: ${JSON.stringify(figures)}`);
	if (t.lost.length > 0)
		console.log(`lost:\n${t.lost.map((id) => `${id}: ${arrivals.get(id)}`).join('\n')}`);

	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
	expect(t.unexpected).toEqual([]);
	expect(t.expected).toBeGreaterThan(1500);
	// the faults really happened
	expect(counts.budgetReports).toBeGreaterThan(10);
	expect(statuses['429']).toBeGreaterThan(3);
	expect(counts.faultsMidPoll).toBeGreaterThan(5);
	expect(counts.restarts).toBeGreaterThan(20);
	expect(counts.lateBehindWatermark).toBeGreaterThan(20);
	expect(counts.groupsAtWatermark).toBeGreaterThan(10);
	// a check never sends more than Max Requests per Poll (2), plus the 2 retries of a transient failure
	expect(counts.requestsPerPoll[5]).toBe(0);

	const fiveXx = ['500', '502 page', '503 once', '503 three times', 'connection reset'].reduce(
		(n, k) => n + (counts.faultsReached[k] ?? 0),
		0,
	);
	writePart({
		part: 'poll',
		title: 'SentiOne Trigger (polling)',
		command: 'npx jest test/engine/reliability/pollUnderFire.test.ts',
		rows: [
			{
				fault: `${POLLS} polls at seededRandom intervals (20 s – 4 min), ${figures.simulatedHours} simulated hours`,
				through: 'SentiOne Trigger, real PollContext',
				cases: POLLS,
				items: t.expected,
				lost: t.lost.length,
				duplicated: t.duplicated.length,
				outcome: 'every collected mention emitted once',
			},
			{
				fault: 'mentions at seededRandom instants between polls',
				through: 'SentiOne Trigger',
				cases: counts.freshMentions,
				items: counts.freshMentions,
				lost: 0,
				duplicated: 0,
				outcome: 'emitted once',
			},
			{
				fault: 'groups sharing one collectedAt (2–30, page boundary inside)',
				through: 'SentiOne Trigger',
				cases: counts.groups,
				items: counts.groupMentions,
				lost: 0,
				duplicated: 0,
				outcome: `${counts.groupsAtWatermark} groups at the watermark instant, arriving after it was passed`,
			},
			{
				fault: 'mentions collected late (searchable up to 9 min after collectedAt)',
				through: 'SentiOne Trigger, Late Mention Window 10 min',
				cases: counts.lateMentions,
				items: counts.lateMentions,
				lost: 0,
				duplicated: 0,
				outcome: `${counts.lateBehindWatermark} behind the watermark, caught by the late window`,
			},
			{
				fault: 'index lag (0, 20 s, 45 s, 150 s phases)',
				through: 'SentiOne Trigger',
				cases: counts.indexLagPhases,
				lost: 0,
				duplicated: 0,
				outcome: 'mentions emitted once they are searchable',
			},
			{
				fault: 'the hourly search budget (30 an hour) runs out',
				through: 'SentiOne Trigger',
				cases: counts.budgetReports,
				lost: 0,
				duplicated: 0,
				outcome: `reported once per hourly window (${statuses['429'] ?? 0} answers were 429s; the other checks knew the budget from the headers and sent nothing), continued after the reset`,
			},
			{
				fault: '429 from "another workflow" (forced), on the 1st or the 2nd request of a check',
				through: 'SentiOne Trigger',
				cases: counts.faultsReached['429 (another workflow)'] ?? 0,
				lost: 0,
				duplicated: 0,
				outcome: 'pages fetched before it emitted, the rest after the reset',
			},
			{
				fault:
					'500 / 502 HTML page / 503 (once, three times) / connection reset, on the 1st or 2nd request',
				through: 'SentiOne Trigger',
				cases: fiveXx,
				lost: 0,
				duplicated: 0,
				outcome: `retried (502, 503, reset) or the check fails with the error and keeps its state, the next check repeats it (${counts.faultsMidPoll} faults hit the 2nd page of a check)`,
			},
			{
				fault: 'n8n restart reloading the last saved static data',
				through: 'SentiOne Trigger, static data from JSON',
				cases: counts.restarts,
				lost: 0,
				duplicated: 0,
				outcome: 'continues from the saved watermark, cursor and id memory',
			},
		],
		figures,
	});
});

test('beyond the guarantees (by design, not in the 0-loss claim): a late mention behind more than 24 mentions already passed on is missed, even within the Late Mention Window', async () => {
	const projectId = await createProject(sim, 'Re-read cap', 'acme');
	const harness = new PollHarness(
		pollParameters(projectId, { options: { lateWindowMinutes: 10 } }),
		credentials(sim, BASIC),
	);
	await advance(1000);
	await harness.poll('activate');
	await advance(60_000);
	const base = simNow - 50_000;
	// 30 mentions at distinct instants within the last 50 s, passed on
	for (let k = 0; k < 30; k++) await addMentions(projectId, 1, base + k * 1000);
	await advance(60_000);
	const first = await harness.poll();
	expect(first.items).toHaveLength(30);
	// a mention collected 5 minutes before the newest one, made searchable now: 5 min late, well inside the window
	const lateAt = base - 5 * 60_000;
	const [late] = (
		await admin<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
			projectId,
			count: 1,
			collectedAt: new Date(lateAt).toISOString(),
		})
	).mentions;
	const second = await harness.poll();
	const emitted = idsOf([...(first.items ?? []), ...(second.items ?? [])]);
	// the check re-reads only the 24 newest mentions already passed on: the late one is below them
	expect(emitted).not.toContain(late.id);
	const search = (
		await admin<{
			requests: Array<{ group: string; body: { filters: { collectedAt?: { from: string } } } }>;
		}>(sim, 'GET', '/requests')
	).requests.filter((e) => e.group === 'search');
	const scanFrom = Date.parse(search[search.length - 1].body.filters.collectedAt!.from);
	expect(scanFrom).toBeGreaterThan(lateAt);
	writePart({
		part: 'poll-limits',
		title: 'SentiOne Trigger: beyond the guarantees',
		command: 'npx jest test/engine/reliability/pollUnderFire.test.ts',
		rows: [
			{
				fault:
					'a mention searchable 5 min after its collectedAt (window 10 min) but behind 30 mentions already passed on',
				through: 'SentiOne Trigger',
				cases: 1,
				items: 1,
				lost: 1,
				duplicated: 0,
				outcome:
					'missed by design: a check re-reads at most 24 mentions already passed on ("How a check works" step 3), as the Guarantees table of docs/triggers.md states',
			},
		],
	});
});
