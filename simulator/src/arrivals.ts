// Shaped live collection (--live-rate, --live-daily, --live-burst, POST /__admin/live): how many
// mentions a project collects in each minute (the rate per minute × the multiplier of the hour of
// day in a time zone × the factors of the bursts under way), where inside the minute, and with
// which sentiment. A minute's plan is a pure function of the seed, the project, the minute and the
// shape, so moving the clock in one jump or in many small steps collects the same mentions: every
// minute exactly once, nothing twice.

import { SENTIMENTS, type Sentiment } from './constants.ts';
import { SENTIMENT_WEIGHTS } from './data/weights.ts';
import { Rng, deriveSeed } from './prng.ts';
import { isPlainObject, parseDateTime } from './validate.ts';

export const MINUTE_MS = 60_000;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;

/** A bad value in a shape, a burst or a viral curve: the message names the field. */
export class InputError extends Error {}

function fail(message: string): never {
	throw new InputError(message);
}

/**
 * Named daily shapes: 24 multipliers (hour 0 … 23 of the shape's time zone) whose mean is 1, so
 * the rate per minute stays the day's average.
 */
export const DAILY_SHAPES: Record<string, readonly number[]> = {
	flat: Array.from({ length: 24 }, () => 1),
	// working hours: quiet nights, a peak from 9 to 16
	'office-hours': [
		0.2, 0.15, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1.4, 1.95, 2.2, 2.2, 1.8, 2.0, 2.2, 2.0, 1.6, 1.2, 0.9,
		0.7, 0.6, 0.5, 0.4, 0.3,
	],
	// consumer social media: rising through the day, a peak from 19 to 21
	evening: [
		0.5, 0.3, 0.2, 0.15, 0.15, 0.2, 0.4, 0.7, 0.9, 1.0, 1.1, 1.2, 1.3, 1.2, 1.1, 1.1, 1.2, 1.4, 1.7,
		2.0, 2.1, 2.0, 1.4, 0.7,
	],
};

export type SentimentMix = Record<Sentiment, number>;
export type Variation = 'none' | 'poisson';
const VARIATIONS: Variation[] = ['none', 'poisson'];

export interface Burst {
	/** Start instant (ms) and length: the burst covers the instants (at, at + minutes]. */
	at: number;
	minutes: number;
	/** The rate is multiplied by this during the burst (bursts under way at once multiply). */
	factor: number;
	/** Only this project (null: every project). */
	projectId: number | null;
	/** The sentiment of every mention collected during the burst (null: the shape's). */
	sentiment: SentimentMix | null;
	label: string | null;
}

export interface Shape {
	/** Mentions per minute per project, before the daily multiplier and the bursts. */
	ratePerMinute: number;
	/** A named shape (DAILY_SHAPES) or 24 multipliers, hour 0 … 23 in `timeZone`. */
	daily: string | number[];
	timeZone: string;
	sentiment: SentimentMix;
	/** none: a minute collects its expected count, rounded up or down (seeded); poisson: drawn. */
	variation: Variation;
	bursts: Burst[];
}

export const SHAPE_KEYS = [
	'ratePerMinute',
	'daily',
	'timeZone',
	'sentiment',
	'variation',
	'bursts',
] as const;

const SENTIMENT_TOTAL = SENTIMENT_WEIGHTS.reduce((n, [, w]) => n + w, 0);
const DEFAULT_WEIGHT = Object.fromEntries(SENTIMENT_WEIGHTS) as Record<Sentiment, number>;

/** The generator's own sentiment mix (data/weights.ts). */
export function defaultMix(): SentimentMix {
	const out = {} as SentimentMix;
	for (const s of SENTIMENTS) out[s] = DEFAULT_WEIGHT[s] / SENTIMENT_TOTAL;
	return out;
}

