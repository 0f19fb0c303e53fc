import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { endpoint, PATHS } from '../../shared/contract';
import { paginate } from '../../shared/pager';
import type { SentiOneTransport } from '../../shared/transport';
import { budgetShare, limitProperty, operationNotice, returnAllProperty } from '../common.descriptions';
import { readPaging } from '../helpers';
import type { RunNotes } from '../notes';

const properties: INodeProperties[] = [
	operationNotice('projectGetManyNotice', `Basic tier. Each page of 20 projects costs ${budgetShare('projects')}.`),
	returnAllProperty,
	limitProperty,
];

const displayOptions = { show: { resource: ['project'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	notes: RunNotes,
): Promise<IDataObject[]> {
	const paging = readPaging.call(this, i);
	const result = await paginate<IDataObject>(
		transport,
		{ ...endpoint('listProjects'), path: PATHS.projects(), itemIndex: i },
		{ returnAll: paging.returnAll, limit: paging.limit },
	);
	notes.skipped += result.skipped;
	notes.repeats += result.repeats;
	return result.items;
}
