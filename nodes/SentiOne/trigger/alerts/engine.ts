/**
 * The alert engine both triggers feed: each matching mention once (`observe`), and what part of
 * the time line they have seen whole (`cover`, `hole`); it answers with the items due (`due`): a
 * digest per closed window, a spike or sentiment-shift alert when one starts (and, on request,
 * when it ends). Its state is plain data the trigger saves in its static data together with its
 * own (watermark, stream memory), so a restart resumes exactly where the saved state stands.
 *
 * Rules (docs/alerts.md):
 * - a mention counts in the window and the history slot of its collectedAt, once;
 * - a digest window is emitted once its end is `graceMs` behind and the trigger has seen it whole;
 *   if it is still not seen whole `maxDelayMs` after its end, it is emitted marked incomplete
 *   ("at least"), and mentions of it read later are reported in the next digest, counted once;
 * - a spike is the count of the last bucket against the baseline (baseline.ts); a count the
 *   trigger may not have seen whole can start an alert (a lower bound above the threshold proves
 *   a spike) but never end one, and never enters the baseline;
 * - a sustained spike or shift alerts once: an episode lasts until the count stays below halfway
 *   to the threshold for a whole bucket.
 * Pure: the clock is a parameter.
 */
import type { IDataObject } from 'n8n-workflow';

import { digestItem, endedItem, formatCount, shiftItem, spikeItem } from './alertItems';
import type { AlertSettings, DigestSettings, ShiftSettings, SpikeSettings } from './alertSettings';
import { baselineFor, baselineShare, sentimentShare } from './baseline';
import type { MentionFacts } from './facts';
import { byReach } from './facts';
import type { History } from './history';
import {
	countMention,
	markEpisode,
	newHistory,
	readHistory,
	seal,
	SLOT_MS,
	slotOf,
} from './history';
import type { Ranked, Tally } from './tally';
import { addToTally, newTally } from './tally';
import type { Window } from './windows';
import { nextWindow, windowAt } from './windows';

const VERSION = 1;
/** Most holes remembered (the oldest are merged away). */
const MAX_HOLES = 50;
/** Most digest windows held open at once (a mention far ahead of the windows is counted in the last). */
const MAX_OPEN_WINDOWS = 4;
/** Most bucket timestamps kept for exact spike counts. */
const MAX_RECENT = 20_000;

/** A span the trigger did not see: [from, to) and why, in words. */
export type Hole = [number, number, string?];

/** Why the first window of a fresh trigger is incomplete: nothing can ever fill the time before its start. */
const STARTED_MID_WINDOW = 'the trigger started in the middle of this window';

interface Episode {
	kind: 'volumeSpike' | 'sentimentShift';
	/** when the alert fired */
	startedAt: number;
	/** start of the window that fired it */
	windowStart: number;
	/** the last evaluation at or above the threshold */
	lastAbove: number;
	/** the most extreme reading, in words */
	peak: string;
	peakValue: number;
}

export interface AlertState {
	v: number;
	scope: string;
	/** everything collected before `through` was observed, except the holes */
	through: number;
	holes: Hole[];
	/** digest windows not emitted yet, oldest first */
	open?: Tally[];
	/** end of the last emitted window */
	emittedEnd?: number;
	/** mentions of emitted windows read after them (reported in the next digest) */
	late?: number;
	history?: History;
	/** collectedAt of the mentions of the last spike bucket */
	recent?: number[];
	episode?: Episode;
	/** the last slot a sentiment shift was judged at */
	shiftJudgedAt?: number;
}

export interface EngineOptions {
	zone: string;
	/** what the saved state belongs to (event, project, filters, window): another scope starts afresh */
	scope: string;
	/** how long after a window's end late mentions may still arrive (poll: the late window) */
	graceMs: number;
	/** how long after a window's end it waits to see it whole before emitting it as incomplete */
	maxDelayMs: number;
	/** what a digest is called in its summary ("Daily digest") */
	windowName?: string;
	/** a fresh engine: from when the trigger sees mentions (a backfill starts earlier; default: now) */
	seenFrom?: number;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const finite = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value);

export class AlertEngine {
	readonly state: AlertState;

	/** the best mentions of each recent slot (samples for spike and shift items); not saved */
	private readonly slotTops = new Map<number, Array<Ranked & { at: number }>>();

	/** true when the state was resumed from what the trigger saved */
	readonly resumed: boolean;

