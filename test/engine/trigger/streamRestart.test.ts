/**
 * The Stream Trigger across a restart of n8n (issue 16): an active trigger passes mentions on, n8n
 * stops (its close function runs; static data is what n8n saved with the last emit), mentions are
 * collected while it is down, and n8n starts again with that static data. The trigger must resume
 * with a backfill covering the outage and a search for a longer one, and drop what it had passed
 * on: 0 lost, 0 duplicated, for outages of 10 s, 70 s and 10 minutes (virtual time: the node's
 * clock and the simulator's move together).
 */
import type { INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { STREAM_STATE_KEY } from '../../../nodes/SentiOne/trigger/stream/streamState';
import {
	activateStreamTrigger,
	type ActiveStreamTrigger,
	DeduplicatingHost,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import {
	admin,
	type Sim,
	emptyProject,
	groundTruth,
	HEARTBEAT_MS,
	addMentions,
} from '../../support/simulator';
import { type SimClock, useSimulator } from '../../support/simClock';
import { idsOf, tally } from '../../support/tally';
import { BASIC } from '../../support/keys';

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

const credentials = () => ({ apiKey: BASIC, baseUrl: sim.base });
const params = (projectId: number, options = {}) =>
	streamParameters({ project: projectParam(projectId) }, options) as INodeParameters;

async function liveRequests(projectId: number): Promise<Array<{ query: Record<string, string> }>> {
	const { requests } = await admin<{
		requests: Array<{ path: string; query: Record<string, string> }>;
	}>(sim, 'GET', '/requests');
	return requests.filter((r) =>
		r.path.endsWith(`/projects/${projectId}/mentions/recent/search/stream/live`),
	);
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
			await addMentions(sim, projectId, 5);
			await before.until(() => before.items().length >= 5);
			const saved = before.savedStaticData();
			expect((saved['node:SentiOne'] as Record<string, unknown>)[STREAM_STATE_KEY]).toMatchObject({
				v: 1,
				target: `newMention:${projectId}`,
			});
			await before.close();

			// n8n is down: mentions are collected all the same
			await clock.advance(outageMs / 2);
			await addMentions(sim, projectId, 4);
			await clock.advance(outageMs / 2);
			await addMentions(sim, projectId, 3);

			const after = await activateStreamTrigger(params(projectId), credentials(), saved);
			opened.push(after);
			await addMentions(sim, projectId, 2);
			const truth = await groundTruth(sim, projectId);
			expect(truth).toHaveLength(14);
			await after.until(
				() => new Set([...idsOf(before.items()), ...idsOf(after.items())]).size >= 14,
				15_000,
			);
			const t = tally([...idsOf(before.items()), ...idsOf(after.items())], truth);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			// the reconnect asked for a backfill covering the outage (at most 5 minutes)
			const live = await liveRequests(projectId);
			expect(Number(live[live.length - 1].query.backfillMinutes)).toBe(
				Math.min(5, Math.ceil((outageMs + 30_000) / 60_000)),
			);
			expect(after.errors).toEqual([]);
		} finally {
			for (const trigger of opened) await trigger.close();
		}
	});
});

test('a saved memory for another project, or an unreadable one, is not used: the trigger starts afresh', async () => {
	const projectId = await emptyProject(sim, 'restart other');
	for (const saved of [
		{
			[STREAM_STATE_KEY]: {
				v: 1,
				target: 'newMention:1',
				lastAliveAt: clock.now - 60_000,
				ids: [],
			},
		},
		{
			[STREAM_STATE_KEY]: {
				v: 1,
				target: `newMention:${projectId}`,
				lastAliveAt: 'yesterday',
				ids: 'none',
			},
		},
		{ [STREAM_STATE_KEY]: 'garbage' },
	]) {
		await admin(sim, 'DELETE', '/requests');
		const trigger = await activateStreamTrigger(params(projectId), credentials(), {
			'node:SentiOne': saved,
		});
		try {
			const live = await liveRequests(projectId);
			expect(live).toHaveLength(1);
			expect(live[0].query.backfillMinutes).toBeUndefined();
		} finally {
			await trigger.close();
		}
	}
});

