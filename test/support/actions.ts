/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Shared by the action-node tests: workflow fixtures (n8n exports next to the tests), a run
 * through the real engine against a simulator, the simulator's request log, and a virtual clock
 * that keeps the node and the simulator on the same time.
 *
 * Why a virtual clock: the simulator runs frozen at NOW (2026-11-21T10:30Z) so its seeded data,
 * rate-limit windows and 7-day window are the same on every run, while the node's date rules and
 * rate-limit waits read `clock` (nodes/SentiOne/shared/time.ts). Pointing that clock at NOW makes
 * the two agree, and turns "wait until the hourly reset" into an instant jump of the simulator's
 * clock (POST /__admin/clock) instead of a real wait of up to an hour.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { setClock } from '../../nodes/SentiOne/shared/time';
import { admin, NOW_MS, startSim, type Loose, type Sim } from './simulator';
import { runWorkflow, type RunResult, type WorkflowJson } from './engine';

export const NODE = 'SentiOne';
export const NOOP = 'No Operation, do nothing';

/** A workflow fixture of this folder, as n8n exports it (a fresh copy each time). */
export function loadWorkflow(name: string): WorkflowJson {
	return JSON.parse(
		readFileSync(join(__dirname, 'workflows', `${name}.workflow.json`), 'utf8'),
	) as WorkflowJson;
}

/** The fixture with the SentiOne node's parameters changed (merged over the fixture's own). */
export function withParameters(
	workflow: WorkflowJson,
	parameters: IDataObject,
	node: { replace?: boolean; onError?: 'continueRegularOutput' | 'stopWorkflow' } = {},
): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	const target = copy.nodes.find((n) => n.name === NODE);
	if (!target) throw new Error('fixture has no SentiOne node');
	target.parameters = (
		node.replace ? { ...parameters } : { ...target.parameters, ...parameters }
	) as INodeParameters;
	if (node.onError) target.onError = node.onError;
	return copy;
}

export interface RunOptions {
	key: string;
	inputItems?: IDataObject[];
	baseUrl?: string;
}

/** Runs a workflow through n8n's engine with the SentiOne node registered. */
export async function run(
	sim: Sim,
	workflow: WorkflowJson,
	options: RunOptions,
): Promise<RunResult> {
	return await runWorkflow(workflow, {
		credentials: { apiKey: options.key, baseUrl: options.baseUrl ?? sim.base },
		inputItems: options.inputItems,
		nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() },
	});
}

/** Output of the SentiOne node; fails the test with the node's error when it failed. */
export function outputOf(result: RunResult): INodeExecutionData[] {
	const error = result.nodeError(NODE);
	if (error) throw new Error(`SentiOne failed: ${error.message} — ${error.description ?? ''}`);
	return result.output(NODE);
}

export function jsonOf(result: RunResult): Loose[] {
	return outputOf(result).map((item) => item.json);
}

/** Execution hints (notices) the SentiOne node added in its last run. */
export function hintsOf(result: RunResult): Array<{ message: string; type?: string }> {
	const runs = result.run.data.resultData.runData[NODE];
	return (runs?.[runs.length - 1]?.hints ?? []) as Array<{ message: string; type?: string }>;
}

export interface LoggedRequest {
	seq: number;
	method: string;
	path: string;
	query: Record<string, string>;
	status: number | null;
	group: string;
	counted: boolean;
	body: Loose;
	accept: string | null;
	contentType: string | null;
}

/** The simulator's request log (API requests only; the admin API is never logged). */
export async function requestLog(sim: Sim): Promise<LoggedRequest[]> {
	return (await admin<{ requests: LoggedRequest[] }>(sim, 'GET', '/requests')).requests;
}

export async function clearLog(sim: Sim): Promise<void> {
	await admin(sim, 'DELETE', '/requests');
}

/** Startup state (data, budgets, faults, log, clock) and the virtual clock back at NOW. */
export async function resetSim(sim: Sim, clock?: SimClock): Promise<void> {
	await admin(sim, 'POST', '/reset');
	clock?.reset();
}

/** Requests whose path (without the API root) matches. */
export function onPath(log: LoggedRequest[], pattern: RegExp): LoggedRequest[] {
	return log.filter((r) => pattern.test(r.path.replace(/^\/api\/public\/v2/, '')));
}

/** The node's clock, pinned to the simulator's frozen clock; sleeping moves both. */
export class SimClock {
	now = NOW_MS;
	/** every wait the node asked for, in ms */
	slept: number[] = [];
	private restore: (() => void) | undefined;

	constructor(private readonly sim: Sim) {}

	install(): void {
		this.restore = setClock({
			now: () => this.now,
			sleep: async (ms: number) => {
				this.slept.push(ms);
				await this.advance(ms);
			},
		});
	}

	/** Moves the node's clock and the simulator's together */
	async advance(ms: number): Promise<void> {
		this.now += ms;
		await admin(this.sim, 'POST', '/clock', { advanceMs: ms });
	}

	uninstall(): void {
		this.restore?.();
		this.restore = undefined;
	}

	reset(): void {
		this.now = NOW_MS;
		this.slept = [];
	}
}

/**
 * The simulator of a test file: started with `flags` before its tests (the node's clock pinned to
 * it), reset before every test (`reset: 'log'`: only its request log is cleared) and stopped after
 * them. `use` receives the simulator and the clock once they exist.
 */
export function useSimulator(
	flags: string[],
	use: (sim: Sim, clock: SimClock) => void,
	options: { reset?: 'all' | 'log' } = {},
): void {
	let sim: Sim;
	let clock: SimClock;
	beforeAll(async () => {
		sim = await startSim(flags);
		clock = new SimClock(sim);
		clock.install();
		use(sim, clock);
	});
	afterAll(async () => {
		clock.uninstall();
		await sim.stop();
	});
	beforeEach(async () => {
		if (options.reset === 'log') await clearLog(sim);
		else await resetSim(sim, clock);
	});
}

/** A new, empty project (created through the API with the Enterprise key) filled with exactly N mentions. */
export async function projectWithMentions(
	sim: Sim,
	count: number,
	overrides?: IDataObject,
): Promise<number> {
	const res = await fetch(`${sim.base}/api/public/v2/projects`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': 'SENTIONE-APIKEY-enterprise-demo',
		},
		body: JSON.stringify({ name: `Test project ${count}`, query: 'test' }),
	});
	if (res.status !== 201) throw new Error(`create project → ${res.status}`);
	const { id } = (await res.json()) as { id: number };
	// admin POST /mentions accepts any count; batches keep each call small
	for (let left = count; left > 0; left -= 500) {
		await admin(sim, 'POST', '/mentions', { projectId: id, count: Math.min(500, left), overrides });
	}
	return id;
}
