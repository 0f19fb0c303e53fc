/**
 * The one error mapper: every failure of a SentiOne request becomes a NodeApiError (the API
 * answered) or a NodeOperationError (nothing was sent, or the answer was unusable) whose message
 * says what happened and what to do. Texts taken from a response are redacted so an API key can
 * never travel into an execution, a log or an error workflow.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { plausibleReset, quoted } from './bounds';
import type { EndpointDef, EndpointGroup, EndpointName, Tier } from './contract';
import { CREDENTIAL_ERROR_PREFIX, ENDPOINTS, HOURLY_LIMITS, RATE_LIMIT_MESSAGE_MARKERS } from './contract';
import { clock, formatLocal, readServerInstant } from './time';

const KEY_PATTERN = /[A-Za-z0-9]+-APIKEY-[^\s"',;&]+/g;

/** Removes anything shaped like an API key from a text that came from outside. */
export function redact(text: string): string {
	return text.replace(KEY_PATTERN, '[redacted API key]');
}

export interface RateLimitState {
	group: EndpointGroup;
	limit?: number;
	remaining?: number;
	/** epoch milliseconds */
	resetAt?: number;
}

export type RateLimitKind = 'hourly' | 'concurrent' | 'monthlyCap';

export interface ResponseInfo {
	statusCode: number;
	/** parsed JSON when the body was JSON, else the raw text (possibly cut) */
	body: unknown;
	contentType?: string;
	rateLimit?: RateLimitState;
}

export interface RequestInfo {
	/** the endpoint of the contract's table, when the caller named it */
	endpoint?: EndpointName;
	method: string;
	path: string;
	group: EndpointGroup;
	/** the tier the endpoint needs (D-06), for 401 wording */
	tier: Tier;
	itemIndex?: number;
	/** the workflow's time zone, for the instants in messages */
	zone?: string;
}

/** Extra facts a caller can read back from a mapped error. */
export interface SentiOneErrorDetails {
	statusCode?: number;
	rateLimitKind?: RateLimitKind;
	/** epoch ms when the hourly window resets, when known */
	resetAt?: number;
	fieldErrors?: Record<string, string[]>;
	/** set on errors of a stream that ended other than by a normal close */
	streamInterrupted?: 'dropped' | 'stalled' | 'deadline' | 'oversize';
	/** set when a 404/405 came from a route the specification only announces */
	routeMaybeAbsent?: boolean;
	/** set when SentiOne refused the key the tier of the endpoint */
	tierRefused?: Tier;
}

const DETAILS = Symbol('sentioneErrorDetails');

export function errorDetails(error: unknown): SentiOneErrorDetails | undefined {
	if (error && typeof error === 'object' && DETAILS in error) {
		return (error as { [DETAILS]: SentiOneErrorDetails })[DETAILS];
	}
	return undefined;
}

function attach<T extends object>(error: T, details: SentiOneErrorDetails): T {
	Object.defineProperty(error, DETAILS, { value: details, enumerable: false });
	return error;
}

function serverMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const message = (body as IDataObject).message;
		if (typeof message === 'string' && message.trim() !== '') return redact(message.trim());
	}
	return undefined;
}

/** A short, safe description of a body that is not the API's JSON. */
export function describeBody(body: unknown, contentType?: string): string {
	if (body === undefined || body === null || body === '') return 'an empty body';
	if (typeof body !== 'string') return 'a JSON body without a message';
	const text = body.replace(/\s+/g, ' ').trim();
	const kind = /html/i.test(contentType ?? '') || /^<(!doctype|html)/i.test(text) ? 'an HTML page' : 'a non-JSON body';
	const snippet = text.length > 160 ? `${text.slice(0, 160)}…` : text;
	return `${kind} ("${redact(snippet)}")`;
}

/** An instant for a message: in the workflow's time zone, and how far away it is. */
export function formatInstant(epochMs: number, now = clock.now(), zone = 'UTC'): string {
	const iso = formatLocal(epochMs, zone);
	if (!Number.isFinite(epochMs) || !Number.isFinite(now)) return iso;
	const minutes = Math.round((epochMs - now) / 60000);
	if (minutes <= 0) return `${iso} (now)`;
	if (minutes < 120) return `${iso} (in ${minutes} min)`;
	return `${iso} (in ${Math.round(minutes / 60)} h)`;
}

export function rateLimitKind(message: string | undefined): RateLimitKind {
	if (message && RATE_LIMIT_MESSAGE_MARKERS.monthlyCap.test(message)) return 'monthlyCap';
	if (message && RATE_LIMIT_MESSAGE_MARKERS.concurrent.test(message)) return 'concurrent';
	return 'hourly';
}

