/**
 * Dates as n8n hands them to a node: a dateTime parameter is a wall-clock string without a zone
 * (to be read in the workflow's time zone), an expression may give an ISO string with an offset,
 * a Date, or a Luxon DateTime. Everything leaves here as UTC ISO 8601 with milliseconds and `Z`,
 * the form the API documents.
 *
 * It also holds the one clock every date rule and every rate-limit wait reads (`clock`): real
 * time in n8n; a test points it at a simulator's virtual clock with `setClock`.
 */
import { sleep } from 'n8n-workflow';

const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/** Offset (ms) of `zone` at the UTC instant `utcMs`: local = utc + offset. */
function zoneOffset(utcMs: number, zone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

function isValidZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/**
 * Converts a date value to epoch milliseconds. Returns undefined for an empty value and NaN for
 * a value that is not a date.
 */
export function toEpochMs(value: unknown, timezone = 'UTC'): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (value instanceof Date) return value.getTime();
	if (typeof value === 'object') {
		const candidate = value as { toISO?: () => string | null; toMillis?: () => number };
		if (typeof candidate.toMillis === 'function') return candidate.toMillis();
		if (typeof candidate.toISO === 'function') return Date.parse(candidate.toISO() ?? '');
		return NaN;
	}
	if (typeof value === 'number') return Number.isFinite(value) ? value : NaN;
	if (typeof value !== 'string') return NaN;
	const text = value.trim();
	if (HAS_ZONE.test(text)) {
		const parsed = Date.parse(text);
		return Number.isNaN(parsed) ? NaN : parsed;
	}
	const m = WALL_CLOCK.exec(text);
	if (!m) return NaN;
	const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = m;
	const ms = Number(`0.${frac}`) * 1000;
	const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.round(ms));
	if (Number.isNaN(wall)) return NaN;
	// reject impossible dates such as 2026-02-30 that Date.UTC silently rolls over
	const check = new Date(wall);
	if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return NaN;
	const zone = isValidZone(timezone) ? timezone : 'UTC';
	if (zone === 'UTC') return wall;
	// two passes settle the offset around DST changes
	let utc = wall - zoneOffset(wall, zone);
	utc = wall - zoneOffset(utc, zone);
	return utc;
}

export function toIso(epochMs: number): string {
	return new Date(epochMs).toISOString();
}

/** What the node reads the time from and waits with (date rules, rate-limit resets). */
export interface Clock {
	/** epoch milliseconds */
	now(): number;
	/** resolves after `ms` milliseconds of this clock (rejects when `signal` aborts first) */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal) => await sleep(ms, signal),
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
