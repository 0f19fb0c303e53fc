/**
 * The only module that talks HTTP. Every request of the action node, the triggers and the list
 * searches goes through `SentiOneTransport`, which
 * - sends through `httpRequestWithAuthentication` (the credential adds the key, the JSON content
 *   type and the API root),
 * - never follows a redirect: the key goes only to the origin of the Base URL, and a 3xx is an
 *   error that names where the server wanted to send it,
 * - reads every body as a stream with a size cap, a stall guard and a total deadline (streams:
 *   liveness counted in complete events, not bytes), so a hostile or broken server can neither
 *   exhaust memory nor hang the node,
 * - parses the rate-limit headers of every answer into one typed value, implausible values counting
 *   as unknown (bounds.ts),
 * - waits for an hourly rate-limit reset when the caller allows it, and retries 502/503/504 and
 *   broken connections for reads only (a create is never repeated),
 * - maps every failure through the one error mapper (errors.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	IPollFunctions,
	ITriggerFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { BOUNDS, plausibleReset, rateLimitWait } from './bounds';
import type { EndpointGroup, EndpointName, Tier } from './contract';
import { CREDENTIAL_TYPE, JSON_MEDIA_TYPE, RATE_LIMIT_HEADERS, resolveApiRoot, STREAM_ACCEPT } from './contract';
import type { RateLimitState, RequestInfo } from './errors';
import {
	credentialProblem,
	describeBody,
	errorDetails,
	mapHttpError,
	mapNetworkError,
	redirectRefused,
	streamInterrupted,
	tierKnownRefused,
	unusableAnswer,
} from './errors';
import type { StreamFormat, StreamItem, StreamStats } from './stream';
import { StreamReader, streamFormatFromContentType } from './stream';
import { clock } from './time';

export type ApiContext = IExecuteFunctions | IPollFunctions | ITriggerFunctions | ILoadOptionsFunctions;

export interface RetryPolicy {
	/** Longest total wait for an hourly rate-limit reset; 0 = never wait, fail at once. */
	maxRateLimitWaitMs: number;
	/** Retries after 502/503/504 or a broken connection; applied to reads only. */
	transientRetries: number;
	/** First backoff; doubles each retry. */
	transientBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxRateLimitWaitMs: 0,
	transientRetries: 2,
	transientBackoffMs: 500,
};

export interface TransportOptions {
	retry?: Partial<RetryPolicy>;
	/** Time allowed until the response headers arrive. */
	timeoutMs?: number;
	/** Longest silence tolerated while reading a body. */
	idleTimeoutMs?: number;
	/** Largest JSON answer accepted. */
	maxBodyBytes?: number;
	/** Longest one JSON answer may take, headers to last byte, however it trickles in. */
	deadlineMs?: number;
}

const DEFAULTS = {
	timeoutMs: 60_000,
	idleTimeoutMs: 60_000,
	maxBodyBytes: 32 * 1024 * 1024,
	deadlineMs: BOUNDS.requestDeadlineMs,
};

export interface ApiRequest {
	/** which endpoint of the contract's table (for errors that name the operation) */
	endpoint?: EndpointName;
	method: IHttpRequestMethods;
	path: string;
	group: EndpointGroup;
	tier: Tier;
	qs?: IDataObject;
	/** Serialised as JSON and always sent when present, `{}` included. */
	body?: IDataObject;
	/** True for reads (GET, searches): only reads are retried after transient failures. */
	read: boolean;
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
	/** Aborts the request and any retry wait (honoured where n8n does not impose its own cancel signal). */
	signal?: AbortSignal;
}

export interface ApiResult<T> {
	body: T;
	statusCode: number;
	rateLimit?: RateLimitState;
	/** HTTP requests this call sent (retries included) */
	attempts: number;
	/** time spent waiting for a rate-limit reset */
	waitedMs: number;
}

export interface StreamRequest {
	endpoint?: EndpointName;
	path: string;
	group: EndpointGroup;
	tier: Tier;
	qs?: IDataObject;
	body: IDataObject;
	format: StreamFormat;
	itemIndex?: number;
	/** Aborts the connection (honoured where n8n does not impose its own cancel signal). */
	signal?: AbortSignal;
	/** Time without a complete event (heartbeats count, bytes alone do not) after which the connection is judged dead. */
	idleTimeoutMs?: number;
	/** Longest the whole stream may stay open (an export); none for a live stream. */
	deadlineMs?: number;
	/** Most bytes the whole stream may bring (an export's cap), counted as they arrive, events or not. */
	maxBytes?: number;
	maxEventBytes?: number;
}

