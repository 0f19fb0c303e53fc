// D-19: the nine sort orders. Ties and null metrics (which sort last) are broken by mention id
// ascending (plain code-unit order), so every order is total and stable. With the variant
// `bigCounts=on` the count orders rank the counts the server writes (bigCounts.ts).

import { bigSortKey, isBigMention } from './bigCounts.ts';
import type { SortType } from './constants.ts';
import type { Rec } from './types.ts';

export type SortKey = number | null;

export interface SortSpec {
	key: (r: Rec) => SortKey;
	descending: boolean;
	/** Name of the cached sorted array of this order (store.sorted). */
	cacheKey: string;
}

const spec = (cacheKey: string, key: (r: Rec) => SortKey, descending: boolean): SortSpec => ({
	key,
	descending,
	cacheKey,
});

export const SORT_SPECS: Record<SortType, SortSpec> = {
	PublishedAtDescending: spec('PublishedAtDescending', (r) => r.pub, true),
	PublishedAtAscending: spec('PublishedAtAscending', (r) => r.pub, false),
	CollectedAtDescending: spec('CollectedAtDescending', (r) => r.col, true),
	CollectedAtAscending: spec('CollectedAtAscending', (r) => r.col, false),
	InfluenceScoreDescending: spec('InfluenceScoreDescending', (r) => r.infl, true),
	EngagementRateDescending: spec('EngagementRateDescending', (r) => r.er, true),
	LikeCountDescending: spec('LikeCountDescending', (r) => r.like, true),
	ShareCountDescending: spec('ShareCountDescending', (r) => r.share, true),
	FollowerCountDescending: spec('FollowerCountDescending', (r) => r.foll, true),
};

/** A count of a mention the variant `bigCounts=on` writes above 2^53, as its sort key. */
const big = (r: Rec, v: number | null): SortKey =>
	v !== null && isBigMention(r.id) ? bigSortKey(v) : v;

/** The count orders under `bigCounts=on`. */
const BIG_SPECS: Partial<Record<SortType, SortSpec>> = {
	LikeCountDescending: spec('LikeCountDescending+big', (r) => big(r, r.like), true),
	ShareCountDescending: spec('ShareCountDescending+big', (r) => big(r, r.share), true),
	FollowerCountDescending: spec('FollowerCountDescending+big', (r) => big(r, r.foll), true),
};

const BY_CACHE_KEY = new Map<string, SortSpec>(
	[...Object.values(SORT_SPECS), ...Object.values(BIG_SPECS)].map((s) => [s.cacheKey, s]),
);

/** The order of a sort type, as the server ranks it under the variant. */
export function sortSpec(sort: SortType, bigCounts: boolean): SortSpec {
	return (bigCounts && BIG_SPECS[sort]) || SORT_SPECS[sort];
}

/** The order a cached sorted array was built in. */
export function specOfCacheKey(cacheKey: string): SortSpec {
	const s = BY_CACHE_KEY.get(cacheKey);
	if (!s) throw new Error(`no sort order ${cacheKey}`);
	return s;
}

/** Cached orders whose key can change after collection (engagement updates). */
export const METRIC_SORTS: string[] = [
	'InfluenceScoreDescending',
	'EngagementRateDescending',
	'LikeCountDescending',
	'ShareCountDescending',
	'FollowerCountDescending',
	...Object.values(BIG_SPECS).map((s) => s.cacheKey),
];

/** Compare two (key, id) positions in the given order: negative when a comes first. */
export function compareKeys(
	spec: SortSpec,
	ak: SortKey,
	aid: string,
	bk: SortKey,
	bid: string,
): number {
	if (ak !== bk) {
		if (ak === null) return 1;
		if (bk === null) return -1;
		return spec.descending ? bk - ak : ak - bk;
	}
	return aid < bid ? -1 : aid > bid ? 1 : 0;
}

export function comparator(spec: SortSpec): (a: Rec, b: Rec) => number {
	return (a, b) => compareKeys(spec, spec.key(a), a.id, spec.key(b), b.id);
}

/** First index whose element comes strictly after (key, id) in the order. */
export function seekAfter(sorted: Rec[], spec: SortSpec, key: SortKey, id: string): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const r = sorted[mid];
		if (compareKeys(spec, spec.key(r), r.id, key, id) <= 0) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Insert a record into an array already in the given order. */
export function insertSorted(sorted: Rec[], spec: SortSpec, rec: Rec): void {
	const at = seekAfter(sorted, spec, spec.key(rec), rec.id);
	sorted.splice(at, 0, rec);
}

/**
 * Insert many records into an array already in the given order: one merge, O(n + k log k), where
 * inserting one by one would move the array k times (a day of live collection in one clock jump).
 */
export function mergeSorted(sorted: Rec[], spec: SortSpec, recs: Rec[]): void {
	if (recs.length < 32) {
		for (const r of recs) insertSorted(sorted, spec, r);
		return;
	}
	const cmp = comparator(spec);
	const add = recs.slice().sort(cmp);
	const old = sorted.slice();
	sorted.length = old.length + add.length;
	let i = 0;
	let j = 0;
	let k = 0;
	while (i < old.length && j < add.length)
		sorted[k++] = cmp(old[i], add[j]) <= 0 ? old[i++] : add[j++];
	while (i < old.length) sorted[k++] = old[i++];
	while (j < add.length) sorted[k++] = add[j++];
}

/** Refresh a record's precomputed keys from its mention object. */
export function refreshKeys(rec: Rec): void {
	const m = rec.m;
	rec.id = m.id;
	rec.pub = Date.parse(m.publishedAt);
	rec.col = Date.parse(m.collectedAt);
	const em = m.engagementMetrics;
	rec.infl = num(em?.influenceScore);
	rec.er = num(em?.engagementRate);
	rec.like = num(em?.sourceMetrics?.common?.likeCount);
	rec.share = num(em?.sourceMetrics?.common?.shareCount);
	rec.foll = num(m.author?.influenceMetrics?.followerCount);
	rec.doc = undefined;
	rec.json = undefined;
	rec.bigJson = undefined;
}

function num(v: unknown): number | null {
	return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
