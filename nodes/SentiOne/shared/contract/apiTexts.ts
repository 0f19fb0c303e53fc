/**
 * What the node reads in SentiOne's texts, kept as data beside the contract module. The
 * specification names the causes of a 401 and the kinds of 429 but not their words (D-03, D-08),
 * so the words the node looks for live here, each under the decision it follows: a SentiOne that
 * words a refusal differently is one edit in this file. Also what servers that are not SentiOne's
 * API answer, by which the credential test tells them apart.
 */
import type { Tier } from './endpoints';
import { HOSTED_KEY_PREFIX } from './access';
import { readServerInstant } from '../time';

/**
 * D-03: the cause of a 401, told by keywords of its message (lower case), tried in this order: a
 * refusal for the tier may also say "invalid", so the tier comes first.
 */
const UNAUTHORIZED_CAUSES = [
	{ cause: 'tier', words: /permission|tier|not allowed|access/ },
	{ cause: 'missing', words: /missing|no api key|not provided/ },
	{ cause: 'shape', words: /prefix|format|shape/ },
	{ cause: 'unknown', words: /not recogni[sz]ed|invalid|unknown|not found/ },
] as const;

export type UnauthorizedCause = (typeof UNAUTHORIZED_CAUSES)[number]['cause'];

/** D-03: SentiOne's own 401 messages (the simulator's), which the credential test recognises word for word. */
export const UNAUTHORIZED_TEXTS = {
	notRecognised: 'API key is not recognised.',
	lacksTier: (tier: Tier) =>
		`API key does not have permission for this endpoint. It requires the ${tier} tier.`,
	badShape: `API key has an invalid format: it must start with the prefix ${HOSTED_KEY_PREFIX}.`,
} as const;

/** D-08: the kinds of 429 other than the hourly budget (any other 429 is hourly), by their message. */
const RATE_LIMIT_KINDS = {
	monthlyCap: /monthly mentions cap/i,
	concurrent: /concurrent/i,
} as const;

export type RateLimitKind = 'hourly' | keyof typeof RATE_LIMIT_KINDS;

/** D-08: the reset a 429 message states ("Limits will reset at <ISO>." / "The cap resets at <ISO>."). */
const RESET_IN_MESSAGE =
	/reset(?:s)?(?: will)? at (\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2}))/i;

/** D-08: the maximum a 429 message states (requests, connections, or the monthly cap). */
const MAXIMUM_IN_MESSAGE =
	/(?:maximum number of (?:requests|concurrent connections) for this endpoint is|cap of) (\d{1,12})\b/i;

/** D-21, D-22: a 404 that names what it did not find: a missing resource, not an absent route. */
export const NAMES_A_RESOURCE = /\b(project|mention|tag)\b/i;

/**
 * D-34: SentiOne's answer, word for word, for a route it does not have (404 `{"message": "Not
 * found."}`): whatever the route, the server does not offer it. Told apart from a missing project
 * or mention, which SentiOne names (D-21, D-22).
 */
export const UNKNOWN_ROUTE_TEXT = 'Not found.';

/** D-08: the words of the hourly 429, which states the budget it spent ("Rate limit of requests …"). */
const HOURLY_BUDGET_TEXT = /\brate limit of requests\b/i;

/** D-18: a 422 that refuses a date for being in the future refuses a value, not a filter's shape. */
export const REFUSES_A_FUTURE_DATE = /\bfuture\b/i;

/** The cause of a 401 by its message; undefined when no keyword matches. */
export function unauthorizedCause(message: string | undefined): UnauthorizedCause | undefined {
	if (!message) return undefined;
	const lower = message.toLowerCase();
	return UNAUTHORIZED_CAUSES.find(({ words }) => words.test(lower))?.cause;
}

export function rateLimitKind(message: string | undefined): RateLimitKind {
	if (message && RATE_LIMIT_KINDS.monthlyCap.test(message)) return 'monthlyCap';
	if (message && RATE_LIMIT_KINDS.concurrent.test(message)) return 'concurrent';
	return 'hourly';
}

/** Whether a 429 message states an hourly budget in SentiOne's words (D-08). */
export function statesHourlyBudget(message: string | undefined): boolean {
	return message !== undefined && HOURLY_BUDGET_TEXT.test(message);
}

/** The reset instant (epoch ms) a 429 message states, as written; undefined when it states none. */
export function resetFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = RESET_IN_MESSAGE.exec(message);
	return match ? readServerInstant(match[1]) : undefined;
}

/** The maximum a 429 message states; undefined when it states none. */
export function maximumFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = MAXIMUM_IN_MESSAGE.exec(message);
	return match ? Number(match[1]) : undefined;
}

/**
 * What a server that is not SentiOne's API tends to answer for GET …/api/public/v2/projects, and
 * how the credential test says so: [field of the answer, its value, "answered …"]. An answer that is text,
 * not JSON, is matched by its first character ("0") or its length.
 */
export const ANSWERS_OF_OTHER_SERVERS: Array<[string, string | number, string]> = [
	[
		'message',
		'Not found.',
		'404 (Not found.) for the project list: there is no SentiOne Listen API v2 at this address.',
	],
	[
		'message',
		'Not Found',
		'404 (Not Found) for the project list: there is no SentiOne Listen API v2 at this address.',
	],
	[
		'status',
		404,
		'404 (Not Found) for the project list: it runs an API, but not SentiOne Listen API v2 at this address.',
	],
	[
		'error',
		'Not Found',
		'404 (Not Found) for the project list: it runs an API, but not SentiOne Listen API v2 at this address.',
	],
	[
		'status',
		405,
		'405 (Method Not Allowed) for the project list: it runs an API, but not SentiOne Listen API v2 at this address.',
	],
	[
		'status',
		401,
		"401 with an error of another API (not one of SentiOne's texts): the address is not SentiOne Listen API v2.",
	],
	[
		'status',
		403,
		'403 (Forbidden): a proxy, a firewall or another API refused the request before SentiOne saw it.',
	],
	[
		'status',
		500,
		"500 (Internal Server Error) in another API's format: the address is not SentiOne Listen API v2, or the server is failing.",
	],
	[
		'status',
		502,
		'502 (Bad Gateway): a proxy in front of the address could not reach its server; try again later.',
	],
	[
		'status',
		503,
		'503 (Service Unavailable): the server is down or in maintenance; try again later.',
	],
	[
		'status',
		504,
		'504 (Gateway Timeout): a proxy in front of the address got no answer in time; try again later.',
	],
	[
		'0',
		'<',
		"with an HTML page, not with SentiOne's API (a website, a sign-in page, or a proxy's error page).",
	],
	['length', 0, "with an empty body, not with SentiOne's project list."],
];
