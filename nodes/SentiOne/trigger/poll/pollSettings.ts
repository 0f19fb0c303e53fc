/**
 * The poll trigger's parameters, read and checked once per poll before any request is made.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { Scope } from '../../shared/contract';
import { RECENT_WINDOW_MS } from '../../shared/contract';
import { buildFilters } from '../../shared/filters';
import {
	parseProjectId,
	readBoolean,
	readChoice,
	readNumber,
	readNumberOption,
} from '../../shared/parameters';
import { clock, serverClock } from '../../shared/clock';
import { HOUR_MS, MINUTE_MS } from '../../shared/units';
import { hourlyLimit } from '../../shared/wording';
import type { AlertSettings } from '../alerts';
import { readAlertSettings } from '../alerts';

/** Which search finds new mentions. */
export type PollSource = Scope;

export const POLL_DEFAULTS = {
	/** 12 polls an hour (every 5 minutes) × 2 = 24 of the 30 search requests an hour */
	maxRequestsPerPoll: 2,
	/** 12 of the 30 search requests an hour: a check at most every 5 minutes; 18 left for other workflows */
	requestsPerHour: 12,
	lateWindowMinutes: 10,
	backfillHours: 24,
} as const;

/** A check, or an hour of checks, never spends more than the key's whole hourly search budget. */
export const MAX_REQUESTS_PER_POLL = hourlyLimit('recentSearch');
export const MAX_REQUESTS_PER_HOUR = hourlyLimit('recentSearch');
export const MAX_LATE_WINDOW_MINUTES = 24 * 60;
export const MAX_BACKFILL_HOURS = RECENT_WINDOW_MS / HOUR_MS;

export type PollEvent = 'newMention' | 'digest' | 'volumeSpike' | 'sentimentShift';

export interface PollSettings {
	event: PollEvent;
	/** the alert's settings (an alert event) */
	alert?: Exclude<AlertSettings, { event: 'viralMention' }>;
	projectId: number;
	source: PollSource;
	/** the API's `filters` object, without collectedAt */
	filters: IDataObject;
	simplify: boolean;
	startFrom: 'now' | 'backfill';
	backfillHours: number;
	maxRequestsPerPoll: number;
	/** the share of the key's hourly search budget this trigger may spend; 0: none of its own */
	requestsPerHour: number;
	/** falling behind, read the backlog with one export (catchUp.ts) */
	catchUp: boolean;
	lateWindowMs: number;
}

const POLL_SOURCES: readonly PollSource[] = ['recent', 'historical'];
const POLL_EVENTS: readonly PollEvent[] = ['newMention', 'digest', 'volumeSpike', 'sentimentShift'];
const START_FROM = ['now', 'backfill'] as const;

export function readPollSettings(ctx: IPollFunctions): PollSettings {
	const node = ctx.getNode();
	const event = readChoice(ctx.getNodeParameter('event', 'newMention'), POLL_EVENTS, node, 'Event');
	const projectId = parseProjectId(
		ctx.getNodeParameter('project', '', { extractValue: true }),
		node,
	);
	const source = readChoice(ctx.getNodeParameter('source', 'recent'), POLL_SOURCES, node, 'Search');
	const filters = buildFilters(ctx.getNodeParameter('filters', {}) as IDataObject, {
		node,
		timezone: ctx.getTimezone(),
		now: serverClock.now(),
		scope: source,
	});
	const simplify = readBoolean(ctx.getNodeParameter('simplify', true), node, 'Simplify', true);
	const startFrom = readChoice(
		ctx.getNodeParameter('startFrom', 'now'),
		START_FROM,
		node,
		'Start From',
	);
	const backfillHours =
		startFrom === 'backfill'
			? readNumber(
					ctx.getNodeParameter('backfillHours', POLL_DEFAULTS.backfillHours),
					node,
					'Backfill (Hours)',
					{
						min: 1,
						max: MAX_BACKFILL_HOURS,
					},
				)
			: 0;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const option = (name: keyof typeof POLL_DEFAULTS, label: string, min: number, max: number) =>
		readNumberOption(options, name, POLL_DEFAULTS[name], node, label, { min, max });
	const maxRequestsPerPoll = option(
		'maxRequestsPerPoll',
		'Max Requests per Poll',
		1,
		MAX_REQUESTS_PER_POLL,
	);
	const requestsPerHour = option(
		'requestsPerHour',
		'Search Requests per Hour',
		0,
		MAX_REQUESTS_PER_HOUR,
	);
	const catchUp = readBoolean(options.catchUp, node, 'Options → Catch Up by Export', true);
	const lateWindowMinutes = option(
		'lateWindowMinutes',
		'Late Mention Window (Minutes)',
		0,
		MAX_LATE_WINDOW_MINUTES,
	);
	const alert =
		event === 'newMention'
			? undefined
			: (readAlertSettings(
					event,
					(name, fallback) => ctx.getNodeParameter(name, fallback),
					node,
					ctx.getTimezone(),
					clock.now(),
				) as PollSettings['alert']);
	return {
		event,
		alert,
		projectId,
		source,
		filters,
		simplify,
		startFrom,
		backfillHours,
		maxRequestsPerPoll,
		requestsPerHour,
		catchUp,
		lateWindowMs: lateWindowMinutes * MINUTE_MS,
	};
}