export interface OpenStream {
	format: StreamFormat;
	statusCode: number;
	rateLimit?: RateLimitState;
	/** Items until the server ends the stream; throws an error with `streamInterrupted` details if it breaks. */
	items: AsyncGenerator<StreamItem>;
	stats: StreamStats;
	close(): void;
}

interface Chunked {
	[Symbol.asyncIterator](): AsyncIterator<Uint8Array | string>;
	destroy?: (error?: Error) => void;
}

class StallError extends Error {}

class DeadlineError extends Error {}

class SizeError extends Error {}

/** When a body last made progress: bytes arriving, or (streams) a complete event. */
interface Liveness {
	at: number;
}

interface Guard {
	/** silence allowed (real time) */
	idleMs: number;
	/** absolute deadline (Date.now() ms); none when undefined */
	deadlineAt?: number;
	/** 'bytes': any chunk counts as progress; 'events': only the caller's `liveness.at` updates do */
	progress: 'bytes' | 'events';
	liveness: Liveness;
}

/**
 * Yields the chunks of a body, but fails with StallError when no progress was made for `idleMs`
 * while the caller waits for the next chunk, and with DeadlineError once the deadline passes.
 * Progress is a chunk arriving, or, for streams, a complete event the caller reports (so a server
 * dripping bytes, an endless line or comments alone cannot keep a stream alive). Uses one
 * cancellable sleep at a time (no timers are left behind) and a fresh promise per wait.
 */
async function* guardedChunks(body: Chunked, guard: Guard): AsyncGenerator<Uint8Array | string> {
	const iterator = body[Symbol.asyncIterator]();
	const watchdog = new AbortController();
	let failWait: ((error: Error) => void) | undefined;
	const step = Math.max(10, Math.min(1000, Math.floor(guard.idleMs / 4)));
	const verdict = (): Error | undefined => {
		const now = Date.now();
		if (guard.deadlineAt !== undefined && now >= guard.deadlineAt) return new DeadlineError('deadline');
		if (now - guard.liveness.at >= guard.idleMs) {
			return new StallError(
				guard.progress === 'events'
					? `no complete event for ${Math.round(guard.idleMs / 1000)} s`
					: `no data for ${Math.round(guard.idleMs / 1000)} s`,
			);
		}
		return undefined;
	};
	const watch = async () => {
		while (!watchdog.signal.aborted) {
			try {
				await sleep(step, watchdog.signal);
			} catch {
				return;
			}
			if (watchdog.signal.aborted) return;
			const problem = failWait ? verdict() : undefined;
			if (problem && failWait) failWait(problem);
		}
	};
	void watch();
	try {
		for (;;) {
			const next = await new Promise<IteratorResult<Uint8Array | string>>((resolve, reject) => {
				failWait = reject;
				iterator.next().then(resolve, reject);
			});
			failWait = undefined;
			if (next.done) return;
			if (guard.progress === 'bytes') guard.liveness.at = Date.now();
			if (guard.deadlineAt !== undefined && Date.now() >= guard.deadlineAt) throw new DeadlineError('deadline');
			yield next.value;
		}
	} finally {
		failWait = undefined;
		watchdog.abort();
	}
}

