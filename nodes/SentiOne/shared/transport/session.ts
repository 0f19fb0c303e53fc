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
import { readRateLimit } from './rateLimitHeaders';
import type { ApiContext, TransportOptions } from './types';

/** The transport's limits where its options set none. */
export const DEFAULTS = {
	timeoutMs: 60_000,
	idleTimeoutMs: 60_000,
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

	constructor(
		readonly ctx: ApiContext,
		readonly options: TransportOptions,
	) {}

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
