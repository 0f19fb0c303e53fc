/**
 * When a request is sent again: after an hourly 429 when the caller allows a wait (the client waits
 * for the reset, bounds.ts), and after 502/503/504, a broken connection or a JSON answer cut short,
 * for reads only: whether an endpoint is a read comes from the contract's endpoint table, so a
 * create is never repeated.
 */
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
