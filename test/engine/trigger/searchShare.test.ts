/**
 * The poll trigger's share of the search budget (issue 17): a new SentiOne Trigger left on n8n's
 * default schedule (a check every minute) must not starve other workflows using the same key.
 * A simulated hour (the node's clock and the simulator's move together, the simulator enforces the
 * real 30 searches an hour): the trigger is polled every minute with its defaults, another workflow
 * searches every 4 minutes, mentions keep arriving. The other workflow never gets a 429, the
 * trigger spends at most its documented share (12 an hour, at most one check every 5 minutes), and
 * it still passes every mention on exactly once. The same hour without a share of its own shows
 * what the share prevents.
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
import { POLL_DEFAULTS } from '../../../nodes/SentiOne/trigger/poll/pollSettings';
import { type SimClock, useSimulator } from '../../support/simClock';
import { idsOf, tally } from '../../support/tally';
import { BASIC } from '../../support/keys';

let sim: Sim;
let clock: SimClock;

useSimulator(
	['--projects', '1', '--mentions', '40'],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);

interface Hour {
	triggerRequests: number[];
	triggerErrors: string[];
	otherStatuses: number[];
	otherErrors: string[];
	lost: string[];
	duplicated: string[];
}

/** A poll trigger on the Basic key, on its defaults but for these options. */
const onDefaults = (projectId: number, options: IDataObject = {}) =>
	new PollHarness(pollOnDefaults(projectId, options), { apiKey: BASIC, baseUrl: sim.base });

/** One simulated hour: the trigger checks every minute, another workflow searches every 4 minutes. */
async function hour(triggerOptions: IDataObject): Promise<Hour> {
	await admin(sim, 'POST', '/limits', { mode: 'spec', resetWindows: true });
	// start at the top of an hour, so the hour is one window of the simulator's budget
	await clock.toNextHour();
	const projectId = await emptyProject(sim, `share ${JSON.stringify(triggerOptions)}`);
	const trigger = onDefaults(projectId, triggerOptions);
	const other = searchRecentWorkflow(1001, { returnAll: false, limit: 10, filters: {} });
	await admin(sim, 'DELETE', '/requests');
	const otherStatuses: number[] = [];
	const otherErrors: string[] = [];
	const triggerErrors: string[] = [];
	for (let minute = 0; minute < 60; minute++) {
		if (minute % 7 === 3) await addMentions(sim, projectId, 2);
		const outcome = await trigger.poll(minute === 0 ? 'activate' : 'update');
		if (outcome.error) triggerErrors.push(outcome.error.message);
		if (minute % 4 === 1) {
			const result = await run(sim, other, { key: BASIC });
			const error = result.nodeError(NODE);
			if (error) otherErrors.push(error.message);
			else jsonOf(result);
		}
		await clock.advance(60_000);
	}
	const { requests } = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	for (const r of requests)
		if ((r.path as string).includes('/projects/1001/')) otherStatuses.push(r.status as number);
	const triggerRequests = requests
		.filter((r) => (r.path as string).includes(`/projects/${projectId}/`))
		.map((r) => Date.parse(r.at as string));
	// then, with the budget back, everything collected in the hour has come through
	for (let k = 0; k < 6; k++) {
		await clock.advance(10 * 60_000);
		const outcome = await trigger.poll('update');
		if (outcome.error) triggerErrors.push(outcome.error.message);
	}
	const t = tally(idsOf(trigger.allItems()), await groundTruth(sim, projectId));
	return {
		triggerRequests,
		triggerErrors,
		otherStatuses,
		otherErrors,
		lost: t.lost,
		duplicated: t.duplicated,
	};
}

test('with its defaults, a trigger polled every minute spends at most its share and never makes another workflow get a 429', async () => {
	const h = await hour({});
	expect(POLL_DEFAULTS.requestsPerHour).toBe(12);
	expect(h.triggerRequests.length).toBeLessThanOrEqual(12);
	expect(h.triggerRequests.length).toBeGreaterThanOrEqual(10);
	// spaced: at most one check every 5 minutes (give or take the schedule's own minute)
	for (let i = 1; i < h.triggerRequests.length; i++) {
		expect(h.triggerRequests[i] - h.triggerRequests[i - 1]).toBeGreaterThanOrEqual(4 * 60_000);
	}
	expect(h.otherErrors).toEqual([]);
	expect(h.triggerErrors).toEqual([]);
	expect(h.otherStatuses).toHaveLength(15);
	expect(h.otherStatuses.every((s) => s === 200)).toBe(true);
	expect(h.lost).toEqual([]);
	expect(h.duplicated).toEqual([]);
});

test('without a share of its own (0), the same hour uses up the key and the other workflow gets 429s', async () => {
	const h = await hour({ requestsPerHour: 0 });
	expect(h.triggerRequests.length).toBeGreaterThan(20);
	expect(h.otherErrors.length).toBeGreaterThan(0);
	expect(h.otherErrors[0]).toMatch(/search budget is used up \(429\)/);
});

