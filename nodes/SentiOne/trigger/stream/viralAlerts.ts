/**
 * The Stream Trigger's Viral Mention event (docs/alerts.md, "Viral Mention"): every engagement
 * update goes through the rules (trigger/alerts/viral.ts); each rule a mention fires is passed on
 * once, as an alert, with the mention's figures and — found by a look-up in the chosen project
 * (viralLookup.ts) — its link, author and text.
 *
 * - The engagement stream carries every project of the account: a mention the look-up shows to be
 *   another project's is not alerted (and not looked up again); one it cannot place (the cap
 *   spent, the budget spent, a failure, or more of the project's mentions above it than it reads)
 *   is alerted without its link, saying why.
 * - Updates that carry only the mention's id (no figures): the figures are read by the same
 *   searches, in rounds spread over the hour (each order of the watched counts once a round, as
 *   often as the cap allows), for the mentions that had updates since the last round.
 * - One look-up per mention at most: a mention found is remembered (the rows of the latest alerted
 *   mentions are saved), one another project's too, and one a search could not place is not
 *   searched again (its later alerts say so).
 * - The fired rules, what the look-ups learnt and the searches of the last hour are saved with
 *   every alert, together with the stream's memory (a restart resumes both; a rule whose alert was
 *   not passed on yet is left out, so a restart fires it again).
 *
 * The look-ups run one after another beside the stream, which goes on being read meanwhile.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attempt } from '../../shared/attempt';
import { BOUNDS } from '../../shared/bounds';
import { clock } from '../../shared/clock';
import { ENGAGEMENT_UPDATE_FIELDS } from '../../shared/contract';
import { mentionRow } from '../../shared/simplify';
import type { StreamItem } from '../../shared/stream';
import { idKey } from '../../shared/text';
import { formatInstant, readServerInstant } from '../../shared/time';
import { HOUR_MS, MINUTE_MS } from '../../shared/units';
import { plural } from '../../shared/wording';
import type { ViralLookup } from '../alerts/alertItems';
import { figuresText, viralItem } from '../alerts/alertItems';
import type { ViralAlertSettings } from '../alerts/alertSettings';
import { TEXT_CHARS } from '../alerts/facts';
import type { Metric, ViralHit, ViralState } from '../alerts/viral';
import {
	FIRED_KEEP_MS,
	METRIC_WORDS,
	METRICS,
	newViralState,
	observeUpdate,
	readViralState,
	saveViralState,
} from '../alerts/viral';
import type { SessionContext } from './sessionTypes';
import type { SortedMetric } from './viralLookup';
import {
	countOf,
	LOOKUP,
	LookupCap,
	lookupOrder,
	lookupRequest,
	ORDER_WORDS,
	reachOf,
	readOrder,
	rowId,
	verdictOf,
} from './viralLookup';

type EngagementItem = Extract<StreamItem, { type: 'engagementUpdate' }>;

/** Mentions known to be another project's, kept at most (as long as a fired rule). */
const MAX_FOREIGN = 5000;
/** Mentions of the project found by a search, kept (their rows) at most. */
const MAX_KNOWN = 500;
/** Rows of alerted mentions saved with the alerts (a restart looks none of them up again). */
const MAX_SAVED_ROWS = 50;
/** Mentions a search read without placing, kept (not searched again) at most. */
const MAX_MISSED = 1000;
/** Mentions with id-only updates waiting for the next round, at most. */
const MAX_WAITING = 10_000;
/** The first round waits this long after the first id-only update, so a backfill arrives whole. */
const FIRST_ROUND_DELAY_MS = 5_000;
/** Rounds are never closer than this. */
const MIN_ROUND_SPACING_MS = MINUTE_MS;
/** Longest saved note read back. */
const MAX_NOTE_CHARS = 1000;

const F = ENGAGEMENT_UPDATE_FIELDS;
const SAVED_KIND = 'viralMention';

export interface ViralStore {
	load(): unknown;
	save(state: IDataObject): void;
}

