/**
 * Options → Mark Delivered When (issue 21.5), the rules: when an item the Stream Trigger passed on
 * counts as delivered, how its execution's outcome is read, how often and how long it is passed on
 * again, and how much may wait. Pure (no clock, no n8n context); the class that keeps the items
 * waiting is redelivery.ts.
 *
 * - **Emitted** (the default, and the behaviour before the option existed): delivered once
 *   `emit` was called, whatever its execution does.
 * - **Execution Finished**: delivered once n8n reports its execution ended, successfully or not,
 *   a cancelled one included; passed on again only when n8n could not run it at all.
 * - **Execution Succeeded**: delivered once an execution ends without an error (or starts waiting:
 *   a Wait node hands it to n8n, which resumes it on its own); after a failed one it is passed on
 *   again, 1, 2, 4, 8, 16 minutes, then every 30 minutes after each failure, MAX_ATTEMPTS
 *   executions in all (the waits add up to 211 minutes), then given up and reported.
 *
 * n8n tells a trigger how an execution ended through `emit`'s done promise (n8n-workflow's
 * `ITriggerFunctions.emit(data, responsePromise?, donePromise?, deduplicationKey?)`), as its
 * RabbitMQ and Kafka triggers use it: resolved with the run (`IRun`: `status`,
 * `data.resultData.error`) once the execution is finalized; with nothing when n8n started no
 * execution for it (n8n 2.41 refuses an execution whose deduplication key exists, and resolves the
 * done promise with `undefined`; an execution n8n fails before it starts ends the same way);
 * rejected when the execution was cancelled (by the user, a timeout or a shutdown) or could not be
 * created.
 */
import type { IRun } from 'n8n-workflow';

import { HOUR_MS, MINUTE_MS } from '../../shared/units';

export type MarkDelivered = 'emitted' | 'executionFinished' | 'executionSucceeded';

export const MARK_DELIVERED: readonly MarkDelivered[] = [
	'emitted',
	'executionFinished',
	'executionSucceeded',
];

export const REDELIVERY = {
	/** the wait after the first failed execution; doubled after each further one */
	firstDelayMs: MINUTE_MS,
	/** the longest wait between two attempts */
	maxDelayMs: 30 * MINUTE_MS,
	/** executions of one item in all (the first included) before it is given up */
	maxAttempts: 12,
	/**
	 * An execution n8n has said nothing of after this long is given up (reported, not passed on
	 * again: it may still be running). n8n 1.x never settles the done promise of an execution it
	 * could not create.
	 */
	noWordMs: HOUR_MS,
	/** items waiting (for their execution or a retry) at most; the oldest are given up beyond */
	maxPending: 500,
	/** and at most this many characters of them as JSON (they are saved with every emit) */
	maxPendingChars: 2 * 1024 * 1024,
} as const;

/** The wait before the next attempt after attempt `failed` (1 = the first) failed. */
export function retryDelay(failed: number): number {
	const exponent = Math.max(0, Math.min(20, Math.floor(failed) - 1));
	return Math.min(REDELIVERY.maxDelayMs, REDELIVERY.firstDelayMs * 2 ** exponent);
}

/** The waits between the attempts of one item, in ms (MAX_ATTEMPTS − 1 of them). */
export function retrySchedule(): number[] {
	return Array.from({ length: REDELIVERY.maxAttempts - 1 }, (_, i) => retryDelay(i + 1));
}

/**
 * The schedule in words, for the option's description and the reports: "1, 2, 4, 8 and 16 minutes
 * after a failed execution, then every half hour, 12 executions in all (over about 3.5 hours)".
 */
export function retryScheduleText(): string {
	const waits = retrySchedule().map((ms) => ms / MINUTE_MS);
	const cap = REDELIVERY.maxDelayMs / MINUTE_MS;
	const rising = waits.filter((m) => m < cap);
	const total = waits.reduce((sum, m) => sum + m, 0);
	const list =
		rising.length > 1
			? `${rising.slice(0, -1).join(', ')} and ${rising[rising.length - 1]}`
			: String(rising[0] ?? cap);
	// (a budget's figures must not appear in the node's texts: 30 is one, contract.test.ts)
	const every = cap === 30 ? 'half hour' : `${cap} minutes`;
	return `${list} minutes after a failed execution, then every ${every}, ${REDELIVERY.maxAttempts} executions in all (over about ${(total / 60).toFixed(1)} hours)`;
}

/** What n8n said of one attempt's execution: the run (or nothing), or why the done promise was rejected. */
export type ExecutionOutcome = { run: IRun | undefined } | { error: unknown };

/** One attempt of an item, as the delivery hands it to the host's emit. */
export interface DeliveryAttempt {
	/** 1 for the first execution of the item, 2 for the first retry … */
	number: number;
	/** to be called once, when n8n settles the attempt's done promise */
	settled(outcome: ExecutionOutcome): void;
}

/**
 * How an attempt ended for the trigger: delivered; failed (pass it on again); or unknown — n8n
 * started no execution the trigger can read (one with its deduplication key exists: it was started
 * before, by this trigger before a restart), which is not passed on again, so nothing runs twice.
 */
export type Verdict = 'delivered' | 'failed' | 'unknown';

const FAILED_STATUSES = ['error', 'crashed', 'canceled'];

/** An execution cancelled (n8n-workflow's ExecutionCancelledError carries the reason). */
function cancelled(error: unknown): boolean {
	const reason = (error as { reason?: unknown } | null)?.reason;
	return reason === 'manual' || reason === 'timeout' || reason === 'shutdown';
}

export function verdict(
	mode: Exclude<MarkDelivered, 'emitted'>,
	outcome: ExecutionOutcome,
): Verdict {
	if ('error' in outcome) {
		// cancelled: it did finish; anything else: n8n could not create or run it
		return mode === 'executionFinished' && cancelled(outcome.error) ? 'delivered' : 'failed';
	}
	const run = outcome.run as Partial<IRun> | undefined | null;
	if (run === undefined || run === null || typeof run !== 'object') return 'unknown';
	if (mode === 'executionFinished') return 'delivered';
	const error = run.data?.resultData?.error;
	const failed =
		(error !== undefined && error !== null) ||
		(typeof run.status === 'string' && FAILED_STATUSES.includes(run.status));
	return failed ? 'failed' : 'delivered';
}
