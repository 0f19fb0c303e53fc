/**
 * A hostile or broken server, through the nodes (test/engine/transport/hostileAnswers.test.ts covers the
 * transport alone): the action node in n8n's engine, the poll trigger with its real PollContext, the
 * stream trigger with its real TriggerContext. Non-JSON and HTML answers, JSON cut short, a 52 MB
 * answer, a connection reset, a cursor that repeats, a server that never answers (bounded here by
 * n8n's workflow timeout; by the node's own timeouts in hostile.soak.test.ts). Each ends in a clear
 * error — never a hang, never a crash (no unhandled rejection, no exception escaping) — and no
 * socket is left open. After the fault, the triggers go on and lose nothing.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import {
	type Sim,
	projectWithMentions,
	groundTruth,
	adminOnce,
	startRoomySim,
} from '../../support/simulator';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import { runWorkflow, credentials } from '../../support/engine';
import type { ActiveStreamTrigger } from '../../support/triggers';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { watchSockets, watchCrashes } from '../../support/probes';
import { sleep, waitFor } from '../../support/wait';
import { idsOf, tally } from '../../support/tally';
import { type ResultRow, writePart } from '../../support/results';
import { BASIC, ENTERPRISE } from '../../support/keys';

jest.setTimeout(60_000);

let sim: Sim;
let pagedProject: number;
const crashes = watchCrashes();
const rows: ResultRow[] = [];

beforeAll(async () => {
	sim = await startRoomySim();
	pagedProject = await projectWithMentions(sim, 60);
});

afterAll(async () => {
	await sim.stop();
	writePart({
		part: 'hostile',
		title: 'Hostile server, through the nodes',
		command: 'npx jest test/engine/reliability/hostileServers.test.ts',
		rows,
	});
});

afterEach(async () => {
	expect(crashes).toEqual([]);
	await adminOnce(sim, 'DELETE', '/faults');
});

const sockets = watchSockets();

/** Sockets of this process connected to the simulator. */
function simSockets(): number {
	return sockets.openTo(sim.port);
}

async function noSocketLeft(): Promise<void> {
	await waitFor(() => simSockets() === 0, { what: 'no socket to the simulator', timeoutMs: 5000 });
}

type Respond = { kind: string; status?: number; body?: unknown };

async function script(respond: Respond, times = 1, group?: string): Promise<void> {
	await adminOnce(sim, 'POST', '/faults', {
		script: [{ match: group ? { group } : {}, times, respond }],
	});
}

const CAPTIVE =
	'<!DOCTYPE html><html><head><title>Sign in to the hotel Wi-Fi</title></head><body><form>Room number <input></form></body></html>';

interface ActionCase {
	name: string;
	fixture: 'mention-search-recent' | 'mention-export';
	arm: () => Promise<void>;
	error: RegExp;
	cancelAfterMs?: number;
	maxMs: number;
}

const actionCases: ActionCase[] = [
	{
		name: '200 with a plain-text body',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'text', status: 200, body: 'OK' }),
		error: /answer could not be used: status 200 came with a body that is not JSON/,
		maxMs: 5000,
	},
	{
		name: '200 with an HTML page (a captive portal)',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'html', status: 200, body: CAPTIVE }),
		error: /answer could not be used: status 200 came with a body that is not JSON/,
		maxMs: 5000,
	},
	{
		name: 'a 502 HTML error page, three times',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'html', status: 502 }, 3),
		error: /server error \(502\): an HTML page \(".*502 Bad Gateway/,
		maxMs: 8000,
	},
	{
		name: 'a 500 with a plain-text body',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'text', status: 500 }),
		error: /server error \(500\): a non-JSON body \("Internal Server Error"\)/,
		maxMs: 5000,
	},
	{
		name: 'JSON cut short, three times',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'truncated-json' }, 3),
		error: /body that is not JSON \(truncated\?\)/,
		maxMs: 8000,
	},
	{
		name: 'a 52 MB answer',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'huge' }),
		error: /the answer is larger than 33\.6 MB/,
		maxMs: 20000,
	},
	{
		name: 'the connection reset, three times',
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'reset' }, 3),
		error: /Could not reach SentiOne: the connection was reset by the server \(after 3 attempts\)/,
		maxMs: 8000,
	},
	{
		name: 'a cursor that repeats (Return All)',
		fixture: 'mention-search-recent',
		arm: async () => void (await adminOnce(sim, 'POST', '/faults', { repeatCursor: true })),
		error: /returned a page cursor it had already returned \(after 2 pages and 50 items\)/,
		maxMs: 5000,
	},
	{
		name: "no answer at all, until n8n's workflow timeout cancels the execution",
		fixture: 'mention-search-recent',
		arm: () => script({ kind: 'hang' }),
		error: /^The execution was stopped while a request to SentiOne was under way$/,
		cancelAfterMs: 2000,
		maxMs: 6000,
	},
	{
		name: 'export: no answer at all, until the workflow timeout',
		fixture: 'mention-export',
		arm: () => script({ kind: 'hang' }),
		error: /^The execution was stopped while a request to SentiOne was under way$/,
		cancelAfterMs: 2000,
		maxMs: 6000,
	},
	{
		name: 'export: a 502 HTML page instead of the stream',
		fixture: 'mention-export',
		arm: () => script({ kind: 'html', status: 502 }),
		error: /server error \(502\): an HTML page/,
		maxMs: 5000,
	},
	{
		name: 'export: the connection reset',
		fixture: 'mention-export',
		arm: () => script({ kind: 'reset' }),
		error: /Could not reach SentiOne|connection/,
		maxMs: 5000,
	},
];

