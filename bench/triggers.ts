/**
 * Part 4 — what the triggers cost, through n8n-core's real PollContext / TriggerContext
 * (test/support/triggers.ts) against the simulator:
 *
 * - Poll trigger: requests per check and per hour at several arrival rates, for one hour of
 *   checks every 5 and every 15 minutes (default options: late window 10 min, at most 2 requests a
 *   check, a share of 12 search requests an hour). Mentions arrive evenly over each interval (the simulator's clock and the node's clock
 *   are moved together; no real waiting). The floor of a check is ceil(new mentions it emitted / 25),
 *   at least 1. Afterwards the backlog is drained and every mention is checked: 0 lost, 0 duplicated.
 * - Stream trigger: connections per injected fault (connection dropped at a seeded byte offset;
 *   connection stalled: no bytes at all) while 5 mentions a second arrive; connections and search
 *   requests of a fault-free stream at several arrival rates. Lost and duplicated mentions counted
 *   against the simulator's ground truth.
 */
import {
	activateStreamTrigger,
	PollHarness,
	type ActiveStreamTrigger,
	pollParameters,
	projectParam,
	streamParameters,
} from '../test/support/triggers';
import {
	admin,
	type Sim,
	clearLog,
	projectWithMentions,
	requestLog,
	groundTruth,
} from '../test/support/simulator';
import { POLL_DEFAULTS } from '../nodes/SentiOne/trigger/poll/pollSettings';
import { seededRandom as random } from '../test/support/random';
import { sleep, waitFor } from '../test/support/wait';
import { log, simulator, stat, type Stat } from './lib';
import { SimClock } from '../test/support/simClock';
import { tally } from '../test/support/tally';
import { BASIC } from '../test/support/keys';

export interface PollScenario {
	intervalMinutes: number;
	ratePerHour: number;
	checks: number;
	/** requests of each check in the hour (activation not included) */
	perCheck: number[];
	/** least requests for what each check emitted: ceil(emitted/25), at least 1 */
	floorPerCheck: number[];
	activationRequests: number;
	arrived: number;
	emitted: number;
	backlogAtEnd: number;
	lost: number;
	duplicated: number;
	/** "falling behind" notices (failed executions) during the hour and the draining */
	behindNotices: number;
}

export interface StreamScenario {
	name: string;
	faults: number;
	connections: Stat;
	reconnectsPerFault: Stat;
	searches: Stat;
	mentions: Stat;
	lost: Stat;
	duplicated: Stat;
	note: string;
}

export interface TriggerResult {
	poll: PollScenario[];
	stream: StreamScenario[];
}

/** Lost and duplicated counts of what a trigger emitted against the simulator's ground truth */
function lostAndDuplicated(
	emitted: string[],
	truth: string[],
): { lost: number; duplicated: number } {
	const t = tally(emitted, truth);
	return { lost: t.lost.length, duplicated: t.duplicated.length };
}