	constructor(
		readonly settings: Exclude<AlertSettings, { event: 'viralMention' }>,
		readonly options: EngineOptions,
		saved: unknown,
		now: number,
	) {
		const loaded = this.load(saved, now);
		this.resumed = loaded !== undefined;
		const seenFrom = Math.min(options.seenFrom ?? now, now);
		this.state = loaded ?? { v: VERSION, scope: options.scope, through: seenFrom, holes: [] };
		if (settings.event !== 'digest') this.state.history ??= newHistory(seenFrom);
		if (settings.event === 'digest' && !this.state.open) {
			const window = windowAt(settings.window, seenFrom, options.zone);
			this.state.open = [this.tallyOf(window)];
			// a fresh start in the middle of a window: its first part was not seen
			this.hole(window.start, seenFrom, STARTED_MID_WINDOW);
		}
	}

	private tallyOf(window: Window): Tally {
		return newTally(window.start, window.end);
	}

	/** Saved state, checked; undefined when it belongs to other settings or cannot be read. */
	private load(saved: unknown, now: number): AlertState | undefined {
		if (!isObject(saved) || saved.v !== VERSION || saved.scope !== this.options.scope)
			return undefined;
		if (!finite(saved.through) || saved.through > now + 3_600_000) return undefined;
		const holes = Array.isArray(saved.holes)
			? (saved.holes as unknown[]).filter(
					(h): h is Hole =>
						Array.isArray(h) &&
						(h.length === 2 || (h.length === 3 && typeof h[2] === 'string' && h[2].length < 500)) &&
						finite(h[0]) &&
						finite(h[1]) &&
						h[0] < h[1],
				)
			: [];
		const state: AlertState = {
			v: VERSION,
			scope: this.options.scope,
			through: saved.through,
			holes,
		};
		if (Array.isArray(saved.open)) {
			const open = (saved.open as unknown[]).filter(
				(t): t is Tally =>
					isObject(t) &&
					finite(t.start) &&
					finite(t.end) &&
					finite(t.total) &&
					Array.isArray(t.top),
			);
			if (open.length > 0) state.open = open.slice(0, MAX_OPEN_WINDOWS);
		}
		if (finite(saved.emittedEnd)) state.emittedEnd = saved.emittedEnd;
		if (finite(saved.late) && saved.late >= 0) state.late = saved.late;
		const history = readHistory(saved.history);
		if (history) state.history = history;
		if (Array.isArray(saved.recent))
			state.recent = (saved.recent as unknown[]).filter(finite).slice(-MAX_RECENT);
		if (
			isObject(saved.episode) &&
			finite(saved.episode.startedAt) &&
			finite(saved.episode.lastAbove)
		) {
			state.episode = saved.episode as unknown as Episode;
		}
		if (finite(saved.shiftJudgedAt)) state.shiftJudgedAt = saved.shiftJudgedAt;
		return state;
	}

	/** The state to save (plain data). */
	snapshot(): IDataObject {
		return JSON.parse(JSON.stringify(this.state)) as IDataObject;
	}

	/** Counts one matching mention (the trigger passes each once). */
	observe(facts: MentionFacts, now: number): void {
		const at = Math.min(facts.collectedAt, now + 10 * 60_000);
		const s = this.settings;
		if (s.event === 'digest') {
			const open = this.state.open!;
			if (at < open[0].start) {
				this.state.late = (this.state.late ?? 0) + 1;
				return;
			}
			while (at >= open[open.length - 1].end && open.length < MAX_OPEN_WINDOWS) {
				open.push(this.tallyOf(nextWindow(s.window, open[open.length - 1], this.options.zone)));
			}
			const tally = open.find((t) => at >= t.start && at < t.end) ?? open[open.length - 1];
			addToTally(tally, facts, { top: s.top, negative: s.negative });
			return;
		}
		countMention(this.state.history!, at, facts.sentiment);
		if (s.event === 'volumeSpike') {
			const recent = (this.state.recent ??= []);
			recent.push(at);
			if (recent.length > MAX_RECENT) recent.splice(0, recent.length - MAX_RECENT);
		}
		const slot = slotOf(at);
		const tops = this.slotTops.get(slot) ?? [];
		tops.push({ id: facts.id, reach: facts.reach, row: facts.row, at });
		tops.sort(byReach);
		this.slotTops.set(slot, tops.slice(0, 20));
	}

	/** Everything collected before `through` was observed (except the holes). */
	cover(through: number): void {
		if (through > this.state.through) this.state.through = through;
	}

