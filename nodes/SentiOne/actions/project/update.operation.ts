import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { route } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { readProjectId } from '../readParameters';
import { projectChangeNotice, projectFieldProperties, readProjectBody } from './projectFields';

const displayOptions = { show: { resource: ['project'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, [
	projectChangeNotice('projectUpdateNotice', 'updateProject'),
	{ ...projectLocator, description: 'The project to change' },
	...projectFieldProperties.map((field) => ({
		...field,
		description:
			`${field.description ?? ''} Both name and query are replaced, so give the current value of the one you keep.`.trim(),
	})),
]);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	const body = readProjectBody.call(this, i);
	const { body: project } = await transport.request<IDataObject>({
		...route('updateProject', projectId),
		body,
		itemIndex: i,
	});
	return project;
}
