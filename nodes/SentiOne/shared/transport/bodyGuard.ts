/**
 * The body guard: every body is read as a stream with a size cap, a stall guard and a total
 * deadline, so a hostile or broken server can neither exhaust memory nor hang the node. A JSON
 * answer counts any arriving chunk as progress; a stream counts only complete events (the caller
 * reports them), so a server dripping bytes, an endless line or comments alone cannot keep it alive.
 */
import { sleep } from 'n8n-workflow';

import { MINUTE_MS } from '../units';

/** A body as n8n's HTTP stack hands it over: chunks, and a way to drop the connection. */
export interface Chunked {
	[Symbol.asyncIterator](): AsyncIterator<Uint8Array | string>;
	destroy?: (error?: Error) => void;
}

export class StallError extends Error {}

export class DeadlineError extends Error {}

export class SizeError extends Error {}

/** When a body last made progress: bytes arriving, or (streams) a complete event. */
interface Liveness {
	at: number;
}

export interface Guard {
	/** silence allowed (real time) */
	idleMs: number;
	/** absolute deadline (Date.now() ms); none when undefined */
	deadlineAt?: number;
	/** 'bytes': any chunk counts as progress; 'events': only the caller's `liveness.at` updates do */
	progress: 'bytes' | 'events';
	liveness: Liveness;
}

/**
 * Yields the chunks of a body, but fails with StallError when no progress was made for `idleMs`
 * while the caller waits for the next chunk, and with DeadlineError once the deadline passes.
 * Progress is a chunk arriving, or, for streams, a complete event the caller reports (so a server
 * dripping bytes, an endless line or comments alone cannot keep a stream alive). Uses one
 * cancellable sleep at a time (no timers are left behind) and a fresh promise per wait.
 */
export async function* guardedChunks(
	body: Chunked,
	guard: Guard,
): AsyncGenerator<Uint8Array | string> {
	const iterator = body[Symbol.asyncIterator]();
	const watchdog = new AbortController();
	let failWait: ((error: Error) => void) | undefined;
	const step = Math.max(10, Math.min(1000, Math.floor(guard.idleMs / 4)));
	const verdict = (): Error | undefined => {
		const now = Date.now();
		if (guard.deadlineAt !== undefined && now >= guard.deadlineAt)
			return new DeadlineError('deadline');
		if (now - guard.liveness.at >= guard.idleMs) {
			return new StallError(
				guard.progress === 'events'
					? `no complete event for ${Math.round(guard.idleMs / 1000)} s`
					: `no data for ${Math.round(guard.idleMs / 1000)} s`,
			);
		}
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
	try {
		for (;;) {
			const next = await new Promise<IteratorResult<Uint8Array | string>>((resolve, reject) => {
				failWait = reject;
				iterator.next().then(resolve, reject);
			});
			failWait = undefined;
			if (next.done) return;
			if (guard.progress === 'bytes') guard.liveness.at = Date.now();
			if (guard.deadlineAt !== undefined && Date.now() >= guard.deadlineAt)
				throw new DeadlineError('deadline');
			yield next.value;
		}
	} finally {
		failWait = undefined;
		watchdog.abort();
	}
}

export function minutesText(ms: number): string {
	return ms >= MINUTE_MS ? `${Math.round(ms / MINUTE_MS)} min` : `${Math.round(ms / 1000)} s`;
}

export function formatBytes(bytes: number): string {
	if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`;
	return `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

function toBytes(chunk: Uint8Array | string): Uint8Array {
	return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

export interface BodyLimits {
	/** silence allowed while reading */
	idleMs: number;
	/** absolute deadline (Date.now() ms) */
	deadlineAt: number;
	/** the deadline as a duration, for the message */
	deadlineMs: number;
	maxBytes: number;
}

/**
 * What reading a whole body gave: its text; `broken` for a connection that broke or went silent
 * (a read may be retried); `unusable` for an answer a retry would only repeat (too large, still
 * arriving at the deadline). On anything but text the connection is released (`abort`).
 */
export type BodyRead = { text: string } | { broken: string } | { unusable: string };

/** Reads a whole (non-stream) body within the size cap, the stall guard and the deadline. */
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
	let problem: string | undefined;
	const guard: Guard = {
		idleMs: limits.idleMs,
		deadlineAt: limits.deadlineAt,
		progress: 'bytes',
		liveness: { at: Date.now() },
	};
	try {
		for await (const chunk of guardedChunks(body, guard)) {
			const bytes = toBytes(chunk);
			size += bytes.length;
			if (size > limits.maxBytes) {
				problem = `the answer is larger than ${formatBytes(limits.maxBytes)}, far beyond any documented response`;
				break;
			}
			chunks.push(bytes);
		}
	} catch (error) {
		abort();
		body.destroy?.();
		if (error instanceof DeadlineError) {
			return {
				unusable: `the answer was still arriving after ${minutesText(limits.deadlineMs)} (${formatBytes(size)} received), far longer than one answer takes`,
			};
		}
		return {
			broken:
				error instanceof StallError
					? `the server stopped sending the answer (${error.message})`
					: 'the connection broke while the answer was being received',
		};
	}
	if (problem) {
		abort();
		body.destroy?.();
		return { unusable: problem };
	}
	return { text: Buffer.concat(chunks, size).toString('utf8') };
}

/** An answer's text as JSON when it is JSON, else the text itself (an empty text is not JSON). */
export function parseJsonOrText(
	text: string,
): { json: true; value: unknown } | { json: false; value: string } {
	if (text.trim() === '') return { json: false, value: text };
	try {
		return { json: true, value: JSON.parse(text) as unknown };
	} catch {
		return { json: false, value: text };
	}
}
