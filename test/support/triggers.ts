/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Drives the trigger nodes the way an n8n instance does, with n8n-core's real contexts:
 * - active polls: a real PollContext (real static data object of a real Workflow, real `__emit`)
 *   run through n8n-core's TriggersAndPollers, as the poll executor does on each Poll Times tick;
 *   a "restart" rebuilds the Workflow from a JSON copy of its static data, as n8n reloads it from
 *   the database;
 * - active stream triggers: `runTriggerFunction` with a real TriggerContext whose `emit`,
 *   `emitError` and `saveFailedExecution` record what the node hands to n8n;
 * - manual runs ("Fetch test event", "Listen for test event"): the whole manual execution path of
 *   WorkflowExecute, which for a trigger waits for the first emit and then calls closeFunction.
 */
import { PollContext, TriggerContext, TriggersAndPollers, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeParameterResourceLocator,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
	ITriggerFunctions,
	ITriggerResponse,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { SentiOneStreamTrigger } from '../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { SentiOneTrigger } from '../../nodes/SentiOne/SentiOneTrigger.node';
import type { EngineCredentials } from './engine';
import type { DonePromise } from './fake/runs';
import { fakeRun } from './fake/runs';
import { PACKAGE, additionalDataFor, buildNodeTypes } from './engine';

export const POLL_TYPE = `${PACKAGE}.sentiOneTrigger`;
export const STREAM_TYPE = `${PACKAGE}.sentiOneStreamTrigger`;

const nodeTypes = buildNodeTypes({
	[POLL_TYPE]: new SentiOneTrigger(),
	[STREAM_TYPE]: new SentiOneStreamTrigger(),
});

let executions = 0;

/** n8n-core's runner of trigger and poll functions (a plain service without dependencies). */
const triggersAndPollers = new TriggersAndPollers();

function triggerNode(type: string, parameters: INodeParameters): INode {
	return {
		id: 'trigger-node-id',
		name: 'SentiOne',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { sentiOneApi: { id: '1', name: 'SentiOne' } },
	};
}

function workflowOf(
	node: INode,
	staticData?: IDataObject,
): { workflow: Workflow; data: IWorkflowBase } {
	const workflow = new Workflow({
		id: 'trigger-workflow',
		name: 'trigger test',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	});
	const data = {
		id: 'trigger-workflow',
		name: 'trigger test',
		active: true,
		activeVersionId: null,
		isArchived: false,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	return { workflow, data };
}

function additional(
	credentials: EngineCredentials,
	data: IWorkflowBase,
	mode: 'manual' | 'trigger',
): IWorkflowExecuteAdditionalData {
	return additionalDataFor(credentials, data, `trigger-exec-${++executions}`, mode);
}

/** Items n8n would start an execution with (first output). */
function jsonOf(data: INodeExecutionData[][]): IDataObject[] {
	return (data[0] ?? []).map((item) => item.json);
}

/** The manual execution path of n8n for a workflow whose only node is the trigger. */
async function runManually(
	node: INode,
	credentials: EngineCredentials,
): Promise<{
	items: IDataObject[] | null;
	error?: Error & { description?: string; httpCode?: string };
}> {
	const { workflow, data } = workflowOf(node);
	const run = await new WorkflowExecute(additional(credentials, data, 'manual'), 'manual').run({
		workflow,
		startNode: workflow.getNode(node.name)!,
	});
	const runs = run.data.resultData.runData[node.name];
	const last = runs?.[runs.length - 1];
	const error = (last?.error ?? run.data.resultData.error) as
		| (Error & { description?: string; httpCode?: string })
		| undefined;
	const output = last?.data?.main?.[0];
	return { items: output ? output.map((i) => i.json) : null, error };
}

export interface PollOutcome {
	/** items emitted by this poll (null: the poll returned null) */
	items: IDataObject[] | null;
	error?: Error & { description?: string; httpCode?: string };
}

/** A poll trigger as an active workflow holds it: one Workflow (and its static data) across polls. */
export class PollHarness {
	readonly node: INode;

	readonly workflow: Workflow;

	private readonly data: IWorkflowBase;

	/** every batch handed to __emit, in order */
	readonly emitted: IDataObject[][] = [];

	constructor(
		parameters: INodeParameters,
		private readonly credentials: EngineCredentials,
		staticData?: IDataObject,
	) {
		this.node = triggerNode(POLL_TYPE, parameters);
		const built = workflowOf(this.node, staticData);
		this.workflow = built.workflow;
		this.data = built.data;
	}

	/** One active poll (a Poll Times tick): PollContext in trigger mode, run by n8n-core's TriggersAndPollers. */
	async poll(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		let emitted: IDataObject[] | null = null;
		let emittedError: Error | undefined;
		const context = new PollContext(
			this.workflow,
			this.node,
			additional(this.credentials, this.data, 'trigger'),
			'trigger' as WorkflowExecuteMode,
			activation,
			(data: INodeExecutionData[][]) => {
				emitted = jsonOf(data);
				this.emitted.push(emitted);
			},
			(error: Error) => {
				emittedError = error;
			},
		);
		try {
			const response = await triggersAndPollers.runPollFunction(
				this.workflow,
				this.node,
				context as unknown as IPollFunctions,
			);
			// what the poll executor does with a result
			if (response !== null) context.__emit(response);
		} catch (error) {
			// what the poll executor does with an error of an active poll
			context.__emitError(error as Error);
		}
		return { items: emitted, error: emittedError };
	}

	/** "Fetch test event": n8n's manual execution of the trigger (its own Workflow, no static data). */
	async manual(): Promise<PollOutcome> {
		return await runManually(this.node, this.credentials);
	}

	/** The node's static data object (what n8n saves with the workflow). */
	staticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/** A new instance from a JSON copy of the static data, as after an n8n restart. */
	restart(parameters?: INodeParameters): PollHarness {
		const saved = JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
		delete saved.__dataChanged;
		return new PollHarness(parameters ?? this.node.parameters, this.credentials, saved);
	}

	/** All emitted items, flattened. */
	allItems(): IDataObject[] {
		return this.emitted.flat();
	}
}

export interface ActiveStreamTrigger {
	/** every batch handed to emit, in order */
	emitted: IDataObject[][];
	/**
	 * A JSON copy of the node's static data as n8n last wrote it to its database: n8n writes it
	 * once the activation is done and when an execution starts (each emit), not when the node
	 * changes it in between — what a restart finds.
	 */
	savedStaticData(): IDataObject;
	/** A JSON copy of the node's static data as the running node holds it now (not all on disk). */
	liveStaticData(): IDataObject;
	/** errors handed to emitError */
	errors: Error[];
	/** errors handed to saveFailedExecution */
	failures: Error[];
	response: ITriggerResponse;
	items(): IDataObject[];
	/** resolves once the predicate holds (checked on every emit and every 20 ms), rejects after timeoutMs */
	until(predicate: () => boolean, timeoutMs?: number): Promise<void>;
	close(): Promise<void>;
}

/**
 * n8n's execution table as far as deduplication keys go (n8n 2.41+): an `emit` that declares the
 * fourth parameter, and refuses an execution whose key an earlier one carried. Shared by the
 * activations before and after a restart; `forgetLast` models a shutdown that cut the creation of
 * the last executions short (their keys and items never reached the table).
 */
export class DeduplicatingHost {
	/** the items of every execution created, in order */
	readonly executions: IDataObject[][] = [];

	/** executions refused for a key an earlier one carried */
	refused = 0;

	/** executions started without a key */
	unkeyed = 0;

	/** how each execution created ended, in order (only those given a done promise) */
	readonly outcomes: Array<'success' | 'error'> = [];

	private readonly keys: Array<string | undefined> = [];

	/**
	 * `outcome` (Mark Delivered When): how the execution of these items ends; the done promise an
	 * emit carries is then settled as n8n does once the execution is finalized (a run with that
	 * status; nothing when the key was refused). Without it, done promises are left unsettled.
	 */
	constructor(private readonly outcome?: (items: IDataObject[]) => 'success' | 'error') {}

	emitFor(record: (batch: IDataObject[]) => void) {
		return (
			batch: INodeExecutionData[][],
			_response?: unknown,
			donePromise?: unknown,
			deduplicationKey?: string,
		): void => {
			const done = donePromise as DonePromise | undefined;
			const items = jsonOf(batch);
			record(items);
			if (deduplicationKey !== undefined && this.keys.includes(deduplicationKey)) {
				this.refused++;
				if (done && this.outcome) setImmediate(() => done.resolve(undefined));
				return;
			}
			if (deduplicationKey === undefined) this.unkeyed++;
			this.keys.push(deduplicationKey);
			this.executions.push(items);
			if (done && this.outcome) {
				const status = this.outcome(items);
				this.outcomes.push(status);
				// the execution runs after emit returned
				setImmediate(() => done.resolve(fakeRun(status)));
			}
		};
	}

	forgetLast(count: number): void {
		this.keys.splice(-count, count);
		this.executions.splice(-count, count);
	}

	items(): IDataObject[] {
		return this.executions.flat();
	}
}

/**
 * Activates a stream trigger as n8n does for an active workflow; rejects when activation fails.
 * `host`: an n8n that deduplicates executions by key (default: one whose `emit` takes no key).
 */
export async function activateStreamTrigger(
	parameters: INodeParameters,
	credentials: EngineCredentials,
	staticData?: IDataObject,
	host?: DeduplicatingHost,
): Promise<ActiveStreamTrigger> {
	const node = triggerNode(STREAM_TYPE, parameters);
	const { workflow, data } = workflowOf(node, staticData);
	const emitted: IDataObject[][] = [];
	const errors: Error[] = [];
	const failures: Error[] = [];
	const copy = () => {
		const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		delete saved.__dataChanged;
		return saved;
	};
	let written = copy();
	const record = (items: IDataObject[]) => {
		written = copy(); // an execution starts: n8n writes the static data
		emitted.push(items);
	};
	const getTriggerFunctions = (
		wf: Workflow,
		n: INode,
		additionalData: IWorkflowExecuteAdditionalData,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
	) =>
		new TriggerContext(
			wf,
			n,
			additionalData,
			mode,
			activation,
			host
				? host.emitFor(record)
				: (batch: INodeExecutionData[][]) => {
						record(jsonOf(batch));
					},
			(error: Error) => {
				errors.push(error);
			},
			(error: Error) => {
				failures.push(error);
			},
		) as unknown as ITriggerFunctions;
	const response = (await triggersAndPollers.runTriggerFunction(
		workflow,
		node,
		getTriggerFunctions,
		additional(credentials, data, 'trigger'),
		'trigger',
		'activate',
	)) as ITriggerResponse;
	written = copy(); // the activation is done: n8n writes the static data
	let closed = false;
	return {
		emitted,
		savedStaticData: () => structuredClone(written),
		liveStaticData: copy,
		errors,
		failures,
		response,
		items: () => emitted.flat(),
		until: async (predicate, timeoutMs = 10_000) => {
			const start = Date.now();
			while (!predicate()) {
				if (Date.now() - start > timeoutMs)
					throw new Error(`condition not met within ${timeoutMs} ms`);
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
		},
		close: async () => {
			if (closed) return;
			closed = true;
			await response.closeFunction?.();
		},
	};
}

/** "Listen for test event": n8n's manual execution of the stream trigger (waits for the first emit, then closes). */
export async function runStreamTriggerManually(
	parameters: INodeParameters,
	credentials: EngineCredentials,
): Promise<PollOutcome> {
	return await runManually(triggerNode(STREAM_TYPE, parameters), credentials);
}

/**
 * Timers and sockets open in this process, by kind (jest's own and the test's are included: compare
 * a snapshot taken before the node started with one taken after it closed).
 */
export function activeResources(): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
	return counts;
}

export function projectParam(projectId: number): INodeParameterResourceLocator {
	return { __rl: true, mode: 'id', value: String(projectId) };
}

/** New mentions of one project by recent search from now, unsimplified: what every poll test watches. */
function newMentionsOf(projectId: number): INodeParameters {
	return {
		event: 'newMention',
		project: projectParam(projectId),
		source: 'recent',
		startFrom: 'now',
		filters: {},
		simplify: false,
	};
}

/**
 * The poll trigger's parameters for a test. Tests poll as fast as they need, so the trigger gets
 * no share of its own (Search Requests per Hour 0); the share has its own tests (costText.test.ts).
 */
export function pollParameters(projectId: number, extra: INodeParameters = {}): INodeParameters {
	const { options, ...rest } = extra as { options?: IDataObject } & INodeParameters;
	return {
		...newMentionsOf(projectId),
		...rest,
		options: { requestsPerHour: 0, ...(options ?? {}) },
	} as INodeParameters;
}

/**
 * The poll trigger's parameters on its defaults, its own share of the search budget included (for
 * the tests of that share and of volume): only `options` are set.
 */
export function pollOnDefaults(projectId: number, options: IDataObject = {}): INodeParameters {
	return { ...newMentionsOf(projectId), options } as INodeParameters;
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
