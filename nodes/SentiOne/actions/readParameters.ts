/**
 * Reading the parameters several operations share, per item, with every local check applied
 * before a request is made (shared/parameters.ts and shared/filters.ts hold the rules; this only
 * reads and forwards).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { FILTER_FIELDS, SEARCH_REQUEST_FIELDS, SORT_TYPES } from '../shared/contract';
import type { FilterScope } from '../shared/filters';
import { buildFilters } from '../shared/filters';
import type { RateLimitChoice } from '../shared/pager';
import {
	parseProjectId,
	readBoolean,
	readChoice,
	readNumber,
	readNumberOption,
} from '../shared/parameters';
import { serverClock } from '../shared/clock';
import { MINUTE_MS } from '../shared/units';
import {
	DEFAULT_MAX_WAIT_MINUTES,
	MAX_WAIT_MINUTES_LIMIT,
	RATE_LIMIT_CHOICES,
} from './common.descriptions';

/** The project of a resource locator (From list / By ID / an expression), as a positive integer. */
export function readProjectId(this: IExecuteFunctions, i: number, parameter = 'project'): number {
	const value = this.getNodeParameter(parameter, i, '', { extractValue: true });
	return parseProjectId(value, this.getNode(), i);
}

/** Simplify: a flat row per mention (the default) or the mention as SentiOne sent it. */
export function readSimplify(this: IExecuteFunctions, i: number): boolean {
	return readBoolean(
		this.getNodeParameter('simplify', i, true),
		this.getNode(),
		'Simplify',
		true,
		i,
	);
}

export interface Paging {
	returnAll: boolean;
	/** set when returnAll is false */
	limit?: number;
}

/** Return All / Limit; a limit below 1 (e.g. from an expression) stops here. */
export function readPaging(this: IExecuteFunctions, i: number): Paging {
	const node = this.getNode();
	if (readBoolean(this.getNodeParameter('returnAll', i, false), node, 'Return All', false, i))
		return { returnAll: true };
	return {
		returnAll: false,
		limit: readNumber(this.getNodeParameter('limit', i, 50), node, 'Limit', { min: 1 }, i),
	};
}

/** The SearchRequest body of both searches and the export streams: `{ filters, sortType }`. */
export function readSearchBody(
	this: IExecuteFunctions,
	i: number,
	scope: FilterScope,
): IDataObject {
	const node = this.getNode();
	const filters = buildFilters(this.getNodeParameter('filters', i, {}) as IDataObject, {
		node,
		itemIndex: i,
		timezone: this.getTimezone(),
		// SentiOne judges the dates by its clock (the 7-day window, the future)
		now: serverClock.now(),
		scope,
	});
	const sortType = readChoice(
		this.getNodeParameter('sortType', i),
		SORT_TYPES,
		node,
		'Sort By',
		i,
		'a sort order',
	);
	return { [SEARCH_REQUEST_FIELDS.filters]: filters, [SEARCH_REQUEST_FIELDS.sortType]: sortType };
}

/**
 * The search body `sent`, its published range computed again now that SentiOne's answers told its
 * clock (D-50): undefined when the range did not move (the one filter computed from the clock).
 */
export function publishedOnServerClock(
	this: IExecuteFunctions,
	i: number,
	scope: FilterScope,
	sent: IDataObject,
): IDataObject | undefined {
	const rangeOf = (body: IDataObject): unknown =>
		(body[SEARCH_REQUEST_FIELDS.filters] as IDataObject | undefined)?.[FILTER_FIELDS.publishedAt];
	const range = rangeOf(readSearchBody.call(this, i, scope));
	if (JSON.stringify(range) === JSON.stringify(rangeOf(sent))) return undefined;
	const filters = { ...((sent[SEARCH_REQUEST_FIELDS.filters] as IDataObject | undefined) ?? {}) };
	if (range === undefined) delete filters[FILTER_FIELDS.publishedAt];
	else filters[FILTER_FIELDS.publishedAt] = range as IDataObject;
	return { ...sent, [SEARCH_REQUEST_FIELDS.filters]: filters };
}

export interface RateLimitHandling {
	onRateLimit: RateLimitChoice;
	/** longest total wait for resets, in ms (0 unless waiting) */
	maxWaitMs: number;
}

/** The Options → On Rate Limit / Max Wait pair of the searches. */
export function readRateLimitHandling(this: IExecuteFunctions, i: number): RateLimitHandling {
	const node = this.getNode();
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const choice = readChoice(
		options.onRateLimit ?? 'fail',
		RATE_LIMIT_CHOICES,
		node,
		'Options → On Rate Limit',
		i,
	);
	if (choice !== 'wait') return { onRateLimit: choice, maxWaitMs: 0 };
	const minutes = readNumberOption(
		options,
		'maxWaitMinutes',
		DEFAULT_MAX_WAIT_MINUTES,
		node,
		'Max Wait (Minutes)',
		{
			min: 1,
			max: MAX_WAIT_MINUTES_LIMIT,
			whole: false,
		},
		i,
	);
	return { onRateLimit: 'wait', maxWaitMs: Math.round(minutes * MINUTE_MS) };
}
