/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * The action node in the engine: workflow fixtures (n8n exports, in workflows/), a run through
 * n8n-core against a simulator, and reading its output and execution hints.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { type Loose, type Sim } from './simulator';
import { runWorkflow, type RunResult } from './engine';
import { type WorkflowJson } from './workflowJson';

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

/** The Search Recent fixture on one project (by id), these parameters merged over the fixture's. */
export function searchRecentWorkflow(
	projectId: number,
	parameters: IDataObject = {},
): WorkflowJson {
	return withParameters(loadWorkflow('mention-search-recent'), {
		project: { __rl: true, value: String(projectId), mode: 'id' },
		...parameters,
	});
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
