/**
 * What Search Recent and Search Historical share: the same fields, the same body, the same pager;
 * they differ in the endpoint, the tier and the date rules (D-18), all given by the scope.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Scope } from '../../shared/contract';
import { route, scopedEndpoint, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import {
	filtersCollection,
	projectLocator,
	simplifyProperty,
	sortProperty,
} from '../../shared/descriptions';
import { paginate } from '../../shared/pager';
import { mentionRow } from '../../shared/simplify';
import type { SentiOneTransport } from '../../shared/transport';
import { FilterVerifier, widenCollectedAt, withFilterFallback } from '../../shared/verify';
import {
	costText,
	pageSize,
	recentWindowText,
	tierBelow,
	tierLead,
	tierOf,
} from '../../shared/wording';
import {
	limitProperty,
	operationNotice,
	returnAllProperty,
	searchOptions,
} from '../common.descriptions';
import {
	readPaging,
	publishedOnServerClock,
	readProjectId,
	readRateLimitHandling,
	readSearchBody,
	readSimplify,
} from '../readParameters';
import type { ExecutionHints } from '../executionHints';

function searchProperties(scope: Scope): INodeProperties[] {
	const name = scopedEndpoint('search', scope);
	const cost = `Each page of ${pageSize(name)} mentions costs ${costText(name)} this API key shares with every workflow using it (recent and historical search share them).`;
	const below = tierBelow(tierOf(name));
	return [
		scope === 'recent'
			? operationNotice(
					'searchRecentNotice',
					`${tierLead(name)}: mentions published in the last ${recentWindowText()}. ${cost}`,
				)
			: operationNotice(
					'searchHistoricalNotice',
					`${tierLead(name)}${below !== undefined ? ` (with a ${below} key, Search Recent covers the last ${recentWindowText()})` : ''}. ${cost}`,
				),
		projectLocator,
		returnAllProperty,
		limitProperty,
		filtersCollection({
			dates: true,
			description:
				scope === 'recent'
					? `Narrow the mentions down. Recent search only covers mentions published in the last ${recentWindowText()}; without a published date filter it returns those ${recentWindowText()}.`
					: 'Narrow the mentions down. Without a published date filter historical search covers all time.',
		}),
		sortProperty,
		simplifyProperty,
		searchOptions,
	];
}

async function executeSearch(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	scope: Scope,
	notes: ExecutionHints,
): Promise<IDataObject[]> {
	// every parameter is read and checked before the first request
	const projectId = readProjectId.call(this, i);
	const paging = readPaging.call(this, i);
	const body = readSearchBody.call(this, i, scope);
	const simplify = readSimplify.call(this, i);
	const rateLimit = readRateLimitHandling.call(this, i);

	let verifier = new FilterVerifier(body[SEARCH_REQUEST_FIELDS.filters] as IDataObject);
	const before = transport.requestsSent;
	const {
		value: result,
		dropped,
		refusal,
	} = await withFilterFallback(
		this.getNode(),
		widenCollectedAt(body),
		async (sent) =>
			await paginate<IDataObject>(
				transport,
				{ ...route(scopedEndpoint('search', scope), projectId), body: sent, itemIndex: i },
				{
					...paging,
					onRateLimit: rateLimit.onRateLimit,
					maxWaitMs: rateLimit.maxWaitMs,
					keep: (mention) => verifier.keep(mention),
					// a published range computed on n8n's clock before SentiOne's answers told its own
					// (D-50): computed again on SentiOne's, the search starts over once if it moved
					recomputeBody: () => {
						const again = publishedOnServerClock.call(this, i, scope, sent);
						if (again)
							verifier = new FilterVerifier(
								readSearchBody.call(this, i, scope)[SEARCH_REQUEST_FIELDS.filters] as IDataObject,
							);
						return again;
					},
				},
			),
		notes.refused,
	);
	notes.refusedFilters(dropped, refusal);
	notes.verified(verifier, transport.requestsSent - before);
	notes.paged(result);
	if (result.stopped)
		notes.messages.push(`Incomplete result for input item ${i + 1}: ${result.stopped.message}`);
	return result.items.map((mention) => mentionRow(mention, simplify));
}

/** The operation of one scope: its fields and its execute function. */
export function searchOperation(scope: Scope) {
	const operation = scope === 'recent' ? 'searchRecent' : 'searchHistorical';
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['mention'], operation: [operation] } },
			searchProperties(scope),
		),
		async execute(
			this: IExecuteFunctions,
			i: number,
			transport: SentiOneTransport,
			notes: ExecutionHints,
		): Promise<IDataObject[]> {
			return await executeSearch.call(this, i, transport, scope, notes);
		},
	};
}
