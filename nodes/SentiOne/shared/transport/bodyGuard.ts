/**
 * The body guard: every body is read as a stream with a size cap, a stall limit and a total
 * deadline, so a hostile or broken server can neither exhaust memory nor hang the node.
 *
 * Bytes are not progress. Progress is a complete event, which the caller reports: a stream's
 * mentions, heartbeats and engagement updates (streamBody.ts); a JSON answer is one event, the
 * whole answer, so it must arrive within the stall limit however its bytes trickle in. A server
 * dripping bytes, sending an endless line, comments, events of unknown kinds or unreadable ones
 * cannot keep a body alive past its limit (docs/reliability.md, "Stalls").
 */
import { sleep } from 'n8n-workflow';

import { MINUTE_MS } from '../units';
import { readJson } from '../json';

/** A body as n8n's HTTP stack hands it over: chunks, and a way to drop the connection. */
export interface Chunked {
	[Symbol.asyncIterator](): AsyncIterator<Uint8Array | string>;
	destroy?: (error?: Error) => void;
}

/** No complete event for the stall limit (`stallMs`). */
export class StallError extends Error {
	constructor(readonly stallMs: number) {
		super(`no complete event for ${durationText(stallMs)}`);
	}
}

export class DeadlineError extends Error {}

export class SizeError extends Error {}

/** The run was stopped (cancel.ts): the body is dropped at once. */
export class StoppedError extends Error {}

/** When the body last made progress: the last complete event, or the start of the read. */
interface Liveness {
	at: number;
}

export interface Guard {
	/** the stall limit: longest time without a complete event (real time) */
	stallMs: number;
	/** absolute deadline (Date.now() ms); none when undefined */
	deadlineAt?: number;
	/** set at the start of the read; the caller moves it on every complete event it reads */
	liveness: Liveness;
	/** the run's stop (cancel.ts): aborting it drops the body at once */
	signal?: AbortSignal;
}

/**
 * Yields the chunks of a body, but fails with StallError once no complete event was reported for
 * `stallMs` while it waits for the next chunk (never while the caller is busy with the last one:
 * what arrived meanwhile is read first), with DeadlineError once the deadline passes, and with
 * StoppedError the moment the run's signal aborts. Uses one cancellable sleep at a time (no timers
 * are left behind) and a fresh promise per wait.
 */
export async function* guardedChunks(
	body: Chunked,
	guard: Guard,
): AsyncGenerator<Uint8Array | string> {
	const iterator = body[Symbol.asyncIterator]();
	const watchdog = new AbortController();
	let failWait: ((error: Error) => void) | undefined;
	const step = Math.max(10, Math.min(1000, Math.floor(guard.stallMs / 4)));
	const verdict = (): Error | undefined => {
		const now = Date.now();
		if (guard.deadlineAt !== undefined && now >= guard.deadlineAt)
			return new DeadlineError('deadline');
		if (now - guard.liveness.at >= guard.stallMs) return new StallError(guard.stallMs);
		return undefined;
	};
	const watch = async () => {
		while (!watchdog.signal.aborted) {
			try {
				await sleep(step, watchdog.signal);
			} catch {
				return;
			}
			if (watchdog.signal.aborted) return;
			const problem = failWait ? verdict() : undefined;
			if (problem && failWait) failWait(problem);
		}
	};
	void watch();
	const stop = () => failWait?.(new StoppedError('stopped'));
	guard.signal?.addEventListener('abort', stop, { once: true });
	try {
		for (;;) {
			if (guard.signal?.aborted) throw new StoppedError('stopped');
			const next = await new Promise<IteratorResult<Uint8Array | string>>((resolve, reject) => {
				failWait = reject;
				iterator.next().then(resolve, reject);
			});
			failWait = undefined;
			if (next.done) return;
			if (guard.deadlineAt !== undefined && Date.now() >= guard.deadlineAt)
				throw new DeadlineError('deadline');
			yield next.value;
		}
	} finally {
		failWait = undefined;
		guard.signal?.removeEventListener('abort', stop);
		watchdog.abort();
	}
}

/** A duration for a message: `0.5 s`, `45 s`, `2 min`. */
export function durationText(ms: number): string {
	if (ms >= 10 * MINUTE_MS || (ms >= MINUTE_MS && ms % MINUTE_MS === 0))
		return `${Math.round(ms / MINUTE_MS)} min`;
	if (ms < 10_000 && ms % 1000 !== 0) return `${Math.round(ms / 100) / 10} s`;
	return `${Math.round(ms / 1000)} s`;
}

