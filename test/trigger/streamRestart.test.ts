/**
 * The Stream Trigger across a restart of n8n (issue 16): an active trigger passes mentions on, n8n
 * stops (its close function runs; static data is what n8n saved with the last emit), mentions are
 * collected while it is down, and n8n starts again with that static data. The trigger must resume
 * with a backfill covering the outage and a search for a longer one, and drop what it had passed
 * on: 0 lost, 0 duplicated, for outages of 10 s, 70 s and 10 minutes (virtual time: the node's
 * clock and the simulator's move together).
 */
import type { INodeParameters } from 'n8n-workflow';

import { STREAM_STATE_KEY } from '../../nodes/SentiOne/trigger/stream/streamState';
import { activateStreamTrigger, type ActiveStreamTrigger } from '../harness/triggers';
import { SimClock } from '../actions/helpers';
import { admin, BASIC, startSim, type Sim } from '../../simulator/test/helpers';
import { emptyProject, groundTruth, HEARTBEAT_MS, idsOf, inject, projectParam, streamParameters, tally } from './helpers';

let sim: Sim;
let clock: SimClock;

beforeAll(async () => {
	sim = await startSim(['--projects', '1', '--mentions', '20', '--heartbeat-ms', String(HEARTBEAT_MS)]);
	clock = new SimClock(sim);
	clock.install();
});
afterAll(async () => {
	clock?.uninstall();
	await sim?.stop();
});

const credentials = () => ({ apiKey: BASIC, baseUrl: sim.base });
const params = (projectId: number, options = {}) => streamParameters({ project: projectParam(projectId) }, options) as INodeParameters;

async function liveRequests(projectId: number): Promise<Array<{ query: Record<string, string> }>> {
	const { requests } = await admin<{ requests: Array<{ path: string; query: Record<string, string> }> }>(sim, 'GET', '/requests');
	return requests.filter((r) => r.path.endsWith(`/projects/${projectId}/mentions/recent/search/stream/live`));
}

describe.each([
	['10 seconds', 10_000],
	['70 seconds', 70_000],
	['10 minutes', 10 * 60_000],
])('a restart of n8n with an outage of %s', (_name, outageMs) => {
	test('resumes with the right backfill and gap fill: 0 lost, 0 duplicated', async () => {
		const projectId = await emptyProject(sim, `restart ${outageMs}`);
		const opened: ActiveStreamTrigger[] = [];
		try {
			const before = await activateStreamTrigger(params(projectId), credentials());
			opened.push(before);
			await inject(sim, projectId, 5);
			await before.until(() => before.items().length >= 5);
			const saved = before.savedStaticData();
			expect((saved['node:SentiOne'] as Record<string, unknown>)[STREAM_STATE_KEY]).toMatchObject({ v: 1, target: `newMention:${projectId}` });
			await before.close();

			// n8n is down: mentions are collected all the same
			await clock.advance(outageMs / 2);
			await inject(sim, projectId, 4);
			await clock.advance(outageMs / 2);
			await inject(sim, projectId, 3);

			const after = await activateStreamTrigger(params(projectId), credentials(), saved);
			opened.push(after);
			await inject(sim, projectId, 2);
			const truth = await groundTruth(sim, projectId);
			expect(truth).toHaveLength(14);
			await after.until(() => new Set([...idsOf(before.items()), ...idsOf(after.items())]).size >= 14, 15_000);
			const t = tally([...idsOf(before.items()), ...idsOf(after.items())], truth);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			// the reconnect asked for a backfill covering the outage (at most 5 minutes)
			const live = await liveRequests(projectId);
			expect(Number(live[live.length - 1].query.backfillMinutes)).toBe(Math.min(5, Math.ceil((outageMs + 30_000) / 60_000)));
			expect(after.errors).toEqual([]);
		} finally {
			for (const trigger of opened) await trigger.close();
		}
	});
});

test('a saved memory for another project, or an unreadable one, is not used: the trigger starts afresh', async () => {
	const projectId = await emptyProject(sim, 'restart other');
	for (const saved of [
		{ [STREAM_STATE_KEY]: { v: 1, target: 'newMention:1', lastAliveAt: clock.now - 60_000, ids: [] } },
		{ [STREAM_STATE_KEY]: { v: 1, target: `newMention:${projectId}`, lastAliveAt: 'yesterday', ids: 'none' } },
		{ [STREAM_STATE_KEY]: 'garbage' },
	]) {
		await admin(sim, 'DELETE', '/requests');
		const trigger = await activateStreamTrigger(params(projectId), credentials(), { 'node:SentiOne': saved });
		try {
			const live = await liveRequests(projectId);
			expect(live).toHaveLength(1);
			expect(live[0].query.backfillMinutes).toBeUndefined();
		} finally {
			await trigger.close();
		}
	}
});
