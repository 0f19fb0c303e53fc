/**
 * What requests and answers carry: parameter and field names, enums, lengths, windows and the
 * shapes the specification does not show (D-11 to D-29).
 */
import { DAY_MS, MINUTE_MS } from '../units';
import { JSON_MEDIA_TYPE } from './access';

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

/** D-18 */
export const RECENT_WINDOW_MS = 7 * DAY_MS;
export const RECENT_WINDOW_SAFETY_MARGIN_MS = 5 * MINUTE_MS;

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

/**
 * D-28: the fields of an `engagementUpdate` event's data, and where its counts are: the common
 * counts of an EngagementMetrics (`engagementMetrics.sourceMetrics.common.likeCount` …), as on a
 * mention. Under the variant `engagementPayload=id-only` an update carries only the id and the time.
 */
export const ENGAGEMENT_UPDATE_FIELDS = {
	mentionId: 'mentionId',
	metrics: 'engagementMetrics',
	updatedAt: 'updatedAt',
	/** the path below `metrics` to the common counts */
	commonCounts: ['sourceMetrics', 'common'],
} as const;

/** D-46: the engagement stream follows the mentions published within the last 30 days. */
export const ENGAGEMENT_WINDOW_MS = 30 * DAY_MS;

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

/**
 * D-14, D-43: the codes the language and country filters take, in the case the node sends them:
 * ISO 639-1, optionally with a region (`en`, `en-gb`), lower case; ISO 3166-1 alpha-2, upper case.
 */
export const CODE_FORMATS = {
	language: {
		pattern: /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/,
		normalise: (code: string) => code.toLowerCase(),
	},
	country: { pattern: /^[A-Z]{2}$/, normalise: (code: string) => code.toUpperCase() },
} as const;

/** The filters whose shape is a guess: their request path, and how the user knows them. */
export const UNCONFIRMED_FILTERS = {
	collectedAt: { path: `filters.${FILTER_FIELDS.collectedAt}`, label: 'Collected After / Before' },
	language: {
		path: `filters.${FILTER_FIELDS.content}.${FILTER_FIELDS.language}`,
		label: 'Languages',
	},
	country: {
		path: `filters.${FILTER_FIELDS.location}.${FILTER_FIELDS.country}`,
		label: 'Countries',
	},
} as const;
export type UnconfirmedFilter = keyof typeof UNCONFIRMED_FILTERS;
