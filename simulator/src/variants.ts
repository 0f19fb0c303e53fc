// Variants: a family of plausible APIs. Where the spec says "not shown", docs/api-contract.md took
// one decision (D-nn) and the default simulator implements exactly that. Each switch here
// reproduces a legal alternative of one such decision, so test suites can run a client against
// servers that decided otherwise. This module is the one place that holds the switches: the
// config type, the defaults (= the D-nn behaviour), parsing and validation (CLI `--variant` and
// `POST /__admin/variant`), and the documentation table (`--help-variants`, README).
//
// Variants change only the public API. The admin API (ground truth, count) always applies D-14.

import { rethrow } from './http.ts';
import { ANNOUNCED_ROUTES, type RouteName } from './routes.ts';

interface Switch<V extends string> {
	values: readonly V[];
	default: V;
	/** The decision(s) of docs/api-contract.md this switch varies. */
	decision: string;
	/** What a client sees with each value other than the default. */
	sees: string;
}

function choice<const V extends readonly string[]>(
	values: V,
	decision: string,
	sees: string,
): Switch<V[number]> {
	return { values, default: values[0], decision, sees };
}

const IGNORED =
	'`ignored`: the server does not know the key (D-13 tolerant reader): any value is accepted, never a 400 or 422 for it, and nothing is filtered by it';

/** The filters a variant can ignore, and the request path of each. */
export const FILTER_PATHS = {
	collectedAt: 'filters.collectedAt',
	language: 'filters.content.language',
	country: 'filters.location.country',
	sentiment: 'filters.content.sentiment',
	sourceType: 'filters.source.type',
	mentionType: 'filters.type',
	publishedAt: 'filters.publishedAt',
	query: 'filters.content.query',
} as const;
export type FilterKey = keyof typeof FILTER_PATHS;

/** The shorthand `filters=ignored-announced`: the three filters announced on 06.11.2025. */
const ANNOUNCED_FILTERS: FilterKey[] = ['collectedAt', 'language', 'country'];

const codeFilter = (example: string) =>
	choice(
		['objects', 'ignored', 'strings', 'strings-tolerant'],
		'D-14, D-43',
		`${IGNORED}. \`strings\`: the server expects plain strings, \`["${example}"]\`; the D-14 objects (\`[{"code": "${example}"}]\`) → 400 naming the path. \`strings-tolerant\`: plain strings too, but entries it cannot read are dropped silently, so \`[{"code": "${example}"}]\` filters nothing.`,
	);

const applied = (decision: string, extra = '') =>
	choice(['applied', 'ignored'], decision, `${IGNORED}${extra}.`);

