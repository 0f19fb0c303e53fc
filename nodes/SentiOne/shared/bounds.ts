/**
 * Every bound the nodes put on a value the server controls before it reaches a timer, a URL, saved
 * state or memory (docs/reliability.md, "Bounds on what the server controls", lists the threats
 * each one answers). One place, so a bound is changed once and tested once.
 */
import { MINUTE_MS } from './units';

export const BOUNDS = {
	/** setTimeout fires at once past 2^31 − 1 ms; no wait may reach it */
	maxTimerMs: 2 ** 31 - 1,
	/**
	 * A rate-limit reset (header `x-rate-limit-reset`, or the instant in a 429 message) further
	 * ahead than this is implausible for hourly windows (D-07) and counts as unknown.
	 */
	resetMaxAheadMs: 65 * MINUTE_MS,
	/** A reset further behind than this (clock skew aside) is stale and counts as unknown. */
	resetMaxBehindMs: 5 * MINUTE_MS,
	/** First wait after an hourly 429, whatever the reset says: never a resend storm. */
	rateLimitFirstWaitMs: 5_000,
	/** Each further 429 wait of one request is at least this factor longer than the last. */
	rateLimitWaitGrowth: 4,
	/** Longest single wait for a rate-limit reset (one hourly window and a margin). */
	rateLimitMaxWaitMs: 65 * MINUTE_MS,
	/**
	 * The clock difference between n8n and SentiOne the node allows for where no answer told it
	 * (D-50): a gap search reaches this much further on both sides.
	 */
	maxClockSkewMs: 15 * MINUTE_MS,
	/** How far ahead of the node's own clock a collectedAt may move the poll trigger's watermark. */
	futureAllowanceMs: 5 * MINUTE_MS,
	/** Instants outside these years are not plausible dates for SentiOne data or input. */
	earliestPlausibleMs: Date.UTC(1990, 0, 1),
	latestPlausibleMs: Date.UTC(2100, 0, 1),
	/** A cursor longer than this cannot be sent back in a URL: the answer is unusable. */
	maxCursorChars: 4096,
	/** Ids longer than this are remembered by their SHA-256 (trigger memories stay small). */
	maxIdChars: 64,
	/**
	 * The longest mention id: one SentiOne sends longer than this is not one it issues (the mention
	 * counts as having none), and a Mention ID parameter longer than it is refused. One bound, so
	 * every id a trigger passes on can be tagged.
	 */
	maxMentionIdChars: 1024,
	/** Pages in a row that bring nothing new (empty, or only repeats) before paging stops. */
	maxPagesWithoutProgress: 3,
	/** Longest a whole JSON answer (one page) may take to arrive, headers to last byte. */
	requestDeadlineMs: 3 * MINUTE_MS,
	/**
	 * The stall limit of a JSON answer: it is one event, so it must arrive whole within this of its
	 * headers; bytes trickling in do not extend it (transport/bodyGuard.ts).
	 */
	answerStallMs: MINUTE_MS,
	/**
	 * The stall limit of an export stream (the action's and a trigger's catch-up): it fails after
	 * this long without a complete event (a mention or a heartbeat, sent every 15 s); bytes,
	 * comments, unknown or unreadable events do not count. The live streams have their own (the
	 * Stream Trigger's Options → Stall Timeout).
	 */
	exportStallMs: 2 * MINUTE_MS,
	/** A Location header is quoted at most this long in an error. */
	maxQuotedChars: 200,
} as const;

/** A delay for a timer: finite, at least `min`, at most `max` and never past the timer limit. */
export function boundedDelay(ms: number, min = 0, max: number = BOUNDS.maxTimerMs): number {
	const ceiling = Math.min(max, BOUNDS.maxTimerMs);
	const floor = Math.min(Math.max(0, min), ceiling);
	const value = Number.isFinite(ms) ? Math.round(ms) : ceiling;
	return Math.min(ceiling, Math.max(floor, value));
}

/** True for an epoch-ms instant inside the plausible years. */
export function plausibleInstant(ms: unknown): ms is number {
	return (
		typeof ms === 'number' &&
		Number.isFinite(ms) &&
		ms >= BOUNDS.earliestPlausibleMs &&
		ms <= BOUNDS.latestPlausibleMs
	);
}

/**
 * A rate-limit reset instant (epoch ms) the nodes may act on, or undefined (unknown) when it is
 * implausible: not a number, too far ahead for an hourly window, or stale. `raw` is what the
 * server sent, already read as a number: Unix seconds per the specification; a value that is only
 * plausible read as milliseconds is taken as milliseconds.
 */
export function plausibleReset(
	raw: number | undefined,
	now: number,
	unit: 'seconds' | 'ms' = 'seconds',
): number | undefined {
	if (raw === undefined || !Number.isFinite(raw)) return undefined;
	const inRange = (ms: number) =>
		ms >= now - BOUNDS.resetMaxBehindMs && ms <= now + BOUNDS.resetMaxAheadMs;
	const asMs = unit === 'seconds' ? raw * 1000 : raw;
	if (inRange(asMs)) return asMs;
	if (unit === 'seconds' && inRange(raw)) return raw;
	return undefined;
}
