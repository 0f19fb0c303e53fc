/**
 * The client every request of the action node, the triggers and the list searches goes through:
 * - sends through `httpRequestWithAuthentication` (the credential adds the key, the JSON content
 *   type and the API root) and never follows a redirect: the key goes only to the origin of the
 *   Base URL, and a 3xx is an error that names where the server wanted to send it (connection.ts),
 * - reads every body through the body guard (bodyGuard.ts, streamBody.ts),
 * - remembers the rate-limit headers of every answer per group (rateLimitHeaders.ts),
 * - waits for an hourly rate-limit reset when the caller allows it, and retries transient failures
 *   of reads only (retry.ts),
 * - maps every failure through the one error mapper (../errors).
 */
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { rateLimitWait } from '../bounds';
import { JSON_MEDIA_TYPE, STREAM_ACCEPT } from '../contract';
import { credentialProblem, describeBody, errorDetails, unusableAnswer } from '../errors';
import { StreamReader, streamFormatFromContentType } from '../stream';
import { clock } from '../time';
import type { Chunked, Guard } from './bodyGuard';
import { parseJsonOrText } from './bodyGuard';
import { Connection } from './connection';
import { headerValue } from './rateLimitHeaders';
import type { ApiRequest, ApiResult, OpenStream, StreamRequest } from './requests';
import { DEFAULTS } from './requests';
import type { RetryPolicy } from './retry';
import { DEFAULT_RETRY, isCancelled, isTransientNetwork, TRANSIENT_STATUSES } from './retry';
import { streamItems } from './streamBody';

export class SentiOneTransport extends Connection {
	/** One API call with the retry policy; resolves with the parsed JSON body. */
	async request<T = IDataObject>(req: ApiRequest): Promise<ApiResult<T>> {
		const policy: RetryPolicy = { ...DEFAULT_RETRY, ...this.options.retry, ...req.retry };
		const request = this.info(req);
		const refused = this.knownRefusal(request);
		if (refused) throw refused;
		let attempts = 0;
		let waitedMs = 0;
		let rateLimitWaits = 0;
		let transientFailures = 0;
		/** a read may be sent again after a transient failure, a few times */
		const mayRetry = () => req.read && transientFailures < policy.transientRetries;
		const backoff = async () => {
			const delay = policy.transientBackoffMs * 2 ** transientFailures;
			transientFailures++;
			await sleep(delay, req.signal);
		};
		for (;;) {
			attempts++;
			const deadlineAt = Date.now() + (this.options.deadlineMs ?? DEFAULTS.deadlineMs);
			let raw: IN8nHttpFullResponse;
			let abort: () => void;
			try {
				({ raw, abort } = await this.send(
					req.method,
					req.path,
					req.qs,
					req.body,
					JSON_MEDIA_TYPE,
					req.signal,
				));
			} catch (error) {
				if (
					mayRetry() &&
					!isCancelled(error) &&
					!credentialProblem(this.node, error) &&
					isTransientNetwork(error)
				) {
					await backoff();
					continue;
				}
				throw this.failure(error, request, attempts);
			}
			const statusCode = Number(raw.statusCode);
			const headers = raw.headers as IDataObject;
			if (statusCode >= 300 && statusCode < 400) await this.refuseRedirect(raw, request, abort);
			const rateLimit = this.rateLimitOf(headers, req.group);
			const contentType = headerValue(headers, 'content-type');
			const read = await this.readBody(raw.body, request, abort, deadlineAt);
			if ('broken' in read) {
				if (mayRetry()) {
					await backoff();
					continue;
				}
				throw unusableAnswer(this.node, request, read.broken);
			}
			const text = read.text;
			const parsed = parseJsonOrText(text);
			if (statusCode >= 200 && statusCode < 300) {
				if (text.trim() === '') {
					return { body: {} as T, statusCode, rateLimit, attempts, waitedMs };
				}
				const body = parsed.value;
				if (!parsed.json || body === null || typeof body !== 'object') {
					if (mayRetry() && /json/i.test(contentType ?? '')) {
						// a JSON answer cut short behaves like a broken connection
						await backoff();
						continue;
					}
					throw unusableAnswer(
						this.node,
						request,
						`status ${statusCode} came with ${parsed.json ? 'JSON that is not an object' : 'a body that is not JSON'}${/json/i.test(contentType ?? '') ? ' (truncated?)' : ''}`,
					);
				}
				return { body: body as T, statusCode, rateLimit, attempts, waitedMs };
			}
			const error = this.refusal(request, statusCode, parsed.value, contentType, rateLimit);
			const details = errorDetails(error);
			if (
				statusCode === 429 &&
				details?.rateLimitKind === 'hourly' &&
				policy.maxRateLimitWaitMs > 0
			) {
				// bounded whatever the server says: a reset far ahead, in the past, or missing (bounds.ts)
				const wait = rateLimitWait(details.resetAt, clock.now(), rateLimitWaits);
				if (waitedMs + wait <= policy.maxRateLimitWaitMs) {
					await clock.sleep(wait, req.signal);
					waitedMs += wait;
					rateLimitWaits++;
					continue;
				}
			}
			if (TRANSIENT_STATUSES.has(statusCode) && mayRetry()) {
				await backoff();
				continue;
			}
			throw error;
		}
	}