export const SWITCHES = {
	collectedAt: choice(
		['range', 'ignored', 'exclusive', 'seconds', 'string-since'],
		'D-14, D-18',
		`${IGNORED}, so older mentions come back. \`exclusive\`: \`from\` is exclusive, so a mention collected exactly at \`from\` is left out. \`seconds\`: the server compares whole seconds: \`from\` and \`to\` with a fraction are rounded up to the next second, so mentions collected in that fraction after \`from\` are missed. \`string-since\`: the server expects \`"collectedAt": "<date-time>"\` (collected at or after); the D-14 object → 400 naming \`filters.collectedAt\`; a future instant → 422 on \`filters.collectedAt\`.`,
	),
	language: codeFilter('en'),
	country: codeFilter('PL'),
	sentiment: applied('D-14'),
	sourceType: applied('D-14'),
	mentionType: applied('D-14'),
	publishedAt: applied('D-14, D-18', '; recent search keeps its default window of the last 7 days'),
	query: applied('D-14, D-15'),
	anonymization: choice(
		['applied', 'ignored', 'renamed'],
		'D-26',
		"`ignored`: the query parameter is accepted whatever its value and ignored: authors in clear. `renamed`: the server's parameter is `anonymize` (values `author`, `all`; another value → 422 on `anonymize`); an `anonymization` parameter is unknown, so ignored: authors in clear.",
	),
	routes: choice(
		['present', 'absent', 'absent:<route>+<route>'],
		'D-11, D-22, D-23, D-34',
		`\`absent\` takes away every route the spec announces but nothing confirms (${ANNOUNCED_ROUTES.map((r) => `\`${r}\``).join(', ')}); \`absent:\` followed by some of them (separated by \`+\` or \`,\`) takes away those. An absent route answers exactly like an unknown path: 404 \`{"message": "Not found."}\`, or 405 with \`Allow\` when another method of the path remains (\`POST /projects\` → 405, \`Allow: GET\`). The live stream and the historical export are confirmed by the reference and never absent.`,
	),
	notFoundMessage: choice(
		['specific', 'generic'],
		'D-21, D-22',
		'`generic`: a missing project or mention → 404 `{"message": "Not Found"}`, naming no resource.',
	),
	authOrder: choice(
		['415-first', '401-first'],
		'D-05, D-37',
		"`401-first`: the 401 checks run before the 415 (and 406) checks: a request without key and without Content-Type → 401; a keyed request with a wrong Content-Type → 415 with the key's real budget in the headers.",
	),
	rateWindow: choice(
		['aligned', 'rolling'],
		'D-07',
		"`rolling`: a key's hourly window for a group starts at its first counted request of the window and lasts one hour; `x-rate-limit-reset` = that start + 1 h in Unix seconds (rounded up), and the 429 message names that instant. Before a window starts, the headers describe one starting now.",
	),
	exportHeartbeats: choice(
		['on', 'off'],
		'D-29',
		'`off`: export streams send no heartbeats (live and engagement streams keep theirs).',
	),
	cursor: choice(
		['keyset', 'offset'],
		'D-20',
		'`offset`: the cursor holds a plain offset into the current result list, so mentions collected between two pages shift the pages (duplicates or gaps), as an offset-based server would do. Still bound to the request; a keyset cursor is invalid (400) here and vice versa.',
	),
	lastCursor: choice(
		['null', 'absent', 'blank', 'whitespace'],
		'D-20, D-10, D-22, D-42',
		'`absent`: the last page omits the `cursor` key instead of `"cursor": null`, in every page envelope (both searches, the project list, the tag list). `blank`: the last page says `"cursor": ""`; `whitespace`: `"cursor": "  "` (two spaces). With `blank` and `whitespace` the server reads a `cursor` query parameter as a value: sending such a cursor back (`?cursor=` or `?cursor=%20%20`) → 400 `cursor is invalid.` like any invalid cursor (where D-42 reads `?cursor=` as no cursor).',
	),
	engagementPayload: choice(
		['full', 'id-only'],
		'D-28',
		'`id-only`: every `engagementUpdate` event (live and backfill) carries only `{"mentionId", "updatedAt"}`, no `engagementMetrics`: a client fetches the figures it needs. The event id stays `<mentionId>:<updatedAt>`; the admin API still answers the full updates.',
	),
	bigCounts: choice(
		['off', 'on'],
		'D-49',
		'`on`: about one mention in eight (chosen by its id, the same ones everywhere) has every non-null count of `engagementMetrics.sourceMetrics.common` (`likeCount`, `shareCount`, `commentCount`, `viewCount`) and `author.influenceMetrics` (`followerCount`, `fanCount`) written as the integer 2^53 + 1 + 2v (v: the ordinary count), e.g. `9007199254740993`, exact in the JSON text, in search pages, exports (SSE and JSON lines), the live stream and engagement updates; a JavaScript number cannot hold it. The count sorts rank those values (above every ordinary count). `GET /__admin/mentions` adds `exactCounts` (path → the exact value as a string) to those mentions.',
	),
};

export type SwitchKey = keyof typeof SWITCHES;
type ValueOf<K extends SwitchKey> = (typeof SWITCHES)[K]['values'][number];

/** The effective variant: every switch with its value. `routes` is in its canonical written form. */
export type VariantConfig = { [K in SwitchKey]: K extends 'routes' ? string : ValueOf<K> };

export const SWITCH_KEYS = Object.keys(SWITCHES) as SwitchKey[];

/** The shorthand keys: they set several switches at once and are not part of the config. */
const SHORTHANDS = {
	filters: {
		values: ['ignored-announced'],
		decision: 'D-14',
		sees: `sets ${ANNOUNCED_FILTERS.map((k) => `\`${k}\``).join(', ')} to \`ignored\` at once.`,
	},
} as const;

/** The default variant: exactly the D-nn decisions. */
export function defaultVariant(): VariantConfig {
	const out: Record<string, string> = {};
	for (const k of SWITCH_KEYS) out[k] = SWITCHES[k].default;
	return out as VariantConfig;
}

export class VariantError extends Error {}

function allowedText(key: SwitchKey | keyof typeof SHORTHANDS): string {
	if (key === 'routes') {
		return `Allowed values: present, absent, or absent:<route>+<route> with routes among ${ANNOUNCED_ROUTES.join(', ')}.`;
	}
	const values = key === 'filters' ? SHORTHANDS.filters.values : SWITCHES[key].values;
	return `Allowed values: ${values.join(', ')}.`;
}

/** `routes`: the canonical written form of a set of absent routes (table order). */
function routesText(absent: ReadonlySet<RouteName>): string {
	if (absent.size === 0) return 'present';
	if (absent.size === ANNOUNCED_ROUTES.length) return 'absent';
	return 'absent:' + ANNOUNCED_ROUTES.filter((r) => absent.has(r)).join('+');
}

function parseRoutes(value: string): string {
	if (value === 'present' || value === 'absent') return value;
	const m = /^absent:(.+)$/.exec(value);
	if (!m)
		throw new VariantError(`variant "routes": "${value}" is not allowed. ${allowedText('routes')}`);
	const absent = new Set<RouteName>();
	for (const name of m[1].split(/[+,]/).map((s) => s.trim())) {
		if (!(ANNOUNCED_ROUTES as string[]).includes(name)) {
			throw new VariantError(
				`variant "routes": "${name}" cannot be absent (it is not a route the spec only announces). ${allowedText('routes')}`,
			);
		}
		absent.add(name as RouteName);
	}
	return routesText(absent);
}

