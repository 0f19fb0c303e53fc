/**
 * Run a function inside n8n's real execution engine and get
 * back either its JSON result or a JSON description of the error it threw (the engine copies a
 * node's error into the run data, which loses the mapper's non-enumerable details, so errors are
 * described *inside* the node function), and collect everything the suite produced so a final
 * test can prove no API key leaked into it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { SentiOneErrorDetails } from '../../nodes/SentiOne/shared/errors';
import { errorDetails } from '../../nodes/SentiOne/shared/errors';
import { withExecuteContext, type EngineCredentials } from './engine';
import { BASIC, ENTERPRISE, NOACCESS } from './keys';

export const UNKNOWN_KEY = 'SENTIONE-APIKEY-nobody';
/** Every key the suite sends; none may appear in anything the node produces. */
export const SECRET_KEYS = [BASIC, ENTERPRISE, NOACCESS, UNKNOWN_KEY];

// --- secrets collector ------------------------------------------------------------------------

const produced: string[] = [];

/** Serialises anything (errors included: own properties, cause, stack), cycles cut, depth bounded. */
export function safeJson(value: unknown): string {
	const seen = new WeakSet<object>();
	const walk = (v: unknown, depth: number): unknown => {
		if (v === null || typeof v !== 'object') return typeof v === 'function' ? '[function]' : v;
		if (seen.has(v)) return '[cycle]';
		if (depth > 8) return '[deep]';
		seen.add(v);
		if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
		const out: Record<string, unknown> = {};
		if (v instanceof Error) {
			out.message = v.message;
			out.stack = v.stack;
			out.cause = walk((v as { cause?: unknown }).cause, depth + 1);
			const description = (v as { description?: unknown }).description;
			if (description !== undefined) out.description = description;
		}
		for (const key of Object.keys(v))
			out[key] = walk((v as Record<string, unknown>)[key], depth + 1);
		const details = errorDetails(v);
		if (details) out.details = details;
		return out;
	};
	return JSON.stringify(walk(value, 0)) ?? String(value);
}

/** Remember a value (result, error, message) for the final no-secrets check. */
export function remember(value: unknown): void {
	produced.push(typeof value === 'string' ? value : safeJson(value));
}

/** Asserts that nothing remembered contains an API key; returns how many texts were checked. */
export function expectNoKeysIn(extra: unknown[] = []): number {
	for (const value of extra) remember(value);
	for (const text of produced) {
		for (const key of SECRET_KEYS) {
			if (text.includes(key)) {
				throw new Error(
					`an API key leaked into a produced value: …${text.slice(Math.max(0, text.indexOf(key) - 200), text.indexOf(key) + 60)}…`,
				);
			}
		}
	}
	return produced.length;
}

// --- running inside the engine ----------------------------------------------------------------

export interface CaughtError {
	constructorName: string;
	name?: string;
	message: string;
	description?: string;
	httpCode?: string;
	details?: SentiOneErrorDetails;
}

export function describeError(error: unknown): CaughtError {
	remember(error);
	const e = error as {
		constructor?: { name?: string };
		name?: string;
		message?: unknown;
		description?: unknown;
		httpCode?: unknown;
	};
	const details = errorDetails(error);
	return {
		constructorName: e?.constructor?.name ?? typeof error,
		name: typeof e?.name === 'string' ? e.name : undefined,
		message: typeof e?.message === 'string' ? e.message : String(error),
		description: typeof e?.description === 'string' ? e.description : undefined,
		httpCode: e?.httpCode === undefined || e?.httpCode === null ? undefined : String(e.httpCode),
		details: details ? JSON.parse(JSON.stringify(details)) : undefined,
	};
}

export type Outcome<T> =
	| { ok: true; value: T; ms: number; error?: undefined }
	| { ok: false; error: CaughtError; ms: number; value?: undefined };

/**
 * Runs `fn` as a node's execute() in the real engine and returns its JSON result, or the error it
 * threw described as JSON (details included); `ms` is the time `fn` took.
 */
export async function inNode<T>(
	credentials: EngineCredentials,
	fn: (this: IExecuteFunctions) => Promise<T>,
): Promise<Outcome<T>> {
	const outcome = await withExecuteContext(credentials, async function (this: IExecuteFunctions) {
		const start = Date.now();
		try {
			const value = await fn.call(this);
			return { ok: true, value, ms: Date.now() - start } as Outcome<T>;
		} catch (error) {
			return { ok: false, error: describeError(error), ms: Date.now() - start } as Outcome<T>;
		}
	});
	remember(outcome);
	return outcome;
}

/** Like inNode, but the test expects a failure and gets the error. */
export async function failureOf(
	credentials: EngineCredentials,
	fn: (this: IExecuteFunctions) => Promise<unknown>,
): Promise<CaughtError & { ms: number }> {
	const outcome = await inNode(credentials, fn);
	if (outcome.ok)
		throw new Error(`expected a failure, got ${JSON.stringify(outcome.value).slice(0, 500)}`);
	return { ...outcome.error, ms: outcome.ms };
}

/** Unwraps a successful outcome (fails the test with the error otherwise). */
export function valueOf<T>(outcome: Outcome<T>): T {
	if (!outcome.ok)
		throw new Error(
			`expected success, got ${outcome.error.constructorName}: ${outcome.error.message}`,
		);
	return outcome.value;
}
