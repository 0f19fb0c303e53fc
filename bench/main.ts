/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * `npm run bench` — every figure of bench/README.md in one run, on one machine, written to
 * bench/results.md (and bench/results.json). Exits 1 when a ratio misses its target, 2 when the
 * benchmark itself failed. See bench/README.md for the flags and what each part measures.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { measureBudget, type BudgetResult } from './budget';
import type { DecodeResult } from './decode';
import { CASE_NAMES, measureEndToEnd, N8N_VERSION, type CaseName, type E2EResult } from './e2e';
import {
	cleanupAll,
	load,
	log,
	machine,
	ROOT,
	runMain,
	runChild,
	simulator,
	waitForQuiet,
	type Machine,
	type Quiet,
} from './lib';
import { writeReport, type Check, type PartState } from './report';
import { measureTriggers, type TriggerResult } from './triggers';

const PARTS = ['budget', 'triggers', 'decode', 'e2e'] as const;
type Part = (typeof PARTS)[number];

interface Options {
	latencyMs: number;
	runs: number;
	decodeRuns: number;
	quick: boolean;
	only: Part[];
	out: string;
	maxOtherCores: number;
	maxWaitS: number;
	exportMentions: number;
	searchMentions: number;
	decodeMentions: number;
	budgetSizes: number[];
	e2eCases?: CaseName[];
	reportFrom?: string;
}

const USAGE = `Usage: npm run bench -- [flags]
  --latency-ms <n>      simulator delay before every API answer in the end-to-end part (default 50)
  --runs <n>            runs of every end-to-end, budget and trigger figure (default 3)
  --decode-runs <n>     timed passes of every decoder (default 15)
  --quick               small sizes and 1 run, to try the benchmark (results go to a temp file)
  --only <parts>        comma-separated: budget,triggers,decode,e2e (results go to a temp file)
  --out <file>          where to write the report (default bench/results.md for a full run)
  --max-other-cores <x> wait before each measurement until other processes use at most x cores (default 0.3)
  --max-wait-s <n>      longest such wait, then measure anyway and record the load (default 1200)
  --export-mentions <n> mentions of the export comparison (default 100000)
  --search-mentions <n> mentions of the search comparison (default 10000)
  --decode-mentions <n> mentions of the decoding benchmark (default 100000)
  --e2e-cases <list>    only these end-to-end workflows: baseline,nodeExport,recipeExport,nodeSearch,recipeSearch
  --report-from <json>  write the report again from a results .json (no measuring; --out sets the file)`;

type NumberOption =
	| 'latencyMs'
	| 'runs'
	| 'decodeRuns'
	| 'maxOtherCores'
	| 'maxWaitS'
	| 'exportMentions'
	| 'searchMentions'
	| 'decodeMentions';

/** Flags that take a number: the option each sets, the least value allowed, whether it must be whole */
const NUMBER_FLAGS = new Map<string, [NumberOption, number, boolean]>([
	['--latency-ms', ['latencyMs', 0, true]],
	['--runs', ['runs', 1, true]],
	['--decode-runs', ['decodeRuns', 1, true]],
	['--max-other-cores', ['maxOtherCores', 0, false]],
	['--max-wait-s', ['maxWaitS', 0, true]],
	['--export-mentions', ['exportMentions', 1, true]],
	['--search-mentions', ['searchMentions', 1, true]],
	['--decode-mentions', ['decodeMentions', 1, true]],
]);

function parse(argv: string[]): Options {
	const o: Options = {
		latencyMs: 50,
		runs: 3,
		decodeRuns: 15,
		quick: false,
		only: [...PARTS],
		out: '',
		maxOtherCores: 0.3,
		maxWaitS: 1200,
		exportMentions: 100_000,
		searchMentions: 10_000,
		decodeMentions: 100_000,
		budgetSizes: [1, 25, 26, 1000, 10_000],
	};
	const set = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => {
			const v = argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
			return v;
		};
		/** the values of a comma-separated list, each one of `allowed` */
		const list = <T extends string>(allowed: readonly T[]): T[] => {
			const items = value()
				.split(',')
				.map((p) => p.trim());
			for (const item of items)
				if (!(allowed as readonly string[]).includes(item))
					throw new Error(
						`${flag}: unknown value ${item} (expected ${allowed.join(', ')})\n${USAGE}`,
					);
			return items as T[];
		};
		set.add(flag);
		const numeric = NUMBER_FLAGS.get(flag);
		if (numeric) {
			const [key, min, integer] = numeric;
			const v = Number(value());
			if (!(integer ? Number.isInteger(v) : Number.isFinite(v)) || v < min)
				throw new Error(
					`${flag} expects ${integer ? 'an integer' : 'a number'} ≥ ${min}\n${USAGE}`,
				);
			o[key] = v;
			continue;
		}
		switch (flag) {
			case '--quick':
				o.quick = true;
				break;
			case '--only':
				o.only = list(PARTS);
				break;
			case '--out':
				o.out = value();
				break;
			case '--report-from':
				o.reportFrom = value();
				break;
			case '--e2e-cases':
				o.e2eCases = list(CASE_NAMES);
				break;
			case '--help':
			case '-h':
				process.stdout.write(`${USAGE}\n`);
				process.exit(0);
				break;
			default:
				throw new Error(`unknown flag ${flag}\n${USAGE}`);
		}
	}
	if (o.quick) {
		if (!set.has('--runs')) o.runs = 1;
		if (!set.has('--decode-runs')) o.decodeRuns = 3;
		if (!set.has('--export-mentions')) o.exportMentions = 5000;
		if (!set.has('--search-mentions')) o.searchMentions = 1000;
		if (!set.has('--decode-mentions')) o.decodeMentions = 10_000;
		o.budgetSizes = [1, 25, 26, 1000];
		if (!set.has('--max-wait-s')) o.maxWaitS = 0;
	}
	const full = !o.quick && o.only.length === PARTS.length && !o.e2eCases && !o.reportFrom;
	if (!o.out)
		o.out = full ? join(ROOT, 'bench', 'results.md') : join(tmpdir(), 'sentione-bench-results.md');
	return o;
}

