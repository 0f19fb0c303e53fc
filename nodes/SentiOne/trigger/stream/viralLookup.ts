/**
 * How a viral alert finds its mention (docs/alerts.md, "Viral Mention"): an engagement update
 * carries no link (D-28) and the API has no get-mention-by-id, so the mention is looked for in the
 * chosen project by one historical search sorted by the count that fired (LikeCountDescending,
 * ShareCountDescending; comments and views have no order of their own: the likes order, or the
 * shares order when the update carries no likes), over the mentions published within the
 * engagement window (D-46), reading at most LOOKUP.maxPages pages. Sorted so, the page also
 * shows when the mention is not in the project: once the order reaches counts well below its own,
 * every mention of the project with its count was read.
 *
 * Every request counts against a cap of searches in any hour (LookupCap), saved with the alerts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { SortType } from '../../shared/contract';
import {
	ENGAGEMENT_WINDOW_MS,
	FILTER_FIELDS,
	route,
	SEARCH_REQUEST_FIELDS,
} from '../../shared/contract';
import { paginate } from '../../shared/pager';
import { idKey } from '../../shared/text';
import { toIso } from '../../shared/time';
import type { ApiRequest, SentiOneTransport } from '../../shared/transport';
import { HOUR_MS } from '../../shared/units';
import type { Metric } from '../alerts/viral';

export const LOOKUP = {
	/** pages one look-up (or one order of a round) reads at most */
	maxPages: 2,
	/**
	 * The order proves a mention absent once it reaches counts below this share of the mention's
	 * own: room for a search index a little behind the update, or a count that fell since.
	 */
	absentBelow: 0.5,
	/** read a little beyond the engagement window (a mention on its edge, clocks apart) */
	windowMarginMs: HOUR_MS,
} as const;

/** The counts SentiOne sorts by, and their orders (D-19). */
export type SortedMetric = 'likeCount' | 'shareCount';
export const METRIC_ORDERS: Record<SortedMetric, SortType> = {
	likeCount: 'LikeCountDescending',
	shareCount: 'ShareCountDescending',
};
/** How an order is named in an item's words. */
export const ORDER_WORDS: Record<SortedMetric, string> = {
	likeCount: 'most liked first',
	shareCount: 'most shared first',
};

/** The order a look-up reads, and the mention's count in it (what proves it absent), when known. */
export interface LookupOrder {
	by: SortedMetric;
	value?: number;
}

/**
 * The order for a mention whose `metric` fired with these `figures`: that count's own order; for
 * comments and views (no order of their own) the likes order, or the shares order when the update
 * carries shares but no likes.
 */
export function lookupOrder(metric: Metric, figures: Partial<Record<Metric, number>>): LookupOrder {
	if (metric === 'likeCount' || metric === 'shareCount')
		return { by: metric, value: figures[metric] };
	if (figures.likeCount === undefined && figures.shareCount !== undefined)
		return { by: 'shareCount', value: figures.shareCount };
	return { by: 'likeCount', value: figures.likeCount };
}

/** The search of a look-up: the project's mentions of the engagement window, in the order. */
export function lookupRequest(
	projectId: number,
	by: SortedMetric,
	now: number,
	signal?: AbortSignal,
): ApiRequest {
	return {
		...route('historicalSearch', projectId),
		body: {
			[SEARCH_REQUEST_FIELDS.filters]: {
				[FILTER_FIELDS.publishedAt]: {
					[FILTER_FIELDS.from]: toIso(now - ENGAGEMENT_WINDOW_MS - LOOKUP.windowMarginMs),
				},
			},
			[SEARCH_REQUEST_FIELDS.sortType]: METRIC_ORDERS[by],
		},
		retry: { maxRateLimitWaitMs: 0 },
		signal,
	};
}