	/** A span the trigger could not observe (it stays a hole unless `fill` is called). */
	hole(from: number, to: number, why?: string): void {
		if (to <= from) return;
		this.state.holes.push(why === undefined ? [from, to] : [from, to, why]);
		this.state.holes.sort((a, b) => a[0] - b[0]);
		if (this.state.holes.length > MAX_HOLES) {
			const [a, b] = this.state.holes.splice(0, 2);
			this.state.holes.unshift([a[0], Math.max(a[1], b[1]), a[2] ?? b[2]]);
		}
	}

	/** A span before the trigger first saw anything: a hole nothing can fill (no window waits for it). */
	notStarted(from: number, to: number): void {
		this.hole(from, to, STARTED_MID_WINDOW);
	}

	/** A span that was a hole and has been observed after all (a gap fill or catch-up that worked). */
	fill(from: number, to: number): void {
		const out: Hole[] = [];
		for (const hole of this.state.holes) {
			const [a, b, why] = hole;
			if (b <= from || a >= to) out.push(hole);
			else {
				if (a < from) out.push([a, from, why]);
				if (b > to) out.push([to, b, why]);
			}
		}
		this.state.holes = out;
	}

	private seenWhole(from: number, to: number): boolean {
		return this.state.through >= to && this.holeIn(from, to) === undefined;
	}

	/** The first hole overlapping [from, to). */
	private holeIn(from: number, to: number): Hole | undefined {
		return this.state.holes.find(([a, b]) => a < to && b > from);
	}

	/** The items due at `now` (each is passed on once: the caller saves the state with them). */
	due(now: number): IDataObject[] {
		const s = this.settings;
		// holes entirely older than anything still judged are forgotten
		const horizon = Math.min(this.state.through, now) - 8 * 24 * 3_600_000;
		this.state.holes = this.state.holes.filter(([, b]) => b > horizon);
		if (s.event === 'digest') return this.dueDigests(s, now);
		seal(this.state.history!, Math.min(this.state.through, now), this.state.holes);
		for (const slot of this.slotTops.keys())
			if (slot < slotOf(now) - 300) this.slotTops.delete(slot);
		return s.event === 'volumeSpike' ? this.judgeSpike(s, now) : this.judgeShift(s, now);
	}

	/** When the next digest window can close (for a timer), or undefined. */
	nextDueAt(): number | undefined {
		const first = this.state.open?.[0];
		return first ? first.end + this.options.graceMs : undefined;
	}

	private dueDigests(s: DigestSettings, now: number): IDataObject[] {
		const items: IDataObject[] = [];
		const open = this.state.open!;
		while (open.length > 0 && open[0].end + this.options.graceMs <= now) {
			const tally = open[0];
			const complete = this.seenWhole(tally.start, tally.end);
			if (!complete && now < tally.end + this.options.maxDelayMs && this.mayFill(tally)) break;
			open.shift();
			if (open.length === 0)
				open.push(this.tallyOf(nextWindow(s.window, tally, this.options.zone)));
			this.state.emittedEnd = tally.end;
			const late = this.state.late ?? 0;
			if (tally.total === 0 && complete && !s.sendEmpty && late === 0) continue;
			items.push(
				digestItem(
					tally,
					complete ? { complete } : { complete, why: this.whyIncomplete(tally.start, tally.end) },
					{
						zone: this.options.zone,
						windowName: this.options.windowName ?? 'Digest',
						lateFromEarlier: late,
					},
				),
			);
			this.state.late = 0;
		}
		return items;
	}

	/**
	 * Whether waiting may still make a window whole: the trigger has not read it to its end, or a
	 * hole in it may yet be filled (not the time before a fresh trigger's start, which none can).
	 */
	private mayFill(window: Tally): boolean {
		if (this.state.through < window.end) return true;
		return this.state.holes.some(
			([a, b, why]) => a < window.end && b > window.start && why !== STARTED_MID_WINDOW,
		);
	}

	/** Why [from, to) was not seen whole, in words. */
	private whyIncomplete(from: number, to: number): string {
		const hole = this.holeIn(from, to);
		if (hole) return hole[2] ?? 'part of it could not be read (an outage SentiOne could not fill)';
		return 'the trigger had not read every mention of it in time';
	}

	/** Up to `n` mentions of [from, to) with the most reach. */
	private sample(from: number, to: number, n: number): Ranked[] {
		const all: Array<Ranked & { at: number }> = [];
		for (let slot = slotOf(from); slot <= slotOf(to); slot++) {
			for (const entry of this.slotTops.get(slot) ?? [])
				if (entry.at >= from && entry.at < to) all.push(entry);
		}
		return all
			.sort(byReach)
			.slice(0, n)
			.map(({ id, reach, row }) => ({ id, reach, row }));
	}

