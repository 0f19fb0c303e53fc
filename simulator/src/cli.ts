/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- simulator/test code: not shipped in the package */
// Entry point: `node simulator/src/cli.ts --port 4010 [flags]`. Prints exactly one line,
// `listening on http://127.0.0.1:<port>`, on stdout when ready; everything else goes to stderr.

import {
	burstFromSpec,
	DAILY_SHAPES,
	dailyFromSpec,
	defaultShape,
	InputError,
	mixFromSpec,
	parseBurst,
	patchShape,
	type Shape,
} from './arrivals.ts';
import { rethrow } from './http.ts';
import { createSimulatorServer } from './server.ts';
import { State, type Options } from './state.ts';
import { parseDateTime } from './validate.ts';
import { SWITCH_KEYS, variantFromSpecs, variantTable, VariantError } from './variants.ts';
import { curveFromSpec, DEFAULT_CURVE, parseCurve, type Curve } from './viral.ts';

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
  --live-daily <shape>    rate by hour of day: 24 comma-separated multipliers or a name
                          (${Object.keys(DAILY_SHAPES).join(', ')}; default flat)
  --live-time-zone <tz>   time zone of the hours of --live-daily (default UTC)
  --live-burst <spec>     at=ISO,minutes=n,factor=x[,project=id][,label=s][,negative=0.7,…]
                          the rate × factor during the burst, with its own sentiment (repeatable)
  --live-sentiment <mix>  sentiment of collected mentions, e.g. negative=0.4,positive=0.2
  --live-variation none|poisson
                          a minute collects its expected count (none, default) or a Poisson draw
  --engagement-rate <n>   random engagement updates per minute (default 0)
  --viral-share <0..1>    share of newly collected mentions that go viral (default 0)
  --viral-curve <spec>    minutes=n[,factor=x][,likeCount=n,shareCount=n,commentCount=n,viewCount=n]
                          how a viral mention grows each minute (default ${curveText(DEFAULT_CURVE)})
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
		live: defaultShape(),
		engagementRate: 0,
		viralShare: 0,
		viralCurve: DEFAULT_CURVE,
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
				o.live = { ...o.live, ratePerMinute: num(flag, value(), 0) };
				break;
			case '--live-daily':
			case '--live-time-zone':
			case '--live-burst':
			case '--live-sentiment':
			case '--live-variation':
				o.live = liveFlag(o.live, flag, value());
				break;
			case '--engagement-rate':
				o.engagementRate = num(flag, value(), 0);
				break;
			case '--viral-share':
				o.viralShare = num(flag, value(), 0, 1);
				break;
			case '--viral-curve': {
				const v = value() ?? '';
				o.viralCurve = input(flag, () => parseCurve(curveFromSpec(v, flag), '', DEFAULT_CURVE));
				break;
			}
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

/** Run a parse step; a bad value stops the CLI with a message naming the flag. */
function input<T>(flag: string, step: () => T): T {
	try {
		return step();
	} catch (err) {
		if (!(err instanceof InputError)) rethrow(err);
		return fail(err.message.startsWith(flag) ? err.message : `${flag}: ${err.message}`);
	}
}

/** One of the --live-* shape flags applied to the shape. */
function liveFlag(shape: Shape, flag: string, v: string | undefined): Shape {
	if (v === undefined || v.trim() === '') fail(`${flag} expects a value.`);
	return input(flag, () => {
		switch (flag) {
			case '--live-daily':
				return patchShape(shape, { daily: dailyFromSpec(v) });
			case '--live-time-zone':
				return patchShape(shape, { timeZone: v });
			case '--live-sentiment':
				return patchShape(shape, { sentiment: mixFromSpec(v, flag) });
			case '--live-variation':
				return patchShape(shape, { variation: v });
			default:
				return { ...shape, bursts: [...shape.bursts, parseBurst(burstFromSpec(v, flag), 'burst')] };
		}
	});
}

function curveText(c: Curve): string {
	return [
		`minutes=${c.minutes}`,
		`factor=${c.factor}`,
		...Object.entries(c.perMinute).map(([k, n]) => `${k}=${n}`),
	].join(',');
}

/** The live shape in a few words for the startup line. */
function liveText(s: Shape): string {
	if (s.ratePerMinute <= 0) return 'off';
	const daily = typeof s.daily === 'string' ? s.daily : 'custom daily';
	const bursts = s.bursts.length ? `, ${s.bursts.length} burst(s)` : '';
	return `${s.ratePerMinute}/min per project (${daily}, ${s.timeZone}, ${s.variation}${bursts})`;
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
		`simulator: ${state.store.projects.size} projects, ${total} mentions (seed ${opts.seed}) generated in ${Date.now() - started} ms; clock ${opts.clock} from ${new Date(state.startNow).toISOString()}; limits ${opts.limits}; admin ${opts.admin ? 'on' : 'off'}; variant ${variantText(opts.variant)}; live ${liveText(opts.live)}`,
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
