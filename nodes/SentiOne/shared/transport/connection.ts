/**
 * What every call of the transport stands on: the n8n context it sends through, one request on
 * the wire (send), a whole body within the body guard (readBody), and how a failure or a refusal
 * becomes the error the user sees — remembering per run the rate-limit state of every group and
 * the tiers SentiOne refused, so an operation needing a refused tier fails without a request.
 */
import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EndpointGroup, Tier } from '../contract';
import { CREDENTIAL_TYPE, JSON_MEDIA_TYPE, resolveApiRoot } from '../contract';
import type { RateLimitState, RequestInfo } from '../errors';
import {
	credentialProblem,
	errorDetails,
	mapHttpError,
	mapNetworkError,
	redirectRefused,
	tierKnownRefused,
	unusableAnswer,
} from '../errors';
import { readWholeBody } from './bodyGuard';
import { headerValue, readRateLimit } from './rateLimitHeaders';
import type { ApiContext, TransportOptions } from './requests';
import { DEFAULTS } from './requests';
import { isCancelled } from './retry';

export class Connection {
	/** The last rate-limit state seen per endpoint group. */
	readonly rateLimits: Partial<Record<EndpointGroup, RateLimitState>> = {};

	/** HTTP requests sent through this transport (retries and stream opens included). */
	requestsSent = 0;

	/** tiers SentiOne refused this key in this run: operations needing them fail without a request */
	private readonly refusedTiers = new Set<Tier>();

	/** The error for a request whose tier was already refused in this run, if it is. */
	protected knownRefusal(request: RequestInfo): Error | undefined {
		return this.refusedTiers.has(request.tier) ? tierKnownRefused(this.node, request) : undefined;
	}

	/** Remembers a tier refusal (learned from the first refusal, said before the next request). */
	private learn(error: unknown): void {
		const tier = errorDetails(error)?.tierRefused;
		if (tier) this.refusedTiers.add(tier);
	}

	protected readonly ctx: ApiContext;

	protected readonly options: TransportOptions;

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
	protected async send(
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
		const signals = [own.signal, executionCancel, signal].filter(
			(s): s is AbortSignal => s !== undefined,
		);
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
	protected async readBody(
		stream: unknown,
		request: RequestInfo,
		abort: () => void,
		deadlineAt: number,
		maxBytes = this.options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
	): Promise<{ text: string } | { broken: string }> {
		const read = await readWholeBody(
			stream,
			{
				idleMs: this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
				deadlineAt,
				deadlineMs: this.options.deadlineMs ?? DEFAULTS.deadlineMs,
				maxBytes,
			},
			abort,
		);
		if ('unusable' in read) throw unusableAnswer(this.node, request, read.unusable);
		return read;
	}

	protected info(req: Omit<RequestInfo, 'zone'>): RequestInfo {
		const { endpoint, method, path, group, tier, itemIndex } = req;
		return { endpoint, method, path, group, tier, itemIndex, zone: this.zone };
	}

	/** The rate-limit state of an answer, remembered for its group. */
	protected rateLimitOf(headers: IDataObject, group: EndpointGroup): RateLimitState | undefined {
		const rateLimit = readRateLimit(headers, group);
		if (rateLimit) this.rateLimits[rateLimit.group] = rateLimit;
		return rateLimit;
	}

	protected failure(error: unknown, request: RequestInfo, attempts: number): Error {
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
	protected async refuseRedirect(
		raw: IN8nHttpFullResponse,
		request: RequestInfo,
		abort: () => void,
	): Promise<never> {
		const headers = raw.headers as IDataObject;
		await this.readBody(raw.body, request, abort, Date.now() + 5_000, 64 * 1024).catch(
			() => undefined,
		);
		abort();
		throw redirectRefused(
			this.node,
			request,
			Number(raw.statusCode),
			headerValue(headers, 'location'),
			await this.apiRoot(),
		);
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

	/** The error of an answer that is not a success (a tier refusal is remembered for the run). */
	protected refusal(
		request: RequestInfo,
		statusCode: number,
		body: unknown,
		contentType: string | undefined,
		rateLimit: RateLimitState | undefined,
	) {
		const error = mapHttpError(this.node, request, { statusCode, body, contentType, rateLimit });
		this.learn(error);
		return error;
	}
}
