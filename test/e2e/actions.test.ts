/**
 * Three workflows a user builds with the SentiOne node, run the way n8n runs them: created in a
 * real n8n (the package installed as a community package; the n8n this run's end-to-end files
 * share) and run with "Execute workflow" (the editor's REST call: n8n's CLI `execute` is the smoke
 * set's, test/e2e/smoke.test.ts), and their outputs compared with the simulator's own ground truth
 * (`/__admin/mentions`, `/__admin/count`, the request log):
 *
 * - bulk export of a large historical range through one export stream (thousands of mentions);
 * - project create → list → update → delete;
 * - Search Recent with every filter and Return All (and a second search with "Published in the Last").
 */
import {
	admin,
	api,
	publishedBetween,
	startRunningSim,
	type Loose,
	type Sim,
} from '../support/simulator';
import { SIMPLE_COLUMNS } from '../../nodes/SentiOne/shared/simplify';
import { nodeOutput, sharedN8n, type Execution, type N8nSession } from '../support/n8n/host';
import {
	CREDENTIALS,
	historicalExport,
	MANUAL,
	project,
	sentiOne,
	sentiOneCredentials,
	workflow,
} from '../support/n8n/workflows';
import { widenCollectedAt } from '../../nodes/SentiOne/shared/verify';
import { HOUR, DAY, iso } from '../support/time';

const NOW = Math.floor(Date.now() / 60_000) * 60_000;
/** how far the simulator's clock (started at NOW) runs behind the real one: the node dates by it (D-50) */
let simBehind = 0;

let sim: Sim;
let n8n: N8nSession;

interface Logged {
	method: string;
	path: string;
	status: number | null;
	group: string;
	body: Loose;
	query: Record<string, string>;
}

