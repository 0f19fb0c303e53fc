import type { INodeProperties } from 'n8n-workflow';

import { costText, pageSize, tierOf } from '../../shared/wording';

import * as add from './add.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

export { add, getAll, remove };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: `Add tags (by name) to one mention of a project; returns the mention ID and all its tags. ${tierOf('addTags')} tier; costs ${costText('addTags')}.`,
				action: 'Add tags to a mention',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: `List the tags of a project with how many mentions carry each. ${tierOf('listTags')} tier; each page of ${pageSize('listTags')} costs ${costText('listTags')}.`,
				action: 'Get many tags',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: `Remove tags (by name) from one mention of a project; returns the mention ID and the tags it keeps. ${tierOf('removeTags')} tier; costs ${costText('removeTags')}.`,
				action: 'Remove tags from a mention',
			},
		],
		default: 'getAll',
	},
	...add.description,
	...getAll.description,
	...remove.description,
];
