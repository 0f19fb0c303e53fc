/**
 * Runs workflows through n8n's real execution engine (n8n-core's WorkflowExecute) in-process:
 * real node execution contexts, real expression resolution, real `httpRequestWithAuthentication`
 * (the credential's own `authenticate` adds the key and the API root), real HTTP to the simulator.
 * Only the parts of an n8n instance that a workflow run does not need are left out (database,
 * credential encryption, UI push).
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, sleep, Workflow } from 'n8n-workflow';

import { SentiOneApi } from '../../credentials/SentiOneApi.credentials';
import { type Sim } from './simulator';
import { realNow } from './time';
import type { WorkflowJson } from './workflowJson';
import { BASIC } from './keys';

export const PACKAGE = 'n8n-nodes-sentione';

const credentialTypes: Record<string, ICredentialType> = { sentiOneApi: new SentiOneApi() };

/** Applies the credential type's own `authenticate`, as n8n's CredentialsHelper does. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		if (typeof type?.authenticate === 'function') {
			return await type.authenticate(credentials, requestOptions);
		}
		return requestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`getCredentials(${type}) is not available in the test engine`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}

/** Items the manual trigger stand-in emits in the current run (execute() runs with n8n's `this`). */
let triggerItems: INodeExecutionData[] = [{ json: {} }];

/** Stand-in for n8n-nodes-base.manualTrigger: emits the items the test asks for. */
class ManualTriggerStub implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'n8n-nodes-base.manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'test stand-in',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(): Promise<INodeExecutionData[][]> {
		return [triggerItems];
	}
}

