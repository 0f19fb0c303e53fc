/**
 * Why an operation failed, declared on the error for n8n: n8n-workflow 2.41's `NodeError.failure`
 * (`{ cause, retryAfterMs?, resetsAtEpochMs? }`). n8n 2.x's poll scheduler reads it when a poll
 * fails and backs off by it: a timed cause waits at least until the declared reset or retry time
 * (capped at an hour), an actionable cause backs off the longest. Nothing else in n8n reads it.
 *
 * It is set as a property after the error is built, never as a constructor option: n8n 1.x's
 * errors take no such option, and there the property is an extra field nothing reads. Only the
 * type comes from n8n-workflow, so nothing new is loaded at run time.
 *
 * What each failure declares (the mapper decides in httpErrors.ts and connectionErrors.ts; the
 * few errors built elsewhere take a constructor of this file):
 * - `quota-exhausted` + `resetsAtEpochMs`: an hourly budget is spent (a 429 of the hourly kind,
 *   or the node knows the budget is spent and sends nothing), the monthly mentions cap (D-09);
 * - `rate-limited` (+ `retryAfterMs` when a reset is known): SentiOne throttles otherwise — too
 *   many open streams, a 429 that does not state an hourly budget;
 * - `temporarily-unavailable`: 5xx and 408, no answer (network), an answer broken off, stalled or
 *   unusable, a stream that broke off or went silent, a server paging in circles;
 * - `credential-invalid`: a key SentiOne does not recognise or that is missing or ill-shaped (401),
 *   and the credential's own refusals before anything is sent;
 * - `configuration-invalid`: a tier the key lacks, a project or mention that is not there, a route
 *   the server does not offer, a value SentiOne refuses (400, 422), a redirect, a Base URL that
 *   does not speak https, a parameter refused before sending, a cap the user set that was reached.
 */
import type { Failure } from 'n8n-workflow';

import { clock } from '../clock';
import { nextHourStart } from '../transport/retry';

export type { Failure };

/** The cause of a failure, one of n8n's. */
export type FailureCause = Failure['cause'];

/** Declares why `error` failed (none: left as it is). Returns the error. */
export function declareFailure<T extends object>(error: T, failure: Failure | undefined): T {
	if (failure !== undefined) (error as { failure?: Failure }).failure = failure;
	return error;
}

/** The failure an error declares, if it declares one. */
export function failureOf(error: unknown): Failure | undefined {
	const failure = (error as { failure?: unknown } | null | undefined)?.failure;
	if (!failure || typeof failure !== 'object') return undefined;
	return typeof (failure as { cause?: unknown }).cause === 'string'
		? (failure as Failure)
		: undefined;
}

/** A whole number of ms, or undefined for anything that is not a finite instant. */
function instant(ms: number | undefined): number | undefined {
	return ms !== undefined && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** 00:00 UTC of the 1st of the month after `now` (D-09: the monthly cap is per calendar month). */
function firstOfNextMonth(now: number): number {
	const date = new Date(now);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

export const FAILURES = {
	/** An hourly budget is spent until `resetAt` (unknown: the top of the next hour, D-07 and retry.ts). */
	hourlyBudgetSpent(resetAt: number | undefined, now = clock.now()): Failure {
		return {
			cause: 'quota-exhausted',
			resetsAtEpochMs: instant(resetAt) ?? nextHourStart(now),
		};
	},
	/** The monthly mentions cap is reached until `resetAt` (unknown: the 1st of next month, D-09). */
	monthlyCapReached(resetAt: number | undefined, now = clock.now()): Failure {
		return {
			cause: 'quota-exhausted',
			resetsAtEpochMs: instant(resetAt) ?? firstOfNextMonth(now),
		};
	},
	/** SentiOne throttles without naming a budget; `retryAfterMs` when a wait is known. */
	rateLimited(retryAfterMs?: number): Failure {
		const wait = instant(retryAfterMs);
		return wait !== undefined && wait > 0
			? { cause: 'rate-limited', retryAfterMs: wait }
			: { cause: 'rate-limited' };
	},
	temporarilyUnavailable(): Failure {
		return { cause: 'temporarily-unavailable' };
	},
	credentialInvalid(): Failure {
		return { cause: 'credential-invalid' };
	},
	configurationInvalid(): Failure {
		return { cause: 'configuration-invalid' };
	},
} as const;
