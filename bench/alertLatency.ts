/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * Alert latency in a real n8n (issue 22): from a mention collected by the simulator to the start of
 * the execution that carries it (n8n's own `startedAt`), for the SentiOne Stream Trigger (New
 * Mention) and for the SentiOne Trigger on its defaults (Poll Times as n8n sets a new polling node:
 * every minute; Search Requests per Hour 12, so a check every 5 minutes; Late Mention Window 10).
 *
 * - **Stream**: n8n and the simulator on the machine's clock (the simulator's running clock,
 *   its offset from the machine's measured and taken out); mentions collected one at a time,
 *   0.2–0.8 s apart.
 * - **Poll**: a check every 5 minutes is 5 minutes of waiting per sample, so n8n and the simulator
 *   run on the same sped-up clock (test/support/n8n/timeLapse.js, as test/e2e/budget.test.ts does):
 *   ×10, so n8n's "every minute" fires every 6 real seconds. Latency is read on that clock; n8n's
 *   own work between a check and the execution's start counts 10 times (it runs in real time), so
 *   the figure is an upper bound.
 */
import {
	admin,
	clockNow,
	openLiveStreams,
	startSim,
	type Loose,
	type Sim,
} from '../test/support/simulator';
import { createHost, ensureN8n, type Host, type RunningN8n } from '../test/support/n8n/host';
import {
	CREDENTIALS,
	idsFrom,
	project,
	sentiOneCredentials,
	triggerThenDone,
} from '../test/support/n8n/workflows';
import { sleep, until } from '../test/support/wait';
import { type SavedWorkflowJson } from '../test/support/workflowJson';
import { timeLapse } from '../test/support/n8n/lapse';
import { log } from './lib';

export interface LatencyFigure {
	trigger: 'stream' | 'poll';
	samples: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
	minMs: number;
	/** the clock latency is read on: 1 (the machine's) or the time-lapse factor */
	clockFactor: number;
	/** simulated minutes the run covered */
	simulatedMinutes: number;
	executions: number;
	note: string;
}

export interface LatencyResult {
	n8n: string;
	figures: LatencyFigure[];
}

const PROJECT = 1001;
const TRIGGER_NAME = 'SentiOne Trigger';

function percentile(sorted: number[], p: number): number {
	// nearest rank
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[rank - 1];
}

function triggerWorkflow(id: string, kind: 'stream' | 'poll'): SavedWorkflowJson {
	return triggerThenDone(
		id,
		`alert latency (${kind})`,
		{
			name: TRIGGER_NAME,
			kind,
			// Poll Times not set: n8n's default for a polling node (every minute); every option at its default
			parameters:
				kind === 'stream'
					? { event: 'newMention', project: project(PROJECT), filters: {}, options: {} }
					: {
							event: 'newMention',
							project: project(PROJECT),
							source: 'recent',
							startFrom: 'now',
							filters: {},
							options: {},
						},
			credential: CREDENTIALS.basic,
		},
		{ versionId: idsFrom(id, 3), instanceId: 'bench' },
	);
}

/** Each passed-on mention's id → the start of the execution that carried it (ms on n8n's clock). */
async function startsById(n8n: RunningN8n, workflowId: string): Promise<Map<string, number>> {
	const out = new Map<string, number>();
	let executions = 0;
	for (const summary of await allExecutions(n8n, workflowId)) {
		executions++;
		const execution = await n8n.execution(String(summary.id));
		const started = Date.parse(summary.startedAt);
		for (const run of execution.data?.resultData.runData[TRIGGER_NAME] ?? [])
			for (const item of run.data?.main?.[0] ?? []) {
				const id = String((item.json as Loose).id);
				if (out.has(id)) throw new Error(`mention ${id} passed on twice`);
				out.set(id, started);
			}
	}
	log(`alert latency: ${executions} executions read`);
	return out;
}

