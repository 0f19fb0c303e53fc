// Viral mentions: chosen mentions (POST /__admin/engagement {"viral": [...]}) or a share of the
// newly collected ones (--viral-share) grow for some minutes: each minute every common count is
// multiplied by `factor` and increased by `perMinute`, the store's figures change (search and
// exports show them) and the collector sends an engagementUpdate (D-28) for that minute.

import { InputError, keyValues, MINUTE_MS } from './arrivals.ts';
import type { CommonMetrics, Rec } from './types.ts';
import { isPlainObject } from './validate.ts';

export const COMMON_COUNTS = ['likeCount', 'shareCount', 'commentCount', 'viewCount'] as const;
export type CommonCount = (typeof COMMON_COUNTS)[number];

/** Counts never grow beyond this (far above any real count, far below 2^53). */
const COUNT_CAP = 1e15;
/** A viral mention grows for at most a week. */
const MAX_MINUTES = 7 * 24 * 60;

export interface Curve {
	/** How many minutes the mention grows (one update per minute). */
	minutes: number;
	/** Each minute every non-null common count is multiplied by this (rounded up)… */
	factor: number;
	/** …and increased by this (a null count starts from 0). */
	perMinute: Partial<Record<CommonCount, number>>;
}

export const DEFAULT_CURVE: Curve = {
	minutes: 60,
	factor: 1,
	perMinute: { likeCount: 50, shareCount: 12, commentCount: 8, viewCount: 2500 },
};

function fail(message: string): never {
	throw new InputError(message);
}

function numberAt(v: unknown, path: string, min: number, max: number): number {
	if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
		fail(`${path} must be a number between ${min} and ${max}.`);
	return v;
}

/** A curve from JSON (`{minutes?, factor?, perMinute?}`); missing fields come from `base`. */
export function parseCurve(
	v: Record<string, unknown>,
	path: string,
	base: Curve,
	extraKeys: string[] = [],
): Curve {
	for (const k of Object.keys(v)) {
		if (!['minutes', 'factor', 'perMinute', ...extraKeys].includes(k))
			fail(`${path}${k} is not a field of a viral curve. Fields: minutes, factor, perMinute.`);
	}
	const minutes =
		v.minutes === undefined ? base.minutes : numberAt(v.minutes, `${path}minutes`, 1, MAX_MINUTES);
	if (!Number.isInteger(minutes)) fail(`${path}minutes must be an integer.`);
	const factor = v.factor === undefined ? base.factor : numberAt(v.factor, `${path}factor`, 1, 10);
	let perMinute = base.perMinute;
	if (v.perMinute !== undefined) {
		if (!isPlainObject(v.perMinute))
			fail(`${path}perMinute must be an object such as {"likeCount": 40}.`);
		perMinute = {};
		for (const [k, n] of Object.entries(v.perMinute)) {
			if (!(COMMON_COUNTS as readonly string[]).includes(k))
				fail(`${path}perMinute.${k} is not a common count. Counts: ${COMMON_COUNTS.join(', ')}.`);
			const add = numberAt(n, `${path}perMinute.${k}`, 0, COUNT_CAP);
			if (!Number.isInteger(add)) fail(`${path}perMinute.${k} must be an integer.`);
			perMinute[k as CommonCount] = add;
		}
	}
	return { minutes, factor, perMinute: { ...perMinute } };
}

/** `--viral-curve minutes=30,factor=1.2,likeCount=40,viewCount=2000` → the admin curve object. */
export function curveFromSpec(spec: string, flag: string): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const perMinute: Record<string, unknown> = {};
	for (const [k, v] of keyValues(spec, flag)) {
		const n = v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
		if (k === 'minutes' || k === 'factor') out[k] = n;
		else if ((COMMON_COUNTS as readonly string[]).includes(k)) perMinute[k] = n;
		else
			fail(
				`${flag}: "${k}" is not a field of a viral curve. Fields: minutes, factor, ${COMMON_COUNTS.join(', ')}.`,
			);
	}
	if (Object.keys(perMinute).length) out.perMinute = perMinute;
	return out;
}

interface Growing {
	rec: Rec;
	start: number;
	curve: Curve;
	done: number;
}

/** One minute of growth of a mention's common counts. */
function grow(c: CommonMetrics, curve: Curve): void {
	for (const k of COMMON_COUNTS) {
		let v = c[k];
		if (v !== null && curve.factor !== 1) v = Math.ceil(v * curve.factor);
		const add = curve.perMinute[k];
		if (add) v = (v ?? 0) + add;
		if (v !== null) c[k] = Math.min(v, COUNT_CAP);
	}
}

export class Viral {
	/** Share of newly collected mentions that go viral, on `curve`. */
	share: number;
	curve: Curve;
	private growing: Growing[] = [];

	constructor(share: number, curve: Curve) {
		this.share = share;
		this.curve = curve;
	}

	/** The mention grows from `at` on: its first update comes one minute later. */
	start(rec: Rec, at: number, curve: Curve = this.curve): void {
		this.growing = this.growing.filter((g) => g.rec !== rec);
		this.growing.push({ rec, start: at, curve, done: 0 });
	}

	/**
	 * Apply every minute of growth due by `now`, in time order per mention; `emit` receives each
	 * mention and the instant of its update after its counts changed.
	 */
	advance(now: number, emit: (rec: Rec, at: number) => void): void {
		for (const g of this.growing) {
			while (g.done < g.curve.minutes && g.start + (g.done + 1) * MINUTE_MS <= now) {
				g.done++;
				grow(g.rec.m.engagementMetrics.sourceMetrics.common, g.curve);
				emit(g.rec, g.start + g.done * MINUTE_MS);
			}
		}
		this.growing = this.growing.filter((g) => g.done < g.curve.minutes);
	}

	/** What grows now, for the admin API. */
	json(): Array<Record<string, unknown>> {
		return this.growing.map((g) => ({
			mentionId: g.rec.id,
			startedAt: new Date(g.start).toISOString(),
			endsAt: new Date(g.start + g.curve.minutes * MINUTE_MS).toISOString(),
			minutesDone: g.done,
			minutes: g.curve.minutes,
			factor: g.curve.factor,
			perMinute: g.curve.perMinute,
		}));
	}
}