export function defaultShape(ratePerMinute = 0): Shape {
	return {
		ratePerMinute,
		daily: 'flat',
		timeZone: 'UTC',
		sentiment: defaultMix(),
		variation: 'none',
		bursts: [],
	};
}

// --- reading shapes (admin JSON and CLI flags) -------------------------------------------------

function numberAt(v: unknown, path: string, min: number, max = Infinity): number {
	if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
		fail(
			max === Infinity
				? `${path} must be a number >= ${min}.`
				: `${path} must be a number between ${min} and ${max}.`,
		);
	}
	return v;
}

export function parseDaily(v: unknown, path: string): string | number[] {
	if (v === null) return 'flat';
	if (typeof v === 'string' && v in DAILY_SHAPES) return v;
	if (Array.isArray(v) && v.length === 24) return v.map((x, i) => numberAt(x, `${path}[${i}]`, 0));
	return fail(
		`${path} must be 24 multipliers (hour 0 to 23) or one of ${Object.keys(DAILY_SHAPES).join(', ')}.`,
	);
}

/**
 * A sentiment mix: shares (0 … 1) of some sentiments; what they leave is split among the others in
 * the generator's own proportions. Given all four, they must add up to 1.
 */
export function parseMix(v: unknown, path: string): SentimentMix {
	if (v === null) return defaultMix();
	if (!isPlainObject(v)) return fail(`${path} must be an object such as {"Negative": 0.6}.`);
	const given: Partial<SentimentMix> = {};
	let sum = 0;
	for (const [k, x] of Object.entries(v)) {
		if (!(SENTIMENTS as readonly string[]).includes(k)) {
			fail(`${path}.${k} is not a sentiment. Sentiments: ${SENTIMENTS.join(', ')}.`);
		}
		given[k as Sentiment] = numberAt(x, `${path}.${k}`, 0, 1);
		sum += given[k as Sentiment]!;
	}
	const rest = SENTIMENTS.filter((s) => given[s] === undefined);
	if (sum > 1 + 1e-9) fail(`${path}: the shares add up to ${sum}, more than 1.`);
	if (!rest.length && Math.abs(sum - 1) > 1e-6)
		fail(`${path}: the shares of all four sentiments must add up to 1, not ${sum}.`);
	const restWeight = rest.reduce((n, s) => n + DEFAULT_WEIGHT[s], 0);
	const out = {} as SentimentMix;
	for (const s of SENTIMENTS) {
		out[s] = given[s] ?? (restWeight > 0 ? ((1 - sum) * DEFAULT_WEIGHT[s]) / restWeight : 0);
	}
	return out;
}

export function parseTimeZone(v: unknown, path: string): string {
	if (typeof v !== 'string' || v.trim() === '') return fail(`${path} must be an IANA time zone.`);
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
	} catch {
		return fail(`${path}: "${v}" is not a time zone (e.g. UTC, Europe/Warsaw).`);
	}
}

const BURST_KEYS = ['at', 'minutes', 'factor', 'projectId', 'sentiment', 'label'];

export function parseBurst(v: unknown, path: string): Burst {
	if (!isPlainObject(v))
		return fail(`${path} must be an object such as {"at": "...", "minutes": 20, "factor": 5}.`);
	for (const k of Object.keys(v)) {
		if (!BURST_KEYS.includes(k))
			fail(`${path}.${k} is not a burst field. Fields: ${BURST_KEYS.join(', ')}.`);
	}
	const at = typeof v.at === 'string' ? parseDateTime(v.at) : NaN;
	if (Number.isNaN(at)) fail(`${path}.at must be an ISO 8601 date-time.`);
	const minutes = numberAt(v.minutes, `${path}.minutes`, 0);
	if (minutes <= 0) fail(`${path}.minutes must be more than 0.`);
	const factor = v.factor === undefined ? 1 : numberAt(v.factor, `${path}.factor`, 0);
	let projectId: number | null = null;
	if (v.projectId !== undefined && v.projectId !== null) {
		if (typeof v.projectId !== 'number' || !Number.isSafeInteger(v.projectId) || v.projectId < 1)
			fail(`${path}.projectId must be a positive integer.`);
		projectId = v.projectId;
	}
	const sentiment =
		v.sentiment === undefined || v.sentiment === null
			? null
			: parseMix(v.sentiment, `${path}.sentiment`);
	if (v.label !== undefined && v.label !== null && typeof v.label !== 'string')
		fail(`${path}.label must be a string.`);
	return {
		at,
		minutes,
		factor,
		projectId,
		sentiment,
		label: (v.label as string | undefined) ?? null,
	};
}

