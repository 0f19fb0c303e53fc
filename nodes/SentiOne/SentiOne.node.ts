import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { operationSubtitle, versionProperties } from './actions/versionDescription';
import { searchProjects } from './shared/listSearch';

export class SentiOne implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SentiOne',
		name: 'sentiOne',
		icon: { light: 'file:../../icons/sentione.svg', dark: 'file:../../icons/sentione.dark.svg' },
		group: ['transform'],
		version: 1,
		// the canvas shows the operation as the nodes panel names it (each operation's `action`)
		subtitle: operationSubtitle(versionProperties),
		// also SentiOne Trigger's description: n8n's nodes panel groups that trigger under this node and
		// shows the trigger's description for the group
		description:
			'Search, export and tag social-listening mentions and manage projects in SentiOne Listen',
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