/** What the viral alerts did, for the close log and the tests. */
export interface ViralStats {
	updates: number;
	/** updates without figures (id-only) */
	idOnly: number;
	hits: number;
	alerts: number;
	lookups: number;
	/** search requests of look-ups and rounds (retries included) */
	searches: number;
	found: number;
	foreign: number;
	notFound: number;
	rounds: number;
}

interface QueuedHit {
	hit: ViralHit;
	/** the row, when a round's search brought the figures (the mention is the project's) */
	row?: IDataObject;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The mention id of an update, or undefined. */
function updateId(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value !== '' && value.length <= BOUNDS.maxMentionIdChars)
		return value;
	return undefined;
}

/**
 * The counts an update carries: those of `engagementMetrics.sourceMetrics.common` (D-28), or of
 * `engagementMetrics` itself when a server sends them flat. Undefined when it carries none (an
 * id-only update); a count that is null or not a count stays unknown.
 */
export function updateFigures(update: IDataObject): Partial<Record<Metric, unknown>> | undefined {
	const metrics = update[F.metrics];
	if (!isObject(metrics)) return undefined;
	let common: unknown = metrics;
	for (const key of F.commonCounts) common = isObject(common) ? common[key] : undefined;
	const source = isObject(common) ? common : metrics;
	if (!METRICS.some((m) => m in source)) return undefined;
	return Object.fromEntries(METRICS.map((m) => [m, source[m]]));
}

/** A mention a search returned, as an alert shows it: the Simplify row, its text cut. */
function rowOf(mention: IDataObject): IDataObject {
	const row = mentionRow(mention, true);
	if (typeof row.text === 'string' && row.text.length > TEXT_CHARS)
		row.text = `${row.text.slice(0, TEXT_CHARS - 1)}…`;
	return row;
}

/** The latest `max` [id key, value] pairs of a saved list; what cannot be read is dropped. */
function savedPairs(raw: unknown, max: number): Array<[string, unknown]> {
	if (!Array.isArray(raw)) return [];
	return raw
		.filter(
			(e): e is [string, unknown] =>
				Array.isArray(e) &&
				e.length === 2 &&
				typeof e[0] === 'string' &&
				e[0] !== '' &&
				e[0].length <= BOUNDS.maxMentionIdChars,
		)
		.slice(-max);
}

/** Keeps a map's newest `max` entries (a Map iterates oldest first). */
function bound<K, V>(map: Map<K, V>, max: number): void {
	for (const key of map.keys()) {
		if (map.size <= max) return;
		map.delete(key);
	}
}

export class ViralAlerts {
	readonly stats: ViralStats = {
		updates: 0,
		idOnly: 0,
		hits: 0,
		alerts: 0,
		lookups: 0,
		searches: 0,
		found: 0,
		foreign: 0,
		notFound: 0,
		rounds: 0,
	};

	private readonly state: ViralState;

	/** mentions a look-up showed to be another project's (id key → when) */
	private readonly foreign = new Map<string, number>();

	/** mentions of the project a search returned (id key → row) */
	private readonly known = new Map<string, IDataObject>();

	/** rows of alerted mentions, saved (id key → row), the latest last */
	private readonly alerted = new Map<string, IDataObject>();

	/** mentions a search read without placing them (id key → [when, why]) */
	private readonly missed = new Map<string, [number, string]>();

	private readonly cap: LookupCap;

	/** rules fired whose alert is not passed on yet, in order */
	private readonly queue: QueuedHit[] = [];

	/** id-only: mentions with updates since the last round (id key → id) */
	private readonly waiting = new Map<string, string>();

	private nextRoundAt = 0;

	private work: Promise<void> | undefined;

	private idOnlyNoticed = false;

	private readonly projectId: number;

