import type { INodeProperties } from 'n8n-workflow';

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
				description:
					'Add tags (by name) to one mention of a project; returns the mention ID and all its tags. Enterprise tier; costs 1 of the 300 tagging requests an hour.',
				action: 'Add tags to a mention',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the tags of a project with how many mentions carry each. Enterprise tier; each page of 100 costs 1 of the 300 tagging requests an hour.',
				action: 'Get many tags',
			},
			{
				name: 'Remove',
				value: 'remove',
				description:
					'Remove tags (by name) from one mention of a project; returns the mention ID and the tags it keeps. Enterprise tier; costs 1 of the 300 tagging requests an hour.',
				action: 'Remove tags from a mention',
			},
		],
		default: 'getAll',
	},
	...add.description,
	...getAll.description,
	...remove.description,
];
