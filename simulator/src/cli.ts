/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- simulator/test code: not shipped in the package */
// Entry point: `node simulator/src/cli.ts --port 4010 [flags]`. Prints exactly one line,
// `listening on http://127.0.0.1:<port>`, on stdout when ready; everything else goes to stderr.

import { rethrow } from './http.ts';
import { createSimulatorServer } from './server.ts';
import { State, type Options } from './state.ts';
import { parseDateTime } from './validate.ts';
import { SWITCH_KEYS, variantFromSpecs, variantTable, VariantError } from './variants.ts';

const USAGE = `Usage: node simulator/src/cli.ts [flags]
  --port <n>              port on 127.0.0.1 (0 = any free port; default 4010)
  --seed <n>              seed of the data and of fault randomness (default 1)
  --now <ISO>             start instant of the clock (default: real now)
  --clock running|frozen  running: advances with real time from --now (default); frozen: stands still
  --projects <n>          projects to generate (default 3)
  --mentions <n>          mentions per project (default 2000)
  --history-days <n>      published dates spread over this many days back (default 365)
  --limits spec|off       rate limits, stream concurrency and the monthly cap (default spec)
  --latency-ms <n>        delay before every API response (default 0)
  --error-rate <0..1>     share of API requests answered 503 (default 0)
  --heartbeat-ms <n>      heartbeat interval on streams (default 15000)
  --live-rate <n>         mentions collected per minute per project (default 0)
  --engagement-rate <n>   engagement updates per minute (default 0)
  --legacy-heartbeat      heartbeats in the legacy bare-string form
  --index-lag-ms <n>      newly collected mentions become searchable this long after collectedAt
  --variant <key=value,...>
                          a plausible alternative API (repeatable; see --help-variants); keys:
                          ${SWITCH_KEYS.join(', ')}, filters
  --no-admin              disable the /__admin API
  --verbose               request log on stderr
  --help                  this text
  --help-variants         the variant switches (Markdown table)`;

function fail(message: string): never {
	console.error(`simulator: ${message}\n${USAGE}`);
	process.exit(2);
}

export function parseArgs(argv: string[]): Options {
	const o: Options = {
		port: 4010,
		seed: 1,
		now: undefined,
		clock: 'running',
		projects: 3,
		mentions: 2000,
		historyDays: 365,
		limits: 'spec',
		latencyMs: 0,
		errorRate: 0,
		heartbeatMs: 15_000,
		liveRate: 0,
		engagementRate: 0,
		legacyHeartbeat: false,
		indexLagMs: 0,
		admin: true,
		verbose: false,
		variant: variantFromSpecs([]),
	};
	const variantSpecs: string[] = [];
	const num = (flag: string, v: string | undefined, min: number, max = Infinity): number => {
		const n = Number(v);
		if (v === undefined || v.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
			fail(`${flag} expects a number between ${min} and ${max}, got ${v ?? 'nothing'}.`);
		}
		return n;
	};
	const int = (flag: string, v: string | undefined, min: number): number => {
		const n = num(flag, v, min);
		if (!Number.isInteger(n)) fail(`${flag} expects an integer, got ${v}.`);
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => argv[++i];
		switch (flag) {
			case '--port':
				o.port = int(flag, value(), 0);
				break;
			case '--seed':
				o.seed = int(flag, value(), 0);
				break;
			case '--now': {
				const v = value();
				const t = v ? parseDateTime(v) : NaN;
				if (Number.isNaN(t))
					fail(`--now expects an ISO 8601 date-time such as 2026-11-21T10:30:00Z, got ${v}.`);
				o.now = t;
				break;
			}
			case '--clock': {
				const v = value();
				if (v !== 'running' && v !== 'frozen') fail('--clock expects running or frozen.');
				o.clock = v;
				break;
			}
			case '--projects':
				o.projects = int(flag, value(), 0);
				break;
			case '--mentions':
				o.mentions = int(flag, value(), 0);
				break;
			case '--history-days':
				o.historyDays = num(flag, value(), 0);
				break;
			case '--limits': {
				const v = value();
				if (v !== 'spec' && v !== 'off') fail('--limits expects spec or off.');
				o.limits = v;
				break;
			}
			case '--latency-ms':
				o.latencyMs = int(flag, value(), 0);
				break;
			case '--error-rate':
				o.errorRate = num(flag, value(), 0, 1);
				break;
			case '--heartbeat-ms':
				o.heartbeatMs = int(flag, value(), 1);
				break;
			case '--live-rate':
				o.liveRate = num(flag, value(), 0);
				break;
			case '--engagement-rate':
				o.engagementRate = num(flag, value(), 0);
				break;
			case '--legacy-heartbeat':
				o.legacyHeartbeat = true;
				break;
			case '--index-lag-ms':
				o.indexLagMs = int(flag, value(), 0);
				break;
			case '--variant': {
				const v = value();
				if (v === undefined || v.trim() === '')
					fail('--variant expects key=value pairs such as collectedAt=ignored.');
				variantSpecs.push(v);
				break;
			}
			case '--no-admin':
				o.admin = false;
				break;
			case '--verbose':
				o.verbose = true;
				break;
			case '--help':
			case '-h':
				console.error(USAGE);
				process.exit(0);
				break;
			case '--help-variants':
				console.log(variantTable());
				process.exit(0);
				break;
			default:
				fail(`unknown flag ${flag}.`);
		}
	}
	try {
		o.variant = variantFromSpecs(variantSpecs);
	} catch (err) {
		if (!(err instanceof VariantError)) rethrow(err);
		fail(`--variant: ${err.message}`);
	}
	return o;
}

/** The non-default switches, `key=value,...`, or `default`. */
function variantText(v: Options['variant']): string {
	const d = variantFromSpecs([]);
	const changed = SWITCH_KEYS.filter((k) => v[k] !== d[k]).map((k) => `${k}=${v[k]}`);
	return changed.length ? changed.join(',') : 'default';
}

function main(): void {
	const opts = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const state = new State(opts);
	const total = [...state.store.projects.values()].reduce((n, p) => n + p.recs.length, 0);
	console.error(
		`simulator: ${state.store.projects.size} projects, ${total} mentions (seed ${opts.seed}) generated in ${Date.now() - started} ms; clock ${opts.clock} from ${new Date(state.startNow).toISOString()}; limits ${opts.limits}; admin ${opts.admin ? 'on' : 'off'}; variant ${variantText(opts.variant)}`,
	);
	const { server, sockets } = createSimulatorServer(state);
	server.on('error', (err) => {
		console.error(`simulator: ${err.message}`);
		process.exit(1);
	});
	server.listen(opts.port, '127.0.0.1', () => {
		const addr = server.address();
		if (addr && typeof addr === 'object') console.log(`listening on http://127.0.0.1:${addr.port}`);
	});
	const stop = () => {
		state.shutdown();
		server.close();
		for (const s of sockets) s.destroy();
		process.exit(0);
	};
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
}

main();
