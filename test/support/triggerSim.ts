/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Shared pieces of the trigger tests: a simulator whose clock runs from the real now (the node
 * reads the real clock, so both sides agree on what "now" and "the last 5 minutes" are), ground
 * truth from the admin API, and the loss/duplicate tally.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import type { Loose, Sim } from './simulator';
import { admin, BASIC, createProject, startSim } from './simulator';
import type { EngineCredentials } from './engine';

export { admin, BASIC, ENTERPRISE, NOACCESS } from './simulator';
export type { Sim } from './simulator';

/** Heartbeat interval of the test simulators. */
export const HEARTBEAT_MS = 200;

/**
 * A simulator with a running clock that starts at the real now, fast heartbeats, one generated
 * project; tests create their own empty projects so the ground truth is exactly what they inject.
 */
export async function startLiveSim(extra: string[] = []): Promise<Sim> {
	return await startSim([
		'--now',
		new Date().toISOString(),
		'--clock',
		'running',
		'--projects',
		'1',
		'--mentions',
		'50',
		'--heartbeat-ms',
		String(HEARTBEAT_MS),
		...extra,
	]);
}

export function credentials(sim: Sim, apiKey = BASIC): EngineCredentials {
	return { apiKey, baseUrl: sim.base };
}

export async function emptyProject(sim: Sim, name = 'Trigger test'): Promise<number> {
	return await createProject(sim, name, 'acme');
}

export function projectParam(projectId: number): INodeParameterResourceLocator {
	return { __rl: true, mode: 'id', value: String(projectId) };
}

export async function inject(
	sim: Sim,
	projectId: number,
	count: number,
	extra: { collectedAt?: string; publishedAt?: string; overrides?: unknown } = {},
): Promise<Loose[]> {
	const r = await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
		projectId,
		count,
		...extra,
	});
	return r.mentions;
}

/** Ids of every mention of the project the simulator collected (ordered by collectedAt, id). */
export async function groundTruth(
	sim: Sim,
	projectId: number,
	collectedFrom?: string,
): Promise<string[]> {
	const q = new URLSearchParams({ projectId: String(projectId) });
	if (collectedFrom) q.set('collectedFrom', collectedFrom);
	const r = await admin<{ mentions: Array<{ id: string }> }>(
		sim,
		'GET',
		`/mentions?${q.toString()}`,
	);
	return r.mentions.map((m) => m.id);
}

export interface Tally {
	expected: number;
	emitted: number;
	lost: string[];
	duplicated: string[];
	unexpected: string[];
}

/** Compares the ids a trigger emitted with the ids it should have emitted. */
export function tally(emittedIds: string[], expectedIds: string[]): Tally {
	const counts = new Map<string, number>();
	for (const id of emittedIds) counts.set(id, (counts.get(id) ?? 0) + 1);
	const expected = new Set(expectedIds);
	return {
		expected: expected.size,
		emitted: emittedIds.length,
		lost: expectedIds.filter((id) => !counts.has(id)),
		duplicated: [...counts.entries()].filter(([, n]) => n > 1).map(([id]) => id),
		unexpected: [...counts.keys()].filter((id) => !expected.has(id)),
	};
}

/** Search requests the simulator logged (optionally since a log sequence number). */
export async function searchRequests(sim: Sim): Promise<Loose[]> {
	const r = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	return r.requests.filter((e) => e.group === 'search');
}

export async function stats(sim: Sim): Promise<Loose> {
	return await admin(sim, 'GET', '/stats');
}

/**
 * The poll trigger's parameters for a test. Tests poll as fast as they need, so the trigger gets
 * no share of its own (Search Requests per Hour 0); the share has its own tests (budgetShare.test.ts).
 */
export function pollParameters(projectId: number, extra: INodeParameters = {}): INodeParameters {
	const { options, ...rest } = extra as { options?: IDataObject } & INodeParameters;
	return {
		event: 'newMention',
		project: projectParam(projectId),
		source: 'recent',
		startFrom: 'now',
		filters: {},
		simplify: false,
		...rest,
		options: { requestsPerHour: 0, ...(options ?? {}) },
	} as INodeParameters;
}

export function streamParameters(
	extra: INodeParameters = {},
	options: IDataObject = {},
): INodeParameters {
	return {
		event: 'newMention',
		filters: {},
		simplify: false,
		...extra,
		options: { stallTimeout: 1, ...options },
	} as INodeParameters;
}

export const idsOf = (items: IDataObject[]): string[] => items.map((i) => String(i.id));

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until the predicate holds (polled every 20 ms). */
export async function eventually(
	predicate: () => Promise<boolean> | boolean,
	timeoutMs = 10_000,
): Promise<void> {
	const start = Date.now();
	while (!(await predicate())) {
		if (Date.now() - start > timeoutMs) throw new Error(`eventually: not within ${timeoutMs} ms`);
		await pause(20);
	}
}
