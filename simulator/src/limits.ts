// Rate limits (D-07, D-08, D-09): fixed one-hour windows aligned to the top of the UTC hour (or,
// variant rateWindow=rolling, starting at a key's first counted request), counted per API key (one
// key per tier here) and per group; stream concurrency; the monthly mentions cap per calendar month.

import {
	CONCURRENCY_LIMITS,
	GROUPS,
	HOURLY_LIMITS,
	MONTHLY_CAPS,
	type Group,
	type Tier,
} from './constants.ts';

const HOUR = 3600_000;

export type LimitMode = 'spec' | 'off';
/** aligned: windows start at the top of the UTC hour (D-07); rolling: at the first counted request. */
export type WindowMode = 'aligned' | 'rolling';
type PaidTier = 'basic' | 'enterprise';

export interface WindowState {
	limit: number;
	remaining: number;
	/** Unix seconds of the window's end. */
	reset: number;
	resetIso: string;
}

export interface LimitSettings {
	mode: LimitMode;
	hourly: Record<Group, number>;
	concurrency: Record<Group, number>;
	monthlyCap: Record<PaidTier, number>;
}

interface HourWindow {
	/** ms; the window covers [start, end) */
	start: number;
	end: number;
	count: number;
}

export class Limits {
	settings: LimitSettings;
	private readonly windows = new Map<string, HourWindow>();
	private readonly open = new Map<Group, number>();
	private readonly openByTier = new Map<string, number>();
	private readonly monthly = new Map<PaidTier, { month: number; used: number }>();
	/** Mentions returned per tier, all time (admin stats). */
	readonly returned: Record<PaidTier, number> = { basic: 0, enterprise: 0 };

	private readonly windowMode: () => WindowMode;

	constructor(mode: LimitMode, windowMode: () => WindowMode) {
		this.windowMode = windowMode;
		this.settings = {
			mode,
			hourly: { ...HOURLY_LIMITS },
			concurrency: { ...CONCURRENCY_LIMITS },
			monthlyCap: { ...MONTHLY_CAPS },
		};
	}

	get enabled(): boolean {
		return this.settings.mode === 'spec';
	}

	/** The window a request counted now would open. */
	private newWindow(now: number): HourWindow {
		const start = this.windowMode() === 'rolling' ? now : Math.floor(now / HOUR) * HOUR;
		return { start, end: start + HOUR, count: 0 };
	}

	/** The key's window for the group that holds `now`, if one is open. */
	private current(key: string, now: number): HourWindow | undefined {
		const w = this.windows.get(key);
		return w && now >= w.start && now < w.end ? w : undefined;
	}

	/** The hourly window as the headers describe it. `tier` null: caller not identified (fresh). */
	state(tier: Tier | null, group: Group, now: number): WindowState {
		const limit = this.settings.hourly[group];
		const w =
			(tier && this.enabled && this.current(`${tier}:${group}`, now)) || this.newWindow(now);
		return {
			limit,
			remaining: Math.max(limit - w.count, 0),
			reset: Math.ceil(w.end / 1000),
			resetIso: new Date(w.end).toISOString(),
		};
	}

	/** Count one request; false when the hourly budget is already spent (then nothing is counted). */
	tryCount(tier: Tier, group: Group, now: number): boolean {
		if (!this.enabled) return true;
		const key = `${tier}:${group}`;
		let w = this.current(key, now);
		if (!w) {
			w = this.newWindow(now);
			this.windows.set(key, w);
		}
		if (w.count >= this.settings.hourly[group]) return false;
		w.count++;
		return true;
	}

	/** Whether the hourly budget is spent, without counting. */
	exhausted(tier: Tier, group: Group, now: number): boolean {
		return this.enabled && this.state(tier, group, now).remaining <= 0;
	}

	concurrencyLimit(group: Group): number {
		return this.settings.concurrency[group];
	}

	concurrencyFull(tier: Tier, group: Group): boolean {
		const max = this.settings.concurrency[group];
		return this.enabled && max > 0 && (this.openByTier.get(`${tier}:${group}`) ?? 0) >= max;
	}

	acquire(tier: Tier, group: Group): () => void {
		const key = `${tier}:${group}`;
		this.openByTier.set(key, (this.openByTier.get(key) ?? 0) + 1);
		this.open.set(group, (this.open.get(group) ?? 0) + 1);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.openByTier.set(key, Math.max((this.openByTier.get(key) ?? 1) - 1, 0));
			this.open.set(group, Math.max((this.open.get(group) ?? 1) - 1, 0));
		};
	}

	openStreams(): Record<Group, number> {
		const out = {} as Record<Group, number>;
		for (const g of GROUPS) out[g] = this.open.get(g) ?? 0;
		return out;
	}

	private monthOf(now: number): number {
		const d = new Date(now);
		return d.getUTCFullYear() * 12 + d.getUTCMonth();
	}

	monthlyResetIso(now: number): string {
		const d = new Date(now);
		return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
	}

	monthlyCap(tier: PaidTier): number {
		return this.settings.monthlyCap[tier];
	}

	/** Mentions the tier may still receive this month (Infinity when limits are off). */
	monthlyRemaining(tier: PaidTier, now: number): number {
		if (!this.enabled) return Infinity;
		const m = this.monthly.get(tier);
		const used = m && m.month === this.monthOf(now) ? m.used : 0;
		return Math.max(this.settings.monthlyCap[tier] - used, 0);
	}

	addMonthly(tier: PaidTier, n: number, now: number): void {
		if (n <= 0) return;
		this.returned[tier] += n;
		const month = this.monthOf(now);
		let m = this.monthly.get(tier);
		if (!m || m.month !== month) {
			m = { month, used: 0 };
			this.monthly.set(tier, m);
		}
		m.used += n;
	}

	monthlyUsed(now: number): Record<PaidTier, number> {
		const month = this.monthOf(now);
		const used = (t: PaidTier) => {
			const m = this.monthly.get(t);
			return m && m.month === month ? m.used : 0;
		};
		return { basic: used('basic'), enterprise: used('enterprise') };
	}

	/** Forget the hourly counters and the monthly usage (admin `resetWindows`). */
	resetWindows(): void {
		this.windows.clear();
		this.monthly.clear();
	}
}
