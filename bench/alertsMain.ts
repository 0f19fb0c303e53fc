/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * `npm run bench:alerts` — issue 22's alert figures: spike accuracy (bench/alerts.ts), sentiment
 * shift accuracy (same), alert latency in a real n8n (bench/alertLatency.ts). Writes its section
 * of bench/results.md (between the `alerts:start` and `alerts:end` markers; `npm run bench` keeps it) and
 * bench/results-alerts.json. Exits 1 when a target is missed, 2 when the benchmark failed.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { measureLatency, type LatencyResult } from './alertLatency';
import {
	engineLevel,
	groundTruthOf,
	measureAlerts,
	SCENARIO,
	SHIFT_SCENARIO,
	shiftScenario,
	burstsOfScenario,
	type AlertResult,
	type LevelResult,
} from './alerts';
import { load, loadText, log, machine, ROOT, runMain } from './lib';

const USAGE = `Usage: npm run bench:alerts -- [flags]
  --only <parts>        spike,shift,latency (default all)
  --trigger-days <n>    simulated days through the real triggers (default 14, the whole run)
  --seeds <list>        more seeds of the 14 days for the engine level (default 1,2,3,4)
  --stream-samples <n>  mentions of the Stream Trigger's latency (default 200)
  --poll-minutes <n>    simulated minutes of the poll trigger's latency (default 90)
  --out <file>          the report (default bench/results.md; its alerts section is replaced)`;

interface Options {
	only: string[];
	triggerDays: number;
	seeds: number[];
	streamSamples: number;
	pollMinutes: number;
	out: string;
}

function parse(argv: string[]): Options {
	const o: Options = {
		only: ['spike', 'shift', 'latency'],
		triggerDays: 14,
		seeds: [1, 2, 3, 4],
		streamSamples: 200,
		pollMinutes: 90,
		out: join(ROOT, 'bench', 'results.md'),
	};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = argv[i + 1];
		const number = (min: number) => {
			const n = Number(value);
			if (!Number.isInteger(n) || n < min)
				throw new Error(`${flag} needs a whole number ≥ ${min}\n${USAGE}`);
			i++;
			return n;
		};
		if (flag === '--alerts') continue;
		else if (flag === '--only') {
			o.only = String(value).split(',');
			const bad = o.only.filter((p) => !['spike', 'shift', 'latency'].includes(p));
			if (bad.length) throw new Error(`--only: unknown part ${bad.join(', ')}\n${USAGE}`);
			i++;
		} else if (flag === '--trigger-days') o.triggerDays = number(0);
		else if (flag === '--seeds') {
			o.seeds = value ? value.split(',').filter(Boolean).map(Number) : [];
			i++;
		} else if (flag === '--stream-samples') o.streamSamples = number(10);
		else if (flag === '--poll-minutes') o.pollMinutes = number(15);
		else if (flag === '--out') {
			o.out = value;
			i++;
		} else throw new Error(`unknown flag ${flag}\n${USAGE}`);
	}
	return o;
}

interface SeedRow {
	seed: number;
	detected: number;
	bursts: number;
	maxAlertsPerBurst: number;
	falseAlarms: number;
	falseAlarmsPerWeek: number;
	maxDelayMs: number;
}

/** When a part was measured, and the machine's load then (parts may come from different runs). */
interface When {
	ranAt?: string;
	load?: string;
}
const when = (): When => ({ ranAt: new Date().toISOString(), load: loadText(load()) });
const whenText = (w: When) =>
	w.ranAt ? `Measured ${w.ranAt.slice(0, 16).replace('T', ' ')} UTC, load ${w.load}. ` : '';

export interface AlertsReport {
	runAt: string;
	minutes: number;
	load: string;
	spike?: AlertResult & { seeds: SeedRow[] } & When;
	shift?: { scenario: typeof SHIFT_SCENARIO; level: LevelResult } & When;
	latency?: LatencyResult & When;
}

function seedRow(seed: number, l: LevelResult): SeedRow {
	const big = l.bursts.filter((b) => !b.small);
	return {
		seed,
		detected: big.filter((b) => b.detected).length,
		bursts: big.length,
		maxAlertsPerBurst: Math.max(...big.map((b) => b.alerts)),
		falseAlarms: l.falseAlarms,
		falseAlarmsPerWeek: l.falseAlarmsPerWeek,
		maxDelayMs: Math.max(...big.filter((b) => b.detected).map((b) => b.delayMs ?? 0)),
	};
}

