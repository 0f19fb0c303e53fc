/**
 * The stream trigger's parameters, read and checked before the first connection.
 */
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import type { NotAnonymizedChoice } from '../../shared/anonymization';
import type { AnonymizationLevel } from '../../shared/contract';
import { BACKFILL_MINUTES_MAX, HEARTBEAT_INTERVAL_MS } from '../../shared/contract';
import { buildFilters } from '../../shared/filters';
import { parseProjectId, readBoolean, readChoice, readNumberOption } from '../../shared/parameters';
import { readAnonymization, readNotAnonymized, readStreamFormat } from '../../shared/streamOptions';
import type { StreamFormat } from '../../shared/stream';
import { clock, serverClock } from '../../shared/clock';
import { hourlyLimit } from '../../shared/wording';
import type { AlertSettings } from '../alerts';
import { isAlertEvent, readAlertSettings } from '../alerts';
import type { MarkDelivered } from './redeliveryPolicy';
import { MARK_DELIVERED } from './redeliveryPolicy';

export type StreamEvent =
	| 'newMention'
	| 'engagementUpdate'
	| 'digest'
	| 'volumeSpike'
	| 'sentimentShift'
	| 'viralMention';

/** The events that listen to the live stream of mentions (the others to the engagement updates). */
export const MENTION_EVENTS: readonly StreamEvent[] = [
	'newMention',
	'digest',
	'volumeSpike',
	'sentimentShift',
];

export function onMentionStream(event: StreamEvent): boolean {
	return MENTION_EVENTS.includes(event);
}

export const STREAM_DEFAULTS = {
	/** D-29: three heartbeat intervals */
	stallTimeoutSeconds: (3 * HEARTBEAT_INTERVAL_MS) / 1000,
	maxGapRequests: 6,
	/** "Listen for test event": a sample from the last minutes arrives at once when there is one */
	manualBackfillMinutes: BACKFILL_MINUTES_MAX,
} as const;

export const MAX_STALL_TIMEOUT_SECONDS = 600;
/** A gap never spends more than the key's whole hourly search budget. */
export const MAX_GAP_REQUESTS = hourlyLimit('recentSearch');

export interface StreamSettings {
	event: StreamEvent;
	/** set for the mention stream's events and Viral Mention (needsProject) */
	projectId?: number;
	/** the API's `filters` object (newMention) */
	filters: IDataObject;
	simplify: boolean;
	anonymization?: AnonymizationLevel;
	/** what to do with a mention SentiOne did not anonymize */
	notAnonymized: NotAnonymizedChoice;
	format: StreamFormat;
	startBackfillMinutes: number;
	fillGaps: boolean;
	maxGapRequests: number;
	stallTimeoutMs: number;
	/** the alert's settings (an alert event) */
	alert?: AlertSettings;
	/** Options → Mark Delivered When (absent: Emitted); a test event is always Emitted */
	markDelivered?: MarkDelivered;
}

const STREAM_EVENTS: readonly StreamEvent[] = [
	...MENTION_EVENTS,
	'engagementUpdate',
	'viralMention',
];

/** The events that need a project: the mention stream's, and Viral Mention (its look-ups). */
export function needsProject(event: StreamEvent): boolean {
	return onMentionStream(event) || event === 'viralMention';
}

export function readStreamSettings(ctx: ITriggerFunctions): StreamSettings {
	const node = ctx.getNode();
	const event = readChoice(
		ctx.getNodeParameter('event', 'newMention'),
		STREAM_EVENTS,
		node,
		'Event',
	);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const manual = ctx.getMode() === 'manual';
	const format = readStreamFormat(options.streamFormat, node);
	const configuredBackfill = readNumberOption(
		options,
		'backfillMinutes',
		0,
		node,
		'Backfill at Start (Minutes)',
		{
			min: 0,
			max: BACKFILL_MINUTES_MAX,
		},
	);
	const stallTimeoutSeconds = readNumberOption(
		options,
		'stallTimeout',
		STREAM_DEFAULTS.stallTimeoutSeconds,
		node,
		'Stall Timeout (Seconds)',
		{
			min: 0.1,
			max: MAX_STALL_TIMEOUT_SECONDS,
			whole: false,
		},
	);
	const settings: StreamSettings = {
		event,
		filters: {},
		simplify: true,
		notAnonymized: 'fail',
		format,
		startBackfillMinutes: manual
			? Math.max(configuredBackfill, STREAM_DEFAULTS.manualBackfillMinutes)
			: configuredBackfill,
		fillGaps: false,
		maxGapRequests: 0,
		stallTimeoutMs: Math.round(stallTimeoutSeconds * 1000),
	};
	const markDelivered = readChoice(
		options.markDelivered ?? 'emitted',
		MARK_DELIVERED,
		node,
		'Options → Mark Delivered When',
	);
	if (markDelivered !== 'emitted') settings.markDelivered = markDelivered;
	if (isAlertEvent(event)) {
		settings.alert = readAlertSettings(
			event,
			(name, fallback) => ctx.getNodeParameter(name, fallback),
			node,
			ctx.getTimezone(),
			clock.now(),
		);
	}
	if (needsProject(event))
		settings.projectId = parseProjectId(
			ctx.getNodeParameter('project', '', { extractValue: true }),
			node,
		);
	if (!onMentionStream(event)) return settings;

	settings.filters = buildFilters(ctx.getNodeParameter('filters', {}) as IDataObject, {
		node,
		timezone: ctx.getTimezone(),
		now: serverClock.now(),
		scope: 'live',
	});
	settings.simplify = readBoolean(ctx.getNodeParameter('simplify', true), node, 'Simplify', true);
	settings.anonymization = readAnonymization(options.anonymization, node);
	settings.notAnonymized = readNotAnonymized(options.notAnonymized, node);
	settings.fillGaps = readBoolean(options.fillGaps, node, 'Options → Fill Gaps with Search', true);
	settings.maxGapRequests = readNumberOption(
		options,
		'maxGapRequests',
		STREAM_DEFAULTS.maxGapRequests,
		node,
		'Max Search Requests per Gap',
		{
			min: 1,
			max: MAX_GAP_REQUESTS,
		},
	);
	return settings;
}
