/**
 * How one check finds the mentions collected since the watermark (the contract module's
 * UNCONFIRMED.collectedAtFilter): with SentiOne's `filters.collectedAt` (the announced filter, D-14)
 * sorted by collection time ascending, or — once SentiOne is seen not to honour that filter — with
 * the confirmed `CollectedAtDescending` sort alone, newest first down to the watermark. Whatever the
 * server returns, a mention older than the scan, below the floor, or not matching the filters is
 * never kept. Also the one newest-first page the first check and a test event read.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SortType } from '../../shared/contract';
import {
	FILTER_FIELDS,
	FILTER_SHAPES,
	route,
	scopedEndpoint,
	SEARCH_REQUEST_FIELDS,
} from '../../shared/contract';
import type { PaginateResult } from '../../shared/pager';
import { paginate } from '../../shared/pager';
import { readServerInstant, toIso } from '../../shared/time';
import type { ApiRequest, SentiOneTransport } from '../../shared/transport';
import { FilterVerifier, withFilterFallback } from '../../shared/verify';
import type { Outcome } from '../../shared/attempt';
import { attempt } from '../../shared/attempt';
import { idAndCollectedAt } from '../common/mentionKey';
import type { PollSettings } from './pollSettings';
import type { PollState, ScanMode } from './pollState';
import { wasSeen } from './watermark';

const ASCENDING: SortType = 'CollectedAtAscending';
const DESCENDING: SortType = 'CollectedAtDescending';
/** New mentions short of the last check's count at which a check stops paging (the tail waits one check). */
const TAIL_SLACK = 2;

export function searchRequest(settings: PollSettings, body: IDataObject): ApiRequest {
	return {
		...route(scopedEndpoint('search', settings.source), settings.projectId),
		body,
		retry: { maxRateLimitWaitMs: 0 },
	};
}

function searchBody(
	filters: IDataObject,
	collectedFrom: number | undefined,
	sort: SortType,
): IDataObject {
	const withRange: IDataObject = { ...filters };
	if (collectedFrom !== undefined) {
		withRange[FILTER_FIELDS.collectedAt] = FILTER_SHAPES.collectedAt(
			toIso(collectedFrom, "the start of the trigger's scan (its watermark)"),
		);
	}
	return { [SEARCH_REQUEST_FIELDS.filters]: withRange, [SEARCH_REQUEST_FIELDS.sortType]: sort };
}

/**
 * The collectedAt sent for a scan that starts at `from`: a whole second earlier, so a server that
 * reads `from` as exclusive, or compares whole seconds, still returns the mentions at `from`; and
 * never ahead of the node's clock (a watermark moved ahead by a mention dated in the future must
 * not make SentiOne refuse the scan as asking for the future, D-18).
 */
export function requestedFrom(from: number, now: number): number {
	return Math.min(Math.floor(from / 1000) * 1000 - 1000, Math.floor(now / 1000) * 1000 - 1000);
}

/** What a round of a backlog belongs to: a change of search, filters or mode starts a new round. */
export function roundKey(settings: PollSettings, mode: ScanMode): string {
	return JSON.stringify({ source: settings.source, filters: settings.filters, mode });
}

/**
 * The newest page of matching mentions, by one request (the first check notes the newest; a test
 * event shows them): filters SentiOne refuses the shape of are left out and applied locally. With
 * `stop`, a 429 is an empty, incomplete page whose `stopped` holds the reset.
 */
export async function newestPage(
	transport: SentiOneTransport,
	settings: PollSettings,
	onRateLimit: 'fail' | 'stop' = 'fail',
) {
	const verifier = new FilterVerifier(settings.filters);
	return await withFilterFallback(
		transport.node,
		searchBody(settings.filters, undefined, DESCENDING),
		async (body) =>
			await paginate<IDataObject>(transport, searchRequest(settings, body), {
				returnAll: true,
				pageBudget: 1,
				onRateLimit,
				keep: verifier.keep,
			}),
	);
}

export interface ScanResult {
	result: PaginateResult<IDataObject>;
	body: IDataObject;
	/** descending: the scan reached below its start (or the end), so the round is done */
	done: boolean;
	/** ascending: SentiOne returned mentions collected before what was asked */
	ignored: boolean;
}

