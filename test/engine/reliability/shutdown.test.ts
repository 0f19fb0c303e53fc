/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Clean shutdown: closing a trigger in each state it can be in leaves nothing behind — the close
 * function resolves promptly, the simulator has no stream open, and this process has no socket to
 * the simulator and no more timers or handles of any kind than before the trigger started
 * (process.getActiveResourcesInfo(), compared kind by kind with a snapshot taken just before). The
 * poll trigger has no close function: between two checks it must hold nothing open either. Admin
 * calls here never keep a connection alive (adminOnce), so every socket counted is the node's.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { type Sim, adminOnce, startRoomySim } from '../../support/simulator';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import { runWorkflow, credentials } from '../../support/engine';
import type { ActiveStreamTrigger } from '../../support/triggers';
import {
	activateStreamTrigger,
	PollHarness,
	runStreamTriggerManually,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { watchSockets } from '../../support/probes';
import { sleep, waitFor } from '../../support/wait';
import { idsOf } from '../../support/tally';
import { type ResultRow, writePart } from '../../support/results';
import { BASIC, ENTERPRISE } from '../../support/keys';

jest.setTimeout(60_000);

let sim: Sim;
let offset = 0;
let restoreClock: () => void;
const rows: ResultRow[] = [];

beforeAll(async () => {
	sim = await startRoomySim();
	restoreClock = setClock({ now: () => Date.now() + offset });
});

afterAll(async () => {
	restoreClock();
	await sim.stop();
	writePart({
		part: 'shutdown',
		title: 'Clean shutdown',
		command: 'npx jest test/engine/reliability/shutdown.test.ts',
		rows,
		figures: { secondsFromCloseToEnd },
	});
});

beforeEach(async () => {
	await adminOnce(sim, 'DELETE', '/faults');
	await adminOnce(sim, 'DELETE', '/requests');
	const { now } = await adminOnce<{ now: string }>(sim, 'GET', '/health');
	offset = Date.parse(now) - Date.now();
});

async function project(): Promise<number> {
	const res = await fetch(`${sim.base}/api/public/v2/projects`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-api-key': ENTERPRISE, connection: 'close' },
		body: JSON.stringify({ name: 'Shutdown', query: 'acme' }),
	});
	const { id } = (await res.json()) as { id: number };
	return id;
}

async function inject(projectId: number, count: number): Promise<string[]> {
	const r = await adminOnce<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
		projectId,
		count,
	});
	return r.mentions.map((m) => m.id);
}

async function jumpClocks(ms: number): Promise<void> {
	const { now } = await adminOnce<{ now: string }>(sim, 'POST', '/clock', { advanceMs: ms });
	offset = Date.parse(now) - Date.now();
}

function resources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

const sockets = watchSockets();

function simSockets(): number {
	return sockets.openTo(sim.port);
}

async function openStreams(): Promise<number> {
	const stats = await adminOnce<{ openStreams: Record<string, number> }>(sim, 'GET', '/stats');
	return Object.values(stats.openStreams).reduce((a, b) => a + b, 0);
}

/** A snapshot before the node starts (after undici and the sockets of earlier tests settled). */
async function baseline(): Promise<Record<string, number>> {
	await waitFor(() => simSockets() === 0, {
		what: 'no socket to the simulator before the test',
		timeoutMs: 10_000,
	});
	await sleep(50);
	return resources();
}

/** Nothing more of any kind than before, no socket to the simulator, no stream on it. */
async function nothingLeft(
	before: Record<string, number>,
): Promise<{ extra: Record<string, number> }> {
	await waitFor(async () => (await openStreams()) === 0, {
		what: 'no stream open on the simulator',
		timeoutMs: 3000,
	});
	await waitFor(() => simSockets() === 0, { what: 'no socket to the simulator', timeoutMs: 3000 });
	let extra: Record<string, number> = {};
	await waitFor(
		() => {
			const now = resources();
			extra = Object.fromEntries(
				Object.entries(now)
					.filter(([kind, n]) => n > (before[kind] ?? 0))
					.map(([kind, n]) => [kind, n - (before[kind] ?? 0)]),
			);
			return Object.keys(extra).length === 0;
		},
		{ what: 'no timer, socket or handle more than before', timeoutMs: 3000 },
	).catch(() => undefined);
	expect(extra).toEqual({});
	return { extra };
}

/** seconds from n8n's close to the close function resolving, per test (docs/reliability.md, "A stopped execution stops") */
const secondsFromCloseToEnd: Record<string, number> = {};

async function closeTimed(trigger: ActiveStreamTrigger): Promise<number> {
	const started = Date.now();
	await trigger.close();
	const ms = Date.now() - started;
	secondsFromCloseToEnd[expect.getState().currentTestName ?? 'a close'] = Math.round(ms / 10) / 100;
	return ms;
}

