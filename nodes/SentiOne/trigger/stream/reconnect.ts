/**
 * When and how a stream trigger reconnects (pure functions, no clock of their own):
 * - backoff: 0.5 s after a healthy connection ends, doubling per failure in a row, at most 60 s;
 * - after hourly 429s in a row: never sooner than the (plausible) reset, or the next hour
 *   (rateLimitWait);
 * - the stream budget (5 connections an hour for the live stream, from the rate-limit headers):
 *   none left → wait for the reset; two or fewer left while failing → spread them over the rest
 *   of the hour instead of spending them in seconds; once a reset stated ahead has passed, the
 *   stated count is of an old window and ignored (none left and no usable reset → next hour);
 * - recovery: `backfillMinutes` covering the outage (at most 5) and, for a longer outage, the
 *   collected-at range a search has to fill.
 * - which failures retrying cannot fix.
 */
import { BOUNDS, boundedDelay } from '../../shared/bounds';
import { BACKFILL_MINUTES_MAX, CREDENTIAL_ERROR_PREFIX } from '../../shared/contract';
import type { RateLimitState } from '../../shared/errors';
import { errorDetails } from '../../shared/errors';
import { nextHourStart, rateLimitWait } from '../../shared/transport';
import { MINUTE_MS } from '../../shared/units';

export const RECONNECT = {
	firstDelayMs: 500,
	maxDelayMs: 60_000,
	/** a connection open at least this long resets the backoff */
	healthyAfterMs: 60_000,
	/** failed connection attempts in a row (budget waits aside) before the failure is reported as persistent */
	maxFailedOpens: 6,
	/** clock skew and transit: backfill and gap ranges reach this much further on both sides */
	marginMs: 30_000,
	/** stream connections kept in reserve before reconnects are spread over the hour */
	lowBudget: 2,
	/**
	 * A connection's backfill has arrived this long after it opened (it comes first, shuffled with
	 * the live mentions, D-48): until then what the backfill covers is not yet received.
	 */
	backfillSettleMs: 10_000,
} as const;

export function backoffDelay(level: number): number {
	const exponent = Math.max(0, Math.min(20, Math.floor(level)));
	return Math.min(RECONNECT.maxDelayMs, RECONNECT.firstDelayMs * 2 ** exponent);
}

export interface ReconnectWait {
	waitMs: number;
	/** the wait is for the stream budget, not backoff */
	budget: boolean;
}

export function reconnectWait(
	level: number,
	budget: RateLimitState | undefined,
	now: number,
): ReconnectWait {
	const delay = backoffDelay(level);
	const remaining = budget?.remaining;
	const resetAt = budget?.resetAt;
	// a reset that was still ahead when the headers were read and has passed since: the window
	// they spoke of is over, so their count says nothing about the budget now (plain backoff; a
	// refusal would be an hourly 429, waited for by the caller)
	if (
		resetAt !== undefined &&
		resetAt <= now &&
		budget?.readAt !== undefined &&
		resetAt > budget.readAt
	)
		return { waitMs: delay, budget: false };
	if (remaining !== undefined && remaining <= 0 && (resetAt === undefined || resetAt <= now)) {
		// no connection left and no usable reset (none, or already past when it was stated): the top
		// of the next hour (D-07), not a loop
		return {
			waitMs: Math.max(
				delay,
				boundedDelay(nextHourStart(now) - now + 1000, 0, BOUNDS.rateLimitMaxWaitMs),
			),
			budget: true,
		};
	}
	if (remaining === undefined || resetAt === undefined || resetAt <= now)
		return { waitMs: delay, budget: false };
	// resetAt is plausible (transport.readRateLimit): within the hour; bounded again all the same
	const untilReset = boundedDelay(resetAt - now, 0, BOUNDS.rateLimitMaxWaitMs);
	if (remaining <= 0) return { waitMs: Math.max(delay, untilReset + 1000), budget: true };
	if (remaining <= RECONNECT.lowBudget && level >= 2) {
		const spread = Math.floor(untilReset / (remaining + 1));
		if (spread > delay) return { waitMs: spread, budget: true };
	}
	return { waitMs: delay, budget: false };
}

/**
 * How long to wait before the next connection: the backoff of `level` failures in a row, or
 * longer for the stream budget (`budget`, the rate-limit state last seen for the stream); after
 * `hourlyRefusals` hourly refusals in a row never sooner than the (plausible) reset, or the next
 * hour.
 */
export function reconnectDelay(
	level: number,
	budget: RateLimitState | undefined,
	hourlyRefusals: number,
	now: number,
): ReconnectWait {
	const wait = reconnectWait(level, budget, now);
	if (hourlyRefusals > 0) {
		const limited = rateLimitWait(budget?.resetAt, now, hourlyRefusals - 1);
		if (limited > wait.waitMs) {
			wait.waitMs = limited;
			wait.budget = true;
		}
	}
	return wait;
}

export interface Recovery {
	/** backfillMinutes to ask for on the new connection (1–5) */
	backfillMinutes: number;
	/** collected-at range (epoch ms, `to` exclusive) the backfill cannot reach */
	gap?: { from: number; to: number };
}

/** What a reconnect at `reconnectAt` must recover after the stream was last alive at `lastAliveAt`. */
export function recoveryPlan(lastAliveAt: number, reconnectAt: number): Recovery {
	const outageMs = Math.max(0, reconnectAt - lastAliveAt) + RECONNECT.marginMs;
	const maxMs = BACKFILL_MINUTES_MAX * MINUTE_MS;
	const backfillMinutes = Math.min(
		BACKFILL_MINUTES_MAX,
		Math.max(1, Math.ceil(outageMs / MINUTE_MS)),
	);
	if (outageMs <= maxMs) return { backfillMinutes };
	return {
		backfillMinutes,
		gap: { from: lastAliveAt - RECONNECT.marginMs, to: reconnectAt - maxMs + RECONNECT.marginMs },
	};
}

/**
 * A range of the node's clock (when the stream was down, when a malformed event arrived) as the
 * collectedAt range SentiOne dated those mentions in (D-50): shifted by how far SentiOne's clock is
 * ahead (`offset`, from the Date of its answers); when no answer told it, widened on both sides
 * by the clock skew the node allows for (BOUNDS.maxClockSkewMs), so a gap is never filled on the
 * wrong side of a clock difference — what it brings twice is dropped as passed on.
 */
export function onServerClock(range: { from: number; to: number }, offset: number | undefined) {
	if (offset === undefined)
		return { from: range.from - BOUNDS.maxClockSkewMs, to: range.to + BOUNDS.maxClockSkewMs };
	return { from: range.from + offset, to: range.to + offset };
}

export type FailureKind = 'permanent' | 'hourlyLimit' | 'busy' | 'transient';

/** How a failed connection attempt should be handled. */
export function failureKind(error: unknown): FailureKind {
	const details = errorDetails(error);
	const status = details?.statusCode;
	if (status === undefined) {
		const message = (error as { message?: unknown })?.message;
		return typeof message === 'string' && message.includes(CREDENTIAL_ERROR_PREFIX)
			? 'permanent'
			: 'transient';
	}
	if (status === 429) {
		if (details?.rateLimitKind === 'monthlyCap') return 'permanent';
		return details?.rateLimitKind === 'concurrent' ? 'busy' : 'hourlyLimit';
	}
	if (status >= 500 || status === 408) return 'transient';
	return 'permanent';
}
