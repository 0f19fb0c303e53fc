/**
 * Fills what a live stream could not deliver (an outage longer than the 5-minute backfill, or
 * mentions that arrived malformed) with a recent search over a collected-at range, within a
 * request cap and the search budget. The caller drops the ids it already passed on.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SortType } from '../shared/contract';
import { FILTER_FIELDS, PATHS, SEARCH_REQUEST_FIELDS } from '../shared/contract';
import { paginate } from '../shared/pager';
import { toIso } from '../shared/time';
import type { SentiOneTransport } from '../shared/transport';

const ASCENDING: SortType = 'CollectedAtAscending';

export interface CollectedRange {
	/** epoch ms, inclusive */
	from: number;
	/** epoch ms, exclusive */
	to: number;
}

export interface GapSearch {
	transport: SentiOneTransport;
	projectId: number;
	/** the stream's filters (the API's `filters` object) */
	filters: IDataObject;
	range: CollectedRange;
	maxRequests: number;
	signal?: AbortSignal;
}

export interface GapSearchResult {
	mentions: IDataObject[];
	requests: number;
	/** false when the request cap or the budget stopped it before the end of the range */
	complete: boolean;
	/** set when the search budget stopped it */
	budgetResetAt?: number;
	budgetStopped: boolean;
}

export async function searchCollected(search: GapSearch): Promise<GapSearchResult> {
	const filters: IDataObject = {
		...search.filters,
		[FILTER_FIELDS.collectedAt]: {
			[FILTER_FIELDS.from]: toIso(search.range.from),
			[FILTER_FIELDS.to]: toIso(search.range.to),
		},
	};
	const result = await paginate<IDataObject>(
		search.transport,
		{
			method: 'POST',
			path: PATHS.recentSearch(search.projectId),
			group: 'search',
			tier: 'Basic',
			body: { [SEARCH_REQUEST_FIELDS.filters]: filters, [SEARCH_REQUEST_FIELDS.sortType]: ASCENDING },
			read: true,
			retry: { maxRateLimitWaitMs: 0 },
			signal: search.signal,
		},
		{ returnAll: true, onRateLimit: 'stop', pageBudget: Math.max(1, search.maxRequests) },
	);
	return {
		mentions: result.items,
		requests: result.requests,
		complete: result.complete,
		budgetStopped: result.stopped !== undefined,
		budgetResetAt: result.stopped?.resetAt,
	};
}
