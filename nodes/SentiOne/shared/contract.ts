/**
 * The API contract as the node reads it: every path, parameter name, enum and limit of the
 * SentiOne Listen API v2 lives here and nowhere else. The decisions behind the values that the
 * specification leaves open are recorded in docs/api-contract.md (ids D-nn); a change by the
 * vendor is one edit in this file.
 */

export const CREDENTIAL_TYPE = 'sentiOneApi';

/** D-01 */
export const DEFAULT_BASE_URL = 'https://sentione.com';
export const API_ROOT_PATH = '/api/public/v2';

/** D-02: the hosted prefix; only the shape is checked locally */
export const API_KEY_HEADER = 'X-API-KEY';
export const HOSTED_KEY_PREFIX = 'SENTIONE-APIKEY-';
export const API_KEY_SHAPE = /^[A-Z0-9]+-APIKEY-\S+$/;
/** Marks errors the credential raises before any request is sent */
export const CREDENTIAL_ERROR_PREFIX = 'SentiOne credential:';

/** D-04 */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * One value in a URL path, kept one segment of the intended route: a project ID must be a positive
 * safe integer; any other value is percent-encoded, and `.`/`..` (which URL normalisation would
 * turn into a move up the path, also when encoded) and the empty string are refused.
 */
export function pathSegment(value: string | number): string {
	if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value < 1) throw new Error(`"${value}" cannot be placed in a request path`);
		return String(value);
	}
	const text = String(value);
	if (text === '' || /^(\.|%2e){1,2}$/i.test(text)) {
		throw new Error(`"${text}" cannot be placed in a request path`);
	}
	return encodeURIComponent(text);
}

const p = pathSegment;

