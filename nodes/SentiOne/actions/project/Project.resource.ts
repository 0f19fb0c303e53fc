import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteProject from './deleteProject.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, deleteProject, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a project (a saved monitoring subject) from a name and a query. Basic tier; costs 1 of the 300 project requests an hour.',
				action: 'Create a project',
			},
			{
				name: 'Delete',
				value: 'deleteProject',
				description: 'Delete a project by ID. Basic tier; costs 1 of the 300 project requests an hour.',
				action: 'Delete a project',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the projects the API key can access (ID and name), e.g. to find the project ID for a search. Basic tier; each page of 20 costs 1 of the 300 project requests an hour.',
				action: 'Get many projects',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					"Replace a project's name and query. Basic tier; costs 1 of the 300 project requests an hour.",
				action: 'Update a project',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...deleteProject.description,
	...getAll.description,
	...update.description,
];
