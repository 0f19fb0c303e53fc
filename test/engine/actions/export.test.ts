/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/** Mention → Export: the recent and historical export streams, SSE and JSON lines, limit, anonymization. */
import { createHash } from 'node:crypto';

import { SIMPLE_COLUMNS } from '../../../nodes/SentiOne/shared/simplify';
import {
	admin,
	search,
	type Loose,
	type Sim,
	clearLog,
	onPath,
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
import { useSimulator } from '../../support/simClock';
import { BASIC, ENTERPRISE } from '../../support/keys';

let sim: Sim;

useSimulator(['--mentions', '1200'], (started) => {
	sim = started;
});
beforeEach(async () => {
	await admin(sim, 'POST', '/limits', { hourly: { export: 100 } });
});

const exportWorkflow = (parameters = {}) =>
	withParameters(loadWorkflow('mention-export'), parameters);
const streamRequests = async () => onPath(await requestLog(sim), /\/stream$/);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('historical export over SSE: one request with limit, filters and sort; mentions as items', async () => {
	const rows = jsonOf(await run(sim, exportWorkflow(), { key: ENTERPRISE }));
	expect(rows).toHaveLength(100);
	for (const m of rows) expect(['Negative', 'Positive']).toContain(m.content.sentiment);
	const times = rows.map((m) => Date.parse(m.publishedAt));
	expect([...times].sort((a, b) => a - b)).toEqual(times);

	const log = await streamRequests();
	expect(log).toHaveLength(1);
	expect(log[0]).toMatchObject({
		method: 'POST',
		path: '/api/public/v2/projects/1001/mentions/search/stream',
		query: { limit: '100' },
		accept: 'text/event-stream',
		contentType: 'application/json',
		body: {
			filters: { content: { sentiment: ['Negative', 'Positive'] } },
			sortType: 'PublishedAtAscending',
		},
		status: 200,
	});
	// the same mentions, in the same order, as the historical search with the same body
	await admin(sim, 'POST', '/limits', { mode: 'off' });
	const first = await search(sim, 1001, {
		filters: { content: { sentiment: ['Negative', 'Positive'] } },
		sortType: 'PublishedAtAscending',
	});
	expect(rows.slice(0, 25)).toEqual(first.json.data);
});

test('recent export over JSON lines, Return All: every matching mention, no limit sent', async () => {
	const workflow = exportWorkflow({
		exportScope: 'recent',
		returnAll: true,
		filters: { sourceTypes: ['Facebook', 'X'] },
		sortType: 'CollectedAtDescending',
		options: { streamFormat: 'jsonLines' },
	});
	const rows = jsonOf(await run(sim, workflow, { key: BASIC }));
	const { count } = await admin<{ count: number }>(sim, 'POST', '/count', {
		projectId: 1001,
		mode: 'recent',
		filters: { source: { type: ['Facebook', 'X'] } },
	});
	expect(count).toBeGreaterThan(100);
	expect(rows).toHaveLength(count);
	expect(new Set(rows.map((m) => m.id)).size).toBe(count);
	const [request] = await streamRequests();
	expect(request).toMatchObject({
		path: '/api/public/v2/projects/1001/mentions/recent/search/stream',
		query: {},
		accept: 'application/x-ndjson',
		body: { filters: { source: { type: ['Facebook', 'X'] } }, sortType: 'CollectedAtDescending' },
	});
	const times = rows.map((m) => Date.parse(m.collectedAt));
	expect([...times].sort((a, b) => b - a)).toEqual(times);
});

test('SSE and JSON lines give the same mentions', async () => {
	const sse = jsonOf(await run(sim, exportWorkflow({ limit: 60 }), { key: ENTERPRISE }));
	const lines = jsonOf(
		await run(sim, exportWorkflow({ limit: 60, options: { streamFormat: 'jsonLines' } }), {
			key: ENTERPRISE,
		}),
	);
	expect(lines).toEqual(sse);
});

test.each([
	[
		'author',
		(plain: Loose, hashed: Loose) => {
			expect(hashed.author.name).toBe(
				plain.author.name === null ? null : sha256(plain.author.name),
			);
			expect(hashed.author.avatar).toBeNull();
			expect(hashed.source.socialChannel).toEqual(plain.source.socialChannel);
		},
	],
	[
		'all',
		(plain: Loose, hashed: Loose) => {
			expect(hashed.author.name).toBe(
				plain.author.name === null ? null : sha256(plain.author.name),
			);
			expect(hashed.source.socialChannel.name).toBe(
				plain.source.socialChannel.name === null ? null : sha256(plain.source.socialChannel.name),
			);
		},
	],
])(
	'anonymization %s is sent as the query parameter and applied by SentiOne',
	async (level, check) => {
		const plain = jsonOf(await run(sim, exportWorkflow({ limit: 20 }), { key: ENTERPRISE }));
		await clearLog(sim);
		const hashed = jsonOf(
			await run(sim, exportWorkflow({ limit: 20, options: { anonymization: level } }), {
				key: ENTERPRISE,
			}),
		);
		expect(hashed.map((m) => m.id)).toEqual(plain.map((m) => m.id));
		for (let k = 0; k < plain.length; k++) check(plain[k], hashed[k]);
		expect((await streamRequests())[0].query).toEqual({ limit: '20', anonymization: level });
	},
);

test('anonymization none sends no parameter', async () => {
	await run(sim, exportWorkflow({ limit: 5, options: { anonymization: 'none' } }), {
		key: ENTERPRISE,
	});
	expect((await streamRequests())[0].query).toEqual({ limit: '5' });
});

test('Simplify applies to the export', async () => {
	const rows = jsonOf(
		await run(sim, exportWorkflow({ limit: 30, simplify: true }), { key: ENTERPRISE }),
	);
	expect(rows).toHaveLength(30);
	for (const row of rows) expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
});

test('unknown event kinds and heartbeats are ignored; unreadable events are skipped with a notice', async () => {
	await admin(sim, 'POST', '/faults', { stream: { unknownEventEvery: 4, malformedEvery: 10 } });
	const result = await run(sim, exportWorkflow({ limit: 50 }), { key: ENTERPRISE });
	const rows = jsonOf(result);
	// SentiOne sent 50 mentions, every 10th cut in half
	expect(rows).toHaveLength(45);
	expect(hintsOf(result)).toEqual([
		expect.objectContaining({
			type: 'warning',
			message: 'Input item 1: 5 events of the export stream could not be read and were skipped.',
		}),
	]);
});

test('a stream that breaks off is an error, never a short export', async () => {
	await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 20000 } });
	const result = await run(sim, exportWorkflow({ returnAll: true }), { key: ENTERPRISE });
	const error = result.nodeError(NODE);
	expect(error?.message).toMatch(
		/^The export stream broke off after \d+ mentions, so the export is incomplete/,
	);
	expect(error?.description).toContain('Nothing is returned for an incomplete export');
});

