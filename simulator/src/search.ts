// Filtering (D-14), sorting (D-19) and keyset pages with cursors bound to the request (D-20);
// the variant `cursor=offset` pages by a plain offset into the current result list instead.

import { createHash } from 'node:crypto';

import { RECENT_WINDOW_MS, SEARCH_PAGE_SIZE, type SortType } from './constants.ts';
import type { Store } from './data/store.ts';
import { evaluate, makeDoc } from './query.ts';
import { seekAfter, sortSpec, type SortKey } from './sorting.ts';
import type { Project, Rec } from './types.ts';
import type { Filters, SearchMode, SearchRequest } from './validate.ts';

export interface Visibility {
	now: number;
	/** Fault `indexLagMs`: fresh mentions become searchable this long after their collectedAt. */
	indexLagMs: number;
}

/** Whether search can see a record now: collected, and past the index lag when it is fresh. */
export function searchable(r: Rec, v: Visibility): boolean {
	if (r.col > v.now) return false;
	return !r.fresh || v.indexLagMs <= 0 || v.now >= r.col + v.indexLagMs;
}

export function publishedBounds(
	f: Filters,
	mode: SearchMode,
	now: number,
): { from: number; to: number } {
	const from = f.publishedAt.from ?? (mode === 'historical' ? -Infinity : now - RECENT_WINDOW_MS);
	return { from, to: f.publishedAt.to ?? Infinity };
}

/** The filter predicate, without the visibility rule. */
export function matcher(f: Filters, mode: SearchMode, now: number): (r: Rec) => boolean {
	const { from, to } = publishedBounds(f, mode, now);
	const cFrom = f.collectedAt?.from ?? -Infinity;
	const cTo = f.collectedAt?.to ?? Infinity;
	return (r) => {
		if (r.pub < from || r.pub >= to) return false;
		if (r.col < cFrom || r.col >= cTo) return false;
		const m = r.m;
		if (f.sourceTypes && !f.sourceTypes.has(m.source?.type)) return false;
		if (f.types && !f.types.has(m.type)) return false;
		if (f.sentiments && !f.sentiments.has(m.content?.sentiment)) return false;
		if (f.languages) {
			const code = m.content?.language?.code;
			if (!code || !f.languages.has(code.toLowerCase())) return false;
		}
		if (f.countries) {
			const code = m.location?.country?.code;
			if (!code || !f.countries.has(code.toUpperCase())) return false;
		}
		if (f.query) {
			r.doc ??= makeDoc([m.content?.text, m.content?.title]);
			if (!evaluate(f.query, r.doc)) return false;
		}
		return true;
	};
}

// --- cursors ----------------------------------------------------------------------------------

/** Where the next page starts: after a (sort key, id) position, or after n matches (offset). */
export type CursorPos = { key: SortKey; id: string } | { offset: number };
export type CursorMode = 'keyset' | 'offset';

function bindHash(bindKey: string): string {
	return createHash('sha256').update(bindKey).digest('base64url').slice(0, 16);
}

export function encodeCursor(bindKey: string, pos: CursorPos): string {
	const b = bindHash(bindKey);
	const payload = 'offset' in pos ? { b, o: pos.offset } : { b, k: pos.key, i: pos.id };
	return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/**
 * Decode a cursor of the given mode: the position, or 'invalid' / 'mismatch' (both 400, D-20).
 * A cursor of the other mode is invalid.
 */
export function decodeCursor(
	raw: string,
	bindKey: string,
	mode: CursorMode,
): CursorPos | 'invalid' | 'mismatch' {
	if (!/^[A-Za-z0-9_-]+$/.test(raw)) return 'invalid';
	let parsed: unknown;
	try {
		parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
	} catch {
		return 'invalid';
	}
	if (typeof parsed !== 'object' || parsed === null) return 'invalid';
	const { b, k, i, o } = parsed as Record<string, unknown>;
	if (typeof b !== 'string') return 'invalid';
	if (mode === 'offset') {
		if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) return 'invalid';
		if (b !== bindHash(bindKey)) return 'mismatch';
		return { offset: o };
	}
	if (typeof i !== 'string') return 'invalid';
	if (k !== null && (typeof k !== 'number' || !Number.isFinite(k))) return 'invalid';
	if (b !== bindHash(bindKey)) return 'mismatch';
	return { key: k, id: i };
}

