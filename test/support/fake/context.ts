/* eslint-disable @n8n/community-nodes/require-node-api-error -- test code: errors pass through unchanged */
/**
 * Fake n8n contexts for the unit tier: what an operation, a poll or a trigger reads from `this`,
 * with parameters filled from the node's own description exactly as n8n fills a saved node's
 * (NodeHelpers.getNodeParameters: defaults for every parameter shown), and requests going to a
 * FakeApi (fake/api.ts). No n8n-core, no engine, no socket: a test runs in milliseconds.
 *
 * What is recorded for the test: execution hints (`hints`), the trigger's emits (with their
 * deduplication keys and done promises, which a test settles with `settleEmit` or holds), errors
 * and failed executions, the logger's lines. Everything the node produces also goes to the suite's secrets
 * watch (test/setup/secrets.ts), as in the engine tier: run the node through `runExecute` /
 * `runPoll`. Expressions are not evaluated (a test gives plain values; the engine tier runs them).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IPollFunctions,
	ITriggerFunctions,
	ITriggerResponse,
	NodeExecutionHint,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { record } from '../../setup/secrets';
import { fakeRun, type DonePromise, type EmitOutcome } from './runs';

export { fakeRun, type DonePromise, type EmitOutcome } from './runs';
import { waitFor } from '../wait';
import { FakeApi } from './api';

/**
 * The SentiOne action node as a workflow holds it (version 1 at [0, 0]): what the error mappers and
 * n8n's helpers are handed where no context builds it.
 */
