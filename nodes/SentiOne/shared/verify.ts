/**
 * Trust but verify: every filter the node sends is checked again on what comes back (dates, source
 * type, mention type, sentiment, language, country). A mention that lacks the field a filter is on
 * (no country, no language) cannot match it, so it is dropped like one that breaks it. A
 * server that ignores a filter (or reads its shape differently) cannot make the node present
 * mentions that do not match what was asked: they are dropped here and counted per filter, and
 * the caller tells the user once, in words, which filter SentiOne did not apply.
 *
 * The content query is not checked: SentiOne matches it against text the node does not see (the
 * parent post, the author, the domain; "contextual" projects), so a local check could drop
 * mentions SentiOne rightly returned.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { attempt } from './attempt';
import type { UnconfirmedFilter } from './contract';
import {
	FILTER_FIELDS as F,
	FILTER_SHAPES,
	REFUSES_A_FUTURE_DATE,
	SEARCH_REQUEST_FIELDS,
	UNCONFIRMED_FILTERS,
} from './contract';
import { asNodeError, errorDetails } from './errors';
import { BOUNDS } from './bounds';
import { readServerInstant, toIso } from './time';

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
		if (
			current === null ||
			current === undefined ||
			typeof current !== 'object' ||
			Array.isArray(current)
		) {
			return undefined;
		}
		current = (current as IDataObject)[key];
	}
	return current;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A time range check; a mention without a readable instant cannot be in the range. */
function rangeCheck(range: unknown, field: string): Check | undefined {
	if (!isObject(range)) return undefined;
	const from = typeof range[F.from] === 'string' ? readServerInstant(range[F.from]) : undefined;
	const to = typeof range[F.to] === 'string' ? readServerInstant(range[F.to]) : undefined;
	if (from === undefined && to === undefined) return undefined;
	return (mention) => {
		const instant = readServerInstant(mention[field]);
		if (instant === undefined) return false;
		return (from === undefined || instant >= from) && (to === undefined || instant < to);
	};
}

/** A check that a value is one of a list; a mention without the value does not match. */
function oneOf(list: unknown, read: (mention: IDataObject) => unknown): Check | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	const allowed = new Set(list.map(String));
	return (mention) => {
		const value = read(mention);
		return typeof value === 'string' && allowed.has(value);
	};
}

/**
 * Codes ({code} objects or strings), compared exactly apart from case, as D-43 decides: `en` is
 * not `en-gb`. A server that matches `en` to `en-gb` has its extra mentions dropped and the user
 * told, so the output stays what the filter says.
 */
