/**
 * A stopped run. When n8n stops an execution (the user presses Stop, or the workflow's timeout
 * passes) it aborts the execution's cancel signal; a trigger that closes aborts its own signal. One
 * mechanism honours both, everywhere:
 * - every wait of the package is `wait()` here (through `SentiOneTransport.wait`): a rate-limit
 *   reset, a retry backoff, the pager's wait for the budget, a stream trigger's reconnect backoff.
 *   It ends the moment either signal aborts;
 * - no request is sent once either has aborted (`Session.throwIfStopped`, before every send);
 * - a body being read (a JSON answer, a stream) is dropped at once (the body guard watches it).
 * The run then ends with "The execution was stopped …" and nothing more goes to SentiOne.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { boundedDelay } from '../bounds';
import { clock } from '../clock';
import type { ApiContext } from './types';

/** n8n's execution-cancel signal of a context: an action's (polls and triggers have none). */
export function executionCancelSignal(ctx: ApiContext): AbortSignal | undefined {
	const read = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	if (typeof read !== 'function') return undefined;
	try {
		return read.call(ctx) ?? undefined;
	} catch {
		return undefined;
	}
}

/** One signal that aborts when any of `signals` does; undefined when none is given. */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
	const present = signals.filter((s): s is AbortSignal => s !== undefined);
	if (present.length === 0) return undefined;
	return present.length === 1 ? present[0] : AbortSignal.any(present);
}

/** The errors of a stopped run (so a caller can tell them from failures: never retried, never an item error). */
const STOPPED = new WeakSet<object>();

/** True for the error of a stopped run (`stoppedError`). */
export function isStopped(error: unknown): boolean {
	return typeof error === 'object' && error !== null && STOPPED.has(error);
}

/**
 * The error of a stopped run, saying what the node was doing (`while it waited for …`). Worded for
 * the execution when its cancel signal fired; for a caller's own signal (a trigger closing) it reads
 * as a cancelled request, as before.
 */
export function stoppedError(
	node: INode,
	byExecution: boolean,
	doing: string,
	itemIndex?: number,
): NodeOperationError {
	const error = byExecution
		? new NodeOperationError(node, `The execution was stopped ${doing}`, {
				itemIndex,
				description:
					'Nothing more was sent to SentiOne after the stop, and nothing of this run is returned.',
			})
		: new NodeOperationError(node, 'The request to SentiOne was cancelled.', { itemIndex });
	STOPPED.add(error);
	return error;
}

/** Which clock a wait runs on. */
export type WaitClock =
	/** the node's clock (clock.ts): a rate-limit reset and the wait for it agree; tests move it */
	| 'node'
	/** real time: the timing of the connection itself (a retry backoff) */
	| 'real';

/**
 * Waits `ms` (bounded to what a timer can hold) on `on`'s clock. True when the wait passed, false
 * when `signal` aborted first (or had already): the caller stops and sends nothing more.
 */
export async function wait(
	ms: number,
	signal: AbortSignal | undefined,
	on: WaitClock = 'node',
): Promise<boolean> {
	if (signal?.aborted) return false;
	try {
		if (on === 'node') await clock.sleep(boundedDelay(ms), signal);
		else await sleep(boundedDelay(ms), signal);
	} catch {
		// a sleep rejects only when its signal aborts
		return false;
	}
	return !signal?.aborted;
}