/** Reset instant from a 429 body ("Limits will reset at <ISO>." / "resets at <ISO>"), as written. */
function resetFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = /reset(?:s)?(?: will)? at (\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2}))/i.exec(message);
	return match ? readServerInstant(match[1]) : undefined;
}

function maximumFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = /(?:maximum number of (?:requests|concurrent connections) for this endpoint is|cap of) (\d{1,12})\b/i.exec(message);
	return match ? Number(match[1]) : undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

const GROUP_NAMES: Record<EndpointGroup, string> = {
	projects: 'projects API',
	search: 'search',
	tags: 'tagging API',
	export: 'export stream',
	live: 'live stream',
	engagement: 'engagement updates stream',
};

function classify401(message: string | undefined): 'missing' | 'shape' | 'unknown' | 'tier' | undefined {
	if (!message) return undefined;
	const m = message.toLowerCase();
	if (/permission|tier|not allowed|access/.test(m)) return 'tier';
	if (/missing|no api key|not provided/.test(m)) return 'missing';
	if (/prefix|format|shape/.test(m)) return 'shape';
	if (/not recogni[sz]ed|invalid|unknown|not found/.test(m)) return 'unknown';
	return undefined;
}

function fieldErrorsOf(body: unknown): Record<string, string[]> | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const raw = (body as IDataObject).requestFieldErrors;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const out: Record<string, string[]> = {};
	for (const [path, messages] of Object.entries(raw as IDataObject)) {
		const list = Array.isArray(messages) ? messages : [messages];
		out[redact(path)] = list.map((m) => redact(String(m)));
	}
	return out;
}

function apiError(
	node: INode,
	request: RequestInfo,
	response: ResponseInfo,
	message: string,
	description: string,
	details: SentiOneErrorDetails,
): NodeApiError {
	const error = new NodeApiError(
		node,
		{ message, httpCode: String(response.statusCode) } as JsonObject,
		{ message, description, httpCode: String(response.statusCode), itemIndex: request.itemIndex },
	);
	return attach(error, { statusCode: response.statusCode, ...details });
}

/**
 * A key without the tier an operation needs: the headline names the operation and the tier (not
 * "refused the key", which reads like a wrong key), an alternative only where one exists.
 */
function tierRefused(
	node: INode,
	request: RequestInfo,
	response: ResponseInfo,
	def: EndpointDef,
	said: string,
): NodeApiError {
	const basic = def.tier === 'Basic';
	const message = basic
		? `${def.operation} needs API access (SentiOne's Basic tier), and this API key has none (401)`
		: `${def.operation} needs SentiOne's Enterprise tier, and this API key does not have it (401)`;
	const description = `${basic ? 'SentiOne recognises the key but its account has no API tier. Ask your SentiOne account manager to enable API access (Basic or Enterprise).' : `${def.alternative ?? `No operation of the Basic tier does what ${def.operation} does.`} To use ${def.operation}, ask SentiOne for an API key with the Enterprise tier.`} Later operations of this run that need the same tier are refused without a request. (SentiOne: ${said})`;
	return apiError(node, request, response, message, description, { tierRefused: def.tier });
}

/** Refuses, without a request, an operation whose tier SentiOne already refused in this run. */
export function tierKnownRefused(node: INode, request: RequestInfo): NodeApiError | undefined {
	const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
	if (!def) return undefined;
	const error = tierRefused(node, request, { statusCode: 401, body: undefined }, def, 'refused for an earlier operation of this run; nothing was sent this time');
	return error;
}

