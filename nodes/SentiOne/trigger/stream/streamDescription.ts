/**
 * The fields of the SentiOne Stream Trigger (live stream of mentions, engagement updates).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { BACKFILL_MINUTES_MAX, HEARTBEAT_INTERVAL_MS, PAGE_SIZES } from '../../shared/contract';
import {
	filtersCollection,
	optionsCollection,
	projectLocator,
	simplifyProperty,
} from '../../shared/descriptions';
import {
	anonymizationOption,
	notAnonymizedOption,
	streamFormatOption,
} from '../../shared/streamOptions';
import {
	costText,
	concurrentLimit,
	hourlyLimit,
	recentWindowText,
	tierOf,
} from '../../shared/wording';
import { alertEventOptions, alertOptions, alertProperties } from '../alerts';
import { triggerHeader } from '../common/descriptions';
import { REDELIVERY, retryScheduleText } from './redeliveryPolicy';
import { MAX_GAP_REQUESTS, MAX_STALL_TIMEOUT_SECONDS } from './streamSettings';

/** the events on the live stream of mentions (with a project and filters) */
const forMentions = { show: { event: ['newMention', 'digest', 'volumeSpike', 'sentimentShift'] } };
const mentionOptions = {
	show: { '/event': ['newMention', 'digest', 'volumeSpike', 'sentimentShift'] },
};

/** What the trigger spends, first among its fields. */
const BUDGET_NOTICE = `Keeps one connection open to SentiOne while the workflow is active. Each connection, reconnects and test events included, spends ${costText('liveStream')} your API key allows (${concurrentLimit('liveStream')} may be open at once; the engagement stream allows ${concurrentLimit('engagementStream')}).`;

const EVENTS: INodePropertyOptions[] = [
	{
		name: 'New Mention',
		value: 'newMention',
		description:
			'Each mention of the project as SentiOne collects it, within seconds (live stream)',
	},
	{
		name: 'Engagement Update',
		value: 'engagementUpdate',
		description: `${tierOf('engagementStream')} tier: each change of likes, shares, comments or views of a mention published in the last month, across all projects`,
	},
	...alertEventOptions('stream'),
];

export const streamProperties: INodeProperties[] = [
	...triggerHeader(BUDGET_NOTICE, EVENTS),
	{
		...projectLocator,
		// Viral Mention: alerts only for this project's mentions, found by its look-up searches
		displayOptions: { show: { event: [...forMentions.show.event, 'viralMention'] } },
	},
	{
		...filtersCollection({
			dates: false,
			description: `Only mentions that match all of these are streamed. The stream covers mentions published in the last ${recentWindowText()}.`,
		}),
		displayOptions: forMentions,
	},
	...alertProperties('stream'),
	{ ...simplifyProperty, displayOptions: { show: { event: ['newMention'] } } },
	optionsCollection([
		...alertOptions('stream'),
		{ ...anonymizationOption, displayOptions: mentionOptions },
		{ ...notAnonymizedOption, displayOptions: mentionOptions },
		{
			displayName: 'Backfill at Start (Minutes)',
			name: 'backfillMinutes',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: BACKFILL_MINUTES_MAX },
			default: 0,
			description: `On activation, also pass on what was collected in the last minutes (0–${BACKFILL_MINUTES_MAX}). Reconnects always ask for the minutes they missed. A test event asks for ${BACKFILL_MINUTES_MAX} so a recent mention shows up at once.`,
		},
		{
			displayName: 'Fill Gaps with Search',
			name: 'fillGaps',
			type: 'boolean',
			displayOptions: mentionOptions,
			default: true,
			description: `Whether to search for the mentions of an outage longer than the ${BACKFILL_MINUTES_MAX} minutes a reconnect can backfill, and for mentions that arrived malformed. Uses the search budget (${hourlyLimit('recentSearch')} requests an hour, shared).`,
		},
		{
			displayName: 'Mark Delivered When',
			name: 'markDelivered',
			type: 'options',
			options: [
				{
					name: 'Emitted',
					value: 'emitted',
					description:
						'As soon as the item is passed on, whatever its execution does: one that fails is not run again',
				},
				{
					name: 'Execution Finished',
					value: 'executionFinished',
					description:
						'Once its execution has ended, successfully or not (a cancelled one too); passed on again only when n8n could not run it',
				},
				{
					name: 'Execution Succeeded',
					value: 'executionSucceeded',
					description: `Once an execution ends without an error. An item whose execution fails is passed on again ${retryScheduleText()}, then given up and reported.`,
				},
			],
			default: 'emitted',
			description: `When an item (mention, update or alert) counts as delivered. Items not delivered yet (at most ${REDELIVERY.maxPending}) are kept in the trigger's memory and passed on again after a restart of n8n; each attempt is a new execution. A test event is always Emitted.`,
		},
		{
			displayName: 'Max Search Requests per Gap',
			name: 'maxGapRequests',
			type: 'number',
			displayOptions: mentionOptions,
			typeOptions: { minValue: 1, maxValue: MAX_GAP_REQUESTS },
			default: 6, // STREAM_DEFAULTS.maxGapRequests
			description: `Most search requests (${PAGE_SIZES.search} mentions each) one gap may use; a gap left unfilled is reported`,
		},
		{
			displayName: 'Stall Timeout (Seconds)',
			name: 'stallTimeout',
			type: 'number',
			typeOptions: { minValue: 0.1, maxValue: MAX_STALL_TIMEOUT_SECONDS, numberPrecision: 1 },
			default: 45, // STREAM_DEFAULTS.stallTimeoutSeconds
			description: `The stall limit: time without a complete event (a mention, an engagement update or a heartbeat) after which the connection is judged dead and replaced. Bytes, comments and unreadable events do not count. SentiOne sends a heartbeat every ${HEARTBEAT_INTERVAL_MS / 1000} seconds, so the default is three missed heartbeats.`,
		},
		streamFormatOption,
	]),
];
