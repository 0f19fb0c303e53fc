/**
 * The rate-limit choice of the searches (wait / stop / fail), mid-run and across items, against
 * the simulator's real hourly windows. The node's clock is the simulator's (SimClock): "wait until
 * the reset" jumps both clocks to the top of the hour, so nothing here waits in real time.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	admin,
	type Sim,
	clearLog,
	onPath,
	projectWithMentions,
	requestLog,
} from '../../support/simulator';
import {
	hintsOf,
	jsonOf,
	loadWorkflow,
	NODE,
	outputOf,
	run,
	withParameters,
} from '../../support/actions';
import { NOW_MS } from '../../support/time';
import { SimClock, useSimulator } from '../../support/simClock';
import { ENTERPRISE } from '../../support/keys';

let sim: Sim;
let clock: SimClock;
let projectId: number;

const RESET_MS = Date.UTC(2026, 10, 21, 11); // the top of the hour after NOW (10:30)
const RESET = '2026-11-21 11:00 UTC'; // RESET_MS as messages show it, in the workflow's zone

useSimulator(['--mentions', '200'], (started, startedClock) => {
	sim = started;
	clock = startedClock;
});
beforeEach(async () => {
	projectId = await projectWithMentions(sim, 100); // 4 pages
	await clearLog(sim);
});

const searchRequests = async () => onPath(await requestLog(sim), /\/mentions\/(recent\/)?search$/);

function returnAll(options: IDataObject, extra: IDataObject = {}) {
	return withParameters(loadWorkflow('mention-search-recent'), {
		project: { __rl: true, value: String(projectId), mode: 'id' },
		returnAll: true,
		filters: {},
		simplify: true,
		options,
		...extra,
	});
}

async function searchBudget(n: number) {
	await admin(sim, 'POST', '/limits', { hourly: { search: n } });
}

describe('the budget runs out part-way through a Return All (3 of 4 pages affordable)', () => {
	beforeEach(() => searchBudget(3));

	test('fail: stops with an error naming the reset, without sending the request that would be refused', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'fail' }), { key: ENTERPRISE });
		const error = result.nodeError(NODE);
		expect(error?.message).toBe(
			`SentiOne's search budget is used up (3 requests an hour); it resets at ${RESET} (in 30 min).`,
		);
		expect(error?.description).toContain('No request was sent, so no budget was wasted');
		const log = await searchRequests();
		expect(log).toHaveLength(3);
		expect(log.every((r) => r.status === 200)).toBe(true);
	});

	test('fail is the default', async () => {
		const result = await run(sim, returnAll({}), { key: ENTERPRISE });
		expect(result.nodeError(NODE)?.message).toContain("SentiOne's search budget is used up");
		expect(await searchRequests()).toHaveLength(3);
	});

	test('stop: returns the 75 mentions fetched, with a notice that the result is incomplete', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'stop' }), { key: ENTERPRISE });
		expect(jsonOf(result)).toHaveLength(75);
		expect(hintsOf(result)).toEqual([
			expect.objectContaining({
				type: 'warning',
				message: `Incomplete result for input item 1: Stopped after 75 items (3 pages): the hourly budget is used up until ${RESET} (in 30 min). The items fetched so far are returned; run again after the reset for the rest.`,
			}),
		]);
		expect(await searchRequests()).toHaveLength(3);
		expect(clock.slept).toEqual([]);
	});

	test('wait: pauses until the reset, then fetches the last page', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'wait', maxWaitMinutes: 45 }), {
			key: ENTERPRISE,
		});
		const rows = jsonOf(result);
		expect(rows).toHaveLength(100);
		expect(new Set(rows.map((r) => r.id)).size).toBe(100);
		expect(hintsOf(result)).toEqual([]);
		const log = await searchRequests();
		expect(log).toHaveLength(4);
		expect(log.every((r) => r.status === 200)).toBe(true);
		// one wait: from 10:30 to one second after the reset
		expect(clock.slept).toEqual([RESET_MS - NOW_MS + 1000]);
		// the fourth page continues from the third page's cursor, with the same body
		expect(typeof log[3].query.cursor).toBe('string');
		expect(log[3].body).toEqual(log[0].body);
	});

	test('wait longer than the maximum allowed: fails at once, no request wasted', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'wait', maxWaitMinutes: 10 }), {
			key: ENTERPRISE,
		});
		const error = result.nodeError(NODE);
		expect(error?.message).toContain(`it resets at ${RESET}`);
		expect(error?.description).toContain(
			'Waiting for the reset would exceed the longest wait you allowed',
		);
		expect(await searchRequests()).toHaveLength(3);
		expect(clock.slept).toEqual([]);
	});
});

describe('the known budget carries from item to item (one transport per execution)', () => {
	test('stop: item 1 completes, item 2 stops part-way, item 3 sends nothing', async () => {
		await searchBudget(3);
		const workflow = withParameters(loadWorkflow('mention-search-per-item'), {});
		const inputItems = [
			{ projectId, limit: 50, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
			{ projectId, limit: 100, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
			{ projectId, limit: 100, sortType: 'PublishedAtAscending', sentiments: [], sourceTypes: [] },
		];
		const stopping = withParameters(workflow, { options: { onRateLimit: 'stop' } });
		const result = await run(sim, stopping, { key: ENTERPRISE, inputItems });
		const items = outputOf(result);
		const perItem = [0, 1, 2].map(
			(i) => items.filter((item) => (item.pairedItem as { item: number }).item === i).length,
		);
		expect(perItem).toEqual([50, 25, 0]);
		expect(hintsOf(result).map((h) => h.message)).toEqual([
			expect.stringContaining(
				'Incomplete result for input item 2: Stopped after 25 items (1 page)',
			),
			expect.stringContaining(
				'Incomplete result for input item 3: Stopped after 0 items (0 pages)',
			),
		]);
		const log = await searchRequests();
		expect(log).toHaveLength(3);
		expect(log.every((r) => r.status === 200)).toBe(true);
	});

	test('wait: the second item waits for the reset the first one used up', async () => {
		await searchBudget(2);
		const workflow = withParameters(loadWorkflow('mention-search-per-item'), {
			options: { onRateLimit: 'wait' },
		});
		const inputItems = [
			{ projectId, limit: 50, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
			{ projectId, limit: 25, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
		];
		const items = outputOf(await run(sim, workflow, { key: ENTERPRISE, inputItems }));
		expect(items).toHaveLength(75);
		expect(clock.slept).toEqual([RESET_MS - NOW_MS + 1000]);
		expect((await searchRequests()).every((r) => r.status === 200)).toBe(true);
	});
});

describe('a 429 the node could not foresee (the budget was spent elsewhere)', () => {
	beforeEach(async () => {
		await admin(sim, 'POST', '/faults', { force429: { group: 'search', times: 1 } });
	});

	test('fail: the mapped 429 names the budget and the reset time', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'fail' }), { key: ENTERPRISE });
		const error = result.nodeError(NODE);
		expect(error?.message).toBe(
			`SentiOne's search budget is used up (429): at most 30 requests an hour for this key. It resets at ${RESET} (in 30 min).`,
		);
		expect(error?.description).toContain('share one budget of 30 requests an hour');
		expect((error as { httpCode?: string }).httpCode).toBe('429');
		expect(await searchRequests()).toHaveLength(1);
	});

	test('stop: returns nothing, with the notice', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'stop' }), { key: ENTERPRISE });
		expect(outputOf(result)).toHaveLength(0);
		expect(hintsOf(result)[0].message).toContain(
			`Stopped after 0 items (0 pages): the hourly budget is used up until ${RESET}`,
		);
		expect(await searchRequests()).toHaveLength(1);
	});

	test('wait: waits until the reset named by the 429, then continues to the end', async () => {
		const result = await run(sim, returnAll({ onRateLimit: 'wait' }), { key: ENTERPRISE });
		expect(jsonOf(result)).toHaveLength(100);
		expect(clock.slept).toEqual([RESET_MS - NOW_MS + 1000]);
		const log = await searchRequests();
		expect(log.map((r) => r.status)).toEqual([429, 200, 200, 200, 200]);
	});
});

describe('continueOnFail with a rate-limit failure', () => {
	test('the failed item becomes { error, description } with its pairedItem; the others still run', async () => {
		await searchBudget(1);
		const workflow = withParameters(
			loadWorkflow('mention-search-per-item'),
			{ options: { onRateLimit: 'fail' } },
			{ onError: 'continueRegularOutput' },
		);
		const inputItems = [
			{ projectId, limit: 5, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
			{ projectId, limit: 5, sortType: 'PublishedAtDescending', sentiments: [], sourceTypes: [] },
		];
		const items = outputOf(await run(sim, workflow, { key: ENTERPRISE, inputItems }));
		expect(items).toHaveLength(6);
		expect(items.slice(0, 5).every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
		expect(items[5]).toEqual({
			json: {
				error: `SentiOne's search budget is used up (1 requests an hour); it resets at ${RESET} (in 30 min).`,
				description: expect.stringContaining('No request was sent'),
			},
			pairedItem: { item: 1 },
		});
		expect(await searchRequests()).toHaveLength(1);
	});
});
