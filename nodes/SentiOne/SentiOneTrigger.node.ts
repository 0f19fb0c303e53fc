import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './shared/contract';
import { searchProjects } from './shared/listSearch';
import { oneCheckAtATime, pollNewMentions, pollProperties } from './trigger/poll';

/**
 * New mentions by polling SentiOne's search on n8n's Poll Times schedule, with a collection-time
 * watermark in the node's static data (trigger/poll/). The live stream has its own node, SentiOne
 * Stream Trigger, because a long-lived connection needs `trigger()`, not `poll()`.
 */
export class SentiOneTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SentiOne Trigger',
		name: 'sentiOneTrigger',
		icon: { light: 'file:../../icons/sentione.svg', dark: 'file:../../icons/sentione.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{"New mention · " + ($parameter["source"] === "historical" ? "historical search" : "recent search")}}',
		// n8n's nodes panel lists this trigger inside the SentiOne node's entry ("SentiOne Trigger" minus
		// "Trigger") and shows this description for the whole entry: it is the action node's, word for
		// word. The trigger itself is presented by its event, "On new mention".
		description:
			'Search, export and tag social-listening mentions and manage projects in SentiOne Listen',
		defaults: { name: 'SentiOne Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: pollProperties,
	};

	methods = { listSearch: { searchProjects } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await oneCheckAtATime(this, async () => await pollNewMentions.call(this));
	}
}
