/**
 * Viral mentions, from the engagement updates: a mention whose likes, shares, comments or views
 * cross a threshold, or grow by M within T minutes. Each rule fires once per mention, whatever
 * the reconnects, backfills and restarts repeat: the fired keys are kept (bounded, 31 days, the
 * engagement stream's month plus a day) and saved with every alert. Pure.
 */

export const METRICS = ['likeCount', 'shareCount', 'commentCount', 'viewCount'] as const;
export type Metric = (typeof METRICS)[number];

export const METRIC_WORDS: Record<Metric, [one: string, many: string]> = {
	likeCount: ['like', 'likes'],
	shareCount: ['share', 'shares'],
	commentCount: ['comment', 'comments'],
	viewCount: ['view', 'views'],
};

export interface ViralSettings {
	/** fire when a metric reaches this (0 or absent: off) */
	thresholds: Partial<Record<Metric, number>>;
	/** fire when a metric grows by `gain` within `minutes` */
	growth?: { metric: Metric; gain: number; minutes: number };
}

/** One reading of a mention's figures: [epoch ms, likes, shares, comments, views]; null = unknown. */
export type Reading = [number, ...Array<number | null>];

export interface ViralState {
	/** recent readings per mention id (within the growth window), oldest first */
	series: Record<string, Reading[]>;
	/** fired rule keys → when they fired */
	fired: Record<string, number>;
}

/** Most mentions followed at once (the least recently updated are forgotten first). */
export const MAX_TRACKED = 5000;
/** Most fired keys kept. */
export const MAX_FIRED = 20_000;
/** How long a fired key is kept: longer than the engagement stream follows a mention. */
export const FIRED_KEEP_MS = 31 * 24 * 3_600_000;
/** Most readings kept per mention. */
const MAX_READINGS = 60;

export interface ViralHit {
	key: string;
	mentionId: string;
	metric: Metric;
	rule: 'crossed' | 'gained';
	/** the threshold crossed, or the gain reached */
	level: number;
	value: number;
	/** for growth: the value `minutes` ago, and the minutes the gain took */
	from?: number;
	minutes?: number;
	/** the figures of this reading */
	figures: Partial<Record<Metric, number>>;
	at: number;
}

export function newViralState(): ViralState {
	return { series: {}, fired: {} };
}

const finiteCount = (value: unknown): number | null =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/**
 * Takes one engagement update (the mention's figures at `at`) and returns the rules it fires now
 * (none fired before for this mention). Figures missing from the update stay unknown.
 */
export function observeUpdate(
	state: ViralState,
	settings: ViralSettings,
	update: { mentionId: string; at: number; figures: Partial<Record<Metric, unknown>> },
): ViralHit[] {
	const values = METRICS.map((m) => finiteCount(update.figures[m]));
	const reading: Reading = [update.at, ...values];
	const series = (state.series[update.mentionId] ?? []).filter(([t]) => t <= update.at);
	series.push(reading);
	series.sort((a, b) => a[0] - b[0]);
	const keepFrom = update.at - (settings.growth?.minutes ?? 0) * 60_000;
	const kept = series
		.filter(([t], i) => t >= keepFrom || i === series.length - 1)
		.slice(-MAX_READINGS);
	// re-insert last so the least recently updated are first in line to be forgotten
	delete state.series[update.mentionId];
	state.series[update.mentionId] = kept;
	const figures: Partial<Record<Metric, number>> = {};
	METRICS.forEach((m, i) => {
		if (values[i] !== null) figures[m] = values[i]!;
	});
	const hits: ViralHit[] = [];
	const fire = (hit: Omit<ViralHit, 'mentionId' | 'figures' | 'at'>) => {
		if (state.fired[hit.key] !== undefined) return;
		state.fired[hit.key] = update.at;
		hits.push({ ...hit, mentionId: update.mentionId, figures, at: update.at });
	};
	METRICS.forEach((metric, i) => {
		const level = settings.thresholds[metric];
		const value = values[i];
		if (level && level > 0 && value !== null && value >= level)
			fire({
				key: `${update.mentionId}|${metric}|>=${level}`,
				metric,
				rule: 'crossed',
				level,
				value,
			});
	});
	const growth = settings.growth;
	if (growth && growth.gain > 0) {
		const i = METRICS.indexOf(growth.metric) + 1;
		const now = reading[i];
		const windowStart = update.at - growth.minutes * 60_000;
		const earlier = kept.filter(
			([t, ...v]) => t >= windowStart && v[i - 1] !== null && t < update.at,
		);
		if (now !== null && now !== undefined && earlier.length > 0) {
			const first = earlier[0];
			const from = Math.min(...earlier.map((r) => r[i] as number));
			if (now - from >= growth.gain) {
				fire({
					key: `${update.mentionId}|${growth.metric}|+${growth.gain}/${growth.minutes}m`,
					metric: growth.metric,
					rule: 'gained',
					level: growth.gain,
					value: now,
					from,
					minutes: Math.max(1, Math.round((update.at - first[0]) / 60_000)),
				});
			}
		}
	}
	forgetOld(state, update.at);
	return hits;
}

/** Keeps the state bounded: the most recently updated mentions, fired keys of the last 31 days. */
export function forgetOld(state: ViralState, now: number): void {
	const ids = Object.keys(state.series);
	for (const id of ids.slice(0, Math.max(0, ids.length - MAX_TRACKED))) delete state.series[id];
	const fired = Object.entries(state.fired).filter(([, at]) => at >= now - FIRED_KEEP_MS);
	state.fired = Object.fromEntries(fired.slice(-MAX_FIRED));
}

/** Saved viral state, checked entry by entry; what cannot be read is dropped. */
export function readViralState(raw: unknown): ViralState {
	const state = newViralState();
	if (typeof raw !== 'object' || raw === null) return state;
	const { series, fired } = raw as { series?: unknown; fired?: unknown };
	if (typeof series === 'object' && series !== null) {
		for (const [id, readings] of Object.entries(series).slice(-MAX_TRACKED)) {
			if (!Array.isArray(readings) || id === '' || id.length > 1024) continue;
			const ok = readings.filter(
				(r): r is Reading =>
					Array.isArray(r) &&
					r.length === METRICS.length + 1 &&
					Number.isFinite(r[0]) &&
					r
						.slice(1)
						.every((v) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0)),
			);
			if (ok.length > 0) state.series[id] = ok.slice(-MAX_READINGS);
		}
	}
	if (typeof fired === 'object' && fired !== null) {
		for (const [key, at] of Object.entries(fired).slice(-MAX_FIRED)) {
			if (typeof at === 'number' && Number.isFinite(at) && key.length <= 2048)
				state.fired[key] = at;
		}
	}
	return state;
}