/**
 * Regression (found by this suite): openStream() used to take any 2xx answer for a stream, so a
 * captive portal's HTML page or a JSON document where the stream should be read as an export that
 * ended normally with 0 mentions. A 2xx that is not a stream type, or a stream that carries only
 * unreadable content, is now an error naming what came back.
 */
const notAStream: Array<{ name: string; respond: Respond }> = [
	{
		name: '200 with an HTML page (a captive portal)',
		respond: { kind: 'html', status: 200, body: CAPTIVE },
	},
	{ name: '200 with a JSON body cut short', respond: { kind: 'truncated-json' } },
	{ name: '200 with a 52 MB JSON body', respond: { kind: 'huge' } },
];

describe("the action node in n8n's engine", () => {
	test.each(actionCases)(
		'$name → a clear error, no hang, no socket left',
		async ({ fixture, arm, error, cancelAfterMs, maxMs }) => {
			await arm();
			const parameters: IDataObject =
				fixture === 'mention-export'
					? {
							project: { __rl: true, value: String(pagedProject), mode: 'id' },
							exportScope: 'recent',
							returnAll: true,
							filters: {},
						}
					: {
							project: { __rl: true, value: String(pagedProject), mode: 'id' },
							returnAll: true,
							filters: {},
							sortType: 'CollectedAtAscending',
						};
			const started = Date.now();
			const result = await runWorkflow(withParameters(loadWorkflow(fixture), parameters), {
				credentials: { apiKey: ENTERPRISE, baseUrl: sim.base },
				nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
				cancelAfterMs,
			});
			const ms = Date.now() - started;
			const nodeError = result.nodeError(NODE);
			expect(nodeError?.message).toMatch(error);
			expect(nodeError?.message).not.toMatch(/undefined|\[object Object\]/);
			expect(ms).toBeLessThan(maxMs);
			await noSocketLeft();
			rows.push({
				fault:
					fixture === 'mention-export'
						? `export: ${actionCases.find((c) => c.arm === arm)!.name.replace(/^export: /, '')}`
						: actionCases.find((c) => c.arm === arm)!.name,
				through: 'action node',
				cases: 1,
				outcome: `${nodeError!.message.slice(0, 110)}${nodeError!.message.length > 110 ? '…' : ''} (within ${Math.ceil(maxMs / 1000)} s)`,
			});
		},
	);
});

describe('the export meets an answer that is not a stream', () => {
	test.each(notAStream)(
		'export: $name instead of the stream → an error, not an empty export',
		async ({ respond }) => {
			await script(respond);
			const result = await runWorkflow(
				withParameters(loadWorkflow('mention-export'), {
					project: { __rl: true, value: String(pagedProject), mode: 'id' },
					exportScope: 'recent',
					returnAll: true,
					filters: {},
				}),
				{
					credentials: { apiKey: ENTERPRISE, baseUrl: sim.base },
					nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
				},
			);
			await noSocketLeft();
			const error = result.nodeError(NODE);
			rows.push({
				fault: `export: ${notAStream.find((c) => c.respond === respond)!.name} instead of the stream`,
				through: 'action node',
				cases: 1,
				outcome: error
					? error.message.slice(0, 110)
					: `no error, ${result.output(NODE).length} mentions returned`,
			});
			expect(error?.message).toMatch(/could not be used|not a stream/);
		},
	);
});