function minutesText(ms: number): string {
	return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

function formatBytes(bytes: number): string {
	if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`;
	return `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

function toBytes(chunk: Uint8Array | string): Uint8Array {
	return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** The largest request count a budget header may state before it counts as unknown. */
const MAX_BUDGET = 10_000_000;

/**
 * Parses the three rate-limit headers; undefined when the answer carried none. Every value is
 * bounded (bounds.ts): a limit or remaining count that is not a plain whole number in 0–10,000,000
 * counts as unknown (a negative remaining as 0), and an implausible reset as unknown.
 */
export function readRateLimit(
	headers: IDataObject | undefined,
	group: EndpointGroup,
	now = clock.now(),
): RateLimitState | undefined {
	const int = (name: string) => {
		const raw = headerValue(headers, name);
		if (raw === undefined || raw.length > 20 || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
		const n = Number(raw);
		return Number.isSafeInteger(n) ? n : undefined;
	};
	const rawLimit = int(RATE_LIMIT_HEADERS.limit);
	const rawRemaining = int(RATE_LIMIT_HEADERS.remaining);
	const rawReset = int(RATE_LIMIT_HEADERS.reset);
	if (rawLimit === undefined && rawRemaining === undefined && rawReset === undefined) return undefined;
	const limit = rawLimit !== undefined && rawLimit >= 1 && rawLimit <= MAX_BUDGET ? rawLimit : undefined;
	const remaining =
		rawRemaining === undefined || rawRemaining > MAX_BUDGET
			? undefined
			: Math.max(0, limit !== undefined ? Math.min(rawRemaining, limit) : rawRemaining);
	return { group, limit, remaining, resetAt: plausibleReset(rawReset, now) };
}

function isCancelled(error: unknown): boolean {
	const e = error as { name?: unknown; code?: unknown; cause?: { name?: unknown; code?: unknown } };
	return (
		e?.code === 'ERR_CANCELED' ||
		e?.cause?.code === 'ERR_CANCELED' ||
		e?.name === 'CanceledError' ||
		e?.cause?.name === 'CanceledError'
	);
}

const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ERR_STREAM_PREMATURE_CLOSE',
	'EAI_AGAIN',
]);

function isTransientNetwork(error: unknown): boolean {
	const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
	const code = String(e?.cause?.code ?? e?.code ?? '');
	if (TRANSIENT_CODES.has(code)) return true;
	const message = String(e?.cause?.message ?? e?.message ?? '');
	return /socket hang up|aborted|timeout/i.test(message);
}

const TRANSIENT_STATUSES = new Set([502, 503, 504]);

export class SentiOneTransport {
	/** The last rate-limit state seen per endpoint group. */
	readonly rateLimits: Partial<Record<EndpointGroup, RateLimitState>> = {};

	/** HTTP requests sent through this transport (retries and stream opens included). */
	requestsSent = 0;

	/** tiers SentiOne refused this key in this run: operations needing them fail without a request */
	private readonly refusedTiers = new Set<Tier>();

	/** The error for a request whose tier was already refused in this run, if it is. */
	private knownRefusal(request: RequestInfo): Error | undefined {
		return this.refusedTiers.has(request.tier) ? tierKnownRefused(this.node, request) : undefined;
	}

	/** Remembers a tier refusal (learned from the first refusal, said before the next request). */
	private learn(error: unknown): void {
		const tier = errorDetails(error)?.tierRefused;
		if (tier) this.refusedTiers.add(tier);
	}

	private readonly ctx: ApiContext;

	private readonly options: TransportOptions;

	constructor(ctx: ApiContext, options: TransportOptions = {}) {
		this.ctx = ctx;
		this.options = options;
	}

	get node(): INode {
		return this.ctx.getNode();
	}

	/** The workflow's time zone, in which messages show instants. */
	get zone(): string {
		try {
			return this.ctx.getTimezone();
		} catch {
			return 'UTC';
		}
	}

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
	private async send(
		method: IHttpRequestMethods,
		path: string,
		qs: IDataObject | undefined,
		body: IDataObject | undefined,
		accept: string,
		signal?: AbortSignal,
	): Promise<{ raw: IN8nHttpFullResponse; abort: () => void }> {
		const own = new AbortController();
		const executionCancel = (
			this.ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined }
		).getExecutionCancelSignal?.();
		const signals = [own.signal, executionCancel, signal].filter((s): s is AbortSignal => s !== undefined);
		const combined = signals.length === 1 ? own.signal : AbortSignal.any(signals);
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
			timeout: this.options.timeoutMs ?? DEFAULTS.timeoutMs,
			abortSignal: combined,
		};
		if (body !== undefined) options.body = JSON.stringify(body);
		const context = Object.create(this.ctx, {
			getExecutionCancelSignal: { value: () => combined },
		}) as ApiContext;
		this.requestsSent++;
		const raw = (await this.ctx.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
		)) as IN8nHttpFullResponse;
		return { raw, abort: () => own.abort() };
	}

	/**
	 * Reads a whole (non-stream) body within the size cap, the stall guard and the deadline. A
	 * broken or silent connection is reported as `broken` so the caller can retry a read; a body
	 * still trickling in at the deadline is an unusable answer (a retry would only repeat it).
	 */
	private async readBody(
		stream: unknown,
		request: RequestInfo,
		abort: () => void,
		deadlineAt: number,
		maxBytes = this.options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
	): Promise<{ text: string } | { broken: string }> {
		if (typeof stream === 'string') return { text: stream };
		if (stream === undefined || stream === null) return { text: '' };
		if (!(Symbol.asyncIterator in (stream as object))) return { text: JSON.stringify(stream) };
		const body = stream as Chunked;
		const chunks: Uint8Array[] = [];
		let size = 0;
		let problem: string | undefined;
		const guard: Guard = {
			idleMs: this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
			deadlineAt,
			progress: 'bytes',
			liveness: { at: Date.now() },
		};
		try {
			for await (const chunk of guardedChunks(body, guard)) {
				const bytes = toBytes(chunk);
				size += bytes.length;
				if (size > maxBytes) {
					problem = `the answer is larger than ${formatBytes(maxBytes)}, far beyond any documented response`;
					break;
				}
				chunks.push(bytes);
			}
		} catch (error) {
			abort();
			body.destroy?.();
			if (error instanceof DeadlineError) {
				throw unusableAnswer(
					this.node,
					request,
					`the answer was still arriving after ${minutesText(this.options.deadlineMs ?? DEFAULTS.deadlineMs)} (${formatBytes(size)} received), far longer than one answer takes`,
				);
			}
			return {
				broken:
					error instanceof StallError
						? `the server stopped sending the answer (${error.message})`
						: 'the connection broke while the answer was being received',
			};
		}
		if (problem) {
			abort();
			body.destroy?.();
			throw unusableAnswer(this.node, request, problem);
		}
		return { text: Buffer.concat(chunks, size).toString('utf8') };
	}

	private info(req: {
		endpoint?: EndpointName;
		method: string;
		path: string;
		group: EndpointGroup;
		tier: Tier;
		itemIndex?: number;
	}): RequestInfo {
		return {
			endpoint: req.endpoint,
			method: req.method,
			path: req.path,
			group: req.group,
			tier: req.tier,
			itemIndex: req.itemIndex,
			zone: this.zone,
		};
	}

	private remember(rateLimit: RateLimitState | undefined) {
		if (rateLimit) this.rateLimits[rateLimit.group] = rateLimit;
	}

	private failure(error: unknown, request: RequestInfo, attempts: number): Error {
		const credential = credentialProblem(this.node, error, request.itemIndex);
		if (credential) return credential;
		if (isCancelled(error)) {
			return new NodeOperationError(this.node, 'The request to SentiOne was cancelled.', {
				itemIndex: request.itemIndex,
			});
		}
		const cause = (error as { cause?: unknown })?.cause ?? error;
		return mapNetworkError(this.node, request, cause, attempts);
	}

	/** A 3xx: read a little of the body (to free the socket) and refuse it, naming the target. */
	private async refuseRedirect(
		raw: IN8nHttpFullResponse,
		request: RequestInfo,
		abort: () => void,
	): Promise<never> {
		const headers = raw.headers as IDataObject;
		await this.readBody(raw.body, request, abort, Date.now() + 5_000, 64 * 1024).catch(() => undefined);
		abort();
		throw redirectRefused(this.node, request, Number(raw.statusCode), headerValue(headers, 'location'), await this.apiRoot());
	}

	/** The API root requests go to (from the credential's Base URL), for messages; undefined if unknown. */
	private async apiRoot(): Promise<string | undefined> {
		try {
			const credentials = await this.ctx.getCredentials(CREDENTIAL_TYPE);
			const resolved = resolveApiRoot(credentials.baseUrl);
			return 'root' in resolved ? resolved.root : undefined;
		} catch {
			return undefined;
		}
	}

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
				({ raw, abort } = await this.send(req.method, req.path, req.qs, req.body, JSON_MEDIA_TYPE, req.signal));
			} catch (error) {
				if (
					req.read &&
					transientFailures < policy.transientRetries &&
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
			const rateLimit = readRateLimit(headers, req.group);
			this.remember(rateLimit);
			const contentType = headerValue(headers, 'content-type');
			const read = await this.readBody(raw.body, request, abort, deadlineAt);
			if ('broken' in read) {
				if (req.read && transientFailures < policy.transientRetries) {
					await backoff();
					continue;
				}
				throw unusableAnswer(this.node, request, read.broken);
			}
			const text = read.text;
			let body: unknown = text;
			let parsed = false;
			if (text.trim() !== '') {
				try {
					body = JSON.parse(text);
					parsed = true;
				} catch {
					parsed = false;
				}
			}
			if (statusCode >= 200 && statusCode < 300) {
				if (text.trim() === '') {
					return { body: {} as T, statusCode, rateLimit, attempts, waitedMs };
				}
				if (!parsed || body === null || typeof body !== 'object') {
					if (req.read && transientFailures < policy.transientRetries && /json/i.test(contentType ?? '')) {
						// a JSON answer cut short behaves like a broken connection
						await backoff();
						continue;
					}
					throw unusableAnswer(
						this.node,
						request,
						`status ${statusCode} came with ${parsed ? 'JSON that is not an object' : 'a body that is not JSON'}${/json/i.test(contentType ?? '') ? ' (truncated?)' : ''}`,
					);
				}
				return { body: body as T, statusCode, rateLimit, attempts, waitedMs };
			}
			const error = mapHttpError(this.node, request, {
				statusCode,
				body: parsed ? body : text,
				contentType,
				rateLimit,
			});
			this.learn(error);
			const details = errorDetails(error);
			if (statusCode === 429 && details?.rateLimitKind === 'hourly' && policy.maxRateLimitWaitMs > 0) {
				// bounded whatever the server says: a reset far ahead, in the past, or missing (bounds.ts)
				const wait = rateLimitWait(details.resetAt, clock.now(), rateLimitWaits);
				if (waitedMs + wait <= policy.maxRateLimitWaitMs) {
					await clock.sleep(wait, req.signal);
					waitedMs += wait;
					rateLimitWaits++;
					continue;
				}
			}
			if (TRANSIENT_STATUSES.has(statusCode) && req.read && transientFailures < policy.transientRetries) {
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
			({ raw } = await this.send('POST', req.path, req.qs, req.body, STREAM_ACCEPT[req.format], connection.signal));
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
		const rateLimit = readRateLimit(headers, req.group);
		this.remember(rateLimit);
		const contentType = headerValue(headers, 'content-type');
		if (statusCode < 200 || statusCode >= 300) {
			release();
			const read = await shortRead();
			const text = 'text' in read ? read.text : '';
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				body = text;
			}
			const error = mapHttpError(this.node, request, { statusCode, body, contentType, rateLimit });
			this.learn(error);
			throw error;
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
		const node = this.node;
		const idle = req.idleTimeoutMs ?? this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
		const guard: Guard = {
			idleMs: idle,
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
		async function* items(): AsyncGenerator<StreamItem> {
			let ended = false;
			try {
				try {
					for await (const chunk of guardedChunks(source, guard)) {
						const items = reader.push(chunk);
						if (req.maxBytes !== undefined && reader.stats.bytes > req.maxBytes) {
							throw new SizeError(`${formatBytes(reader.stats.bytes)} arrived, more than the ${formatBytes(req.maxBytes)} allowed`);
						}
						for (const item of items) {
							// liveness is complete, readable events (heartbeats included), never bytes alone
							if (item.type !== 'malformed') guard.liveness.at = Date.now();
							yield item;
						}
					}
				} catch (error) {
					if (closed) return;
					if (error instanceof SizeError) throw streamInterrupted(node, 'oversize', error.message, req.itemIndex);
					if (error instanceof DeadlineError) {
						throw streamInterrupted(
							node,
							'deadline',
							`the stream was still open after ${minutesText(req.deadlineMs ?? 0)}, the longest allowed`,
							req.itemIndex,
						);
					}
					throw error instanceof StallError
						? streamInterrupted(node, 'stalled', error.message, req.itemIndex)
						: streamInterrupted(
								node,
								'dropped',
								String((error as Error)?.message ?? 'connection lost'),
								req.itemIndex,
							);
				}
				if (closed) return;
				for (const item of reader.end()) yield item;
				const seen = reader.stats;
				if (seen.malformed > 0 && seen.mentions + seen.heartbeats + seen.engagementUpdates === 0) {
					// nothing SentiOne documents arrived, only unreadable content: not a stream that ended
					throw unusableAnswer(
						node,
						request,
						`the stream carried no event SentiOne documents, only ${seen.malformed} unreadable one${seen.malformed === 1 ? '' : 's'} (a JSON document or a page instead of a stream?)`,
						req.itemIndex,
					);
				}
				ended = true;
			} finally {
				if (ended) {
					closed = true;
					release();
				} else close();
			}
		}
		return {
			format,
			statusCode,
			rateLimit,
			items: items(),
			get stats() {
				return reader.stats;
			},
			close,
		};
	}
}
