import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './shared/contract';
import { searchProjects } from './shared/listSearch';
import { tierOf } from './shared/wording';
import { startStreamTrigger, streamProperties } from './trigger/stream';

/**
 * New mentions (live stream) and engagement updates (a firehose of every project) over one long-lived
 * connection (trigger/stream/). Polling has its own node, SentiOne Trigger, because
 * n8n's Poll Times and persisted static data serve polling best.
 */
export class SentiOneStreamTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SentiOne Stream Trigger',
		name: 'sentiOneStreamTrigger',
		icon: { light: 'file:../../icons/sentione.svg', dark: 'file:../../icons/sentione.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["event"] === "engagementUpdate" ? "Engagement update (live)" : "New mention (live)"}}',
		description: `Starts the workflow live for each new mention SentiOne collects, or for each engagement update (${tierOf('engagementStream')} tier)`,
		defaults: { name: 'SentiOne Stream Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: streamProperties,
	};

	methods = { listSearch: { searchProjects } };

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await startStreamTrigger.call(this);
	}
}
