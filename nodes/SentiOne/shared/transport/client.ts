/**
 * The client every request of the action node, the triggers and the list searches goes through.
 * One is made per execution (or trigger activation), so what a run learns carries over from one
 * request to the next (session.ts). Its parts:
 * - send.ts: the wire — `httpRequestWithAuthentication` (the credential adds the key), never a
 *   redirect followed, every body read through the body guard (bodyGuard.ts);
 * - request.ts: one call with the retry rules (retry.ts): a wait for an hourly rate-limit reset
 *   when the caller allows it, a few retries of reads after transient failures;
 * - openStream.ts: a stream, its items through the one stream reader (streamBody.ts);
 * - every failure through the one error mapper (../errors);
 * - cancel.ts: a stopped run (n8n's execution-cancel signal, or the caller's) ends every wait at
 *   once and lets no request be sent after it; `wait()` is the one wait of the package.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { EndpointGroup } from '../contract';
import type { RateLimitState } from '../errors';
import type { WaitClock } from './cancel';
import { openStream } from './openStream';
import { request } from './request';
import { Session } from './session';
import type { ApiContext, ApiRequest, ApiResult, StreamRequest, TransportOptions } from './types';

export class SentiOneTransport {
	private readonly session: Session;

	constructor(ctx: ApiContext, options: TransportOptions = {}) {
		this.session = new Session(ctx, options);
	}

	/** The last rate-limit state seen per endpoint group. */
	get rateLimits(): Partial<Record<EndpointGroup, RateLimitState>> {
		return this.session.rateLimits;
	}

	/** HTTP requests sent through this transport (retries and stream opens included). */
	get requestsSent(): number {
		return this.session.requestsSent;
	}

	get node(): INode {
		return this.session.node;
	}

	/** The workflow's time zone, in which messages show instants. */
	get zone(): string {
		return this.session.zone;
	}

	/** n8n's execution-cancel signal (an action's; undefined for polls and triggers). */
	get signal(): AbortSignal | undefined {
		return this.session.cancel;
	}

	/** True once the execution was stopped (or `signal`, the caller's own, aborted). */
	stopped(signal?: AbortSignal): boolean {
		return this.session.stopped(signal);
	}

	/**
	 * The one wait of the package (cancel.ts): `ms` on the node's clock (`on: 'real'`: real time),
	 * ended at once when the execution is stopped or `signal` aborts — then it throws the error of a
	 * stopped run (`The execution was stopped <doing>`), and no request follows.
	 */
	async wait(
		ms: number,
		doing: string,
		options: { signal?: AbortSignal; itemIndex?: number; on?: WaitClock } = {},
	): Promise<void> {
		await this.session.wait(ms, doing, options);
	}

	/** One API call with the retry policy; resolves with the parsed JSON body. */
	async request<T = IDataObject>(req: ApiRequest): Promise<ApiResult<T>> {
		return await request<T>(this.session, req);
	}

	/**
	 * Opens a stream. Errors before the stream starts are mapped like any request; no retry is made
	 * here because every open spends the small stream budget — the caller decides.
	 */
	async openStream(req: StreamRequest) {
		return await openStream(this.session, req);
	}
}