interface Saved {
	command: string;
	started: string;
	finished?: string;
	machine?: Machine;
	options: Options;
	state: Partial<Record<Part, PartState>>;
	budget?: BudgetResult;
	triggers?: TriggerResult;
	decode?: DecodeResult;
	e2e?: E2EResult;
}

function report(out: string, saved: Saved, finished: Date): number {
	const checks: Check[] = writeReport({
		out,
		command: saved.command,
		started: new Date(saved.started),
		finished,
		machine: saved.machine ?? machine(N8N_VERSION),
		options: saved.options,
		state: saved.state,
		budget: saved.budget,
		triggers: saved.triggers,
		decode: saved.decode,
		e2e: saved.e2e,
	});
	// the report's own path is kept relative to the repository: the raw file carries no machine path
	const options = { ...saved.options, out: relative(ROOT, saved.options.out) || saved.options.out };
	writeFileSync(
		out.replace(/\.md$/, '') + '.json',
		`${JSON.stringify({ ...saved, options, finished, checks }, null, 1)}\n`,
	);
	for (const c of checks) log(`${c.ok ? 'met   ' : 'MISSED'} ${c.target}: ${c.measured}`);
	log(`report: ${out}`);
	const missed = checks.filter((c) => !c.ok);
	if (missed.length > 0) {
		log(`${missed.length} target(s) missed`);
		return 1;
	}
	return 0;
}

async function main(): Promise<number> {
	const argv = process.argv.slice(2);
	const options = parse(argv);
	if (options.reportFrom) {
		const saved = JSON.parse(readFileSync(options.reportFrom, 'utf8')) as Saved;
		return report(options.out, saved, new Date(saved.finished ?? saved.started));
	}
	const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
	const started = new Date();
	log(
		`${command}: parts ${options.only.join(', ')}; report → ${relative(process.cwd(), options.out) || options.out}`,
	);
	const state: Partial<Record<Part, PartState>> = {};
	const quiet = (what: string): Promise<Quiet> =>
		waitForQuiet(options.maxOtherCores, options.maxWaitS * 1000, what);
	const part = async <T>(name: Part, fn: () => Promise<T>): Promise<T | undefined> => {
		if (!options.only.includes(name)) return undefined;
		const before = await quiet(name);
		const t0 = Date.now();
		log(`${name}: start`);
		const value = await fn();
		state[name] = { before, seconds: Math.round((Date.now() - t0) / 1000), loadAfter: load() };
		log(`${name}: done in ${state[name].seconds} s`);
		return value;
	};

	const budget: BudgetResult | undefined = await part('budget', () =>
		measureBudget({ runs: options.runs, sizes: options.budgetSizes }),
	);
	const triggers: TriggerResult | undefined = await part('triggers', () =>
		measureTriggers({
			runs: options.runs,
			rates: options.quick ? [0, 60, 600, 1200] : [0, 12, 60, 300, 600, 1200],
			intervals: options.quick ? [5] : [5, 15],
		}),
	);
	const decode: DecodeResult | undefined = await part('decode', async () => {
		const sim = await simulator([
			'--projects',
			'1',
			'--mentions',
			String(options.decodeMentions),
			'--limits',
			'off',
		]);
		try {
			const r = await runChild(
				process.execPath,
				[
					'--expose-gc',
					'--max-old-space-size=8192',
					join(ROOT, 'bench', 'run.js'),
					'--worker',
					'decode',
					sim.base,
					String(options.decodeMentions),
					String(options.decodeRuns),
				],
				{ timeoutMs: 60 * 60_000 },
			);
			process.stderr.write(r.stderr);
			if (r.code !== 0) throw new Error(`the decoding benchmark failed (${r.code ?? r.signal})`);
			return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as DecodeResult;
		} finally {
			await sim.stop();
		}
	});
	const e2e: E2EResult | undefined = await part('e2e', () =>
		measureEndToEnd({
			latencyMs: options.latencyMs,
			runs: options.runs,
			exportMentions: options.exportMentions,
			searchMentions: options.searchMentions,
			cases: options.e2eCases,
			beforeEach: (what) => waitForQuiet(options.maxOtherCores, options.maxWaitS * 1000, what),
		}),
	);

	const saved: Saved = {
		command,
		started: started.toISOString(),
		machine: machine(N8N_VERSION),
		options,
		state,
		budget,
		triggers,
		decode,
		e2e,
	};
	return report(options.out, saved, new Date());
}

let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (exiting) return;
		exiting = true;
		log(`${signal}: stopping everything the benchmark started`);
		void cleanupAll().then(() => process.exit(130));
	});
}

runMain(main);
