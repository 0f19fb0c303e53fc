import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PATHS } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import type { SentiOneTransport } from '../../shared/transport';
import { readProjectId } from '../helpers';
import { readMentionId, readTagsBody, tagFieldProperties } from './tagFields';

const properties: INodeProperties[] = [
	{ ...projectLocator, description: 'The project the mention belongs to' },
	...tagFieldProperties('add'),
];

const displayOptions = { show: { resource: ['tag'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	const mentionId = readMentionId.call(this, i);
	const body = readTagsBody.call(this, i);
	const { body: answer } = await transport.request<IDataObject>({
		method: 'POST',
		path: PATHS.mentionTags(projectId, mentionId),
		group: 'tags',
		tier: 'Enterprise',
		body,
		read: false,
		itemIndex: i,
	});
	return answer;
}
