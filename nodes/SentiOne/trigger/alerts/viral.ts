/**
 * Viral mentions, from the engagement updates: a mention whose likes, shares, comments or views
 * cross a threshold, or grow by M within T minutes. Each rule fires once per mention, whatever
 * the reconnects, backfills and restarts repeat: the fired keys are kept (bounded, 31 days, the
 * engagement stream's month plus a day) and saved with every alert. Pure: the caller gives every
 * instant.
 *
 * Updates may arrive in any order (D-32, D-48: a backfill is shuffled) and repeated: a reading is
 * placed by its instant, a repeat replaces itself, and an older reading never removes newer ones.
 * Only Fast Growth needs history: the readings of the last T minutes of each mention, thinned to
 * at most MAX_READINGS (so a gain is measured to within T / (MAX_READINGS − 1) minutes).
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
	/**
	 * Recent readings per mention id (within the growth window), oldest first; the map's order is
	 * the order of the last update, least recent first (the first forgotten).
	 */
	series: Map<string, Reading[]>;
	/** fired rule keys → when they fired, oldest first */
	fired: Map<string, number>;
}

/** Most mentions followed at once (the least recently updated are forgotten first). */
export const MAX_TRACKED = 2000;
/** Most mentions whose readings a saved state keeps (the most recently updated). */
export const MAX_SAVED_TRACKED = 500;
/** Most fired keys kept. */
export const MAX_FIRED = 20_000;
/** How long a fired key is kept: longer than the engagement stream follows a mention. */
export const FIRED_KEEP_MS = 31 * 24 * 3_600_000;
/** Most readings kept per mention (thinned over the growth window). */
export const MAX_READINGS = 20;
/** Longest id or key a saved state keeps (longer ones are dropped on load). */
const MAX_KEY_CHARS = 2048;

export interface ViralHit {
	key: string;
	mentionId: string;
	metric: Metric;
	rule: 'crossed' | 'gained';
	/** the threshold crossed, or the gain reached */
	level: number;
	value: number;
	/** for growth: the lowest value of the window, and the minutes since that reading */
	from?: number;
	minutes?: number;
	/** the figures of this reading */
	figures: Partial<Record<Metric, number>>;
	at: number;
}

export function newViralState(): ViralState {
	return { series: new Map(), fired: new Map() };
}

const finiteCount = (value: unknown): number | null =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/** The key a rule fires under for a mention: the same rule and level, the same key. */
export function ruleKey(mentionId: string, metric: Metric, rule: string): string {
	return `${mentionId}|${metric}|${rule}`;
}

/**
 * `readings` with `reading` in its place (merged with one of the same instant: a repeat), those older than
 * `from` dropped, and thinned: from the oldest, a reading closer than `spacing` to the last one kept
 * is dropped, except the newest (so a later reading never changes which earlier ones stay).
 */
function placed(readings: Reading[], reading: Reading, from: number, spacing: number): Reading[] {
	const same = readings.find(([t]) => t === reading[0]);
	const merged = same
		? (reading.map((v, i) => (i === 0 ? v : (v ?? same[i]))) as Reading)
		: reading;
	const all = readings.filter(([t]) => t !== reading[0] && t >= from);
	let at = all.length;
	while (at > 0 && all[at - 1][0] > reading[0]) at--;
	all.splice(at, 0, merged);
	const kept: Reading[] = [];
	all.forEach((r, i) => {
		const last = kept[kept.length - 1];
		if (!last || i === all.length - 1 || r[0] - last[0] >= spacing) kept.push(r);
	});
	return kept.slice(-MAX_READINGS);
}

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
	const figures: Partial<Record<Metric, number>> = {};
	METRICS.forEach((m, i) => {
		if (values[i] !== null) figures[m] = values[i]!;
	});
	const hits: ViralHit[] = [];
	const fire = (hit: Omit<ViralHit, 'mentionId' | 'figures' | 'at' | 'key'>, rule: string) => {
		const key = ruleKey(update.mentionId, hit.metric, rule);
		if (state.fired.has(key)) return;
		state.fired.set(key, update.at);
		hits.push({ ...hit, key, mentionId: update.mentionId, figures, at: update.at });
	};
	METRICS.forEach((metric, i) => {
		const level = settings.thresholds[metric];
		const value = values[i];
		if (level && level > 0 && value !== null && value >= level)
			fire({ metric, rule: 'crossed', level, value }, `>=${level}`);
	});
	const growth = settings.growth;
	if (growth && growth.gain > 0) {
		const windowMs = growth.minutes * 60_000;
		const previous = state.series.get(update.mentionId) ?? [];
		const newest = Math.max(update.at, ...previous.map(([t]) => t));
		const kept = placed(
			previous,
			reading,
			newest - windowMs,
			windowMs / Math.max(1, MAX_READINGS - 1),
		);
		// re-inserted last: the least recently updated are first in line to be forgotten
		state.series.delete(update.mentionId);
		state.series.set(update.mentionId, kept);
		const i = METRICS.indexOf(growth.metric) + 1;
		const now = kept.find(([t]) => t === update.at)?.[i] ?? null;
		const earlier = kept.filter(
			(r) => r[0] >= update.at - windowMs && r[0] < update.at && r[i] !== null,
		);
		if (typeof now === 'number' && earlier.length > 0) {
			const lowest = earlier.reduce((a, b) => ((b[i] as number) < (a[i] as number) ? b : a));
			const from = lowest[i] as number;
			if (now - from >= growth.gain) {
				fire(
					{
						metric: growth.metric,
						rule: 'gained',
						level: growth.gain,
						value: now,
						from,
						minutes: Math.max(1, Math.round((update.at - lowest[0]) / 60_000)),
					},
					`+${growth.gain}/${growth.minutes}m`,
				);
			}
		}
		forgetSeries(state, newest, windowMs);
	}
	if (hits.length > 0) forgetFired(state, update.at);
	return hits;
}

