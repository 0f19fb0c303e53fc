/**
 * The one cursor pager for every list of the API (projects, tags, both searches). The cursor goes
 * back in the `cursor` query parameter with the same body; paging stops on a cursor that means "the
 * end" (`isEndCursor`: null, absent, empty or only whitespace — never sent back), at the caller's limit (only the pages the limit needs are fetched), or on the caller's
 * rate-limit choice.
 *
 * Nothing the server sends can make it loop, flood or grow without bound (docs/reliability.md):
 * a cursor it already returned, or one too long to send back, is an error; entries that are not
 * objects are skipped and counted; an item it already returned (same key) is dropped and counted;
 * pages that bring nothing new several times in a row stop paging with an error; and one run holds
 * at most `maxItems` items. A caller's `keep` check drops (and counts) items that do not match what
 * was asked, so a limit counts only items that do.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BOUNDS } from './bounds';
import { QUERY_PARAMS } from './contract';
import {
	asNodeError,
	declareFailure,
	errorDetails,
	FAILURES,
	refusedDates,
	unusableAnswer,
} from './errors';
import { idKey } from './text';
import { clock, OFFSET_DEADBAND_MS } from './clock';
import { formatInstant } from './time';
import type { ApiRequest, SentiOneTransport } from './transport';
import { rateLimitWait } from './transport';

/** What to do when the hourly budget runs out part-way. */
export type RateLimitChoice = 'wait' | 'stop' | 'fail';

/** Most items one run holds unless the caller says otherwise. */
export const DEFAULT_MAX_ITEMS = 100_000;

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
	/** Most items one run may hold; more is an error that names `maxItemsHint`. */
	maxItems?: number;
	/** How the user raises `maxItems` (or avoids it), for the error. */
	maxItemsHint?: string;
	/** An item's identity, to drop repeats (default: its `id`). Undefined: no repeat detection. */
	keyOf?: (item: IDataObject) => string | undefined;
	/** A local check of each item; an item that fails is dropped and counted (not passed on). */
	keep?: (item: IDataObject) => boolean;
	/** Stop, without an error, once a page shows that later pages cannot matter (a sort crossing a boundary). */
	stopAfter?: (page: IDataObject[]) => boolean;
	/**
	 * The request's body computed again, now that SentiOne's first answer dated its clock (D-50):
	 * called once, after the first page or its 422 on a date; a body that differs starts the paging
	 * over with it (one request more, never a loop). Undefined: go on as sent.
	 */
	recomputeBody?: () => IDataObject | undefined;
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
	/** Entries of `data` that were not objects (null, numbers, strings, lists): skipped. */
	skipped: number;
	/** Items the server returned again (same key): dropped. */
	repeats: number;
	/** Items `keep` refused: dropped. */
	dropped: number;
}

interface Page {
	data?: unknown;
	cursor?: unknown;
}

const DEFAULT_MAX_PAGES = 100_000;

const defaultKey = (item: IDataObject): string | undefined => {
	const id = item.id;
	if (typeof id === 'string' && id !== '') return id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return undefined;
};

/**
 * Whether a page's cursor says there are no more pages: null, absent, `""` or only whitespace.
 * SentiOne shows null (D-20); a server writing the end as a blank string would refuse it sent back
 * (400), so such a cursor ends paging wherever a cursor is read (this pager, the project picker,
 * a poll trigger's saved round).
 */
export function isEndCursor(value: unknown): boolean {
	return (
		value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
	);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when two JSON values differ at most in ISO 8601 instants less than `toleranceMs` apart. */
export function sameWithin(a: unknown, b: unknown, toleranceMs: number): boolean {
	if (a === b) return true;
	if (typeof a === 'string' && typeof b === 'string') {
		const instant = /^\d{4}-\d\d-\d\dT/;
		if (!instant.test(a) || !instant.test(b)) return false;
		const [x, y] = [Date.parse(a), Date.parse(b)];
		return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= toleranceMs;
	}
	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
		return a.every((v, k) => sameWithin(v, b[k], toleranceMs));
	}
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	return keys.every(
		(k) =>
			Object.prototype.hasOwnProperty.call(b, k) &&
			sameWithin((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], toleranceMs),
	);
}

