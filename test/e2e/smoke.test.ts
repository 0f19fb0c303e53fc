/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code: not shipped in the package */
/**
 * The smoke set each cell of the compatibility matrix runs (README → Compatibility): the package
 * installed as a community package into a real n8n of one tested line, on that line's Node.js
 * (test/support/n8n/host.ts: `$SENTIONE_N8N_LINE`, 2.x in `npm test`, 1.x in `npm run test:n8n1`), with the
 * simulator on this process's Node 24:
 *
 * 1. a search: Search Recent, Return All, run with `n8n execute`: exactly the mentions the
 *    simulator counts, ⌈N/25⌉ pages;
 * 2. an export: a historical range through one export stream, exactly the ground truth in order;
 * 3. the credential test: n8n's own tester over REST passes a good key and words a wrong one;
 * 4. a failing search run as the editor runs it: it ends with the node's own words, and the cause
 *    the error declares for n8n 2.x's scheduler (`failure`, shared/errors/failure.ts) changes
 *    nothing on either line — n8n 1.x's errors have no such field, and it is an extra one there;
 * 5. the triggers: the poll trigger's "Fetch test event" (a manual run); the Stream Trigger
 *    published with n8n's CLI before the start (1.x: `update:workflow --active=true`), the poll
 *    trigger activated over REST while n8n runs (the editor's call): every new negative mention
 *    emitted once by each.
 */
import { execFileSync } from 'node:child_process';

import {
	admin,
	publishedBetween,
	script,
	startRunningSim,
	withClockStopped,
	type Loose,
	type Sim,
} from '../support/simulator';
import { SIMPLE_COLUMNS } from '../../nodes/SentiOne/shared/simplify';
import {
	N8N_MAJOR,
	N8N_VERSION,
	TARGET,
	createHost,
	ensureN8n,
	nodeOutput,
	type ExecuteResult,
	type Host,
	type RunningN8n,
} from '../support/n8n/host';
import {
	CREDENTIALS,
	EVERY_15_SECONDS,
	historicalExport,
	MANUAL,
	project,
	sentiOne,
	sentiOneCredentials,
	triggerThenDone,
	workflow,
} from '../support/n8n/workflows';
import { sleep, until } from '../support/wait';
import { DAY, MINUTE, iso } from '../support/time';
import { type SavedWorkflowJson } from '../support/workflowJson';

const NOW = Math.floor(Date.now() / 60_000) * 60_000;

interface Logged {
	seq: number;
	method: string;
	path: string;
	status: number | null;
	tier: string;
	body: Loose;
}

let sim: Sim;
let host: Host;
let nodeVersion = '';

