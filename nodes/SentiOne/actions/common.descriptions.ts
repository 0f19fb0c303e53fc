/**
 * UI pieces several operations of the action node share (the project picker, sort, simplify and
 * the filters come from ../shared; these are the action node's own).
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../shared/descriptions';
import { hourlyLimit } from '../shared/wording';

/** Return All, as in n8n's built-in nodes (the cost is in the operation's notice). */
export const returnAllProperty: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

/**
 * The one notice of an operation: the tier it needs and what it costs, where the user looks (n8n
 * shows a notice at the top of the operation's fields).
 */
export function operationNotice(name: string, text: string): INodeProperties {
	return { displayName: text, name, type: 'notice', default: '' };
}

export const limitProperty: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const RATE_LIMIT_CHOICES = ['fail', 'stop', 'wait'] as const;
export type RateLimitChoiceValue = (typeof RATE_LIMIT_CHOICES)[number];
export const DEFAULT_MAX_WAIT_MINUTES = 60;
export const MAX_WAIT_MINUTES_LIMIT = 180;

/** The search options: what to do when the shared hourly search budget runs out part-way. */
export const searchOptions: INodeProperties = optionsCollection([
	{
		displayName: 'Max Wait (Minutes)',
		name: 'maxWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_WAIT_MINUTES_LIMIT },
		default: DEFAULT_MAX_WAIT_MINUTES,
		description:
			'With On Rate Limit set to Wait for the Reset: the longest time to wait in total for one input item. The budget resets at the top of each hour, so 60 minutes always suffices for one reset.',
	},
	{
		displayName: 'On Rate Limit',
		name: 'onRateLimit',
		type: 'options',
		default: 'fail',
		description: `What to do when the ${hourlyLimit('recentSearch')} searches an hour (shared by recent and historical search and by every workflow using the API key) run out before all pages are fetched. The node reads the remaining budget from each answer, so it acts before sending a request that would be refused.`,
		options: [
			{
				name: 'Fail',
				value: 'fail',
				description:
					'Stop with an error that says when the budget resets; nothing is returned for the item',
			},
			{
				name: 'Stop and Return What Was Fetched',
				value: 'stop',
				description:
					'Return the mentions fetched so far and show a notice saying the result is incomplete and when the budget resets',
			},
			{
				name: 'Wait for the Reset',
				value: 'wait',
				description: 'Pause until the budget resets (at most Max Wait), then continue',
			},
		],
	},
]);