test('a share of 30 checks every 2 minutes; the share is refused outside 0–30', async () => {
	const h = await hour({ requestsPerHour: 30 });
	// the share may be the whole budget: with the other workflow's 15 the key runs out and the
	// trigger waits for the reset (its 429 is reported once)
	expect(h.triggerRequests.length).toBeLessThanOrEqual(30);
	for (let i = 1; i < h.triggerRequests.length; i++) {
		expect(h.triggerRequests[i] - h.triggerRequests[i - 1]).toBeGreaterThanOrEqual(2 * 60_000);
	}
	expect(h.lost).toEqual([]);
	expect(h.duplicated).toEqual([]);
	const bad = onDefaults(1001, { requestsPerHour: 31 });
	expect((await bad.poll('activate')).error?.message).toBe(
		'Options → Search Requests per Hour: "31" is not valid. Expected a whole number from 0 to 30.',
	);
});

test('a project busier than the share: requests spread over the hour, never over the share; "falling behind" said once; nothing lost', async () => {
	await admin(sim, 'POST', '/limits', { mode: 'spec', resetWindows: true });
	await clock.toNextHour();
	const projectId = await emptyProject(sim, 'busy');
	const trigger = onDefaults(projectId);
	await admin(sim, 'DELETE', '/requests');
	const errors: string[] = [];
	// 480 mentions an hour for 90 minutes (the share carries 12 × 25 = 300 an hour), then quiet
	for (let minute = 0; minute < 240; minute++) {
		if (minute < 90 && minute % 5 === 2) await addMentions(sim, projectId, 40);
		const outcome = await trigger.poll(minute === 0 ? 'activate' : 'update');
		if (outcome.error) errors.push(outcome.error.message);
		await clock.advance(60_000);
	}
	const { requests } = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	// the share is of searches (a catch-up export spends the export budget)
	const at = requests
		.filter((r) => (r.path as string).includes(`/projects/${projectId}/`) && r.group === 'search')
		.map((r) => Date.parse(r.at as string));
	const perHour = new Map<number, number>();
	for (const t of at)
		perHour.set(Math.floor(t / 3_600_000), (perHour.get(Math.floor(t / 3_600_000)) ?? 0) + 1);
	expect(Math.max(...perHour.values())).toBeLessThanOrEqual(12);
	// spread: no clock hour's requests all in its first half
	const firstHour = [...perHour.keys()].sort()[0];
	const lateInFirstHour = at.filter(
		(t) => Math.floor(t / 3_600_000) === firstHour && t % 3_600_000 >= 30 * 60_000,
	);
	expect(lateInFirstHour.length).toBeGreaterThanOrEqual(4);
	expect(errors.filter((e) => /falling behind/.test(e))).toHaveLength(1);
	expect(errors.find((e) => /falling behind/.test(e))).toMatch(
		/Search Requests per Hour: 12, at most 2 per check/,
	);
	expect(errors.filter((e) => !/falling behind/.test(e))).toEqual([]);
	const t = tally(idsOf(trigger.allItems()), await groundTruth(sim, projectId));
	expect(t.expected).toBe(18 * 40);
	expect(t.lost).toEqual([]);
	expect(t.duplicated).toEqual([]);
});

test('a poisoned share bookkeeping in the saved state cannot silence the trigger beyond the hour', async () => {
	await admin(sim, 'POST', '/limits', { mode: 'spec', resetWindows: true });
	const projectId = await emptyProject(sim, 'poisoned share');
	const trigger = onDefaults(projectId);
	await trigger.poll('activate');
	const poisons: Array<[string, (now: number) => IDataObject]> = [
		['a check time a year ahead', (now) => ({ checkedAt: now + 365 * 86_400_000 })],
		['a last check cost of 10⁹ requests', () => ({ lastCost: 1e9 })],
		['a last check cost of 100 requests (more than a check may send)', () => ({ lastCost: 100 })],
		[
			'a spent count of 10⁹ this hour',
			(now) => ({ spent: { hour: Math.floor(now / 3_600_000) * 3_600_000, count: 1e9 } }),
		],
		[
			'every field text',
			() => ({ checkedAt: 'soon', lastCost: 'many', spent: 'all', behindChecks: 'x' }),
		],
	];
	for (const [name, poison] of poisons) {
		const state = trigger.staticData().sentiOneMentions as IDataObject;
		Object.assign(state, poison(clock.now));
		await admin(sim, 'DELETE', '/requests');
		// checks every minute for 61 minutes: the trigger sends again within the hour
		let firstRequestAfter: number | undefined;
		for (let minute = 1; minute <= 61 && firstRequestAfter === undefined; minute++) {
			await clock.advance(60_000);
			const outcome = await trigger.poll('update');
			expect({ name, error: outcome.error?.message }).toEqual({ name, error: undefined });
			const { requests } = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
			if (requests.length > 0) firstRequestAfter = minute;
		}
		expect({ name, within: firstRequestAfter !== undefined && firstRequestAfter <= 61 }).toEqual({
			name,
			within: true,
		});
	}
});