const params = (projectId: number, options: IDataObject = {}) =>
	streamParameters({ project: projectParam(projectId) } as INodeParameters, {
		stallTimeout: 1,
		...options,
	});

test('poll trigger, between two checks (after a check of 3 pages): nothing held open', async () => {
	const projectId = await project();
	const before = await baseline();
	const harness = new PollHarness(
		pollParameters(projectId, { options: { maxRequestsPerPoll: 3 } }),
		credentials(sim, BASIC),
	);
	await harness.poll('activate');
	await inject(projectId, 70);
	const outcome = await harness.poll();
	expect(outcome.items).toHaveLength(70);
	await nothingLeft(before);
	rows.push({
		fault: 'poll trigger between two checks (after a 3-page check)',
		through: 'SentiOne Trigger',
		cases: 1,
		outcome: 'no socket, timer or handle left; no close function needed',
	});
});

test('action node, after a Return All and after a failed request: nothing held open', async () => {
	const projectId = await project();
	await inject(projectId, 60);
	const before = await baseline();
	const workflow = withParameters(loadWorkflow('mention-search-recent'), {
		project: { __rl: true, value: String(projectId), mode: 'id' },
		returnAll: true,
		filters: {},
	});
	const ok = await runWorkflow(workflow, {
		credentials: { apiKey: ENTERPRISE, baseUrl: sim.base },
		nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
	});
	expect(ok.output(NODE)).toHaveLength(60);
	await adminOnce(sim, 'POST', '/faults', {
		script: [{ match: {}, times: 1, respond: { kind: 'html', status: 200 } }],
	});
	const failed = await runWorkflow(workflow, {
		credentials: { apiKey: ENTERPRISE, baseUrl: sim.base },
		nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
	});
	expect(failed.nodeError(NODE)).toBeDefined();
	await nothingLeft(before);
	rows.push({
		fault: 'action node after a Return All of 3 pages and after an unusable answer',
		through: 'action node',
		cases: 2,
		outcome: 'no socket, timer or handle left',
	});
});

test('stream trigger, closed while connected and idle (heartbeats only)', async () => {
	const projectId = await project();
	const before = await baseline();
	const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
	await sleep(600);
	// control: the socket watch sees the live connection it must then see closed
	expect(simSockets()).toBeGreaterThan(0);
	const ms = await closeTimed(trigger);
	expect(ms).toBeLessThan(1000);
	await nothingLeft(before);
	rows.push({
		fault: 'stream trigger closed while connected',
		through: 'SentiOne Stream Trigger',
		cases: 1,
		outcome: `close resolved within 1 s; nothing left`,
	});
});

test('stream trigger, closed while a connection attempt is in flight (slow server)', async () => {
	const projectId = await project();
	const before = await baseline();
	// the first attempt fails (a transient 503: activation goes on), the retry meets a 5 s latency
	await adminOnce(sim, 'POST', '/faults', {
		script: [
			{
				match: { group: 'live' },
				times: 1,
				respond: { kind: 'json', status: 503, body: { message: 'Service unavailable.' } },
			},
		],
	});
	const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
	await adminOnce(sim, 'POST', '/faults', { latencyMs: 5000 });
	await waitFor(
		async () => {
			const r = await adminOnce<{ requests: Array<{ group: string }> }>(sim, 'GET', '/requests');
			return r.requests.filter((e) => e.group === 'live').length >= 2;
		},
		{ what: 'the retry on its way', timeoutMs: 5000 },
	);
	const ms = await closeTimed(trigger);
	await adminOnce(sim, 'POST', '/faults', { latencyMs: 0 });
	expect(ms).toBeLessThan(1000);
	await nothingLeft(before);
	rows.push({
		fault: 'stream trigger closed while a connection attempt is in flight',
		through: 'SentiOne Stream Trigger',
		cases: 1,
		outcome: `close resolved within 1 s; nothing left`,
	});
});

test('stream trigger, closed during the reconnect backoff', async () => {
	const projectId = await project();
	const before = await baseline();
	// three failed attempts in a row: the node backs off 0.5 s, 1 s, 2 s, then 4 s
	await adminOnce(sim, 'POST', '/faults', {
		script: [
			{
				match: { group: 'live' },
				times: 4,
				respond: { kind: 'json', status: 503, body: { message: 'Service unavailable.' } },
			},
		],
	});
	const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
	await waitFor(
		async () => {
			const r = await adminOnce<{ requests: Array<{ group: string }> }>(sim, 'GET', '/requests');
			return r.requests.filter((e) => e.group === 'live').length >= 4;
		},
		{ what: 'four failed attempts', timeoutMs: 10_000 },
	);
	await sleep(300);
	const ms = await closeTimed(trigger);
	expect(ms).toBeLessThan(1000);
	expect(trigger.errors).toEqual([]);
	await nothingLeft(before);
	rows.push({
		fault: 'stream trigger closed during an 8 s reconnect backoff',
		through: 'SentiOne Stream Trigger',
		cases: 1,
		outcome: `close resolved within 1 s; nothing left`,
	});
});