/**
 * A shape with the fields of an admin body (or the CLI flags) applied: a new shape, or InputError
 * naming the field (nothing changed). `null` returns daily and sentiment to their defaults.
 */
export function patchShape(shape: Shape, body: Record<string, unknown>): Shape {
	const next: Shape = { ...shape };
	for (const [k, v] of Object.entries(body)) {
		switch (k) {
			case 'ratePerMinute':
				next.ratePerMinute = numberAt(v, k, 0);
				break;
			case 'daily':
				next.daily = parseDaily(v, k);
				break;
			case 'timeZone':
				next.timeZone = v === null ? 'UTC' : parseTimeZone(v, k);
				break;
			case 'sentiment':
				next.sentiment = parseMix(v, k);
				break;
			case 'variation':
				if (v === null) next.variation = 'none';
				else if (VARIATIONS.includes(v as Variation)) next.variation = v as Variation;
				else fail(`variation must be one of ${VARIATIONS.join(', ')}.`);
				break;
			case 'bursts':
				if (v === null) next.bursts = [];
				else if (Array.isArray(v)) next.bursts = v.map((b, i) => parseBurst(b, `bursts[${i}]`));
				else fail('bursts must be an array of bursts.');
				break;
			default:
				fail(`${k} is not a field of the live shape.`);
		}
	}
	return next;
}

export function burstJson(b: Burst): Record<string, unknown> {
	return {
		at: new Date(b.at).toISOString(),
		minutes: b.minutes,
		factor: b.factor,
		projectId: b.projectId,
		sentiment: b.sentiment,
		label: b.label,
	};
}

/** The shape as the admin API shows it; it can be POSTed back as is. */
export function shapeJson(s: Shape): Record<string, unknown> {
	return {
		ratePerMinute: s.ratePerMinute,
		daily: s.daily,
		timeZone: s.timeZone,
		sentiment: s.sentiment,
		variation: s.variation,
		bursts: s.bursts.map(burstJson),
	};
}

/** `key=value,key=value` of a CLI flag. */
export function keyValues(spec: string, flag: string): Array<[string, string]> {
	return spec
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '')
		.map((piece) => {
			const eq = piece.indexOf('=');
			if (eq < 0) fail(`${flag}: "${piece}" must be written key=value.`);
			return [piece.slice(0, eq).trim(), piece.slice(eq + 1).trim()];
		});
}

const asNumber = (s: string): number | string =>
	s !== '' && Number.isFinite(Number(s)) ? Number(s) : s;

/** `--live-sentiment negative=0.6,positive=0.1` → {"Negative": 0.6, "Positive": 0.1}. */
export function mixFromSpec(spec: string, flag: string): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, v] of keyValues(spec, flag)) {
		const s = SENTIMENTS.find((x) => x.toLowerCase() === k.toLowerCase());
		if (!s) fail(`${flag}: "${k}" is not a sentiment. Sentiments: ${SENTIMENTS.join(', ')}.`);
		out[s] = asNumber(v);
	}
	return out;
}

/** `--live-daily office-hours` or `--live-daily 0.5,0.5,…` (24 multipliers). */
export function dailyFromSpec(spec: string): unknown {
	const t = spec.trim();
	return t.includes(',') || Number.isFinite(Number(t))
		? t.split(',').map((x) => asNumber(x.trim()))
		: t;
}

