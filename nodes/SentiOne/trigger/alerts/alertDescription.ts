/**
 * The alert events both triggers offer (Digest, Volume Spike, Sentiment Shift; Viral Mention on
 * the Stream Trigger) and their fields. One definition, placed by each trigger's description.
 * What each field means and the rules behind the numbers: docs/alerts.md.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { hourlyLimit, tierOf } from '../../shared/wording';
import { ALERT_BOUNDS, ALERT_DEFAULTS } from './alertSettings';
import { METRICS } from './viral';

export const ALERT_EVENTS = ['digest', 'volumeSpike', 'sentimentShift'] as const;

/** What a viral alert's look-up costs, for the event's description and its notice. */
export function viralLookupCost(): string {
	return `Each mention that fires a rule is looked up once in the project (then remembered): one search, two at most, of the key's ${hourlyLimit('historicalSearch')} an hour shared with every workflow using the key, within Options → Look-Up Searches per Hour (default ${ALERT_DEFAULTS.lookupSearchesPerHour})`;
}

/** The events, for each trigger's Event field. */
export function alertEventOptions(source: 'poll' | 'stream'): INodePropertyOptions[] {
	const counted =
		source === 'stream'
			? 'Counts every matching mention the live stream brings (no search requests)'
			: 'Counts the matching mentions this trigger reads (see its search budget: a busy project can outrun it, and a count that may be short says "at least")';
	const events: INodePropertyOptions[] = [
		{
			name: 'Digest',
			value: 'digest',
			description: `One item per window (every N minutes or hours, daily or weekly, in the workflow's time zone): totals by sentiment, source, type and language, the top mentions by reach and the negative ones. ${counted}.`,
		},
		{
			name: 'Volume Spike',
			value: 'volumeSpike',
			description: `Mentions far above normal for the time of day: one item when a spike starts, with the numbers and a sample. ${counted}.`,
		},
		{
			name: 'Sentiment Shift',
			value: 'sentimentShift',
			description: `The share of one sentiment moves away from its usual share: one item per shift. ${counted}.`,
		},
	];
	if (source === 'stream') {
		events.push({
			name: 'Viral Mention',
			value: 'viralMention',
			description: `${tierOf('engagementStream')} tier: a mention of the project whose likes, shares, comments or views cross a threshold or grow fast (engagement updates), once per mention and rule, with its link. ${viralLookupCost()}.`,
		});
	}
	return events;
}

const show = (...events: string[]) => ({ show: { event: events } });

const WEEKDAYS: INodePropertyOptions[] = [
	'Monday',
	'Tuesday',
	'Wednesday',
	'Thursday',
	'Friday',
	'Saturday',
	'Sunday',
].map((name, i) => ({ name, value: i + 1 }));

const SENTIMENT_OPTIONS: INodePropertyOptions[] = ['Negative', 'Positive', 'Neutral'].map((s) => ({
	name: s,
	value: s,
}));

const METRIC_NAMES: Record<(typeof METRICS)[number], string> = {
	likeCount: 'Likes',
	shareCount: 'Shares',
	commentCount: 'Comments',
	viewCount: 'Views',
};

