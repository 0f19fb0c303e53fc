/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * Part 3 — end to end in a real n8n (the pinned version, this package installed as a community
 * package), against the recipe users build today: n8n's own HTTP Request node with its built-in
 * cursor pagination, then Split Out on `data` (so that both sides end with one item per mention).
 *
 * - Export: the node's Mention → Export (historical, Return All, Simplify off) of N mentions vs the
 *   recipe paging the historical search for the same N mentions (N/25 requests).
 * - Search: the node's Search Historical, Return All (Simplify off) of N mentions vs the same recipe.
 *
 * Same n8n, same simulator (limits off, the same latency before every answer), the same request
 * body, the same mentions in the same order (checked: item count and a hash of the ids in order),
 * the same number of search requests for the search case (checked in the simulator's log).
 *
 * Each execution is its own `n8n execute --id` process in a fresh copy of one prepared user folder
 * (same database, credentials and workflows every time), the cases in rotating order. Readings
 * (bench/n8n-probe.js, preloaded into n8n): the execution's own duration (n8n's startedAt →
 * stoppedAt, what the executions list shows); the n8n process's peak RSS (kernel high-water mark,
 * VmHWM) when the execution has finished and its data is saved; RSS when the run started (the
 * booted n8n); the whole process tree's RSS sampled every 100 ms (n8n + its task runner) and the
 * process's wall time from spawn to exit.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { admin, type Sim } from '../test/support/simulator';
import {
	cpuMonitor,
	log,
	ROOT,
	runChild,
	sampleTree,
	simulator,
	stat,
	type Quiet,
	type Stat,
} from './lib';

