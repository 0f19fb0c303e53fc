/**
 * UI pieces shared by the action node and the triggers (each node still owns its own fields).
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_SORT } from './contract';
import { SORT_OPTIONS } from './filters';

export const projectLocator: INodeProperties = {
	displayName: 'Project',
	name: 'project',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The SentiOne project (a saved monitoring subject) whose mentions to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a project...',
			typeOptions: { searchListMethod: 'searchProjects', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1001',
			// no `validation` regex: n8n runs those with a 250 ms limit and, on a busy machine, fails
			// the execution before any node runs; the ID is checked when the node runs (parseProjectId)
			hint: 'A whole number, e.g. 1001 (the number in brackets in the list)',
		},
	],
};

export const sortProperty: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortType',
	type: 'options',
	options: SORT_OPTIONS,
	default: DEFAULT_SORT,
	description: 'The order of the mentions',
};

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat row per mention with a fixed set of columns (ID, URL, dates, source, sentiment, author, text, counts, tags) instead of the full mention',
};
