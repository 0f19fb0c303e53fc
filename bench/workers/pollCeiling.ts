/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * The poll trigger's lag beyond its ceiling (issue 21): one SentiOne Trigger on its defaults,
 * polled every minute, while its project collects 300, 1,000 and 3,000 mentions an hour for 3
 * simulated hours, with Options → Catch Up by Export on (the default) and off
 * (test/support/pollCeiling.ts runs each scenario against the simulator; no real waiting). Writes
 * its section of bench/results.md (between the poll-ceiling markers; the rest of the file is kept):
 *
 *   ./dev node bench/run.js --worker pollCeiling
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runCeiling, type CeilingRun } from '../../test/support/pollCeiling';
import { SimClock } from '../../test/support/simClock';
import { log, simulator } from '../lib';

const RATES = [300, 1000, 3000];
const HOURS = 3;
/** then, arrivals stopped, it polls on this long (what still waits is counted, and checked not lost) */
const DRAIN_HOURS = 1;
const START = '<!-- poll-ceiling:start -->';
const END = '<!-- poll-ceiling:end -->';

function section(runs: CeilingRun[], seconds: number): string {
	const row = (r: CeilingRun) =>
		`| ${r.ratePerHour.toLocaleString('en-US')} | ${r.catchUp ? 'on (default)' : 'off'} | ${r.lagMinutesAtHour.map((m) => `${m} min`).join(' · ')} | ${r.maxDelayMinutes} min | ${r.arrived.toLocaleString('en-US')} | ${r.emitted.toLocaleString('en-US')} | ${r.waitingAtEnd.toLocaleString('en-US')} | ${r.lost} | ${r.duplicated} | ${r.searches} | ${r.exports} | ${r.noticeMinute === undefined ? '—' : `min ${r.noticeMinute} (first check behind: min ${r.firstBehindMinute}; ${r.checksBetween} check(s) between)`} |`;
	return [
		START,
		'## Poll trigger beyond its ceiling',
		'',
		`Written by \`./dev node bench/run.js --worker pollCeiling\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${Math.round(seconds)} s; simulated time, no real waiting). One SentiOne Trigger on its defaults (Search Requests per Hour 12, Max Requests per Poll 2: 12 × 25 = 300 mentions an hour at most by search), polled every minute (n8n's default Poll Times), while the project collects the given rate evenly (the simulator's live shape) for ${HOURS} simulated hours. **Lag**: how long the oldest mention not yet passed on had waited, at the end of hours 1 · 2 · 3. **Longest delay**: from a mention's collection to the check that passed it on. **Waiting**: not yet passed on after a further hour without arrivals (all collected at or after the last mention passed on: late, not lost). **Lost / duplicated**: against the simulator's ground truth. **Told**: the check (minutes after activation) that said "falling behind".`,
		'',
		'| Mentions an hour | Catch Up by Export | Lag at 1 h · 2 h · 3 h | Longest delay | Arrived | Passed on | Waiting | Lost | Duplicated | Searches | Exports | Told |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...runs.map(row),
		'',
		"Without the catch-up the lag grows by about (rate − 300) / rate of every hour: the searches carry 300 an hour whatever arrives. With it, one export (one of the key's 5 export requests an hour, whatever its size) reads the backlog at most every 20 minutes, so the lag stays within about that; searches go on between exports. The engine test test/engine/trigger/ceiling.test.ts checks the 3,000-an-hour case (told within one check, nothing lost or duplicated).",
		END,
	].join('\n');
}

async function main(): Promise<void> {
	const started = Date.now();
	const sim = await simulator(['--projects', '1', '--mentions', '10']);
	const clock = new SimClock(sim);
	clock.install();
	const runs: CeilingRun[] = [];
	try {
		for (const ratePerHour of RATES) {
			for (const catchUp of [false, true]) {
				log(`poll ceiling: ${ratePerHour} an hour, catch-up ${catchUp ? 'on' : 'off'}`);
				runs.push(
					await runCeiling(sim, clock, {
						ratePerHour,
						catchUp,
						hours: HOURS,
						drainHours: DRAIN_HOURS,
					}),
				);
			}
		}
	} finally {
		clock.uninstall();
		await sim.stop();
	}
	const file = join(__dirname, '..', 'results.md');
	const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
	const part = section(runs, (Date.now() - started) / 1000);
	const at = text.indexOf(START);
	const next =
		at === -1
			? `${text.trimEnd()}\n\n${part}\n`
			: `${text.slice(0, at)}${part}${text.slice(text.indexOf(END) + END.length)}`;
	writeFileSync(file, next);
	process.stdout.write(
		`${JSON.stringify(runs, (key, value: unknown) => (key === 'notice' ? undefined : value))}\n`,
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
