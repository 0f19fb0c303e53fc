import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PATHS } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import { paginate } from '../../shared/pager';
import type { SentiOneTransport } from '../../shared/transport';
import { limitProperty, returnAllProperty } from '../common.descriptions';
import { readPaging, readProjectId } from '../helpers';

const properties: INodeProperties[] = [
	{ ...projectLocator, description: 'The project whose tags to list' },
	returnAllProperty('Each page of 100 tags costs 1 of the 300 tagging requests an hour'),
	limitProperty,
];

const displayOptions = { show: { resource: ['tag'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject[]> {
	const projectId = readProjectId.call(this, i);
	const paging = readPaging.call(this, i);
	const result = await paginate<IDataObject>(
		transport,
		{
			method: 'GET',
			path: PATHS.projectTags(projectId),
			group: 'tags',
			tier: 'Enterprise',
			read: true,
			itemIndex: i,
		},
		{ returnAll: paging.returnAll, limit: paging.limit },
	);
	return result.items;
}
