/**
 * Failures without an answer to map: a request that never got one (network, TLS), an answer that
 * cannot be used (not JSON, too large, stalled), a stream that broke off, a redirect the node
 * refuses to follow, and the credential's own refusals before anything was sent. Each declares why
 * it failed (failure.ts): no answer, a broken one or a silent stream may pass
 * (`temporarily-unavailable`); a Base URL without TLS, a redirect and a cap the user set need
 * someone to act (`configuration-invalid`); the credential's refusals are the key's
 * (`credential-invalid`).
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { quoted } from '../text';
import { CREDENTIAL_ERROR_PREFIX } from '../contract';
import type { RequestInfo } from './details';
import { attach, redact } from './details';
import { declareFailure, FAILURES } from './failure';

/** A TLS failure that says the server at the Base URL speaks plain http: the Base URL needs http://. */
function plainHttpServer(code: string, text: string): boolean {
	return (
		code === 'EPROTO' ||
		/wrong version number|packet length too long|unknown protocol|http request/i.test(text)
	);
}

/** TLS failures in words: what the user has to type or fix, not the library's text. */
function tlsProblem(code: string, text: string): string | undefined {
	if (plainHttpServer(code, text)) {
		return 'the server at the Base URL does not speak https (TLS). If it is a plain-http server (a local one), type http:// in front of the Base URL; the node adds https:// only when no scheme is typed';
	}
	if (
		/^(CERT_|ERR_TLS_CERT|UNABLE_TO_VERIFY|SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_GET_ISSUER)/.test(
			code,
		) ||
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
export function mapNetworkError(
	node: INode,
	request: RequestInfo,
	cause: unknown,
	attempts: number,
): NodeApiError {
	const raw = cause as
		| { code?: unknown; message?: unknown; cause?: { code?: unknown } }
		| undefined;
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
	const reason =
		tls ?? what[code] ?? (text !== '' ? text : 'the request failed before an answer arrived');
	const message = `Could not reach SentiOne: ${reason}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}.`;
	// the code goes under another key: NodeApiError would replace our message with its generic text
	// for a known `code` ("The service refused the connection - perhaps it is offline")
	const error = new NodeApiError(node, { message, networkErrorCode: code } as JsonObject, {
		message,
		description: `${request.method} ${request.path} did not complete. Check the credential's Base URL and the network between n8n and SentiOne.`,
		itemIndex: request.itemIndex,
	});
	// no answer may come next time; a Base URL that needs http:// will not change by itself
	declareFailure(
		error,
		plainHttpServer(code, text)
			? FAILURES.configurationInvalid()
			: FAILURES.temporarilyUnavailable(),
	);
	return attach(error, {});
}

/** Something about the answer itself is unusable (not JSON, truncated, too large, stalled). */
export function unusableAnswer(
	node: INode,
	request: RequestInfo,
	problem: string,
	itemIndex?: number,
): NodeApiError {
	const message = `SentiOne's answer could not be used: ${redact(problem)}`;
	const error = new NodeApiError(node, { message } as JsonObject, {
		message,
		description: `${request.method} ${request.path}. The answer was not the JSON the API documents; nothing from it was used.`,
		itemIndex: itemIndex ?? request.itemIndex,
	});
	return attach(declareFailure(error, FAILURES.temporarilyUnavailable()), {});
}

/** Errors raised by the credential before any request (missing or ill-shaped key, bad Base URL). */
export function credentialProblem(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeOperationError | undefined {
	const message = (error as { message?: unknown })?.message;
	if (typeof message !== 'string') return undefined;
	const at = message.indexOf(CREDENTIAL_ERROR_PREFIX);
	if (at < 0) return undefined;
	const refused = new NodeOperationError(node, redact(message.slice(at)), {
		itemIndex,
		description: 'Open the SentiOne credential and correct it. Nothing was sent to SentiOne.',
	});
	return declareFailure(refused, FAILURES.credentialInvalid());
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
	// more data than the cap allows comes again next time; a break or a silence may not
	declareFailure(
		error,
		reason === 'oversize' ? FAILURES.configurationInvalid() : FAILURES.temporarilyUnavailable(),
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
	if (location === undefined || location.trim() === '')
		where = 'without saying where (no Location header)';
	else if (target === undefined)
		where = `to "${redact(quoted(location))}", which is not an http(s) address`;
	else if (own !== undefined && target === own)
		where = `to another address on the same host (${target})`;
	else where = `to another origin, ${target}${own ? ` (the Base URL is ${own})` : ''}`;
	const message = `SentiOne answered with a redirect (${statusCode}) ${where}; the node does not follow redirects`;
	const description = `${request.method} ${request.path}. The API key is only ever sent to the origin of the credential's Base URL, so it was not sent anywhere else and the answer was not used.${target && own !== undefined && target !== own ? ` If SentiOne has really moved, and you trust ${target}, change the Base URL to it.` : " Check the credential's Base URL (the SentiOne API answers directly, without redirects)."}`;
	const error = new NodeApiError(node, { message, httpCode: String(statusCode) } as JsonObject, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
	declareFailure(error, FAILURES.configurationInvalid());
	return attach(error, { statusCode });
}