/** One check's scan: where it starts, what it keeps, and when it has read enough. */
export class Scan {
	/**
	 * Mentions the check left for the next one when it stopped paging at the arrival rate (set
	 * when it did).
	 */
	tail: number | undefined;

	constructor(
		private readonly transport: SentiOneTransport,
		private readonly settings: PollSettings,
		private readonly state: PollState,
		private readonly verifier: FilterVerifier,
		/** inclusive collectedAt the scan starts at (epoch ms); undefined: no lower bound */
		readonly from: number | undefined,
		private readonly now: number,
		private readonly pageBudget: number,
	) {}

	/** The body of a scan that starts afresh (not continuing a round) in `mode`, with `filters`. */
	body(mode: ScanMode, filters: IDataObject): IDataObject {
		return mode === 'descending'
			? searchBody(filters, undefined, DESCENDING)
			: searchBody(
					filters,
					this.from === undefined ? undefined : requestedFrom(this.from, this.now),
					ASCENDING,
				);
	}

	async run(
		mode: ScanMode,
		body: IDataObject,
		cursor: string | undefined,
	): Promise<Outcome<ScanResult>> {
		return await attempt(async () =>
			mode === 'descending'
				? await this.descending(body, cursor)
				: await this.ascending(body, cursor),
		);
	}

	/** A mention the scan must not pass on whatever it is: older than the scan or below the floor. */
	private outside(at: number | undefined): boolean {
		const floor = this.state.floor;
		return (
			at !== undefined &&
			((this.from !== undefined && at < this.from) || (floor !== null && at <= floor))
		);
	}

	/**
	 * Whether the check has what it came for: about as many new mentions as recent checks found
	 * (arrivals keep a steady rate), give or take the mentions it read again. That small
	 * tail then waits for the next check, which continues the cursor without reading anything again
	 * — so mentions arriving one page per check cost one request per check, not two. A check that
	 * finds more than the last one did (a burst) keeps paging up to Max Requests per Poll.
	 */
	private enoughForNow(fresh: number, stale: number): boolean {
		const expected = this.state.lastNew;
		if (expected === undefined || fresh === 0) return false;
		// short by no more than the slots mentions read again took; over by no more than the tail
		// the last check left for this one (a burst goes on paging)
		const short = Math.max(TAIL_SLACK, stale);
		if (fresh < expected - short || fresh > expected + Math.max(TAIL_SLACK, this.state.tail ?? 0))
			return false;
		this.tail = Math.max(short, expected - fresh);
		return true;
	}

	private async ascending(body: IDataObject, cursor: string | undefined): Promise<ScanResult> {
		const sent = (
			(body[SEARCH_REQUEST_FIELDS.filters] as IDataObject)?.[
				FILTER_FIELDS.collectedAt
			] as IDataObject
		)?.[FILTER_FIELDS.from];
		const lowest = typeof sent === 'string' ? readServerInstant(sent) : undefined;
		let ignored = false;
		let fresh = 0;
		let stale = 0;
		const result = await paginate<IDataObject>(this.transport, searchRequest(this.settings, body), {
			returnAll: true,
			onRateLimit: 'stop',
			cursor,
			pageBudget: this.pageBudget,
			keep: (mention) => {
				const at = readServerInstant(mention.collectedAt);
				if (lowest !== undefined && at !== undefined && at < lowest) {
					ignored = true;
					return false;
				}
				const kept = !this.outside(at) && this.verifier.keep(mention);
				const { id } = idAndCollectedAt(mention);
				if (kept && id !== undefined) {
					if (wasSeen(this.state, id)) stale++;
					else fresh++;
				}
				return kept;
			},
			stopAfter: () => ignored || this.enoughForNow(fresh, stale),
		});
		return { result, body, done: result.complete, ignored };
	}

	private async descending(body: IDataObject, cursor: string | undefined): Promise<ScanResult> {
		let crossed = false;
		const result = await paginate<IDataObject>(this.transport, searchRequest(this.settings, body), {
			returnAll: true,
			onRateLimit: 'stop',
			cursor,
			pageBudget: this.pageBudget,
			keep: (mention) =>
				!this.outside(readServerInstant(mention.collectedAt)) && this.verifier.keep(mention),
			stopAfter: (page) => {
				crossed = page.some((m) => this.outside(readServerInstant(m.collectedAt)));
				return crossed;
			},
		});
		return { result, body, done: crossed || result.complete, ignored: false };
	}
}