async function requestLog(): Promise<Logged[]> {
	return (await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests;
}

// ---------------------------------------------------------------- the workflows

const EXPORT_FROM = NOW - 330 * DAY;
const EXPORT_TO = NOW - 20 * DAY;
const exportWorkflow = historicalExport(
	'e2eBulkExport001',
	'E2E: bulk export of a historical range',
	'Export history',
	EXPORT_FROM,
	EXPORT_TO,
);

const PROJECT_NAME = `E2E lifecycle ${NOW.toString(36)}`;
const lifecycleWorkflow = workflow(
	'e2eProjectLife01',
	'E2E: project create → list → update → delete',
	[
		sentiOne(
			'Create project',
			{
				resource: 'project',
				operation: 'create',
				name: PROJECT_NAME,
				query: '"e2e phone" OR e2ephone* NOT jobs',
			},
			CREDENTIALS.basic,
		),
		sentiOne(
			'List projects',
			{ resource: 'project', operation: 'getAll', returnAll: true },
			CREDENTIALS.basic,
		),
		sentiOne(
			'Update project',
			{
				resource: 'project',
				operation: 'update',
				project: { __rl: true, value: "={{ $('Create project').first().json.id }}", mode: 'id' },
				name: "={{ $('Create project').first().json.name }} (renamed)",
				query: '"e2e phone" OR e2ephone* OR "e2e mobile"',
			},
			CREDENTIALS.basic,
			{ executeOnce: true },
		),
		sentiOne(
			'Delete project',
			{
				resource: 'project',
				operation: 'deleteProject',
				project: { __rl: true, value: '={{ $json.id }}', mode: 'id' },
			},
			CREDENTIALS.basic,
		),
	],
);

const SEARCH_FILTERS = {
	publishedAfter: iso(NOW - 6 * DAY),
	publishedBefore: iso(NOW - 2 * HOUR),
	collectedAfter: iso(NOW - 6.5 * DAY),
	collectedBefore: iso(NOW - HOUR),
	sourceTypes: ['X', 'Facebook', 'Reviews', 'Forums'],
	mentionTypes: ['Post', 'Comment'],
	sentiments: ['Negative', 'Positive'],
	query: 'acme OR acmephone* OR "battery life"',
	languages: 'en, pl, en-GB',
	countries: 'pl, GB, US',
};
/** The same filters as the API wants them, written out by hand (D-14). */
const API_FILTERS = {
	publishedAt: { from: SEARCH_FILTERS.publishedAfter, to: SEARCH_FILTERS.publishedBefore },
	collectedAt: { from: SEARCH_FILTERS.collectedAfter, to: SEARCH_FILTERS.collectedBefore },
	source: { type: ['X', 'Facebook', 'Reviews', 'Forums'] },
	type: ['Post', 'Comment'],
	content: {
		sentiment: ['Negative', 'Positive'],
		query: 'acme OR acmephone* OR "battery life"',
		language: [{ code: 'en' }, { code: 'pl' }, { code: 'en-gb' }],
	},
	location: { country: [{ code: 'PL' }, { code: 'GB' }, { code: 'US' }] },
};
const searchWorkflow = workflow(
	'e2eSearchRecent1',
	'E2E: Search Recent with every filter',
	[
		sentiOne(
			'Every filter',
			{
				resource: 'mention',
				operation: 'searchRecent',
				project: project(1001),
				returnAll: true,
				filters: SEARCH_FILTERS,
				sortType: 'CollectedAtAscending',
				options: {},
			},
			CREDENTIALS.basic,
		),
	],
	[
		sentiOne(
			'Last 3 days',
			{
				resource: 'mention',
				operation: 'searchRecent',
				project: project(1001),
				returnAll: true,
				filters: {
					publishedInLast: { period: { amount: 3, unit: 'days' } },
					sentiments: ['Negative'],
					sourceTypes: ['X', 'Facebook', 'Instagram'],
					query: 'acme*',
				},
				options: {},
			},
			CREDENTIALS.basic,
		),
	],
);

// ---------------------------------------------------------------- setup

beforeAll(async () => {
	simBehind = Date.now() - NOW;
	sim = await startRunningSim({ now: NOW, mentions: 6000, seed: 5 });
	n8n = await sharedN8n();
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	await n8n.createWorkflows([exportWorkflow, lifecycleWorkflow, searchWorkflow]);
}, 15 * 60_000);

afterAll(async () => {
	await sim?.stop();
});

/** "Execute workflow": a manual run from the workflow's trigger; it must succeed. */
async function execute(workflowId: string): Promise<Execution> {
	const execution = await n8n.run(workflowId, MANUAL);
	if (execution.status !== 'success' || execution.data.resultData.error)
		throw new Error(
			`the workflow failed (${execution.status}): ${JSON.stringify(execution.data.resultData.error)}`,
		);
	return execution;
}

// ---------------------------------------------------------------- the tests

test('bulk export: a year of history arrives through one export stream, exactly the ground truth in order', async () => {
	await admin(sim, 'DELETE', '/requests');
	const result = await execute(exportWorkflow.id);
	const rows = nodeOutput(result, 'Export history');

	const truth = await publishedBetween(sim, 1002, EXPORT_FROM, EXPORT_TO);
	expect(truth.length).toBeGreaterThan(2000);
	expect(rows.map((r) => r.id)).toEqual(truth.map((m) => m.id));
	rows.forEach((row, i) => {
		expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect([row.publishedAt, row.sentiment, row.mentionType]).toEqual([
			truth[i].publishedAt,
			truth[i].sentiment,
			truth[i].type,
		]);
	});

	// one request, on the historical export stream, with the range as filters
	const sent = (await requestLog()).filter((r) => r.path.startsWith('/api/'));
	expect(sent).toHaveLength(1);
	expect(sent[0]).toMatchObject({
		method: 'POST',
		path: '/api/public/v2/projects/1002/mentions/search/stream',
		status: 200,
		group: 'export',
		body: {
			filters: { publishedAt: { from: iso(EXPORT_FROM), to: iso(EXPORT_TO) } },
			sortType: 'PublishedAtAscending',
		},
	});
	expect(sent[0].query).toEqual({});
});

test('project create → list → update → delete, each step seeing the one before', async () => {
	await admin(sim, 'DELETE', '/requests');
	const result = await execute(lifecycleWorkflow.id);

	const [created] = nodeOutput(result, 'Create project');
	expect(created).toEqual({
		id: expect.any(Number),
		name: PROJECT_NAME,
		query: '"e2e phone" OR e2ephone* NOT jobs',
	});

	const listed = nodeOutput(result, 'List projects');
	expect(listed.map((p) => p.id)).toEqual([1001, 1002, 1003, created.id]);
	expect(listed.find((p) => p.id === created.id)).toEqual({ id: created.id, name: PROJECT_NAME });

	// Update ran once (Execute Once), for the created project, not once per listed project
	const updated = nodeOutput(result, 'Update project');
	expect(updated).toEqual([
		{
			id: created.id,
			name: `${PROJECT_NAME} (renamed)`,
			query: '"e2e phone" OR e2ephone* OR "e2e mobile"',
		},
	]);

	expect(nodeOutput(result, 'Delete project')).toEqual([{ deleted: true, id: created.id }]);

	// SentiOne's side: the calls in order, and the project is gone
	const sent = (await requestLog()).filter((r) => r.path.startsWith('/api/'));
	expect(
		sent.map((r) => `${r.method} ${r.path.replace('/api/public/v2', '')} ${r.status}`),
	).toEqual([
		'POST /projects 201',
		'GET /projects 200',
		`PUT /projects/${String(created.id)} 200`,
		`DELETE /projects/${String(created.id)} 204`,
	]);
	expect(sent[2].body).toEqual({
		name: `${PROJECT_NAME} (renamed)`,
		query: '"e2e phone" OR e2ephone* OR "e2e mobile"',
	});
	const after = await api(sim, 'GET', '/projects');
	expect(after.json.data.map((p: Loose) => p.id)).toEqual([1001, 1002, 1003]);
});

test('Search Recent with every filter and Return All returns exactly what the simulator counts', async () => {
	await admin(sim, 'DELETE', '/requests');
	const before = Date.now();
	const result = await execute(searchWorkflow.id);
	const after = Date.now();
	const searches = (await requestLog()).filter((r) => r.path.startsWith('/api/'));

	// --- every filter
	const rows = nodeOutput(result, 'Every filter');
	const expected = (
		await admin<{ count: number }>(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'recent',
			filters: API_FILTERS,
		})
	).count;
	expect(expected).toBeGreaterThan(50); // several pages
	expect(rows).toHaveLength(expected);
	expect(new Set(rows.map((r) => r.id)).size).toBe(expected);
	for (const row of rows) {
		expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect(API_FILTERS.content.sentiment).toContain(row.sentiment);
		expect(API_FILTERS.source.type).toContain(row.sourceType);
		expect(API_FILTERS.type).toContain(row.mentionType);
		expect(['en', 'pl', 'en-gb']).toContain(row.language);
		expect(['PL', 'GB', 'US']).toContain(row.country);
		const published = Date.parse(String(row.publishedAt));
		const collected = Date.parse(String(row.collectedAt));
		expect(published >= NOW - 6 * DAY && published < NOW - 2 * HOUR).toBe(true);
		expect(collected >= NOW - 6.5 * DAY && collected < NOW - HOUR).toBe(true);
	}
	const collectedOrder = rows.map((r) => Date.parse(String(r.collectedAt)));
	expect(collectedOrder).toEqual(collectedOrder.slice().sort((a, b) => a - b));
	// the node translated every filter into the API's shape, and paged ⌈N/25⌉ times
	const everyFilter = searches.filter((r) => r.body?.sortType === 'CollectedAtAscending');
	expect(everyFilter).toHaveLength(Math.ceil(expected / 25));
	for (const r of everyFilter) {
		expect(r.path).toBe('/api/public/v2/projects/1001/mentions/recent/search');
		// collectedAt goes out widened by whole seconds (verify.ts widenCollectedAt); the exact range is applied locally
		expect(r.body.filters).toEqual(widenCollectedAt({ filters: API_FILTERS }).filters);
	}

	// --- published in the last 3 days: the node computes the start at run time
	const lastDays = nodeOutput(result, 'Last 3 days');
	const second = searches.filter((r) => r.body?.sortType === 'PublishedAtDescending');
	expect(second.length).toBeGreaterThan(0);
	const from = Date.parse(second[0].body.filters.publishedAt.from);
	// on SentiOne's clock, which the node learns from its answers (a difference under 3 s is none)
	expect(from).toBeGreaterThanOrEqual(before - simBehind - 3 * DAY - 4000);
	expect(from).toBeLessThanOrEqual(after - 3 * DAY + 3000);
	const filters = {
		publishedAt: { from: second[0].body.filters.publishedAt.from },
		source: { type: ['X', 'Facebook', 'Instagram'] },
		content: { sentiment: ['Negative'], query: 'acme*' },
	};
	expect(second[0].body.filters).toEqual(filters);
	const count = (
		await admin<{ count: number }>(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'recent',
			filters,
		})
	).count;
	expect(count).toBeGreaterThan(25);
	expect(lastDays).toHaveLength(count);
	expect(second).toHaveLength(Math.ceil(count / 25));
	const published = lastDays.map((r) => Date.parse(String(r.publishedAt)));
	expect(published).toEqual(published.slice().sort((a, b) => b - a));
	expect(lastDays.every((r) => r.sentiment === 'Negative')).toBe(true);
});