	constructor(
		private readonly session: SessionContext,
		private readonly settings: ViralAlertSettings,
		private readonly store: ViralStore | undefined,
		/** passes an alert on (the delivery saves the stream's memory with it) */
		private readonly deliver: (item: IDataObject, key: string) => void,
	) {
		this.projectId = session.settings.projectId as number;
		const saved = store?.load();
		const mine = isObject(saved) && saved.kind === SAVED_KIND && saved.projectId === this.projectId;
		this.state = mine ? readViralState(saved.rules) : newViralState();
		this.cap = new LookupCap(settings.lookupSearchesPerHour, mine ? saved.lookups : []);
		if (!mine) return;
		for (const [key, at] of savedPairs(saved.foreign, MAX_FOREIGN))
			if (typeof at === 'number' && Number.isFinite(at)) this.foreign.set(key, at);
		for (const [key, entry] of savedPairs(saved.missed, MAX_MISSED)) {
			if (
				Array.isArray(entry) &&
				typeof entry[0] === 'number' &&
				Number.isFinite(entry[0]) &&
				typeof entry[1] === 'string'
			)
				this.missed.set(key, [entry[0], entry[1].slice(0, MAX_NOTE_CHARS)]);
		}
		for (const [key, row] of savedPairs(saved.rows, MAX_SAVED_ROWS)) {
			if (isObject(row) && rowId(row) === key) {
				this.alerted.set(key, row);
				this.known.set(key, row);
			}
		}
	}

	/** The state saved with each alert (what a restart resumes from). */
	snapshot(): IDataObject {
		return {
			kind: SAVED_KIND,
			projectId: this.projectId,
			rules: saveViralState(this.state, new Set(this.queue.map((q) => q.hit.key))),
			foreign: [...this.foreign],
			missed: [...this.missed],
			rows: [...this.alerted],
			lookups: this.cap.snapshot(),
		} as unknown as IDataObject;
	}

	/** An engagement update of the stream (any project's; repeats and any order are fine). */
	update(item: EngagementItem): void {
		if (this.session.stopped) return;
		const id = updateId(item.update[F.mentionId]);
		if (id === undefined) return;
		this.stats.updates++;
		const now = clock.now();
		const stated = readServerInstant(item.update[F.updatedAt]);
		// an instant that cannot be read, or far in the future, is taken as now
		const at = stated !== undefined && stated <= now + BOUNDS.futureAllowanceMs ? stated : now;
		const figures = updateFigures(item.update);
		if (this.session.options.manual) {
			this.testEvent(id, at, figures);
			return;
		}
		if (figures === undefined) {
			this.stats.idOnly++;
			this.awaitRound(id, now);
			return;
		}
		this.fire(observeUpdate(this.state, this.settings, { mentionId: id, at, figures }));
	}

	/** On every event of the stream: a round that is due, or alerts still waiting, get going. */
	tick(): void {
		if (this.queue.length > 0 || this.roundDue(clock.now())) this.kick();
	}

	/** Waits for the look-up under way (closing aborts it); logs what was done. */
	async close(): Promise<void> {
		await this.work;
		const s = this.stats;
		this.session.hooks.log(
			`SentiOne viral alerts: ${s.updates} engagement update(s) (${s.idOnly} without figures), ${s.hits} rule(s) fired, ${s.alerts} alert(s) passed on; ${s.lookups} look-up(s) and ${s.rounds} round(s) with ${s.searches} search request(s): ${s.found} found in project ${this.projectId}, ${s.foreign} of other projects, ${s.notFound} not found`,
		);
	}

	private fire(hits: ViralHit[], row?: IDataObject): void {
		if (hits.length === 0) return;
		this.stats.hits += hits.length;
		for (const hit of hits) this.queue.push({ hit, row });
		this.kick();
	}

	private kick(): void {
		if (this.work || this.session.stopped) return;
		this.work = this.drain()
			.catch((error: unknown) => this.session.fail(error))
			.finally(() => {
				this.work = undefined;
				if (this.queue.length > 0 && !this.session.stopped) this.kick();
			});
	}

	/** The alerts waiting, one mention at a time, then a round when one is due. */
	private async drain(): Promise<void> {
		while (!this.session.stopped) {
			const next = this.queue[0];
			if (next) await this.settle(next.hit.mentionId);
			else if (this.roundDue(clock.now())) await this.round();
			else return;
		}
	}