/** A count of a mention as a search returns it (Simplify's path), or undefined. */
export function countOf(mention: IDataObject, metric: Metric): number | undefined {
	const common = (
		(mention.engagementMetrics as IDataObject | undefined)?.sourceMetrics as IDataObject | undefined
	)?.common as IDataObject | undefined;
	const value = common?.[metric];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The id of a mention a search returned, in the form ids are remembered. */
export function rowId(mention: IDataObject): string | undefined {
	const id = mention.id;
	if (typeof id === 'string' && id !== '') return idKey(id);
	if (typeof id === 'number' && Number.isFinite(id)) return idKey(String(id));
	return undefined;
}

/** What reading an order found. */
export interface OrderRead {
	mentions: IDataObject[];
	requests: number;
	/** the order was read to its end (nothing more to find) */
	ended: boolean;
	/** the key's search budget is spent (until then, when SentiOne said) */
	budgetSpent?: { resetAt?: number };
}

/**
 * Reads the project's mentions in the order, at most `pages` pages, stopping after the page for
 * which `enough` says later pages cannot matter. A spent search budget stops it without an error
 * (nothing is waited for); any other failure is thrown.
 */
export async function readOrder(
	transport: SentiOneTransport,
	request: ApiRequest,
	pages: number,
	enough: (read: IDataObject[]) => boolean,
): Promise<OrderRead> {
	const read: IDataObject[] = [];
	const result = await paginate<IDataObject>(transport, request, {
		returnAll: true,
		onRateLimit: 'stop',
		pageBudget: Math.max(1, pages),
		stopAfter: (page) => {
			read.push(...page);
			return enough(read);
		},
	});
	return {
		mentions: result.items,
		requests: result.requests,
		ended: result.complete,
		budgetSpent: result.stopped ? { resetAt: result.stopped.resetAt } : undefined,
	};
}

/** The lowest count of `by` among the mentions read (the order's reach), or undefined. */
export function reachOf(mentions: IDataObject[], by: SortedMetric): number | undefined {
	const last = mentions[mentions.length - 1];
	return last === undefined ? undefined : (countOf(last, by) ?? 0);
}

export type Verdict = 'found' | 'absent' | 'unknown';

/**
 * What the mentions read say of `id`: found; absent (the order ended, or reached counts below
 * LOOKUP.absentBelow of the mention's own, without it); or unknown.
 */
export function verdictOf(
	id: string,
	order: LookupOrder,
	read: Pick<OrderRead, 'mentions' | 'ended'>,
): { verdict: Verdict; mention?: IDataObject } {
	const key = idKey(id);
	const mention = read.mentions.find((m) => rowId(m) === key);
	if (mention) return { verdict: 'found', mention };
	if (read.ended) return { verdict: 'absent' };
	const reach = reachOf(read.mentions, order.by);
	if (order.value !== undefined && reach !== undefined && reach < order.value * LOOKUP.absentBelow)
		return { verdict: 'absent' };
	return { verdict: 'unknown' };
}

/**
 * The search requests of the last hour, against a cap: what the look-ups may still spend now, and
 * when the next one may be sent. Saved with the alerts, so a restart does not reset it.
 */
export class LookupCap {
	private spent: number[];

	constructor(
		readonly perHour: number,
		spent: unknown = [],
	) {
		this.spent = Array.isArray(spent)
			? spent
					.filter((t): t is number => typeof t === 'number' && Number.isFinite(t))
					.sort((a, b) => a - b)
					.slice(-perHour)
			: [];
	}

	private recent(now: number): number[] {
		this.spent = this.spent.filter((t) => t > now - HOUR_MS && t <= now + HOUR_MS);
		return this.spent;
	}

	/** Requests the cap allows now. */
	available(now: number): number {
		return Math.max(0, this.perHour - this.recent(now).length);
	}

	/** `count` requests were sent now. */
	spend(now: number, count: number): void {
		for (let k = 0; k < count; k++) this.spent.push(now);
	}

	/** When the next request is allowed (now, when one is). */
	nextAt(now: number): number {
		const recent = this.recent(now);
		if (recent.length < this.perHour) return now;
		return recent[recent.length - this.perHour] + HOUR_MS;
	}

	/** Requests spent in the last hour. */
	spentInHour(now: number): number {
		return this.recent(now).length;
	}

	snapshot(): number[] {
		return [...this.spent];
	}
}