/**
 * n8n saves static data and creates the execution side by side, without waiting (its `emit`), so
 * a shutdown right after an emit can keep the one and lose the other. Where n8n deduplicates
 * executions by key (2.41+), every mention goes out alone under a key derived from the workflow,
 * the node, the stream and its id; a resume takes the ids of the last 10 s before the last save as
 * uncertain and passes them on again when the backfill brings them: n8n refuses those it had
 * started. Both ways the shutdown can cut, 0 lost and 0 duplicated.
 */
describe.each([
	['10 seconds (the backfill brings them again)', 10_000],
	['10 minutes (the gap fill brings them again)', 10 * 60_000],
])(
	'a shutdown that cuts an emit short, on an n8n that deduplicates executions, outage %s',
	(_name, outageMs) => {
		async function restartAfter(
			projectId: number,
			cut: 'execution lost, memory saved' | 'execution created, memory save lost',
		): Promise<{ host: DeduplicatingHost; truth: string[]; after: ActiveStreamTrigger }> {
			const host = new DeduplicatingHost();
			const before = await activateStreamTrigger(params(projectId), credentials(), undefined, host);
			let after: ActiveStreamTrigger | undefined;
			try {
				await addMentions(sim, projectId, 4);
				await before.until(() => host.items().length >= 4);
				const earlier = before.savedStaticData();
				await addMentions(sim, projectId, 1);
				await before.until(() => host.items().length >= 5);
				expect(host.unkeyed).toBe(0);
				const saved =
					cut === 'execution created, memory save lost' ? earlier : before.savedStaticData();
				if (cut === 'execution lost, memory saved') host.forgetLast(1);
				await before.close();
				await clock.advance(outageMs);
				await addMentions(sim, projectId, 2);
				after = await activateStreamTrigger(params(projectId), credentials(), saved, host);
				const truth = await groundTruth(sim, projectId);
				expect(truth).toHaveLength(7);
				await after.until(() => new Set(idsOf(host.items())).size >= 7, 15_000);
				// let any late repeat arrive before counting
				await sleep(3 * HEARTBEAT_MS);
				return { host, truth, after };
			} finally {
				await before.close();
				await after?.close();
			}
		}

		test('the execution of the last mention was never created, its id was saved: it is passed on again, once', async () => {
			const projectId = await emptyProject(sim, 'restart cut: execution lost');
			const { host, truth, after } = await restartAfter(projectId, 'execution lost, memory saved');
			const t = tally(idsOf(host.items()), truth);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			// the other four came again and n8n refused them by their keys
			expect(host.refused).toBe(4);
			expect(after.errors).toEqual([]);
		});

		test('the execution of the last mention was created, the save of its id was lost: n8n refuses the repeat', async () => {
			const projectId = await emptyProject(sim, 'restart cut: save lost');
			const { host, truth, after } = await restartAfter(
				projectId,
				'execution created, memory save lost',
			);
			const t = tally(idsOf(host.items()), truth);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			expect(host.refused).toBeGreaterThanOrEqual(1);
			expect(after.errors).toEqual([]);
		});
	},
);

test('on an n8n without deduplication keys, no key is sent and the saved ids are trusted as they are', async () => {
	const projectId = await emptyProject(sim, 'restart no keys');
	const first = await activateStreamTrigger(params(projectId), credentials());
	let second: ActiveStreamTrigger | undefined;
	try {
		await addMentions(sim, projectId, 3);
		await first.until(() => first.items().length >= 3);
		const saved = first.savedStaticData();
		const ids = (saved['node:SentiOne'] as Record<string, { ids: unknown[][] }>)[STREAM_STATE_KEY]
			.ids;
		expect(ids.every((entry) => entry.length === 2)).toBe(true);
		await first.close();
		await clock.advance(10_000);
		second = await activateStreamTrigger(params(projectId), credentials(), saved);
		await addMentions(sim, projectId, 1);
		await second.until(() => second!.items().length >= 1, 15_000);
		await sleep(3 * HEARTBEAT_MS);
		const truth = await groundTruth(sim, projectId);
		const t = tally([...idsOf(first.items()), ...idsOf(second.items())], truth);
		expect(t.lost).toEqual([]);
		expect(t.duplicated).toEqual([]);
	} finally {
		await first.close();
		await second?.close();
	}
});