/** Stand-in for n8n-nodes-base.noOp: passes items through. */
class NoOpStub implements INodeType {
	description = {
		displayName: 'No Operation, do nothing',
		name: 'n8n-nodes-base.noOp',
		group: ['organization'],
		version: 1,
		description: 'test stand-in',
		defaults: { name: 'No Operation, do nothing' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export type ProbeFunction = (this: IExecuteFunctions) => Promise<unknown>;

/**
 * A test-only node whose execute() runs a function the test supplies, with a real execute
 * context — the way to drive the transport and the pager through n8n's own HTTP helpers.
 */
class ProbeNode implements INodeType {
	static current: ProbeFunction | undefined;

	description = {
		displayName: 'Probe',
		name: `${PACKAGE}.probe`,
		group: ['transform'],
		version: 1,
		description: 'test-only',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'sentiOneApi', required: true }],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const fn = ProbeNode.current;
		if (!fn) throw new Error('no probe function');
		const result = await fn.call(this);
		return [[{ json: { result: result as IDataObject } }]];
	}
}

export interface EngineCredentials {
	apiKey: string;
	baseUrl: string;
}

export interface RunOptions {
	credentials?: EngineCredentials;
	/** Items the manual trigger emits (default: one empty item). */
	inputItems?: IDataObject[];
	/** Extra node types, by type name. */
	nodeTypes?: Record<string, INodeType>;
	/**
	 * Cancels the execution after this many ms, as n8n does when a workflow's timeout
	 * (settings → Timeout Workflow) passes or the user presses Stop: the engine aborts the
	 * execution's cancel signal. `RunResult.cancelledAt` says when.
	 */
	cancelAfterMs?: number;
	/** Called right after the cancel (a test notes what the server had received by then). */
	onCancel?: () => void;
}

export interface RunResult {
	run: IRun;
	/** Output items (first output) of a node's last run. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error the run ended with, if any. */
	error: (Error & { description?: string; httpCode?: string; context?: IDataObject }) | undefined;
	/** The error of a node's last run, if any. */
	nodeError(nodeName: string): (Error & { description?: string; httpCode?: string }) | undefined;
	/** When the execution was cancelled (real time, `realNow`), if `cancelAfterMs` cancelled it. */
	cancelledAt?: number;
	/** When the run ended (real time, `realNow`). */
	endedAt: number;
}

let executionCounter = 0;

export function buildNodeTypes(extra: Record<string, INodeType>): INodeTypes {
	const registry: Record<string, INodeType> = {
		'n8n-nodes-base.manualTrigger': new ManualTriggerStub(),
		'n8n-nodes-base.noOp': new NoOpStub(),
		[`${PACKAGE}.probe`]: new ProbeNode(),
		...extra,
	};
	return {
		getByName: (type: string) => {
			const found = registry[type];
			if (!found) throw new Error(`Unknown node type ${type}`);
			return found;
		},
		getByNameAndVersion: (type: string, version?: number) => {
			const found = registry[type];
			if (!found) throw new Error(`Unknown node type ${type}`);
			return NodeHelpers.getVersionedNodeType(found, version);
		},
		getKnownTypes: () => ({}),
	} as INodeTypes;
}

export function additionalDataFor(
	credentials: EngineCredentials | undefined,
	workflowData: IWorkflowBase,
	executionId: string,
	mode: 'manual' | 'trigger' = 'manual',
): IWorkflowExecuteAdditionalData {
	return {
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		credentialsHelper: new TestCredentialsHelper(
			credentials
				? { sentiOneApi: { apiKey: credentials.apiKey, baseUrl: credentials.baseUrl } }
				: {},
		),
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		userId: 'test-user',
		encryptedRunnerIdentity: undefined,
		ssrfBridge: undefined,
		evalLlmMockHandler: undefined,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs a workflow (as exported from n8n) from its manual trigger to the end. */
export async function runWorkflow(
	json: WorkflowJson,
	options: RunOptions = {},
): Promise<RunResult> {
	triggerItems = (options.inputItems ?? [{}]).map((item) => ({ json: item }));
	const nodeTypes = buildNodeTypes(options.nodeTypes ?? {});
	const workflow = new Workflow({
		id: 'test-workflow',
		name: json.name ?? 'test',
		nodes: json.nodes,
		connections: json.connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1', ...(json.settings ?? {}) },
	});
	const start = json.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!start) throw new Error('workflow has no manual trigger');
	const executionId = `exec-${++executionCounter}`;
	const workflowData: IWorkflowBase = {
		id: 'test-workflow',
		name: json.name ?? 'test',
		active: false,
		activeVersionId: null,
		isArchived: false,
		nodes: json.nodes,
		connections: json.connections,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const additionalData = additionalDataFor(options.credentials, workflowData, executionId);
	const execution = new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(start.name)!,
	});
	const timer = new AbortController();
	let cancelledAt: number | undefined;
	if (options.cancelAfterMs !== undefined) {
		void sleep(options.cancelAfterMs, timer.signal).then(
			() => {
				cancelledAt = realNow();
				execution.cancel();
				options.onCancel?.();
			},
			() => undefined,
		);
	}
	let run: IRun;
	try {
		run = await execution;
	} finally {
		timer.abort();
	}
	const endedAt = realNow();
	const runData = run.data.resultData.runData;
	return {
		run,
		output(nodeName: string, outputIndex = 0) {
			const runs = runData[nodeName];
			if (!runs || runs.length === 0) throw new Error(`node ${nodeName} did not run`);
			const last = runs[runs.length - 1];
			return last.data?.main?.[outputIndex] ?? [];
		},
		error: run.data.resultData.error as RunResult['error'],
		nodeError(nodeName: string) {
			const runs = runData[nodeName];
			return runs?.[runs.length - 1]?.error as RunResult['error'];
		},
		cancelledAt,
		endedAt,
	};
}

/** Runs `fn` as the execute() of a node in a real n8n execution context. */
export async function withExecuteContext<T>(
	credentials: EngineCredentials,
	fn: (this: IExecuteFunctions) => Promise<T>,
): Promise<T> {
	ProbeNode.current = fn as ProbeFunction;
	try {
		const result = await runWorkflow(
			{
				nodes: [
					{
						id: 'a',
						name: 'Manual Trigger',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: 'b',
						name: 'Probe',
						type: `${PACKAGE}.probe`,
						typeVersion: 1,
						position: [200, 0],
						parameters: {},
						credentials: { sentiOneApi: { id: '1', name: 'SentiOne' } },
					},
				],
				connections: { 'Manual Trigger': { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
			},
			{ credentials },
		);
		const error = result.nodeError('Probe') ?? result.error;
		if (error) throw error;
		return result.output('Probe')[0].json.result as T;
	} finally {
		ProbeNode.current = undefined;
	}
}

/** The SentiOne credential of a run against a simulator: a key (Basic unless given), its Base URL. */
export function credentials(sim: Sim, apiKey = BASIC, baseUrl = sim.base): EngineCredentials {
	return { apiKey, baseUrl };
}