test('stream trigger, closed while waiting for the hourly stream budget', async () => {
	const projectId = await project();
	await adminOnce(sim, 'POST', '/limits', { hourly: { live: 1 }, resetWindows: true });
	const before = await baseline();
	try {
		await adminOnce(sim, 'POST', '/faults', { stream: { dropAfterBytes: 300, dropTimes: 1 } });
		const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
		await waitFor(async () => (await openStreams()) === 0, {
			what: 'dropped, waiting for the reset',
			timeoutMs: 5000,
		});
		await sleep(500);
		const ms = await closeTimed(trigger);
		expect(ms).toBeLessThan(1000);
		await nothingLeft(before);
		rows.push({
			fault: 'stream trigger closed while waiting for the hourly reset of the stream budget',
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome: `close resolved within 1 s; nothing left`,
		});
	} finally {
		await adminOnce(sim, 'POST', '/limits', { hourly: { live: 100_000 }, resetWindows: true });
	}
});

test('stream trigger, closed during a gap fill (the search after a 10-minute outage hangs)', async () => {
	const projectId = await project();
	const before = await baseline();
	await adminOnce(sim, 'POST', '/faults', {
		stream: { stallAfterEvents: 1 },
		script: [{ match: { group: 'search' }, times: 1, respond: { kind: 'hang' } }],
	});
	const trigger = await activateStreamTrigger(
		params(projectId, { stallTimeout: 2 }),
		credentials(sim, BASIC),
	);
	await inject(projectId, 1);
	await trigger.until(() => trigger.items().length === 1, 5000);
	await adminOnce(sim, 'POST', '/faults', { stream: { stallAfterEvents: null } });
	// silent now; 10 minutes pass for SentiOne and the node
	await jumpClocks(10 * 60_000);
	await waitFor(
		async () => {
			const r = await adminOnce<{ requests: Array<{ group: string }> }>(sim, 'GET', '/requests');
			return r.requests.some((e) => e.group === 'search');
		},
		{ what: 'the gap search on its way', timeoutMs: 10_000 },
	);
	await sleep(200);
	const ms = await closeTimed(trigger);
	expect(ms).toBeLessThan(1000);
	await nothingLeft(before);
	rows.push({
		fault: 'stream trigger closed during a gap-fill search that never answers',
		through: 'SentiOne Stream Trigger',
		cases: 1,
		outcome: `close resolved within 1 s; the search aborted; nothing left`,
	});
});

test('stream trigger, closed during the search for malformed mentions', async () => {
	const projectId = await project();
	const before = await baseline();
	await adminOnce(sim, 'POST', '/faults', {
		stream: { malformedEvery: 1 },
		script: [{ match: { group: 'search' }, times: 1, respond: { kind: 'hang' } }],
	});
	const trigger = await activateStreamTrigger(
		params(projectId, { stallTimeout: 30 }),
		credentials(sim, BASIC),
	);
	await inject(projectId, 2);
	await sleep(300);
	await jumpClocks(6000);
	await waitFor(
		async () => {
			const r = await adminOnce<{ requests: Array<{ group: string }> }>(sim, 'GET', '/requests');
			return r.requests.some((e) => e.group === 'search');
		},
		{ what: 'the repair search on its way', timeoutMs: 10_000 },
	);
	await sleep(200);
	const ms = await closeTimed(trigger);
	expect(ms).toBeLessThan(1000);
	await nothingLeft(before);
	rows.push({
		fault: 'stream trigger closed during the search for malformed mentions (it never answers)',
		through: 'SentiOne Stream Trigger',
		cases: 1,
		outcome: `close resolved within 1 s; nothing left`,
	});
});

test('"Listen for test event": closed by n8n after the first mention, nothing left', async () => {
	const projectId = await project();
	const before = await baseline();
	const waiting = runStreamTriggerManually(params(projectId), credentials(sim, BASIC));
	await sleep(500);
	const [id] = await inject(projectId, 1);
	const outcome = await waiting;
	expect(idsOf(outcome.items ?? [])).toEqual([id]);
	await nothingLeft(before);
	rows.push({
		fault: '"Listen for test event" after its first mention',
		through: 'SentiOne Stream Trigger (manual)',
		cases: 1,
		outcome: 'closed by n8n; nothing left',
	});
});
