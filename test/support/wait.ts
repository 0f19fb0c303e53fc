/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Waiting in tests, in real time (a test that moves Date.now does not move these deadlines).
 */
import { realNow } from './time';

export const sleep = (ms: number): Promise<void> =>
	new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
	/** give up after this many ms of real time (default 10 s) */
	timeoutMs?: number;
	/** ask again every so many ms (default 20) */
	stepMs?: number;
	/** what is awaited, for the error */
	what?: string;
}

function optionsOf(options: WaitOptions | number | undefined): Required<WaitOptions> {
	const o = typeof options === 'number' ? { timeoutMs: options } : (options ?? {});
	return { timeoutMs: o.timeoutMs ?? 10_000, stepMs: o.stepMs ?? 20, what: o.what ?? 'condition' };
}

/** Asks `probe` until it gives a value (not undefined, false or null) and returns it; throws after the timeout. */
export async function until<T>(
	probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
	options?: WaitOptions | number,
): Promise<T> {
	const { timeoutMs, stepMs, what } = optionsOf(options);
	const deadline = realNow() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false && value !== null) return value;
		if (realNow() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
		await sleep(stepMs);
	}
}

/** Waits until `predicate` holds; throws after the timeout. */
export async function waitFor(
	predicate: () => Promise<boolean> | boolean,
	options?: WaitOptions | number,
): Promise<void> {
	await until(async () => (await predicate()) || undefined, options);
}

/** Whether `predicate` comes to hold within the timeout (false instead of a throw). */
export async function holdsWithin(
	predicate: () => Promise<boolean> | boolean,
	options?: WaitOptions | number,
): Promise<boolean> {
	try {
		await waitFor(predicate, options);
		return true;
	} catch {
		return false;
	}
}
