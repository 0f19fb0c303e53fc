/**
 * Servers that never finish, through the nodes with their real bounds (deadlines.test.ts runs the
 * same threats at the transport with small bounds): how long can a dripping or silent server hold
 * an execution?
 * - Export with Options → Timeout (Minutes) = 1 (the smallest): bytes dripping, heartbeats only,
 *   comments only, a line that never ends, mentions that never end, headers then silence — each
 *   ends at the 1-minute timeout with an error, nothing partial returned.
 * - Export with Options → Timeout (Minutes) = 3: bytes dripping, mentions then comments only, a
 *   line that never ends — each stalls at the export's 120 s stall limit (bytes are not progress),
 *   naming what had arrived.
 * - A JSON page dripping a byte every 100 ms (Search Recent, the poll trigger): one event, refused
 *   at its 60 s stall limit however it trickles; a page whose headers come and then nothing: 60 s
 *   per attempt, three attempts for a read.
 * Every case runs at once (≈ 3 minutes in all); `npm run test:soak` runs this file.
 */
import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { loadWorkflow, NODE, withParameters } from '../support/actions';
import { runWorkflow } from '../support/engine';
import { PollHarness, pollParameters } from '../support/triggers';
import type { Behaviour } from '../support/servers/hostileServer';
import {
	drip,
	HostileServer,
	useHostileServer,
	mention,
	ndjson,
	NDJSON,
	silence,
	sse,
	SSE,
	stream,
} from '../support/servers/hostileServer';
import { waitFor } from '../support/wait';
import { realNow } from '../support/time';
import { type ResultRow, writePart } from '../support/results';
import { type WorkflowJson } from '../support/workflowJson';
import { ENTERPRISE } from '../support/keys';

jest.setTimeout(420_000);

let server: HostileServer;
const rows: ResultRow[] = [];
const held: Record<string, number> = {};

useHostileServer((started) => (server = started), {
	settleAfterEach: false,
	closed: () =>
		writePart({
			part: 'deadlines-soak',
			title: 'Servers that never finish, through the nodes (soak)',
			command: 'npm run test:soak -- test/soak/deadlinesUnbounded.test.ts',
			rows,
			figures: { longestHoldMs: held },
		}),
});

const nodeTypes = { 'n8n-nodes-sentione.sentiOne': new SentiOne() };

interface Case {
	name: string;
	through: string;
	projectId: number;
	behaviour: Behaviour;
	run: (projectId: number) => Promise<{ message?: string; output: number }>;
	message: RegExp;
	/** expected hold, ms */
	minMs: number;
	maxMs: number;
	requests: number;
}

async function workflow(json: WorkflowJson): Promise<{ message?: string; output: number }> {
	const result = await runWorkflow(json, {
		credentials: { apiKey: ENTERPRISE, baseUrl: server.base },
		nodeTypes,
	});
	const error = result.nodeError(NODE);
	return { message: error?.message, output: error ? 0 : result.output(NODE).length };
}

const exportRun = (format: 'sse' | 'jsonLines') => async (projectId: number) =>
	await workflow(
		withParameters(loadWorkflow('mention-export'), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			exportScope: 'historical',
			returnAll: true,
			filters: {},
			options: { timeoutMinutes: 1, streamFormat: format },
		}),
	);

const EXPORT_TIMEOUT =
	/^The export stream took longer than its timeout after \d+ mentions?, so the export is incomplete: The SentiOne stream took too long: the stream was still open after 1 min, the longest allowed$/;
const exportCase = (
	name: string,
	projectId: number,
	format: 'sse' | 'jsonLines',
	behaviour: Behaviour,
): Case => ({
	name: `export, Timeout 1 min: ${name}`,
	through: 'action node (Mention → Export)',
	projectId,
	behaviour,
	run: exportRun(format),
	message: EXPORT_TIMEOUT,
	minMs: 60_000,
	maxMs: 60_000 + 3000,
	requests: 1,
});

/** A JSON answer is one event: whole within its stall limit (60 s), however its bytes trickle in. */
const DRIP_STALL =
	/^SentiOne's answer could not be used: the answer did not arrive whole within 1 min, the stall limit \(\d+ (bytes|kB) had arrived; bytes trickling in do not extend the limit\); 0 items had arrived$/;

/** An export with a Timeout beyond its stall limit (120 s): stalled at the limit. */
const exportStallCase = (
	name: string,
	projectId: number,
	format: 'sse' | 'jsonLines',
	behaviour: Behaviour,
): Case => ({
	name: `export, Timeout 3 min: ${name}`,
	through: 'action node (Mention → Export), stall limit',
	projectId,
	behaviour,
	run: async (id) =>
		await workflow(
			withParameters(loadWorkflow('mention-export'), {
				project: { __rl: true, value: String(id), mode: 'id' },
				exportScope: 'historical',
				returnAll: true,
				filters: {},
				options: { timeoutMinutes: 3, streamFormat: format },
			}),
		),
	message:
		/^The export stream stalled after [02] mentions?, so the export is incomplete: The SentiOne stream went silent: no complete event \(a mention or a heartbeat\) for 2 min, the stall limit \(bytes alone do not count\); [02] mentions? had arrived$/,
	minMs: 120_000,
	maxMs: 120_000 + 3000,
	requests: 1,
});

