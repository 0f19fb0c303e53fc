/**
 * Several SentiOne Triggers and a workflow on one API key (issue 21, field conditions): N poll
 * triggers (N = 1, 2, 3, 5) on their defaults, each polled on n8n's default schedule (every
 * minute), and an action workflow that searches every 10 minutes, all on the same Basic key, over
 * three simulated hours against the simulator's real 30 searches an hour (the node's clock and the
 * simulator's move together). Each trigger learns from the rate-limit headers what the others spend
 * and takes only what they leave (trigger/poll/searchShare.ts): the key's searches per clock hour
 * stay within the budget, the action workflow never gets a 429, a trigger that must give way says
 * so once (before anyone gets a 429), and every mention is passed on once.
 */
import type { IDataObject } from 'n8n-workflow';

import { PollHarness, pollOnDefaults } from '../../support/triggers';
import { jsonOf, NODE, run, searchRecentWorkflow } from '../../support/actions';
import {
	admin,
	type Loose,
	type Sim,
	emptyProject,
	groundTruth,
	addMentions,
} from '../../support/simulator';
import { type SimClock, useSimulator } from '../../support/simClock';
import { idsOf, tally } from '../../support/tally';
import { BASIC } from '../../support/keys';
import { HOUR, MINUTE } from '../../support/time';
import { type ResultRow, writePart } from '../../support/results';

jest.setTimeout(240_000);

let sim: Sim;
let clock: SimClock;
const rows: ResultRow[] = [];
const figures: Record<string, unknown> = {};

