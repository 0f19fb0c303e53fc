import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { route } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { readProjectId } from '../readParameters';
import { projectChangeNotice } from './projectFields';

const displayOptions = { show: { resource: ['project'], operation: ['deleteProject'] } };

export const description = updateDisplayOptions(displayOptions, [
	projectChangeNotice('projectDeleteNotice', 'deleteProject'),
	{ ...projectLocator, description: 'The project to delete, with its mentions' },
]);

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	// the answer is not read (D-11: none shown): a 2xx with any body, text or none, deleted it
	await transport.request({
		...route('deleteProject', projectId),
		itemIndex: i,
		answerUnused: true,
	});
	return { deleted: true, id: projectId };
}
