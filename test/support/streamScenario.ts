/* eslint-disable no-console -- test code: not shipped in the package */
/**
 * The live-stream reliability scenario, shared by stream.test.ts (the default run: a dozen
 * drops) and stream.soak.test.ts (`npm run test:soak`: 100 drops).
 *
 * One SentiOne Stream Trigger (n8n-core's real TriggerContext) on the live stream of a project,
 * with the simulator's real limits: 5 live connections an hour, 2 at a time, 30 searches an hour.
 * Each connection gets a plan, armed right before the node opens it (the request hook), chosen at
 * seededRandom from a seed:
 * - dropped after a seededRandom number of bytes: inside the reconnect backfill, inside a mention or a
 *   heartbeat, after some live mentions;
 * - stalled: silent (no heartbeats either) after some events, until the node judges it dead;
 * - with modifiers: every n-th mention malformed (id known), unknown event kinds, legacy bare
 *   heartbeats (the connection must then survive longer than the stall timeout on them alone),
 *   tiny write chunks.
 * Mentions are injected until the connection ends. At the end every mention the simulator
 * collected was emitted exactly once, and no simulated hour saw more than 5 connections.
 *
 * Time. The node's reconnect backoff and its stall watchdog run on real time (Date.now and
 * timers), its budget and recovery decisions on `clock` (shared/clock.ts). A connection that lives
 * a minute resets the backoff to 0.5 s; 100 of them would take 100 minutes. So the test moves
 * Date.now forward by 61 s once each connection is up (nothing else in the process reads it for
 * anything but timestamps), and by the stall timeout + 1 s to let the watchdog see a stalled
 * connection; it moves the simulator's clock and the node's `clock` together to bring the top of
 * the hour close when the hour's 5 connections are spent, so a budget wait lasts a few seconds.
 */
import type { IDataObject } from 'n8n-workflow';

import { setClock } from '../../nodes/SentiOne/shared/clock';
import { admin, createProject, startRunningSim, type Sim, groundTruth } from './simulator';
import type { ActiveStreamTrigger } from './triggers';
import { activateStreamTrigger, projectParam, streamParameters } from './triggers';
import { secretsWatch } from '../setup/secrets';
import type { OutgoingRequest } from './probes';
import { RequestHook } from './probes';
import { sleep, waitFor } from './wait';
import { realNow, HOUR } from './time';
import { idsOf, tally } from './tally';
import { type ResultRow, writePart } from './results';
import { credentials } from './engine';
import { between, seededRandom } from './random';
import { BASIC } from './keys';

const STALL_TIMEOUT_S = 600;
const LIVE_PATH = /\/mentions\/recent\/search\/stream\/live$/;

export interface StreamScenarioOptions {
	drops: number;
	seed: number;
	format: 'sse' | 'jsonLines';
	/** plans with malformed mentions (SSE; JSON lines are covered by the regression test in stream.test.ts) */
	malformed: boolean;
	part: string;
	title: string;
	command: string;
}

interface Plan {
	kind: 'drop' | 'stall';
	/** where the drop falls */
	where?: 'backfill' | 'live';
	dropAfterBytes?: number;
	stallAfterEvents?: number;
	malformedEvery?: number;
	unknownEventEvery?: number;
	legacyHeartbeat?: boolean;
	heartbeatMs?: number;
	chunkBytes?: number;
	/** the 5th connection of a simulated hour: the test brings the reset close once it is up */
	lastOfHour: boolean;
	/** mentions the simulator sends as backfill when it opens (estimated by the test) */
	backfill: { count: number; bytes: number };
}

interface Injected {
	id: string;
	at: number;
	frameBytes: number;
}

