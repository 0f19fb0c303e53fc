/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Issue 21.5 in a real `n8n start`: "delivered means delivered, when the user asks for it". The
 * live Slack template (examples/negative-mentions-live-slack-alert.json, its Slack step posting to
 * the local inbox) is published with Options → Mark Delivered When = Execution Succeeded, and the
 * Slack stand-in fails (503) for 5 simulated minutes while negative mentions keep being collected.
 * Every one of them reaches Slack once Slack is back — each failed execution is followed by a new
 * one of the same item (under its own deduplication key, which n8n 2.41 requires) — and none twice.
 * A control, the same workflow left at the default (Emitted) and posting to another channel, loses
 * what failed during the outage: the test would notice an option that did nothing.
 *
 * The minutes are simulated: n8n and the simulator run with test/support/n8n/timeLapse.js
 * preloaded (wall clock and timers ×30), so the trigger's retry waits (1, 2, 4 … minutes) and the
 * outage pass in seconds; the test switches the inbox's outage on and off on the same clock.
 */
import { writeFileSync } from 'fs';

import {
	admin,
	clockNow,
	collectedFrom,
	openLiveStreams,
	startSim,
	type Loose,
	type Sim,
} from '../support/simulator';
import {
	createHost,
	ensureN8n,
	N8N_VERSION,
	stopAll,
	type Host,
	type RunningN8n,
} from '../support/n8n/host';
import {
	CREDENTIALS,
	postingTo,
	sentiOneCredentials,
	slackIds,
	startInbox,
	templateForTest,
	type Inbox,
} from '../support/n8n/workflows';
import { resultsFile } from '../support/paths';
import { tally } from '../support/tally';
import { MINUTE, SECOND } from '../support/time';
import { sleep, waitFor } from '../support/wait';
import { type SavedWorkflowJson } from '../support/workflowJson';
import { timeLapse, type Lapse } from '../support/n8n/lapse';

const FACTOR = 30;
const OUTAGE = 5 * MINUTE;
/** a negative mention collected this often (simulated) during the outage */
const EVERY = 20 * SECOND;
const RESULTS = resultsFile('delivery.json');

const realStart = Date.now();
const lapse: Lapse = { realOrigin: realStart, fakeOrigin: realStart, factor: FACTOR };
const { now: simulatedNow, env: lapseEnv } = timeLapse(lapse);
/** real ms for `ms` simulated */
const real = (ms: number) => Math.ceil(ms / FACTOR);

let sim: Sim;
let host: Host;
let n8n: RunningN8n;
let inbox: Inbox;
let live: SavedWorkflowJson;
/** the same workflow with the default (Emitted), posting to another channel: what the option changes */
let control: SavedWorkflowJson;
/** the simulator's clock once the live stream was open: the ground truth starts there */
let openedAt = 0;

/** The live Slack template's demo variant, posting to `channel`, with Mark Delivered When `mode`. */
function liveAlert(id: string, channel: string, mode: string): SavedWorkflowJson {
	const w = templateForTest(
		'negative-mentions-live-slack-alert.json',
		id,
		CREDENTIALS.basic,
		inbox.base,
	);
	for (const n of w.nodes) {
		if (n.type === 'n8n-nodes-sentione.sentiOneStreamTrigger')
			n.parameters = { ...n.parameters, options: { markDelivered: mode } };
	}
	return postingTo(w, channel);
}

const simNow = () => clockNow(sim);
const injectNegative = () =>
	admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
		projectId: 1001,
		count: 1,
		overrides: { content: { sentiment: 'Negative' } },
	});
const openLive = () => openLiveStreams(sim);

/** Every negative mention of project 1001 collected since the stream opened. */
async function truth(): Promise<string[]> {
	const collected = await collectedFrom(sim, 1001, openedAt + 1);
	return collected.filter((m) => m.sentiment === 'Negative').map((m) => m.id as string);
}

/** How many executions of workflow `w` ended with `status` (n8n's own count). */
async function executionCount(w: SavedWorkflowJson, status: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: w.id, status: [status] }));
	const r = await n8n.rest<{ data: { count: number } }>(
		'GET',
		`/executions?filter=${filter}&limit=1`,
	);
	if (r.status !== 200) throw new Error(`GET /executions → ${r.status}: ${JSON.stringify(r.json)}`);
	return r.json.data.count;
}

