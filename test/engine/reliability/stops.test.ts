/**
 * A stopped execution stops (issue 21, class 1), through n8n-core's real WorkflowExecute: the
 * engine cancels the execution (as the Stop button or the workflow's timeout does: it aborts the
 * execution's cancel signal) while the action node waits, and the test measures the real seconds
 * from the cancel to the end of the run and counts the requests that reached the server after it.
 * One case per kind of wait: the transport's wait for an hourly reset (On Rate Limit = Wait, the
 * simulator's search budget spent before the run), the pager's wait for the budget between pages,
 * the transport's backoff after 503s, pages that come slowly, and an export stream that never ends
 * (a hostile server of the test's own). The triggers' waits end on close: shutdown.test.ts.
 * The unit tier proves the same for each wait with a fake clock: test/unit/shared/transport/cancel.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import type { RunResult } from '../../support/engine';
import { runWorkflow } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import type { Behaviour } from '../../support/servers/hostileServer';
import {
	HostileServer,
	json,
	later,
	mention,
	pages,
	sse,
	stream,
} from '../../support/servers/hostileServer';
import {
	admin,
	api,
	clearLog,
	type LoggedRequest,
	projectWithMentions,
	requestLog,
	type Sim,
	startRealTimeSim,
} from '../../support/simulator';
import { sleep } from '../../support/wait';

jest.setTimeout(60_000);

let sim: Sim;
let server: HostileServer;
let projectId: number;
const rows: ResultRow[] = [];
/** seconds from the cancel to the end of the run, per kind of wait */
const secondsFromCancelToEnd: Record<string, number> = {};
/** requests that reached the server after the cancel, per kind of wait */
const requestsAfterCancel: Record<string, number> = {};

beforeAll(async () => {
	// a frozen clock at (about) real now: the resets it reports are plausible for the node's real clock
	sim = await startRealTimeSim(['--mentions', '20']);
	projectId = await projectWithMentions(sim, 100);
	server = await HostileServer.start();
});

afterAll(async () => {
	await server?.close();
	await sim?.stop();
	writePart({
		part: 'stops',
		title: 'A stopped execution stops',
		command: 'npx jest test/engine/reliability/stops.test.ts',
		rows,
		figures: { secondsFromCancelToEnd, requestsAfterCancel },
	});
});

beforeEach(async () => {
	server.reset();
	await admin(sim, 'POST', '/limits', { hourly: { search: 100_000 }, resetWindows: true });
	await clearLog(sim);
});

const nodeTypes = { 'n8n-nodes-sentione.sentiOne': new SentiOne() };

const searches = async (): Promise<LoggedRequest[]> =>
	(await requestLog(sim)).filter((r) => r.group === 'search');

/** How long a request sent just before the cancel may take to reach the in-process server. */
const IN_FLIGHT_MS = 200;

/** Runs `workflow` and cancels it after `cancelAfterMs`; counts what the server got until the cancel. */
async function cancelled(
	workflow: ReturnType<typeof loadWorkflow>,
	baseUrl: string,
	cancelAfterMs: number,
	count: () => Promise<number> | number,
): Promise<{ result: RunResult; seconds: number; atCancel: number; after: number }> {
	let atCancel: Promise<number> | number = -1;
	const result = await runWorkflow(workflow, {
		credentials: { apiKey: ENTERPRISE, baseUrl },
		nodeTypes,
		cancelAfterMs,
		onCancel: () => {
			// what the node sent before the cancel, read once it has arrived: the server runs in this
			// process, so a request sent just before the cancel reaches its handler a few event-loop
			// turns later (after the cancel, on a loaded machine: a fresh .ci/run counted one page as
			// "after"). The pages here come every 0.4 s and a retry waits 0.5 s or more, so a request
			// the node sent after the cancel still lands after this reading
			atCancel = sleep(IN_FLIGHT_MS).then(count);
		},
	});
	expect(result.cancelledAt).toBeDefined();
	const seconds = Math.round((result.endedAt - (result.cancelledAt ?? 0)) / 10) / 100;
	// nothing arrives later either: the node holds no timer that could still send
	await sleep(1500);
	const at = await atCancel;
	return { result, seconds, atCancel: at, after: (await count()) - at };
}

function record(kind: string, through: string, seconds: number, after: number, message: string) {
	secondsFromCancelToEnd[kind] = seconds;
	requestsAfterCancel[kind] = after;
	rows.push({
		fault: `stopped during ${kind}`,
		through,
		cases: 1,
		outcome: `ended ${seconds.toFixed(2)} s after the cancel, ${after} request${after === 1 ? '' : 's'} after it: "${message}"`,
	});
}

const searchWorkflow = (fixture: string, extra: IDataObject) =>
	withParameters(loadWorkflow(fixture), {
		project: { __rl: true, value: String(projectId), mode: 'id' },
		returnAll: true,
		filters: {},
		...extra,
	});

