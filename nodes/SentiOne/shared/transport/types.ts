/**
 * What a caller hands the transport and gets back: a request (its route comes from the contract's
 * `route()`, so method, group, tier and whether it is a read are the endpoint table's), an open
 * stream, and the transport's own limits (their defaults: session.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
} from 'n8n-workflow';

import type { EndpointGroup, EndpointName, Tier } from '../contract';
import type { RateLimitState } from '../errors';
import type { StreamFormat, StreamItem, StreamStats } from '../stream';
import type { RetryPolicy } from './retry';

export type ApiContext =
	| IExecuteFunctions
	| IPollFunctions
	| ITriggerFunctions
	| ILoadOptionsFunctions;

export interface TransportOptions {
	retry?: Partial<RetryPolicy>;
	/** Time allowed until the response headers arrive. */
	timeoutMs?: number;
	/**
	 * The stall limit (default 60 s, BOUNDS.answerStallMs): a JSON answer, one event, must arrive
	 * whole within it; a stream without one of its own fails after this long without a complete
	 * event. Bytes never extend it.
	 */
	idleTimeoutMs?: number;
	/** Largest JSON answer accepted. */
	maxBodyBytes?: number;
	/** Longest one JSON answer may take, headers to last byte, however it trickles in. */
	deadlineMs?: number;
}

/** What every request names: the contract's `route()` gives all of it from the endpoint table. */
interface Target {
	/** which endpoint of the contract's table (for errors that name the operation) */
	endpoint?: EndpointName;
	path: string;
	group: EndpointGroup;
	tier: Tier;
	qs?: IDataObject;
	itemIndex?: number;
}

export interface ApiRequest extends Target {
	method: IHttpRequestMethods;
	/** Serialised as JSON and always sent when present, `{}` included. */
	body?: IDataObject;
	/** True for reads (GET, searches): only reads are retried after transient failures. */
	read: boolean;
	retry?: Partial<RetryPolicy>;
	/** Aborts the request and any retry wait; the execution's cancel signal does too (cancel.ts). */
	signal?: AbortSignal;
	/** What had arrived before this request (a pager's earlier pages), for the message of a stalled answer. */
	arrived?: string;
	/**
	 * The caller does not read the answer (a delete): any 2xx is done whatever its body (empty,
	 * text, JSON that is not an object), and `body` is `{}`.
	 */
	answerUnused?: boolean;
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

export interface StreamRequest extends Target {
	body: IDataObject;
	format: StreamFormat;
	/** Aborts the connection; the execution's cancel signal does too (cancel.ts). */
	signal?: AbortSignal;
	/** The stall limit: time without a complete event (a mention, a heartbeat, an engagement update; bytes, comments, unknown or unreadable events do not count) after which the stream fails. */
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
