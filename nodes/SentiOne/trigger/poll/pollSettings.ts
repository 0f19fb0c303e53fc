/**
 * The poll trigger's parameters, read and checked once per poll before any request is made.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { RECENT_WINDOW_MS } from '../../shared/contract';
import { invalidParameter, readChoice } from '../../shared/errors';
import { buildFilters, parseProjectId } from '../../shared/filters';
import { clock } from '../../shared/time';

export type PollSource = 'recent' | 'historical';

export const POLL_DEFAULTS = {
	/** 12 polls an hour (every 5 minutes) × 2 = 24 of the 30 search requests an hour */
	maxRequestsPerPoll: 2,
	/** 12 of the 30 search requests an hour: a check at most every 5 minutes; 18 left for other workflows */
	requestsPerHour: 12,
	lateWindowMinutes: 10,
	backfillHours: 24,
} as const;

export const MAX_REQUESTS_PER_POLL = 30;
export const MAX_REQUESTS_PER_HOUR = 30;
export const MAX_LATE_WINDOW_MINUTES = 24 * 60;
export const MAX_BACKFILL_HOURS = RECENT_WINDOW_MS / 3_600_000;

export interface PollSettings {
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
	lateWindowMs: number;
}

function wholeNumber(
	ctx: IPollFunctions,
	value: unknown,
	parameter: string,
	min: number,
	max: number,
): number {
	const n = typeof value === 'number' ? value : Number(String(value ?? '').trim());
	if (!Number.isFinite(n) || !Number.isInteger(n) || n < min || n > max) {
		throw invalidParameter(
			ctx.getNode(),
			parameter,
			`"${String(value)}" is not valid. Expected a whole number from ${min} to ${max}.`,
		);
	}
	return n;
}

const POLL_SOURCES: readonly PollSource[] = ['recent', 'historical'];
const START_FROM = ['now', 'backfill'] as const;

export function readPollSettings(ctx: IPollFunctions): PollSettings {
	const node = ctx.getNode();
	const projectId = parseProjectId(ctx.getNodeParameter('project', '', { extractValue: true }), node);
	const source = readChoice(ctx.getNodeParameter('source', 'recent'), POLL_SOURCES, node, 'Search');
	const filters = buildFilters(ctx.getNodeParameter('filters', {}) as IDataObject, {
		node,
		timezone: ctx.getTimezone(),
		now: clock.now(),
		scope: source,
	});
	const simplify = ctx.getNodeParameter('simplify', true) !== false;
	const startFrom = readChoice(ctx.getNodeParameter('startFrom', 'now'), START_FROM, node, 'Start From');
	const backfillHours =
		startFrom === 'backfill'
			? wholeNumber(
					ctx,
					ctx.getNodeParameter('backfillHours', POLL_DEFAULTS.backfillHours),
					'Backfill (Hours)',
					1,
					MAX_BACKFILL_HOURS,
				)
			: 0;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const maxRequestsPerPoll = wholeNumber(
		ctx,
		options.maxRequestsPerPoll ?? POLL_DEFAULTS.maxRequestsPerPoll,
		'Options → Max Requests per Poll',
		1,
		MAX_REQUESTS_PER_POLL,
	);
	const requestsPerHour = wholeNumber(
		ctx,
		options.requestsPerHour ?? POLL_DEFAULTS.requestsPerHour,
		'Options → Search Requests per Hour',
		0,
		MAX_REQUESTS_PER_HOUR,
	);
	const lateWindowMinutes = wholeNumber(
		ctx,
		options.lateWindowMinutes ?? POLL_DEFAULTS.lateWindowMinutes,
		'Options → Late Mention Window (Minutes)',
		0,
		MAX_LATE_WINDOW_MINUTES,
	);
	return {
		projectId,
		source,
		filters,
		simplify,
		startFrom,
		backfillHours,
		maxRequestsPerPoll,
		requestsPerHour,
		lateWindowMs: lateWindowMinutes * 60_000,
	};
}