async function pollScenario(
	sim: Sim,
	clock: SimClock,
	intervalMinutes: number,
	ratePerHour: number,
): Promise<PollScenario> {
	const projectId = await projectWithMentions(sim, 0);
	// the options a new trigger has, its share of the search budget included (the test helper's
	// parameters turn the share off)
	const harness = new PollHarness(
		pollParameters(projectId, { options: { requestsPerHour: POLL_DEFAULTS.requestsPerHour } }),
		{ apiKey: BASIC, baseUrl: sim.base },
	);
	let behindNotices = 0;
	/** a check's outcome; the "falling behind" notice is counted, any other error ends the run */
	const check = async () => {
		const outcome = await harness.poll();
		if (outcome.error && /falling behind/.test(outcome.error.message)) behindNotices++;
		else if (outcome.error) throw outcome.error;
		return outcome;
	};
	await clearLog(sim);
	const activation = await harness.poll('activate');
	if (activation.error) throw activation.error;
	const activationRequests = (await requestLog(sim)).length;
	const checks = 60 / intervalMinutes;
	const perCheck: number[] = [];
	const floorPerCheck: number[] = [];
	let carry = 0;
	let arrived = 0;
	let emitted = 0;
	for (let c = 0; c < checks; c++) {
		const start = clock.now;
		await clock.advance(intervalMinutes * 60_000);
		// arrivals spread over the interval, one batch a minute
		for (let m = 0; m < intervalMinutes; m++) {
			carry += ratePerHour / 60;
			const count = Math.floor(carry + 1e-9);
			carry -= count;
			if (count > 0) {
				const at = new Date(start + m * 60_000 + 30_000).toISOString();
				await admin(sim, 'POST', '/mentions', { projectId, count, collectedAt: at });
				arrived += count;
			}
		}
		await clearLog(sim);
		const outcome = await check();
		const n = (outcome.items ?? []).length;
		emitted += n;
		const requests = (await requestLog(sim)).length;
		perCheck.push(requests);
		// a check the share spaced out sends nothing and passes nothing on: its floor is 0
		floorPerCheck.push(requests === 0 && n === 0 ? 0 : Math.max(1, Math.ceil(n / 25)));
	}
	const backlogAtEnd = arrived - emitted;
	// drain the backlog (no new arrivals) until a check that sent a request finds nothing new, then
	// compare with the ground truth
	for (let extra = 0; extra < 400; extra++) {
		await clock.advance(intervalMinutes * 60_000);
		await clearLog(sim);
		const outcome = await check();
		if (outcome.items === null && (await requestLog(sim)).length > 0) break;
	}
	const { lost, duplicated } = lostAndDuplicated(
		harness.allItems().map((i) => String(i.id)),
		await groundTruth(sim, projectId),
	);
	return {
		intervalMinutes,
		ratePerHour,
		checks,
		perCheck,
		floorPerCheck,
		activationRequests,
		arrived,
		emitted,
		backlogAtEnd,
		lost,
		duplicated,
		behindNotices,
	};
}

interface StreamRun {
	connections: number;
	searches: number;
	mentions: number;
	lost: number;
	duplicated: number;
}

async function streamRun(
	sim: Sim,
	kind: 'none' | 'drop' | 'stall',
	faults: number,
	ratePerMinute: number,
	seed: number,
): Promise<StreamRun> {
	const projectId = await projectWithMentions(sim, 0);
	await admin(sim, 'DELETE', '/faults');
	await clearLog(sim);
	const live = async () =>
		(await requestLog(sim)).filter((r) => r.group === 'live' && r.status === 200).length;
	const next = random(seed);
	if (kind === 'drop')
		await admin(sim, 'POST', '/faults', {
			stream: { dropAfterBytes: 150 + Math.floor(next() * 6000), dropTimes: 1 },
		});
	if (kind === 'stall') await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 5 } });
	let trigger: ActiveStreamTrigger | undefined;
	try {
		trigger = await activateStreamTrigger(
			// stall timeout 1 s (the simulator sends a heartbeat every 200 ms) keeps the run short
			streamParameters({ project: projectParam(projectId) }, { stallTimeout: 1 }),
			{ apiKey: BASIC, baseUrl: sim.base },
		);
		await admin(sim, 'POST', '/live', { ratePerMinute });
		if (kind === 'drop') {
			for (let k = 1; k < faults; k++) {
				// connection k is open with its drop decided: arm the drop of connection k + 1
				await waitFor(async () => (await live()) >= k, 20_000);
				await admin(sim, 'POST', '/faults', {
					stream: { dropAfterBytes: 150 + Math.floor(next() * 6000), dropTimes: 1 },
				});
			}
			await waitFor(async () => (await live()) >= faults + 1, 40_000);
		} else if (kind === 'stall') {
			await waitFor(async () => (await live()) >= 1, 10_000);
			await admin(sim, 'DELETE', '/faults');
			await waitFor(async () => (await live()) >= 2, 20_000);
		}
		await sleep(kind === 'none' ? 5000 : 1500);
		await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
		await sleep(500);
		const truth = await groundTruth(sim, projectId);
		const t = trigger;
		await t
			.until(() => new Set(t.items().map((i) => String(i.id))).size >= truth.length, 10_000)
			.catch(() => undefined);
		await sleep(300);
		const { lost, duplicated } = lostAndDuplicated(
			t.items().map((i) => String(i.id)),
			truth,
		);
		const requests = await requestLog(sim);
		return {
			connections: requests.filter((r) => r.group === 'live' && r.status === 200).length,
			searches: requests.filter((r) => r.group === 'search').length,
			mentions: truth.length,
			lost,
			duplicated,
		};
	} finally {
		await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
		await admin(sim, 'DELETE', '/faults');
		await trigger?.close();
	}
}

