/**
 * Reading the parameters several operations share, per item, with every local check applied
 * before a request is made (shared/filters.ts holds the rules; this only reads and forwards).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { SEARCH_REQUEST_FIELDS } from '../shared/contract';
import { invalidParameter, readChoice } from '../shared/errors';
import type { FilterScope } from '../shared/filters';
import { buildFilters, checkSortType, parseLimit, parseProjectId } from '../shared/filters';
import type { RateLimitChoice } from '../shared/pager';
import { clock } from '../shared/time';
import { DEFAULT_MAX_WAIT_MINUTES, MAX_WAIT_MINUTES_LIMIT, RATE_LIMIT_CHOICES } from './common.descriptions';

/** The project of a resource locator (From list / By ID / an expression), as a positive integer. */
export function readProjectId(this: IExecuteFunctions, i: number, parameter = 'project'): number {
	const value = this.getNodeParameter(parameter, i, '', { extractValue: true });
	return parseProjectId(value, this.getNode(), i);
}

export interface Paging {
	returnAll: boolean;
	/** set when returnAll is false */
	limit?: number;
}

/** Return All / Limit; a limit below 1 (e.g. from an expression) stops here. */
export function readPaging(this: IExecuteFunctions, i: number): Paging {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	if (returnAll === true) return { returnAll: true };
	return { returnAll: false, limit: parseLimit(this.getNodeParameter('limit', i, 50), this.getNode(), i) };
}

/** The SearchRequest body of both searches and the export streams: `{ filters, sortType }`. */
export function readSearchBody(this: IExecuteFunctions, i: number, scope: FilterScope): IDataObject {
	const node = this.getNode();
	const filters = buildFilters(this.getNodeParameter('filters', i, {}) as IDataObject, {
		node,
		itemIndex: i,
		timezone: this.getTimezone(),
		now: clock.now(),
		scope,
	});
	const sortType = checkSortType(this.getNodeParameter('sortType', i), { node, itemIndex: i });
	return { [SEARCH_REQUEST_FIELDS.filters]: filters, [SEARCH_REQUEST_FIELDS.sortType]: sortType };
}

export interface RateLimitHandling {
	onRateLimit: RateLimitChoice;
	/** longest total wait for resets, in ms (0 unless waiting) */
	maxWaitMs: number;
}

/** The Options → On Rate Limit / Max Wait pair of the searches. */
export function readRateLimitHandling(this: IExecuteFunctions, i: number): RateLimitHandling {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const choice = readChoice(options.onRateLimit ?? 'fail', RATE_LIMIT_CHOICES, this.getNode(), 'Options → On Rate Limit', i);
	if (choice !== 'wait') return { onRateLimit: choice, maxWaitMs: 0 };
	const raw = options.maxWaitMinutes ?? DEFAULT_MAX_WAIT_MINUTES;
	const minutes = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_WAIT_MINUTES_LIMIT) {
		throw invalidParameter(
			this.getNode(),
			'Options → Max Wait (Minutes)',
			`"${String(raw)}" is not a valid wait. Expected a number of minutes above 0 and at most ${MAX_WAIT_MINUTES_LIMIT}.`,
			i,
		);
	}
	return { onRateLimit: 'wait', maxWaitMs: Math.round(minutes * 60_000) };
}
