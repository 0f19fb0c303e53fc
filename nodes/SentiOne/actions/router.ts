/**
 * The one item loop of the action node: reads resource and operation per item, runs the
 * operation, links every output row to its input item (pairedItem), and on failure either stops
 * with a node error or, with "Continue On Fail", emits `{ error, description }` for that item and
 * goes on. One transport serves the whole execution, so the rate-limit state learned from one
 * item's answers guides the next item's requests.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import { toItems } from '../shared/items';
import { isStopped, SentiOneTransport } from '../shared/transport';
import * as mention from './mention/Mention.resource';
import type { SentiOneType } from './node.type';
import { ExecutionHints } from './executionHints';
import * as project from './project/Project.resource';
import * as tag from './tag/Tag.resource';

type Operation = (
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	notes: ExecutionHints,
) => Promise<IDataObject | IDataObject[]>;

function operationOf(entity: SentiOneType): Operation | undefined {
	switch (entity.resource) {
		case 'project':
			return project[entity.operation]?.execute;
		case 'mention':
			return mention[entity.operation]?.execute;
		case 'tag':
			return tag[entity.operation]?.execute;
		default:
			return undefined;
	}
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	const transport = new SentiOneTransport(this);
	const notes = new ExecutionHints();

	for (let i = 0; i < items.length; i++) {
		try {
			const entity = {
				resource: this.getNodeParameter('resource', i),
				operation: this.getNodeParameter('operation', i),
			} as SentiOneType;
			const run = operationOf(entity);
			if (!run) {
				throw asNodeError(
					this.getNode(),
					new Error(
						`The operation "${String(entity.operation)}" of "${String(entity.resource)}" is not supported.`,
					),
					i,
				);
			}
			const data = await run.call(this, i, transport, notes);
			// the one item builder (shared/items.ts: not returnJsonArray, which would take a mention
			// carrying a field named "json" for an item)
			const rows = toItems(Array.isArray(data) ? data : [data]);
			returnData.push(...this.helpers.constructExecutionMetaData(rows, { itemData: { item: i } }));
		} catch (error) {
			const nodeError = asNodeError(this.getNode(), error, i);
			// a stopped execution is not an item's failure: no item after it runs
			if (this.continueOnFail() && !isStopped(error)) {
				const json: IDataObject = { error: nodeError.message };
				if (typeof nodeError.description === 'string' && nodeError.description !== '') {
					json.description = nodeError.description;
				}
				returnData.push({ json, pairedItem: { item: i } });
				continue;
			}
			notes.show(this);
			throw nodeError;
		}
	}
	notes.show(this);
	return [returnData];
}