// --- scanning ---------------------------------------------------------------------------------

function firstIndex(arr: Rec[], pred: (r: Rec) => boolean): number {
	let lo = 0;
	let hi = arr.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (pred(arr[mid])) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}

/** Slice bounds of the sorted array that can hold matches (binary search on time sorts). */
function scanBounds(
	arr: Rec[],
	sort: SortType,
	f: Filters,
	mode: SearchMode,
	now: number,
): [number, number] {
	const pb = publishedBounds(f, mode, now);
	const cb = {
		from: f.collectedAt?.from ?? -Infinity,
		to: Math.min(f.collectedAt?.to ?? Infinity, now + 1),
	};
	switch (sort) {
		case 'PublishedAtDescending':
			return [firstIndex(arr, (r) => r.pub < pb.to), firstIndex(arr, (r) => r.pub < pb.from)];
		case 'PublishedAtAscending':
			return [firstIndex(arr, (r) => r.pub >= pb.from), firstIndex(arr, (r) => r.pub >= pb.to)];
		case 'CollectedAtDescending':
			return [firstIndex(arr, (r) => r.col < cb.to), firstIndex(arr, (r) => r.col < cb.from)];
		case 'CollectedAtAscending':
			return [firstIndex(arr, (r) => r.col >= cb.from), firstIndex(arr, (r) => r.col >= cb.to)];
		default:
			return [0, arr.length];
	}
}

export interface ScanOptions {
	store: Store;
	project: Project;
	request: SearchRequest;
	mode: SearchMode;
	visibility: Visibility;
	after?: CursorPos;
	/** Variant `bigCounts=on`: the count orders rank the counts the server writes. */
	bigCounts?: boolean;
	/**
	 * Iterate over a copy of the matching range, so inserts while a long export waits for the
	 * client cannot shift the iteration. A page is read synchronously and needs none.
	 */
	snapshot?: boolean;
}

/** Iterate matching, searchable records in sort order, starting after the cursor position. */
export function* scan(o: ScanOptions): Generator<Rec> {
	const sort = o.request.sortType;
	const spec = sortSpec(sort, o.bigCounts === true);
	const now = o.visibility.now;
	const sorted = o.store.sorted(o.project, sort, o.bigCounts === true);
	const [lo, hi] = scanBounds(sorted, sort, o.request.filters, o.mode, now);
	let start = lo;
	let skip = 0;
	if (o.after && 'offset' in o.after) skip = o.after.offset;
	else if (o.after) start = Math.max(start, seekAfter(sorted, spec, o.after.key, o.after.id));
	const arr = o.snapshot ? sorted.slice(start, Math.max(start, hi)) : sorted;
	const end = o.snapshot ? arr.length : hi;
	if (o.snapshot) start = 0;
	const match = matcher(o.request.filters, o.mode, now);
	for (let i = start; i < end; i++) {
		const r = arr[i];
		if (!searchable(r, o.visibility) || !match(r)) continue;
		if (skip > 0) skip--;
		else yield r;
	}
}

export interface Page {
	data: Rec[];
	/** The position after the last mention returned (null when none was). */
	after: CursorPos | null;
	/** Whether another match follows: the page then carries a cursor. */
	more: boolean;
}

/**
 * One page of up to `size` mentions (25, or fewer when the monthly cap cuts it). `more` is false
 * exactly when no further match exists, so N results cost ceil(N/25) requests.
 */
export function page(o: ScanOptions, mode: CursorMode, size = SEARCH_PAGE_SIZE): Page {
	const data: Rec[] = [];
	let more = false;
	for (const r of scan(o)) {
		if (data.length === size) {
			more = true;
			break;
		}
		data.push(r);
	}
	const last = data[data.length - 1];
	let after: CursorPos | null = null;
	if (last && mode === 'offset') {
		after = { offset: (o.after && 'offset' in o.after ? o.after.offset : 0) + data.length };
	} else if (last) {
		after = { key: sortSpec(o.request.sortType, o.bigCounts === true).key(last), id: last.id };
	}
	return { data, after, more };
}

/** Ground truth: how many mentions a search would return in total (admin count). */
export function count(o: ScanOptions): number {
	let n = 0;
	for (const r of scan(o)) {
		void r;
		n++;
	}
	return n;
}
