/**
 * Opening a stream: an answer that is not a stream (a refusal, a redirect, a proxy page) is an error
 * like that of any request; a stream's items come through the body guard and the one stream reader
 * (streamBody.ts). No retry is made here, because every open spends the small stream budget — the
 * caller decides.
 */
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import { attempt } from '../attempt';
import { STREAM_ACCEPT } from '../contract';
import type { RateLimitState, RequestInfo } from '../errors';
import { describeBody, unusableAnswer } from '../errors';
import { StreamReader, streamFormatFromContentType } from '../stream';
import type { Chunked, Guard } from './bodyGuard';
import { parseJsonOrText } from './bodyGuard';
import { serverClock } from '../clock';
import { headerValue } from './rateLimitHeaders';
import { failure, readBody, refuseRedirect, send } from './send';
import type { Session } from './session';
import { DEFAULTS } from './session';
import { streamItems } from './streamBody';
import type { OpenStream, StreamRequest } from './types';

/**
 * The connection's own abort signal, so close() can end a silent connection: n8n's HTTP stack
 * hands the body over wrapped in a generator that notices a destroy only when the next chunk
 * arrives, which on a stalled stream is never. The caller's signal still aborts it.
 */
function ownConnection(signal: AbortSignal | undefined) {
	const connection = new AbortController();
	const forward = () => connection.abort();
	if (signal?.aborted) connection.abort();
	else signal?.addEventListener('abort', forward, { once: true });
	const release = () => signal?.removeEventListener('abort', forward);
	return { connection, release };
}

/** Opens a stream. Errors before the stream starts are mapped like any request. */
export async function openStream(session: Session, req: StreamRequest): Promise<OpenStream> {
	const info = session.info({ ...req, method: 'POST' });
	const refused = session.knownRefusal(info);
	if (refused) throw refused;
	const { connection, release } = ownConnection(req.signal);
	const openedAt = Date.now();
	const accept = STREAM_ACCEPT[req.format];
	const sent = await attempt(
		async () => await send(session, 'POST', req.path, req.qs, req.body, accept, connection.signal),
	);
	if (!sent.ok) {
		release();
		throw failure(session, sent.error, info, 1, req.signal);
	}
	const { raw } = sent.value;
	const statusCode = Number(raw.statusCode);
	const headers = raw.headers as IDataObject;
	const abort = () => connection.abort();
	if (statusCode >= 300 && statusCode < 400) {
		release();
		await refuseRedirect(session, raw, info, abort);
	}
	// SentiOne's clock, from the Date its headers carry (clock.ts, D-50)
	serverClock.observe(headerValue(headers, 'date'));
	const rateLimit = session.rateLimitOf(headers, req.group);
	const contentType = headerValue(headers, 'content-type');
	const answer = { raw, statusCode, contentType, rateLimit };
	await refuseNonStream(session, info, answer, abort, release, req.signal);
	return streamOf(session, info, req, answer, { connection, release }, openedAt);
}

/** An answer to a stream request and what its headers said. */
interface StreamAnswer {
	raw: IN8nHttpFullResponse;
	statusCode: number;
	contentType: string | undefined;
	rateLimit: RateLimitState | undefined;
}

/**
 * An answer that is not a stream is an error: a refusal, or a proxy page or a plain document where
 * the stream should be (never an empty stream). A little of its body is read for the message.
 */
async function refuseNonStream(
	session: Session,
	info: RequestInfo,
	{ raw, statusCode, contentType, rateLimit }: StreamAnswer,
	abort: () => void,
	release: () => void,
	signal: AbortSignal | undefined,
): Promise<void> {
	const shortRead = async () =>
		await readBody(session, raw.body, info, abort, { deadlineAt: Date.now() + 30_000, signal });
	if (statusCode < 200 || statusCode >= 300) {
		release();
		const read = await shortRead();
		const body = parseJsonOrText('text' in read ? read.text : '').value;
		throw session.refusal(info, statusCode, body, contentType, rateLimit);
	}
	if (contentType !== undefined && streamFormatFromContentType(contentType) === undefined) {
		release();
		const read = await shortRead();
		const body = 'text' in read ? describeBody(read.text, contentType) : 'a body that broke off';
		throw unusableAnswer(
			session.node,
			info,
			`status ${statusCode} came with ${body} (Content-Type ${contentType}), not a stream`,
		);
	}
}

/** The stream's guard: its idle limit, and its deadline counted from the open. */
function guardOf(session: Session, req: StreamRequest, openedAt: number): Guard {
	return {
		stallMs: req.idleTimeoutMs ?? session.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
		deadlineAt: req.deadlineMs === undefined ? undefined : openedAt + req.deadlineMs,
		liveness: { at: Date.now() },
		signal: session.signalFor(req.signal),
	};
}

/** The open stream: its items until the server ends it or `close()` drops it. */
function streamOf(
	session: Session,
	info: RequestInfo,
	req: StreamRequest,
	{ raw, statusCode, contentType, rateLimit }: StreamAnswer,
	{ connection, release }: ReturnType<typeof ownConnection>,
	openedAt: number,
): OpenStream {
	const format = streamFormatFromContentType(contentType) ?? req.format;
	const reader = new StreamReader(format, { maxEventBytes: req.maxEventBytes });
	const source = raw.body as Chunked;
	const guard = guardOf(session, req, openedAt);
	let closed = false;
	const close = () => {
		if (closed) return;
		closed = true;
		release();
		connection.abort();
		source.destroy?.();
	};
	const ended = () => {
		closed = true;
		release();
	};
	const stream = {
		get closed() {
			return closed;
		},
		close,
		ended,
	};
	const limits = {
		maxBytes: req.maxBytes,
		deadlineMs: req.deadlineMs,
		itemIndex: req.itemIndex,
		stopped: () => session.stoppedError('while the stream was being read', req.itemIndex),
	};
	const items = streamItems(session.node, info, source, reader, guard, stream, limits);
	return {
		format,
		statusCode,
		rateLimit,
		items,
		get stats() {
			return reader.stats;
		},
		close,
	};
}