const cases: Case[] = [
	exportCase(
		'bytes dripping (one every 100 ms, no event completes)',
		11,
		'sse',
		drip({ everyMs: 100, prefix: 'event: mention\ndata: {', headers: { 'content-type': SSE } }),
	),
	exportCase(
		'heartbeats only, one a second',
		12,
		'sse',
		stream({ frame: () => sse.heartbeat(), everyMs: 1000 }),
	),
	exportCase(
		'comments only, one a second',
		13,
		'sse',
		stream({ frame: () => sse.comment(), everyMs: 1000 }),
	),
	exportCase(
		'a JSON line that never ends, a byte every 100 ms',
		14,
		'jsonLines',
		stream({
			frame: (i) => (i === 0 ? '{"event":"mention","data":{"id":"' : 'x'),
			everyMs: 100,
			contentType: NDJSON,
		}),
	),
	exportCase(
		'mentions that never end, two a second',
		15,
		'jsonLines',
		stream({
			frame: (i) => ndjson.mention(mention(`never-${i}`)),
			everyMs: 500,
			contentType: NDJSON,
		}),
	),
	exportCase('headers, then silence', 16, 'sse', silence(200, { 'content-type': SSE })),
	exportStallCase(
		'bytes dripping (one every 100 ms, no event completes)',
		17,
		'sse',
		drip({ everyMs: 100, prefix: 'event: mention\ndata: {', headers: { 'content-type': SSE } }),
	),
	exportStallCase(
		'two mentions, then comments only',
		18,
		'sse',
		stream({
			frame: (i) => (i < 2 ? sse.mention(mention(`before-${i}`)) : sse.comment()),
			everyMs: 200,
		}),
	),
	exportStallCase(
		'a JSON line that never ends, a byte every 100 ms',
		19,
		'jsonLines',
		stream({
			frame: (i) => (i === 0 ? '{"event":"mention","data":{"id":"' : 'x'),
			everyMs: 100,
			contentType: NDJSON,
		}),
	),
	{
		name: 'Search Recent: a JSON page dripping a byte every 100 ms',
		through: 'action node (Mention → Search Recent)',
		projectId: 21,
		behaviour: drip({ everyMs: 100, prefix: '{"data":[' }),
		run: async (projectId) =>
			await workflow(
				withParameters(loadWorkflow('mention-search-recent'), {
					project: { __rl: true, value: String(projectId), mode: 'id' },
					returnAll: true,
				}),
			),
		message: DRIP_STALL,
		minMs: 60_000,
		maxMs: 60_000 + 3000,
		requests: 1,
	},
	{
		name: 'the poll trigger: a JSON page dripping a byte every 100 ms',
		through: 'SentiOne Trigger',
		projectId: 22,
		behaviour: drip({ everyMs: 100, prefix: '{"data":[' }),
		run: async (projectId) => {
			const polled = await new PollHarness(pollParameters(projectId), {
				apiKey: ENTERPRISE,
				baseUrl: server.base,
			}).poll('activate');
			return { message: polled.error?.message, output: polled.items?.length ?? 0 };
		},
		message: DRIP_STALL,
		minMs: 60_000,
		maxMs: 60_000 + 3000,
		requests: 1,
	},
	{
		name: 'Search Historical: headers, then silence (a read: three attempts of 60 s)',
		through: 'action node (Mention → Search Historical)',
		projectId: 23,
		behaviour: silence(),
		run: async (projectId) =>
			await workflow(
				withParameters(loadWorkflow('mention-search-historical'), {
					project: { __rl: true, value: String(projectId), mode: 'id' },
				}),
			),
		message:
			/^SentiOne's answer could not be used: the server sent nothing of the answer for 1 min, the stall limit; 0 items had arrived$/,
		minMs: 180_000,
		maxMs: 180_000 + 5000,
		requests: 3,
	},
	{
		name: 'Project → Create: headers, then silence (a write: one attempt)',
		through: 'action node (Project → Create)',
		projectId: 0,
		behaviour: silence(),
		run: async () => await workflow(loadWorkflow('project-create')),
		message:
			/^SentiOne's answer could not be used: the server sent nothing of the answer for 1 min, the stall limit$/,
		minMs: 60_000,
		maxMs: 60_000 + 3000,
		requests: 1,
	},
];

test("every never-finishing server is cut off by the node's own bounds, all at once", async () => {
	for (const c of cases) {
		const pattern = c.projectId === 0 ? /^\/projects$/ : new RegExp(`^/projects/${c.projectId}/`);
		server.route('*', pattern, c.behaviour, c.name);
	}
	const outcomes = await Promise.all(
		cases.map(async (c) => {
			const started = realNow();
			const outcome = await c.run(c.projectId);
			return { ...outcome, ms: realNow() - started };
		}),
	);
	const failures: string[] = [];
	cases.forEach((c, k) => {
		const o = outcomes[k];
		const requests = server.requests.filter((r) => r.route === c.name).length;
		held[c.through] = Math.max(held[c.through] ?? 0, Math.round(o.ms));
		rows.push({
			fault: c.name,
			through: c.through,
			cases: 1,
			outcome: `${o.message ? 'an error' : `no error (${o.output} items)`} after ${(o.ms / 1000).toFixed(1)} s, ${requests} request${requests === 1 ? '' : 's'}; nothing partial returned`,
		});
		if (!o.message || !c.message.test(o.message))
			failures.push(`${c.name}: message ${JSON.stringify(o.message)}`);
		if (o.output !== 0) failures.push(`${c.name}: ${o.output} items returned`);
		if (o.ms < c.minMs - 500 || o.ms > c.maxMs)
			failures.push(`${c.name}: held ${Math.round(o.ms)} ms, expected ${c.minMs}–${c.maxMs}`);
		if (requests !== c.requests)
			failures.push(`${c.name}: ${requests} requests, expected ${c.requests}`);
	});
	expect(failures).toEqual([]);
	await waitFor(() => server.open === 0, { what: 'no response left open', timeoutMs: 10_000 });
});