	private judgeSpike(s: SpikeSettings, now: number): IDataObject[] {
		const at = Math.min(now, this.state.through);
		const from = at - s.bucketMs;
		const recent = (this.state.recent ??= []);
		while (recent.length > 0 && recent[0] <= from - SLOT_MS) recent.shift();
		const count = recent.filter((t) => t > from && t <= at).length;
		const complete = this.seenWhole(from, at);
		const baseline = baselineFor(this.state.history!, at, s.bucketMs, s.baseline);
		if (!baseline) return [];
		const spread = Math.max(baseline.spread, Math.sqrt(baseline.expected), 1);
		const threshold = Math.max(
			s.minMentions,
			s.ratio * baseline.expected,
			baseline.expected + s.deviations * spread,
		);
		const episode = this.state.episode;
		if (!episode) {
			if (count < threshold) return [];
			this.state.episode = {
				kind: 'volumeSpike',
				startedAt: at,
				windowStart: from,
				lastAbove: at,
				peak: `${formatCount(count)} mentions in ${Math.round(s.bucketMs / 60_000)} minutes`,
				peakValue: count,
			};
			return [
				spikeItem({
					count,
					complete,
					windowStart: from,
					windowEnd: at,
					baseline,
					threshold,
					sample: this.sample(from, at, s.sampleSize),
					zone: this.options.zone,
				}),
			];
		}
		// the episode stays out of the baseline while it lasts
		markEpisode(this.state.history!, episode.windowStart, at);
		if (count >= threshold) episode.lastAbove = at;
		if (count > episode.peakValue) {
			episode.peakValue = count;
			episode.peak = `${formatCount(count)} mentions in ${Math.round(s.bucketMs / 60_000)} minutes`;
		}
		const endLevel = baseline.expected + (threshold - baseline.expected) / 2;
		if (complete && count < endLevel && at - episode.lastAbove >= s.bucketMs)
			return this.endEpisode(episode, at, s.notifyEnd);
		return [];
	}

	private judgeShift(s: ShiftSettings, now: number): IDataObject[] {
		// judged at slot boundaries: the window is whole slots
		const at = slotOf(Math.min(now, this.state.through)) * SLOT_MS;
		if (this.state.shiftJudgedAt !== undefined && at <= this.state.shiftJudgedAt) return [];
		this.state.shiftJudgedAt = at;
		const from = at - s.windowMs;
		const window = sentimentShare(this.state.history!, from, at, s.sentiment);
		const usual = baselineShare(this.state.history!, from, s.sentiment);
		if (!usual || !window.usable || window.total < s.minMentions) return [];
		const move = (window.share - usual.share) * 100;
		const moved = s.direction === 'up' ? move : s.direction === 'down' ? -move : Math.abs(move);
		const episode = this.state.episode;
		if (!episode) {
			if (moved < s.points) return [];
			this.state.episode = {
				kind: 'sentimentShift',
				startedAt: at,
				windowStart: from,
				lastAbove: at,
				peak: `${Math.round(window.share * 100)}% ${s.sentiment.toLowerCase()}`,
				peakValue: moved,
			};
			const matching = Math.round(window.share * window.total);
			return [
				shiftItem({
					sentiment: s.sentiment,
					share: window.share,
					usualShare: usual.share,
					basis: usual.basis,
					count: window.total,
					matching,
					windowStart: from,
					windowEnd: at,
					sample: this.sample(from, at, s.sampleSize),
					zone: this.options.zone,
				}),
			];
		}
		markEpisode(this.state.history!, episode.windowStart, at);
		if (moved >= s.points) episode.lastAbove = at;
		if (moved > episode.peakValue) {
			episode.peakValue = moved;
			episode.peak = `${Math.round(window.share * 100)}% ${s.sentiment.toLowerCase()}`;
		}
		if (moved < s.points / 2 && at - episode.lastAbove >= s.windowMs)
			return this.endEpisode(episode, at, s.notifyEnd);
		return [];
	}

	private endEpisode(episode: Episode, at: number, notify: boolean): IDataObject[] {
		markEpisode(this.state.history!, episode.windowStart, at);
		delete this.state.episode;
		return notify
			? [
					endedItem({
						kind: episode.kind,
						startedAt: episode.startedAt,
						endedAt: at,
						peak: episode.peak,
						zone: this.options.zone,
					}),
				]
			: [];
	}
}
