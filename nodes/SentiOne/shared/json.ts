/**
 * The one JSON reader of everything SentiOne sends (answers, stream events, JSON lines). It reads
 * like `JSON.parse`, and keeps integers a JavaScript number cannot hold exact (D-51): the spec types
 * the counts int64, so a count may be above 2^53. Such a number stays where it is (the nearest
 * number, as JSON.parse gives it) and the exact digits go beside it as a string, under the name
 * with `Exact` added: `"likeCount": 9007199254740993` reads as `likeCount: 9007199254740992,
 * likeCountExact: "9007199254740993"`. Nothing is added where the number is exact.
 */

/** The name of the exact string beside a number too large to hold: `likeCount` → `likeCountExact`. */
export const EXACT_SUFFIX = 'Exact';

/** An integer literal above 2^53 has at least 16 digits: text without such a run parses plainly. */
const LONG_DIGITS = /\d{16}/;
const INTEGER_LITERAL = /^-?\d+$/;

/** What JSON.parse hands a reviver as its third argument (Node 22 and later): the value's text. */
interface ReviverContext {
	source?: string;
}

/** Parses JSON text; throws like JSON.parse on text that is not JSON. */
export function readJson(text: string): unknown {
	if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
	return JSON.parse(text, function (
		this: unknown,
		key: string,
		value: unknown,
		context?: ReviverContext,
	): unknown {
		const source = context?.source;
		if (
			typeof value === 'number' &&
			!Number.isSafeInteger(value) &&
			source !== undefined &&
			INTEGER_LITERAL.test(source) &&
			typeof this === 'object' &&
			this !== null &&
			!Array.isArray(this)
		) {
			// added beside it: the keys being revived were listed before, so it is not revived again
			(this as Record<string, unknown>)[`${key}${EXACT_SUFFIX}`] = source;
		}
		return value;
	} as (this: unknown, key: string, value: unknown) => unknown) as unknown;
}

/**
 * A count as one value: the number, or the exact digits (a string) when the number cannot hold it
 * and the reader kept them beside it (Simplify's columns keep their names, D-51).
 */
export function exactCount(holder: unknown, key: string): unknown {
	if (holder === null || typeof holder !== 'object') return null;
	const record = holder as Record<string, unknown>;
	const value = record[key];
	const exact = record[`${key}${EXACT_SUFFIX}`];
	if (
		typeof value === 'number' &&
		!Number.isSafeInteger(value) &&
		typeof exact === 'string' &&
		INTEGER_LITERAL.test(exact)
	)
		return exact;
	return value === undefined ? null : value;
}
