/**
 * A server that never answers, bounded only by the nodes' own timeouts (`npm run test:soak`;
 * minutes of real time): the transport waits 60 s for an answer and a read is tried 3 times, so
 * the action node and the poll trigger end with a clear error after about 3 minutes, and the stream
 * trigger activates after 60 s and keeps trying. The three run at the same time. Also: a live
 * endpoint that keeps answering 200 with an HTML page (a regression test: see hostile.test.ts).
 */
import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { setClock } from '../../nodes/SentiOne/shared/clock';
import { type Sim, projectWithMentions, adminOnce, startRoomySim } from '../support/simulator';
import { loadWorkflow, NODE, withParameters } from '../support/actions';
import { runWorkflow, credentials } from '../support/engine';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../support/triggers';
import { waitFor } from '../support/wait';
import { idsOf } from '../support/tally';
import { type ResultRow, writePart } from '../support/results';
import { BASIC, ENTERPRISE } from '../support/keys';

jest.setTimeout(600_000);

let sim: Sim;
let restore: () => void;
const rows: ResultRow[] = [];

beforeAll(async () => {
	sim = await startRoomySim();
	const { now } = await adminOnce<{ now: string }>(sim, 'GET', '/health');
	const offset = Date.parse(now) - Date.now();
	restore = setClock({ now: () => Date.now() + offset });
});

afterAll(async () => {
	restore();
	await sim.stop();
	writePart({
		part: 'hostile-soak',
		title: "Hostile server: bounded by the nodes' own timeouts",
		command: 'npm run test:soak',
		rows,
	});
});

test('no answer at all: the action node, the poll trigger and the stream trigger each end or go on within their own bounds', async () => {
	const projectId = await projectWithMentions(sim, 3);
	// every search attempt of the action node (3) and of the poll (3), and the first live connection, hang
	await adminOnce(sim, 'POST', '/faults', {
		script: [
			{ match: { group: 'search' }, times: 6, respond: { kind: 'hang' } },
			{ match: { group: 'live' }, times: 1, respond: { kind: 'hang' } },
		],
	});
	const poller = new PollHarness(
		pollParameters(projectId, { startFrom: 'backfill', backfillHours: 1 }),
		credentials(sim, BASIC),
	);

	const action = (async () => {
		const started = Date.now();
		const result = await runWorkflow(
			withParameters(loadWorkflow('mention-search-recent'), {
				project: { __rl: true, value: String(projectId), mode: 'id' },
				returnAll: true,
				filters: {},
			}),
			{
				credentials: { apiKey: ENTERPRISE, baseUrl: sim.base },
				nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
			},
		);
		return { ms: Date.now() - started, message: result.nodeError(NODE)?.message };
	})();
	const poll = (async () => {
		const started = Date.now();
		const outcome = await poller.poll('activate');
		return { ms: Date.now() - started, message: outcome.error?.message };
	})();
	const stream = (async () => {
		const started = Date.now();
		const trigger = await activateStreamTrigger(
			streamParameters({ project: projectParam(projectId) }, { stallTimeout: 5 }),
			credentials(sim, BASIC),
		);
		const activatedMs = Date.now() - started;
		const { mentions } = await adminOnce<{ mentions: Array<{ id: string }> }>(
			sim,
			'POST',
			'/mentions',
			{ projectId, count: 1 },
		);
		await trigger.until(() => idsOf(trigger.items()).includes(mentions[0].id), 30_000);
		await trigger.close();
		return { ms: activatedMs, errors: trigger.errors.length };
	})();

	const [a, p, s] = await Promise.all([action, poll, stream]);
	expect(a.message).toMatch(
		/Could not reach SentiOne: the server did not answer in time \(after 3 attempts\)/,
	);
	expect(a.ms).toBeLessThan(240_000);
	expect(p.message).toMatch(
		/Could not reach SentiOne: the server did not answer in time \(after 3 attempts\)/,
	);
	expect(p.ms).toBeLessThan(240_000);
	expect(s.ms).toBeLessThan(120_000);
	expect(s.errors).toBe(0);
	rows.push(
		{
			fault: 'no answer at all (3 attempts)',
			through: 'action node, Search Recent',
			cases: 1,
			outcome: `"${a.message}" after ${Math.round(a.ms / 1000)} s (60 s per attempt + backoff)`,
		},
		{
			fault: 'no answer at all (3 attempts)',
			through: 'SentiOne Trigger',
			cases: 1,
			outcome: `"${p.message}" after ${Math.round(p.ms / 1000)} s; the next check goes on from the same state`,
		},
		{
			fault: 'no answer at activation',
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome: `activated after ${Math.round(s.ms / 1000)} s (the 60 s timeout, a transient failure), then connected and passed mentions on`,
		},
	);
	// nothing is left behind: no stream, no socket to the simulator
	await waitFor(
		async () => {
			const stats = await adminOnce<{ openStreams: Record<string, number> }>(sim, 'GET', '/stats');
			return Object.values(stats.openStreams).every((n) => n === 0);
		},
		{ what: 'no stream open', timeoutMs: 10_000 },
	);
	// and the poll trigger catches up once the server answers again
	await adminOnce(sim, 'DELETE', '/faults');
	const next = await poller.poll('activate');
	expect(next.error).toBeUndefined();
});

// Regression (found by this suite): a live endpoint that keeps answering 200 with an HTML page (a
// proxy, a captive portal) used to count as a connection that ended, so the trigger never reported
// it; openStream now refuses a 2xx that is not a stream, and 6 failed attempts go to emitError.
test('a live endpoint that keeps answering 200 with an HTML page is reported within a minute', async () => {
	const projectId = await projectWithMentions(sim, 1);
	await adminOnce(sim, 'POST', '/faults', {
		script: [
			{
				match: { group: 'live' },
				times: 50,
				respond: {
					kind: 'html',
					status: 200,
					body: '<html><body>Sign in to the Wi-Fi</body></html>',
				},
			},
		],
	});
	const trigger = await activateStreamTrigger(
		streamParameters({ project: projectParam(projectId) }, { stallTimeout: 5 }),
		credentials(sim, BASIC),
	);
	try {
		await trigger
			.until(() => trigger.errors.length > 0 || trigger.failures.length > 0, 60_000)
			.catch(() => undefined);
		rows.push({
			fault: 'the live endpoint keeps answering 200 with an HTML page',
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome:
				trigger.errors.length > 0
					? `reported: ${trigger.errors[0].message.slice(0, 100)}`
					: 'not reported within 60 s',
		});
		expect(trigger.errors.length + trigger.failures.length).toBeGreaterThan(0);
	} finally {
		await trigger.close();
		await adminOnce(sim, 'DELETE', '/faults');
	}
});
