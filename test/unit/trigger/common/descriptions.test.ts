/**
 * The first fields of both trigger nodes (trigger/common/descriptions.ts): the notice of what the
 * trigger spends, then the Event n8n's nodes panel lists the trigger by.
 */
import { triggerHeader } from '../../../../nodes/SentiOne/trigger/common/descriptions';

test('a notice with the given words, then the Event with the given events, New Mention by default', () => {
	const events = [
		{ name: 'New Mention', value: 'newMention' },
		{ name: 'Other', value: 'other' },
	];
	expect(triggerHeader('Spends 1 request.', events)).toEqual([
		{ displayName: 'Spends 1 request.', name: 'budgetNotice', type: 'notice', default: '' },
		{
			displayName: 'Event',
			name: 'event',
			type: 'options',
			noDataExpression: true,
			options: events,
			default: 'newMention',
		},
	]);
});