export function minutesText(ms: number): string {
	return ms >= MINUTE_MS ? `${Math.round(ms / MINUTE_MS)} min` : `${Math.round(ms / 1000)} s`;
}

export function formatBytes(bytes: number): string {
	if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`;
	if (bytes < 1000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
	return `${Math.round(bytes / 1000)} kB`;
}

function toBytes(chunk: Uint8Array | string): Uint8Array {
	return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

export interface BodyLimits {
	/** the stall limit: the whole answer (its one event) must arrive within it, bytes or not */
	stallMs: number;
	/** absolute deadline (Date.now() ms) */
	deadlineAt: number;
	/** the deadline as a duration, for the message */
	deadlineMs: number;
	maxBytes: number;
	/** the run's stop: the read ends at once with `stopped` */
	signal?: AbortSignal;
}

/**
 * What reading a whole body gave: its text; `broken` for a connection that broke, or that sent
 * nothing of the answer within the stall limit (a read may be retried); `unusable` for an answer a
 * retry would only repeat (too large, started but not whole within the stall limit or the
 * deadline); `stopped` when the run was stopped. On anything but text the connection is released.
 */
export type BodyRead =
	| { text: string }
	| { broken: string }
	| { unusable: string }
	| { stopped: true };

/**
 * Reads a whole (non-stream) body within the size cap, the stall limit and the deadline. A JSON
 * answer is one event: it must arrive whole within the stall limit of the start of the read;
 * bytes trickling in do not extend it.
 */
export async function readWholeBody(
	stream: unknown,
	limits: BodyLimits,
	abort: () => void,
): Promise<BodyRead> {
	if (typeof stream === 'string') return { text: stream };
	if (stream === undefined || stream === null) return { text: '' };
	if (!(Symbol.asyncIterator in (stream as object))) return { text: JSON.stringify(stream) };
	const body = stream as Chunked;
	const chunks: Uint8Array[] = [];
	let size = 0;
	let lastByteAt = Date.now();
	let problem: string | undefined;
	const guard: Guard = {
		stallMs: limits.stallMs,
		deadlineAt: limits.deadlineAt,
		liveness: { at: Date.now() },
		signal: limits.signal,
	};
	try {
		for await (const chunk of guardedChunks(body, guard)) {
			const bytes = toBytes(chunk);
			size += bytes.length;
			lastByteAt = Date.now();
			if (size > limits.maxBytes) {
				problem = `the answer is larger than ${formatBytes(limits.maxBytes)}, far beyond any documented response`;
				break;
			}
			chunks.push(bytes);
		}
	} catch (error) {
		abort();
		body.destroy?.();
		if (error instanceof StoppedError || limits.signal?.aborted) return { stopped: true };
		if (error instanceof DeadlineError) {
			return {
				unusable: `the answer was still arriving after ${minutesText(limits.deadlineMs)} (${formatBytes(size)} received), far longer than one answer takes`,
			};
		}
		if (error instanceof StallError) return stalled(size, Date.now() - lastByteAt, limits.stallMs);
		return { broken: 'the connection broke while the answer was being received' };
	}
	if (problem) {
		abort();
		body.destroy?.();
		return { unusable: problem };
	}
	return { text: Buffer.concat(chunks, size).toString('utf8') };
}

/**
 * A JSON answer not whole within its stall limit. A connection that went silent (nothing for at
 * least half the limit) is broken, and a read is worth another try; one still trickling bytes is
 * not (another try would only repeat it).
 */
function stalled(size: number, silentMs: number, stallMs: number): BodyRead {
	const limit = `${durationText(stallMs)}, the stall limit`;
	if (size === 0) return { broken: `the server sent nothing of the answer for ${limit}` };
	if (silentMs >= stallMs / 2) {
		return {
			broken: `the server stopped sending the answer: it was not whole within ${limit} (${formatBytes(size)} had arrived, then nothing for ${durationText(silentMs)})`,
		};
	}
	return {
		unusable: `the answer did not arrive whole within ${limit} (${formatBytes(size)} had arrived; bytes trickling in do not extend the limit)`,
	};
}

/** An answer's text as JSON when it is JSON, else the text itself (an empty text is not JSON). */
export function parseJsonOrText(
	text: string,
): { json: true; value: unknown } | { json: false; value: string } {
	if (text.trim() === '') return { json: false, value: text };
	try {
		return { json: true, value: readJson(text) };
	} catch {
		return { json: false, value: text };
	}
}
