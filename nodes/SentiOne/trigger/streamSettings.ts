/**
 * The stream trigger's parameters, read and checked before the first connection.
 */
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import type { AnonymizationLevel, EndpointGroup, Tier } from '../shared/contract';
import {
	BACKFILL_MINUTES_MAX,
	endpoint,
	HEARTBEAT_INTERVAL_MS,
	PATHS,
	QUERY_PARAMS,
	SEARCH_REQUEST_FIELDS,
} from '../shared/contract';
import { invalidParameter, readChoice } from '../shared/errors';
import { buildFilters, parseProjectId } from '../shared/filters';
import type { NotAnonymizedChoice } from '../shared/anonymization';
import { readAnonymization, readNotAnonymized, readStreamFormat } from '../shared/streamOptions';
import type { StreamFormat } from '../shared/stream';
import { clock } from '../shared/time';
import type { StreamRequest } from '../shared/transport';

export type StreamEvent = 'newMention' | 'engagementUpdate';

export const STREAM_DEFAULTS = {
	/** D-29: three heartbeat intervals */
	stallTimeoutSeconds: (3 * HEARTBEAT_INTERVAL_MS) / 1000,
	maxGapRequests: 6,
	/** "Listen for test event": a sample from the last minutes arrives at once when there is one */
	manualBackfillMinutes: BACKFILL_MINUTES_MAX,
} as const;

export const MAX_STALL_TIMEOUT_SECONDS = 600;
export const MAX_GAP_REQUESTS = 30;

export interface StreamSettings {
	event: StreamEvent;
	/** set for newMention */
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
}

function numberIn(
	ctx: ITriggerFunctions,
	value: unknown,
	parameter: string,
	min: number,
	max: number,
	integer: boolean,
): number {
	const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
	if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
		throw invalidParameter(
			ctx.getNode(),
			parameter,
			`"${String(value)}" is not valid. Expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`,
		);
	}
	return n;
}

const STREAM_EVENTS: readonly StreamEvent[] = ['newMention', 'engagementUpdate'];

export function readStreamSettings(ctx: ITriggerFunctions): StreamSettings {
	const node = ctx.getNode();
	const event = readChoice(ctx.getNodeParameter('event', 'newMention'), STREAM_EVENTS, node, 'Event');
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const manual = ctx.getMode() === 'manual';
	const format = readStreamFormat(options.streamFormat, node);
	const configuredBackfill = numberIn(
		ctx,
		options.backfillMinutes ?? 0,
		'Options → Backfill at Start (Minutes)',
		0,
		BACKFILL_MINUTES_MAX,
		true,
	);
	const stallTimeoutSeconds = numberIn(
		ctx,
		options.stallTimeout ?? STREAM_DEFAULTS.stallTimeoutSeconds,
		'Options → Stall Timeout (Seconds)',
		0.1,
		MAX_STALL_TIMEOUT_SECONDS,
		false,
	);
	const settings: StreamSettings = {
		event,
		filters: {},
		simplify: true,
		notAnonymized: 'fail',
		format,
		startBackfillMinutes: manual ? Math.max(configuredBackfill, STREAM_DEFAULTS.manualBackfillMinutes) : configuredBackfill,
		fillGaps: false,
		maxGapRequests: 0,
		stallTimeoutMs: Math.round(stallTimeoutSeconds * 1000),
	};
	if (event === 'engagementUpdate') return settings;

	settings.projectId = parseProjectId(ctx.getNodeParameter('project', '', { extractValue: true }), node);
	settings.filters = buildFilters(ctx.getNodeParameter('filters', {}) as IDataObject, {
		node,
		timezone: ctx.getTimezone(),
		now: clock.now(),
		scope: 'live',
	});
	settings.simplify = ctx.getNodeParameter('simplify', true) !== false;
	settings.anonymization = readAnonymization(options.anonymization, node);
	settings.notAnonymized = readNotAnonymized(options.notAnonymized, node);
	settings.fillGaps = options.fillGaps !== false;
	settings.maxGapRequests = numberIn(
		ctx,
		options.maxGapRequests ?? STREAM_DEFAULTS.maxGapRequests,
		'Options → Max Search Requests per Gap',
		1,
		MAX_GAP_REQUESTS,
		true,
	);
	return settings;
}

export interface StreamTarget {
	group: EndpointGroup;
	tier: Tier;
	/** the request for a connection asking for `backfillMinutes` (with these filters instead of the settings', when given) */
	request(backfillMinutes: number, signal: AbortSignal, filters?: IDataObject): StreamRequest;
}

/** Which stream to open (D-23) and how. */
export function streamTarget(settings: StreamSettings): StreamTarget {
	if (settings.event === 'engagementUpdate') {
		return {
			group: 'engagement',
			tier: 'Enterprise',
			request: (backfillMinutes, signal) => ({
				...endpoint('engagementStream'),
				path: PATHS.engagementStream(),
				qs: backfillMinutes > 0 ? { [QUERY_PARAMS.backfillMinutes]: backfillMinutes } : undefined,
				body: {},
				format: settings.format,
				signal,
				idleTimeoutMs: settings.stallTimeoutMs,
			}),
		};
	}
	const projectId = settings.projectId as number;
	return {
		group: 'live',
		tier: 'Basic',
		request: (backfillMinutes, signal, filters) => {
			const qs: IDataObject = {};
			if (backfillMinutes > 0) qs[QUERY_PARAMS.backfillMinutes] = backfillMinutes;
			if (settings.anonymization) qs[QUERY_PARAMS.anonymization] = settings.anonymization;
			return {
				...endpoint('liveStream'),
				path: PATHS.liveStream(projectId),
				qs,
				body: { [SEARCH_REQUEST_FIELDS.filters]: filters ?? settings.filters },
				format: settings.format,
				signal,
				idleTimeoutMs: settings.stallTimeoutMs,
			};
		},
	};
}