const min = (ms: number | undefined) =>
	ms === undefined ? '–' : `${(ms / 60_000).toFixed(1)} min`;
const sec = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

interface Target {
	what: string;
	measured: string;
	met: boolean;
}

function targets(r: AlertsReport): Target[] {
	const out: Target[] = [];
	if (r.spike) {
		const bucketMs = r.spike.settings.bucketMinutes * 60_000;
		for (const l of r.spike.levels) {
			const big = l.bursts.filter((b) => !b.small);
			const judgedBursts = big.filter((b) => b.day < (l.to - l.from) / 86_400_000);
			if (judgedBursts.length === 0) continue;
			const detected = judgedBursts.filter((b) => b.detected).length;
			const name = `${l.level} (${Math.round((l.to - l.from) / 86_400_000)} days)`;
			out.push({
				what: `Volume Spike, ${name}: bursts of 3× or more detected ≥ 90 %`,
				measured: `${detected} of ${judgedBursts.length}`,
				met: detected >= 0.9 * judgedBursts.length,
			});
			const most = Math.max(...judgedBursts.map((b) => b.alerts));
			out.push({
				what: `Volume Spike, ${name}: alerts per burst ≤ 1`,
				measured: `at most ${most}`,
				met: most <= 1,
			});
			out.push({
				what: `Volume Spike, ${name}: false alarms ≤ 1 per simulated week of normal traffic`,
				measured: `${l.falseAlarms} in ${l.normalDays.toFixed(1)} days: ${l.falseAlarmsPerWeek.toFixed(2)} a week`,
				met: l.falseAlarmsPerWeek <= 1,
			});
			if (l.level !== 'poll') {
				const worst = Math.max(
					...judgedBursts.filter((b) => b.detected).map((b) => b.delayMs ?? 0),
				);
				out.push({
					what: `Volume Spike, ${name}: alert ≤ one bucket + 5 s after the burst starts (${sec(bucketMs + 5000)})`,
					measured: `at most ${min(worst)}`,
					met: worst <= bucketMs + 5000,
				});
			}
		}
	}
	if (r.latency) {
		for (const f of r.latency.figures) {
			const limit = f.trigger === 'stream' ? 2000 : 5 * 60_000 + 10_000;
			out.push({
				what:
					f.trigger === 'stream'
						? 'Alert latency, Stream Trigger: p99 ≤ 2 s on loopback'
						: 'Alert latency, poll trigger on its defaults: p99 ≤ check spacing (5 min) + 10 s',
				measured: `p99 ${sec(f.p99Ms)} (p50 ${sec(f.p50Ms)}, ${f.samples} mentions)`,
				met: f.p99Ms <= limit,
			});
		}
	}
	return out;
}

function burstTable(l: LevelResult): string {
	const days = (l.to - l.from) / 86_400_000;
	const rows = l.bursts
		.filter((b) => b.day < days)
		.map(
			(b) =>
				`| ${b.index + 1}${b.small ? ' (small)' : ''} | day ${b.day} ${b.at} | ${b.minutes} min | ${b.factor}× | ${Math.round(b.normalPerBucket)} | ${b.detected ? 'yes' : '**no**'} | ${min(b.delayMs)} | ${b.count ?? '–'}${b.threshold !== undefined ? ` / ${b.threshold}` : ''}${b.complete === false ? ' (at least)' : ''} | ${b.alerts} |`,
		);
	return [
		'| Burst | Starts (UTC) | Length | Factor | Normal per bucket | Detected | Alert after | Count / threshold | Alerts |',
		'|---|---|---|---|---|---|---|---|---|',
		...rows,
	].join('\n');
}

function shiftTable(l: LevelResult, negative: number[]): string {
	const rows = l.bursts.map(
		(b) =>
			`| ${b.index + 1}${b.small ? ' (small)' : ''} | day ${b.day} ${b.at} | ${b.minutes} min | ${Math.round(negative[b.index] * 100)} % | ${b.detected ? 'yes' : b.small ? 'no' : '**no**'} | ${min(b.delayMs)} | ${b.count !== undefined ? `${b.count} % (usually ${b.threshold !== undefined ? '' : ''}${l.alerts.find((a) => a.burst === b.index)?.baseline ?? '–'} %)` : '–'} | ${b.alerts} |`,
	);
	return [
		'| Shift | Starts (UTC) | Length | Negative share during it | Detected | Alert after | Share in the alert | Alerts |',
		'|---|---|---|---|---|---|---|---|',
		...rows,
	].join('\n');
}

