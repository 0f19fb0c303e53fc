/**
 * Clock skew between n8n and SentiOne (issue 21 item 7, D-50), against the simulator: its clock is
 * frozen, dates every answer (HTTP Date) and judges every date rule (D-18, D-36); the node's clock
 * (SimClock) stands −15, −2, 0, +2 or +15 minutes off it, and the node has heard nothing from
 * SentiOne yet (a fresh n8n process). In every case:
 * - Search Recent "Published in the Last 7 days" returns exactly the mentions SentiOne counts for
 *   the window the node sent, with at most one 422 (the first answer tells the clock);
 * - Export of the last 7 days opens (once more after a 422 that told the clock);
 * - a poll trigger checking every 5 minutes over 3 simulated hours passes on each mention collected
 *   after its activation once: nothing lost, nothing twice;
 * - a Stream Trigger down for 10 minutes (n8n restarted) resumes with a backfill and a gap search
 *   on SentiOne's clock: nothing lost, nothing twice.
 * A clock further off than the node allows for fails with a message naming SentiOne's clock.
 */
import type { INodeParameters } from 'n8n-workflow';

import { serverClock } from '../../../nodes/SentiOne/shared/clock';
import { jsonOf, loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { credentials } from '../../support/engine';
import { BASIC } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import { type SimClock, useSimulator } from '../../support/simClock';
import {
	addMentions,
	admin,
	emptyProject,
	groundTruth,
	HEARTBEAT_MS,
	type Loose,
	requestLog,
	resetSim,
	type Sim,
} from '../../support/simulator';
import { idsOf, tally } from '../../support/tally';
import { DAY, HOUR, MINUTE } from '../../support/time';
import {
	activateStreamTrigger,
	type ActiveStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';

jest.setTimeout(120_000);

let sim: Sim;
let clock: SimClock;

useSimulator(
	['--projects', '1', '--mentions', '400', '--heartbeat-ms', String(HEARTBEAT_MS)],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
beforeEach(async () => {
	await resetSim(sim, clock);
	await admin(sim, 'POST', '/limits', { hourly: { search: 100_000, live: 1000, export: 1000 } });
});

/** SentiOne's clock ahead of n8n's by this many minutes (negative: behind). */
const SKEWS = [-15, -2, 0, 2, 15];
const label = (minutes: number) => (minutes > 0 ? `+${minutes}` : String(minutes));

interface Measured {
	skew: number;
	[figure: string]: unknown;
}
const measured: Record<'recent' | 'export' | 'poll' | 'stream', Measured[]> = {
	recent: [],
	export: [],
	poll: [],
	stream: [],
};

const searchLog = async () =>
	(await requestLog(sim)).filter((r) => r.group === 'search') as unknown as Loose[];

describe.each(SKEWS)('SentiOne %p min off n8n', (minutes) => {
	const skew = minutes * MINUTE;

	test('Search Recent, published in the last 7 days: the whole window, at most one 422', async () => {
		clock.skew(skew);
		const workflow = withParameters(loadWorkflow('mention-search-recent'), {
			project: { __rl: true, value: '1001', mode: 'id' },
			returnAll: true,
			filters: { publishedInLast: { period: { amount: 7, unit: 'days' } } },
			simplify: true,
			options: {},
		});
		const result = await run(sim, workflow, { key: BASIC });
		expect(result.nodeError(NODE)).toBeUndefined();
		const rows = jsonOf(result);
		const searches = await searchLog();
		const refused = searches.filter((r) => r.status === 422).length;
		expect(refused).toBeLessThanOrEqual(1);
		const last = searches[searches.length - 1];
		const from = Date.parse(last.body.filters.publishedAt.from);
		// SentiOne's window, less the 5-minute margin (D-18), on SentiOne's clock within seconds
		const serverNow = clock.now + skew;
		expect(from).toBeGreaterThanOrEqual(serverNow - 7 * DAY);
		expect(Math.abs(from - (serverNow - 7 * DAY + 5 * MINUTE))).toBeLessThanOrEqual(5_000);
		const { count } = await admin<{ count: number }>(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'recent',
			filters: last.body.filters,
		});
		expect(rows).toHaveLength(count);
		expect(count).toBeGreaterThan(0);
		measured.recent.push({ skew: minutes, rows: rows.length, refused, requests: searches.length });
	});

	test('Export, published in the last 7 days: never refused for the clock, opened at most twice', async () => {
		clock.skew(skew);
		const workflow = withParameters(loadWorkflow('mention-export'), {
			project: { __rl: true, value: '1001', mode: 'id' },
			exportScope: 'recent',
			returnAll: true,
			filters: { publishedInLast: { period: { amount: 7, unit: 'days' } } },
			simplify: true,
			options: {},
		});
		const result = await run(sim, workflow, { key: BASIC });
		expect(result.nodeError(NODE)).toBeUndefined();
		const rows = jsonOf(result);
		const exports = (await requestLog(sim)).filter(
			(r) => r.group === 'export',
		) as unknown as Loose[];
		const refused = exports.filter((r) => r.status === 422).length;
		expect(refused).toBeLessThanOrEqual(1);
		expect(exports.length - refused).toBe(1);
		const last = exports[exports.length - 1];
		const from = Date.parse(last.body.filters.publishedAt.from);
		const serverNow = clock.now + skew;
		expect(from).toBeGreaterThanOrEqual(serverNow - 7 * DAY);
		// opened on n8n's clock, the export's window is off by the skew until an answer tells it;
		// SentiOne behind (its window starts later) leaves nothing out, ahead is refused and asked again
		expect(from).toBeLessThanOrEqual(serverNow - 7 * DAY + 5 * MINUTE + Math.max(0, -skew) + 5_000);
		const { count } = await admin<{ count: number }>(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'recent',
			filters: last.body.filters,
		});
		expect(rows).toHaveLength(count);
		measured.export.push({ skew: minutes, rows: rows.length, refused, requests: exports.length });
	});

	test('a poll trigger over 3 simulated hours: each new mention once', async () => {
		clock.skew(skew);
		const projectId = await emptyProject(sim, `skew poll ${minutes}`);
		const harness = new PollHarness(pollParameters(projectId), credentials(sim, BASIC));
		const activated = await harness.poll('activate');
		expect(activated.error).toBeUndefined();
		const { now: activatedAt } = await admin<{ now: string }>(sim, 'GET', '/health');
		const errors: string[] = [];
		for (let check = 0; check < 36; check++) {
			await clock.advance(5 * MINUTE);
			// collected now, and some a minute ago (arriving late, as indexing does)
			await addMentions(sim, projectId, 1 + (check % 3));
			if (check % 4 === 1)
				await addMentions(sim, projectId, 1, {
					collectedAt: new Date(clock.now + skew - MINUTE).toISOString(),
				});
			const outcome = await harness.poll();
			if (outcome.error) errors.push(outcome.error.message);
		}
		expect(errors).toEqual([]);
		const truth = await groundTruth(sim, projectId, activatedAt);
		const t = tally(idsOf(harness.allItems()), truth);
		expect(t.lost).toEqual([]);
		expect(t.duplicated).toEqual([]);
		expect(t.unexpected).toEqual([]);
		const searches = await searchLog();
		expect(searches.filter((r) => r.status === 422)).toEqual([]);
		measured.poll.push({
			skew: minutes,
			expected: t.expected,
			lost: t.lost.length,
			duplicated: t.duplicated.length,
			requests: searches.length,
		});
	});

	test('a Stream Trigger down 10 minutes (n8n restarted): backfill and gap search, each mention once', async () => {
		clock.skew(skew);
		const projectId = await emptyProject(sim, `skew stream ${minutes}`);
		const params = streamParameters({ project: projectParam(projectId) }) as INodeParameters;
		const creds = { apiKey: BASIC, baseUrl: sim.base };
		const opened: ActiveStreamTrigger[] = [];
		try {
			const before = await activateStreamTrigger(params, creds);
			opened.push(before);
			await addMentions(sim, projectId, 5);
			await before.until(() => before.items().length >= 5);
			const saved = before.savedStaticData();
			await before.close();

			// n8n is down for 10 minutes: mentions are collected all the same
			await clock.advance(5 * MINUTE);
			await addMentions(sim, projectId, 4);
			await clock.advance(5 * MINUTE);
			await addMentions(sim, projectId, 3);

			// a new n8n process: it knows nothing of SentiOne's clock until an answer tells it
			serverClock.reset();
			const after = await activateStreamTrigger(params, creds, saved);
			opened.push(after);
			await addMentions(sim, projectId, 2);
			const truth = await groundTruth(sim, projectId);
			expect(truth).toHaveLength(14);
			const all = () => [...idsOf(before.items()), ...idsOf(after.items())];
			await after
				.until(() => new Set(all()).size >= 14, 15_000)
				.catch(() => undefined /* the tally below says what is missing */);
			const t = tally(all(), truth);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			expect(after.errors).toEqual([]);
			const searches = await searchLog();
			expect(searches.filter((r) => r.status === 422)).toEqual([]);
			measured.stream.push({
				skew: minutes,
				expected: t.expected,
				lost: t.lost.length,
				duplicated: t.duplicated.length,
				gapSearches: searches.length,
			});
		} finally {
			for (const trigger of opened) await trigger.close();
		}
	});
});

test('a clock further off than the node allows for: the 422 names SentiOne’s clock, no loop', async () => {
	clock.skew(2 * HOUR);
	const workflow = withParameters(loadWorkflow('mention-search-recent'), {
		project: { __rl: true, value: '1001', mode: 'id' },
		returnAll: true,
		filters: { publishedInLast: { period: { amount: 7, unit: 'days' } } },
		options: {},
	});
	const result = await run(sim, workflow, { key: BASIC });
	const error = result.nodeError(NODE);
	expect(error?.message).toMatch(
		/^SentiOne rejected a value \(422\) — filters\.publishedAt\.from: .*\. SentiOne judges dates by its own clock \(SentiOne's answers are dated 2\.0 hours ahead of n8n's clock, more than the node can allow for\)$/,
	);
	expect(error?.description).toContain("SentiOne's time now is about 2026-11-21 10:30");
	expect(error?.description).toContain('set the time of the host n8n runs on right (NTP)');
	expect((await searchLog()).map((r) => r.status)).toEqual([422]);
	measured.recent.push({ skew: 120, refused: 1, requests: 1, message: error?.message });
});

afterAll(() => {
	const sum = (list: Measured[], key: string) =>
		list.reduce((n, m) => n + (typeof m[key] === 'number' ? (m[key] as number) : 0), 0);
	const skews = (list: Measured[]) =>
		list
			.filter((m) => SKEWS.includes(m.skew))
			.map((m) => label(m.skew))
			.join(', ');
	const rows: ResultRow[] = [
		{
			fault: `clock skew (${skews(measured.recent)} min): Published in the Last 7 days`,
			through: 'Search Recent (engine, simulator)',
			cases: measured.recent.filter((m) => SKEWS.includes(m.skew)).length,
			items: sum(
				measured.recent.filter((m) => SKEWS.includes(m.skew)),
				'rows',
			),
			lost: 0,
			duplicated: 0,
			outcome: `the whole window on SentiOne's clock; ${sum(
				measured.recent.filter((m) => SKEWS.includes(m.skew)),
				'refused',
			)} 422 in all (the first answer of a fresh process tells the clock, the search is asked once more); a clock 2 h off fails naming SentiOne's clock`,
		},
		{
			fault: `clock skew (${skews(measured.export)} min): export of the last 7 days`,
			through: 'Mention → Export (recent)',
			cases: measured.export.length,
			items: sum(measured.export, 'rows'),
			lost: 0,
			duplicated: 0,
			outcome: `${sum(measured.export, 'refused')} 422 in all, each opened once more on SentiOne's clock; a stream cannot start over, so with SentiOne behind and nothing heard from it yet, the oldest minutes (up to the skew) of its window are not asked for`,
		},
		{
			fault: `clock skew (${skews(measured.poll)} min): new mentions over 3 h, a check every 5 min`,
			through: 'SentiOne Trigger (poll)',
			cases: measured.poll.length,
			items: sum(measured.poll, 'expected'),
			lost: sum(measured.poll, 'lost'),
			duplicated: sum(measured.poll, 'duplicated'),
			outcome: `each once; 0 refused; ${sum(measured.poll, 'requests')} search requests in all (36 checks each)`,
		},
		{
			fault: `clock skew (${skews(measured.stream)} min): n8n down 10 min`,
			through: 'SentiOne Stream Trigger',
			cases: measured.stream.length,
			items: sum(measured.stream, 'expected'),
			lost: sum(measured.stream, 'lost'),
			duplicated: sum(measured.stream, 'duplicated'),
			outcome:
				"backfill 5 min and a gap search on SentiOne's clock (offset from the Date of the stream's answer); each once",
		},
	];
	writePart({
		part: 'clock-skew',
		title: 'Clock skew between n8n and SentiOne',
		command: 'npx jest test/engine/reliability/clockSkew.test.ts',
		rows,
		notes: [
			"SentiOne's clock stands −15, −2, 0, +2 and +15 minutes off n8n's, and each case starts with the node knowing nothing of it (a fresh process): the node reads it from the HTTP Date of SentiOne's answers (D-50).",
		],
		figures: { ...measured },
	});
});
