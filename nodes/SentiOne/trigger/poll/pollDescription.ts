/**
 * The fields of the SentiOne Trigger (polling). n8n adds the Poll Times field itself.
 */
import type { INodeProperties } from 'n8n-workflow';

import { projectLocator, simplifyProperty } from '../../shared/descriptions';
import { filtersCollection } from '../../shared/filters';
import { MAX_BACKFILL_HOURS, MAX_LATE_WINDOW_MINUTES, MAX_REQUESTS_PER_HOUR, MAX_REQUESTS_PER_POLL } from './pollSettings';

export const pollProperties: INodeProperties[] = [
	{
		displayName:
			'This trigger spends at most 12 of the 30 search requests an hour your API key shares with every workflow using it (Options → Search Requests per Hour): at most one check every 5 minutes, whatever Poll Times says — sooner checks return quietly, so the default "every minute" is safe. A check with nothing new costs 1 request; each request brings up to 25 mentions. For busy projects or alerts within seconds, use the SentiOne Stream Trigger.',
		name: 'budgetNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'New Mention',
				value: 'newMention',
				description: 'A mention SentiOne collected since the last check, passed on once, oldest first',
			},
		],
		default: 'newMention',
	},
	projectLocator,
	{
		displayName: 'Search',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Recent Search (Basic Tier)',
				value: 'recent',
				description:
					'Mentions published in the last 7 days. Loses old posts collected late: a mention published more than 7 days ago never appears, even when SentiOne collects it today.',
			},
			{
				name: 'Historical Search (Enterprise Tier)',
				value: 'historical',
				description:
					'Every new mention whatever its publication date, old posts collected today included. Needs an Enterprise API key (a Basic key is refused); uses the same 30 requests an hour.',
			},
		],
		default: 'recent',
		description: 'Which search looks for new mentions',
	},
	{
		displayName: 'Start From',
		name: 'startFrom',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Now',
				value: 'now',
				description:
					'The first check (on activation) only notes the newest matching mention; mentions collected after it trigger the workflow',
			},
			{
				name: 'Backfill',
				value: 'backfill',
				description: 'The first check also passes on the mentions collected in the last hours you set',
			},
		],
		default: 'now',
		description: 'Where the trigger starts when it is activated for the first time (or for another project)',
	},
	{
		displayName: 'Backfill (Hours)',
		name: 'backfillHours',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_BACKFILL_HOURS },
		default: 24, // POLL_DEFAULTS.backfillHours
		displayOptions: { show: { startFrom: ['backfill'] } },
		description:
			'How far back the first check reaches, by collection time (at most 168 hours, the 7 days recent search covers). A large backfill is spread over several checks, Max Requests per Poll at a time.',
	},
	filtersCollection({
		dates: false,
		description:
			'Only mentions that match all of these trigger the workflow. Filtering here costs no extra requests.',
	}),
	simplifyProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Late Mention Window (Minutes)',
				name: 'lateWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_LATE_WINDOW_MINUTES },
				default: 10, // POLL_DEFAULTS.lateWindowMinutes
				description:
					'Each check looks this far back behind the newest mention it passed on, to catch mentions SentiOne makes searchable late (they appear with an older collection time). Mentions already passed on are remembered and never repeated. 0 turns this off.',
			},
			{
				displayName: 'Max Requests per Poll',
				name: 'maxRequestsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_REQUESTS_PER_POLL },
				default: 2, // POLL_DEFAULTS.maxRequestsPerPoll
				description:
					'Most search requests one check may spend (25 mentions each). A bigger backlog continues on the next check without losing anything.',
			},
			{
				displayName: 'Search Requests per Hour',
				name: 'requestsPerHour',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_REQUESTS_PER_HOUR },
				default: 12, // POLL_DEFAULTS.requestsPerHour
				description:
					'The share of the API key\'s 30 search requests an hour this trigger may spend. Checks are spaced to match (12: at most one every 5 minutes; 30: one every 2 minutes); a check that comes sooner, or after the share is spent, sends nothing and returns quietly. The rest of the 30 stays free for other workflows using the key. 0: no share of its own, every Poll Times check runs (only for a key no other workflow uses).',
				hint: 'Expected: 1 request per check when nothing is new, at most this many an hour',
			},
		],
	},
];