/** Every execution of a workflow (the REST list pages by 100, newest first, with a cursor). */
async function allExecutions(
	n8n: RunningN8n,
	workflowId: string,
): Promise<Array<{ id: string; startedAt: string }>> {
	const out: Array<{ id: string; startedAt: string }> = [];
	let cursor: string | null | undefined;
	for (;;) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const r = await n8n.rest<{
			data: { results: Array<{ id: string; startedAt: string }>; nextCursor?: string | null };
		}>(
			'GET',
			`/executions?filter=${filter}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		if (r.status !== 200)
			throw new Error(`GET /executions → ${r.status}: ${JSON.stringify(r.json)}`);
		out.push(...r.json.data.results);
		cursor = r.json.data.nextCursor;
		if (!cursor || r.json.data.results.length === 0) return out;
	}
}

function figure(
	trigger: 'stream' | 'poll',
	collected: Map<string, number>,
	starts: Map<string, number>,
	extra: Pick<LatencyFigure, 'clockFactor' | 'simulatedMinutes' | 'note'>,
): LatencyFigure {
	const missing = [...collected.keys()].filter((id) => !starts.has(id));
	if (missing.length > 0)
		throw new Error(
			`${missing.length} mention(s) never started an execution: ${missing.slice(0, 3).join(', ')}`,
		);
	const latencies = [...collected].map(([id, at]) => starts.get(id)! - at).sort((a, b) => a - b);
	return {
		trigger,
		samples: latencies.length,
		p50Ms: percentile(latencies, 50),
		p99Ms: percentile(latencies, 99),
		maxMs: latencies[latencies.length - 1],
		minMs: latencies[0],
		executions: new Set([...collected.keys()].map((id) => starts.get(id))).size,
		...extra,
	};
}

async function withN8n<T>(
	env: Record<string, string>,
	simEnv: Record<string, string>,
	body: (sim: Sim, n8n: RunningN8n) => Promise<T>,
): Promise<T> {
	let sim: Sim | undefined;
	let host: Host | undefined;
	let n8n: RunningN8n | undefined;
	try {
		sim = await startSim(['--projects', '1', '--mentions', '0', '--seed', '22'], {
			clock: 'running',
			now: null,
			env: { ...process.env, ...simEnv },
		});
		host = await createHost();
		n8n = await host.start(env);
		await n8n.createCredentials(sentiOneCredentials(sim.base));
		return await body(sim, n8n);
	} finally {
		await n8n?.stop();
		await sim?.stop();
		host?.dispose();
	}
}

const inject = async (sim: Sim) =>
	(await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', { projectId: PROJECT, count: 1 }))
		.mentions[0];

export async function streamLatency(samples: number): Promise<LatencyFigure> {
	return withN8n({}, {}, async (sim, n8n) => {
		const w = triggerWorkflow('benchLatencyLive', 'stream');
		await n8n.createWorkflows([w]);
		const published = await n8n.activate(w.id);
		if (published.status !== 200) throw new Error(`publishing → ${published.status}`);
		await until(async () => (await openLiveStreams(sim)) === 1, {
			what: 'the live stream to open',
			timeoutMs: 120_000,
			stepMs: 250,
		});
		// the simulator's running clock against the machine's (n8n's): measured around a /health call
		const offsets: number[] = [];
		for (let i = 0; i < 5; i++) {
			const before = Date.now();
			const now = await clockNow(sim);
			offsets.push(now - (before + Date.now()) / 2);
		}
		const offset = offsets.sort((a, b) => a - b)[2];
		// warm up: a few executions first (n8n's first runs load code)
		for (let i = 0; i < 5; i++) {
			await inject(sim);
			await sleep(500);
		}
		await sleep(3000);
		const warm = new Set((await allExecutions(n8n, w.id)).map((e) => e.id));
		const collected = new Map<string, number>();
		const t0 = Date.now();
		for (let i = 0; i < samples; i++) {
			const m = await inject(sim);
			collected.set(String(m.id), Date.parse(String(m.collectedAt)) - offset);
			await sleep(200 + Math.random() * 600);
		}
		await until(async () => (await allExecutions(n8n, w.id)).length >= warm.size + samples, {
			what: 'an execution for every mention',
			timeoutMs: 120_000,
			stepMs: 1000,
		});
		const starts = await startsById(n8n, w.id);
		return figure('stream', collected, starts, {
			clockFactor: 1,
			simulatedMinutes: Math.round((Date.now() - t0) / 6000) / 10,
			note: `the machine's clock; the simulator's running clock was ${Math.round(offset)} ms off it (measured, taken out); a mention every 0.2–0.8 s, one execution each`,
		});
	});
}

export async function pollLatency(simulatedMinutes: number, factor = 10): Promise<LatencyFigure> {
	const realOrigin = Date.now();
	const lapse = { realOrigin, fakeOrigin: realOrigin, factor };
	const { now, env: lapseEnv } = timeLapse(lapse);
	return withN8n(lapseEnv, lapseEnv, async (sim, n8n) => {
		if (!n8n.output().includes(`[time-lapse] clock ×${factor}`))
			throw new Error(`n8n did not start with the time lapse:\n${n8n.output().slice(-2000)}`);
		const w = triggerWorkflow('benchLatencyPoll', 'poll');
		await n8n.createWorkflows([w]);
		const published = await n8n.activate(w.id);
		if (published.status !== 200) throw new Error(`publishing → ${published.status}`);
		// activation: the trigger's first check notes where it starts
		await until(
			async () =>
				(await admin<{ requests: Array<{ path: string }> }>(sim, 'GET', '/requests')).requests.some(
					(r) => r.path.includes('/search'),
				),
			{ what: "the poll trigger's first check", timeoutMs: 180_000, stepMs: 200 },
		);
		const collected = new Map<string, number>();
		const from = now();
		// mentions at random instants, 20–70 simulated seconds apart
		while (now() < from + simulatedMinutes * 60_000) {
			const m = await inject(sim);
			collected.set(String(m.id), Date.parse(String(m.collectedAt)));
			await sleep((20_000 + Math.random() * 50_000) / factor);
		}
		// the last one's check, at most one spacing (5 minutes and its jitter) later
		await until(
			async () => {
				const starts = await startsById(n8n, w.id);
				return [...collected.keys()].every((id) => starts.has(id)) ? starts : undefined;
			},
			{ what: 'every mention passed on', timeoutMs: (12 * 60_000) / factor + 60_000, stepMs: 5000 },
		);
		const starts = await startsById(n8n, w.id);
		return figure('poll', collected, starts, {
			clockFactor: factor,
			simulatedMinutes,
			note: `n8n and the simulator on one clock ×${factor} (timeLapse.js): n8n's work between a check and the execution's start counts ×${factor}; a mention every 20–70 simulated s`,
		});
	});
}

export async function measureLatency(o: {
	streamSamples: number;
	pollMinutes: number;
}): Promise<LatencyResult> {
	ensureN8n();
	const figures: LatencyFigure[] = [];
	log(`alert latency: Stream Trigger, ${o.streamSamples} mentions`);
	figures.push(await streamLatency(o.streamSamples));
	log(`alert latency: poll trigger, ${o.pollMinutes} simulated minutes`);
	figures.push(await pollLatency(o.pollMinutes));
	for (const f of figures)
		log(`alert latency (${f.trigger}): p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.samples} samples`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { N8N_VERSION } = require('../test/support/n8n/host') as { N8N_VERSION: string };
	return { n8n: N8N_VERSION, figures };
}
