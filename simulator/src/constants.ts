// The simulator's own reading of the contract: every name, value and message that the spec
// (SentiOne's Listen API v2 specification) and docs/api-contract.md fix, in one place.

export const API_ROOT = '/api/public/v2';

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
export type MentionType = (typeof MENTION_TYPES)[number];

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
export type SourceType = (typeof SOURCE_TYPES)[number];

export const SENTIMENTS = ['Positive', 'Negative', 'Neutral', 'Unspecified'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const AUTHOR_GENDERS = ['Male', 'Female', 'Unspecified'] as const;
export type AuthorGender = (typeof AUTHOR_GENDERS)[number];

export const ATTACHMENT_TYPES = ['Image', 'Video', 'Other'] as const;

/** D-20: page size of both searches (spec). */
export const SEARCH_PAGE_SIZE = 25;
/** D-10: page size of the project list (not shown; our choice). */
export const PROJECT_PAGE_SIZE = 20;
/** D-22: page size of the tag list. */
export const TAG_PAGE_SIZE = 100;
/** Spec: recent search covers the last 7 days. */
export const RECENT_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** D-16 */
export const QUERY_MAX_LENGTH = 250;
/** D-15 */
export const WILDCARD_MIN_PREFIX = 4;
/** D-11 */
export const PROJECT_NAME_MAX_LENGTH = 255;
/** D-22 */
export const TAG_NAME_MAX_LENGTH = 100;
export const TAGS_PER_REQUEST_MAX = 50;
/** D-25 */
export const BACKFILL_MAX_MINUTES = 5;
/** Reference (ENG): engagement updates cover mentions published within the last month (rolling). */
export const ENGAGEMENT_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** D-02: the shape a key must have. The hosted prefix is SENTIONE-APIKEY-. */
export const KEY_SHAPE = /^[A-Z0-9]+-APIKEY-\S+$/;

export type Tier = 'basic' | 'enterprise' | 'noaccess';
export const KEYS: Record<string, Tier> = {
	'SENTIONE-APIKEY-basic-demo': 'basic',
	'SENTIONE-APIKEY-enterprise-demo': 'enterprise',
	'SENTIONE-APIKEY-noaccess-demo': 'noaccess',
};

export type Group = 'projects' | 'search' | 'tags' | 'export' | 'live' | 'engagement';
export const GROUPS: Group[] = ['projects', 'search', 'tags', 'export', 'live', 'engagement'];

/** D-07 */
export const HOURLY_LIMITS: Record<Group, number> = {
	projects: 300,
	search: 30,
	tags: 300,
	export: 5,
	live: 5,
	engagement: 3600,
};
/** D-07; 0 = no concurrency limit. */
export const CONCURRENCY_LIMITS: Record<Group, number> = {
	projects: 0,
	search: 0,
	tags: 0,
	export: 2,
	live: 2,
	engagement: 1,
};
/** D-09 */
export const MONTHLY_CAPS: Record<'basic' | 'enterprise', number> = {
	basic: 10_000,
	enterprise: 100_000_000,
};

export const MSG = {
	// D-03
	keyMissing: 'API key is missing. Send it in the X-API-KEY header.',
	keyShape: 'API key has an invalid format: it must start with the prefix SENTIONE-APIKEY-.',
	keyUnknown: 'API key is not recognised.',
	keyTier: (tier: 'Basic' | 'Enterprise') =>
		`API key does not have permission for this endpoint. It requires the ${tier} tier.`,
	// D-04
	contentType: 'Content-Type must be application/json.',
	// D-27
	accept: 'Accept must be text/event-stream, application/x-ndjson or application/json.',
	// D-08
	hourly: (limit: number, resetIso: string) =>
		`Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is ${limit}. Limits will reset at ${resetIso}.`,
	concurrency: (n: number) =>
		`Maximum number of concurrent connections for this endpoint is ${n}. Close an open stream and try again.`,
	monthly: (cap: number, resetIso: string) =>
		`Monthly mentions cap of ${cap} has been exceeded. The cap resets at ${resetIso}.`,
	// D-12, D-21, D-22, D-34
	projectId: 'projectId must be a positive integer.',
	projectNotFound: (id: number) => `Project ${id} not found.`,
	mentionNotFound: (id: string, projectId: number) =>
		`Mention ${id} not found in project ${projectId}.`,
	notFound: 'Not found.',
	/** variant notFoundMessage=generic: a missing project or mention, no resource named */
	notFoundGeneric: 'Not Found',
	methodNotAllowed: 'Method not allowed.',
	// D-20
	cursorMismatch: 'cursor does not match this request: send the same body as for the first page.',
	cursorInvalid: 'cursor is invalid.',
	validation: 'Request validation failed.',
	// D-11
	mame: 'required (the field is "name"; "mame" is not accepted)',
};