/* eslint-disable @typescript-eslint/no-require-imports */
const n8nHost = {
	...(require('../scripts/n8n/lines.js') as { N8N_VERSION: string }),
	...(require('../scripts/n8n/install.js') as {
		ensureN8n(): { dir: string; bin: string; installed: boolean };
		installPackage(userFolder: string): string;
	}),
	...(require('../scripts/n8n/run.js') as {
		freePort(): Promise<number>;
		n8nEnv(userFolder: string, port: number, extra?: Record<string, string>): NodeJS.ProcessEnv;
	}),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export const N8N_VERSION = n8nHost.N8N_VERSION;

const ENTERPRISE = 'SENTIONE-APIKEY-enterprise-demo';
const PROJECT = 1001;
const BODY = { filters: {}, sortType: 'PublishedAtDescending' };

export const CASE_NAMES = [
	'baseline',
	'nodeExport',
	'recipeExport',
	'nodeSearch',
	'recipeSearch',
] as const;
export type CaseName = (typeof CASE_NAMES)[number];

interface CaseDef {
	name: CaseName;
	workflowId: string;
	sim: 'export' | 'search' | 'none';
	/** the node whose output is the result */
	resultNode?: string;
	/** API requests expected in the simulator's log */
	requests?: number;
}

export interface ProbeRun {
	startedAt: number;
	stoppedAt: number;
	finishedAt: number;
	status: string;
	error?: string;
	executed?: { at: number; VmHWM: number; VmRSS: number; heapUsed: number };
	VmHWM: number;
	VmRSS: number;
	heapUsed: number;
	nodes: Record<
		string,
		{ items: number; mentionIds: number; idsHash: string; executionTimeMs?: number; error?: string }
	>;
}

export interface CaseRun {
	executionMs: number;
	/** startedAt → readings taken (after the run data was saved) */
	finishedMs: number;
	wallMs: number;
	peakRss: number;
	/** peak RSS when the workflow had run, before n8n saved its data */
	peakRssExecution: number;
	rssAtStart: number;
	peakRssWholeProcess: number;
	treePeak: number;
	treeProcesses: number;
	heapUsedAtEnd: number;
	requests: number;
	items: number;
	idsHash: string;
	/** how the n8n process ended */
	exit: string;
	/** cores other processes used just before / during the execution */
	otherCoresBefore: number;
	otherCoresDuring: number;
	load1: number;
}

export interface CaseResult {
	name: CaseName;
	runs: CaseRun[];
	executionMs: Stat;
	finishedMs: Stat;
	wallMs: Stat;
	peakRss: Stat;
	peakRssExecution: Stat;
	rssAtStart: Stat;
	aboveStart: Stat;
	treePeak: Stat;
	peakRssWholeProcess: Stat;
	requests: Stat;
	otherCoresDuring: Stat;
	load1: Stat;
	items: number;
	idsHash: string;
}

export interface E2EResult {
	latencyMs: number;
	exportMentions: number;
	searchMentions: number;
	runs: number;
	/** executions run again because other processes were busy meanwhile */
	repeatedExecutions: number;
	cases: Record<CaseName, CaseResult>;
	workflows: Record<string, unknown>;
}

function manualTrigger() {
	return {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

function nodeWorkflow(id: string, operation: 'export' | 'searchHistorical', credentialId: string) {
	const parameters: Record<string, unknown> = {
		resource: 'mention',
		operation,
		project: { __rl: true, mode: 'id', value: String(PROJECT) },
		returnAll: true,
		filters: {},
		sortType: BODY.sortType,
		simplify: false,
		options: {},
	};
	if (operation === 'export') parameters.exportScope = 'historical';
	return {
		id,
		name: `bench: SentiOne node, ${operation}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			manualTrigger(),
			{
				id: 'sentione',
				name: 'SentiOne',
				type: 'n8n-nodes-sentione.sentiOne',
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: { sentiOneApi: { id: credentialId, name: credentialId } },
			},
		],
		connections: { Start: { main: [[{ node: 'SentiOne', type: 'main', index: 0 }]] } },
	};
}

/** The HTTP Request recipe: POST the search, cursor pagination, then one item per mention. */
function recipeWorkflow(id: string, base: string) {
	return {
		id,
		name: 'bench: HTTP Request recipe (cursor pagination) + Split Out',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			manualTrigger(),
			{
				id: 'http',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.5,
				position: [220, 0],
				parameters: {
					method: 'POST',
					url: `${base}/api/public/v2/projects/${PROJECT}/mentions/search`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify(BODY),
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [
										{ type: 'qs', name: 'cursor', value: '={{ $response.body.cursor }}' },
									],
								},
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !$response.body.cursor }}',
							},
						},
					},
				},
				credentials: {
					httpHeaderAuth: { id: 'credHeader', name: 'SentiOne key (X-API-KEY header)' },
				},
			},
			{
				id: 'split',
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [440, 0],
				parameters: { fieldToSplitOut: 'data', options: {} },
			},
		],
		connections: {
			Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
			'HTTP Request': { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
		},
	};
}

function baselineWorkflow() {
	return {
		id: 'benchBaseline',
		name: 'bench: manual trigger only',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [manualTrigger()],
		connections: {},
	};
}

async function n8nCli(args: string[], userFolder: string, timeoutMs: number) {
	const { bin } = n8nHost.ensureN8n();
	const env = n8nHost.n8nEnv(userFolder, await n8nHost.freePort(), {
		N8N_RUNNERS_BROKER_PORT: String(await n8nHost.freePort()),
	});
	const r = await runChild(process.execPath, [bin, ...args], { env, timeoutMs });
	if (r.code !== 0)
		throw new Error(
			`n8n ${args.join(' ')} failed (${r.code ?? r.signal}):\n${r.stderr.slice(-3000)}\n${r.stdout.slice(-2000)}`,
		);
	return r;
}

/** One user folder with the package, the credentials and the workflows, copied for every execution. */
async function prepareTemplate(
	exportSim: Sim,
	searchSim: Sim,
	workflows: unknown[],
): Promise<string> {
	const folder = mkdtempSync(join(tmpdir(), 'sentione-bench-n8n-'));
	n8nHost.installPackage(folder);
	const credentials = [
		{
			id: 'credExport',
			name: 'credExport',
			type: 'sentiOneApi',
			data: { apiKey: ENTERPRISE, baseUrl: exportSim.base },
		},
		{
			id: 'credSearch',
			name: 'credSearch',
			type: 'sentiOneApi',
			data: { apiKey: ENTERPRISE, baseUrl: searchSim.base },
		},
		{
			id: 'credHeader',
			name: 'SentiOne key (X-API-KEY header)',
			type: 'httpHeaderAuth',
			data: { name: 'X-API-KEY', value: ENTERPRISE },
		},
	];
	writeFileSync(join(folder, 'credentials.json'), JSON.stringify(credentials));
	writeFileSync(join(folder, 'workflows.json'), JSON.stringify(workflows));
	await n8nCli(
		['import:credentials', `--input=${join(folder, 'credentials.json')}`],
		folder,
		300_000,
	);
	await n8nCli(['import:workflow', `--input=${join(folder, 'workflows.json')}`], folder, 300_000);
	return folder;
}

function readProbe(prefix: string): {
	run?: ProbeRun;
	start?: { VmRSS: number; VmHWM: number };
	exits: Array<{ pid: number; maxRssBytes: number; argv: string[] }>;
} {
	const dir = join(prefix, '..');
	const base = prefix.slice(dir.length + 1);
	const files = readdirSync(dir).filter((f) => f.startsWith(`${base}.`));
	const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;
	return {
		run: files.includes(`${base}.run.json`) ? (read(`${base}.run.json`) as ProbeRun) : undefined,
		start: files.includes(`${base}.start.json`)
			? (read(`${base}.start.json`) as { VmRSS: number; VmHWM: number })
			: undefined,
		exits: files
			.filter((f) => f.includes('.exit-'))
			.map((f) => read(f) as { pid: number; maxRssBytes: number; argv: string[] }),
	};
}

async function executeOnce(
	template: string,
	def: CaseDef,
	sims: Record<'export' | 'search', Sim>,
	timeoutMs: number,
	quiet: Quiet | undefined,
): Promise<CaseRun> {
	const folder = mkdtempSync(join(tmpdir(), 'sentione-bench-run-'));
	try {
		cpSync(join(template, '.n8n'), join(folder, '.n8n'), { recursive: true });
		const sim = def.sim === 'none' ? undefined : sims[def.sim];
		if (sim) await admin(sim, 'DELETE', '/requests');
		const { bin } = n8nHost.ensureN8n();
		const probe = join(folder, 'probe');
		const env = {
			...n8nHost.n8nEnv(folder, await n8nHost.freePort(), {
				N8N_RUNNERS_BROKER_PORT: String(await n8nHost.freePort()),
			}),
			NODE_OPTIONS:
				`${process.env.NODE_OPTIONS ?? ''} --require ${join(ROOT, 'bench', 'n8n-probe.js')}`.trim(),
			BENCH_PROBE_OUT: probe,
		};
		let sampler: ReturnType<typeof sampleTree> | undefined;
		const others = cpuMonitor();
		const result = await runChild(
			process.execPath,
			[bin, 'execute', `--id=${def.workflowId}`, '--rawOutput'],
			{
				env,
				timeoutMs,
				onSpawn: (child) => {
					if (child.pid !== undefined) sampler = sampleTree(child.pid, 100);
				},
			},
		);
		const tree = sampler?.stop() ?? { peakBytes: 0, processes: 0, samples: 0 };
		const otherCoresDuring = others.stop();
		const readings = readProbe(probe);
		const run = readings.run;
		if (!run)
			throw new Error(
				`${def.name}: n8n gave no reading (exit ${result.code ?? result.signal}):\n${result.stderr.slice(-3000)}`,
			);
		if (run.status !== 'success' || run.error)
			throw new Error(
				`${def.name}: the execution failed: ${run.error ?? run.status}\n${JSON.stringify(run.nodes)}`,
			);
		// n8n 2.41.1's `execute` sometimes dies of SIGSEGV while it shuts down, after the execution
		// finished and its readings were taken; that is recorded, not taken for a failed run.
		if (result.code !== 0 && result.signal === null)
			throw new Error(
				`${def.name}: n8n execute exited with ${result.code}:\n${result.stderr.slice(-3000)}`,
			);
		const mainExit = readings.exits.find((e) => e.argv.some((a) => a === 'execute'));
		const out = def.resultNode ? run.nodes[def.resultNode] : undefined;
		const requests = sim
			? (
					await admin<{ requests: Array<{ path: string; status: number | null }> }>(
						sim,
						'GET',
						'/requests',
					)
				).requests.length
			: 0;
		return {
			executionMs: run.stoppedAt - run.startedAt,
			finishedMs: run.finishedAt - run.startedAt,
			wallMs: result.wallMs,
			peakRss: run.VmHWM,
			peakRssExecution: run.executed?.VmHWM ?? NaN,
			rssAtStart: readings.start?.VmRSS ?? NaN,
			peakRssWholeProcess: mainExit?.maxRssBytes ?? NaN,
			treePeak: tree.peakBytes,
			treeProcesses: tree.processes,
			heapUsedAtEnd: run.heapUsed,
			requests,
			items: out?.items ?? 0,
			idsHash: out?.idsHash ?? '',
			exit: result.signal ?? `code ${result.code}`,
			otherCoresBefore: quiet?.otherCores ?? NaN,
			otherCoresDuring,
			load1: quiet?.load[0] ?? NaN,
		};
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

function summarise(name: CaseName, runs: CaseRun[]): CaseResult {
	return {
		name,
		runs,
		executionMs: stat(runs.map((r) => r.executionMs)),
		finishedMs: stat(runs.map((r) => r.finishedMs)),
		wallMs: stat(runs.map((r) => r.wallMs)),
		peakRss: stat(runs.map((r) => r.peakRss)),
		peakRssExecution: stat(runs.map((r) => r.peakRssExecution)),
		rssAtStart: stat(runs.map((r) => r.rssAtStart)),
		aboveStart: stat(runs.map((r) => r.peakRss - r.rssAtStart)),
		treePeak: stat(runs.map((r) => r.treePeak)),
		peakRssWholeProcess: stat(runs.map((r) => r.peakRssWholeProcess)),
		requests: stat(runs.map((r) => r.requests)),
		otherCoresDuring: stat(runs.map((r) => r.otherCoresDuring)),
		load1: stat(runs.map((r) => r.load1)),
		items: runs[0]?.items ?? 0,
		idsHash: runs[0]?.idsHash ?? '',
	};
}

export async function measureEndToEnd(options: {
	latencyMs: number;
	runs: number;
	exportMentions: number;
	searchMentions: number;
	/** only these workflows (default: all five) */
	cases?: CaseName[];
	/** called before every execution: waits for a quiet machine, returns its state */
	beforeEach?: (what: string) => Promise<Quiet>;
}): Promise<E2EResult> {
	const { dir } = n8nHost.ensureN8n();
	log(`e2e: n8n ${N8N_VERSION} in ${dir}`);
	const flags = (mentions: number) => [
		'--projects',
		'1',
		'--mentions',
		String(mentions),
		'--limits',
		'off',
		'--latency-ms',
		String(options.latencyMs),
	];
	log(
		`e2e: simulators with ${options.exportMentions} and ${options.searchMentions} mentions, ${options.latencyMs} ms latency`,
	);
	const exportSim = await simulator(flags(options.exportMentions));
	const searchSim = await simulator(flags(options.searchMentions));
	const sims = { export: exportSim, search: searchSim };
	const workflows = [
		baselineWorkflow(),
		nodeWorkflow('benchNodeExport', 'export', 'credExport'),
		recipeWorkflow('benchRecipeExport', exportSim.base),
		nodeWorkflow('benchNodeSearch', 'searchHistorical', 'credSearch'),
		recipeWorkflow('benchRecipeSearch', searchSim.base),
	];
	const pages = (n: number) => Math.max(1, Math.ceil(n / 25));
	const allDefs: CaseDef[] = [
		{ name: 'baseline', workflowId: 'benchBaseline', sim: 'none' },
		{
			name: 'nodeExport',
			workflowId: 'benchNodeExport',
			sim: 'export',
			resultNode: 'SentiOne',
			requests: 1,
		},
		{
			name: 'recipeExport',
			workflowId: 'benchRecipeExport',
			sim: 'export',
			resultNode: 'Split Out',
			requests: pages(options.exportMentions),
		},
		{
			name: 'nodeSearch',
			workflowId: 'benchNodeSearch',
			sim: 'search',
			resultNode: 'SentiOne',
			requests: pages(options.searchMentions),
		},
		{
			name: 'recipeSearch',
			workflowId: 'benchRecipeSearch',
			sim: 'search',
			resultNode: 'Split Out',
			requests: pages(options.searchMentions),
		},
	];
	const defs = allDefs.filter((d) => !options.cases || options.cases.includes(d.name));
	const template = await prepareTemplate(exportSim, searchSim, workflows);
	const runs = new Map<CaseName, CaseRun[]>(defs.map((d) => [d.name, []]));
	let repeated = 0;
	try {
		for (let r = 0; r < options.runs; r++) {
			for (let k = 0; k < defs.length; k++) {
				const def = defs[(k + r) % defs.length];
				const timeoutMs =
					180_000 +
					(def.requests ?? 1) * (options.latencyMs + 250) +
					(def.sim === 'export' ? options.exportMentions : 0);
				// an execution during which other processes kept more than half a core busy is run
				// again (twice at most), unless it is a long one whose time is mostly waiting
				const retries = (def.requests ?? 1) * options.latencyMs < 60_000 ? 2 : 0;
				let one: CaseRun;
				for (let attempt = 0; ; attempt++) {
					const quiet = await options.beforeEach?.(`e2e ${def.name}`);
					one = await executeOnce(template, def, sims, timeoutMs, quiet);
					if (one.otherCoresDuring <= 0.5 || attempt >= retries) break;
					repeated++;
					log(
						`e2e ${def.name}: other processes used ${one.otherCoresDuring.toFixed(2)} cores meanwhile; measuring again`,
					);
				}
				if (def.requests !== undefined && one.requests !== def.requests) {
					throw new Error(`${def.name}: ${one.requests} API requests, expected ${def.requests}`);
				}
				const expected =
					def.sim === 'export'
						? options.exportMentions
						: def.sim === 'search'
							? options.searchMentions
							: 0;
				if (def.resultNode && one.items !== expected)
					throw new Error(`${def.name}: ${one.items} items, expected ${expected}`);
				runs.get(def.name)!.push(one);
				log(
					`e2e run ${r + 1}/${options.runs} ${def.name}: execution ${one.executionMs} ms, wall ${one.wallMs} ms, peak RSS ${Math.round(one.peakRss / 2 ** 20)} MiB (${Math.round(one.peakRssExecution / 2 ** 20)} MiB before saving; start ${Math.round(one.rssAtStart / 2 ** 20)} MiB), tree ${Math.round(one.treePeak / 2 ** 20)} MiB, ${one.requests} requests, ${one.items} items; other processes ${one.otherCoresDuring.toFixed(2)} cores; exit ${one.exit}`,
				);
			}
		}
	} finally {
		rmSync(template, { recursive: true, force: true });
		await exportSim.stop();
		await searchSim.stop();
	}
	const cases = Object.fromEntries(
		defs.map((d) => [d.name, summarise(d.name, runs.get(d.name)!)]),
	) as Record<CaseName, CaseResult>;
	for (const [a, b] of [
		['nodeExport', 'recipeExport'],
		['nodeSearch', 'recipeSearch'],
	] as const) {
		if (!cases[a] || !cases[b]) continue;
		if (cases[a].idsHash !== cases[b].idsHash)
			throw new Error(
				`${a} and ${b} returned different mentions (${cases[a].idsHash} vs ${cases[b].idsHash})`,
			);
		for (const run of [...cases[a].runs, ...cases[b].runs]) {
			if (run.idsHash !== cases[a].idsHash)
				throw new Error(`${a}/${b}: a run returned other mentions`);
		}
	}
	return {
		latencyMs: options.latencyMs,
		exportMentions: options.exportMentions,
		searchMentions: options.searchMentions,
		runs: options.runs,
		repeatedExecutions: repeated,
		cases,
		workflows: Object.fromEntries(workflows.map((w) => [w.id, w])),
	};
}