describe('On Rate Limit = Wait, with the search budget spent (the simulator)', () => {
	test('the transport waits for the hourly reset after a 429: the cancel ends it, nothing more is sent', async () => {
		await admin(sim, 'POST', '/limits', { hourly: { search: 1 }, resetWindows: true });
		// another workflow spends the key's last search of the hour
		await api(sim, 'POST', `/projects/${projectId}/mentions/recent/search`, { body: {} });
		await clearLog(sim);
		const run = await cancelled(
			searchWorkflow('mention-search-recent', {
				options: { onRateLimit: 'wait', maxWaitMinutes: 65 },
			}),
			sim.base,
			1500,
			async () => (await searches()).length,
		);
		const message = run.result.nodeError(NODE)?.message ?? '';
		expect(message).toBe(
			"The execution was stopped while it waited for SentiOne's hourly rate limit to reset",
		);
		expect((await searches()).map((r) => r.status)).toEqual([429]);
		expect(run.after).toBe(0);
		expect(run.seconds).toBeLessThan(3);
		record(
			"the transport's wait for an hourly reset (On Rate Limit = Wait, a 429)",
			'action node (Mention → Search Recent)',
			run.seconds,
			run.after,
			message,
		);
	});

	test('the pager waits for the budget between pages: the cancel ends it, no page follows', async () => {
		await admin(sim, 'POST', '/limits', { hourly: { search: 1 }, resetWindows: true });
		const run = await cancelled(
			searchWorkflow('mention-search-historical', {
				sortType: 'CollectedAtAscending',
				options: { onRateLimit: 'wait', maxWaitMinutes: 65 },
			}),
			sim.base,
			1500,
			async () => (await searches()).length,
		);
		const message = run.result.nodeError(NODE)?.message ?? '';
		expect(message).toBe(
			"The execution was stopped while it waited for SentiOne's search budget to reset, after 25 items (1 page)",
		);
		expect((await searches()).map((r) => r.status)).toEqual([200]);
		expect(run.after).toBe(0);
		expect(run.seconds).toBeLessThan(3);
		record(
			"the pager's wait for the budget between pages (Return All, On Rate Limit = Wait)",
			'action node (Mention → Search Historical)',
			run.seconds,
			run.after,
			message,
		);
	});
});

describe('a hostile server', () => {
	const hostileRun = async (
		workflow: ReturnType<typeof loadWorkflow>,
		behaviour: Behaviour | Behaviour[],
		cancelAfterMs: number,
	) => {
		server.any(behaviour);
		return await cancelled(workflow, server.base, cancelAfterMs, () => server.requests.length);
	};

	test('503 after 503: the cancel ends the backoff before the next try', async () => {
		const run = await hostileRun(
			withParameters(loadWorkflow('project-get-many'), { returnAll: true }),
			json(503, { message: 'Service unavailable.' }),
			// the tries go out at 0 and 0.5 s; the second backoff (1 s) is under way at 0.9 s
			900,
		);
		const message = run.result.nodeError(NODE)?.message ?? '';
		expect(message).toMatch(/^The execution was stopped while /);
		expect(run.after).toBe(0);
		expect(server.requests.length).toBeLessThan(3);
		expect(run.seconds).toBeLessThan(3);
		record(
			"the transport's backoff after a temporary failure (503)",
			'action node (Project → Get Many)',
			run.seconds,
			run.after,
			message,
		);
	});

	test('pages that come slowly (Return All): the page in flight is abandoned, no page follows', async () => {
		const page = pages((n) => ({
			data: Array.from({ length: 25 }, (_, k) => mention(`slow-${n}-${k}`)),
			cursor: `c${n}`,
		}));
		const run = await hostileRun(
			searchWorkflow('mention-search-recent', {}),
			later(400, page),
			1000,
		);
		const message = run.result.nodeError(NODE)?.message ?? '';
		expect(message).toBe('The execution was stopped while a request to SentiOne was under way');
		expect(run.after).toBe(0);
		expect(run.seconds).toBeLessThan(3);
		record(
			'paging, between and during pages (each page 0.4 s)',
			'action node (Mention → Search Recent)',
			run.seconds,
			run.after,
			message,
		);
	});

	test('an export stream that never ends: the cancel drops it at once', async () => {
		const run = await hostileRun(
			withParameters(loadWorkflow('mention-export'), {
				project: { __rl: true, value: '1001', mode: 'id' },
				exportScope: 'recent',
				returnAll: true,
				filters: {},
			}),
			stream({ frame: (i) => sse.mention(mention(`endless-${i}`)), everyMs: 100 }),
			1500,
		);
		const message = run.result.nodeError(NODE)?.message ?? '';
		expect(message).toBe('The execution was stopped while the stream was being read');
		expect(run.after).toBe(0);
		expect(server.open).toBe(0);
		expect(run.seconds).toBeLessThan(3);
		record(
			'an export stream that never ends (a mention every 0.1 s)',
			'action node (Mention → Export)',
			run.seconds,
			run.after,
			message,
		);
	});
});
