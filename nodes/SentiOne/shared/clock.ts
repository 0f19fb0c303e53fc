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

/** Date headers further than this from the node's clock are not taken as SentiOne's clock (a cached or broken header). */
const IMPLAUSIBLE_OFFSET_MS = 60 * 60_000;
/** The Date header has whole seconds, and the answer took time to arrive: an offset this small is none. */
export const OFFSET_DEADBAND_MS = 3_000;
/** Observations the estimate is the median of (one odd header does not move it). */
const SAMPLES = 5;

/**
 * SentiOne's clock as the node knows it (D-50): every answer's `Date` header, against the node's
 * clock when the headers arrived, gives the offset (SentiOne − node, ms); the estimate is the
 * median of the last few. Instants the server judges by its clock (the 7-day window, a collectedAt
 * "in the future", a trigger's watermark and gap ranges) are computed on `serverClock.now()`.
 * One per process: the answers of one SentiOne tell it, whichever execution sent the request.
 */
export class ServerClock {
	private samples: number[] = [];

	/** The offset of the last Date header ignored as implausibly far (cleared by a plausible one). */
	implausible: number | undefined;

	/** Notes an answer's Date header (ignored when absent, unreadable or implausibly far). */
	observe(dateHeader: unknown, receivedAt = clock.now()): void {
		if (typeof dateHeader !== 'string') return;
		const stated = Date.parse(dateHeader);
		if (!Number.isFinite(stated)) return;
		// the header is whole seconds: the server's time was somewhere in that second
		const offset = stated + 500 - receivedAt;
		if (Math.abs(offset) > IMPLAUSIBLE_OFFSET_MS) {
			this.implausible = offset;
			return;
		}
		this.implausible = undefined;
		this.samples.push(offset);
		if (this.samples.length > SAMPLES) this.samples.shift();
	}

	/**
	 * How far SentiOne's clock is ahead of the node's (negative: behind), in ms; 0 within the
	 * precision of the Date header; undefined before any answer with a usable Date header.
	 */
	get offset(): number | undefined {
		if (this.samples.length === 0) return undefined;
		const sorted = [...this.samples].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)];
		return Math.abs(median) <= OFFSET_DEADBAND_MS ? 0 : Math.round(median);
	}

	/** SentiOne's time now, as well as the node knows it (the node's clock until an answer told). */
	now(): number {
		return clock.now() + (this.offset ?? 0);
	}

	/** Forgets what answers said (a test changing clocks). */
	reset(): void {
		this.samples = [];
		this.implausible = undefined;
	}
}

export const serverClock = new ServerClock();