/**
 * `--live-burst at=ISO,minutes=20,factor=5[,project=1001][,label=x][,negative=0.7,…]` → the
 * admin API's burst object.
 */
export function burstFromSpec(spec: string, flag: string): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const mix: Record<string, unknown> = {};
	for (const [k, v] of keyValues(spec, flag)) {
		const s = SENTIMENTS.find((x) => x.toLowerCase() === k.toLowerCase());
		if (s) mix[s] = asNumber(v);
		else if (k === 'at' || k === 'label') out[k] = v;
		else if (k === 'minutes' || k === 'factor') out[k] = asNumber(v);
		else if (k === 'project' || k === 'projectId') out.projectId = asNumber(v);
		else
			fail(
				`${flag}: "${k}" is not a burst field. Fields: at, minutes, factor, project, label, ${SENTIMENTS.map((x) => x.toLowerCase()).join(', ')}.`,
			);
	}
	if (Object.keys(mix).length) out.sentiment = mix;
	return out;
}

// --- the arrivals --------------------------------------------------------------------------------

export interface Arrival {
	/** collectedAt (ms), inside the minute. */
	col: number;
	sentiment: Sentiment;
	/** Position in the minute's plan (seeds the mention's content). */
	index: number;
	/** Uniform in [0, 1): the mention goes viral when this is below the viral share. */
	viralDraw: number;
}

interface Segment {
	from: number;
	to: number;
	/** mentions per minute */
	rate: number;
	mix: SentimentMix;
}

/** Hour of day in a time zone; every zone's offset is a whole number of quarter hours. */
class LocalHours {
	readonly timeZone: string;
	private readonly format: Intl.DateTimeFormat | null;
	private readonly cache = new Map<number, number>();

	constructor(timeZone: string) {
		this.timeZone = timeZone;
		this.format =
			timeZone === 'UTC'
				? null
				: new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
	}

	hourAt(ms: number): number {
		if (!this.format) return new Date(ms).getUTCHours();
		const q = Math.floor(ms / QUARTER_HOUR_MS);
		let h = this.cache.get(q);
		if (h === undefined) {
			const part = this.format.formatToParts(q * QUARTER_HOUR_MS).find((p) => p.type === 'hour');
			h = Number(part?.value ?? 0) % 24;
			if (this.cache.size > 200_000) this.cache.clear();
			this.cache.set(q, h);
		}
		return h;
	}
}

/** Draw from a Poisson distribution of the given mean. */
function poisson(rng: Rng, mean: number): number {
	if (mean <= 0) return 0;
	if (mean > 30) {
		const u1 = Math.max(rng.next(), 1e-12);
		const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.next());
		return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
	}
	const limit = Math.exp(-mean);
	let k = 0;
	let p = rng.next();
	while (p > limit) {
		k++;
		p *= rng.next();
	}
	return k;
}

function pickSentiment(rng: Rng, mix: SentimentMix): Sentiment {
	let r = rng.next();
	for (const s of SENTIMENTS) {
		r -= mix[s];
		if (r < 0) return s;
	}
	return SENTIMENTS.find((s) => mix[s] > 0) ?? 'Neutral';
}

export class Arrivals {
	private readonly seed: number;
	private hours = new LocalHours('UTC');

	constructor(seed: number) {
		this.seed = seed;
	}

	private multiplier(shape: Shape, ms: number): number {
		if (this.hours.timeZone !== shape.timeZone) this.hours = new LocalHours(shape.timeZone);
		const daily = typeof shape.daily === 'string' ? DAILY_SHAPES[shape.daily] : shape.daily;
		return daily[this.hours.hourAt(ms)];
	}

