/**
 * What all the requests of one transport share: the n8n context they are sent through, the
 * transport's limits, and what the run has learned — the rate-limit state of every group, the tiers
 * SentiOne refused (an operation needing a refused tier fails without a request), the requests sent.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { BOUNDS } from '../bounds';
import type { EndpointGroup, Tier } from '../contract';
import type { RateLimitState, RequestInfo } from '../errors';
import { errorDetails, mapHttpError, tierKnownRefused } from '../errors';
import type { WaitClock } from './cancel';
import { anySignal, executionCancelSignal, stoppedError, wait } from './cancel';
import { readRateLimit } from './rateLimitHeaders';
import type { ApiContext, TransportOptions } from './types';

/** The transport's limits where its options set none. */
export const DEFAULTS = {
	timeoutMs: 60_000,
	idleTimeoutMs: BOUNDS.answerStallMs,
	maxBodyBytes: 32 * 1024 * 1024,
	deadlineMs: BOUNDS.requestDeadlineMs,
};

export class Session {
	/** The last rate-limit state seen per endpoint group. */
	readonly rateLimits: Partial<Record<EndpointGroup, RateLimitState>> = {};

	/** HTTP requests sent (retries and stream opens included). */
	requestsSent = 0;

	/** tiers SentiOne refused this key in this run: operations needing them fail without a request */
	private readonly refusedTiers = new Set<Tier>();

	/** n8n's execution-cancel signal (an action's), read once: the user stopping the run aborts it */
	readonly cancel: AbortSignal | undefined;

	constructor(
		readonly ctx: ApiContext,
		readonly options: TransportOptions,
	) {
		this.cancel = executionCancelSignal(ctx);
	}

	/** The signal a call honours: the execution's cancel signal and the caller's own, combined. */
	signalFor(signal?: AbortSignal): AbortSignal | undefined {
		return anySignal(this.cancel, signal);
	}

	/** True once the execution was stopped or the caller's signal aborted. */
	stopped(signal?: AbortSignal): boolean {
		return this.cancel?.aborted === true || signal?.aborted === true;
	}

	/** The error of a stopped run, `doing` saying what the node was at (`while it waited for …`). */
	stoppedError(doing: string, itemIndex?: number): Error {
		return stoppedError(this.node, this.cancel?.aborted === true, doing, itemIndex);
	}

	/** Throws the error of a stopped run when it is stopped: nothing is sent after a stop. */
	throwIfStopped(signal: AbortSignal | undefined, doing: string, itemIndex?: number): void {
		if (this.stopped(signal)) throw this.stoppedError(doing, itemIndex);
	}

	/**
	 * The one wait of the package (cancel.ts): `ms` on the node's clock (or real time), ended at
	 * once by a stop, which throws the error of a stopped run.
	 */
	async wait(
		ms: number,
		doing: string,
		options: { signal?: AbortSignal; itemIndex?: number; on?: WaitClock } = {},
	): Promise<void> {
		const signal = this.signalFor(options.signal);
		if (!(await wait(ms, signal, options.on))) throw this.stoppedError(doing, options.itemIndex);
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

	/** What errors say of a request. */
	info(req: Omit<RequestInfo, 'zone'>): RequestInfo {
		const { endpoint, method, path, group, tier, itemIndex } = req;
		return { endpoint, method, path, group, tier, itemIndex, zone: this.zone };
	}

	/** The error for a request whose tier was already refused in this run, if it is. */
	knownRefusal(request: RequestInfo): Error | undefined {
		return this.refusedTiers.has(request.tier) ? tierKnownRefused(this.node, request) : undefined;
	}

	/** The rate-limit state of an answer, remembered for its group. */
	rateLimitOf(headers: IDataObject, group: EndpointGroup): RateLimitState | undefined {
		const rateLimit = readRateLimit(headers, group);
		if (rateLimit) this.rateLimits[rateLimit.group] = rateLimit;
		return rateLimit;
	}

	/** The error of an answer that is not a success (a tier refusal is remembered for the run). */
	refusal(
		request: RequestInfo,
		statusCode: number,
		body: unknown,
		contentType: string | undefined,
		rateLimit: RateLimitState | undefined,
	) {
		const error = mapHttpError(this.node, request, { statusCode, body, contentType, rateLimit });
		const tier = errorDetails(error)?.tierRefused;
		if (tier) this.refusedTiers.add(tier);
		return error;
	}
}