/** Keeps the followed mentions bounded: at most MAX_TRACKED, none without a reading in the window. */
function forgetSeries(state: ViralState, now: number, windowMs: number): void {
	for (const [id, readings] of state.series) {
		const last = readings[readings.length - 1];
		if (state.series.size <= MAX_TRACKED && last !== undefined && last[0] >= now - windowMs) break;
		state.series.delete(id);
	}
}

/** Keeps the fired keys bounded: those of the last FIRED_KEEP_MS, at most MAX_FIRED. */
function forgetFired(state: ViralState, now: number): void {
	for (const [key, at] of state.fired) {
		if (state.fired.size <= MAX_FIRED && at >= now - FIRED_KEEP_MS) break;
		state.fired.delete(key);
	}
}

/**
 * The state as it is saved (plain JSON, order kept): every fired key except `unsaved` (rules whose
 * alert is not passed on yet: a restart must fire them again), and the readings of the
 * MAX_SAVED_TRACKED most recently updated mentions.
 */
export function saveViralState(
	state: ViralState,
	unsaved: ReadonlySet<string> = new Set(),
): { series: Array<[string, Reading[]]>; fired: Array<[string, number]> } {
	return {
		series: [...state.series]
			.slice(-MAX_SAVED_TRACKED)
			.map(([id, r]) => [id, r.map((x) => [...x] as Reading)]),
		fired: [...state.fired].filter(([key]) => !unsaved.has(key)),
	};
}

const isReading = (r: unknown): r is Reading =>
	Array.isArray(r) &&
	r.length === METRICS.length + 1 &&
	typeof r[0] === 'number' &&
	Number.isFinite(r[0]) &&
	r.slice(1).every((v) => v === null || finiteCount(v) !== null);

/** Entries of a saved list of pairs (or, as an older state wrote them, of an object). */
function entriesOf(raw: unknown): Array<[string, unknown]> {
	if (Array.isArray(raw))
		return raw.filter(
			(e): e is [string, unknown] => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string',
		);
	if (typeof raw === 'object' && raw !== null) return Object.entries(raw);
	return [];
}

/** Saved viral state, checked entry by entry; what cannot be read is dropped. */
export function readViralState(raw: unknown): ViralState {
	const state = newViralState();
	if (typeof raw !== 'object' || raw === null) return state;
	const { series, fired } = raw as { series?: unknown; fired?: unknown };
	for (const [id, readings] of entriesOf(series).slice(-MAX_TRACKED)) {
		if (!Array.isArray(readings) || id === '' || id.length > MAX_KEY_CHARS) continue;
		const ok = readings.filter(isReading).sort((a, b) => a[0] - b[0]);
		if (ok.length > 0) state.series.set(id, ok.slice(-MAX_READINGS));
	}
	for (const [key, at] of entriesOf(fired).slice(-MAX_FIRED)) {
		if (typeof at === 'number' && Number.isFinite(at) && key !== '' && key.length <= MAX_KEY_CHARS)
			state.fired.set(key, at);
	}
	return state;
}