	/** Looks the mention up once for all its rules waiting, and passes each alert on. */
	private async settle(mentionId: string): Promise<void> {
		const mine = this.queue.filter((q) => q.hit.mentionId === mentionId);
		const fromRound = mine.find((q) => q.row !== undefined)?.row;
		const lookup: ViralLookup | 'foreign' = fromRound
			? {
					mention: fromRound,
					note: `Read by a search of project ${this.projectId} (the update carried only the mention's ID).`,
				}
			: await this.lookUp(mentionId, mine[0].hit);
		if (this.session.stopped) return;
		for (const q of mine) this.queue.splice(this.queue.indexOf(q), 1);
		if (lookup === 'foreign') return;
		if (lookup.mention) {
			const key = idKey(mentionId);
			this.alerted.delete(key);
			this.alerted.set(key, lookup.mention);
			bound(this.alerted, MAX_SAVED_ROWS);
		}
		const zone = this.session.transport.zone;
		for (const { hit } of mine) {
			const item = viralItem(hit, lookup, { zone, projectId: this.projectId });
			// saved before the emit: n8n writes the static data when an execution starts
			this.store?.save(this.snapshot());
			this.deliver(item, `viral:${hit.key}`);
			this.stats.alerts++;
		}
	}

	/** The mention in the project: found, another project's, or why it could not be told. */
	private async lookUp(mentionId: string, hit: ViralHit): Promise<ViralLookup | 'foreign'> {
		const key = idKey(mentionId);
		if (this.foreign.has(key)) return 'foreign';
		const known = this.known.get(key);
		if (known)
			return {
				mention: known,
				note: `Found in project ${this.projectId} by an earlier search (no request).`,
			};
		const missed = this.missed.get(key);
		if (missed) {
			this.stats.notFound++;
			return { note: `an earlier search did not find it (no request): ${missed[1]}` };
		}
		const now = clock.now();
		const zone = this.session.transport.zone;
		const pages = Math.min(LOOKUP.maxPages, this.cap.available(now));
		if (pages < 1) {
			this.stats.notFound++;
			return {
				note: `the look-up cap (${plural(this.cap.perHour, 'search', 'searches')} an hour, Options → Look-Up Searches per Hour) is spent until ${formatInstant(this.cap.nextAt(now), now, zone)}.`,
			};
		}
		const order = lookupOrder(hit.metric, hit.figures);
		const request = lookupRequest(this.projectId, order.by, now, this.session.signal);
		this.stats.lookups++;
		const outcome = await this.search(async () =>
			readOrder(
				this.session.transport,
				request,
				pages,
				(read) =>
					verdictOf(mentionId, order, { mentions: read, ended: false }).verdict !== 'unknown',
			),
		);
		if (!outcome.ok) {
			this.stats.notFound++;
			return { note: `the search failed: ${(outcome.error as Error)?.message ?? 'unknown error'}` };
		}
		const read = outcome.value;
		for (const m of read.mentions) this.remember(m);
		const { verdict, mention } = verdictOf(mentionId, order, read);
		const searches = plural(read.requests, 'search', 'searches');
		if (verdict === 'found' && mention) {
			this.stats.found++;
			return {
				mention: rowOf(mention),
				note: `Found in project ${this.projectId} by ${searches} (${ORDER_WORDS[order.by]}).`,
			};
		}
		if (verdict === 'absent' && !read.budgetSpent) {
			this.stats.foreign++;
			this.foreign.set(key, now);
			this.pruneForeign(now);
			this.session.hooks.log(
				`SentiOne viral alerts: a mention that fired ${hit.key.split('|').slice(1).join(' ')} is not in project ${this.projectId} (${searches}); not alerted`,
			);
			return 'foreign';
		}
		this.stats.notFound++;
		if (read.budgetSpent)
			return {
				note: `SentiOne's search budget of this API key is used up${read.budgetSpent.resetAt !== undefined ? ` until ${formatInstant(read.budgetSpent.resetAt, now, zone)}` : ''}.`,
			};
		const note = `it is not among the ${plural(read.mentions.length, 'mention')} of project ${this.projectId} with the most ${METRIC_WORDS[order.by][1]} that ${searches} read (${ORDER_WORDS[order.by]}, published in the last 30 days).`;
		// one look-up per mention: its later rules are not searched again
		this.missed.delete(key);
		this.missed.set(key, [now, note]);
		this.pruneMissed(now);
		return { note };
	}

