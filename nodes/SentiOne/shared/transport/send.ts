/**
 * The wire: one request sent through `httpRequestWithAuthentication` (the credential adds the key,
 * the JSON content type and the API root), a whole answer read within the body guard, a redirect
 * refused, and a request that never got an answer turned into the error the user sees.
 */
import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, JSON_MEDIA_TYPE, resolveApiRoot } from '../contract';
import type { RequestInfo } from '../errors';
import { credentialProblem, mapNetworkError, redirectRefused, unusableAnswer } from '../errors';
import { readWholeBody } from './bodyGuard';
import { anySignal, isStopped } from './cancel';
import { headerValue } from './rateLimitHeaders';
import { isCancelled } from './retry';
import type { Session } from './session';
import { DEFAULTS } from './session';
import type { ApiContext } from './types';

/**
 * Sends one request. Every request gets its own AbortController, combined with the caller's
 * signal and n8n's execution-cancel signal: n8n replaces a request's `abortSignal` with the
 * execution's cancel signal wherever the context has one, and destroying the body stream n8n
 * hands back does not close a connection that is waiting for data. So the helper is called
 * on a context whose cancel signal is the combined one — that is what lets a stall, the size
 * cap or `close()` really release the socket.
 *
 * Redirects are never followed (the credential's `authenticate` forbids them too): a 3xx comes
 * back as an answer and is refused, so the key never reaches another origin.
 */
export async function send(
	session: Session,
	method: IHttpRequestMethods,
	path: string,
	qs: IDataObject | undefined,
	body: IDataObject | undefined,
	accept: string,
	signal?: AbortSignal,
): Promise<{ raw: IN8nHttpFullResponse; abort: () => void }> {
	const { ctx } = session;
	// nothing is sent once the run was stopped (cancel.ts)
	session.throwIfStopped(signal, 'before a request was sent');
	const own = new AbortController();
	const combined = anySignal(own.signal, session.cancel, signal) as AbortSignal;
	const options: IHttpRequestOptions = {
		method,
		url: path,
		qs,
		headers: { Accept: accept, 'Content-Type': JSON_MEDIA_TYPE },
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		maxRedirects: 0,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: session.options.timeoutMs ?? DEFAULTS.timeoutMs,
		abortSignal: combined,
	};
	if (body !== undefined) options.body = JSON.stringify(body);
	const context = Object.create(ctx, {
		getExecutionCancelSignal: { value: () => combined },
	}) as ApiContext;
	session.requestsSent++;
	const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
		context,
		CREDENTIAL_TYPE,
		options,
	)) as IN8nHttpFullResponse;
	return { raw, abort: () => own.abort() };
}

/** How one answer's body is read. */
export interface BodyReading {
	/** absolute deadline (Date.now() ms) */
	deadlineAt: number;
	/** largest body accepted (the transport's cap unless given) */
	maxBytes?: number;
	/** the caller's signal: it and the execution's stop end the read at once */
	signal?: AbortSignal;
	/** what had arrived before this answer (a pager's earlier pages), for a stall's message */
	arrived?: string;
}

/**
 * Reads a whole (non-stream) body within the size cap, the stall limit and the deadline. The answer
 * is one event: it must arrive whole within the stall limit, however its bytes trickle in. A broken
 * connection, or one that sent nothing of the answer, is reported as `broken` so the caller can
 * retry a read; an answer that started but did not arrive whole is unusable (a retry would only
 * repeat it).
 */
export async function readBody(
	session: Session,
	stream: unknown,
	request: RequestInfo,
	abort: () => void,
	how: BodyReading,
): Promise<{ text: string } | { broken: string }> {
	const read = await readWholeBody(
		stream,
		{
			stallMs: session.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
			deadlineAt: how.deadlineAt,
			deadlineMs: session.options.deadlineMs ?? DEFAULTS.deadlineMs,
			maxBytes: how.maxBytes ?? session.options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
			signal: session.signalFor(how.signal),
		},
		abort,
	);
	if ('stopped' in read)
		throw session.stoppedError('while an answer was being received', request.itemIndex);
	const arrived = how.arrived ? `; ${how.arrived}` : '';
	if ('unusable' in read) throw unusableAnswer(session.node, request, `${read.unusable}${arrived}`);
	if ('broken' in read) return { broken: `${read.broken}${arrived}` };
	return read;
}

/** The error of a request that got no answer: a credential problem, a cancel, or the network. */
export function failure(
	session: Session,
	error: unknown,
	request: RequestInfo,
	attempts: number,
	signal?: AbortSignal,
): Error {
	if (isStopped(error)) return error as Error;
	const credential = credentialProblem(session.node, error, request.itemIndex);
	if (credential) return credential;
	if (isCancelled(error) || session.stopped(signal)) {
		return session.stoppedError('while a request to SentiOne was under way', request.itemIndex);
	}
	const cause = (error as { cause?: unknown })?.cause ?? error;
	return mapNetworkError(session.node, request, cause, attempts);
}

/** A 3xx: read a little of the body (to free the socket) and refuse it, naming the target. */
export async function refuseRedirect(
	session: Session,
	raw: IN8nHttpFullResponse,
	request: RequestInfo,
	abort: () => void,
): Promise<never> {
	const headers = raw.headers as IDataObject;
	await readBody(session, raw.body, request, abort, {
		deadlineAt: Date.now() + 5_000,
		maxBytes: 64 * 1024,
	}).catch(() => undefined);
	abort();
	throw redirectRefused(
		session.node,
		request,
		Number(raw.statusCode),
		headerValue(headers, 'location'),
		await apiRoot(session.ctx),
	);
}

/** The API root requests go to (from the credential's Base URL), for messages; undefined if unknown. */
async function apiRoot(ctx: ApiContext): Promise<string | undefined> {
	try {
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const resolved = resolveApiRoot(credentials.baseUrl);
		return 'root' in resolved ? resolved.root : undefined;
	} catch {
		return undefined;
	}
}
