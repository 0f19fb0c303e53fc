import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { endpoint, PATHS } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import { paginate } from '../../shared/pager';
import type { SentiOneTransport } from '../../shared/transport';
import { budgetShare, limitProperty, operationNotice, returnAllProperty } from '../common.descriptions';
import { readPaging, readProjectId } from '../helpers';
import type { RunNotes } from '../notes';

const properties: INodeProperties[] = [
	operationNotice('tagGetManyNotice', `Enterprise tier: a Basic key is refused. Each page of 100 tags costs ${budgetShare('tags')}.`),
	{ ...projectLocator, description: 'The project whose tags to list' },
	returnAllProperty,
	limitProperty,
];

const displayOptions = { show: { resource: ['tag'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	notes: RunNotes,
): Promise<IDataObject[]> {
	const projectId = readProjectId.call(this, i);
	const paging = readPaging.call(this, i);
	const result = await paginate<IDataObject>(
		transport,
		{ ...endpoint('listTags'), path: PATHS.projectTags(projectId), itemIndex: i },
		{
			returnAll: paging.returnAll,
			limit: paging.limit,
			// a tag is known by its name
			keyOf: (tag) => (typeof tag.name === 'string' ? tag.name : undefined),
		},
	);
	notes.skipped += result.skipped;
	notes.repeats += result.repeats;
	return result.items;
}