	/** A search of the look-ups or rounds: its requests count against the cap, whatever the outcome. */
	private async search<T>(step: () => Promise<T>) {
		const before = this.session.transport.requestsSent;
		const outcome = await attempt(step);
		const sent = this.session.transport.requestsSent - before;
		this.cap.spend(clock.now(), sent);
		this.stats.searches += sent;
		// the static data holds the spent cap from now on (n8n writes it with the next execution)
		this.store?.save(this.snapshot());
		return outcome;
	}

	/** A mention of the project a search returned: its row, for a later alert without a search. */
	private remember(mention: IDataObject): void {
		const key = rowId(mention);
		if (key === undefined) return;
		this.known.delete(key);
		this.known.set(key, rowOf(mention));
		bound(this.known, MAX_KNOWN);
	}

	private pruneMissed(now: number): void {
		for (const [key, [at]] of this.missed) {
			if (this.missed.size <= MAX_MISSED && at >= now - FIRED_KEEP_MS) break;
			this.missed.delete(key);
		}
	}

	private pruneForeign(now: number): void {
		for (const [key, at] of this.foreign) {
			if (this.foreign.size <= MAX_FOREIGN && at >= now - FIRED_KEEP_MS) break;
			this.foreign.delete(key);
		}
	}

	// --- updates that carry only the id ---------------------------------------------------------

	/** The orders a round reads, and the lowest count at which a rule could fire in each. */
	private roundOrders(): Array<{ by: SortedMetric; level: number }> {
		const { thresholds, growth } = this.settings;
		const lowest = (m: Metric) =>
			Math.min(thresholds[m] ?? Infinity, growth?.metric === m ? growth.gain : Infinity);
		// comments and views have no order: read in the likes order, to its page limit
		const others = Math.min(lowest('commentCount'), lowest('viewCount')) < Infinity;
		const orders: Array<{ by: SortedMetric; level: number }> = [];
		if (others || lowest('likeCount') < Infinity)
			orders.push({ by: 'likeCount', level: others ? 0 : lowest('likeCount') });
		if (lowest('shareCount') < Infinity)
			orders.push({ by: 'shareCount', level: lowest('shareCount') });
		return orders;
	}

	/** Time between rounds: each round's first pages, as often as the cap allows. */
	roundSpacingMs(): number {
		const orders = Math.max(1, this.roundOrders().length);
		return Math.max(MIN_ROUND_SPACING_MS, Math.ceil((HOUR_MS * orders) / this.cap.perHour));
	}

	private roundDue(now: number): boolean {
		return this.waiting.size > 0 && now >= this.nextRoundAt && this.cap.available(now) > 0;
	}

	private awaitRound(id: string, now: number): void {
		const key = idKey(id);
		this.waiting.delete(key);
		this.waiting.set(key, id);
		bound(this.waiting, MAX_WAITING);
		if (this.nextRoundAt === 0) this.nextRoundAt = now + FIRST_ROUND_DELAY_MS;
		if (this.idOnlyNoticed) return;
		this.idOnlyNoticed = true;
		const spacing = this.roundSpacingMs();
		this.session.hooks.log(
			`SentiOne viral alerts: engagement updates carry only the mention's ID; their figures are read by searches of project ${this.projectId}, a round every ${Math.round(spacing / MINUTE_MS)} min`,
		);
		const growth = this.settings.growth;
		if (growth && growth.minutes * MINUTE_MS < spacing) {
			this.session.hooks.report(
				new NodeOperationError(
					this.session.node,
					`Fast Growth within ${growth.minutes} minutes cannot be judged: SentiOne's engagement updates carry only the mention's ID, so the figures are read by search, every ${Math.round(spacing / MINUTE_MS)} minutes with ${plural(this.cap.perHour, 'look-up search', 'look-up searches')} an hour.`,
					{
						description:
							'Raise Fast Growth: Within (Minutes) to at least the time between rounds, or raise Options → Look-Up Searches per Hour. Thresholds are judged at every round.',
					},
				),
			);
		}
	}

