/**
 * The only module that talks HTTP. Every request of the action node, the triggers and the list
 * searches goes through `SentiOneTransport` (client.ts); the wire, the retry loop, streams, the
 * body guard, the retry rules, the rate-limit headers and the one wait a stop ends (cancel.ts)
 * each have a file of their own here.
 */
export type {
	ApiContext,
	ApiRequest,
	ApiResult,
	OpenStream,
	StreamRequest,
	TransportOptions,
} from './types';
export { SentiOneTransport } from './client';
export { isStopped } from './cancel';
export { readRateLimit } from './rateLimitHeaders';
export type { RetryPolicy } from './retry';
export { DEFAULT_RETRY, nextHourStart, rateLimitWait } from './retry';