function markdown(r: AlertsReport, o: Options): string {
	const parts: string[] = [];
	const m = machine('2.41.1');
	parts.push(
		`## 5. Alerts (issue 22)\n\nWritten by \`npm run bench:alerts\` on ${r.runAt.slice(0, 16).replace('T', ' ')} UTC (${r.minutes} min; load ${r.load}; ${m.cpu}, ${m.cores} cores). What is measured and how: [README.md](README.md#5-alerts-npm-run-benchalerts). Raw values: [results-alerts.json](results-alerts.json).`,
	);
	const t = targets(r);
	parts.push(
		[
			'| Target | Measured | Result |',
			'|---|---|---|',
			...t.map((x) => `| ${x.what} | ${x.measured} | ${x.met ? 'met' : '**missed**'} |`),
		].join('\n'),
	);
	if (r.spike) {
		const s = r.spike;
		parts.push(
			`### Volume Spike accuracy\n\n${whenText(s)}Defaults: bucket ${s.settings.bucketMinutes} min, Same Time on Past Days, ratio ${s.settings.ratio}, ${s.settings.deviations} standard deviations, at least ${s.settings.minMentions} mentions. Traffic: ${s.scenario.days} simulated days from ${s.scenario.start.slice(0, 10)}, ${s.scenario.ratePerMinute} mentions a minute on average, daily shape \`${s.scenario.daily}\` (0.1× at night, 2.2× at 10:00 UTC), ${s.scenario.variation} arrivals, seed ${s.scenario.seed}; ${s.scenario.bursts.length} bursts of 3× to 6× and ${s.scenario.smallBursts.length} smaller ones (outside the targets), from day 3 (the baseline needs 3 days). An alert belongs to a burst when its bucket overlaps the burst or the bucket after it; any other alert is a false alarm.`,
		);
		for (const l of s.levels)
			parts.push(
				`**${l.level}** — ${l.note}. ${l.mentions ? `${l.mentions.toLocaleString('en-US')} mentions, ` : ''}${l.evaluations.toLocaleString('en-US')} evaluations, ${Math.round((l.to - l.from) / 86_400_000)} simulated days in ${l.seconds} s; false alarms: ${l.falseAlarms} in ${l.normalDays.toFixed(1)} days of normal traffic (${l.falseAlarmsPerWeek.toFixed(2)} a week)${l.read !== undefined ? `; the trigger read ${l.read.toLocaleString('en-US')} mentions, ${l.incompleteAlerts} alert(s) on an incomplete count` : ''}.\n\n${burstTable(l)}`,
			);
		if (s.seeds.length > 1)
			parts.push(
				`The same 14 days with other seeds (engine level): the Poisson draws change, the shape and the bursts do not.\n\n${[
					'| Seed | Detected (3× or more) | Most alerts per burst | False alarms (per week) | Slowest alert |',
					'|---|---|---|---|---|',
					...s.seeds.map(
						(x) =>
							`| ${x.seed} | ${x.detected} of ${x.bursts} | ${x.maxAlertsPerBurst} | ${x.falseAlarms} (${x.falseAlarmsPerWeek.toFixed(2)}) | ${min(x.maxDelayMs)} |`,
					),
				].join('\n')}`,
			);
	}
	if (r.shift) {
		const { level, scenario } = r.shift;
		const negative = [...scenario.shifts, ...scenario.smallShifts].map((x) => x.negative);
		parts.push(
			`### Sentiment Shift accuracy\n\n${whenText(r.shift)}Defaults: Negative, 60-minute window, 15 points, either direction, at least 20 mentions. The same traffic (seed ${scenario.seed}; about 25 % negative), with the negative share raised for 1 to 3 hours (the volume unchanged). Engine level, as above. False alarms: ${level.falseAlarms} in ${level.normalDays.toFixed(1)} days (${level.falseAlarmsPerWeek.toFixed(2)} a week).\n\n${shiftTable(level, negative)}`,
		);
	}
	if (r.latency) {
		parts.push(
			`### Alert latency in a real n8n\n\n${whenText(r.latency)}n8n ${r.latency.n8n} (\`n8n start\`, SQLite, single process) with this package installed, the simulator on loopback; from a mention's collectedAt in the simulator to n8n's \`startedAt\` of the execution that carried it.\n\n${[
				'| Trigger | Mentions | Executions | p50 | p99 | min – max | Clock |',
				'|---|---|---|---|---|---|---|',
				...r.latency.figures.map(
					(f) =>
						`| ${f.trigger === 'stream' ? 'Stream Trigger, New Mention' : 'SentiOne Trigger (poll), New Mention, defaults'} | ${f.samples} | ${f.executions} | ${sec(f.p50Ms)} | ${sec(f.p99Ms)} | ${sec(f.minMs)} – ${sec(f.maxMs)} | ${f.note} |`,
				),
			].join('\n')}`,
		);
	}
	parts.push(
		`Reproduce: \`npm run bench:alerts${process.argv.slice(process.argv.indexOf('--alerts') + 1).length ? ` -- ${process.argv.slice(process.argv.indexOf('--alerts') + 1).join(' ')}` : ''}\`.`,
	);
	void o;
	return parts.join('\n\n');
}