	/**
	 * Opens a stream. Errors before the stream starts are mapped like any request; no retry is made
	 * here because every open spends the small stream budget — the caller decides.
	 */
	async openStream(req: StreamRequest): Promise<OpenStream> {
		const request = this.info({ ...req, method: 'POST' });
		const refused = this.knownRefusal(request);
		if (refused) throw refused;
		// The connection's own abort signal, so close() can end a silent connection: n8n's HTTP
		// stack hands the body over wrapped in a generator that notices a destroy only when the next
		// chunk arrives, which on a stalled stream is never. The caller's signal still aborts it.
		const connection = new AbortController();
		const forward = () => connection.abort();
		if (req.signal?.aborted) connection.abort();
		else req.signal?.addEventListener('abort', forward, { once: true });
		const release = () => req.signal?.removeEventListener('abort', forward);
		const openedAt = Date.now();
		let raw: IN8nHttpFullResponse;
		try {
			({ raw } = await this.send(
				'POST',
				req.path,
				req.qs,
				req.body,
				STREAM_ACCEPT[req.format],
				connection.signal,
			));
		} catch (error) {
			release();
			throw this.failure(error, request, 1);
		}
		const statusCode = Number(raw.statusCode);
		const headers = raw.headers as IDataObject;
		const shortRead = async () =>
			await this.readBody(raw.body, request, () => connection.abort(), Date.now() + 30_000);
		if (statusCode >= 300 && statusCode < 400) {
			release();
			await this.refuseRedirect(raw, request, () => connection.abort());
		}
		const rateLimit = this.rateLimitOf(headers, req.group);
		const contentType = headerValue(headers, 'content-type');
		if (statusCode < 200 || statusCode >= 300) {
			release();
			const read = await shortRead();
			throw this.refusal(
				request,
				statusCode,
				parseJsonOrText('text' in read ? read.text : '').value,
				contentType,
				rateLimit,
			);
		}
		if (contentType !== undefined && streamFormatFromContentType(contentType) === undefined) {
			// a proxy page or a plain document where the stream should be: never an empty stream
			release();
			const read = await shortRead();
			throw unusableAnswer(
				this.node,
				request,
				`status ${statusCode} came with ${'text' in read ? describeBody(read.text, contentType) : 'a body that broke off'} (Content-Type ${contentType}), not a stream`,
			);
		}
		const format = streamFormatFromContentType(contentType) ?? req.format;
		const reader = new StreamReader(format, { maxEventBytes: req.maxEventBytes });
		const source = raw.body as Chunked;
		const guard: Guard = {
			idleMs: req.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
			deadlineAt: req.deadlineMs === undefined ? undefined : openedAt + req.deadlineMs,
			progress: 'events',
			liveness: { at: Date.now() },
		};
		let closed = false;
		const close = () => {
			if (closed) return;
			closed = true;
			release();
			connection.abort();
			source.destroy?.();
		};
		const items = streamItems(
			this.node,
			request,
			source,
			reader,
			guard,
			{
				get closed() {
					return closed;
				},
				close,
				ended: () => {
					closed = true;
					release();
				},
			},
			{ maxBytes: req.maxBytes, deadlineMs: req.deadlineMs, itemIndex: req.itemIndex },
		);
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
}