/** The fields of the alert events (shown only for them). */
export function alertProperties(source: 'poll' | 'stream'): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Window',
			name: 'digestWindow',
			type: 'options',
			noDataExpression: true,
			displayOptions: show('digest'),
			options: [
				{ name: 'Every N Minutes', value: 'minutes' },
				{ name: 'Every N Hours', value: 'hours' },
				{ name: 'Daily', value: 'daily' },
				{ name: 'Weekly', value: 'weekly' },
			],
			default: 'daily',
			description:
				"How long each digest covers, in the workflow's time zone (Settings → Timezone). Windows of N minutes or hours restart at local midnight.",
		},
		{
			displayName: 'Every',
			name: 'digestEvery',
			type: 'number',
			displayOptions: { show: { event: ['digest'], digestWindow: ['minutes', 'hours'] } },
			typeOptions: { minValue: 1 },
			default: 1, // ALERT_DEFAULTS.digestEvery
			description: `Minutes (${ALERT_BOUNDS.digestMinutes.min}–${ALERT_BOUNDS.digestMinutes.max}) or hours (1–24) per window`,
		},
		{
			displayName: 'At (HH:MM)',
			name: 'digestAt',
			type: 'string',
			displayOptions: { show: { event: ['digest'], digestWindow: ['daily', 'weekly'] } },
			default: '09:00', // ALERT_DEFAULTS.digestAt
			placeholder: '09:00',
			description:
				"Time of day the window ends and the digest is sent, in the workflow's time zone. A time that does not exist on a daylight-saving day there is refused.",
		},
		{
			displayName: 'On',
			name: 'digestWeekday',
			type: 'options',
			displayOptions: { show: { event: ['digest'], digestWindow: ['weekly'] } },
			options: WEEKDAYS,
			default: 1,
			description: 'Day of the week the window ends and the digest is sent',
		},
		{
			displayName: 'Bucket (Minutes)',
			name: 'spikeBucketMinutes',
			type: 'number',
			displayOptions: show('volumeSpike'),
			typeOptions: {
				minValue: ALERT_BOUNDS.spikeBucketMinutes.min,
				maxValue: ALERT_BOUNDS.spikeBucketMinutes.max,
			},
			default: 15, // ALERT_DEFAULTS.spikeBucketMinutes
			description:
				'Mentions are counted over the last this many minutes and compared with the same span of normal traffic',
		},
		{
			displayName: 'Baseline',
			name: 'spikeBaseline',
			type: 'options',
			displayOptions: show('volumeSpike'),
			options: [
				{
					name: 'Same Time on Past Days',
					value: 'sameTime',
					description:
						'The same time of day over the past 7 days (at least 3 days seen), so a busy morning is not a spike; the trailing 24 hours until then',
				},
				{
					name: 'Trailing 24 Hours',
					value: 'trailing24h',
					description: 'Every span of the last 24 hours alike',
				},
			],
			default: 'sameTime',
		},
		{
			displayName: 'Spike Ratio',
			name: 'spikeRatio',
			type: 'number',
			displayOptions: show('volumeSpike'),
			typeOptions: {
				minValue: ALERT_BOUNDS.spikeRatio.min,
				maxValue: ALERT_BOUNDS.spikeRatio.max,
				numberPrecision: 1,
			},
			default: 2, // ALERT_DEFAULTS.spikeRatio
			description:
				'A spike is at least this many times the baseline (and also far outside its usual spread, and at least Minimum Mentions)',
		},
		{
			displayName: 'Sentiment',
			name: 'shiftSentiment',
			type: 'options',
			displayOptions: show('sentimentShift'),
			options: SENTIMENT_OPTIONS,
			default: 'Negative',
			description: 'The sentiment whose share is watched',
		},
		{
			displayName: 'Window (Minutes)',
			name: 'shiftWindowMinutes',
			type: 'number',
			displayOptions: show('sentimentShift'),
			typeOptions: {
				minValue: ALERT_BOUNDS.shiftWindowMinutes.min,
				maxValue: ALERT_BOUNDS.shiftWindowMinutes.max,
			},
			default: 60, // ALERT_DEFAULTS.shiftWindowMinutes
			description: 'The share is measured over the last this many minutes',
		},
		{
			displayName: 'Shift (Percentage Points)',
			name: 'shiftPoints',
			type: 'number',
			displayOptions: show('sentimentShift'),
			typeOptions: {
				minValue: ALERT_BOUNDS.shiftPoints.min,
				maxValue: ALERT_BOUNDS.shiftPoints.max,
			},
			default: 15, // ALERT_DEFAULTS.shiftPoints
			description:
				'How far the share must move from its usual share (over the past 7 days), e.g. 15: from 20% to 35%',
		},
		{
			displayName: 'Direction',
			name: 'shiftDirection',
			type: 'options',
			displayOptions: show('sentimentShift'),
			options: [
				{ name: 'Up', value: 'up' },
				{ name: 'Down', value: 'down' },
				{ name: 'Either', value: 'either' },
			],
			default: 'up',
		},
	];
	if (source === 'stream') {
		properties.push({
			displayName: `The engagement updates cover every project of the account and carry no link. ${viralLookupCost()}: found there, the alert carries its link, author and text; shown by that search to be another project's, it is not alerted; not found (or the cap spent), the alert comes with the figures and says why. Updates that carry only the mention's ID are read by the same searches, in rounds spread over the hour (docs/alerts.md).`,
			name: 'viralNotice',
			type: 'notice',
			displayOptions: show('viralMention'),
			default: '',
		});
		properties.push({
			displayName: 'Likes At Least',
			name: 'viral_likeCount',
			type: 'number',
			displayOptions: show('viralMention'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.viralLevel.max },
			default: 1000, // ALERT_DEFAULTS.viral.likeCount
			description: 'Alert once when a mention reaches this many likes (0: not watched)',
		});
		properties.push({
			displayName: 'Shares At Least',
			name: 'viral_shareCount',
			type: 'number',
			displayOptions: show('viralMention'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.viralLevel.max },
			default: 200, // ALERT_DEFAULTS.viral.shareCount
			description: 'Alert once when a mention reaches this many shares (0: not watched)',
		});
		properties.push({
			displayName: 'Comments At Least',
			name: 'viral_commentCount',
			type: 'number',
			displayOptions: show('viralMention'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.viralLevel.max },
			default: 0, // ALERT_DEFAULTS.viral.commentCount
			description: 'Alert once when a mention reaches this many comments (0: not watched)',
		});
		properties.push({
			displayName: 'Views At Least',
			name: 'viral_viewCount',
			type: 'number',
			displayOptions: show('viralMention'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.viralLevel.max },
			default: 0, // ALERT_DEFAULTS.viral.viewCount
			description: 'Alert once when a mention reaches this many views (0: not watched)',
		});
		properties.push(
			{
				displayName: 'Fast Growth Of',
				name: 'viralGrowthMetric',
				type: 'options',
				displayOptions: show('viralMention'),
				options: METRICS.map((m) => ({ name: METRIC_NAMES[m], value: m })),
				default: 'shareCount',
			},
			{
				displayName: 'Fast Growth: Gain',
				name: 'viralGrowthGain',
				type: 'number',
				displayOptions: show('viralMention'),
				typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.viralLevel.max },
				default: 100, // ALERT_DEFAULTS.viralGrowthGain
				description:
					'Alert once when a mention gains at least this many within the minutes below (0: off)',
			},
			{
				displayName: 'Fast Growth: Within (Minutes)',
				name: 'viralGrowthMinutes',
				type: 'number',
				displayOptions: show('viralMention'),
				typeOptions: {
					minValue: ALERT_BOUNDS.viralGrowthMinutes.min,
					maxValue: ALERT_BOUNDS.viralGrowthMinutes.max,
				},
				default: 60, // ALERT_DEFAULTS.viralGrowthMinutes
			},
		);
	}
	return properties;
}