export async function runStreamScenario(o: StreamScenarioOptions): Promise<void> {
	const next = seededRandom(o.seed);
	const sim: Sim = await startRunningSim({
		now: '2026-11-21T10:00:05.000Z',
		projects: 1,
		mentions: 20,
		heartbeatMs: 1000,
	});
	const hook = new RequestHook();
	let trigger: ActiveStreamTrigger | undefined;
	let dateShift = 0;
	let simOffset = 0;
	const realDateNow = Date.now.bind(Date);
	const dateSpy = jest.spyOn(Date, 'now').mockImplementation(() => realDateNow() + dateShift);
	const restoreClock = setClock({ now: () => Math.round(realNow() + simOffset) });
	const simNow = () => Math.round(realNow() + simOffset);
	const syncClock = (iso: string) => {
		simOffset = Date.parse(iso) - realNow();
	};

	try {
		await admin(sim, 'POST', '/limits', {
			mode: 'spec',
			monthlyCap: { basic: 100_000_000, enterprise: 100_000_000 },
		});
		syncClock((await admin<{ now: string }>(sim, 'GET', '/health')).now);
		const projectId = await createProject(sim, 'Stream soak', 'acme');

		const injected: Injected[] = [];
		const frame = (m: IDataObject) => {
			const json = JSON.stringify(m);
			const id = String(m.id);
			return o.format === 'sse'
				? 22 + json.length + 5 + id.length + 2
				: 30 + json.length + id.length + 4;
		};
		const addMentions = async (count: number): Promise<string[]> => {
			const r = await admin<{ mentions: IDataObject[] }>(sim, 'POST', '/mentions', {
				projectId,
				count,
			});
			for (const m of r.mentions)
				injected.push({
					id: String(m.id),
					at: Date.parse(String(m.collectedAt)),
					frameBytes: frame(m),
				});
			return r.mentions.map((m) => String(m.id));
		};
		const jump = async (ms: number) => {
			syncClock((await admin<{ now: string }>(sim, 'POST', '/clock', { advanceMs: ms })).now);
		};

		// the plans, armed by the hook right before each connection attempt
		const plans: Plan[] = [];
		/** simulated instants of the live connection attempts, in order */
		const attempts: number[] = [];
		let lastWasEarly = false;
		const counts = {
			drops: 0,
			dropsInBackfill: 0,
			dropsLive: 0,
			stalls: 0,
			malformedPlans: 0,
			unknownEventPlans: 0,
			legacyPlans: 0,
			legacySurvivedStallTimeouts: 0,
			chunkedPlans: 0,
			lastOfHour: 0,
			searchRequests: 0,
		};

		const planFor = (request: OutgoingRequest): Plan => {
			const now = simNow();
			const hourStart = now - (now % HOUR);
			const inHour = attempts.filter((at) => at >= hourStart).length;
			const minutes = Number(request.qs.backfillMinutes ?? 0);
			const since = now - minutes * 60_000 - 2000;
			const burst = injected.filter((m) => m.at >= since);
			const backfill = { count: burst.length, bytes: burst.reduce((n, m) => n + m.frameBytes, 0) };
			const lastOfHour = inHour === 4;
			const plan: Plan = { kind: 'drop', lastOfHour, backfill };
			if (next() < 0.12) plan.kind = 'stall';
			if (next() < 0.25 && o.malformed) plan.malformedEvery = between(next, 2, 4);
			if (next() < 0.3) plan.unknownEventEvery = between(next, 1, 3);
			plan.heartbeatMs = 250;
			if (next() < 0.15) {
				plan.legacyHeartbeat = true;
				plan.heartbeatMs = 100;
			}
			if (next() < 0.1) plan.chunkBytes = between(next, 256, 2048);
			const margin = Math.ceil(backfill.bytes * 1.1) + 600;
			if (plan.kind === 'stall') {
				plan.stallAfterEvents = backfill.count + between(next, 1, 3);
			} else if (
				!lastOfHour &&
				!plan.legacyHeartbeat &&
				!lastWasEarly &&
				backfill.bytes > 200 &&
				next() < 0.3
			) {
				// inside the backfill burst, right at the start of the connection
				plan.where = 'backfill';
				plan.dropAfterBytes = between(next, 1, Math.max(1, Math.floor(backfill.bytes * 0.9)));
			} else {
				// after the backfill, among live mentions and heartbeats (never before the test is ready for it)
				plan.where = 'live';
				plan.dropAfterBytes =
					margin + (lastOfHour || plan.legacyHeartbeat ? 4000 : 1500) + between(next, 0, 6000);
			}
			lastWasEarly = plan.where === 'backfill';
			return plan;
		};

		hook.install();
		hook.reset(async (request) => {
			if (request.path.includes('/mentions/recent/search') && !LIVE_PATH.test(request.path))
				counts.searchRequests++;
			if (!LIVE_PATH.test(request.path)) return;
			const plan = planFor(request);
			plans.push(plan);
			attempts.push(simNow());
			await admin(sim, 'POST', '/faults', {
				stream: {
					dropAfterBytes: plan.dropAfterBytes ?? null,
					dropTimes: plan.dropAfterBytes === undefined ? null : 1,
					stallAfterEvents: plan.stallAfterEvents ?? null,
					malformedEvery: plan.malformedEvery ?? null,
					unknownEventEvery: plan.unknownEventEvery ?? null,
					legacyHeartbeat: plan.legacyHeartbeat ?? null,
					heartbeatMs: plan.heartbeatMs ?? null,
					chunkBytes: plan.chunkBytes ?? null,
				},
			});
		});

		const openStreams = async () => {
			const stats = await admin<{ openStreams: Record<string, number> }>(sim, 'GET', '/stats');
			return Object.values(stats.openStreams).reduce((a, b) => a + b, 0);
		};
		const liveLog = async () =>
			(
				await admin<{
					requests: Array<{
						group: string;
						status: number | null;
						at: string;
						query: Record<string, string>;
					}>;
				}>(sim, 'GET', '/requests')
			).requests.filter((e) => e.group === 'live');
		const params = streamParameters(
			{ project: projectParam(projectId) },
			{ stallTimeout: STALL_TIMEOUT_S, streamFormat: o.format },
		);
		trigger = await activateStreamTrigger(params, credentials(sim, BASIC));
		const t = trigger;

		let c = 0;
		const started = realNow();
		while (counts.drops < o.drops) {
			c++;
			await waitFor(
				async () => {
					const log = await liveLog();
					return log.length >= c && log[c - 1].status !== null;
				},
				{ what: `connection ${c} open`, timeoutMs: 20_000 },
			);
			const plan = plans[c - 1];
			const log = await liveLog();
			expect(log[c - 1].status).toBe(200);
			// the connection counts as healthy (a minute old) when it ends
			dateShift += 61_000;
			// the backfill is read before the clocks move (it is sent at once; tiny chunks take longer),
			// or a malformed mention in it would look as if it had arrived minutes after the connection opened
			if (plan.backfill.count > 0)
				await sleep(
					250 + (plan.chunkBytes ? Math.ceil(plan.backfill.bytes / plan.chunkBytes) * 3 : 0),
				);
			if (plan.lastOfHour) {
				counts.lastOfHour++;
				// the hour's 5 connections are spent: bring the reset close, and let a heartbeat tell the
				// node the connection is alive after the jump (so a drop is not taken for a long outage)
				const now = simNow();
				await jump(now - (now % HOUR) + HOUR - 1500 - now);
				await sleep((plan.heartbeatMs ?? 1000) + 100);
			} else {
				// 150 s of simulated time per connection: a live rate of a few mentions a minute, so the
				// search of the moments a malformed mention arrived in (3–5 minutes) stays within its cap
				// of 6 pages, and the searches within the 30 an hour
				await jump(150_000);
			}
			if (plan.malformedEvery) counts.malformedPlans++;
			if (plan.unknownEventEvery) counts.unknownEventPlans++;
			if (plan.chunkBytes) counts.chunkedPlans++;
			if (plan.legacyHeartbeat && plans.length === c) {
				counts.legacyPlans++;
				// legacy bare heartbeats alone keep it alive well past the stall timeout (800 s of Date.now)
				for (let step = 0; step < 8; step++) {
					dateShift += 100_000;
					await sleep(250);
				}
				if (plans.length === c) counts.legacySurvivedStallTimeouts++;
			}
			if (plan.kind === 'stall') {
				counts.stalls++;
				let tries = 0;
				while (plans.length === c) {
					await addMentions(3);
					await sleep(150);
					// silent now: let the watchdog see more than the stall timeout pass
					dateShift += (STALL_TIMEOUT_S + 1) * 1000;
					await waitFor(() => plans.length > c, {
						what: 'the stalled connection replaced',
						timeoutMs: 4000,
					}).catch(() => undefined);
					if (++tries > 10) throw new Error(`connection ${c} did not stall`);
				}
				continue;
			}
			// a drop plan: mentions until the connection breaks at its byte offset (and not one more:
			// what is collected while it is down only swells the next backfill)
			let batches = 0;
			while (plans.length === c && (await openStreams()) > 0) {
				await addMentions(2);
				if (plan.malformedEvery && batches === 2) {
					// the malformed ones are looked up 5 s after they arrived
					await jump(6000);
				}
				await sleep(20);
				if (++batches > 300)
					throw new Error(`connection ${c} did not drop (plan ${JSON.stringify(plan)})`);
			}
			await waitFor(() => plans.length > c, {
				what: `connection ${c + 1} attempted`,
				timeoutMs: 20_000,
			});
			counts.drops++;
			if (plan.where === 'backfill') counts.dropsInBackfill++;
			else counts.dropsLive++;
		}

		// the last connection is up: let the malformed ones be recovered, then compare
		await waitFor(
			async () =>
				(await liveLog()).length >= plans.length &&
				(await liveLog())[plans.length - 1].status !== null,
			{ what: 'the last connection open', timeoutMs: 20_000 },
		);
		dateShift += 61_000;
		await addMentions(1);
		const truth = await groundTruth(sim, projectId);
		for (let round = 0; round < 4; round++) {
			// malformed ones are looked up 5 s after they arrived; a stalled last connection is replaced
			await jump(6000);
			const done = await waitFor(() => new Set(idsOf(t.items())).size >= truth.length, {
				what: 'every mention emitted',
				timeoutMs: 8000,
			}).then(
				() => true,
				() => false,
			);
			if (done) break;
			dateShift += (STALL_TIMEOUT_S + 1) * 1000;
		}
		await sleep(500);
		await t.close();
		const result = tally(idsOf(t.items()), truth);
		const session = sessionStats();
		const searchStatuses = async () => {
			const all = (
				await admin<{ requests: Array<{ group: string; status: number | null; at: string }> }>(
					sim,
					'GET',
					'/requests',
				)
			).requests.filter((e) => e.group === 'search');
			const out: Record<string, number> = {};
			for (const e of all) out[String(e.status)] = (out[String(e.status)] ?? 0) + 1;
			return out;
		};
		const log = await liveLog();
		const perHour = new Map<number, number>();
		for (const e of log) {
			const at = Date.parse(e.at);
			perHour.set(at - (at % HOUR), (perHour.get(at - (at % HOUR)) ?? 0) + 1);
		}
		const statuses = log.map((e) => e.status);
		const figures = {
			...counts,
			connections: log.length,
			reconnects: log.length - 1,
			simulatedHours: perHour.size,
			maxConnectionsInAnHour: Math.max(...perHour.values()),
			connectionsPerHour: [...perHour.values()],
			backfillMinutesAsked: log
				.slice(1)
				.map((e) => Number(e.query.backfillMinutes ?? 0))
				.reduce((a, b) => Math.max(a, b), 0),
			mentions: result.expected,
			emitted: result.emitted,
			lost: result.lost.length,
			duplicated: result.duplicated.length,
			session,
			errors: t.errors.map((e) => e.message),
			failures: t.failures.map(
				(e) => `${e.message} — ${(e as { description?: string }).description ?? ''}`,
			),
			searchStatuses: await searchStatuses(),
			seconds: Math.round((realNow() - started) / 1000),
		};
		console.log(`stream reliability (${o.part}): ${JSON.stringify(figures)}`);

		expect(result.lost).toEqual([]);
		expect(result.duplicated).toEqual([]);
		expect(result.unexpected).toEqual([]);
		expect(t.errors).toEqual([]);
		expect(t.failures).toEqual([]);
		// within the stream budget: every connection accepted, never more than 5 in a simulated hour
		expect(statuses.every((s) => s === 200)).toBe(true);
		expect(figures.maxConnectionsInAnHour).toBeLessThanOrEqual(5);
		expect(counts.drops).toBe(o.drops);

		const rows: ResultRow[] = [
			{
				fault: `connection dropped at a seededRandom byte offset (${counts.dropsInBackfill} inside the reconnect backfill, ${counts.dropsLive} among live mentions and heartbeats)`,
				through: `SentiOne Stream Trigger (${o.format === 'sse' ? 'SSE' : 'JSON lines'})`,
				cases: counts.drops,
				items: result.expected,
				lost: result.lost.length,
				duplicated: result.duplicated.length,
				outcome: `reconnected with a backfill each time; ${session.repeatsDropped ?? '?'} repeats dropped by the id memory`,
			},
			{
				fault: 'connection stalled: no bytes, no heartbeats',
				through: 'SentiOne Stream Trigger',
				cases: counts.stalls,
				lost: 0,
				duplicated: 0,
				outcome: 'judged dead after the stall timeout, replaced, backfilled',
			},
			{
				fault: 'every 2nd–4th mention malformed (id readable)',
				through: 'SentiOne Stream Trigger',
				cases: counts.malformedPlans,
				lost: 0,
				duplicated: 0,
				outcome: `${session.malformed ?? '?'} malformed events; recovered by the reconnect backfill or a search of the moments they arrived in (${session.repaired ?? '?'} by ${counts.searchRequests} search requests)`,
			},
			{
				fault: 'unknown event kinds between the mentions',
				through: 'SentiOne Stream Trigger',
				cases: counts.unknownEventPlans,
				lost: 0,
				duplicated: 0,
				outcome: 'ignored',
			},
			{
				fault: 'legacy bare-string heartbeats only, for longer than the stall timeout',
				through: 'SentiOne Stream Trigger',
				cases: counts.legacyPlans,
				lost: 0,
				duplicated: 0,
				outcome: `${counts.legacySurvivedStallTimeouts} connections kept alive by them (no reconnect)`,
			},
			{
				fault: 'tiny write chunks (256 B – 2 KiB)',
				through: 'SentiOne Stream Trigger',
				cases: counts.chunkedPlans,
				lost: 0,
				duplicated: 0,
				outcome: 'same mentions',
			},
			{
				fault: 'stream budget: 5 live connections an hour',
				through: 'SentiOne Stream Trigger',
				cases: figures.connections,
				lost: 0,
				duplicated: 0,
				outcome: `${figures.simulatedHours} simulated hours, at most ${figures.maxConnectionsInAnHour} connections in any hour, no 429; ${session.budgetWaits ?? '?'} waits for the hourly reset`,
			},
		];
		writePart({
			part: o.part,
			title: o.title,
			command: o.command,
			rows: rows.filter((r) => r.cases > 0),
			figures,
		});
	} finally {
		hook.uninstall();
		await trigger?.close();
		restoreClock();
		dateSpy.mockRestore();
		await sim.stop();
	}
}

/** The figures the trigger logs when it closes ("SentiOne stream closed: …"), from the secrets watch. */
function sessionStats(): Record<string, number> {
	const line =
		[...secretsWatch().recent]
			.reverse()
			.find((r) => r.kind === 'log' && r.text.includes('SentiOne stream closed:'))?.text ?? '';
	const num = (pattern: RegExp) => {
		const m = pattern.exec(line);
		return m ? Number(m[1]) : undefined;
	};
	const out: Record<string, number | undefined> = {
		connections: num(/(\d+) connection\(s\)/),
		dropped: num(/(\d+) dropped/),
		stalled: num(/(\d+) stalled/),
		budgetWaits: num(/(\d+) budget wait/),
		passedOn: num(/(\d+) item\(s\) passed on/),
		repeatsDropped: num(/(\d+) repeat\(s\) dropped/),
		malformed: num(/(\d+) malformed/),
		repaired: num(/malformed \((\d+) recovered\)/),
		gapSearches: num(/(\d+) gap search/),
	};
	return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Record<
		string,
		number
	>;
}
