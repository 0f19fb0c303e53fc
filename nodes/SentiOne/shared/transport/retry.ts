/**
 * When a request is sent again: after an hourly 429 when the caller allows a wait (how long:
 * `rateLimitWait`, bounded whatever the server says), and after 502/503/504, a broken connection or
 * a JSON answer cut short, for reads only: whether an endpoint is a read comes from the contract's
 * endpoint table, so a create is never repeated.
 */
import { BOUNDS, boundedDelay } from '../bounds';
import { HOUR_MS } from '../units';

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

/** True when the request was cancelled (by the caller, or n8n cancelling the execution). */
export function isCancelled(error: unknown): boolean {
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

/** A connection failure that may not happen again: worth a retry of a read. */
export function isTransientNetwork(error: unknown): boolean {
	const e = error as {
		code?: unknown;
		message?: unknown;
		cause?: { code?: unknown; message?: unknown };
	};
	const code = String(e?.cause?.code ?? e?.code ?? '');
	if (TRANSIENT_CODES.has(code)) return true;
	const message = String(e?.cause?.message ?? e?.message ?? '');
	return /socket hang up|aborted|timeout/i.test(message);
}

/** Statuses of a server that may answer next time. */
export const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** Start of the next UTC hour after `now` (D-07: windows are aligned to the top of the hour). */
export function nextHourStart(now: number): number {
	return (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
}

/**
 * How long to wait before sending again after the `waitsSoFar`-th hourly 429 of one request:
 * until the reset when it is known and plausible, else until the top of the next hour (D-07);
 * never less than a spacing that grows with every wait (5 s, 20 s, 80 s …), never more than one
 * window. So a reset in the past, a reset that never moves, or none at all cannot make the node
 * resend more than a handful of times an hour.
 */
export function rateLimitWait(
	resetAt: number | undefined,
	now: number,
	waitsSoFar: number,
): number {
	const target = resetAt !== undefined && resetAt > now ? resetAt : nextHourStart(now);
	const spacing =
		BOUNDS.rateLimitFirstWaitMs *
		BOUNDS.rateLimitWaitGrowth ** Math.max(0, Math.min(10, waitsSoFar));
	return boundedDelay(
		target - now + 1000,
		Math.min(spacing, BOUNDS.rateLimitMaxWaitMs),
		BOUNDS.rateLimitMaxWaitMs,
	);
}
