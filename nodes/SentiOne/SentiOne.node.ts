import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { versionProperties } from './actions/versionDescription';
import { searchProjects } from './shared/listSearch';

export class SentiOne implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SentiOne',
		name: 'sentiOne',
		icon: { light: 'file:../../icons/sentione.svg', dark: 'file:../../icons/sentione.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Search, export and tag social-listening mentions and manage projects in SentiOne Listen (API v2), within its hourly request budgets',
		defaults: { name: 'SentiOne' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'sentiOneApi', required: true }],
		properties: versionProperties,
	};

	methods = {
		listSearch: {
			searchProjects,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