export async function measureTriggers(options: {
	runs: number;
	rates: number[];
	intervals: number[];
}): Promise<TriggerResult> {
	const poll: PollScenario[] = [];
	const pollSim = await simulator(['--limits', 'off', '--projects', '1', '--mentions', '50']);
	const clock = new SimClock(pollSim);
	clock.install();
	try {
		for (const interval of options.intervals) {
			for (const rate of options.rates) {
				const s = await pollScenario(pollSim, clock, interval, rate);
				log(
					`triggers: poll every ${interval} min, ${rate}/h: ${s.perCheck.join(',')} requests per check, ${s.emitted}/${s.arrived} emitted, lost ${s.lost}, duplicated ${s.duplicated}`,
				);
				poll.push(s);
			}
		}
	} finally {
		clock.uninstall();
		await pollSim.stop();
	}

	const stream: StreamScenario[] = [];
	const liveSim = await simulator([
		'--now',
		new Date().toISOString(),
		'--clock',
		'running',
		'--projects',
		'1',
		'--mentions',
		'50',
		'--heartbeat-ms',
		'200',
		'--limits',
		'off',
	]);
	try {
		const scenarios: Array<{
			name: string;
			kind: 'none' | 'drop' | 'stall';
			faults: number;
			rate: number;
			note: string;
		}> = [
			{
				name: 'no faults, 60 mentions/min',
				kind: 'none',
				faults: 0,
				rate: 60,
				note: 'about 7 s of arrivals',
			},
			{
				name: 'no faults, 600 mentions/min',
				kind: 'none',
				faults: 0,
				rate: 600,
				note: 'about 7 s of arrivals',
			},
			{
				name: 'dropped connection (seeded byte offset)',
				kind: 'drop',
				faults: 4,
				rate: 300,
				note: '4 drops in a row, 300 mentions/min',
			},
			{
				name: 'stalled connection (no bytes at all)',
				kind: 'stall',
				faults: 1,
				rate: 300,
				note: 'stall timeout 1 s, 300 mentions/min',
			},
		];
		for (const s of scenarios) {
			const runs: StreamRun[] = [];
			for (let r = 0; r < options.runs; r++)
				runs.push(await streamRun(liveSim, s.kind, s.faults, s.rate, 20261122 + r));
			const result: StreamScenario = {
				name: s.name,
				faults: s.faults,
				connections: stat(runs.map((x) => x.connections)),
				reconnectsPerFault: stat(
					runs.map((x) => (s.faults === 0 ? x.connections - 1 : (x.connections - 1) / s.faults)),
				),
				searches: stat(runs.map((x) => x.searches)),
				mentions: stat(runs.map((x) => x.mentions)),
				lost: stat(runs.map((x) => x.lost)),
				duplicated: stat(runs.map((x) => x.duplicated)),
				note: s.note,
			};
			log(
				`triggers: stream, ${s.name}: connections ${runs.map((x) => x.connections).join(',')}, lost ${runs.map((x) => x.lost).join(',')}, duplicated ${runs.map((x) => x.duplicated).join(',')}`,
			);
			stream.push(result);
		}
	} finally {
		await liveSim.stop();
	}
	return { poll, stream };
}