export async function paginate<T = IDataObject>(
	transport: SentiOneTransport,
	request: ApiRequest,
	options: PaginateOptions,
): Promise<PaginateResult<T>> {
	const node = transport.node;
	const info = {
		endpoint: request.endpoint,
		method: request.method,
		path: request.path,
		group: request.group,
		tier: request.tier,
	};
	const choice = options.onRateLimit ?? 'fail';
	const maxWaitMs = choice === 'wait' ? Math.max(0, options.maxWaitMs ?? 0) : 0;
	const limit = options.returnAll ? Infinity : Math.max(1, Math.floor(options.limit ?? 1));
	const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
	const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
	const keyOf = options.keyOf ?? defaultKey;
	const startRequests = transport.requestsSent;
	const cursorsSeen = new Set<string>();
	const keysSeen = new Set<string>();
	const items: T[] = [];
	let cursor: string | undefined = isEndCursor(options.cursor) ? undefined : options.cursor;
	let pages = 0;
	let waitedMs = 0;
	let budgetWaits = 0;
	let skipped = 0;
	let repeats = 0;
	let dropped = 0;
	let pagesWithoutProgress = 0;
	let recomputed = options.recomputeBody === undefined || options.cursor !== undefined;

	/** Once, on the first answer: a body computed again that differs replaces the request's. */
	const startOver = (): boolean => {
		if (recomputed) return false;
		recomputed = true;
		const again = options.recomputeBody?.();
		// computed a moment later, its instants move by that moment: only a clock that differs starts over
		if (again === undefined || sameWithin(again, request.body, OFFSET_DEADBAND_MS)) return false;
		request = { ...request, body: again };
		items.length = 0;
		keysSeen.clear();
		cursorsSeen.clear();
		cursor = undefined;
		skipped = repeats = dropped = pagesWithoutProgress = 0;
		return true;
	};

	const result = (
		complete: boolean,
		stopped?: PaginateResult<T>['stopped'],
	): PaginateResult<T> => ({
		items,
		requests: transport.requestsSent - startRequests,
		pages,
		complete,
		stopped,
		waitedMs,
		nextCursor: complete ? undefined : cursor,
		skipped,
		repeats,
		dropped,
	});

	const stopNotice = (resetAt: number | undefined) => ({
		resetAt,
		message: `Stopped after ${items.length} item${items.length === 1 ? '' : 's'} (${pages} page${pages === 1 ? '' : 's'}): the hourly budget is used up${resetAt ? ` until ${formatInstant(resetAt, clock.now(), transport.zone)}` : ''}. The items fetched so far are returned; run again after the reset for the rest.`,
	});

	const serverFault = (message: string) =>
		declareFailure(
			new NodeOperationError(node, message, {
				itemIndex: request.itemIndex,
				description:
					'This is a fault of the server. Nothing partial is returned. Try again later, or set a Limit.',
			}),
			FAILURES.temporarilyUnavailable(),
		);
	/** A cap of the run (pages, items) was reached: a Limit or narrower filters are needed. */
	const capReached = (message: string, description: string) =>
		declareFailure(
			new NodeOperationError(node, message, { itemIndex: request.itemIndex, description }),
			FAILURES.configurationInvalid(),
		);

	while (items.length < limit) {
		if (options.pageBudget !== undefined && pages >= options.pageBudget) return result(false);
		if (pages >= maxPages) {
			throw capReached(
				`Stopped paging after ${maxPages} pages without reaching the end.`,
				'Set a Limit, or narrow the filters.',
			);
		}

		// Act on the known budget before spending a request on a certain 429.
		const known = transport.rateLimits[request.group];
		if (known?.remaining === 0 && known.resetAt !== undefined && known.resetAt > clock.now()) {
			const wait = rateLimitWait(known.resetAt, clock.now(), budgetWaits);
			if (choice === 'stop') return result(false, stopNotice(known.resetAt));
			if (choice === 'wait' && waitedMs + wait <= maxWaitMs) {
				// the transport's one wait: a stopped execution ends it at once, and no page follows
				await transport.wait(
					wait,
					`while it waited for SentiOne's ${request.group} budget to reset, after ${items.length} item${items.length === 1 ? '' : 's'} (${pages} page${pages === 1 ? '' : 's'})`,
					{ signal: request.signal, itemIndex: request.itemIndex },
				);
				waitedMs += wait;
				budgetWaits++;
			} else {
				throw declareFailure(
					new NodeOperationError(
						node,
						`SentiOne's ${request.group} budget is used up (${known.limit ?? '?'} requests an hour); it resets at ${formatInstant(known.resetAt, clock.now(), transport.zone)}.`,
						{
							itemIndex: request.itemIndex,
							description:
								choice === 'wait'
									? `Waiting for the reset would exceed the longest wait you allowed. ${items.length} item(s) had been fetched; nothing is returned. Raise the maximum wait, or choose to stop and return what was fetched.`
									: `No request was sent, so no budget was wasted. ${items.length} item(s) had been fetched; nothing is returned. Choose to wait for the reset or to stop and return what was fetched.`,
						},
					),
					FAILURES.hourlyBudgetSpent(known.resetAt),
				);
			}
		}

		const qs: IDataObject = { ...(request.qs ?? {}) };
		if (cursor !== undefined) qs[QUERY_PARAMS.cursor] = cursor;
		let page: Page;
		try {
			const response = await transport.request<Page>({
				...request,
				qs,
				retry: { ...(request.retry ?? {}), maxRateLimitWaitMs: Math.max(0, maxWaitMs - waitedMs) },
				// a page that stalls says what had arrived before it
				arrived: `${items.length} item${items.length === 1 ? '' : 's'} had arrived${pages > 0 ? ` on ${pages} earlier page${pages === 1 ? '' : 's'}` : ''}`,
			});
			waitedMs += response.waitedMs;
			page = response.body;
		} catch (error) {
			const details = errorDetails(error);
			if (choice === 'stop' && details?.statusCode === 429 && details.rateLimitKind === 'hourly') {
				return result(false, stopNotice(details.resetAt));
			}
			// a date refused by SentiOne's clock, which the refusal dated: asked again once if it changes
			if (pages === 0 && refusedDates(error) && startOver()) continue;
			throw asNodeError(node, error, request.itemIndex);
		}
		pages++;
		if (pages === 1 && startOver()) continue;

		if (!Array.isArray(page.data)) {
			throw unusableAnswer(node, info, 'the page has no "data" list', request.itemIndex);
		}
		const entries = page.data as unknown[];
		const objects: IDataObject[] = [];
		let fresh = 0;
		for (const entry of entries) {
			if (!isObject(entry)) {
				skipped++;
				continue;
			}
			objects.push(entry);
			const key = keyOf(entry);
			if (key !== undefined) {
				const remembered = idKey(key);
				if (keysSeen.has(remembered)) {
					repeats++;
					continue;
				}
				keysSeen.add(remembered);
			}
			fresh++;
			if (items.length >= limit) continue;
			if (options.keep && !options.keep(entry)) {
				dropped++;
				continue;
			}
			if (items.length >= maxItems) {
				throw capReached(
					`Stopped at ${maxItems.toLocaleString('en-US')} items, the most one run holds.`,
					`${options.maxItemsHint ?? 'Set a Limit, or narrow the filters.'} Nothing is returned, so a partial result is never taken for the whole.`,
				);
			}
			items.push(entry as unknown as T);
		}
		pagesWithoutProgress = fresh === 0 ? pagesWithoutProgress + 1 : 0;

		const next = page.cursor;
		if (isEndCursor(next)) return result(true);
		if (typeof next !== 'string') {
			throw unusableAnswer(node, info, 'the page cursor is not a string', request.itemIndex);
		}
		if (next.length > BOUNDS.maxCursorChars) {
			throw unusableAnswer(
				node,
				info,
				`the page cursor is ${next.length.toLocaleString('en-US')} characters long, too long to send back`,
				request.itemIndex,
			);
		}
		const cursorKey = idKey(next);
		if (cursorsSeen.has(cursorKey) || next === cursor) {
			throw serverFault(
				`SentiOne returned a page cursor it had already returned (after ${pages} pages and ${items.length} items); paging stopped to avoid a loop.`,
			);
		}
		if (pagesWithoutProgress >= BOUNDS.maxPagesWithoutProgress) {
			throw serverFault(
				`SentiOne returned ${pagesWithoutProgress} pages in a row with nothing new (${entries.length === 0 ? 'empty pages' : objects.length === 0 ? 'no records, only entries that are not objects' : 'only items it had already returned'}) under ever-new cursors, after ${pages} pages; paging stopped so as not to loop.`,
			);
		}
		cursorsSeen.add(cursorKey);
		cursor = next;
		if (options.stopAfter && options.stopAfter(objects)) return result(false);
	}
	return result(true);
}