function codeCheck(list: unknown, read: (mention: IDataObject) => unknown): Check | undefined {
	if (!Array.isArray(list) || list.length === 0) return undefined;
	const codes = list
		.map((entry) => (isObject(entry) ? entry[F.code] : entry))
		.filter((code): code is string => typeof code === 'string' && code !== '')
		.map((code) => code.toLowerCase());
	if (codes.length === 0) return undefined;
	const allowed = new Set(codes);
	return (mention) => {
		const value = read(mention);
		return typeof value === 'string' && allowed.has(value.toLowerCase());
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
			['language', codeCheck(content[F.language], (m) => at(m, 'content', 'language', 'code'))],
			['country', codeCheck(location[F.country], (m) => at(m, 'location', 'country', 'code'))],
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

	/**
	 * The filters SentiOne did not apply, worded: `Languages (139 mentions)`; `except` leaves out
	 * filters the node did not send (SentiOne refused their shape: told separately).
	 */
	summary(except: readonly string[] = []): string | undefined {
		const parts = (Object.keys(this.failed) as CheckedFilter[])
			.filter((name) => !except.includes(name))
			.map(
				(name) =>
					`${FILTER_LABELS[name]} (${this.failed[name]} mention${this.failed[name] === 1 ? '' : 's'})`,
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
export function verificationNotice(
	verifier: FilterVerifier,
	spent: string,
	notSent: readonly string[] = [],
): string | undefined {
	const summary = verifier.summary(notSent);
	if (summary === undefined) return undefined;
	return `SentiOne did not apply every filter it was sent: ${verifier.removed} of the ${verifier.checked} mentions it returned did not match and were removed (did not match: ${summary}). The output holds only mentions that match. ${spent}`;
}

/**
 * The unconfirmed filters (contract UNCONFIRMED_FILTERS) a 400 or 422 says SentiOne refused, among
 * those the request carried: named by a field path of the answer, or in its message.
 */
export function refusedFilters(error: unknown, body: IDataObject): UnconfirmedFilter[] {
	const details = errorDetails(error);
	if (details?.statusCode !== 400 && details?.statusCode !== 422) return [];
	const message = String((error as { message?: unknown })?.message ?? '');
	// a value refused for being in the future (D-18) is not a refused shape
	if (details.statusCode === 422 && REFUSES_A_FUTURE_DATE.test(message)) return [];
	const paths = Object.keys(details.fieldErrors ?? {});
	const sent = (body[SEARCH_REQUEST_FIELDS.filters] ?? {}) as IDataObject;
	return (Object.keys(UNCONFIRMED_FILTERS) as UnconfirmedFilter[]).filter((name) => {
		const path = UNCONFIRMED_FILTERS[name].path;
		if (at(sent, ...path.split('.').slice(1)) === undefined) return false;
		return (
			paths.some((p) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`)) ||
			message.includes(path)
		);
	});
}

/** A copy of a SearchRequest body (or a live stream's `{filters}`) without these filters. */
export function withoutFilters(
	body: IDataObject,
	which: readonly UnconfirmedFilter[],
): IDataObject {
	if (which.length === 0) return body;
	const copy = JSON.parse(JSON.stringify(body)) as IDataObject;
	const filters = (copy[SEARCH_REQUEST_FIELDS.filters] ?? {}) as IDataObject;
	for (const name of which) {
		const keys = UNCONFIRMED_FILTERS[name].path.split('.').slice(1);
		let parent: unknown = filters;
		for (const key of keys.slice(0, -1)) parent = isObject(parent) ? parent[key] : undefined;
		if (isObject(parent)) {
			delete parent[keys[keys.length - 1]];
			// an emptied group (content, location) goes too
			if (keys.length > 1 && Object.keys(parent).length === 0) delete filters[keys[0]];
		}
	}
	return copy;
}

/** What the user is told when SentiOne refused the shape of a filter and the node applied it itself. */
export function refusedNotice(which: readonly UnconfirmedFilter[], error: unknown): string {
	const names = which.map((name) => UNCONFIRMED_FILTERS[name].label).join(', ');
	return `SentiOne refused the ${names} filter${which.length === 1 ? '' : 's'} in the shape the node sends (${String((error as Error)?.message ?? error).slice(0, 300)}). The node asked again without ${which.length === 1 ? 'it' : 'them'} and kept only the mentions that match, so the output is what was asked; the refused request and the extra pages count against SentiOne's budget.`;
}

/**
 * Runs a request built from `body`; when SentiOne refuses the shape of an unconfirmed filter it
 * carries, runs it again without that filter (the caller's FilterVerifier, built from the full
 * filters, still applies it to what comes back). `dropped` lists what was left out.
 */
export async function withFilterFallback<T>(
	node: INode,
	body: IDataObject,
	run: (body: IDataObject) => Promise<T>,
	alreadyDropped: readonly UnconfirmedFilter[] = [],
): Promise<{ value: T; dropped: UnconfirmedFilter[]; refusal?: unknown }> {
	let dropped = [...alreadyDropped];
	let refusal: unknown;
	for (;;) {
		const outcome = await attempt(async () => await run(withoutFilters(body, dropped)));
		if (outcome.ok) return { value: outcome.value, dropped, refusal };
		const refused = refusedFilters(outcome.error, withoutFilters(body, dropped));
		if (refused.length === 0) throw asNodeError(node, outcome.error);
		refusal = outcome.error;
		dropped = [...dropped, ...refused];
	}
}

/**
 * The body with `filters.collectedAt` widened by whole seconds on both sides (from rounded down and
 * one second earlier; to rounded up and one second later), so a server that reads the boundary
 * the other way (exclusive from), or compares whole seconds, still returns every mention of the
 * range; the FilterVerifier, built from the exact range, drops what lies outside it.
 */
export function widenCollectedAt(body: IDataObject): IDataObject {
	const filters = body[SEARCH_REQUEST_FIELDS.filters];
	if (!isObject(filters) || !isObject(filters[F.collectedAt])) return body;
	const range = filters[F.collectedAt] as IDataObject;
	const from = typeof range[F.from] === 'string' ? readServerInstant(range[F.from]) : undefined;
	const to = typeof range[F.to] === 'string' ? readServerInstant(range[F.to]) : undefined;
	// widened within the years a request may carry (time.ts toIso): nothing lies beyond them
	const wide = FILTER_SHAPES.collectedAt(
		from === undefined
			? undefined
			: toIso(Math.max(BOUNDS.earliestPlausibleMs, Math.floor(from / 1000) * 1000 - 1000)),
		to === undefined
			? undefined
			: toIso(Math.min(BOUNDS.latestPlausibleMs, Math.ceil(to / 1000) * 1000 + 1000)),
	);
	return { ...body, [SEARCH_REQUEST_FIELDS.filters]: { ...filters, [F.collectedAt]: wide } };
}
