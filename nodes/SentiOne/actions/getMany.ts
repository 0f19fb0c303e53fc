/**
 * Get Many of projects and of tags: the same fields (the operation's notice, Return All, Limit)
 * and the same run — the pages of the list that Return All / Limit asks for, what SentiOne sent
 * that was not a record or came twice noted for the execution.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PaginateOptions } from '../shared/pager';
import { paginate } from '../shared/pager';
import type { ApiRequest, SentiOneTransport } from '../shared/transport';
import { limitProperty, returnAllProperty } from './common.descriptions';
import { readPaging } from './readParameters';
import type { ExecutionHints } from './executionHints';

export interface GetMany {
	resource: 'project' | 'tag';
	/** the operation's notice (tier and cost) */
	notice: INodeProperties;
	/** fields between the notice and Return All (the project picker) */
	fields?: INodeProperties[];
	/** the list to page, read from the item's parameters (checked before Return All / Limit) */
	request(this: IExecuteFunctions, i: number): ApiRequest;
	/** an entry's identity, when it is not its `id` */
	keyOf?: PaginateOptions['keyOf'];
}

export function getManyOperation(config: GetMany) {
	return {
		description: updateDisplayOptions(
			{ show: { resource: [config.resource], operation: ['getAll'] } },
			[config.notice, ...(config.fields ?? []), returnAllProperty, limitProperty],
		),
		async execute(
			this: IExecuteFunctions,
			i: number,
			transport: SentiOneTransport,
			notes: ExecutionHints,
		): Promise<IDataObject[]> {
			const request = config.request.call(this, i);
			const paging = readPaging.call(this, i);
			const result = await paginate<IDataObject>(
				transport,
				{ ...request, itemIndex: i },
				{ keyOf: config.keyOf, ...paging },
			);
			notes.paged(result);
			return result.items;
		},
	};
}