useSimulator(
	['--projects', '1', '--mentions', '40'],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
afterAll(async () => {
	writePart({
		part: 'shared-key',
		title: 'Several triggers and workflows on one key',
		command: 'npx jest test/engine/trigger/sharedKey.test.ts',
		rows,
		figures,
		notes: [
			'N SentiOne Triggers on their defaults (Search Requests per Hour 12 each, Poll Times every minute) and one workflow searching every 10 minutes, on one Basic key, for 3 simulated hours against the simulator\'s 30 searches an hour; then a quiet hour for the triggers to finish. "Searches per clock hour" counts every search of the key (triggers and workflow).',
			'Before (issue 21, measured against an independent server): three triggers on defaults and one workflow spent 34 searches an hour, and the workflow got 429 on 4 of its 12 runs in two hours, without a word.',
		],
	});
});

const HOURS = 3;

interface Outcome {
	perHour: number[];
	triggerPerHour: number[];
	workflowRuns: number;
	workflow429: number;
	trigger429: number;
	sharedKeyNotices: number;
	otherErrors: string[];
	mentions: number;
	lost: number;
	duplicated: number;
}

async function scenario(n: number): Promise<Outcome> {
	await admin(sim, 'POST', '/limits', { mode: 'spec', resetWindows: true });
	// start at the top of an hour, so each clock hour is one window of the simulator's budget
	await clock.toNextHour();
	const start = clock.now;
	const projects: number[] = [];
	const triggers: PollHarness[] = [];
	for (let i = 0; i < n; i++) {
		const projectId = await emptyProject(sim, `shared key ${n}.${i}`);
		projects.push(projectId);
		triggers.push(new PollHarness(pollOnDefaults(projectId), { apiKey: BASIC, baseUrl: sim.base }));
	}
	const workflow = searchRecentWorkflow(1001, { returnAll: false, limit: 10, filters: {} });
	await admin(sim, 'DELETE', '/requests');
	const errors: string[] = [];
	let workflowRuns = 0;
	let workflow429 = 0;
	const otherErrors: string[] = [];
	for (let minute = 0; minute < HOURS * 60; minute++) {
		// each trigger's project collects a few mentions now and then (staggered)
		for (let i = 0; i < n; i++)
			if (minute % 6 === i % 6 && minute > 0) await addMentions(sim, projects[i], 3);
		for (const trigger of triggers) {
			const outcome = await trigger.poll(minute === 0 ? 'activate' : 'update');
			if (outcome.error) errors.push(outcome.error.message);
		}
		if (minute % 10 === 5) {
			workflowRuns++;
			const result = await run(sim, workflow, { key: BASIC });
			const error = result.nodeError(NODE);
			if (error && /\(429\)/.test(error.message)) workflow429++;
			else if (error) otherErrors.push(error.message);
			else jsonOf(result);
		}
		await clock.advance(MINUTE);
	}
	const { requests } = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	const searches = requests.filter((r) => r.group === 'search');
	const hourOf = (r: Loose) => Math.floor((Date.parse(r.at as string) - start) / HOUR);
	const perHour = Array.from({ length: HOURS }, (_, h) => searches.filter((r) => hourOf(r) === h));
	// a quiet hour: the triggers finish what is left
	for (let minute = 0; minute < 60; minute++) {
		for (const trigger of triggers) {
			const outcome = await trigger.poll('update');
			if (outcome.error) errors.push(outcome.error.message);
		}
		await clock.advance(MINUTE);
	}
	let mentions = 0;
	let lost = 0;
	let duplicated = 0;
	for (let i = 0; i < n; i++) {
		const t = tally(idsOf(triggers[i].allItems()), await groundTruth(sim, projects[i]));
		mentions += t.expected;
		lost += t.lost.length;
		duplicated += t.duplicated.length;
	}
	const sharedKeyNotices = errors.filter((e) => /search budget is shared/.test(e)).length;
	const trigger429 = errors.filter((e) => /\(429\)/.test(e)).length;
	otherErrors.push(...errors.filter((e) => !/search budget is shared|\(429\)/.test(e)));
	return {
		perHour: perHour.map((list) => list.length),
		triggerPerHour: perHour.map(
			(list) => list.filter((r) => !(r.path as string).includes('/projects/1001/')).length,
		),
		workflowRuns,
		workflow429,
		trigger429,
		sharedKeyNotices,
		otherErrors,
		mentions,
		lost,
		duplicated,
	};
}

test.each([1, 2, 3, 5])(
	'%i trigger(s) on defaults and a workflow on one key: within 30 searches an hour, no 429 for anyone, nothing lost or repeated',
	async (n) => {
		const o = await scenario(n);
		figures[`${n} trigger(s)`] = o as unknown as IDataObject;
		rows.push({
			fault: `${n} poll trigger${n === 1 ? '' : 's'} on defaults + a workflow searching every 10 min, one key, ${HOURS} simulated hours`,
			through: 'SentiOne Trigger (searchShare.ts), Mention → Search Recent',
			cases: o.workflowRuns,
			items: o.mentions,
			lost: o.lost,
			duplicated: o.duplicated,
			outcome: `searches per clock hour ${o.perHour.join(', ')} (triggers ${o.triggerPerHour.join(', ')}); the workflow got ${o.workflow429} 429 in ${o.workflowRuns} runs, the triggers ${o.trigger429}; "budget is shared" said ${o.sharedKeyNotices} time(s)`,
		});
		expect(o.otherErrors).toEqual([]);
		expect(Math.max(...o.perHour)).toBeLessThanOrEqual(30);
		expect(o.workflow429).toBe(0);
		expect(o.trigger429).toBe(0);
		expect(o.lost).toBe(0);
		expect(o.duplicated).toBe(0);
		// alone, a trigger keeps its whole share and has nothing to say; with others it gives way,
		// says so (once a day per trigger) and still gets some of every hour
		if (n === 1) expect(o.sharedKeyNotices).toBe(0);
		if (n >= 3) expect(o.sharedKeyNotices).toBeGreaterThanOrEqual(1);
		// (once a day: a scenario may cross midnight)
		expect(o.sharedKeyNotices).toBeLessThanOrEqual(2 * n);
		expect(Math.min(...o.triggerPerHour)).toBeGreaterThanOrEqual(n);
	},
);
