/**
 * The poll trigger beyond its ceiling (issue 21, field conditions): 3,000 mentions an hour for a
 * project, ten times what the trigger's searches carry at its defaults (12 an hour × 25 ≈ 300),
 * for 3 simulated hours, polled every minute (n8n's default), against the simulator
 * (test/support/pollCeiling.ts). With its defaults (Catch Up by Export on) the trigger says
 * "falling behind" within one check of falling behind — naming the rate, the backlog and what it
 * does about it — catches up with one export at a time, and passes every mention on exactly once.
 * With the catch-up off it says so just as soon and loses nothing: what it could not read yet is
 * all after the last mention it passed on. The lag at 300, 1,000 and 3,000 an hour is a benchmark
 * (bench/workers/pollCeiling.ts → bench/results.md), not a test.
 */
import { runCeiling } from '../../support/pollCeiling';
import { type SimClock, useSimulator } from '../../support/simClock';
import { type Sim } from '../../support/simulator';
import { type ResultRow, writePart } from '../../support/results';

jest.setTimeout(300_000);

let sim: Sim;
let clock: SimClock;
const rows: ResultRow[] = [];
const figures: Record<string, unknown> = {};

useSimulator(
	['--projects', '1', '--mentions', '10'],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
afterAll(async () => {
	writePart({
		part: 'poll-ceiling',
		title: 'Volume beyond what the poll trigger reads',
		command: 'npx jest test/engine/trigger/ceiling.test.ts',
		rows,
		figures,
		notes: [
			'One SentiOne Trigger on its defaults (a share of 12 searches an hour, at most 2 per check: about 300 mentions an hour), polled every minute, while the project collects 3,000 mentions an hour for 3 simulated hours; then arrivals stop and it polls on (at most 2 hours). "Lag" is how long the oldest mention not yet passed on had waited at the end of each hour.',
			'Before (issue 21): at 1,000 and 3,000 an hour the trigger fell behind by hours and its "falling behind" notice came only on a check with nothing new, which never comes at those rates. The lag at 300, 1,000 and 3,000 an hour, with and without the catch-up, is in bench/results.md.',
		],
	});
});

test('3,000 an hour, defaults: told within one check, caught up by export, nothing lost or repeated', async () => {
	const r = await runCeiling(sim, clock, {
		ratePerHour: 3000,
		catchUp: true,
		hours: 3,
		drainHours: 2,
	});
	figures['3,000 an hour, catch-up on'] = r;
	rows.push({
		fault:
			'3,000 mentions an hour (10 × the ceiling), 3 simulated hours, defaults (Catch Up by Export on)',
		through: 'SentiOne Trigger (catchUp.ts, exportRange.ts)',
		cases: 1,
		items: r.arrived,
		lost: r.lost,
		duplicated: r.duplicated,
		outcome: `lag at the end of each hour ${r.lagMinutesAtHour.join(', ')} min (longest delay ${r.maxDelayMinutes} min); ${r.searches} searches and ${r.exports} exports; "falling behind" said ${r.noticeMinute! - r.firstBehindMinute!} min after the first check that fell behind, ${r.checksBetween} check(s) between`,
	});
	expect(r.errors).toEqual([]);
	expect(r.arrived).toBeGreaterThan(8500);
	expect(r.lost).toBe(0);
	expect(r.duplicated).toBe(0);
	expect(r.unexpected).toBe(0);
	expect(r.waitingAtEnd).toBe(0);
	// told within one check of falling behind: no check that sent a request came in between
	expect(r.firstBehindMinute).toBeDefined();
	expect(r.noticeMinute).toBeDefined();
	expect(r.checksBetween).toBe(0);
	expect(r.notice).toMatch(
		/^The trigger is falling behind: mentions arrive at about [\d,]+ an hour, more than its requests carry \(Options → Search Requests per Hour: 12, at most 2 per check; each brings up to 25 mentions: about 300 an hour\)\. About [\d,]+ are waiting, the oldest collected after .* \(\d+ min ago\)\. Nothing is lost: it catches up by reading the backlog with one export stream/,
	);
	// caught up: never more than the catch-up spacing and a few checks behind
	expect(Math.max(...r.lagMinutesAtHour)).toBeLessThanOrEqual(30);
	// the export budget: at most 3 of the 5 an hour
	expect(r.exports).toBeLessThanOrEqual(3 * 3 + 1);
	expect(r.searches).toBeLessThanOrEqual(12 * 3 + 12);
});

test('3,000 an hour with the catch-up off: told within one check, nothing lost (the rest waits, in order)', async () => {
	const r = await runCeiling(sim, clock, {
		ratePerHour: 3000,
		catchUp: false,
		hours: 3,
		drainHours: 0,
	});
	figures['3,000 an hour, catch-up off'] = r;
	rows.push({
		fault: '3,000 mentions an hour, 3 simulated hours, Catch Up by Export off',
		through: 'SentiOne Trigger (searches only)',
		cases: 1,
		items: r.arrived,
		lost: r.lost,
		duplicated: r.duplicated,
		outcome: `lag at the end of each hour ${r.lagMinutesAtHour.join(', ')} min; ${r.emitted} passed on, ${r.waitingAtEnd} waiting (all after the last passed on); "falling behind" said ${r.noticeMinute! - r.firstBehindMinute!} min after the first check that fell behind`,
	});
	expect(r.errors).toEqual([]);
	expect(r.lost).toBe(0);
	expect(r.duplicated).toBe(0);
	expect(r.unexpected).toBe(0);
	expect(r.exports).toBe(0);
	expect(r.checksBetween).toBe(0);
	expect(r.notice).toMatch(/To keep up turn on Options → Catch Up by Export/);
	expect(r.waitingAtEnd).toBeGreaterThan(0);
	expect(r.lagMinutesAtHour[2]).toBeGreaterThan(60);
});
