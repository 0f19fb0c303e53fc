/* eslint-disable @n8n/community-nodes/require-node-api-error -- test code: errors pass through unchanged */
/**
 * The SentiOne action node in the unit tier: run it with a FakeApi and a fake execute context
 * (context.ts), and read back its items, its execution hints and the requests it sent, or the
 * error it raised. One call per case: `await runAction({ resource: 'project', operation: 'getAll' }, { api })`.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
} from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { record } from '../../setup/secrets';
import { FakeApi } from './api';
import type { FakeContextOptions } from './context';
import { executeContext, loadOptionsContext, runExecute } from './context';

export const actionNode = new SentiOne();

export type ActionOptions = Omit<FakeContextOptions, 'nodeType' | 'parameters'>;

export interface ActionRun {
	items: INodeExecutionData[];
	/** the json of every item, in order */
	json: IDataObject[];
	/** the execution hints' messages, in order */
	hints: string[];
	api: FakeApi;
}

/** A project resource locator "By ID", as the editor saves it. */
export const projectById = (id: string | number) => ({ __rl: true, mode: 'id', value: String(id) });

function context(parameters: IDataObject | IDataObject[], options: ActionOptions) {
	const api = options.api ?? new FakeApi();
	return executeContext({ nodeType: actionNode, ...options, api, parameters });
}

/** Runs the action node with these parameters (one set, or one per input item). */
export async function runAction(
	parameters: IDataObject | IDataObject[],
	options: ActionOptions = {},
): Promise<ActionRun> {
	const ctx = context(parameters, options);
	const [items] = await runExecute(actionNode, ctx);
	return {
		items,
		json: items.map((item) => item.json),
		hints: ctx.recorded.hints.map((hint) => hint.message),
		api: ctx.recorded.api,
	};
}

/** The error the node raised, as n8n shows it. */
export interface ActionFailure {
	name: string;
	message: string;
	description?: string;
	httpCode?: string;
	itemIndex?: number;
	/** the error itself, for anything else */
	error: Error;
	hints: string[];
	api: FakeApi;
}

/** Runs the action node expecting it to fail; returns the error (fails the test if it did not). */
export async function failAction(
	parameters: IDataObject | IDataObject[],
	options: ActionOptions = {},
): Promise<ActionFailure> {
	const ctx = context(parameters, options);
	let output: unknown;
	try {
		output = await runExecute(actionNode, ctx);
	} catch (caught) {
		const error = caught as Error & {
			description?: unknown;
			httpCode?: unknown;
			context?: { itemIndex?: number };
		};
		return {
			name: error.constructor.name,
			message: error.message,
			description: typeof error.description === 'string' ? error.description : undefined,
			httpCode:
				error.httpCode === undefined || error.httpCode === null
					? undefined
					: String(error.httpCode),
			itemIndex: error.context?.itemIndex,
			error,
			hints: ctx.recorded.hints.map((hint) => hint.message),
			api: ctx.recorded.api,
		};
	}
	throw new Error(`expected the node to fail, it returned ${JSON.stringify(output).slice(0, 500)}`);
}

/**
 * The project picker's "From list" (the node's `searchProjects` list search) on a fake load-options
 * context, for the secrets watch too: what the editor would show for `filter` and `paginationToken`.
 */
export async function searchProjectList(
	api: FakeApi,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const ctx: ILoadOptionsFunctions = loadOptionsContext({ nodeType: actionNode, api });
	try {
		const result = await actionNode.methods.listSearch.searchProjects.call(
			ctx,
			filter,
			paginationToken,
		);
		record('run', result);
		return result;
	} catch (error) {
		record('run-error', error);
		throw error;
	}
}
