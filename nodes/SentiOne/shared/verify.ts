/**
 * Trust but verify: every filter the node sends is checked again on what comes back, wherever the
 * mention carries the field (dates, source type, mention type, sentiment, language, country). A
 * server that ignores a filter (or reads its shape differently) cannot make the node present
 * mentions that do not match what was asked: they are dropped here and counted per filter, and
 * the caller tells the user once, in words, which filter SentiOne did not apply.
 *
 * The content query is not checked: SentiOne matches it against text the node does not see (the
 * parent post, the author, the domain; "contextual" projects), so a local check could drop
 * mentions SentiOne rightly returned.
 */
import type { IDataObject } from 'n8n-workflow';

import { FILTER_FIELDS as F } from './contract';
import { readServerInstant } from './time';

/** The filter names as the user sees them (the Filters collection), keyed by what was checked. */
export const FILTER_LABELS = {
	publishedAt: 'Published After / Before',
	collectedAt: 'Collected After / Before',
	sourceType: 'Source Types',
	mentionType: 'Mention Types',
	sentiment: 'Sentiments',
	language: 'Languages',
	country: 'Countries',
} as const;

export type CheckedFilter = keyof typeof FILTER_LABELS;

type Check = (mention: IDataObject) => boolean;

function at(value: unknown, ...path: string[]): unknown {
	let current = value;
	for (const key of path) {
		if (current === null || current === undefined || typeof current !== 'object' || Array.isArray(current)) {
			return undefined;
		}
		current = (current as IDataObject)[key];
	}
	return current;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A time range check; a mention without a readable instant passes (nothing to check). */
function rangeCheck(range: unknown, field: string): Check | undefined {
	if (!isObject(range)) return undefined;
	const from = typeof range[F.from] === 'string' ? readServerInstant(range[F.from]) : undefined;
	const to = typeof range[F.to] === 'string' ? readServerInstant(range[F.to]) : undefined;
	if (from === undefined && to === undefined) return undefined;
	return (mention) => {
		const instant = readServerInstant(mention[field]);
		if (instant === undefined) return true;
		return (from === undefined || instant >= from) && (to === undefined || instant < to);
	};
}

/** A check that a value is one of a list; a mention without the value passes. */
function oneOf(list: unknown, read: (mention: IDataObject) => unknown): Check | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	const allowed = new Set(list.map(String));
	return (mention) => {
		const value = read(mention);
		return value === undefined || value === null || allowed.has(String(value));
	};
}

/** Codes ({code} objects or strings), compared case-insensitively; `en` also accepts `en-gb`. */
function codeCheck(list: unknown, read: (mention: IDataObject) => unknown, regional: boolean): Check | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	const codes = list
		.map((entry) => (isObject(entry) ? entry[F.code] : entry))
		.filter((code): code is string => typeof code === 'string' && code !== '')
		.map((code) => code.toLowerCase());
	if (codes.length === 0) return undefined;
	const allowed = new Set(codes);
	return (mention) => {
		const value = read(mention);
		if (typeof value !== 'string' || value === '') return true;
		const code = value.toLowerCase();
		if (allowed.has(code)) return true;
		return regional && code.includes('-') && allowed.has(code.slice(0, code.indexOf('-')));
	};
}

/**
 * Checks mentions against the API `filters` object the node sent and counts, per filter, the
 * mentions that did not match.
 */
export class FilterVerifier {
	/** mentions dropped, per filter (a mention failing two filters counts for both) */
	readonly failed: Partial<Record<CheckedFilter, number>> = {};

	/** mentions checked, and mentions dropped */
	checked = 0;

	removed = 0;

	private readonly checks: Array<[CheckedFilter, Check]>;

	constructor(filters: IDataObject | undefined) {
		const f = filters ?? {};
		const source = isObject(f[F.source]) ? (f[F.source] as IDataObject) : {};
		const content = isObject(f[F.content]) ? (f[F.content] as IDataObject) : {};
		const location = isObject(f[F.location]) ? (f[F.location] as IDataObject) : {};
		const candidates: Array<[CheckedFilter, Check | undefined]> = [
			['publishedAt', rangeCheck(f[F.publishedAt], 'publishedAt')],
			['collectedAt', rangeCheck(f[F.collectedAt], 'collectedAt')],
			['sourceType', oneOf(source[F.sourceType], (m) => at(m, 'source', 'type'))],
			['mentionType', oneOf(f[F.mentionType], (m) => m.type)],
			['sentiment', oneOf(content[F.sentiment], (m) => at(m, 'content', 'sentiment'))],
			['language', codeCheck(content[F.language], (m) => at(m, 'content', 'language', 'code'), true)],
			['country', codeCheck(location[F.country], (m) => at(m, 'location', 'country', 'code'), false)],
		];
		this.checks = candidates.filter((c): c is [CheckedFilter, Check] => c[1] !== undefined);
	}

	/** True when nothing is checked (no filter that a mention could contradict). */
	get empty(): boolean {
		return this.checks.length === 0;
	}

	/** True when the mention matches every filter sent; otherwise counts it and returns false. */
	keep = (mention: IDataObject): boolean => {
		if (this.checks.length === 0) return true;
		this.checked++;
		let ok = true;
		for (const [name, check] of this.checks) {
			if (!check(mention)) {
				this.failed[name] = (this.failed[name] ?? 0) + 1;
				ok = false;
			}
		}
		if (!ok) this.removed++;
		return ok;
	};

	/** The filters SentiOne did not apply, worded: `Languages (139 mentions)`. */
	summary(): string | undefined {
		const parts = (Object.keys(this.failed) as CheckedFilter[]).map(
			(name) => `${FILTER_LABELS[name]} (${this.failed[name]} mention${this.failed[name] === 1 ? '' : 's'})`,
		);
		return parts.length > 0 ? parts.join(', ') : undefined;
	}

	/** Adds another verifier's counts (one notice for several searches of one execution). */
	absorb(other: FilterVerifier): void {
		this.checked += other.checked;
		this.removed += other.removed;
		for (const [name, count] of Object.entries(other.failed) as Array<[CheckedFilter, number]>) {
			this.failed[name] = (this.failed[name] ?? 0) + count;
		}
	}
}

/**
 * The notice for the user: which filters SentiOne did not apply, how many mentions were removed,
 * and that the requests that fetched them were spent all the same.
 */
export function verificationNotice(verifier: FilterVerifier, spent: string): string | undefined {
	const summary = verifier.summary();
	if (summary === undefined) return undefined;
	return `SentiOne did not apply every filter it was sent: ${verifier.removed} of the ${verifier.checked} mentions it returned did not match and were removed (did not match: ${summary}). The output holds only mentions that match. ${spent}`;
}
