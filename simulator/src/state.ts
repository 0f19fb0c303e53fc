/* eslint-disable @n8n/community-nodes/no-restricted-imports -- simulator/test code: not shipped in the package */
// Everything the simulator holds, built from the options; `reset()` rebuilds the startup state.

import type { Socket } from 'node:net';

import type { Shape } from './arrivals.ts';
import { Clock } from './clock.ts';
import { Collector } from './collector.ts';
import type { Group, Tier } from './constants.ts';
import { Store } from './data/store.ts';
import { defaultFaults, type FaultConfig } from './faults.ts';
import { Limits, type LimitMode } from './limits.ts';
import { Rng, deriveSeed } from './prng.ts';
import { Hub, type StreamWriter } from './streams.ts';
import type { VariantConfig } from './variants.ts';
import type { Curve } from './viral.ts';

export interface Options {
	port: number;
	seed: number;
	/** Start instant of the clock (ms); undefined = real now at startup. */
	now: number | undefined;
	clock: 'running' | 'frozen';
	projects: number;
	mentions: number;
	historyDays: number;
	limits: LimitMode;
	latencyMs: number;
	errorRate: number;
	heartbeatMs: number;
	/** The startup live shape (--live-rate, --live-daily, --live-burst, …); reset returns to it. */
	live: Shape;
	engagementRate: number;
	viralShare: number;
	viralCurve: Curve;
	legacyHeartbeat: boolean;
	indexLagMs: number;
	admin: boolean;
	verbose: boolean;
	/** The startup variant (--variant); reset returns to it. */
	variant: VariantConfig;
}

export interface LogEntry {
	seq: number;
	at: string;
	method: string;
	/** The path the server routed on (dot segments removed, see http.ts parseTarget). */
	path: string;
	/** The request target's path exactly as received on the wire (req.url without the query). */
	rawPath: string;
	query: Record<string, string>;
	status: number | null;
	group: Group | null;
	tier: Tier | null;
	counted: boolean;
	/** request body: parsed JSON when it parses, else the text (cut at 10 kB); null when empty */
	body: unknown;
	/** the Accept and Content-Type request headers (never the key) */
	accept: string | null;
	contentType: string | null;
}

const LOG_MAX = 100_000;

export class State {
	readonly opts: Options;
	readonly startNow: number;
	clock!: Clock;
	store!: Store;
	limits!: Limits;
	faults!: FaultConfig;
	hub!: Hub;
	collector!: Collector;
	faultRng!: Rng;
	/** The effective variant: the startup one, changed by the admin API (merged in place). */
	variant!: VariantConfig;
	log: LogEntry[] = [];
	private seq = 0;
	readonly streams = new Set<StreamWriter>();
	readonly hung = new Set<Socket>();

	constructor(opts: Options) {
		this.opts = opts;
		this.startNow = opts.now ?? Date.now();
		this.init();
	}

	private init(): void {
		const o = this.opts;
		this.clock = new Clock(this.startNow, o.clock === 'frozen');
		this.variant = { ...o.variant };
		this.store = Store.generate({
			seed: o.seed,
			projects: o.projects,
			mentionsPerProject: o.mentions,
			historyDays: o.historyDays,
			nowMs: this.startNow,
		});
		this.limits = new Limits(o.limits, () => this.variant.rateWindow);
		this.faults = defaultFaults(o.latencyMs, o.errorRate, o.indexLagMs);
		this.hub = new Hub();
		this.collector = new Collector(this.store, this.clock, this.hub, {
			seed: deriveSeed(o.seed, 'collector'),
			shape: o.live,
			engagementPerMinute: o.engagementRate,
			viralShare: o.viralShare,
			viralCurve: o.viralCurve,
		});
		this.collector.start();
		this.faultRng = new Rng(deriveSeed(o.seed, 'faults'));
		this.log = [];
		this.seq = 0;
	}

	/** Close every open stream and hanging socket (reset and shutdown). */
	closeConnections(): void {
		for (const w of this.streams) w.destroy();
		this.streams.clear();
		for (const s of this.hung) s.destroy();
		this.hung.clear();
	}

	reset(): void {
		this.collector.stop();
		this.closeConnections();
		this.init();
	}

	shutdown(): void {
		this.collector.stop();
		this.closeConnections();
	}

	record(entry: Omit<LogEntry, 'seq'>): LogEntry {
		const e: LogEntry = { seq: ++this.seq, ...entry };
		this.log.push(e);
		if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
		return e;
	}
}
