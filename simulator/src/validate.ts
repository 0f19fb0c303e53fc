// Request validation. Two stages with different statuses (D-05, D-13): a field of the wrong JSON
// type or an unparsable value is a *format* error (400, checked before the project lookup); a
// well-formed value that is not allowed is a *value* error (422, after the project lookup, all
// offending paths at once). The variant (variants.ts) decides which filters the server reads and
// in what shape; the admin API passes the default variant, so its answers stay D-14's truth.

import {
	BACKFILL_MAX_MINUTES,
	DEFAULT_SORT,
	MENTION_TYPES,
	MSG,
	PROJECT_NAME_MAX_LENGTH,
	RECENT_WINDOW_MS,
	SENTIMENTS,
	SORT_TYPES,
	SOURCE_TYPES,
	TAG_NAME_MAX_LENGTH,
	TAGS_PER_REQUEST_MAX,
	type SortType,
} from './constants.ts';
import { parseQuery, type QueryNode } from './query.ts';
import { FILTER_PATHS, ignored, type VariantConfig } from './variants.ts';

export type FieldErrors = Record<string, string[]>;

export type SearchMode = 'recent' | 'historical' | 'live';

export interface TimeRange {
	from?: number;
	to?: number;
}

export interface Filters {
	publishedAt: TimeRange;
	/** True when publishedAt.from was not given (recent/live: the 7-day default applies). */
	defaultFrom: boolean;
	collectedAt?: TimeRange;
	sourceTypes?: Set<string>;
	types?: Set<string>;
	sentiments?: Set<string>;
	query?: QueryNode;
	languages?: Set<string>;
	countries?: Set<string>;
}

export interface SearchRequest {
	filters: Filters;
	sortType: SortType;
	/** Canonical form of what binds a cursor to this request (D-20). */
	bindKey: string;
}

export interface SearchAnalysis {
	format: string[];
	fields: FieldErrors;
	request?: SearchRequest;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** D-14: ISO 8601 with Z or an offset, seconds required, fractions optional. NaN when invalid. */
export function parseDateTime(s: string): number {
	const m = DATE_TIME.exec(s);
	if (!m) return NaN;
	const [, y, mo, d, h, mi, sec, frac, zone] = m;
	if (+mo < 1 || +mo > 12 || +d < 1 || +h > 23 || +mi > 59 || +sec > 59) return NaN;
	const daysInMonth = new Date(Date.UTC(+y, +mo, 0)).getUTCDate();
	if (+d > daysInMonth) return NaN;
	const ms = frac ? Math.floor(Number('0' + frac) * 1000) : 0;
	let t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, ms);
	if (zone !== 'Z') {
		const sign = zone[0] === '-' ? -1 : 1;
		const [zh, zm] = zone.slice(1).split(':').map(Number);
		if (zh > 23 || zm > 59) return NaN;
		t -= sign * (zh * 60 + zm) * 60_000;
	}
	return t;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sorted-key JSON, so two equal bodies give equal strings. */
export function canonical(v: unknown): string {
	if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
	if (isPlainObject(v)) {
		return (
			'{' +
			Object.keys(v)
				.sort()
				.map((k) => JSON.stringify(k) + ':' + canonical(v[k]))
				.join(',') +
			'}'
		);
	}
	return JSON.stringify(v) ?? 'null';
}

function add(errors: FieldErrors, path: string, message: string): void {
	(errors[path] ??= []).push(message);
}

const DATE_HINT = 'expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z.';
const ISO = (ms: number) => new Date(ms).toISOString();

/** Parse a request body as JSON. `undefined` text means no body at all. */
export function parseBody(
	text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
	if (text.trim() === '') {
		return {
			ok: false,
			message: 'Request body is required: send a JSON object ({} when there are no filters).',
		};
	}
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false, message: 'Request body is not valid JSON.' };
	}
}

/**
 * Analyse a SearchRequest body (search, export streams, live stream, admin count).
 * `now` is the server clock (D-36). A filter the variant ignores is not read at all: the server
 * treats the key as unknown (D-13), so it is neither validated nor applied.
 */
