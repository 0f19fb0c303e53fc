// D-19: the nine sort orders. Ties and null metrics (which sort last) are broken by mention id
// ascending (plain code-unit order), so every order is total and stable.

import type { SortType } from './constants.ts';
import type { Rec } from './types.ts';

export type SortKey = number | null;

interface SortSpec {
	key: (r: Rec) => SortKey;
	descending: boolean;
}

export const SORT_SPECS: Record<SortType, SortSpec> = {
	PublishedAtDescending: { key: (r) => r.pub, descending: true },
	PublishedAtAscending: { key: (r) => r.pub, descending: false },
	CollectedAtDescending: { key: (r) => r.col, descending: true },
	CollectedAtAscending: { key: (r) => r.col, descending: false },
	InfluenceScoreDescending: { key: (r) => r.infl, descending: true },
	EngagementRateDescending: { key: (r) => r.er, descending: true },
	LikeCountDescending: { key: (r) => r.like, descending: true },
	ShareCountDescending: { key: (r) => r.share, descending: true },
	FollowerCountDescending: { key: (r) => r.foll, descending: true },
};

/** Sorts whose key can change after collection (engagement updates). */
export const METRIC_SORTS: SortType[] = [
	'InfluenceScoreDescending',
	'EngagementRateDescending',
	'LikeCountDescending',
	'ShareCountDescending',
	'FollowerCountDescending',
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

export function comparator(sort: SortType): (a: Rec, b: Rec) => number {
	const spec = SORT_SPECS[sort];
	return (a, b) => compareKeys(spec, spec.key(a), a.id, spec.key(b), b.id);
}

/** First index whose element comes strictly after (key, id) in the order. */
export function seekAfter(sorted: Rec[], sort: SortType, key: SortKey, id: string): number {
	const spec = SORT_SPECS[sort];
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
export function insertSorted(sorted: Rec[], sort: SortType, rec: Rec): void {
	const spec = SORT_SPECS[sort];
	const at = seekAfter(sorted, sort, spec.key(rec), rec.id);
	sorted.splice(at, 0, rec);
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
}

function num(v: unknown): number | null {
	return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
