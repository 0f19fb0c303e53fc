/**
 * The one clock every date rule and every rate-limit wait reads: real time in n8n; a test points it
 * at a simulator's virtual clock with `setClock`.
 */
import { sleep } from 'n8n-workflow';

import { boundedDelay } from './bounds';

/** What the node reads the time from and waits with (date rules, rate-limit resets). */
export interface Clock {
	/** epoch milliseconds */
	now(): number;
	/** resolves after `ms` milliseconds of this clock (rejects when `signal` aborts first) */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal) => await sleep(boundedDelay(ms), signal),
};

/**
 * The clock in use. The node and the shared modules call `clock.now()` / `clock.sleep()` instead
 * of `Date.now()` / `sleep()` wherever the API's clock matters (the 7-day window, future dates,
 * waiting for an hourly reset), so a test can run them against a simulator whose clock is not
 * the machine's. Timeouts of the connection itself (stall guards, retry backoff) stay on real time.
 */
export const clock: Clock = { ...realClock };

/** Replaces parts of the clock; returns a function that restores the previous clock. */
export function setClock(replacement: Partial<Clock>): () => void {
	const previous: Clock = { now: clock.now, sleep: clock.sleep };
	if (replacement.now) clock.now = replacement.now;
	if (replacement.sleep) clock.sleep = replacement.sleep;
	return () => {
		clock.now = previous.now;
		clock.sleep = previous.sleep;
	};
}
