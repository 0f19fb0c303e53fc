/**
 * The fields of the SentiOne Trigger (polling). n8n adds the Poll Times field itself.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { PAGE_SIZES } from '../../shared/contract';
import {
	filtersCollection,
	optionsCollection,
	projectLocator,
	simplifyProperty,
} from '../../shared/descriptions';
import { hourlyLimit, recentWindowText, tierBelow, tierOf } from '../../shared/wording';
import { alertEventOptions, alertOptions, alertProperties } from '../alerts';
import { triggerHeader } from '../common/descriptions';
import { CATCH_UP_SPACING_MS } from './catchUp';
import {
	MAX_BACKFILL_HOURS,
	MAX_LATE_WINDOW_MINUTES,
	MAX_REQUESTS_PER_HOUR,
	MAX_REQUESTS_PER_POLL,
	POLL_DEFAULTS,
} from './pollSettings';

/** The key's search budget, which the trigger shares with every workflow using the key. */
const SEARCHES = hourlyLimit('recentSearch');
/** Minutes between checks when a share of `perHour` requests is spent one per check. */
const minutesApart = (perHour: number) => 60 / perHour;
const HISTORICAL_BELOW = tierBelow(tierOf('historicalSearch'));

/** Search: each source with the tier its endpoint needs. */
const SOURCE_OPTIONS: INodePropertyOptions[] = [
	{
		name: `Recent Search (${tierOf('recentSearch')} Tier)`,
		value: 'recent',
		description: `Mentions published in the last ${recentWindowText()}. Loses old posts collected late: a mention published more than ${recentWindowText()} ago never appears, even when SentiOne collects it today.`,
	},
	{
		name: `Historical Search (${tierOf('historicalSearch')} Tier)`,
		value: 'historical',
		description: `Every new mention whatever its publication date, old posts collected today included. Needs an ${tierOf('historicalSearch')} API key${HISTORICAL_BELOW !== undefined ? ` (a ${HISTORICAL_BELOW} key is refused)` : ''}; uses the same ${hourlyLimit('historicalSearch')} requests an hour.`,
	},
];

/** What the trigger spends, first among its fields. */
const BUDGET_NOTICE = `This trigger spends at most ${POLL_DEFAULTS.requestsPerHour} of the ${SEARCHES} search requests an hour your API key shares with every workflow using it (Options → Search Requests per Hour): at most one check every ${minutesApart(POLL_DEFAULTS.requestsPerHour)} minutes, whatever Poll Times says — sooner checks return quietly, so the default "every minute" is safe. A check with nothing new costs 1 request; each request brings up to ${PAGE_SIZES.search} mentions, so at the defaults it reads at most ${POLL_DEFAULTS.requestsPerHour} × ${PAGE_SIZES.search} mentions an hour: its ceiling. A project collecting more falls behind: the trigger says so at once and catches up with one export (Options → Catch Up by Export). Other triggers on the same key share the ${SEARCHES}: each takes only what the others leave. For busy projects or alerts within seconds, use the SentiOne Stream Trigger.`;

const EVENTS: INodePropertyOptions[] = [
	{
		name: 'New Mention',
		value: 'newMention',
		description: 'A mention SentiOne collected since the last check, passed on once, oldest first',
	},
	...alertEventOptions('poll'),
];

const forMentions = { show: { event: ['newMention'] } };

export const pollProperties: INodeProperties[] = [
	...triggerHeader(BUDGET_NOTICE, EVENTS),
	projectLocator,
	{
		displayName: 'Search',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: SOURCE_OPTIONS,
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
				description:
					'The first check also passes on the mentions collected in the last hours you set',
			},
		],
		default: 'now',
		description:
			'Where the trigger starts when it is activated for the first time (or for another project)',
	},
	{
		displayName: 'Backfill (Hours)',
		name: 'backfillHours',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_BACKFILL_HOURS },
		default: 24, // POLL_DEFAULTS.backfillHours
		displayOptions: { show: { startFrom: ['backfill'] } },
		description: `How far back the first check reaches, by collection time (at most ${MAX_BACKFILL_HOURS} hours, the ${MAX_BACKFILL_HOURS / 24} days recent search covers). A large backfill is spread over several checks, Max Requests per Poll at a time.`,
	},
	...alertProperties('poll'),
	filtersCollection({
		dates: false,
		description:
			'Only mentions that match all of these trigger the workflow (or count, for an alert). Filtering here costs no extra requests.',
	}),
	{ ...simplifyProperty, displayOptions: forMentions },
	optionsCollection([
		...alertOptions('poll'),
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
			description: `Most search requests one check may spend (${PAGE_SIZES.search} mentions each). A bigger backlog continues on the next check without losing anything.`,
		},
		{
			displayName: 'Search Requests per Hour',
			name: 'requestsPerHour',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_REQUESTS_PER_HOUR },
			default: 12, // POLL_DEFAULTS.requestsPerHour
			description: `The share of the API key's ${SEARCHES} search requests an hour this trigger may spend. Checks are spaced to match (${POLL_DEFAULTS.requestsPerHour}: at most one every ${minutesApart(POLL_DEFAULTS.requestsPerHour)} minutes; ${SEARCHES}: one every ${minutesApart(SEARCHES)} minutes); a check that comes sooner, or after the share is spent, sends nothing and returns quietly. The rest of the ${SEARCHES} stays free for other workflows using the key. 0: no share of its own, every Poll Times check runs (only for a key no other workflow uses).`,
			hint: 'Expected: 1 request per check when nothing is new, at most this many an hour',
		},
		{
			displayName: 'Catch Up by Export',
			name: 'catchUp',
			type: 'boolean',
			default: true,
			description: `Whether a trigger that falls behind (mentions arrive faster than its searches carry: ${PAGE_SIZES.search} a request, ${POLL_DEFAULTS.requestsPerHour} requests an hour at the defaults) reads the whole backlog with one export stream, which costs one of the key's ${hourlyLimit('recentExport')} export requests an hour whatever its size (at most one every ${CATCH_UP_SPACING_MS / 60_000} minutes). Off: the backlog follows, oldest first, as the searches allow.`,
		},
	]),
];
