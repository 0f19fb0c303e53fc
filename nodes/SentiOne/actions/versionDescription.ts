/**
 * The parameters of version 1: the resource selector and every operation's fields. The rest of
 * the node description (name, icon, credentials…) sits in the node class itself, where n8n's
 * lint rules look for it.
 */
import type { INodeProperties } from 'n8n-workflow';

import * as mention from './mention/Mention.resource';
import * as project from './project/Project.resource';
import * as tag from './tag/Tag.resource';

export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Mention',
				value: 'mention',
				description: 'A collected post, comment, article, message or share of a project',
			},
			{ name: 'Project', value: 'project', description: 'A saved monitoring subject (name and query)' },
			{ name: 'Tag', value: 'tag', description: 'A label on mentions of a project (Enterprise tier)' },
		],
		default: 'mention',
	},
	...mention.description,
	...project.description,
	...tag.description,
];