/** The alert events' entries of the Options collection. */
export function alertOptions(source: 'poll' | 'stream'): INodeProperties[] {
	const inOptions = (...events: string[]) => ({ show: { '/event': events } });
	const options: INodeProperties[] = [
		{
			displayName: 'Send Empty Digests',
			name: 'sendEmpty',
			type: 'boolean',
			displayOptions: inOptions('digest'),
			default: false,
			description:
				'Whether to send a digest for a window without any matching mention ("nothing today")',
		},
		{
			displayName: 'Top Mentions',
			name: 'topMentions',
			type: 'number',
			displayOptions: inOptions('digest'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.listSize.max },
			default: 5, // ALERT_DEFAULTS.topMentions
			description:
				"How many mentions of the window the digest lists, by reach: the author's followers, then likes + shares + comments, then the influence score",
		},
		{
			displayName: 'Negative Mentions',
			name: 'negativeMentions',
			type: 'number',
			displayOptions: inOptions('digest'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.listSize.max },
			default: 5, // ALERT_DEFAULTS.negativeMentions
			description: 'How many negative mentions of the window the digest lists, by reach',
		},
		{
			displayName: 'Minimum Mentions',
			name: 'spikeMinMentions',
			type: 'number',
			displayOptions: inOptions('volumeSpike'),
			typeOptions: { minValue: 1 },
			default: 20, // ALERT_DEFAULTS.spikeMinMentions
			description: 'A bucket with fewer mentions is never a spike, however quiet normal is',
		},
		{
			displayName: 'Standard Deviations',
			name: 'spikeDeviations',
			type: 'number',
			displayOptions: inOptions('volumeSpike'),
			typeOptions: {
				minValue: ALERT_BOUNDS.spikeDeviations.min,
				maxValue: ALERT_BOUNDS.spikeDeviations.max,
				numberPrecision: 1,
			},
			default: 4, // ALERT_DEFAULTS.spikeDeviations
			description:
				'A spike is also at least this many standard deviations above the baseline (its spread, at least that of random arrivals)',
		},
		{
			displayName: 'Minimum Mentions',
			name: 'shiftMinMentions',
			type: 'number',
			displayOptions: inOptions('sentimentShift'),
			typeOptions: { minValue: 1 },
			default: 20, // ALERT_DEFAULTS.shiftMinMentions
			description:
				'A window with fewer mentions is never judged (a share of few mentions says little)',
		},
		{
			displayName: 'Notify When Back to Normal',
			name: 'notifyEnd',
			type: 'boolean',
			displayOptions: inOptions('volumeSpike', 'sentimentShift'),
			default: false,
			description: 'Whether to send a second item when the spike or shift is over',
		},
		{
			displayName: 'Sample Size',
			name: 'sampleSize',
			type: 'number',
			displayOptions: inOptions('volumeSpike', 'sentimentShift'),
			typeOptions: { minValue: 0, maxValue: ALERT_BOUNDS.listSize.max },
			default: 5, // ALERT_DEFAULTS.sampleSize
			description: 'How many mentions of the alert window the item carries, by reach',
		},
	];
	if (source === 'stream') {
		options.push({
			displayName: 'Look-Up Searches per Hour',
			name: 'lookupSearchesPerHour',
			type: 'number',
			displayOptions: inOptions('viralMention'),
			typeOptions: {
				minValue: ALERT_BOUNDS.lookupSearchesPerHour.min,
				maxValue: ALERT_BOUNDS.lookupSearchesPerHour.max,
			},
			default: 6, // ALERT_DEFAULTS.lookupSearchesPerHour
			description: `Most search requests in any hour the viral alerts spend looking mentions up (of the key's ${hourlyLimit('historicalSearch')} an hour, shared with every workflow using it). Past it, an alert comes without its link and says so.`,
		});
	}
	return options;
}
