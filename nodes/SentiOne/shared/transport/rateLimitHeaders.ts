/**
 * The rate-limit headers every answer of the API carries (D-07), read into one typed value;
 * implausible values count as unknown (bounds.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { plausibleReset } from '../bounds';
import type { EndpointGroup } from '../contract';
import { RATE_LIMIT_HEADERS } from '../contract';
import type { RateLimitState } from '../errors';
import { clock } from '../clock';

/** A header of an answer, whatever its case or whether n8n hands it over as a list. */
export function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** The largest request count a budget header may state before it counts as unknown. */
const MAX_BUDGET = 10_000_000;

/**
 * Parses the three rate-limit headers; undefined when the answer carried none. Every value is
 * bounded (bounds.ts): a limit or remaining count that is not a plain whole number in 0–10,000,000
 * counts as unknown (a negative remaining as 0), and an implausible reset as unknown.
 */
export function readRateLimit(
	headers: IDataObject | undefined,
	group: EndpointGroup,
	now = clock.now(),
): RateLimitState | undefined {
	const int = (name: string) => {
		const raw = headerValue(headers, name);
		if (raw === undefined || raw.length > 20 || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
		const n = Number(raw);
		return Number.isSafeInteger(n) ? n : undefined;
	};
	const rawLimit = int(RATE_LIMIT_HEADERS.limit);
	const rawRemaining = int(RATE_LIMIT_HEADERS.remaining);
	const rawReset = int(RATE_LIMIT_HEADERS.reset);
	if (rawLimit === undefined && rawRemaining === undefined && rawReset === undefined)
		return undefined;
	const limit =
		rawLimit !== undefined && rawLimit >= 1 && rawLimit <= MAX_BUDGET ? rawLimit : undefined;
	const remaining =
		rawRemaining === undefined || rawRemaining > MAX_BUDGET
			? undefined
			: Math.max(0, limit !== undefined ? Math.min(rawRemaining, limit) : rawRemaining);
	return { group, limit, remaining, resetAt: plausibleReset(rawReset, now), readAt: now };
}