export function analyzeSearch(
	body: unknown,
	mode: SearchMode,
	now: number,
	bindPrefix: string,
	variant: VariantConfig,
): SearchAnalysis {
	const format: string[] = [];
	const fields: FieldErrors = {};
	if (!isPlainObject(body)) {
		return {
			format: ['Request body must be a JSON object ({} when there are no filters).'],
			fields,
		};
	}
	const filters: Filters = { publishedAt: {}, defaultFrom: true };

	// sortType
	let sortType: SortType = DEFAULT_SORT;
	const rawSort = body.sortType;
	if (rawSort !== undefined && rawSort !== null) {
		if (typeof rawSort !== 'string') {
			format.push('sortType: expected a string.');
		} else if (mode === 'live') {
			add(fields, 'sortType', 'sorting is not supported on live streams.');
		} else if (!(SORT_TYPES as readonly string[]).includes(rawSort)) {
			add(fields, 'sortType', enumMessage(rawSort, 'SortType', SORT_TYPES));
		} else {
			sortType = rawSort as SortType;
		}
	}

	const f = body.filters;
	if (f !== undefined && f !== null && !isPlainObject(f))
		format.push('filters: expected an object.');
	const fo = isPlainObject(f) ? f : {};

	const range = (path: string, v: unknown): TimeRange | undefined => {
		if (v === undefined || v === null) return undefined;
		if (!isPlainObject(v)) {
			format.push(`${path}: expected an object such as {"from": "2025-05-22T10:30:00Z"}.`);
			return undefined;
		}
		const out: TimeRange = {};
		for (const end of ['from', 'to'] as const) {
			const raw = v[end];
			if (raw === undefined || raw === null) continue;
			const t = typeof raw === 'string' ? parseDateTime(raw) : NaN;
			if (Number.isNaN(t)) format.push(`${path}.${end}: ${DATE_HINT}`);
			else out[end] = t;
		}
		return out;
	};
	const obj = (path: string, v: unknown): Record<string, unknown> => {
		if (v === undefined || v === null) return {};
		if (!isPlainObject(v)) {
			format.push(`${path}: expected an object.`);
			return {};
		}
		return v;
	};
	const stringArray = (path: string, v: unknown): string[] | undefined => {
		if (v === undefined || v === null) return undefined;
		if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
			format.push(`${path}: expected an array of strings.`);
			return undefined;
		}
		return v as string[];
	};
	// language and country: D-14 objects, or the plain strings of the variants
	const codeArray = (
		key: 'language' | 'country',
		v: unknown,
		example: string,
	): string[] | undefined => {
		const path = FILTER_PATHS[key];
		const shape = variant[key];
		if (v === undefined || v === null || shape === 'ignored') return undefined;
		if (shape === 'objects') {
			if (!Array.isArray(v) || v.some((x) => !isPlainObject(x) || typeof x.code !== 'string')) {
				format.push(`${path}: expected an array of objects such as [{"code": "${example}"}].`);
				return undefined;
			}
			return v.map((x) => (x as { code: string }).code);
		}
		if (!Array.isArray(v) || (shape === 'strings' && v.some((x) => typeof x !== 'string'))) {
			format.push(`${path}: expected an array of strings such as ["${example}"].`);
			return undefined;
		}
		// strings-tolerant: entries it cannot read are dropped silently
		return v.filter((x): x is string => typeof x === 'string');
	};
	// collectedAt: the D-14 range, or one date-time meaning "collected at or after" (string-since)
	const collectedAt = (v: unknown): TimeRange | undefined => {
		if (variant.collectedAt === 'ignored') return undefined;
		if (variant.collectedAt !== 'string-since') return range(FILTER_PATHS.collectedAt, v);
		if (v === undefined || v === null) return undefined;
		const t = typeof v === 'string' ? parseDateTime(v) : NaN;
		if (Number.isNaN(t)) {
			format.push(
				`${FILTER_PATHS.collectedAt}: expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z (collected at or after).`,
			);
			return undefined;
		}
		return { from: t };
	};
	const use = (key: 'sentiment' | 'sourceType' | 'mentionType' | 'publishedAt' | 'query') =>
		!ignored(variant, key);
	const enumSet = (
		path: string,
		values: string[] | undefined,
		allowed: readonly string[],
		name: string,
	): Set<string> | undefined => {
		if (!values || values.length === 0) return undefined;
		for (const v of values)
			if (!allowed.includes(v)) add(fields, path, enumMessage(v, name, allowed));
		return new Set(values);
	};

	const published = use('publishedAt') ? range('filters.publishedAt', fo.publishedAt) : undefined;
	const collected = collectedAt(fo.collectedAt);
	const source = obj('filters.source', fo.source);
	const sourceTypes = use('sourceType')
		? stringArray('filters.source.type', source.type)
		: undefined;
	const types = use('mentionType') ? stringArray('filters.type', fo.type) : undefined;
	const content = obj('filters.content', fo.content);
	const sentiments = use('sentiment')
		? stringArray('filters.content.sentiment', content.sentiment)
		: undefined;
	let query: string | undefined;
	if (use('query') && content.query !== undefined && content.query !== null) {
		if (typeof content.query !== 'string') format.push('filters.content.query: expected a string.');
		else query = content.query;
	}
	const languages = codeArray('language', content.language, 'en');
	const location = obj('filters.location', fo.location);
	const countries = codeArray('country', location.country, 'PL');

	if (format.length) return { format, fields };

	// Values (422).
	filters.sourceTypes = enumSet('filters.source.type', sourceTypes, SOURCE_TYPES, 'SourceType');
	filters.types = enumSet('filters.type', types, MENTION_TYPES, 'MentionType');
	filters.sentiments = enumSet('filters.content.sentiment', sentiments, SENTIMENTS, 'Sentiment');
	if (query !== undefined) {
		const parsed = parseQuery(query);
		if (parsed.ok) filters.query = parsed.ast;
		else add(fields, 'filters.content.query', parsed.error);
	}
	if (languages && languages.length) {
		for (const c of languages) {
			if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(c)) {
				add(
					fields,
					'filters.content.language',
					`"${c}" is not a valid language code: expected ISO 639-1, optionally with a region, such as "en" or "en-gb".`,
				);
			}
		}
		filters.languages = new Set(languages.map((c) => c.toLowerCase()));
	}
	if (countries && countries.length) {
		for (const c of countries) {
			if (!/^[A-Za-z]{2}$/.test(c)) {
				add(
					fields,
					'filters.location.country',
					`"${c}" is not a valid country code: expected ISO 3166-1 alpha-2 such as "PL".`,
				);
			}
		}
		filters.countries = new Set(countries.map((c) => c.toUpperCase()));
	}

	const pub = published ?? {};
	if (pub.from !== undefined && pub.to !== undefined && pub.from >= pub.to) {
		add(fields, 'filters.publishedAt.from', 'must be earlier than filters.publishedAt.to.');
	}
	if (mode === 'recent' || mode === 'live') {
		const floor = now - RECENT_WINDOW_MS;
		if (pub.from !== undefined && pub.from < floor) {
			add(
				fields,
				'filters.publishedAt.from',
				`must not be earlier than 7 days before now (${ISO(floor)}) in recent search.`,
			);
		}
	} else if (pub.from !== undefined && pub.from > now) {
		add(fields, 'filters.publishedAt.from', `must not be in the future (now is ${ISO(now)}).`);
	}
	filters.publishedAt = pub;
	filters.defaultFrom = pub.from === undefined;

	if (collected) {
		const fromPath =
			variant.collectedAt === 'string-since' ? 'filters.collectedAt' : 'filters.collectedAt.from';
		if (
			collected.from !== undefined &&
			collected.to !== undefined &&
			collected.from >= collected.to
		) {
			add(fields, fromPath, 'must be earlier than filters.collectedAt.to.');
		}
		if (collected.from !== undefined && collected.from > now) {
			add(fields, fromPath, `must not be in the future (now is ${ISO(now)}).`);
		}
		filters.collectedAt = collectedBounds(collected, variant.collectedAt);
	}

	const bindKey = canonical({ e: bindPrefix, f: fo, s: sortType });
	return { format, fields, request: { filters, sortType, bindKey } };
}

