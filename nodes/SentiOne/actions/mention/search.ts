/**
 * What Search Recent and Search Historical share: the same fields, the same body, the same pager;
 * they differ in the endpoint, the tier and the date rules (D-18).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { EndpointName } from '../../shared/contract';
import { endpoint, PATHS, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { projectLocator, simplifyProperty, sortProperty } from '../../shared/descriptions';
import { filtersCollection } from '../../shared/filters';
import { paginate } from '../../shared/pager';
import { simplifyMention } from '../../shared/simplify';
import type { SentiOneTransport } from '../../shared/transport';
import { FilterVerifier, widenCollectedAt, withFilterFallback } from '../../shared/verify';
import { budgetShare, limitProperty, operationNotice, returnAllProperty, searchOptions } from '../common.descriptions';
import { readPaging, readProjectId, readRateLimitHandling, readSearchBody } from '../helpers';
import type { RunNotes } from '../notes';

export type SearchScope = 'recent' | 'historical';

const SEARCH_COST = `Each page of 25 mentions costs ${budgetShare('search')} this API key shares with every workflow using it (recent and historical search share them).`;

export function searchProperties(scope: SearchScope): INodeProperties[] {
	return [
		scope === 'recent'
			? operationNotice('searchRecentNotice', `Basic tier: mentions published in the last 7 days. ${SEARCH_COST}`)
			: operationNotice(
					'searchHistoricalNotice',
					`Enterprise tier: a Basic key is refused (with a Basic key, Search Recent covers the last 7 days). ${SEARCH_COST}`,
				),
		projectLocator,
		returnAllProperty,
		limitProperty,
		filtersCollection({
			dates: true,
			description:
				scope === 'recent'
					? 'Narrow the mentions down. Recent search only covers mentions published in the last 7 days; without a published date filter it returns those 7 days.'
					: 'Narrow the mentions down. Without a published date filter historical search covers all time.',
		}),
		sortProperty,
		simplifyProperty,
		searchOptions,
	];
}

const ENDPOINTS: Record<SearchScope, { name: EndpointName; path: (projectId: number) => string }> = {
	recent: { name: 'recentSearch', path: PATHS.recentSearch },
	historical: { name: 'historicalSearch', path: PATHS.historicalSearch },
};

export async function executeSearch(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	scope: SearchScope,
	notes: RunNotes,
): Promise<IDataObject[]> {
	// every parameter is read and checked before the first request
	const projectId = readProjectId.call(this, i);
	const paging = readPaging.call(this, i);
	const body = readSearchBody.call(this, i, scope);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const rateLimit = readRateLimitHandling.call(this, i);

	const target = ENDPOINTS[scope];
	const verifier = new FilterVerifier(body[SEARCH_REQUEST_FIELDS.filters] as IDataObject);
	const before = transport.requestsSent;
	const { value: result, dropped, refusal } = await withFilterFallback(
		this.getNode(),
		widenCollectedAt(body),
		async (sent) =>
			await paginate<IDataObject>(
				transport,
				{ ...endpoint(target.name), path: target.path(projectId), body: sent, itemIndex: i },
				{
					returnAll: paging.returnAll,
					limit: paging.limit,
					onRateLimit: rateLimit.onRateLimit,
					maxWaitMs: rateLimit.maxWaitMs,
					keep: verifier.keep,
				},
			),
		notes.refused,
	);
	notes.refusedFilters(dropped, refusal);
	notes.verified(verifier, transport.requestsSent - before);
	notes.skipped += result.skipped;
	notes.repeats += result.repeats;
	if (result.stopped) notes.messages.push(`Incomplete result for input item ${i + 1}: ${result.stopped.message}`);
	return simplify ? result.items.map(simplifyMention) : result.items;
}