	/**
	 * The rate of a project over one minute, in pieces cut where bursts start or end. A minute, a
	 * piece and a burst cover the instants (start, end], as the clock collects (last tick, now].
	 */
	segments(shape: Shape, projectId: number, minute: number): Segment[] {
		const start = minute * MINUTE_MS;
		const end = start + MINUTE_MS;
		const base = shape.ratePerMinute > 0 ? shape.ratePerMinute * this.multiplier(shape, start) : 0;
		if (base <= 0) return [];
		const bursts = shape.bursts.filter(
			(b) =>
				(b.projectId === null || b.projectId === projectId) &&
				b.at < end &&
				b.at + b.minutes * MINUTE_MS > start,
		);
		if (!bursts.length) return [{ from: start, to: end, rate: base, mix: shape.sentiment }];
		const cuts = new Set([start, end]);
		for (const b of bursts) {
			const bEnd = b.at + b.minutes * MINUTE_MS;
			if (b.at > start) cuts.add(b.at);
			if (bEnd < end) cuts.add(bEnd);
		}
		const points = [...cuts].sort((a, b) => a - b);
		const out: Segment[] = [];
		for (let i = 0; i + 1 < points.length; i++) {
			const from = points[i];
			let rate = base;
			let mix = shape.sentiment;
			for (const b of bursts) {
				if (b.at <= from && from < b.at + b.minutes * MINUTE_MS) {
					// the piece (from, next] lies inside the burst (at, at + minutes]
					rate *= b.factor;
					if (b.sentiment) mix = b.sentiment;
				}
			}
			out.push({ from, to: points[i + 1], rate, mix });
		}
		return out;
	}

	/** The expected number of mentions a project collects in [from, to) under a shape. */
	expected(shape: Shape, projectId: number, from: number, to: number): number {
		if (shape.ratePerMinute <= 0 || to <= from) return 0;
		let n = 0;
		for (let m = Math.floor(from / MINUTE_MS); m * MINUTE_MS < to; m++) {
			for (const s of this.segments(shape, projectId, m)) {
				const len = Math.min(s.to, to) - Math.max(s.from, from);
				if (len > 0) n += (s.rate * len) / MINUTE_MS;
			}
		}
		return n;
	}

	/**
	 * The mentions a project collects in one minute: how many (the expected count, rounded up or
	 * down, or a Poisson draw), when (some share one collectedAt, as batches do) and with which
	 * sentiment; in collectedAt order. `version` tells shapes apart: a changed shape plans anew.
	 */
	plan(shape: Shape, version: number, projectId: number, minute: number): Arrival[] {
		const segs = this.segments(shape, projectId, minute);
		if (!segs.length) return [];
		const weights = segs.map((s) => (s.rate * (s.to - s.from)) / MINUTE_MS);
		const total = weights.reduce((a, b) => a + b, 0);
		if (total <= 0) return [];
		const rng = new Rng(deriveSeed(this.seed, `arrivals:${projectId}:${minute}:${version}`));
		const whole = Math.floor(total);
		const n =
			shape.variation === 'poisson'
				? poisson(rng, total)
				: whole + (rng.next() < total - whole ? 1 : 0);
		const out: Arrival[] = [];
		while (out.length < n) {
			let u = rng.next() * total;
			let i = 0;
			while (i < segs.length - 1 && u >= weights[i]) u -= weights[i++];
			const seg = segs[i];
			const span = seg.to - seg.from;
			// instants in (from, to]: the clock collects what lies in (last tick, now]
			const col = Math.min(seg.from + 1 + Math.floor((u / weights[i]) * span), seg.to);
			const size = Math.min(n - out.length, rng.chance(0.75) ? 1 : rng.int(2, 4));
			for (let k = 0; k < size; k++) {
				out.push({ col, sentiment: pickSentiment(rng, seg.mix), index: 0, viralDraw: rng.next() });
			}
		}
		out.sort((a, b) => a.col - b.col);
		out.forEach((a, i) => (a.index = i));
		return out;
	}
}