	/**
	 * One round: the project's mentions in each order, as far as needed (every mention waiting
	 * found, or the counts below any rule's level) and the cap allows; the rules run on the figures
	 * of those waiting. The others (another project's, or below what was read) wait for their
	 * next update.
	 */
	private async round(): Promise<void> {
		const now = clock.now();
		const waiting = new Map(this.waiting);
		this.waiting.clear();
		this.nextRoundAt = now + this.roundSpacingMs();
		this.stats.rounds++;
		for (const order of this.roundOrders()) {
			if (waiting.size === 0) break;
			const pages = Math.min(LOOKUP.maxPages, this.cap.available(clock.now()));
			if (pages < 1) break;
			const request = lookupRequest(this.projectId, order.by, now, this.session.signal);
			const outcome = await this.search(async () =>
				readOrder(this.session.transport, request, pages, (read) => {
					const ids = new Set(read.map(rowId));
					return (
						[...waiting.keys()].every((k) => ids.has(k)) ||
						(reachOf(read, order.by) ?? Infinity) < order.level
					);
				}),
			);
			if (this.session.stopped) return;
			if (!outcome.ok) {
				this.session.hooks.log(
					`SentiOne viral alerts: a round's search failed: ${(outcome.error as Error)?.message ?? 'unknown error'}`,
				);
				break;
			}
			const at = clock.now();
			for (const mention of outcome.value.mentions) {
				const key = rowId(mention);
				if (key === undefined) continue;
				this.remember(mention);
				const id = waiting.get(key);
				if (id === undefined) continue;
				waiting.delete(key);
				const figures = Object.fromEntries(METRICS.map((m) => [m, countOf(mention, m)]));
				this.fire(
					observeUpdate(this.state, this.settings, { mentionId: id, at, figures }),
					rowOf(mention),
				);
			}
		}
	}

	// --- "Listen for test event" ----------------------------------------------------------------

	/** A test event: the first engagement update, as an item of the alert's shape (no look-up). */
	private testEvent(
		id: string,
		at: number,
		figures: Partial<Record<Metric, unknown>> | undefined,
	): void {
		const known: Partial<Record<Metric, number>> = {};
		for (const m of METRICS) {
			const v = figures?.[m];
			if (typeof v === 'number' && Number.isFinite(v) && v >= 0) known[m] = v;
		}
		const metric =
			METRICS.find((m) => (this.settings.thresholds[m] ?? 0) > 0) ??
			this.settings.growth?.metric ??
			'likeCount';
		const hit: ViralHit = {
			key: 'test',
			mentionId: id,
			metric,
			rule: 'crossed',
			level: this.settings.thresholds[metric] ?? 0,
			value: known[metric] ?? 0,
			figures: known,
			at,
		};
		const zone = this.session.transport.zone;
		const item = viralItem(
			hit,
			{ note: 'a test event does not look the mention up.' },
			{ zone, projectId: this.projectId },
		);
		const has = figures
			? `now has ${figuresText(known) || 'no counts'}`
			: "changed (the update carries only the mention's ID: an alert reads the figures by search)";
		item.summary = `Test event, built from the first engagement update: a mention ${has}. An alert comes when a mention of project ${this.projectId} passes a threshold or grows fast, with its figures and its link.`;
		item.test = true;
		this.deliver(item, `viral:test:${id}`);
		this.session.finishTest();
	}
}