/** Maps an HTTP answer that is not a success to the error the user sees. */
export function mapHttpError(node: INode, request: RequestInfo, response: ResponseInfo): NodeApiError {
	const { statusCode, body } = response;
	const said = serverMessage(body);
	const saidOrBody = said ?? describeBody(body, response.contentType);
	const where = `${request.method} ${request.path}`;

	switch (statusCode) {
		case 400:
			return apiError(
				node,
				request,
				response,
				`SentiOne rejected the request as malformed (400): ${saidOrBody}`,
				`A field has the wrong format (${where}). Dates must be ISO 8601 in UTC (e.g. 2026-11-21T10:00:00Z); lists must be lists. Correct the field named above and run again.`,
				{},
			);
		case 401: {
			const cause = classify401(said);
			const text: Record<string, string> = {
				missing: 'the request reached SentiOne without an API key. Check that the SentiOne credential has its API key filled in.',
				shape: 'the API key does not have the shape SentiOne expects (a prefix such as SENTIONE-APIKEY- followed by the key). Copy the whole key again from Profile → API.',
				unknown: 'SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential\'s Base URL.',
				tier: `your API key does not have the ${request.tier} tier this operation needs. ${request.tier === 'Enterprise' ? 'This needs the Enterprise tier: ask SentiOne to upgrade the key, or use the Basic-tier alternative (recent search covers the last 7 days).' : 'Ask SentiOne to enable API access for this key.'}`,
			};
			const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
			if (cause === 'tier' && def) return tierRefused(node, request, response, def, saidOrBody);
			const message = cause
				? `SentiOne refused the API key (401): ${text[cause]}`
				: `SentiOne refused the API key (401): ${saidOrBody}`;
			return apiError(
				node,
				request,
				response,
				message,
				`SentiOne gives 401 when the key is missing, is not shaped like <PREFIX>-APIKEY-<key>, is not recognised, or lacks the tier of the endpoint (${where} needs ${request.tier}). Server message: ${saidOrBody}`,
				{},
			);
		}
		case 404:
		case 405: {
			const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
			const namesResource = said !== undefined && /\b(project|mention|tag)\b/i.test(said);
			if (def && !def.confirmed && (statusCode === 405 || !namesResource)) {
				return apiError(
					node,
					request,
					response,
					`${def.operation} is not available on this SentiOne API (${statusCode}): ${saidOrBody}`,
					`${where} is an endpoint SentiOne has announced but its specification does not confirm, and the server answered ${statusCode} without naming a missing ${request.path.includes('/mentions/') && request.endpoint !== 'recentExport' ? 'mention or project' : 'project'}, the way it answers a route it does not offer. Check that your SentiOne deployment offers this operation; if it should, check the credential's Base URL.`,
					{ routeMaybeAbsent: true },
				);
			}
			if (statusCode === 405) {
				return apiError(
					node,
					request,
					response,
					`SentiOne does not accept ${request.method} here (405): ${saidOrBody}`,
					`The server does not offer ${where}. Check the credential's Base URL points at the SentiOne API.`,
					{},
				);
			}
			return apiError(
				node,
				request,
				response,
				`SentiOne could not find what the request names (404): ${saidOrBody}`,
				`Check the project ID or mention ID (${where}); a project must be visible to this API key. If every request gives 404, check the credential's Base URL.`,
				{},
			);
		}
		case 406:
			return apiError(
				node,
				request,
				response,
				`SentiOne refused the requested stream format (406): ${saidOrBody}`,
				'Choose Server-Sent Events or JSON Lines as the stream format.',
				{},
			);
		case 415:
			return apiError(
				node,
				request,
				response,
				`SentiOne refused the request's content type (415): ${saidOrBody}`,
				'Every request must carry Content-Type: application/json. The node sends it; a proxy between n8n and SentiOne may be stripping it.',
				{},
			);
		case 422: {
			const fields = fieldErrorsOf(body) ?? {};
			const lines = Object.entries(fields).map(([path, messages]) => `${path}: ${messages.join('; ')}`);
			const message =
				lines.length > 0
					? `SentiOne rejected ${lines.length === 1 ? 'a value' : `${lines.length} values`} (422) — ${lines.join(' | ')}`
					: `SentiOne rejected a value (422): ${saidOrBody}`;
			return apiError(
				node,
				request,
				response,
				message,
				`Correct the parameter behind each field above and run again. (${where})`,
				{ fieldErrors: fields },
			);
		}
		case 429: {
			const kind = rateLimitKind(said);
			const headerReset = response.rateLimit?.resetAt;
			const written = resetFromMessage(said);
			const now = clock.now();
			// the monthly cap resets weeks ahead; an hourly reset must be plausible for an hourly window
			const bodyReset = kind === 'monthlyCap' ? written : plausibleReset(written, now, 'ms');
			const maximum = maximumFromMessage(said) ?? response.rateLimit?.limit ?? HOURLY_LIMITS[request.group];
			const resetAt = kind === 'monthlyCap' ? bodyReset : (bodyReset ?? headerReset);
			const resetText =
				resetAt !== undefined
					? ` It resets at ${formatInstant(resetAt, now, request.zone)}.`
					: kind === 'monthlyCap'
						? ' It resets on the 1st of next month.'
						: ' SentiOne gave no usable reset time; hourly budgets reset at the top of each hour.';
			let message: string;
			let description: string;
			if (kind === 'monthlyCap') {
				message = `SentiOne's monthly mentions cap is reached (429): at most ${plural(maximum, 'mention')} a month for this key.${resetText}`;
				description = 'The cap covers every endpoint that returns mentions (search, export, live streams) and resets on the 1st of the month. Ask SentiOne about a higher cap.';
			} else if (kind === 'concurrent') {
				message = `Too many open ${GROUP_NAMES[request.group]} connections (429): at most ${plural(maximum, 'connection')} at a time for this key.`;
				description = 'Another workflow (or another n8n instance) holds the stream connections of this key open. Close one, or wait and retry.';
			} else {
				message = `SentiOne's ${GROUP_NAMES[request.group]} budget is used up (429): at most ${plural(maximum, 'request')} an hour for this key.${resetText}`;
				description =
					request.group === 'search'
						? 'Recent search and historical search share one budget of 30 requests an hour per API key, across every workflow using the key. Each page of 25 mentions is one request. Lower the limit, use Export for bulk extraction, or set the rate-limit option to wait for the reset.'
						: `The ${GROUP_NAMES[request.group]} allows ${plural(HOURLY_LIMITS[request.group], 'request')} an hour per API key, shared by every workflow using it.`;
			}
			return apiError(node, request, response, message, description, {
				rateLimitKind: kind,
				resetAt,
			});
		}
		default: {
			const serverSide = statusCode >= 500;
			return apiError(
				node,
				request,
				response,
				serverSide
					? `SentiOne had a server error (${statusCode}): ${saidOrBody}`
					: `SentiOne answered with an unexpected status ${statusCode}: ${saidOrBody}`,
				serverSide
					? `The service failed to handle ${where}. Reads are retried automatically; if this persists, try again later or enable Retry On Fail in the node settings.`
					: `The node does not expect status ${statusCode} from ${where}. Check the credential's Base URL points at the SentiOne API.`,
				{},
			);
		}
	}
}