describe('the poll trigger', () => {
	let harness: PollHarness;
	let projectId: number;
	const emitted: string[] = [];
	let restore: () => void;

	beforeAll(async () => {
		const { now } = await adminOnce<{ now: string }>(sim, 'GET', '/health');
		const offset = Date.parse(now) - Date.now();
		restore = setClock({ now: () => Date.now() + offset });
		projectId = await projectWithMentions(sim, 0).catch(
			async () => await projectWithMentions(sim, 1),
		);
		harness = new PollHarness(pollParameters(projectId), credentials(sim, BASIC));
		expect((await harness.poll('activate')).error).toBeUndefined();
	});
	afterAll(() => restore());

	const pollCases: Array<{
		name: string;
		arm: () => Promise<void>;
		error: RegExp;
		mentions: number;
	}> = [
		{
			name: '200 with an HTML page',
			arm: () => script({ kind: 'html', status: 200, body: CAPTIVE }),
			error: /answer could not be used/,
			mentions: 3,
		},
		{
			name: 'a 502 HTML error page, three times',
			arm: () => script({ kind: 'html', status: 502 }, 3),
			error: /server error \(502\): an HTML page/,
			mentions: 3,
		},
		{
			name: 'JSON cut short, three times',
			arm: () => script({ kind: 'truncated-json' }, 3),
			error: /truncated\?/,
			mentions: 3,
		},
		{
			name: 'a 52 MB answer',
			arm: () => script({ kind: 'huge' }),
			error: /the answer is larger than 33\.6 MB/,
			mentions: 3,
		},
		{
			name: 'the connection reset, three times',
			arm: () => script({ kind: 'reset' }, 3),
			error: /connection was reset by the server \(after 3 attempts\)/,
			mentions: 3,
		},
		{
			name: 'a cursor that repeats (a backlog of 60)',
			arm: async () => void (await adminOnce(sim, 'POST', '/faults', { repeatCursor: true })),
			error: /returned a page cursor it had already returned/,
			mentions: 60,
		},
	];

	test.each(pollCases)(
		'$name → the check fails with a clear error and keeps its state; the next one loses nothing',
		async ({ arm, error, mentions }) => {
			for (let k = 0; k < mentions; k += 20)
				await adminOnce(sim, 'POST', '/mentions', { projectId, count: Math.min(20, mentions - k) });
			await sleep(5);
			const withoutBudget = () => {
				const state = { ...(harness.staticData().sentiOneMentions as IDataObject) };
				// what the check spent (the budget it saw, its share) moves; where it had got to must not
				delete state.budget;
				delete state.spent;
				delete state.checkedAt;
				delete state.lastCost;
				delete state.key; // what the key's budget showed, to pace to the other workflows
				return state;
			};
			const before = withoutBudget();
			await arm();
			const failed = await harness.poll();
			expect(failed.items).toBeNull();
			expect(failed.error?.message).toMatch(error);
			expect(withoutBudget()).toEqual(before);
			await adminOnce(sim, 'DELETE', '/faults');
			for (let k = 0; k < 5; k++) {
				const next = await harness.poll();
				expect(next.error).toBeUndefined();
				if (next.items) emitted.push(...idsOf(next.items));
				if (next.items === null) break;
			}
			const t = tally(emitted, await groundTruth(sim, projectId));
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			await noSocketLeft();
			rows.push({
				fault: `poll: ${pollCases.find((c) => c.arm === arm)!.name}`,
				through: 'SentiOne Trigger',
				cases: 1,
				items: mentions,
				lost: t.lost.length,
				duplicated: t.duplicated.length,
				outcome: `${failed.error!.message.slice(0, 90)}…; the next check emitted them`,
			});
		},
	);
});

