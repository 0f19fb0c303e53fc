/**
 * The one error mapper: every failure of a SentiOne request becomes a NodeApiError (the API
 * answered) or a NodeOperationError (nothing was sent, or the answer was unusable) whose message
 * says what happened and what to do. Texts taken from a response are redacted so an API key can
 * never travel into an execution, a log or an error workflow.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointGroup, Tier } from './contract';
import { CREDENTIAL_ERROR_PREFIX, HOURLY_LIMITS, RATE_LIMIT_MESSAGE_MARKERS } from './contract';
import { clock } from './time';

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
	method: string;
	path: string;
	group: EndpointGroup;
	/** the tier the endpoint needs (D-06), for 401 wording */
	tier: Tier;
	itemIndex?: number;
}

/** Extra facts a caller can read back from a mapped error. */
export interface SentiOneErrorDetails {
	statusCode?: number;
	rateLimitKind?: RateLimitKind;
	/** epoch ms when the hourly window resets, when known */
	resetAt?: number;
	fieldErrors?: Record<string, string[]>;
	/** set on errors of a stream that ended other than by a normal close */
	streamInterrupted?: 'dropped' | 'stalled';
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

export function formatInstant(epochMs: number, now = clock.now()): string {
	const iso = new Date(epochMs).toISOString();
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

/** Reset instant from a 429 body ("Limits will reset at <ISO>." / "resets at <ISO>") */
function resetFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = /reset(?:s)?(?: will)? at (\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2}))/i.exec(message);
	if (!match) return undefined;
	const time = Date.parse(match[1]);
	return Number.isNaN(time) ? undefined : time;
}

function maximumFromMessage(message: string | undefined): number | undefined {
	if (!message) return undefined;
	const match = /(?:maximum number of (?:requests|concurrent connections) for this endpoint is|cap of) (\d+)/i.exec(message);
	return match ? Number(match[1]) : undefined;
}

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
			return apiError(
				node,
				request,
				response,
				`SentiOne could not find what the request names (404): ${saidOrBody}`,
				`Check the project ID or mention ID (${where}); a project must be visible to this API key. If every request gives 404, check the credential's Base URL.`,
				{},
			);
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
			const bodyReset = resetFromMessage(said);
			const maximum = maximumFromMessage(said) ?? response.rateLimit?.limit ?? HOURLY_LIMITS[request.group];
			const resetAt = kind === 'monthlyCap' ? bodyReset : (bodyReset ?? headerReset);
			const resets: string[] = [];
			if (bodyReset !== undefined) resets.push(`the message says ${formatInstant(bodyReset)}`);
			if (headerReset !== undefined && kind !== 'monthlyCap' && headerReset !== bodyReset) {
				resets.push(`x-rate-limit-reset says ${formatInstant(headerReset)}`);
			}
			const resetText = resets.length > 0 ? ` Resets at: ${resets.join('; ')}.` : '';
			let message: string;
			let description: string;
			if (kind === 'monthlyCap') {
				message = `SentiOne's monthly mentions cap is reached (429): at most ${maximum} mentions a month for this key.${resetText}`;
				description = 'The cap covers every endpoint that returns mentions (search, export, live streams) and resets on the 1st of the month. Ask SentiOne about a higher cap.';
			} else if (kind === 'concurrent') {
				message = `Too many open ${GROUP_NAMES[request.group]} connections (429): at most ${maximum} at a time for this key.`;
				description = 'Another workflow (or another n8n instance) holds the stream connections of this key open. Close one, or wait and retry.';
			} else {
				message = `SentiOne's ${GROUP_NAMES[request.group]} budget is used up (429): at most ${maximum} requests an hour.${resetText}`;
				description =
					request.group === 'search'
						? 'Recent search and historical search share one budget of 30 requests an hour per API key, across every workflow using the key. Each page of 25 mentions is one request. Lower the limit, use Export for bulk extraction, or set the rate-limit option to wait for the reset.'
						: `The ${GROUP_NAMES[request.group]} allows ${HOURLY_LIMITS[request.group]} requests an hour per API key.`;
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
	const reason = what[code] ?? (text !== '' ? text : 'the request failed before an answer arrived');
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
	reason: 'dropped' | 'stalled',
	detail: string,
	itemIndex?: number,
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		reason === 'stalled'
			? `The SentiOne stream went silent: ${redact(detail)}`
			: `The SentiOne stream broke off before its end: ${redact(detail)}`,
		{
			itemIndex,
			description:
				'The connection was closed. Mentions received before the break were kept; nothing was invented for what was not received.',
		},
	);
	return attach(error, { streamInterrupted: reason });
}

/** Passes node errors through unchanged and wraps anything else, so nothing raw reaches n8n. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = redact(String((error as { message?: unknown })?.message ?? error));
	return new NodeOperationError(node, message, { itemIndex });
}
