/* eslint-disable @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Collection over time, driven by the simulated clock: new mentions on the live shape (arrivals.ts:
// rate per project, daily pattern, bursts, sentiment mix), engagement updates (random ones at
// --engagement-rate across all projects, and viral mentions growing minute by minute, viral.ts).
// A real-time ticker advances it; moving the clock through the admin API ticks at once, and every
// minute in between collects what its rate says.

import { Arrivals, MINUTE_MS, type Arrival, type Shape } from './arrivals.ts';
import type { Clock } from './clock.ts';
import { ENGAGEMENT_WINDOW_MS } from './constants.ts';
import { MentionFactory } from './data/mentions.ts';
import type { Store } from './data/store.ts';
import { Rng, deriveSeed } from './prng.ts';
import type { EngagementUpdate, Hub } from './streams.ts';
import type { Mention, Project, Rec } from './types.ts';
import { isPlainObject } from './validate.ts';
import { Viral, type Curve } from './viral.ts';

/** Random engagement updates: never more than this many in one tick. */
const MAX_PER_TICK = 10_000;
/** Engagement updates kept for backfill (D-25: at most 5 minutes are asked for). */
const ENGAGEMENT_LOG_MS = 6 * 60_000;

export function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
	for (const [k, v] of Object.entries(patch)) {
		const cur = target[k];
		if (isPlainObject(v) && isPlainObject(cur)) deepMerge(cur, v);
		else target[k] = structuredClone(v);
	}
}

export interface CollectorOptions {
	seed: number;
	shape: Shape;
	engagementPerMinute: number;
	viralShare: number;
	viralCurve: Curve;
}

export class Collector {
	/** The live shape in effect (replace it with setShape). */
	shape: Shape;
	engagementPerMinute: number;
	readonly viral: Viral;
	/** The shapes in effect since each instant (startup first), for the expected counts. */
	readonly history: Array<{ since: number; shape: Shape }>;
	private version = 0;
	private lastTick: number;
	private engagementCarry = 0;
	/** last update instant per mention: two updates of one mention never share an instant (or an event id) */
	private readonly lastUpdate = new Map<string, number>();
	private timer: NodeJS.Timeout | undefined;
	readonly engagementLog: Array<{ at: number; update: EngagementUpdate }> = [];
	private readonly store: Store;
	private readonly clock: Clock;
	private readonly hub: Hub;
	private readonly rng: Rng;
	private readonly seed: number;
	readonly arrivals: Arrivals;

	constructor(store: Store, clock: Clock, hub: Hub, o: CollectorOptions) {
		this.store = store;
		this.clock = clock;
		this.hub = hub;
		this.seed = o.seed;
		this.rng = new Rng(o.seed);
		this.arrivals = new Arrivals(deriveSeed(o.seed, 'arrivals'));
		this.shape = o.shape;
		this.engagementPerMinute = o.engagementPerMinute;
		this.viral = new Viral(o.viralShare, o.viralCurve);
		this.lastTick = clock.now();
		this.history = [{ since: this.lastTick, shape: o.shape }];
	}

	get ratePerMinute(): number {
		return this.shape.ratePerMinute;
	}

	start(): void {
		this.timer = setInterval(() => this.tick(), 200);
		this.timer.unref();
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
	}

	/** A new live shape from now on (collection up to now keeps the old one). */
	setShape(shape: Shape): void {
		this.tick();
		const now = this.clock.now();
		this.shape = shape;
		this.version++;
		// a clock moved back makes later entries moot
		while (this.history.length && this.history[this.history.length - 1].since >= now)
			this.history.pop();
		this.history.push({ since: now, shape });
	}

	/** Bring collection up to the clock's now. */
	tick(): void {
		const now = this.clock.now();
		if (now <= this.lastTick) {
			this.lastTick = now;
			return;
		}
		const from = this.lastTick;
		const dt = now - from;
		this.lastTick = now;
		this.collect(from, now);
		const updates: Array<{ at: number; update: EngagementUpdate }> = [];
		this.viral.advance(now, (r, at) => updates.push(this.update(r, at)));
		if (this.engagementPerMinute > 0) {
			const due = (this.engagementPerMinute * dt) / 60_000 + this.engagementCarry;
			const n = Math.floor(due);
			this.engagementCarry = due - n;
			if (n > 0) {
				const pool = this.eligible(now);
				for (let i = 0; i < Math.min(n, MAX_PER_TICK) && pool.length; i++)
					updates.push(this.update(this.bump(this.rng.pick(pool)), now));
			}
		}
		this.publish(updates);
	}

	/** Reset the tick base (after the clock jumped and collection should not catch up). */
	rebase(): void {
		this.lastTick = this.clock.now();
	}

	/** How many mentions collection up to `to` would add now (the expected count of the shape). */
	expectedUntil(to: number): number {
		let n = 0;
		for (const p of this.store.projects.values())
			n += this.arrivals.expected(this.shape, p.id, this.lastTick, to);
		return n;
	}

	/** Every planned mention collected in (from, to], project by project, in collectedAt order. */
	private collect(from: number, to: number): void {
		if (this.shape.ratePerMinute <= 0) return;
		const first = Math.floor(from / MINUTE_MS);
		const last = Math.floor(to / MINUTE_MS);
		for (const p of [...this.store.projects.values()]) {
			const recs: Rec[] = [];
			for (let m = first; m <= last; m++) {
				for (const a of this.arrivals.plan(this.shape, this.version, p.id, m)) {
					if (a.col <= from || a.col > to) continue;
					const rec = this.make(p, m, a);
					recs.push(rec);
					if (a.viralDraw < this.viral.share) this.viral.start(rec, a.col);
				}
			}
			if (recs.length) this.add(p, recs);
		}
	}