const absentCache = new Map<string, ReadonlySet<RouteName>>();

/** The routes a variant takes away. */
export function absentRoutes(v: VariantConfig): ReadonlySet<RouteName> {
	let set = absentCache.get(v.routes);
	if (!set) {
		const text = v.routes;
		set = new Set(
			text === 'absent'
				? ANNOUNCED_ROUTES
				: text.startsWith('absent:')
					? (text.slice(7).split('+') as RouteName[])
					: [],
		);
		absentCache.set(text, set);
	}
	return set;
}

/** Set one key (a switch or a shorthand) on a config; throws VariantError naming the key. */
function apply(cfg: VariantConfig, key: string, value: unknown): void {
	const known = key in SWITCHES || key in SHORTHANDS;
	if (!known) {
		throw new VariantError(
			`unknown variant key "${key}". Known keys: ${[...SWITCH_KEYS, ...Object.keys(SHORTHANDS)].join(', ')}.`,
		);
	}
	const k = key as SwitchKey | keyof typeof SHORTHANDS;
	if (typeof value !== 'string') {
		throw new VariantError(`variant "${key}" must be a string. ${allowedText(k)}`);
	}
	const v = value.trim();
	if (k === 'filters') {
		if (v !== 'ignored-announced')
			throw new VariantError(`variant "filters": "${v}" is not allowed. ${allowedText(k)}`);
		for (const f of ANNOUNCED_FILTERS) cfg[f] = 'ignored';
		return;
	}
	if (k === 'routes') {
		cfg.routes = parseRoutes(v);
		return;
	}
	if (!(SWITCHES[k].values as readonly string[]).includes(v)) {
		throw new VariantError(`variant "${key}": "${v}" is not allowed. ${allowedText(k)}`);
	}
	(cfg as Record<SwitchKey, string>)[k] = v;
}

/**
 * Split one `--variant` spec, `key=value[,key=value...]`, into pairs. A piece without `=` continues
 * the previous value (so `routes=absent:addTags,removeTags` keeps its list).
 */
export function parseSpec(spec: string): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	for (const piece of spec.split(',').map((s) => s.trim())) {
		if (piece === '') continue;
		const eq = piece.indexOf('=');
		if (eq < 0) {
			const last = pairs[pairs.length - 1];
			if (!last)
				throw new VariantError(
					`variant "${piece}" must be written key=value, e.g. collectedAt=ignored.`,
				);
			last[1] += ',' + piece;
			continue;
		}
		pairs.push([piece.slice(0, eq).trim(), piece.slice(eq + 1).trim()]);
	}
	return pairs;
}

/** The variant of the CLI's `--variant` specs, applied left to right onto the defaults. */
export function variantFromSpecs(specs: string[]): VariantConfig {
	const cfg = defaultVariant();
	for (const spec of specs) for (const [k, v] of parseSpec(spec)) apply(cfg, k, v);
	return cfg;
}

/**
 * Merge an admin POST body (`{"key": "value", ...}`, switches and shorthands, applied in order)
 * into the config. All or nothing: returns an error message and changes nothing when a key or
 * value is bad.
 */
export function mergeVariant(cfg: VariantConfig, input: unknown): string | null {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return 'body must be a JSON object such as {"collectedAt": "ignored"}.';
	}
	const next = { ...cfg };
	try {
		for (const [k, v] of Object.entries(input)) apply(next, k, v);
	} catch (err) {
		if (!(err instanceof VariantError)) rethrow(err);
		return err.message;
	}
	Object.assign(cfg, next);
	return null;
}

/** Whether a filter is ignored by this variant. */
export function ignored(v: VariantConfig, key: FilterKey): boolean {
	return v[key] === 'ignored';
}

/** The documentation table (Markdown): the README's copy must equal it (`--help-variants`). */
export function variantTable(): string {
	const cell = (s: string) => s.replace(/\|/g, '\\|');
	const rows = [
		'| Key | Values | Default | Varies | What a client sees |',
		'|---|---|---|---|---|',
	];
	for (const k of SWITCH_KEYS) {
		const s = SWITCHES[k];
		const path = k in FILTER_PATHS ? ` (\`${FILTER_PATHS[k as FilterKey]}\`)` : '';
		rows.push(
			`| \`${k}\`${path} | ${s.values.map((v) => `\`${v}\``).join(', ')} | \`${s.default}\` | ${s.decision} | ${cell(s.sees)} |`,
		);
	}
	for (const [k, s] of Object.entries(SHORTHANDS)) {
		rows.push(
			`| \`${k}\` (shorthand) | ${s.values.map((v) => `\`${v}\``).join(', ')} | – | ${s.decision} | ${cell(s.sees)} |`,
		);
	}
	return rows.join('\n');
}
