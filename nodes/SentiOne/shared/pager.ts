/**
 * The one cursor pager for every list of the API (projects, tags, both searches). The cursor goes
 * back in the `cursor` query parameter with the same body; paging stops on a null or absent
 * cursor, at the caller's limit (only the pages the limit needs are fetched), or on the caller's
 * rate-limit choice. A cursor the server already returned is an error, never a loop.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { QUERY_PARAMS } from './contract';
import { asNodeError, errorDetails, formatInstant, unusableAnswer } from './errors';
import { clock } from './time';
import type { ApiRequest, SentiOneTransport } from './transport';

/** What to do when the hourly budget runs out part-way. */
export type RateLimitChoice = 'wait' | 'stop' | 'fail';

export interface PaginateOptions {
	returnAll: boolean;
	/** Items wanted when returnAll is false (≥ 1). */
	limit?: number;
	onRateLimit?: RateLimitChoice;
	/** Longest total wait for resets when onRateLimit is 'wait'. */
	maxWaitMs?: number;
	/** Safety cap on pages. */
	maxPages?: number;
	/** Continue after this cursor (a `nextCursor` an earlier call returned, with the same request). */
	cursor?: string;
	/**
	 * Stop, without an error, once this many pages were fetched: `complete` is false and
	 * `nextCursor` says where to continue (a per-run request budget, unlike `maxPages`).
	 */
	pageBudget?: number;
}

export interface PaginateResult<T> {
	items: T[];
	/** HTTP requests the pager sent (retries included) */
	requests: number;
	pages: number;
	/** True when the last page or the limit was reached. */
	complete: boolean;
	/** Set when paging stopped early on the 'stop' choice. */
	stopped?: { resetAt?: number; message: string };
	waitedMs: number;
	/** Where to continue when paging stopped before the end at a page boundary (page budget, 'stop' choice). */
	nextCursor?: string;
}

interface Page<T> {
	data?: T[];
	cursor?: string | null;
}

const DEFAULT_MAX_PAGES = 100_000;

export async function paginate<T = IDataObject>(
	transport: SentiOneTransport,
	request: ApiRequest,
	options: PaginateOptions,
): Promise<PaginateResult<T>> {
	const node = transport.node;
	const choice = options.onRateLimit ?? 'fail';
	const maxWaitMs = choice === 'wait' ? Math.max(0, options.maxWaitMs ?? 0) : 0;
	const limit = options.returnAll ? Infinity : Math.max(1, Math.floor(options.limit ?? 1));
	const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
	const startRequests = transport.requestsSent;
	const seen = new Set<string>();
	const items: T[] = [];
	let cursor: string | undefined = options.cursor;
	let pages = 0;
	let waitedMs = 0;

	const result = (complete: boolean, stopped?: PaginateResult<T>['stopped']): PaginateResult<T> => ({
		items,
		requests: transport.requestsSent - startRequests,
		pages,
		complete,
		stopped,
		waitedMs,
		nextCursor: complete ? undefined : cursor,
	});

	const stopNotice = (resetAt: number | undefined) => ({
		resetAt,
		message: `Stopped after ${items.length} item${items.length === 1 ? '' : 's'} (${pages} page${pages === 1 ? '' : 's'}): the hourly budget is used up${resetAt ? ` until ${formatInstant(resetAt)}` : ''}. The items fetched so far are returned; run again after the reset for the rest.`,
	});

	while (items.length < limit) {
		if (options.pageBudget !== undefined && pages >= options.pageBudget) return result(false);
		if (pages >= maxPages) {
			throw new NodeOperationError(node, `Stopped paging after ${maxPages} pages without reaching the end.`, {
				itemIndex: request.itemIndex,
				description: 'Set a Limit, or narrow the filters.',
			});
		}

		// Act on the known budget before spending a request on a certain 429.
		const known = transport.rateLimits[request.group];
		if (known?.remaining === 0 && known.resetAt !== undefined && known.resetAt > clock.now()) {
			const wait = known.resetAt - clock.now() + 1000;
			if (choice === 'stop') return result(false, stopNotice(known.resetAt));
			if (choice === 'wait' && waitedMs + wait <= maxWaitMs) {
				await clock.sleep(wait);
				waitedMs += wait;
			} else {
				throw new NodeOperationError(
					node,
					`SentiOne's ${request.group} budget is used up (${known.limit ?? '?'} requests an hour); it resets at ${formatInstant(known.resetAt)}.`,
					{
						itemIndex: request.itemIndex,
						description:
							choice === 'wait'
								? `Waiting for the reset would exceed the longest wait you allowed. ${items.length} item(s) had been fetched; nothing is returned. Raise the maximum wait, or choose to stop and return what was fetched.`
								: `No request was sent, so no budget was wasted. ${items.length} item(s) had been fetched; nothing is returned. Choose to wait for the reset or to stop and return what was fetched.`,
					},
				);
			}
		}

		const qs: IDataObject = { ...(request.qs ?? {}) };
		if (cursor !== undefined) qs[QUERY_PARAMS.cursor] = cursor;
		let page: Page<T>;
		try {
			const response = await transport.request<Page<T>>({
				...request,
				qs,
				retry: { ...(request.retry ?? {}), maxRateLimitWaitMs: Math.max(0, maxWaitMs - waitedMs) },
			});
			waitedMs += response.waitedMs;
			page = response.body;
		} catch (error) {
			const details = errorDetails(error);
			if (choice === 'stop' && details?.statusCode === 429 && details.rateLimitKind === 'hourly') {
				return result(false, stopNotice(details.resetAt));
			}
			throw asNodeError(node, error, request.itemIndex);
		}
		pages++;

		if (!Array.isArray(page.data)) {
			throw unusableAnswer(
				node,
				{ method: request.method, path: request.path, group: request.group, tier: request.tier },
				'the page has no "data" list',
				request.itemIndex,
			);
		}
		const room = limit - items.length;
		for (let i = 0; i < page.data.length && i < room; i++) items.push(page.data[i]);

		const next = page.cursor;
		if (next === null || next === undefined || next === '') return result(true);
		if (typeof next !== 'string') {
			throw unusableAnswer(
				node,
				{ method: request.method, path: request.path, group: request.group, tier: request.tier },
				'the page cursor is not a string',
				request.itemIndex,
			);
		}
		if (seen.has(next) || next === cursor) {
			throw new NodeOperationError(
				node,
				`SentiOne returned a page cursor it had already returned (after ${pages} pages and ${items.length} items); paging stopped to avoid a loop.`,
				{
					itemIndex: request.itemIndex,
					description: 'This is a fault of the server. Try again later, or set a Limit.',
				},
			);
		}
		seen.add(next);
		cursor = next;
	}
	return result(true);
}