	/** The mention of a planned arrival: its content seeded by the project, minute and place. */
	private make(p: Project, minute: number, a: Arrival): Rec {
		const f = new MentionFactory(
			new Rng(deriveSeed(this.seed, `mention:${p.id}:${minute}:${this.version}:${a.index}`)),
			this.store.ids,
		);
		const pub = Math.floor((a.col - f.liveDelay()) / 1000) * 1000;
		return this.store.makeRec(f.make(p, pub, a.col, a.sentiment), p.id, true);
	}

	/** Admin: collect mentions now (or at a given instant), with overrides deep-merged. */
	collectNow(
		p: Project,
		count: number,
		overrides: Record<string, unknown> | undefined,
		collectedAt: number | undefined,
		publishedAt: number | undefined,
	): Mention[] {
		const f = this.store.liveFactory;
		const col = collectedAt ?? this.clock.now();
		const recs: Rec[] = [];
		for (let i = 0; i < count; i++) {
			const pub = publishedAt ?? Math.min(Math.floor((col - f.liveDelay()) / 1000) * 1000, col);
			const m = f.make(p, pub, col);
			if (overrides) deepMerge(m as unknown as Record<string, unknown>, overrides);
			recs.push(this.store.makeRec(m, p.id, true));
		}
		this.add(p, recs);
		return recs.map((r) => r.m);
	}

	private add(p: Project, recs: Rec[]): void {
		this.store.insertMany(p, recs);
		// Live order is random (reference): shuffle each batch before it goes out.
		this.hub.publishMentions(p.id, this.rng.shuffle(recs.slice()));
	}

	/** Whether a mention gets engagement updates (D-46): published within the last month. */
	engagementEligible(r: Rec, now: number): boolean {
		return r.pub >= now - ENGAGEMENT_WINDOW_MS && r.col <= now;
	}

	/** Mentions eligible for engagement updates: published within the last month. */
	private eligible(now: number): Rec[] {
		const out: Rec[] = [];
		for (const r of this.store.mentions.values()) if (this.engagementEligible(r, now)) out.push(r);
		return out;
	}

	/** Emit engagement updates now: for one mention, or for random eligible ones. */
	emitEngagement(count: number, mentionId?: string): EngagementUpdate[] {
		const now = this.clock.now();
		let targets: Rec[];
		if (mentionId !== undefined) {
			const r = this.store.mentions.get(mentionId);
			targets = r ? Array.from({ length: count }, () => r) : [];
		} else {
			const pool = this.eligible(now);
			targets = pool.length ? Array.from({ length: count }, () => this.rng.pick(pool)) : [];
		}
		const updates = targets.map((r) => this.update(this.bump(r), now));
		this.publish(updates);
		return updates.map((u) => u.update);
	}

	/** Send updates to the engagement streams and keep them for backfill. */
	private publish(updates: Array<{ at: number; update: EngagementUpdate }>): void {
		if (!updates.length) return;
		const log = this.engagementLog;
		log.push(...updates);
		const cutoff = this.clock.now() - ENGAGEMENT_LOG_MS;
		let k = 0;
		for (const e of log) if (e.at >= cutoff) log[k++] = e;
		log.length = k;
		if (log.length > 100_000) log.splice(0, log.length - 100_000);
		this.hub.publishEngagement(updates.map((u) => u.update));
	}

	/** A mention's metrics changed at `at`: the store learns it, and the update (D-28) says it. */
	private update(r: Rec, at: number): { at: number; update: EngagementUpdate } {
		this.store.metricsChanged(r);
		const when = Math.max(at, (this.lastUpdate.get(r.id) ?? -Infinity) + 1);
		this.lastUpdate.set(r.id, when);
		return {
			at: when,
			update: {
				mentionId: r.id,
				engagementMetrics: structuredClone(r.m.engagementMetrics),
				updatedAt: new Date(when).toISOString(),
			},
		};
	}

	/** A random change of a mention's metrics (random engagement updates). */
	private bump(r: Rec): Rec {
		const rng = this.rng;
		const em = r.m.engagementMetrics;
		const c = em.sourceMetrics.common;
		const inc = (v: number | null, max: number, pStart: number): number | null =>
			v === null ? (rng.chance(pStart) ? rng.int(1, max) : null) : v + rng.int(0, max);
		c.likeCount = inc(c.likeCount, 25, 0.5) ?? c.likeCount;
		if (c.likeCount === null) c.likeCount = rng.int(1, 25);
		c.shareCount = inc(c.shareCount, 4, 0.2);
		c.commentCount = inc(c.commentCount, 5, 0.3);
		c.viewCount = inc(c.viewCount, 400, 0.1);
		const fb = em.sourceMetrics.facebook;
		if (fb) {
			fb.likeCount += rng.int(0, 10);
			fb.loveCount += rng.int(0, 4);
			fb.hahaCount += rng.int(0, 2);
		}
		const tw = em.sourceMetrics.twitter;
		if (tw) {
			tw.favouritesCount += rng.int(0, 12);
			tw.retweetsCount += rng.int(0, 3);
		}
		if (em.engagementRate !== null) {
			em.engagementRate =
				Math.round(Math.min(em.engagementRate + rng.next() * 0.005, 1) * 10000) / 10000;
		}
		return r;
	}
}