test('continueOnFail: a broken export becomes an error item, the next item still exports', async () => {
	await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 5000, dropTimes: 1 } });
	const workflow = withParameters(
		loadWorkflow('mention-export'),
		{ returnAll: true, project: { __rl: true, value: '={{ $json.projectId }}', mode: 'id' } },
		{ onError: 'continueRegularOutput' },
	);
	const workflowLimited = withParameters(workflow, { returnAll: false, limit: 10 });
	const items = outputOf(
		await run(sim, workflowLimited, {
			key: ENTERPRISE,
			inputItems: [{ projectId: 1001 }, { projectId: 1002 }],
		}),
	);
	expect(items[0]).toEqual({
		json: {
			error: expect.stringMatching(/^The export stream broke off after/),
			description: expect.any(String),
		},
		pairedItem: { item: 0 },
	});
	expect(items.slice(1)).toHaveLength(10);
	expect(items.slice(1).every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
});

test('the node stops reading once it has its limit, without waiting for the stream to end', async () => {
	// the server stalls after the 10th event (the connection stays open, nothing more comes):
	// a reader waiting for the end would hang until its idle timeout (60 s)
	await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 10 } });
	const started = Date.now();
	const rows = jsonOf(await run(sim, exportWorkflow({ limit: 10 }), { key: ENTERPRISE }));
	expect(rows).toHaveLength(10);
	expect(Date.now() - started).toBeLessThan(5000);
});

test('a finished export leaves no connection open', async () => {
	await run(sim, exportWorkflow({ limit: 10 }), { key: ENTERPRISE });
	let open = 1;
	for (let attempt = 0; attempt < 50 && open > 0; attempt++) {
		open = (await admin<Loose>(sim, 'GET', '/stats')).openStreams.export;
		if (open > 0) await new Promise((resolve) => setTimeout(resolve, 20));
	}
	expect(open).toBe(0);
});

test('Basic key on the historical export: needs the Enterprise tier', async () => {
	const result = await run(sim, exportWorkflow(), { key: BASIC });
	expect(result.nodeError(NODE)?.message).toBe(
		"Mention → Export (all time) needs SentiOne's Enterprise tier, and this API key does not have it (401)",
	);
});

test('the export budget (5 an hour) used up: the mapped 429 with the reset time', async () => {
	await admin(sim, 'POST', '/limits', { hourly: { export: 0 } });
	const result = await run(sim, exportWorkflow(), { key: ENTERPRISE });
	expect(result.nodeError(NODE)?.message).toBe(
		"SentiOne's export stream budget is used up (429): at most 0 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
	);
});