/** TLS failures in words: what the user has to type or fix, not the library's text. */
function tlsProblem(code: string, text: string): string | undefined {
	if (code === 'EPROTO' || /wrong version number|packet length too long|unknown protocol|http request/i.test(text)) {
		return 'the server at the Base URL does not speak https (TLS). If it is a plain-http server (a local one), type http:// in front of the Base URL; the node adds https:// only when no scheme is typed';
	}
	if (
		/^(CERT_|ERR_TLS_CERT|UNABLE_TO_VERIFY|SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_GET_ISSUER)/.test(code) ||
		/certificate|self[- ]signed/i.test(text)
	) {
		return `the server's TLS certificate is not trusted (${code || 'certificate error'}): the Base URL may point at the wrong host, or the host presents a self-signed or expired certificate`;
	}
	if (/^ERR_SSL_|^ERR_TLS_/.test(code) || /\bssl\b|\btls\b/i.test(text)) {
		return `the secure connection to the Base URL failed (${code || 'TLS error'}); check that the Base URL is the SentiOne host`;
	}
	return undefined;
}

/** A request that never produced an HTTP answer (connection refused, reset, timeout, TLS). */
export function mapNetworkError(node: INode, request: RequestInfo, cause: unknown, attempts: number): NodeApiError {
	const raw = cause as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined;
	const code = String(raw?.code ?? raw?.cause?.code ?? '');
	const text = typeof raw?.message === 'string' ? redact(raw.message) : '';
	const what: Record<string, string> = {
		ECONNREFUSED: 'the connection was refused — nothing listens at the Base URL',
		ECONNRESET: 'the connection was reset by the server',
		ENOTFOUND: 'the host of the Base URL could not be resolved',
		ETIMEDOUT: 'the server did not answer in time',
		ECONNABORTED: 'the server did not answer in time',
		EPIPE: 'the connection broke while sending',
	};
	const tls = tlsProblem(code, text);
	const reason = tls ?? what[code] ?? (text !== '' ? text : 'the request failed before an answer arrived');
	const message = `Could not reach SentiOne: ${reason}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}.`;
	// the code goes under another key: NodeApiError would replace our message with its generic text
	// for a known `code` ("The service refused the connection - perhaps it is offline")
	const error = new NodeApiError(node, { message, networkErrorCode: code } as JsonObject, {
		message,
		description: `${request.method} ${request.path} did not complete. Check the credential's Base URL and the network between n8n and SentiOne.`,
		itemIndex: request.itemIndex,
	});
	return attach(error, {});
}

