import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { endpoint, PATHS } from '../../shared/contract';
import { budgetShare, operationNotice } from '../common.descriptions';
import { projectLocator } from '../../shared/descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { readProjectId } from '../helpers';
import { projectFieldProperties, readProjectBody } from './projectFields';

const properties: INodeProperties[] = [
	operationNotice('projectUpdateNotice', `Basic tier. Costs ${budgetShare('projects')}. Project create, update and delete are announced by SentiOne but not confirmed by its specification: a deployment without them says so.`),
	{ ...projectLocator, description: 'The project to change' },
	...projectFieldProperties.map((field) => ({
		...field,
		description: `${field.description ?? ''} Both name and query are replaced, so give the current value of the one you keep.`.trim(),
	})),
];

const displayOptions = { show: { resource: ['project'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	const body = readProjectBody.call(this, i);
	const { body: project } = await transport.request<IDataObject>({
		...endpoint('updateProject'),
		path: PATHS.project(projectId),
		body,
		itemIndex: i,
	});
	return project;
}
