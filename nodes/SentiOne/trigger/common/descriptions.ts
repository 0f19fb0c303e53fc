/**
 * The first fields of both trigger nodes: the notice of what the trigger spends, and the Event it
 * starts the workflow for (n8n's nodes panel lists a trigger by its events).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export function triggerHeader(
	budgetNotice: string,
	events: INodePropertyOptions[],
): INodeProperties[] {
	return [
		{ displayName: budgetNotice, name: 'budgetNotice', type: 'notice', default: '' },
		{
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			options: events,
			default: 'newMention',
		},
	];
}