describe('the stream trigger', () => {
	const opened: ActiveStreamTrigger[] = [];
	afterEach(async () => {
		for (const trigger of opened.splice(0)) await trigger.close();
		await waitFor(
			async () => {
				const stats = await adminOnce<{ openStreams: Record<string, number> }>(
					sim,
					'GET',
					'/stats',
				);
				return Object.values(stats.openStreams).every((n) => n === 0);
			},
			{ what: 'no stream open on the simulator', timeoutMs: 5000 },
		);
		await noSocketLeft();
	});

	const params = (projectId: number, extra: IDataObject = {}) =>
		streamParameters({ project: projectParam(projectId) } as INodeParameters, {
			stallTimeout: 2,
			...extra,
		});

	const transientCases: Array<{ name: string; respond: Respond }> = [
		{ name: 'a 502 HTML error page', respond: { kind: 'html', status: 502 } },
		{ name: 'a 500 with a plain-text body', respond: { kind: 'text', status: 500 } },
		{ name: 'the connection reset', respond: { kind: 'reset' } },
	];

	test.each(transientCases)(
		'activation meets $name: it activates, retries, then passes mentions on',
		async ({ respond }) => {
			const projectId = await projectWithMentions(sim, 1);
			await script(respond, 1, 'live');
			const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
			opened.push(trigger);
			const { mentions } = await adminOnce<{ mentions: Array<{ id: string }> }>(
				sim,
				'POST',
				'/mentions',
				{ projectId, count: 2 },
			);
			await trigger.until(
				() => mentions.every((m) => idsOf(trigger.items()).includes(m.id)),
				10_000,
			);
			expect(trigger.errors).toEqual([]);
			rows.push({
				fault: `stream activation: ${transientCases.find((c) => c.respond === respond)!.name}`,
				through: 'SentiOne Stream Trigger',
				cases: 1,
				items: 2,
				lost: 0,
				duplicated: 0,
				outcome: 'activated, reconnected after the backoff, mentions passed on',
			});
		},
	);

	test.each([
		{
			name: '200 with an HTML page instead of the stream',
			respond: { kind: 'html', status: 200, body: CAPTIVE },
		},
		{ name: '200 with JSON cut short instead of the stream', respond: { kind: 'truncated-json' } },
		{ name: '200 with a 52 MB JSON answer instead of the stream', respond: { kind: 'huge' } },
	])(
		'a connection that answers $name once: no crash, the next connection passes mentions on',
		async ({ name, respond }) => {
			const projectId = await projectWithMentions(sim, 1);
			await script(respond, 1, 'live');
			const trigger = await activateStreamTrigger(params(projectId), credentials(sim, BASIC));
			opened.push(trigger);
			const { mentions } = await adminOnce<{ mentions: Array<{ id: string }> }>(
				sim,
				'POST',
				'/mentions',
				{ projectId, count: 2 },
			);
			await trigger.until(
				() => mentions.every((m) => idsOf(trigger.items()).includes(m.id)),
				15_000,
			);
			expect(trigger.errors).toEqual([]);
			rows.push({
				fault: `stream: ${name}`,
				through: 'SentiOne Stream Trigger',
				cases: 1,
				items: 2,
				lost: 0,
				duplicated: 0,
				outcome: 'read as a stream that ended; reconnected; mentions passed on',
			});
		},
	);

	test('a cursor that repeats in the search for malformed mentions: reported as a failed execution naming the range, the stream goes on', async () => {
		const projectId = await projectWithMentions(sim, 1);
		const { now } = await adminOnce<{ now: string }>(sim, 'GET', '/health');
		let offset = Date.parse(now) - Date.now();
		const restore = setClock({ now: () => Date.now() + offset });
		try {
			await adminOnce(sim, 'POST', '/faults', {
				stream: { malformedEvery: 2 },
				repeatCursor: true,
			});
			const trigger = await activateStreamTrigger(
				params(projectId, { stallTimeout: 30 }),
				credentials(sim, BASIC),
			);
			opened.push(trigger);
			// 60 mentions within a second: the search for the malformed ones needs more than one page
			for (let k = 0; k < 3; k++)
				await adminOnce(sim, 'POST', '/mentions', { projectId, count: 20 });
			await trigger.until(() => trigger.items().length >= 30, 10_000);
			const moved = await adminOnce<{ now: string }>(sim, 'POST', '/clock', { advanceMs: 6000 });
			offset = Date.parse(moved.now) - Date.now();
			await trigger.until(() => trigger.failures.length > 0, 10_000);
			expect(trigger.failures[0].message).toMatch(
				/Could not search for mentions collected between .* \(malformed events\): SentiOne returned a page cursor it had already returned/,
			);
			expect(trigger.errors).toEqual([]);
			await adminOnce(sim, 'DELETE', '/faults');
			const { mentions } = await adminOnce<{ mentions: Array<{ id: string }> }>(
				sim,
				'POST',
				'/mentions',
				{ projectId, count: 1 },
			);
			await trigger.until(() => idsOf(trigger.items()).includes(mentions[0].id), 10_000);
			rows.push({
				fault: 'stream: a cursor that repeats in the search for malformed mentions',
				through: 'SentiOne Stream Trigger',
				cases: 1,
				outcome: 'reported as a failed execution naming the range; the stream went on',
			});
		} finally {
			restore();
		}
	});
});

describe('after everything', () => {
	test('no unhandled rejection and no uncaught exception happened', () => {
		expect(crashes).toEqual([]);
	});
});

void groundTruth;
