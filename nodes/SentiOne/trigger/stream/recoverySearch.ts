/**
 * Fills what a live stream could not deliver (an outage longer than the 5-minute backfill, or
 * mentions that arrived malformed) with a recent search over a collected-at range, within a
 * request cap and the search budget. The caller drops the ids it already passed on.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SortType } from '../../shared/contract';
import { FILTER_FIELDS, FILTER_SHAPES, route, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { paginate } from '../../shared/pager';
import { readServerInstant, toIso } from '../../shared/time';
import type { ApiRequest, SentiOneTransport } from '../../shared/transport';
import { FilterVerifier, widenCollectedAt } from '../../shared/verify';

const ASCENDING: SortType = 'CollectedAtAscending';
const DESCENDING: SortType = 'CollectedAtDescending';

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

/** A recent search of the stream's project (the live stream covers what recent search covers). */
function searchRequest(
	search: Pick<GapSearch, 'projectId' | 'signal'>,
	body: IDataObject,
): ApiRequest {
	return {
		...route('recentSearch', search.projectId),
		body,
		retry: { maxRateLimitWaitMs: 0 },
		signal: search.signal,
	};
}

/**
 * The mentions collected in `range`: by SentiOne's collectedAt filter (ascending), or, when the
 * server is seen not to honour it (it returns mentions collected before the range), by the
 * confirmed newest-first order down to the range's start. Every mention outside the range or not
 * matching the filters is dropped here, whatever the server returned.
 */
export async function searchCollected(search: GapSearch): Promise<GapSearchResult> {
	const filters: IDataObject = {
		...search.filters,
		[FILTER_FIELDS.collectedAt]: FILTER_SHAPES.collectedAt(
			toIso(search.range.from, 'the start of the gap search'),
			toIso(search.range.to, 'the end of the gap search'),
		),
	};
	const verifier = new FilterVerifier(filters);
	const request = (body: IDataObject) => searchRequest(search, body);
	const budget = Math.max(1, search.maxRequests);
	// the earliest instant the (widened) request asked for: anything older means the filter was ignored
	const lowest = Math.floor(search.range.from / 1000) * 1000 - 1000;
	let before = false;
	const ascending = await paginate<IDataObject>(
		search.transport,
		request(
			widenCollectedAt({
				[SEARCH_REQUEST_FIELDS.filters]: filters,
				[SEARCH_REQUEST_FIELDS.sortType]: ASCENDING,
			}),
		),
		{
			returnAll: true,
			onRateLimit: 'stop',
			pageBudget: budget,
			keep: (mention) => {
				const at = readServerInstant(mention.collectedAt);
				if (at !== undefined && at < lowest) before = true;
				return verifier.keep(mention);
			},
			stopAfter: () => before,
		},
	);
	let result = ascending;
	let requests = ascending.requests;
	if (before && ascending.pages < budget && ascending.stopped === undefined) {
		let crossed = false;
		result = await paginate<IDataObject>(
			search.transport,
			request({
				[SEARCH_REQUEST_FIELDS.filters]: search.filters,
				[SEARCH_REQUEST_FIELDS.sortType]: DESCENDING,
			}),
			{
				returnAll: true,
				onRateLimit: 'stop',
				pageBudget: budget - ascending.pages,
				keep: verifier.keep,
				stopAfter: (page) => {
					crossed = page.some((m) => {
						const at = readServerInstant(m.collectedAt);
						return at !== undefined && at < search.range.from;
					});
					return crossed;
				},
			},
		);
		requests += result.requests;
		result = {
			...result,
			complete: result.complete || crossed,
			items: result.items.slice().reverse(),
		};
	} else if (before) {
		result = { ...ascending, items: ascending.items, complete: false };
	}
	return {
		mentions: result.items,
		requests,
		complete: result.complete,
		budgetStopped: result.stopped !== undefined,
		budgetResetAt: result.stopped?.resetAt,
	};
}

/** The newest mentions matching the stream's filters, by one recent search (a test event's sample). */
export async function searchLatest(
	search: Omit<GapSearch, 'range' | 'maxRequests'>,
): Promise<IDataObject[]> {
	const verifier = new FilterVerifier(search.filters);
	const result = await paginate<IDataObject>(
		search.transport,
		searchRequest(search, {
			[SEARCH_REQUEST_FIELDS.filters]: search.filters,
			[SEARCH_REQUEST_FIELDS.sortType]: DESCENDING,
		}),
		{ returnAll: true, onRateLimit: 'fail', pageBudget: 1, keep: verifier.keep },
	);
	return result.items;
}
