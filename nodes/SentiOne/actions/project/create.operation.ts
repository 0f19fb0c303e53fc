import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { endpoint, PATHS } from '../../shared/contract';
import { budgetShare, operationNotice } from '../common.descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { projectFieldProperties, readProjectBody } from './projectFields';

const properties: INodeProperties[] = [
	operationNotice('projectCreateNotice', `Basic tier. Costs ${budgetShare('projects')}. Project create, update and delete are announced by SentiOne but not confirmed by its specification: a deployment without them says so.`),
	...projectFieldProperties,
];

const displayOptions = { show: { resource: ['project'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject> {
	const body = readProjectBody.call(this, i);
	const { body: project } = await transport.request<IDataObject>({
		...endpoint('createProject'),
		path: PATHS.projects(),
		body,
		itemIndex: i,
	});
	return project;
}