export function actionNodeOf(id: string, parameters: INodeParameters = {}): INode {
	return {
		id,
		name: 'SentiOne',
		type: 'n8n-nodes-sentione.sentiOne',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

export interface FakeContextOptions {
	/** the node type whose description fills the defaults (and whose name the node gets) */
	nodeType: INodeType;
	/** the parameters the user set; one object, or one per input item */
	parameters?: IDataObject | IDataObject[];
	/** where requests go (a fresh FakeApi when not given) */
	api?: FakeApi;
	/** the workflow's time zone (default UTC) */
	timezone?: string;
	/** input items of an action node (default: one empty item per parameter set) */
	inputItems?: IDataObject[];
	continueOnFail?: boolean;
	/** 'manual' ("Execute step", "Fetch test event") or an active mode (default: trigger) */
	mode?: WorkflowExecuteMode;
	/** the node's static data (triggers): kept between calls when the same object is passed again */
	staticData?: IDataObject;
	/** n8n's execution-cancel signal */
	cancelSignal?: AbortSignal;
	/** the poll budget n8n 2.x gives one poll, in ms (absent on n8n 1.x) */
	pollBudgetMs?: number;
	/** the workflow's settings (getWorkflowSettings; default none) */
	workflowSettings?: IDataObject;
}

export interface Recorded {
	api: FakeApi;
	hints: NodeExecutionHint[];
	logs: string[];
	node: INode;
	/** the parameters as n8n would hand them over (defaults filled), per item */
	parameters: INodeParameters[];
}

function get(object: unknown, path: string): unknown {
	let value = object;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

function isResourceLocator(value: unknown): value is { __rl: true; value: unknown } {
	return value !== null && typeof value === 'object' && (value as IDataObject).__rl === true;
}

function base(o: FakeContextOptions) {
	const description = o.nodeType.description;
	const sets = Array.isArray(o.parameters) ? o.parameters : [o.parameters ?? {}];
	const node: INode = {
		id: 'fake-node-id',
		name: description.defaults.name ?? description.displayName,
		type: `n8n-nodes-sentione.${description.name}`,
		typeVersion: Array.isArray(description.version)
			? Math.max(...description.version)
			: description.version,
		position: [0, 0],
		parameters: {},
		credentials: { sentiOneApi: { id: '1', name: 'SentiOne' } },
	};
	const parameters = sets.map(
		(set) =>
			NodeHelpers.getNodeParameters(
				description.properties,
				set as INodeParameters,
				true,
				false,
				node,
				description,
			) ?? {},
	);
	node.parameters = parameters[0];
	const api = o.api ?? new FakeApi();
	const recorded: Recorded = { api, hints: [], logs: [], node, parameters };
	const getNodeParameter = (
		name: string,
		itemIndex = 0,
		fallback?: unknown,
		options?: { extractValue?: boolean },
	): unknown => {
		const set = parameters[Math.min(itemIndex, parameters.length - 1)];
		let value = get(set, name);
		if (value === undefined) value = fallback;
		if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
		if (options?.extractValue && isResourceLocator(value)) return value.value;
		return value;
	};
	const log = (level: string) => (message: string, meta?: unknown) => {
		recorded.logs.push(`${level}: ${message}`);
		record('log', { level, message, meta });
	};
	const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
	const staticData = o.staticData ?? {};
	const common = {
		getNode: () => node,
		getNodeParameter,
		getTimezone: () => o.timezone ?? 'UTC',
		getMode: () => o.mode ?? 'trigger',
		getCredentials: async () => api.credentials,
		getExecutionCancelSignal: () => o.cancelSignal,
		getWorkflow: () => ({ id: 'fake-workflow-id', name: 'Fake workflow', active: true }),
		getWorkflowStaticData: () => staticData,
		getWorkflowSettings: () => o.workflowSettings ?? {},
		getInstanceId: () => 'fake-instance',
		logger,
		helpers: {
			httpRequestWithAuthentication: api.httpRequestWithAuthentication,
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) => ({ json })),
			constructExecutionMetaData: (
				items: INodeExecutionData[],
				meta: { itemData: { item: number } },
			) => items.map((item) => ({ ...item, pairedItem: meta.itemData })),
		},
	};
	return { recorded, common, sets, staticData };
}

/**
 * A poll's or a trigger's getNodeParameter: it has no item index, `(name, fallback, options)` —
 * unlike an action's `(name, itemIndex, fallback, options)`.
 */
function itemless(
	read: (name: string, itemIndex?: number, fallback?: unknown, options?: object) => unknown,
) {
	return (name: string, fallback?: unknown, options?: { extractValue?: boolean }) =>
		read(name, 0, fallback, options);
}

/** `this` of the action node's execute(). */
export function executeContext(o: FakeContextOptions): IExecuteFunctions & { recorded: Recorded } {
	const { recorded, common, sets } = base(o);
	const items = (o.inputItems ?? sets.map(() => ({}))).map((json) => ({ json }));
	return {
		...common,
		recorded,
		getInputData: () => items,
		continueOnFail: () => o.continueOnFail ?? false,
		addExecutionHints: (...hints: NodeExecutionHint[]) => {
			record('run', hints);
			recorded.hints.push(...hints);
		},
	} as unknown as IExecuteFunctions & { recorded: Recorded };
}

/** `this` of a list search (resource locator "From list"). */
export function loadOptionsContext(
	o: FakeContextOptions,
): ILoadOptionsFunctions & { recorded: Recorded } {
	const { recorded, common } = base(o);
	return {
		...common,
		recorded,
		getCurrentNodeParameter: (name: string) => common.getNodeParameter(name, 0, undefined),
	} as unknown as ILoadOptionsFunctions & { recorded: Recorded };
}

/** `this` of the poll trigger's poll(): static data persists when the same `staticData` is passed. */
export function pollContext(
	o: FakeContextOptions,
): IPollFunctions & { recorded: Recorded; staticData: IDataObject } {
	const { recorded, common, staticData } = base(o);
	return {
		...common,
		getNodeParameter: itemless(common.getNodeParameter),
		recorded,
		staticData,
		...(o.pollBudgetMs === undefined ? {} : { getPollBudgetMs: () => o.pollBudgetMs }),
		__emit: () => undefined,
	} as unknown as IPollFunctions & { recorded: Recorded; staticData: IDataObject };
}

export interface TriggerRecord extends Recorded {
	/** what each emit passed on (its items) */
	emitted: INodeExecutionData[][];
	/** the deduplication key of each emit, when one was given */
	keys: Array<string | undefined>;
	/**
	 * the done promise of each emit, when one was given (Mark Delivered When): n8n settles it when
	 * the execution ends; a test does with `settleEmit`, or holds it by not settling it
	 */
	done: Array<DonePromise | undefined>;
	/** errors given to emitError (they deactivate the trigger) */
	errors: Error[];
	/** errors given to saveFailedExecution (the trigger stays active) */
	failed: Error[];
}

/** Settles the done promise of emit number `index` (0 = the first) as `outcome`. */
export function settleEmit(
	ctx: { recorded: TriggerRecord },
	index: number,
	outcome: EmitOutcome,
): void {
	const done = ctx.recorded.done[index];
	if (!done) throw new Error(`emit ${index} was given no done promise`);
	if (outcome === 'refused') done.resolve(undefined);
	else if (typeof outcome === 'object') done.reject(outcome.reject);
	else done.resolve(fakeRun(outcome));
}

/** `this` of the Stream Trigger's trigger(): emits are recorded, not run. */
export function triggerContext(
	o: FakeContextOptions & {
		/** the length n8n's emit declares: 4 on n8n 2.41+ (takes a deduplication key), 3 before */
		emitArity?: 3 | 4;
	},
): ITriggerFunctions & { recorded: TriggerRecord; staticData: IDataObject } {
	const { recorded: r, common, staticData } = base(o);
	const recorded: TriggerRecord = {
		...r,
		emitted: [],
		keys: [],
		done: [],
		errors: [],
		failed: [],
	};
	const keep = (data: INodeExecutionData[][], key?: string, done?: unknown) => {
		record('emit', data);
		recorded.emitted.push(data[0] ?? []);
		recorded.keys.push(key);
		recorded.done.push(done as DonePromise | undefined);
	};
	const emit =
		(o.emitArity ?? 4) === 4
			? (data: INodeExecutionData[][], _r?: unknown, done?: unknown, key?: string) =>
					keep(data, key, done)
			: // n8n before 2.41: emit(data, responsePromise?, donePromise?), no key (its length is 3)
				(data: INodeExecutionData[][], responsePromise?: unknown, donePromise?: unknown) => {
					void responsePromise;
					keep(data, undefined, donePromise);
				};
	return {
		...common,
		getNodeParameter: itemless(common.getNodeParameter),
		recorded,
		staticData,
		emit,
		emitError: (error: Error) => {
			record('emit-error', error);
			recorded.errors.push(error);
		},
		saveFailedExecution: (error: Error) => {
			record('failed-execution', error);
			recorded.failed.push(error);
		},
	} as unknown as ITriggerFunctions & { recorded: TriggerRecord; staticData: IDataObject };
}

/** Runs the action node's execute() with the context, for the secrets watch too. */
export async function runExecute(
	nodeType: INodeType,
	ctx: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	try {
		const output = await nodeType.execute!.call(ctx);
		record('run', output);
		return output as INodeExecutionData[][];
	} catch (error) {
		record('run-error', error);
		throw error;
	}
}

/** Runs the poll trigger's poll() with the context, for the secrets watch too. */
export async function runPoll(
	nodeType: INodeType,
	ctx: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	try {
		const output = await nodeType.poll!.call(ctx);
		record('poll', output);
		return output;
	} catch (error) {
		record('poll-error', error);
		throw error;
	}
}

/**
 * Runs the Stream Trigger's trigger() with the context, for the secrets watch too (an activation
 * error, and an error of the close function, are recorded like the engine tier records them).
 */
export async function runTrigger(
	nodeType: INodeType,
	ctx: ITriggerFunctions,
): Promise<ITriggerResponse> {
	let response: ITriggerResponse;
	try {
		response = (await nodeType.trigger!.call(ctx)) ?? {};
	} catch (error) {
		record('activation-error', error);
		throw error;
	}
	const close = response.closeFunction;
	return {
		...response,
		closeFunction: close
			? async () => {
					try {
						await close();
					} catch (error) {
						record('close-error', error);
						throw error;
					}
				}
			: undefined,
	};
}

/** A trigger the tests of a file activated (useActivations). */
export interface ActiveTrigger {
	/** n8n's close function; closing twice is harmless */
	close(): Promise<void>;
}

/**
 * Activates triggers for the tests of a file (through runTrigger) and closes every one still open
 * after each test, a failed one too, so nothing a test started outlives it. Call it before other
 * `afterEach` hooks that the close may need (a fake clock).
 */
export function useActivations(): (
	nodeType: INodeType,
	ctx: ITriggerFunctions,
) => Promise<ActiveTrigger> {
	const open: ActiveTrigger[] = [];
	afterEach(async () => {
		for (const trigger of open.splice(0)) await trigger.close();
	});
	return async (nodeType, ctx) => {
		const response = await runTrigger(nodeType, ctx);
		let closing: Promise<void> | undefined;
		const trigger: ActiveTrigger = {
			close: async () => {
				closing ??= response.closeFunction?.() ?? Promise.resolve();
				await closing;
			},
		};
		open.push(trigger);
		return trigger;
	};
}

/**
 * Waits (in real time, briefly) until what a trigger recorded satisfies `holds`: the stream is read
 * in the background, so a test waits for the emits, errors or failures it expects.
 */
export async function untilRecorded(
	ctx: { recorded: TriggerRecord },
	holds: (recorded: TriggerRecord) => boolean,
	what = 'the trigger to record it',
	timeoutMs = 3000,
): Promise<void> {
	await waitFor(() => holds(ctx.recorded), { timeoutMs, stepMs: 2, what });
}

/** The json of every item a trigger emitted, in order. */
export function emittedRows(ctx: { recorded: TriggerRecord }): IDataObject[] {
	return ctx.recorded.emitted.flat().map((item) => item.json);
}
