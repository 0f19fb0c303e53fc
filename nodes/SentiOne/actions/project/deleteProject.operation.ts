import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { endpoint, PATHS } from '../../shared/contract';
import { budgetShare, operationNotice } from '../common.descriptions';
import { projectLocator } from '../../shared/descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { readProjectId } from '../helpers';

const properties: INodeProperties[] = [
	operationNotice('projectDeleteNotice', `Basic tier. Costs ${budgetShare('projects')}. Project create, update and delete are announced by SentiOne but not confirmed by its specification: a deployment without them says so.`),
	{ ...projectLocator, description: 'The project to delete, with its mentions' },
];

const displayOptions = { show: { resource: ['project'], operation: ['deleteProject'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	await transport.request({
		...endpoint('deleteProject'),
		path: PATHS.project(projectId),
		itemIndex: i,
	});
	return { deleted: true, id: projectId };
}
