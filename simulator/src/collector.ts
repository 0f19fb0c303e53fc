/* eslint-disable @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Collection over time: new mentions (--live-rate, per project) and engagement updates
// (--engagement-rate, across all projects), driven by the simulated clock. A real-time ticker
// advances it; moving the clock through the admin API ticks at once.

import type { Clock } from './clock.ts';
import { ENGAGEMENT_WINDOW_MS } from './constants.ts';
import type { Store } from './data/store.ts';
import { Rng } from './prng.ts';
import type { EngagementUpdate, Hub } from './streams.ts';
import type { Mention, Project, Rec } from './types.ts';
import { isPlainObject } from './validate.ts';

/** Collection never produces more than this many mentions per project in one tick. */
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

export class Collector {
	ratePerMinute: number;
	engagementPerMinute: number;
	private lastTick: number;
	private readonly carry = new Map<number, number>();
	private engagementCarry = 0;
	/** last update instant per mention: two updates of one mention never share an instant (or an event id) */
	private readonly lastUpdate = new Map<string, number>();
	private timer: NodeJS.Timeout | undefined;
	readonly engagementLog: Array<{ at: number; update: EngagementUpdate }> = [];
	private readonly store: Store;
	private readonly clock: Clock;
	private readonly hub: Hub;
	private readonly rng: Rng;

	constructor(
		store: Store,
		clock: Clock,
		hub: Hub,
		seed: number,
		rate: number,
		engagementRate: number,
	) {
		this.store = store;
		this.clock = clock;
		this.hub = hub;
		this.rng = new Rng(seed);
		this.ratePerMinute = rate;
		this.engagementPerMinute = engagementRate;
		this.lastTick = clock.now();
	}

	start(): void {
		this.timer = setInterval(() => this.tick(), 200);
		this.timer.unref();
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
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
		if (this.ratePerMinute > 0) {
			for (const p of this.store.projects.values()) {
				const due = (this.ratePerMinute * dt) / 60_000 + (this.carry.get(p.id) ?? 0);
				const n = Math.floor(due);
				this.carry.set(p.id, due - n);
				if (n > 0) this.collectSpread(p, Math.min(n, MAX_PER_TICK), from, now);
			}
		}
		if (this.engagementPerMinute > 0) {
			const due = (this.engagementPerMinute * dt) / 60_000 + this.engagementCarry;
			const n = Math.floor(due);
			this.engagementCarry = due - n;
			if (n > 0) this.emitEngagement(Math.min(n, MAX_PER_TICK));
		}
	}

	/** Reset the tick base (after the clock jumped and collection should not catch up). */
	rebase(): void {
		this.lastTick = this.clock.now();
	}

	/** n mentions collected in (from, to], in small batches that share one collectedAt. */
	private collectSpread(p: Project, n: number, from: number, to: number): void {
		const f = this.store.liveFactory;
		const recs: Rec[] = [];
		let left = n;
		while (left > 0) {
			const size = Math.min(left, f.random.int(1, 5));
			const col = Math.max(from + 1, Math.round(from + f.random.next() * (to - from)));
			for (let i = 0; i < size; i++) {
				const pub = Math.floor((col - f.liveDelay()) / 1000) * 1000;
				recs.push(this.store.makeRec(f.make(p, pub, col), p.id, true));
			}
			left -= size;
		}
		this.add(p, recs);
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
		for (const r of recs) this.store.insert(p, r);
		// Live order is random (reference): shuffle each batch before it goes out.
		this.hub.publishMentions(p.id, this.rng.shuffle(recs.slice()));
	}

	/** Mentions eligible for engagement updates: published within the last month. */
	private eligible(now: number): Rec[] {
		const out: Rec[] = [];
		for (const r of this.store.mentions.values()) {
			if (r.pub >= now - ENGAGEMENT_WINDOW_MS && r.col <= now) out.push(r);
		}
		return out;
	}

	/** Emit engagement updates: for one mention, or for random eligible ones. */
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
		const updates = targets.map((r) => this.bump(r, now));
		const cutoff = now - ENGAGEMENT_LOG_MS;
		while (this.engagementLog.length && this.engagementLog[0].at < cutoff)
			this.engagementLog.shift();
		for (const u of updates) this.engagementLog.push({ at: now, update: u });
		if (this.engagementLog.length > 100_000)
			this.engagementLog.splice(0, this.engagementLog.length - 100_000);
		this.hub.publishEngagement(updates);
		return updates;
	}

	private bump(r: Rec, now: number): EngagementUpdate {
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
		this.store.metricsChanged(r);
		const at = Math.max(now, (this.lastUpdate.get(r.id) ?? -Infinity) + 1);
		this.lastUpdate.set(r.id, at);
		return {
			mentionId: r.id,
			engagementMetrics: structuredClone(em),
			updatedAt: new Date(at).toISOString(),
		};
	}
}