export const PATHS = {
	projects: () => '/projects',
	project: (projectId: number) => `/projects/${p(projectId)}`,
	recentSearch: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search`,
	historicalSearch: (projectId: number) => `/projects/${p(projectId)}/mentions/search`,
	recentExportStream: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search/stream`,
	historicalExportStream: (projectId: number) => `/projects/${p(projectId)}/mentions/search/stream`,
	liveStream: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search/stream/live`,
	engagementStream: () => '/mentions/engagement/updates/stream/live',
	projectTags: (projectId: number) => `/projects/${p(projectId)}/tags`,
	mentionTags: (projectId: number, mentionId: string) => `/projects/${p(projectId)}/mentions/${p(mentionId)}/tags`,
} as const;

/**
 * Every endpoint the node calls: method, rate-limit group (D-07), tier (D-06), whether it is a read
 * (only reads are retried), and whether the specification or the reference confirms the route or
 * only announces it (D-11, D-22, D-23): a 404 or 405 from an announced route may mean this SentiOne
 * API does not offer it, which the error then says instead of blaming an ID.
 */
export type EndpointName =
	| 'listProjects'
	| 'createProject'
	| 'updateProject'
	| 'deleteProject'
	| 'recentSearch'
	| 'historicalSearch'
	| 'recentExport'
	| 'historicalExport'
	| 'liveStream'
	| 'engagementStream'
	| 'listTags'
	| 'addTags'
	| 'removeTags';

export interface EndpointDef {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	group: EndpointGroup;
	tier: Tier;
	read: boolean;
	confirmed: boolean;
	/** the operation as the user knows it */
	operation: string;
	/** what a key without the tier can use instead, when something does */
	alternative?: string;
}

export const ENDPOINTS: Record<EndpointName, EndpointDef> = {
	listProjects: { method: 'GET', group: 'projects', tier: 'Basic', read: true, confirmed: true, operation: 'Project → Get Many' },
	createProject: { method: 'POST', group: 'projects', tier: 'Basic', read: false, confirmed: false, operation: 'Project → Create' },
	updateProject: { method: 'PUT', group: 'projects', tier: 'Basic', read: false, confirmed: false, operation: 'Project → Update' },
	deleteProject: { method: 'DELETE', group: 'projects', tier: 'Basic', read: false, confirmed: false, operation: 'Project → Delete' },
	recentSearch: { method: 'POST', group: 'search', tier: 'Basic', read: true, confirmed: true, operation: 'Mention → Search Recent' },
	historicalSearch: {
		method: 'POST',
		group: 'search',
		tier: 'Enterprise',
		read: true,
		confirmed: true,
		operation: 'Mention → Search Historical',
		alternative: 'With a Basic key, Mention → Search Recent covers the mentions published in the last 7 days.',
	},
	recentExport: { method: 'POST', group: 'export', tier: 'Basic', read: true, confirmed: false, operation: 'Mention → Export (last 7 days)' },
	historicalExport: {
		method: 'POST',
		group: 'export',
		tier: 'Enterprise',
		read: true,
		confirmed: true,
		operation: 'Mention → Export (all time)',
		alternative: 'With a Basic key, Mention → Export with Mentions From: Last 7 Days covers the last 7 days.',
	},
	liveStream: { method: 'POST', group: 'live', tier: 'Basic', read: true, confirmed: true, operation: 'SentiOne Stream Trigger → New Mention' },
	engagementStream: { method: 'POST', group: 'engagement', tier: 'Enterprise', read: true, confirmed: false, operation: 'SentiOne Stream Trigger → Engagement Update' },
	listTags: { method: 'GET', group: 'tags', tier: 'Enterprise', read: true, confirmed: false, operation: 'Tag → Get Many' },
	addTags: { method: 'POST', group: 'tags', tier: 'Enterprise', read: false, confirmed: false, operation: 'Tag → Add' },
	removeTags: { method: 'DELETE', group: 'tags', tier: 'Enterprise', read: false, confirmed: false, operation: 'Tag → Remove' },
};

/** The request fields an endpoint fixes, to spread into a request: `{ ...endpoint('recentSearch'), path, body }`. */
export function endpoint(name: EndpointName): { endpoint: EndpointName } & Omit<EndpointDef, 'confirmed' | 'operation' | 'alternative'> {
	const def = ENDPOINTS[name];
	return { endpoint: name, method: def.method, group: def.group, tier: def.tier, read: def.read };
}

export const QUERY_PARAMS = {
	cursor: 'cursor',
	limit: 'limit',
	backfillMinutes: 'backfillMinutes',
	/** D-26: the reference hides the name */
	anonymization: 'anonymization',
} as const;

/** D-11: the announcement spells it `mame`; we read that as a typo */
export const PROJECT_FIELDS = { name: 'name', query: 'query' } as const;
export const PROJECT_NAME_MAX_LENGTH = 255;
/** D-22 */
export const TAGS_FIELD = 'tags';
export const TAG_NAME_MAX_LENGTH = 100;
export const TAGS_PER_REQUEST_MAX = 50;

/** D-16 (a third-party client's figure) */
export const QUERY_MAX_LENGTH = 250;
/** D-15: the prefix before a trailing `*` */
export const WILDCARD_MIN_PREFIX = 4;

export const PAGE_SIZE = 25;

/** D-18 */
export const RECENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const RECENT_WINDOW_SAFETY_MARGIN_MS = 5 * 60 * 1000;

/** D-25 */
export const BACKFILL_MINUTES_MAX = 5;

/** D-29 */
export const HEARTBEAT_INTERVAL_MS = 15_000;

export const SORT_TYPES = [
	'PublishedAtDescending',
	'PublishedAtAscending',
	'CollectedAtDescending',
	'CollectedAtAscending',
	'InfluenceScoreDescending',
	'EngagementRateDescending',
	'LikeCountDescending',
	'ShareCountDescending',
	'FollowerCountDescending',
] as const;
export type SortType = (typeof SORT_TYPES)[number];
export const DEFAULT_SORT: SortType = 'PublishedAtDescending';

export const MENTION_TYPES = ['Post', 'Comment', 'Article', 'PrivateMessage', 'Share'] as const;
export const SOURCE_TYPES = [
	'Facebook',
	'Websites',
	'Instagram',
	'Forums',
	'X',
	'Blogs',
	'TikTok',
	'Reviews',
	'Reddit',
	'Video',
	'Imported',
	'Other',
] as const;
export const SENTIMENTS = ['Positive', 'Negative', 'Neutral', 'Unspecified'] as const;

/** D-26 */
export const ANONYMIZATION_LEVELS = ['author', 'all'] as const;
export type AnonymizationLevel = (typeof ANONYMIZATION_LEVELS)[number];

/** D-27 */
export const STREAM_ACCEPT = {
	sse: 'text/event-stream',
	jsonLines: 'application/x-ndjson',
} as const;

/**
 * D-27: the response media types the stream reader accepts, by framing (case and parameters such
 * as `; charset=utf-8` ignored). SentiOne answers the first of each list, or `application/json`
 * for JSON lines; the other JSON lines names are what proxies and other servers call the same framing.
 */
export const STREAM_MEDIA_TYPES = {
	sse: [STREAM_ACCEPT.sse],
	jsonLines: [
		STREAM_ACCEPT.jsonLines,
		JSON_MEDIA_TYPE,
		'application/ndjson',
		'application/jsonl',
		'application/x-jsonl',
		'application/jsonlines',
		'application/x-jsonlines',
		'application/json-lines',
		'application/json-seq',
		'application/stream+json',
		'application/x-json-stream',
		'text/x-ndjson',
		'text/ndjson',
	],
} as const;

/** D-28 */
export const EVENT_KINDS = {
	mention: 'mention',
	heartbeat: 'heartbeat',
	engagementUpdate: 'engagementUpdate',
} as const;

/** D-13: the top-level keys of a SearchRequest body (searches and export streams) */
export const SEARCH_REQUEST_FIELDS = { filters: 'filters', sortType: 'sortType' } as const;

/** Filter body paths (D-14), as the API names them */
export const FILTER_FIELDS = {
	publishedAt: 'publishedAt',
	collectedAt: 'collectedAt',
	source: 'source',
	sourceType: 'type',
	mentionType: 'type',
	content: 'content',
	sentiment: 'sentiment',
	query: 'query',
	language: 'language',
	location: 'location',
	country: 'country',
	code: 'code',
	from: 'from',
	to: 'to',
} as const;

/**
 * The value shapes the specification does not show (D-14): built here and nowhere else, so a real
 * SentiOne answer that shows another shape is a one-line change.
 */
export const FILTER_SHAPES = {
	/** `filters.content.language` and `filters.location.country`: objects like the mention's own field */
	code: (code: string) => ({ [FILTER_FIELDS.code]: code }),
	/** `filters.collectedAt`: a TimeRange like publishedAt */
	collectedAt: (from: string | undefined, to?: string) => ({
		...(from !== undefined ? { [FILTER_FIELDS.from]: from } : {}),
		...(to !== undefined ? { [FILTER_FIELDS.to]: to } : {}),
	}),
} as const;

/** The filters whose shape is a guess: their request path, and how the user knows them. */
export const UNCONFIRMED_FILTERS = {
	collectedAt: { path: `filters.${FILTER_FIELDS.collectedAt}`, label: 'Collected After / Before' },
	language: { path: `filters.${FILTER_FIELDS.content}.${FILTER_FIELDS.language}`, label: 'Languages' },
	country: { path: `filters.${FILTER_FIELDS.location}.${FILTER_FIELDS.country}`, label: 'Countries' },
} as const;
export type UnconfirmedFilter = keyof typeof UNCONFIRMED_FILTERS;

/**
 * One place for each guess: every shape the specification leaves "not shown" that the node relies
 * on, the decision it took (docs/api-contract.md), and what the node does when SentiOne turns out
 * to disagree. The matrix suite (test/matrix/) runs the nodes against a simulator that makes each
 * alternative choice (docs/api-contract.md, "The variant matrix").
 */
export const UNCONFIRMED = {
	collectedAtFilter: {
		decision: 'D-14',
		guess: 'filters.collectedAt is a TimeRange {from, to}, from inclusive',
		whenWrong:
			'Ignored or another boundary: every mention outside the range is dropped locally and the user told; the poll trigger requests one second earlier (so an exclusive or whole-second boundary loses nothing) and, when SentiOne returns older mentions or refuses the shape, finds new mentions with the confirmed CollectedAtDescending order instead, once and for good.',
	},
	codeFilters: {
		decision: 'D-14, D-43',
		guess: 'filters.content.language and filters.location.country are lists of {code}',
		whenWrong:
			'Ignored: mentions with another code are dropped locally, the user told once. Refused (400/422 naming the path): the request is sent again without that filter and the filter applied locally, the user told once.',
	},
	anonymizationParameter: {
		decision: 'D-26',
		guess: 'query parameter anonymization=author|all',
		whenWrong:
			'A mention with its author in clear fails the export or stops the stream trigger (default), or has its identifying fields set to null when the user chose Remove Identifying Fields: never passed on as anonymized.',
	},
	announcedRoutes: {
		decision: 'D-11, D-22, D-23',
		guess: 'project create/update/delete, the tag routes, the recent export and the engagement stream at the paths in PATHS',
		whenWrong: 'A 404 or 405 that names no project or mention says the operation is not available on this SentiOne API (ENDPOINTS.confirmed = false).',
	},
	heartbeats: {
		decision: 'D-28, D-29',
		guess: 'heartbeats every 15 s on every stream, as {"date"} or a bare timestamp',
		whenWrong: 'Any complete event keeps a stream alive; an export without heartbeats is judged stalled only after 120 s without any event; the live stream after its Stall Timeout (default 45 s).',
	},
	pagingCursor: {
		decision: 'D-20',
		guess: 'an opaque keyset cursor; null or absent on the last page',
		whenWrong: 'Repeats across pages (an offset cursor) are dropped, pages without progress stop paging, an empty string ends it like null.',
	},
	rateLimitWindow: {
		decision: 'D-07',
		guess: 'hourly windows aligned to the top of the UTC hour',
		whenWrong: 'The reset in x-rate-limit-reset is used when plausible, whatever the window; only an unusable reset falls back to the top of the next hour.',
	},
} as const;

export const RATE_LIMIT_HEADERS = {
	limit: 'x-rate-limit-limit',
	remaining: 'x-rate-limit-remaining',
	reset: 'x-rate-limit-reset',
} as const;

/** D-07: rate-limit groups and their documented budgets */
export type EndpointGroup = 'projects' | 'search' | 'tags' | 'export' | 'live' | 'engagement';
export const HOURLY_LIMITS: Record<EndpointGroup, number> = {
	projects: 300,
	search: 30,
	tags: 300,
	export: 5,
	live: 5,
	engagement: 3600,
};
export const CONCURRENT_STREAMS: Partial<Record<EndpointGroup, number>> = {
	export: 2,
	live: 2,
	engagement: 1,
};

/** D-06 */
export type Tier = 'Basic' | 'Enterprise';

/** D-08: how the kinds of 429 are told apart */
export const RATE_LIMIT_MESSAGE_MARKERS = {
	hourly: /rate limit/i,
	concurrent: /concurrent/i,
	monthlyCap: /monthly mentions cap/i,
} as const;

/**
 * A Base URL as it may be quoted in a message: never a secret. Credentials typed into it
 * (`user:password@`), its query string and fragment are left out, anything shaped like an API key
 * is masked, and a long value is cut.
 */
export function safeBaseUrlText(typed: string): string {
	let text = typed.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]*@/i, '$1[credentials removed]@');
	text = text.replace(/[?#].*$/s, (rest) => (rest.length > 1 ? `${rest[0]}…` : rest));
	text = text.replace(/[A-Za-z0-9]+-APIKEY-\S+/g, '[redacted API key]');
	return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * D-01: turns what the user typed into the API root. Accepts a host, a host with trailing
 * slashes, or the full API root; adds https:// when no scheme is given. Returns an error text
 * instead of a URL when the value cannot be a base URL; the text never repeats a secret typed
 * into the field (credentials, a query string).
 */
export function resolveApiRoot(baseUrl: unknown): { root: string } | { error: string } {
	const raw = typeof baseUrl === 'string' ? baseUrl.trim() : '';
	if (baseUrl !== undefined && baseUrl !== null && typeof baseUrl !== 'string') {
		return { error: `Base URL must be text such as ${DEFAULT_BASE_URL}, not a ${Array.isArray(baseUrl) ? 'list' : typeof baseUrl}.` };
	}
	const typed = raw === '' ? DEFAULT_BASE_URL : raw;
	const shown = safeBaseUrlText(typed);
	const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
	let url: URL;
	try {
		url = new URL(withScheme);
	} catch {
		return { error: `Base URL "${shown}" is not a valid URL. Expected something like ${DEFAULT_BASE_URL}.` };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { error: `Base URL "${shown}" must start with https:// (or http:// for a local server).` };
	}
	if (url.username !== '' || url.password !== '') {
		return {
			error: `Base URL "${shown}" contains a user name or password; remove it. SentiOne authenticates with the API key only, which has its own field.`,
		};
	}
	if (url.search !== '' || url.hash !== '') {
		return { error: `Base URL "${shown}" must be a plain host or API root, without a query string or fragment.` };
	}
	if (/\s/.test(typed)) {
		return { error: `Base URL "${shown}" must not contain spaces.` };
	}
	let path = url.pathname.replace(/\/+$/, '');
	const lower = path.toLowerCase();
	const rootAt = lower.indexOf(API_ROOT_PATH);
	if (rootAt >= 0 && rootAt + API_ROOT_PATH.length < lower.length) {
		const host = `${url.protocol}//${url.host}${path.slice(0, rootAt)}`;
		return {
			error: `Base URL "${shown}" goes beyond the API root (it names an endpoint, ${path.slice(rootAt + API_ROOT_PATH.length)}). Enter only the host, ${host}, or the API root, ${host}${API_ROOT_PATH}.`,
		};
	}
	if (lower.endsWith(API_ROOT_PATH)) {
		path = path.slice(0, -API_ROOT_PATH.length);
	}
	return { root: `${url.protocol}//${url.host}${path}${API_ROOT_PATH}` };
}
