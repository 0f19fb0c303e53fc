/**
 * Issue 22, digest exactly-once in an ordinary single-process n8n: a daily digest on each trigger
 * through four restarts of n8n, two of them across a window's boundary
 * (test/support/n8n/digestRestarts.ts has the scenario; test/queue/digestRestart.test.ts runs it
 * in queue mode). Every mention is counted once and every window emitted once.
 */
import { type Sim } from '../support/simulator';
import { createHost, ensureN8n, type Host, type RunningN8n } from '../support/n8n/host';
import {
	checkDigests,
	digestAcrossRestarts,
	SHIFTED_CLOCK,
	startDigestSim,
	saveDigestOutcome,
	type DigestOutcome,
} from '../support/n8n/digestRestarts';

let sim: Sim;
let host: Host;
let n8n: RunningN8n | undefined;

beforeAll(async () => {
	ensureN8n();
	sim = await startDigestSim();
	host = await createHost();
}, 15 * 60_000);

afterAll(async () => {
	await n8n?.stop();
	await sim?.stop();
	host?.dispose();
});

let outcome: DigestOutcome | undefined;

beforeAll(async () => {
	outcome = await digestAcrossRestarts(sim, {
		async start(offsetMs) {
			n8n = await host.start({
				NODE_OPTIONS: `--require ${SHIFTED_CLOCK}`,
				SENTIONE_CLOCK_OFFSET_MS: String(Math.round(offsetMs)),
			});
			return n8n;
		},
		async stop() {
			await n8n?.stop();
			n8n = undefined;
		},
	});
	saveDigestOutcome(outcome, 'e2e');
}, 25 * 60_000);

test('SentiOne Trigger, daily digest through four restarts of n8n: every window once, every mention once', () => {
	checkDigests(outcome!, 'poll');
});

test('SentiOne Stream Trigger, daily digest through four restarts of n8n: every window once, every mention once', () => {
	checkDigests(outcome!, 'stream');
});
