import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { route } from '../../shared/contract';
import type { SentiOneTransport } from '../../shared/transport';
import { projectChangeNotice, projectFieldProperties, readProjectBody } from './projectFields';

const displayOptions = { show: { resource: ['project'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, [
	projectChangeNotice('projectCreateNotice', 'createProject'),
	...projectFieldProperties,
]);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
): Promise<IDataObject> {
	const body = readProjectBody.call(this, i);
	const { body: project } = await transport.request<IDataObject>({
		...route('createProject'),
		body,
		itemIndex: i,
	});
	return project;
}
