/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * A user's mistakes inside a real n8n, as the editor meets them (the workflows created, run and
 * published over n8n's REST API in the n8n this run's end-to-end files share): the workflow is run with
 * "Execute workflow" (n8n's REST API, the call the editor makes) and the execution is read back the
 * way the editor shows it. Each must fail with the node's own worded error (message and
 * description naming the cause and the fix), never a stack trace or a bare HTTP status:
 *
 * - a mistyped API key;
 * - a Basic key on an Enterprise operation (Search Historical);
 * - a recent search reaching too far back (no request is sent at all);
 * - publishing a SentiOne Trigger set to Historical Search with a Basic key.
 */
import { admin, startSim, type Sim } from '../support/simulator';
import {
	STACK_FRAME,
	sharedN8n,
	type Execution,
	type N8nSession,
	type NodeErrorJson,
} from '../support/n8n/host';
import {
	CREDENTIALS,
	MANUAL,
	node,
	project,
	sentiOne,
	sentiOneCredentials,
	workflow,
} from '../support/n8n/workflows';

let sim: Sim;
let n8n: N8nSession;

const wrongKey = workflow('e2eMistakeKey001', 'Mistake: mistyped API key', [
	sentiOne(
		'Search recent mentions',
		{
			resource: 'mention',
			operation: 'searchRecent',
			project: project(1001),
			limit: 10,
			options: {},
		},
		CREDENTIALS.wrongKey,
	),
]);
const basicOnEnterprise = workflow('e2eMistakeTier01', 'Mistake: Basic key on Search Historical', [
	sentiOne(
		'Search historical mentions',
		{
			resource: 'mention',
			operation: 'searchHistorical',
			project: project(1001),
			limit: 10,
			options: {},
		},
		CREDENTIALS.basic,
	),
]);
const tooFarBack = workflow('e2eMistakeDate01', 'Mistake: recent search 10 days back', [
	sentiOne(
		'Search recent mentions',
		{
			resource: 'mention',
			operation: 'searchRecent',
			project: project(1001),
			limit: 10,
			filters: { publishedAfter: '={{ $now.minus({ days: 10 }).toISO() }}' },
			options: {},
		},
		CREDENTIALS.basic,
	),
]);
const historicalTrigger = {
	...workflow('e2eMistakeTrig01', 'Mistake: historical trigger with a Basic key', []),
	nodes: [
		node(
			'New mention',
			'n8n-nodes-sentione.sentiOneTrigger',
			{
				pollTimes: { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] },
				project: project(1001),
				source: 'historical',
				options: {},
			},
			{ credentials: { sentiOneApi: CREDENTIALS.basic } },
		),
		node('Do nothing', 'n8n-nodes-base.noOp', {}, { position: [220, 0] }),
	],
	connections: { 'New mention': { main: [[{ node: 'Do nothing', type: 'main', index: 0 }]] } },
};

beforeAll(async () => {
	sim = await startSim([
		'--clock',
		'running',
		'--now',
		new Date().toISOString(),
		'--mentions',
		'300',
	]);
	// the n8n this run's end-to-end files share; the credentials and workflows go in as the editor
	// creates them
	n8n = await sharedN8n();
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	await n8n.createWorkflows([wrongKey, basicOnEnterprise, tooFarBack, historicalTrigger]);
}, 15 * 60_000);

afterAll(async () => {
	await sim?.stop();
});

/** The execution failed in the SentiOne node, with a worded message and description and no stack. */
function expectWordedFailure(execution: Execution, nodeName: string): NodeErrorJson {
	expect(execution.status).toBe('error');
	expect(execution.mode).toBe('manual');
	const { error, lastNodeExecuted, runData } = execution.data.resultData;
	expect(lastNodeExecuted).toBe(nodeName);
	expect(error).toBeDefined();
	const shown = error!;
	expect(['NodeApiError', 'NodeOperationError']).toContain(shown.name);
	expect(shown.node?.type).toBe('n8n-nodes-sentione.sentiOne');
	// the node's run shows the same error (the output pane of the node)
	expect(runData[nodeName][0].error?.message).toBe(shown.message);
	for (const text of [shown.message, shown.description ?? '']) {
		expect(text).not.toMatch(STACK_FRAME);
		expect(text).not.toMatch(
			/^(Error|TypeError|Unauthorized|Bad request)\b|Request failed with status code|ECONN|undefined|\[object Object\]/,
		);
	}
	expect(String(shown.description ?? '').length).toBeGreaterThan(20);
	return shown;
}

test('a mistyped API key: the execution says SentiOne does not recognise the key, and how to fix it', async () => {
	const execution = await n8n.run(wrongKey.id, MANUAL);
	const error = expectWordedFailure(execution, 'Search recent mentions');
	expect(error.message).toBe(
		"SentiOne refused the API key (401): SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential's Base URL.",
	);
	expect(JSON.stringify(execution.data)).not.toContain('SENTIONE-APIKEY-basic-dem0');
});

test('a Basic key on Search Historical: the execution says it needs the Enterprise tier', async () => {
	const execution = await n8n.run(basicOnEnterprise.id, MANUAL);
	const error = expectWordedFailure(execution, 'Search historical mentions');
	expect(error.message).toMatch(/Search Historical needs SentiOne's Enterprise tier/);
	expect(`${error.message} ${error.description}`).toMatch(/Basic/);
});

test('a recent search 10 days back: the execution names the filter and the 7-day limit, and nothing is sent', async () => {
	await admin(sim, 'DELETE', '/requests');
	const execution = await n8n.run(tooFarBack.id, MANUAL);
	const error = expectWordedFailure(execution, 'Search recent mentions');
	expect(error.message).toMatch(/Filters → Published After/);
	expect(`${error.message} ${error.description}`).toMatch(
		/more than 7 days ago.*Search Historical/s,
	);
	const sent = (await admin<{ requests: unknown[] }>(sim, 'GET', '/requests')).requests;
	expect(sent).toEqual([]);
});

test('publishing a historical-search trigger with a Basic key: the publication fails with the tier explained', async () => {
	// n8n 2.41 publishes in the background (its publication outbox): the editor's Publish is
	// accepted at once, and the outcome is shown from the workflow's publication status
	const answer = await n8n.activate(historicalTrigger.id);
	expect(answer.status).toBe(200);
	const status = await (async () => {
		const deadline = Date.now() + 60_000;
		for (;;) {
			const r = await n8n.rest<{
				data: {
					status: string;
					triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
				};
			}>('GET', `/workflows/${historicalTrigger.id}/publication-status`);
			if (r.status === 200 && !['in_progress', 'not_published'].includes(r.json.data.status))
				return r.json.data;
			if (Date.now() > deadline) throw new Error(`publication still ${JSON.stringify(r.json)}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	})();
	expect(status.status).toBe('failed');
	const trigger = status.triggers.find((t) => t.nodeId === historicalTrigger.nodes[0].id);
	expect(trigger?.status).toBe('failed');
	expect(trigger?.errorMessage).toMatch(/Enterprise tier/);
	expect(trigger?.errorMessage).not.toMatch(STACK_FRAME);
	// the key itself was fine: SentiOne refused only the tier, and nothing was counted
	const sent = (
		await admin<{ requests: Array<{ status: number; path: string; counted: boolean }> }>(
			sim,
			'GET',
			'/requests',
		)
	).requests;
	expect(sent.length).toBeGreaterThan(0);
	expect(
		sent.every(
			(r) => r.status === 401 && r.path.endsWith('/projects/1001/mentions/search') && !r.counted,
		),
	).toBe(true);
});