const requests = async (): Promise<Logged[]> =>
	(await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests.filter((r) =>
		r.path.startsWith('/api/'),
	);

// ---------------------------------------------------------------- the workflows

const searchWorkflow = workflow('smokeSearch00001', 'Smoke: Search Recent', [
	sentiOne(
		'Search',
		{
			resource: 'mention',
			operation: 'searchRecent',
			project: project(1001),
			returnAll: true,
			filters: { sentiments: ['Negative'] },
			options: {},
		},
		CREDENTIALS.basic,
	),
]);

const EXPORT_FROM = NOW - 200 * DAY;
const EXPORT_TO = NOW - 20 * DAY;
const exportWorkflow = historicalExport(
	'smokeExport00001',
	'Smoke: Export',
	'Export',
	EXPORT_FROM,
	EXPORT_TO,
);

const POLL = 'New negative mention';
const pollWorkflow = triggerThenDone('smokePollTrig001', 'Smoke: poll trigger', {
	name: POLL,
	kind: 'poll',
	parameters: {
		pollTimes: EVERY_15_SECONDS,
		event: 'newMention',
		source: 'recent',
		project: project(1001),
		filters: { sentiments: ['Negative'] },
		options: { requestsPerHour: 0 },
	},
	credential: CREDENTIALS.basic,
});
const STREAM = 'Live negative mention';
const streamWorkflow = triggerThenDone('smokeStreamTrg01', 'Smoke: stream trigger', {
	name: STREAM,
	kind: 'stream',
	parameters: {
		event: 'newMention',
		project: project(1001),
		filters: { sentiments: ['Negative'] },
		options: {},
	},
	credential: CREDENTIALS.basic,
});

// ---------------------------------------------------------------- setup

beforeAll(async () => {
	const { node: nodeBinary } = ensureN8n();
	nodeVersion = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
	sim = await startRunningSim({ now: NOW, mentions: 4000, seed: 11 });
	await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
	host = await createHost();
	await host.importCredentials(sentiOneCredentials(sim.base));
	await host.importWorkflows([searchWorkflow, exportWorkflow, pollWorkflow, streamWorkflow]);
	// active from the start of n8n on (the poll trigger is activated later, over REST)
	await host.publish(streamWorkflow.id);
}, 20 * 60_000);

afterAll(async () => {
	await sim?.stop();
	host?.dispose();
});

function expectSuccess(result: ExecuteResult): void {
	if (result.code !== 0 || result.run?.data.resultData.error) {
		throw new Error(
			`the workflow failed (${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
		);
	}
}

test(`runs on n8n ${N8N_VERSION} (line ${TARGET.line}) on Node.js ${TARGET.node}`, () => {
	expect(nodeVersion).toMatch(new RegExp(`^v${TARGET.node}\\.`));
});

// ---------------------------------------------------------------- n8n's CLI

test('a search: Search Recent with Return All returns exactly what the simulator counts, one request per 25', async () => {
	await admin(sim, 'DELETE', '/requests');
	// one "now" for the run and the count: the recent window's edge would move between them
	const { result, expected } = await withClockStopped(sim, async () => ({
		result: await host.execute(searchWorkflow.id),
		expected: (
			await admin<{ count: number }>(sim, 'POST', '/count', {
				projectId: 1001,
				mode: 'recent',
				filters: { content: { sentiment: ['Negative'] } },
			})
		).count,
	}));
	expectSuccess(result);
	const rows = nodeOutput(result, 'Search');
	expect(expected).toBeGreaterThan(25);
	expect(rows).toHaveLength(expected);
	expect(new Set(rows.map((r) => r.id)).size).toBe(expected);
	for (const row of rows) {
		expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect(row.sentiment).toBe('Negative');
	}
	const sent = await requests();
	expect(sent).toHaveLength(Math.ceil(expected / 25));
	expect(
		sent.every(
			(r) => r.path === '/api/public/v2/projects/1001/mentions/recent/search' && r.status === 200,
		),
	).toBe(true);
});

test('an export: a historical range arrives through one export stream, exactly the ground truth in order', async () => {
	await admin(sim, 'DELETE', '/requests');
	const result = await host.execute(exportWorkflow.id);
	expectSuccess(result);
	const rows = nodeOutput(result, 'Export');
	const truth = await publishedBetween(sim, 1002, EXPORT_FROM, EXPORT_TO);
	expect(truth.length).toBeGreaterThan(500);
	expect(rows.map((r) => r.id)).toEqual(truth.map((m) => m.id));
	const sent = await requests();
	expect(sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		'POST /api/public/v2/projects/1002/mentions/search/stream 200',
	]);
});

// ---------------------------------------------------------------- n8n start, the editor's REST API

describe('under n8n start', () => {
	let n8n: RunningN8n;

	beforeAll(async () => {
		n8n = await host.start();
	}, 5 * 60_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	async function credentialTest(apiKey: string) {
		const created = await n8n.rest<{ data: { id: string; name: string } }>('POST', '/credentials', {
			name: `SentiOne ${Math.random().toString(36).slice(2)}`,
			type: 'sentiOneApi',
			data: { apiKey, baseUrl: sim.base },
		});
		expect(created.status).toBe(200);
		const { id, name } = created.json.data;
		const tested = await n8n.rest<{ data: { status: string; message: string } }>(
			'POST',
			'/credentials/test',
			{
				credentials: { id, name, type: 'sentiOneApi', data: { apiKey, baseUrl: sim.base } },
			},
		);
		expect(tested.status).toBe(200);
		return tested.json.data;
	}

	test('the credential test: a good key passes, a wrong key is explained in words', async () => {
		expect(await credentialTest('SENTIONE-APIKEY-basic-demo')).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const wrong = await credentialTest('SENTIONE-APIKEY-nobody-knows-me');
		expect(wrong.status).toBe('Error');
		expect(wrong.message).toMatch(/does not recognise this API key/);
		expect(wrong.message).not.toContain('nobody-knows-me');
		const shape = await credentialTest('my-secret-key');
		expect(shape.message).toMatch(/does not have the shape of a SentiOne key/);
	});

	test('a failing search ends with the node’s own words; its declared cause breaks nothing', async () => {
		await admin(sim, 'DELETE', '/requests');
		const resetAt = Math.ceil((Date.now() + 20 * MINUTE) / 1000) * 1000;
		await script(sim, '/mentions/recent/search$', {
			kind: 'json',
			status: 429,
			body: {
				message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at ${iso(resetAt)}.`,
			},
			headers: {
				'x-rate-limit-limit': 30,
				'x-rate-limit-remaining': 0,
				'x-rate-limit-reset': resetAt / 1000,
			},
		});
		const execution = await n8n.run(searchWorkflow.id, MANUAL);
		expect(execution.status).toBe('error');
		const { error, runData } = execution.data.resultData;
		expect(error?.message).toMatch(
			/^SentiOne's search budget is used up \(429\): at most 30 requests an hour for this key\. It resets at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC \(in (19|20) min\)\.$/,
		);
		expect(error?.description).toMatch(
			/^Recent search and historical search share one budget of 30 requests an hour per API key/,
		);
		expect(runData.Search[0].error?.message).toBe(error?.message);
		// n8n 2.x keeps the declared cause with the error; on n8n 1.x it is a plain extra field
		const declared = { cause: 'quota-exhausted', resetsAtEpochMs: resetAt };
		if (N8N_MAJOR >= 2) expect(error?.failure).toEqual(declared);
		for (const shown of [error, runData.Search[0].error])
			if (shown && 'failure' in shown) expect(shown.failure).toEqual(declared);
		const searches = (await requests()).filter((r) => r.path.endsWith('/search'));
		expect(searches.map((r) => r.status)).toEqual([429]);
	});

	test('the poll trigger: Fetch test event returns the latest negative mentions with one search', async () => {
		await admin(sim, 'DELETE', '/requests');
		const execution = await n8n.run(pollWorkflow.id, POLL);
		expect(execution.status).toBe('success');
		const items = nodeOutput(execution, POLL);
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((m) => typeof m.id === 'string')).toBe(true);
		const sent = await requests();
		expect(sent).toHaveLength(1);
		expect(sent[0].body.filters).toEqual({ content: { sentiment: ['Negative'] } });
	});

	test(
		'the poll trigger activated over REST, the stream trigger published before the start: every new negative mention once, nothing else',
		async () => {
			await admin(sim, 'DELETE', '/requests');
			const activated = await n8n.activate(pollWorkflow.id);
			if (activated.status !== 200)
				throw new Error(
					`activating ${pollWorkflow.name} → ${activated.status}: ${JSON.stringify(activated.json)}`,
				);
			// the poll trigger's first check notes where it starts; the stream is open
			await until(
				async () => {
					const polled = (await requests()).some(
						(r) => r.path.endsWith('/search') && r.body?.sortType === 'CollectedAtDescending',
					);
					const live = (await admin<{ openStreams: { live: number } }>(sim, 'GET', '/stats'))
						.openStreams.live;
					return polled && live === 1;
				},
				{ what: 'the first poll and the live stream', timeoutMs: 90_000, stepMs: 500 },
			);

			const inject = async (count: number, sentiment: string) =>
				(
					await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
						projectId: 1001,
						count,
						overrides: { content: { sentiment } },
					})
				).mentions.map((m) => m.id as string);
			const negatives = await inject(3, 'Negative');
			await inject(2, 'Positive');
			await sleep(20_000);
			negatives.push(...(await inject(2, 'Negative')));
			await inject(1, 'Neutral');

			const emitted = async (w: SavedWorkflowJson, trigger: string) => {
				const ids: string[] = [];
				// the executions the active trigger started (not the manual Fetch test event)
				for (const summary of await n8n.executions(w.id)) {
					if (summary.mode === 'manual' || ['new', 'running'].includes(summary.status)) continue;
					const execution = await n8n.execution(summary.id);
					expect([execution.status, execution.mode]).toEqual(['success', 'trigger']);
					ids.push(...nodeOutput(execution, trigger).map((m) => String(m.id)));
				}
				return ids;
			};
			await until(
				async () =>
					(await emitted(pollWorkflow, POLL)).length >= negatives.length &&
					(await emitted(streamWorkflow, STREAM)).length >= negatives.length,
				{ what: 'every negative mention from both triggers', timeoutMs: 150_000, stepMs: 500 },
			);
			// two more checks, so a repeat would have had its chance to arrive
			const searches = async () => (await requests()).filter((r) => r.path.endsWith('/search'));
			const checks = async () => (await searches()).length;
			const soFar = await checks();
			await until(async () => (await checks()) >= soFar + 2, {
				what: 'two more checks',
				timeoutMs: 60_000,
				stepMs: 500,
			});

			expect((await emitted(pollWorkflow, POLL)).sort()).toEqual(negatives.slice().sort());
			expect((await emitted(streamWorkflow, STREAM)).sort()).toEqual(negatives.slice().sort());
			// the stream kept the connection it opened at n8n's start: still open, no reconnect since
			// (the simulator counts requests from the last DELETE /requests on)
			const stats = await admin<{
				groups: { live: { requests: number } };
				openStreams: { live: number };
			}>(sim, 'GET', '/stats');
			expect([stats.openStreams.live, stats.groups.live.requests]).toEqual([1, 0]);
			expect((await searches()).every((r) => r.status === 200)).toBe(true);
		},
		8 * 60_000,
	);
});
