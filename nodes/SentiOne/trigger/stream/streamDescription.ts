/**
 * The fields of the SentiOne Stream Trigger (live stream of mentions, engagement updates).
 */
import type { INodeProperties } from 'n8n-workflow';

import { BACKFILL_MINUTES_MAX } from '../../shared/contract';
import { projectLocator, simplifyProperty } from '../../shared/descriptions';
import { filtersCollection } from '../../shared/filters';
import { anonymizationOption, notAnonymizedOption, streamFormatOption } from '../../shared/streamOptions';
import { MAX_GAP_REQUESTS, MAX_STALL_TIMEOUT_SECONDS } from './streamSettings';

const forMentions = { show: { event: ['newMention'] } };

export const streamProperties: INodeProperties[] = [
	{
		displayName:
			'Keeps one connection open to SentiOne while the workflow is active. Each connection, reconnects and test events included, spends 1 of the 5 live-stream connections an hour your API key allows (2 may be open at once; the engagement stream allows 1).',
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
				description: 'Each mention of the project as SentiOne collects it, within seconds (live stream)',
			},
			{
				name: 'Engagement Update',
				value: 'engagementUpdate',
				description:
					'Enterprise tier: each change of likes, shares, comments or views of a mention published in the last month, across all projects',
			},
		],
		default: 'newMention',
	},
	{ ...projectLocator, displayOptions: forMentions },
	{
		...filtersCollection({
			dates: false,
			description:
				'Only mentions that match all of these are streamed. The stream covers mentions published in the last 7 days.',
		}),
		displayOptions: forMentions,
	},
	{ ...simplifyProperty, displayOptions: forMentions },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{ ...anonymizationOption, displayOptions: { show: { '/event': ['newMention'] } } },
			{ ...notAnonymizedOption, displayOptions: { show: { '/event': ['newMention'] } } },
			{
				displayName: 'Backfill at Start (Minutes)',
				name: 'backfillMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: BACKFILL_MINUTES_MAX },
				default: 0,
				description:
					'On activation, also pass on what was collected in the last minutes (0–5). Reconnects always ask for the minutes they missed. A test event asks for 5 so a recent mention shows up at once.',
			},
			{
				displayName: 'Fill Gaps with Search',
				name: 'fillGaps',
				type: 'boolean',
				displayOptions: { show: { '/event': ['newMention'] } },
				default: true,
				description:
					'Whether to search for the mentions of an outage longer than the 5 minutes a reconnect can backfill, and for mentions that arrived malformed. Uses the search budget (30 requests an hour, shared).',
			},
			{
				displayName: 'Max Search Requests per Gap',
				name: 'maxGapRequests',
				type: 'number',
				displayOptions: { show: { '/event': ['newMention'] } },
				typeOptions: { minValue: 1, maxValue: MAX_GAP_REQUESTS },
				default: 6, // STREAM_DEFAULTS.maxGapRequests
				description: 'Most search requests (25 mentions each) one gap may use; a gap left unfilled is reported',
			},
			{
				displayName: 'Stall Timeout (Seconds)',
				name: 'stallTimeout',
				type: 'number',
				typeOptions: { minValue: 0.1, maxValue: MAX_STALL_TIMEOUT_SECONDS, numberPrecision: 1 },
				default: 45, // STREAM_DEFAULTS.stallTimeoutSeconds
				description:
					'Silence after which the connection is judged dead and replaced. SentiOne sends a heartbeat every 15 seconds, so the default is three missed heartbeats.',
			},
			streamFormatOption,
		],
	},
];