/** Something about the answer itself is unusable (not JSON, truncated, too large, stalled). */
export function unusableAnswer(node: INode, request: RequestInfo, problem: string, itemIndex?: number): NodeApiError {
	const message = `SentiOne's answer could not be used: ${redact(problem)}`;
	return attach(
		new NodeApiError(node, { message } as JsonObject, {
			message,
			description: `${request.method} ${request.path}. The answer was not the JSON the API documents; nothing from it was used.`,
			itemIndex: itemIndex ?? request.itemIndex,
		}),
		{},
	);
}

/** Bad input found before any request was sent: names the parameter and what was expected. */
export function invalidParameter(node: INode, parameter: string, problem: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, `${parameter}: ${redact(problem)}`, {
		itemIndex,
		description: 'Nothing was sent to SentiOne, so no request budget was used.',
	});
}

/**
 * A value of an options parameter (it may come from an expression): one of `allowed`, or an error
 * naming the parameter — never silently the default.
 */
export function readChoice<T extends string>(
	value: unknown,
	allowed: readonly T[],
	node: INode,
	parameter: string,
	itemIndex?: number,
	what = 'a choice',
): T {
	const text = String(value ?? '');
	if (!(allowed as readonly string[]).includes(text)) {
		throw invalidParameter(node, parameter, `"${text}" is not ${what}. Expected one of: ${allowed.join(', ')}.`, itemIndex);
	}
	return text as T;
}

/** Errors raised by the credential before any request (missing or ill-shaped key, bad Base URL). */
export function credentialProblem(node: INode, error: unknown, itemIndex?: number): NodeOperationError | undefined {
	const message = (error as { message?: unknown })?.message;
	if (typeof message !== 'string') return undefined;
	const at = message.indexOf(CREDENTIAL_ERROR_PREFIX);
	if (at < 0) return undefined;
	return new NodeOperationError(node, redact(message.slice(at)), {
		itemIndex,
		description: 'Open the SentiOne credential and correct it. Nothing was sent to SentiOne.',
	});
}

/** A stream that ended other than by a normal close: dropped or silent. */
export function streamInterrupted(
	node: INode,
	reason: 'dropped' | 'stalled' | 'deadline' | 'oversize',
	detail: string,
	itemIndex?: number,
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		reason === 'stalled'
			? `The SentiOne stream went silent: ${redact(detail)}`
			: reason === 'deadline'
				? `The SentiOne stream took too long: ${redact(detail)}`
				: reason === 'oversize'
					? `The SentiOne stream brought too much data: ${redact(detail)}`
					: `The SentiOne stream broke off before its end: ${redact(detail)}`,
		{
			itemIndex,
			description:
				'The connection was closed. Mentions received before the break were kept; nothing was invented for what was not received.',
		},
	);
	return attach(error, { streamInterrupted: reason });
}

/** Origin (scheme, host, port) of a URL, or undefined. */
function originOf(url: string, base?: string): string | undefined {
	try {
		const parsed = base ? new URL(url, base) : new URL(url);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A 3xx answer. The node follows no redirect (the key goes only to the Base URL's origin), so the
 * answer is refused and the message says where the server wanted to send the request.
 */
export function redirectRefused(
	node: INode,
	request: RequestInfo,
	statusCode: number,
	location: string | undefined,
	apiRoot: string | undefined,
): NodeApiError {
	const target = location === undefined ? undefined : originOf(location, apiRoot);
	const own = apiRoot ? originOf(apiRoot) : undefined;
	let where: string;
	if (location === undefined || location.trim() === '') where = 'without saying where (no Location header)';
	else if (target === undefined) where = `to "${redact(quoted(location))}", which is not an http(s) address`;
	else if (own !== undefined && target === own) where = `to another address on the same host (${target})`;
	else where = `to another origin, ${target}${own ? ` (the Base URL is ${own})` : ''}`;
	const message = `SentiOne answered with a redirect (${statusCode}) ${where}; the node does not follow redirects`;
	const description = `${request.method} ${request.path}. The API key is only ever sent to the origin of the credential's Base URL, so it was not sent anywhere else and the answer was not used.${target && own !== undefined && target !== own ? ` If SentiOne has really moved, and you trust ${target}, change the Base URL to it.` : ' Check the credential\'s Base URL (the SentiOne API answers directly, without redirects).'}`;
	const error = new NodeApiError(node, { message, httpCode: String(statusCode) } as JsonObject, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
	return attach(error, { statusCode });
}

/** Passes node errors through unchanged and wraps anything else, so nothing raw reaches n8n. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = redact(String((error as { message?: unknown })?.message ?? error));
	return new NodeOperationError(node, message, { itemIndex });
}
