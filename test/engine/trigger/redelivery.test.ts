/**
 * Options → Mark Delivered When = Execution Succeeded (issue 21.5) with n8n-core's real
 * TriggerContext and the simulator's live stream: the host (n8n's execution table, test/support/
 * triggers.ts DeduplicatingHost) fails the first two executions of every mention and settles each
 * emit's done promise as n8n does. Every mention is executed until one execution succeeds — each
 * attempt under a key of its own, after the 1- and 2-minute waits (the node's clock and the
 * simulator's move together) — and none after its success. (A restart with items waiting: the
 * unit tier, test/unit/trigger/stream/redelivery.test.ts, where a wait can be held.)
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PendingItem } from '../../../nodes/SentiOne/trigger/stream/streamState';
import { STREAM_STATE_KEY } from '../../../nodes/SentiOne/trigger/stream/streamState';
import {
	activateStreamTrigger,
	DeduplicatingHost,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import {
	addMentions,
	emptyProject,
	groundTruth,
	HEARTBEAT_MS,
	type Sim,
} from '../../support/simulator';
import { type SimClock, useSimulator } from '../../support/simClock';
import { BASIC } from '../../support/keys';
import { MINUTE } from '../../support/time';
import { sleep } from '../../support/wait';

let sim: Sim;
let clock: SimClock;

useSimulator(
	['--projects', '1', '--mentions', '20', '--heartbeat-ms', String(HEARTBEAT_MS)],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
afterAll(async () => {});

const credentials = () => ({ apiKey: BASIC, baseUrl: sim.base });
const params = (projectId: number) =>
	streamParameters(
		{ project: projectParam(projectId) },
		{ markDelivered: 'executionSucceeded' },
	) as INodeParameters;

/** A host whose first `failures` executions of each mention fail. */
function failingHost(failures: number): DeduplicatingHost {
	const runs = new Map<string, number>();
	return new DeduplicatingHost((items: IDataObject[]) => {
		const id = String(items[0]?.id);
		const run = (runs.get(id) ?? 0) + 1;
		runs.set(id, run);
		return run <= failures ? 'error' : 'success';
	});
}

const executionsOf = (host: DeduplicatingHost) => {
	const counts = new Map<string, number>();
	for (const [item] of host.executions)
		counts.set(String(item.id), (counts.get(String(item.id)) ?? 0) + 1);
	return counts;
};

const pendingIn = (saved: IDataObject): PendingItem[] =>
	((saved['node:SentiOne'] as IDataObject)[STREAM_STATE_KEY] as { pending?: PendingItem[] })
		.pending ?? [];

test('two failed executions per mention: each is run until one succeeds, after 1 and 2 minutes, and never again', async () => {
	const projectId = await emptyProject(sim, 'redelivery');
	const host = failingHost(2);
	const trigger = await activateStreamTrigger(params(projectId), credentials(), undefined, host);
	try {
		clock.slept = [];
		await addMentions(sim, projectId, 4);
		const truth = await groundTruth(sim, projectId);
		await trigger.until(
			() => host.outcomes.filter((o) => o === 'success').length === truth.length,
			20_000,
		);
		// a while longer (the node's waits move the clock): nothing is run again
		await clock.advance(30 * MINUTE);
		await sleep(300);
		expect(Object.fromEntries(executionsOf(host))).toEqual(
			Object.fromEntries(truth.map((id) => [id, 3])),
		);
		expect(host.outcomes.filter((o) => o === 'error')).toHaveLength(2 * truth.length);
		// each attempt was a new execution n8n accepted: no key was refused, none missing
		expect(host.refused).toBe(0);
		expect(host.unkeyed).toBe(0);
		expect(clock.slept).toEqual(expect.arrayContaining([MINUTE, 2 * MINUTE]));
		expect(trigger.errors).toEqual([]);
		expect(trigger.failures).toEqual([]);
		// what n8n wrote last (with the last execution it started) waits for no retry: at most the
		// last attempts, still running then. A restart passes those on under the same keys, and n8n
		// refuses each (its execution exists): nothing runs again
		const saved = trigger.savedStaticData();
		const running = pendingIn(saved);
		expect(running.filter((p) => p.retryAt !== undefined)).toEqual([]);
		await trigger.close();
		const again = await activateStreamTrigger(params(projectId), credentials(), saved, host);
		try {
			await clock.advance(10 * MINUTE);
			await sleep(500);
			expect(Object.fromEntries(executionsOf(host))).toEqual(
				Object.fromEntries(truth.map((id) => [id, 3])),
			);
			expect(host.refused).toBe(running.length);
		} finally {
			await again.close();
		}
	} finally {
		await trigger.close();
	}
});
