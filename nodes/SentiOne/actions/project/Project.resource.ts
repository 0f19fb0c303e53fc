import type { INodeProperties } from 'n8n-workflow';

import { costText, pageSize, tierOf } from '../../shared/wording';

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
				description: `Create a project (a saved monitoring subject) from a name and a query. ${tierOf('createProject')} tier; costs ${costText('createProject')}.`,
				action: 'Create a project',
			},
			{
				name: 'Delete',
				value: 'deleteProject',
				description: `Delete a project by ID. ${tierOf('deleteProject')} tier; costs ${costText('deleteProject')}.`,
				action: 'Delete a project',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: `List the projects the API key can access (ID and name), e.g. to find the project ID for a search. ${tierOf('listProjects')} tier; each page of ${pageSize('listProjects')} costs ${costText('listProjects')}.`,
				action: 'Get many projects',
			},
			{
				name: 'Update',
				value: 'update',
				description: `Replace a project's name and query. ${tierOf('updateProject')} tier; costs ${costText('updateProject')}.`,
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