export const ALERTS_START = '<!-- alerts:start -->';
export const ALERTS_END = '<!-- alerts:end -->';

/** Puts the section into the report, replacing the one there. */
function writeSection(file: string, section: string): void {
	const block = `${ALERTS_START}\n${section}\n${ALERTS_END}`;
	const doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
	const a = doc.indexOf(ALERTS_START);
	const b = doc.indexOf(ALERTS_END);
	const next =
		a >= 0 && b > a
			? `${doc.slice(0, a)}${block}${doc.slice(b + ALERTS_END.length)}`
			: `${doc.trimEnd()}\n\n${block}\n`;
	writeFileSync(file, next);
}

async function main(): Promise<number> {
	const o = parse(process.argv.slice(2));
	const t0 = Date.now();
	const report: AlertsReport = {
		runAt: new Date().toISOString(),
		minutes: 0,
		load: loadText(load()),
	};
	if (o.only.includes('spike')) {
		const result = await measureAlerts({ levels: ['stream', 'poll'], triggerDays: o.triggerDays });
		const seeds: SeedRow[] = [seedRow(SCENARIO.seed, result.levels[0])];
		for (const seed of o.seeds) {
			const scenario = { ...SCENARIO, seed };
			const bursts = burstsOfScenario(scenario);
			log(`alerts: seed ${seed}`);
			const truth = await groundTruthOf(scenario, bursts);
			seeds.push(seedRow(seed, engineLevel(scenario, bursts, truth)));
		}
		report.spike = { ...result, seeds, ...when() };
	}
	if (o.only.includes('shift')) {
		const { scenario, bursts, negative } = shiftScenario();
		const truth = await groundTruthOf(scenario, bursts, negative);
		report.shift = {
			scenario: SHIFT_SCENARIO,
			level: engineLevel(scenario, bursts, truth, 'sentimentShift'),
			...when(),
		};
	}
	if (o.only.includes('latency'))
		report.latency = {
			...when(),
			...(await measureLatency({
				streamSamples: o.streamSamples,
				pollMinutes: o.pollMinutes,
			})),
		};
	report.minutes = Math.round((Date.now() - t0) / 60_000);
	const json = o.out.replace(/(\.md)?$/, '-alerts.json');
	// a part not run this time keeps its figures from the last run (each part says when it ran)
	if (existsSync(json)) {
		const before = JSON.parse(readFileSync(json, 'utf8')) as AlertsReport;
		const dated = <T extends When>(part: T | undefined): T | undefined =>
			part && { ranAt: before.runAt, load: before.load, ...part };
		report.spike ??= dated(before.spike);
		report.shift ??= dated(before.shift);
		report.latency ??= dated(before.latency);
	}
	writeFileSync(json, `${JSON.stringify(report, null, 1)}\n`);
	writeSection(o.out, markdown(report, o));
	const t = targets(report);
	for (const x of t) log(`${x.met ? 'met   ' : 'MISSED'} ${x.what}: ${x.measured}`);
	log(`report: ${o.out}`);
	return t.every((x) => x.met) ? 0 : 1;
}

runMain(main);