/**
 * The collectedAt range as the matcher applies it (inclusive from, exclusive to). Times are whole
 * milliseconds, so an exclusive `from` is `from + 1` inclusive; whole-second bounds round up.
 */
function collectedBounds(r: TimeRange, shape: VariantConfig['collectedAt']): TimeRange {
	const out = { ...r };
	if (shape === 'exclusive' && out.from !== undefined) out.from += 1;
	if (shape === 'seconds') {
		if (out.from !== undefined) out.from = Math.ceil(out.from / 1000) * 1000;
		if (out.to !== undefined) out.to = Math.ceil(out.to / 1000) * 1000;
	}
	return out;
}

function enumMessage(value: string, name: string, allowed: readonly string[]): string {
	return `"${value}" is not a valid ${name}. Allowed: ${allowed.join(', ')}.`;
}

/** An optional integer query parameter: format error (400) when it is not an integer. */
export function intParam(raw: string | null, name: string, format: string[]): number | undefined {
	if (raw === null) return undefined;
	if (!/^[+-]?\d+$/.test(raw.trim())) {
		format.push(`${name}: expected an integer.`);
		return undefined;
	}
	return Number(raw.trim());
}

export function checkLimit(limit: number | undefined, fields: FieldErrors): void {
	if (limit !== undefined && limit < 1) add(fields, 'limit', 'must be at least 1.');
}

