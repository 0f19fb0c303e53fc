/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The Stream Trigger across restarts of an ordinary single-process n8n (issue 16; the queue-mode
 * tier does the same with main + workers): the live Slack template (examples/
 * negative-mentions-live-slack-alert.json, its Slack step posting to the local inbox) is active;
 * negative mentions are collected right before n8n stops (so emits race the shutdown), while it is
 * down, and after it is back. Outages of 10 s, 70 s and 10 minutes: the 70 s and 10-minute ones
 * on the simulated clock (the simulator's clock jumps ahead while n8n is down, and n8n starts again
 * with its wall clock moved by the same amount: test/support/n8n/shiftedClock.js), so the test does
 * not wait for them. Every negative mention of the project reaches Slack exactly once.
 */
import { writeFileSync } from 'fs';
import { join } from 'path';

import {
	admin,
	clockNow,
	collectedFrom,
	openLiveStreams,
	startRunningSim,
	type Loose,
	type Sim,
} from '../support/simulator';
import {
	createHost,
	ensureN8n,
	type Host,
	type RunningN8n,
	N8N_VERSION,
} from '../support/n8n/host';
import {
	CREDENTIALS,
	sentiOneCredentials,
	slackIds,
	startInbox,
	templateForTest,
	type Inbox,
} from '../support/n8n/workflows';
import { REPO_ROOT, resultsFile } from '../support/paths';
import { sleep, until } from '../support/wait';
import { tally } from '../support/tally';
import { type SavedWorkflowJson } from '../support/workflowJson';

const SHIFTED_CLOCK = join(REPO_ROOT, 'test', 'support', 'n8n', 'shiftedClock.js');
/** the figures `npm run docs:queue-mode` renders into docs/queue-mode.md (a test run never edits docs) */
const RESULTS = resultsFile('restart.json');
const NEGATIVE = { overrides: { content: { sentiment: 'Negative' } } };

let sim: Sim;
let host: Host;
let n8n: RunningN8n;
let inbox: Inbox;
let live: SavedWorkflowJson;
/** the simulator's clock when the trigger was first active: the ground truth starts there */
let startedAt: number;

const simNow = () => clockNow(sim);
const inject = (count: number) =>
	admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', { projectId: 1001, count, ...NEGATIVE });
const openLive = () => openLiveStreams(sim);
const liveRequests = async () =>
	(
		await admin<{ requests: Array<{ path: string; query?: Record<string, string> }> }>(
			sim,
			'GET',
			'/requests',
		)
	).requests.filter((r) => r.path.endsWith('/stream/live'));

/** Every negative mention of project 1001 collected since the trigger started (recent search scope). */
async function truth(): Promise<string[]> {
	const collected = await collectedFrom(sim, 1001, startedAt + 1);
	return collected.filter((m) => m.sentiment === 'Negative').map((m) => m.id as string);
}

beforeAll(async () => {
	ensureN8n();
	inbox = await startInbox();
	sim = await startRunningSim({ mentions: 300, seed: 17 });
	host = await createHost();
	live = templateForTest(
		'negative-mentions-live-slack-alert.json',
		'e2eRestartLive01',
		CREDENTIALS.basic,
		inbox.base,
	);
	startedAt = await simNow();
	// created and published as in the editor; it stays published across the restarts below
	n8n = await host.start();
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	await n8n.createWorkflows([live]);
	await n8n.publishAll([live]);
	await until(async () => (await openLive()) === 1, {
		what: 'the live stream to open',
		timeoutMs: 90_000,
		stepMs: 500,
	});
}, 15 * 60_000);

/** one outage; collected/delivered count every negative mention since activation (cumulative) */
interface RestartRow {
	outage: string;
	downSeconds: number;
	collected: number;
	delivered: number;
	lost: number;
	duplicated: number;
	connections: number;
	backfillMinutes: number;
}
const rows: RestartRow[] = [];

afterAll(async () => {
	if (rows.length > 0) {
		writeFileSync(
			RESULTS,
			`${JSON.stringify({ runAt: new Date().toISOString(), n8n: N8N_VERSION, rows }, null, 2)}\n`,
		);
	}
	await n8n?.stop();
	await sim?.stop();
	await inbox?.stop();
	host?.dispose();
});

/** the wall-clock offset n8n runs with: the simulated time added so far */
let offset = 0;

describe.each([
	['10 seconds', 10_000, 0],
	['70 seconds (simulated clock)', 3_000, 67_000],
	['10 minutes (simulated clock)', 3_000, 10 * 60_000 - 3_000],
])('n8n stops and starts again after %s', (name, downMs, advanceMs) => {
	test(
		'every negative mention reaches Slack once: those collected before, during and after the outage',
		async () => {
			const connectionsBefore = (await liveRequests()).length;
			await inject(2);
			await until(
				async () => (await truth()).every((id) => slackIds(inbox, '#live-alerts').includes(id)),
				{ what: 'the first two in Slack', timeoutMs: 60_000, stepMs: 500 },
			);
			// two more right before the stop: their executions race the shutdown
			await inject(2);
			await sleep(300);
			await n8n.stop();
			await inject(2);
			await sleep(downMs);
			if (advanceMs > 0) {
				await admin(sim, 'POST', '/clock', { advanceMs });
				offset += advanceMs;
			}
			await inject(1);
			n8n = await host.start(
				offset > 0
					? { NODE_OPTIONS: `--require ${SHIFTED_CLOCK}`, SENTIONE_CLOCK_OFFSET_MS: String(offset) }
					: {},
			);
			if (offset > 0) expect(n8n.output()).toMatch(/\[shifted-clock\] wall clock \+\d+ ms/);
			await until(async () => (await openLive()) === 1, {
				what: 'the live stream to open again',
				timeoutMs: 90_000,
				stepMs: 500,
			});
			await inject(2);
			const expected = await truth();
			await until(
				async () => expected.every((id) => slackIds(inbox, '#live-alerts').includes(id)),
				{ what: 'every negative mention in Slack', timeoutMs: 120_000, stepMs: 500 },
			);
			// time for a repeat to arrive: two heartbeats, and any gap fill's executions
			await sleep(8_000);
			const t = tally(slackIds(inbox, '#live-alerts'), expected);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			expect(t.unexpected).toEqual([]);
			// one new connection per restart, with a backfill covering the outage (at most 5 minutes)
			const opened = (await liveRequests()).slice(connectionsBefore);
			expect(opened).toHaveLength(1);
			expect(Number(opened[0].query?.backfillMinutes)).toBeGreaterThanOrEqual(1);
			rows.push({
				outage: name,
				downSeconds: Math.round((downMs + advanceMs) / 1000),
				collected: expected.length,
				delivered: t.emitted,
				lost: t.lost.length,
				duplicated: t.duplicated.length,
				connections: opened.length,
				backfillMinutes: Number(opened[0].query?.backfillMinutes),
			});
			const executions = await n8n.executions(live.id);
			expect(executions.filter((e) => !['success', 'new', 'running'].includes(e.status))).toEqual(
				[],
			);
		},
		6 * 60_000,
	);
});
