/**
 * Issue 22, digest exactly-once in queue mode: main (`n8n start`: the triggers) and one worker
 * (`n8n worker`: the executions) on a private Redis and PostgreSQL (test/support/n8n/cluster.ts);
 * the scenario of test/support/n8n/digestRestarts.ts — a daily digest on each trigger through four
 * restarts of main, two of them across a window's boundary. Every mention is counted once and
 * every window emitted once; every digest execution ran on the worker.
 */
import { record } from '../setup/secrets';
import { type Sim } from '../support/simulator';
import { ensureN8n } from '../support/n8n/host';
import { createCluster, enqueuedIn, startedIn, type Cluster } from '../support/n8n/cluster';
import {
	checkDigests,
	digestAcrossRestarts,
	SHIFTED_CLOCK,
	startDigestSim,
	saveDigestOutcome,
	type DigestOutcome,
} from '../support/n8n/digestRestarts';

let sim: Sim;
let cluster: Cluster;

beforeAll(async () => {
	ensureN8n();
	sim = await startDigestSim();
	cluster = await createCluster({ workers: 1, concurrency: 5 });
	await cluster.workers[0].start();
}, 30 * 60_000);

afterAll(async () => {
	if (cluster) {
		// every instance's log goes through the secrets watch
		for (const instance of [cluster.main, ...cluster.workers])
			record('log', { instance: instance.name, log: instance.log() });
	}
	await cluster?.dispose();
	await sim?.stop();
}, 5 * 60_000);

let outcome: DigestOutcome | undefined;

beforeAll(async () => {
	outcome = await digestAcrossRestarts(sim, {
		async start(offsetMs) {
			await cluster.main.start({
				NODE_OPTIONS: `--require ${SHIFTED_CLOCK}`,
				SENTIONE_CLOCK_OFFSET_MS: String(Math.round(offsetMs)),
			});
			return cluster.main.n8n();
		},
		async stop() {
			await cluster.main.stop();
		},
	});
	saveDigestOutcome(outcome, 'queue');
}, 25 * 60_000);

test('queue mode, SentiOne Trigger, daily digest through four restarts of main: every window once, every mention once', () => {
	checkDigests(outcome!, 'poll');
});

test('queue mode, SentiOne Stream Trigger, daily digest through four restarts of main: every window once, every mention once', () => {
	checkDigests(outcome!, 'stream');
});

test('queue mode: every digest execution was enqueued by main and run by the worker', () => {
	const enqueued = enqueuedIn(cluster.main.log());
	const started = startedIn(cluster.workers[0].log());
	expect(outcome!.digests.length).toBeGreaterThan(0);
	for (const d of outcome!.digests) {
		expect(enqueued).toContain(d.execution);
		expect(started).toContain(d.execution);
	}
});