export function checkBackfill(minutes: number | undefined, fields: FieldErrors): void {
	if (minutes !== undefined && (minutes < 0 || minutes > BACKFILL_MAX_MINUTES)) {
		add(fields, 'backfillMinutes', `must be between 0 and ${BACKFILL_MAX_MINUTES}.`);
	}
}

export type Anonymization = 'author' | 'all' | undefined;

/** D-26, or the variant's reading of it: the parameter ignored, or named `anonymize`. */
export function checkAnonymization(
	query: URLSearchParams,
	variant: VariantConfig['anonymization'],
	fields: FieldErrors,
): Anonymization {
	if (variant === 'ignored') return undefined;
	const name = variant === 'renamed' ? 'anonymize' : 'anonymization';
	const raw = query.get(name);
	if (raw === null) return undefined;
	if (raw === 'author' || raw === 'all') return raw;
	add(fields, name, `"${raw}" is not a valid anonymization level. Allowed: author, all.`);
	return undefined;
}

// --- Projects (D-11) --------------------------------------------------------------------------

export interface ProjectBody {
	format: string[];
	fields: FieldErrors;
	name?: string;
	query?: string;
}

export function analyzeProjectBody(body: unknown): ProjectBody {
	const out: ProjectBody = { format: [], fields: {} };
	if (!isPlainObject(body)) {
		out.format.push('Request body must be a JSON object with the fields "name" and "query".');
		return out;
	}
	for (const key of ['name', 'query'] as const) {
		const v = body[key];
		if (v !== undefined && v !== null && typeof v !== 'string')
			out.format.push(`${key}: expected a string.`);
	}
	if (out.format.length) return out;
	const name = typeof body.name === 'string' ? body.name : undefined;
	const query = typeof body.query === 'string' ? body.query : undefined;
	if (name === undefined) {
		add(out.fields, 'name', body.mame !== undefined ? MSG.mame : 'required.');
	} else if (name.trim() === '') {
		add(out.fields, 'name', 'must not be empty.');
	} else if (name.length > PROJECT_NAME_MAX_LENGTH) {
		add(out.fields, 'name', `must be at most ${PROJECT_NAME_MAX_LENGTH} characters long.`);
	}
	if (query === undefined) {
		add(out.fields, 'query', 'required.');
	} else {
		const parsed = parseQuery(query);
		if (!parsed.ok) add(out.fields, 'query', parsed.error);
	}
	out.name = name;
	out.query = query;
	return out;
}

// --- Tags (D-22) ------------------------------------------------------------------------------

export interface TagsBody {
	format: string[];
	fields: FieldErrors;
	tags: string[];
}

export function analyzeTagsBody(body: unknown): TagsBody {
	const out: TagsBody = { format: [], fields: {}, tags: [] };
	if (!isPlainObject(body)) {
		out.format.push('Request body must be a JSON object such as {"tags": ["complaint"]}.');
		return out;
	}
	const v = body.tags;
	if (v === undefined || v === null) {
		add(out.fields, 'tags', 'required.');
		return out;
	}
	if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
		out.format.push('tags: expected an array of strings.');
		return out;
	}
	const names = (v as string[]).map((s) => s.trim());
	if (names.length === 0 || names.length > TAGS_PER_REQUEST_MAX) {
		add(out.fields, 'tags', `must hold between 1 and ${TAGS_PER_REQUEST_MAX} tag names.`);
	}
	for (const n of names) {
		if (n.length === 0 || n.length > TAG_NAME_MAX_LENGTH) {
			add(
				out.fields,
				'tags',
				`"${n}": a tag name must be 1 to ${TAG_NAME_MAX_LENGTH} characters long.`,
			);
		} else if (n.includes(',')) {
			add(out.fields, 'tags', `"${n}": a tag name must not contain a comma.`);
		}
	}
	out.tags = [...new Set(names)];
	return out;
}