beforeAll(async () => {
	ensureN8n();
	inbox = await startInbox();
	sim = await startSim(['--mentions', '300', '--seed', '21'], {
		clock: 'running',
		now: null,
		env: { ...process.env, ...lapseEnv },
	});
	host = await createHost();
	live = liveAlert('e2eDeliveryLive1', '#live-alerts', 'executionSucceeded');
	control = liveAlert('e2eDeliveryCtrl1', '#live-control', 'emitted');
	n8n = await host.start(lapseEnv);
	if (!n8n.output().includes(`[time-lapse] clock ×${FACTOR}`))
		throw new Error(`n8n did not start with timeLapse.js:\n${n8n.output().slice(-2000)}`);
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	await n8n.createWorkflows([live, control]);
	await n8n.publishAll([live, control]);
	await waitFor(async () => (await openLive()) === 2, {
		what: 'the live stream to open',
		timeoutMs: 120_000,
		stepMs: 250,
	});
	openedAt = await simNow();
}, 15 * 60_000);

afterAll(() => stopAll(n8n, sim, inbox, host));

test(
	'Slack failing for 5 simulated minutes: every negative mention arrives once it recovers, none twice',
	async () => {
		const realBegin = Date.now();
		// before the outage: delivered at once
		await injectNegative();
		await waitFor(
			async () =>
				(await truth()).every(
					(id) =>
						slackIds(inbox, '#live-alerts').includes(id) &&
						slackIds(inbox, '#live-control').includes(id),
				),
			{ what: 'the first mention in Slack', timeoutMs: 60_000, stepMs: 250 },
		);

		// the outage: every message refused for 5 simulated minutes; mentions keep coming
		inbox.state.slackOutage = true;
		const outageFrom = simulatedNow();
		let collectedDuring = 0;
		while (simulatedNow() < outageFrom + OUTAGE) {
			if (simulatedNow() < outageFrom + OUTAGE - EVERY) {
				await injectNegative();
				collectedDuring++;
			}
			await sleep(real(EVERY));
		}
		inbox.state.slackOutage = false;
		const recoveredAt = simulatedNow();
		const refused = inbox.state.slackRefused;
		const deliveredDuringOutage =
			slackIds(inbox, '#live-alerts').length + slackIds(inbox, '#live-control').length;

		// after it: every one arrives (the retries wait 1, 2, 4, 8 minutes after each failure)
		const expected = await truth();
		await waitFor(
			async () => expected.every((id) => slackIds(inbox, '#live-alerts').includes(id)),
			{
				what: 'every negative mention in Slack after the outage',
				timeoutMs: real(20 * MINUTE),
				stepMs: 250,
			},
		);
		const allInAt = simulatedNow();
		// and none comes twice: 10 more simulated minutes, longer than any retry wait still pending
		await sleep(real(10 * MINUTE));

		const t = tally(slackIds(inbox, '#live-alerts'), expected);
		const c = tally(slackIds(inbox, '#live-control'), expected);
		// n8n's own record of the executions
		const failed = await executionCount(live, 'error');
		const succeeded = await executionCount(live, 'success');
		const controlFailed = await executionCount(control, 'error');
		const figures = {
			runAt: new Date(realBegin).toISOString(),
			n8n: N8N_VERSION,
			markDelivered: 'executionSucceeded',
			timeLapse: FACTOR,
			outageMinutes: OUTAGE / MINUTE,
			collected: expected.length,
			collectedDuringOutage: collectedDuring,
			failuresInjected: refused,
			failedExecutions: failed,
			successfulExecutions: succeeded,
			delivered: t.emitted,
			lost: t.lost.length,
			duplicated: t.duplicated.length,
			lastArrivedMinutesAfterRecovery: Math.round(((allInAt - recoveredAt) / MINUTE) * 10) / 10,
			controlEmitted: {
				failedExecutions: controlFailed,
				delivered: c.emitted,
				lost: c.lost.length,
				duplicated: c.duplicated.length,
			},
			realSeconds: Math.round((Date.now() - realBegin) / 1000),
		};
		writeFileSync(RESULTS, `${JSON.stringify(figures, null, 2)}\n`);
		// eslint-disable-next-line no-console
		console.log(`delivery e2e: ${JSON.stringify(figures)}`);

		expect(collectedDuring).toBeGreaterThanOrEqual(10);
		expect(deliveredDuringOutage).toBe(2);
		// Execution Succeeded: every one arrived, none twice, after one or more failed executions
		expect(t.lost).toEqual([]);
		expect(t.duplicated).toEqual([]);
		expect(t.unexpected).toEqual([]);
		expect(failed).toBeGreaterThan(0);
		expect(succeeded).toBe(expected.length);
		// the control (Emitted): what failed during the outage is lost, nothing comes twice
		expect(c.lost.length).toBeGreaterThan(0);
		expect(controlFailed).toBeGreaterThan(0);
		expect(c.duplicated).toEqual([]);
		// every refused message is a failed execution in n8n's list, and nothing else failed
		expect(failed + controlFailed).toBe(refused);
	},
	5 * 60_000,
);
