/**
 * One stream trigger's connection to SentiOne, for as long as the workflow is active:
 * - opens the stream through the transport; the first outcome decides activation (a failure
 *   retrying cannot fix, or a spent budget, fails it with the API's message);
 * - passes each mention (or engagement update) on once: a bounded memory of ids drops the repeats
 *   that backfills and gap fills bring;
 * - treats silence longer than the stall timeout (heartbeats keep a healthy stream talking) and any
 *   break or server close as a lost connection, and reconnects with backoff within the stream
 *   budget, asking for `backfillMinutes` over the outage and filling a longer outage with a search;
 * - recovers mentions that arrived malformed (their id is known) with a search of the moments
 *   they arrived in;
 * - reports a persistent failure through `fatal` (emitError) and a loss it could not repair through
 *   `report` (a failed execution; the stream keeps running);
 * - on close: aborts the connection, any wait and any search, and resolves once nothing is left.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fieldsInClear, removeIdentifyingFields } from '../shared/anonymization';
import { boundedDelay, idKey, rateLimitWait } from '../shared/bounds';
import { asNodeError, errorDetails, formatInstant } from '../shared/errors';
import type { StreamItem } from '../shared/stream';
import { clock, formatLocal } from '../shared/time';
import type { OpenStream, SentiOneTransport } from '../shared/transport';
import type { UnconfirmedFilter } from '../shared/contract';
import { SEARCH_REQUEST_FIELDS } from '../shared/contract';
import { FilterVerifier, refusedNotice, verificationNotice, withFilterFallback, withoutFilters } from '../shared/verify';
import { attempt } from './attempt';
import { DedupMemory } from './dedupMemory';
import type { CollectedRange } from './gapFill';
import { searchCollected, searchLatest } from './gapFill';
import type { StreamMemory } from './streamState';
import { engagementJson, idAndCollectedAt, mentionJson } from './output';
import { failureKind, reconnectWait, recoveryPlan, RECONNECT } from './reconnect';
import type { StreamSettings, StreamTarget } from './streamSettings';

/** Placeholder key prefix in the repair list for an event whose id could not be read */
const UNREADABLE = '\u0000unreadable:';
/** Malformed mentions are recovered this long after the first of a batch arrived (time to become searchable). */
const REPAIR_DELAY_MS = 5_000;
/** How far before its arrival a malformed mention may have been collected (live tail). */
const REPAIR_LOOKBACK_MS = 60_000;
/** Arrivals this soon after a connection opened may be backfill, collected up to backfillMinutes earlier. */
const BACKFILL_BURST_MS = 10_000;
/** Malformed events waiting for recovery at most (more are reported as not recovered at once). */
const MAX_PENDING_REPAIR = 10_000;

export interface SessionHooks {
	/** one execution with these items */
	emit(rows: IDataObject[]): void;
	/** persistent failure: the trigger stops (emitError) */
	fatal(error: Error): void;
	/** something was lost or could not be repaired; the stream goes on (a failed execution) */
	report(error: Error): void;
	log(message: string): void;
}

/** Where the session keeps what it needs to resume after a restart of n8n (streamState.ts). */
export interface SessionMemoryStore {
	load(): StreamMemory | undefined;
	save(memory: StreamMemory): void;
}

export interface SessionOptions {
	/** "Listen for test event": pass on the first item, then stop */
	manual: boolean;
	/** persisted memory (active workflows only): last-alive instant and recent ids */
	store?: SessionMemoryStore;
	/** the key the memory is filed under (event and project) */
	memoryTarget?: string;
	/** resolves when items may be emitted (n8n wires `emit` after `trigger()` returns) */
	ready?: Promise<void>;
	dedupCapacity?: number;
}

export interface SessionStats {
	connections: number;
	reconnects: number;
	drops: number;
	stalls: number;
	serverCloses: number;
	failedOpens: number;
	budgetWaits: number;
	emitted: number;
	duplicates: number;
	malformed: number;
	repaired: number;
	/** malformed events beyond what can wait for recovery */
	unrecoverable: number;
	/** mentions that did not match the filters (a server that did not apply them) */
	unmatched: number;
	/** mentions whose author SentiOne did not anonymize (their fields removed, when chosen) */
	notAnonymized: number;
	gapFills: number;
	gapRequests: number;
	/** backfillMinutes asked for on the last reconnect */
	lastBackfillMinutes: number;
	/** the session resumed from the memory a previous run of n8n left */
	resumed: boolean;
}

type ConnectionEnd = 'ended' | 'dropped' | 'stalled' | 'deadline' | 'oversize' | 'closed';

export class StreamSession {
	readonly stats: SessionStats = {
		connections: 0,
		reconnects: 0,
		drops: 0,
		stalls: 0,
		serverCloses: 0,
		failedOpens: 0,
		budgetWaits: 0,
		emitted: 0,
		duplicates: 0,
		malformed: 0,
		repaired: 0,
		unrecoverable: 0,
		unmatched: 0,
		notAnonymized: 0,
		gapFills: 0,
		gapRequests: 0,
		lastBackfillMinutes: 0,
		resumed: false,
	};

	private readonly abort = new AbortController();

	private readonly memory: DedupMemory;

	private readonly pendingRepair = new Map<string, number>();
	/** events that could not be read at all, counted to give each a placeholder in pendingRepair */
	private unreadable = 0;

	private current: OpenStream | undefined;

	private loop: Promise<void> | undefined;

	private stopped = false;

	private lastAliveAt = 0;

	/** checks every mention against the stream's filters (a server may not apply them) */
	private readonly verifier: FilterVerifier;

	private verificationReported = false;

	/** hourly 429s in a row on reconnect (spaces the next attempts out, bounds.ts) */
	private hourlyRefusals = 0;

	/** filters SentiOne refused the shape of: no longer sent, applied by the verifier */
	private unsent: UnconfirmedFilter[] = [];

	/** what is persisted for a restart: updated right before every emit (streamState.ts) */
	private persisted: StreamMemory | undefined;

	private connectedAt = 0;

	private connectedBackfill = 0;

	constructor(
		private readonly node: INode,
		private readonly transport: SentiOneTransport,
		private readonly settings: StreamSettings,
		private readonly target: StreamTarget,
		private readonly hooks: SessionHooks,
		private readonly options: SessionOptions,
	) {
		this.memory = new DedupMemory(options.dedupCapacity);
		this.verifier = new FilterVerifier(settings.filters);
	}

	/**
	 * Opens the first connection and starts reading in the background. Rejects (and leaves nothing
	 * open) when the first attempt fails in a way retrying cannot fix, or the stream budget is spent;
	 * a transient failure (network, 5xx) activates and keeps trying.
	 */
	async start(): Promise<void> {
		const now = clock.now();
		// after a restart of n8n: the memory it left says when the stream was last alive and what it
		// passed on; the first connection asks for a backfill covering the outage, a search fills a
		// longer one, and the ids already passed on are dropped
		const saved = this.options.manual ? undefined : this.options.store?.load();
		if (saved) {
			for (const [id] of saved.ids) this.memory.add(id);
			this.lastAliveAt = saved.lastAliveAt;
			this.stats.resumed = true;
		} else {
			this.lastAliveAt = now;
		}
		if (!this.options.manual && this.options.store) {
			this.persisted = { target: this.options.memoryTarget ?? '', lastAliveAt: this.lastAliveAt, ids: saved?.ids ?? [] };
			this.options.store.save(this.persisted);
		}
		const resume = saved ? recoveryPlan(saved.lastAliveAt, now) : undefined;
		const backfill = Math.max(this.settings.startBackfillMinutes, resume?.backfillMinutes ?? 0);
		if (this.sampleFirst()) {
			// "Listen for test event": the latest matching mention by one search, not one of the 5 live
			// connections an hour; the stream is opened only when the search finds none
			this.loop = this.run(undefined, undefined, true).then(
				() => undefined,
				(error: unknown) => this.fail(error),
			);
			return;
		}
		const first = await attempt(async () => await this.connect(backfill));
		let waitForBudget = false;
		if (!first.ok) {
			const kind = failureKind(first.error);
			if (kind === 'hourlyLimit' || kind === 'busy') {
				if (this.options.manual) {
					this.stopped = true;
					throw asNodeError(this.node, first.error);
				}
				// the stream budget is spent (or every connection taken): active all the same, it
				// connects after the reset and a search fetches what was collected meanwhile
				waitForBudget = true;
				if (kind === 'hourlyLimit') this.hourlyRefusals = 1;
				this.hooks.report(this.activationDeferred(first.error, kind));
			} else if (kind !== 'transient') {
				this.stopped = true;
				throw asNodeError(this.node, first.error);
			} else {
				this.stats.failedOpens++;
				this.hooks.log(`SentiOne stream: first connection failed, retrying: ${String((first.error as Error)?.message)}`);
			}
		}
		this.loop = this.run(first.ok ? first.value : undefined, first.ok ? resume?.gap : undefined, false, waitForBudget).then(
			() => undefined,
			(error: unknown) => this.fail(error),
		);
	}

	/** A manual test of new mentions without anonymization starts with a search for a sample. */
	private sampleFirst(): boolean {
		return this.options.manual && this.settings.event === 'newMention' && !this.settings.anonymization && this.settings.projectId !== undefined;
	}

	/** What the user is told when activation found the stream budget spent: when it connects. */
	private activationDeferred(error: unknown, kind: 'hourlyLimit' | 'busy'): NodeOperationError {
		const resetAt = errorDetails(error)?.resetAt;
		const when =
			kind === 'busy'
				? 'as soon as a connection of this key is free (it retries with backoff)'
				: resetAt !== undefined
					? `at ${formatInstant(resetAt, clock.now(), this.transport.zone)}, when the budget resets`
					: 'at the top of the next hour, when the budget resets';
		return new NodeOperationError(this.node, `${(error as Error).message} The trigger is active and connects ${when}.`, {
			description:
				'Mentions collected until it connects are fetched then with a search (Options → Fill Gaps with Search), so nothing is lost. Testing the trigger ("Listen for test event") does not spend a live connection when a search can show a sample. Each activation of a workflow with this trigger opens one connection; the budget is per API key, shared by every workflow using it.',
		});
	}

	/** Stops everything and resolves once the connection, waits and searches are gone. */
	async close(): Promise<void> {
		this.stopped = true;
		this.abort.abort();
		this.current?.close();
		await this.loop;
		const s = this.stats;
		this.hooks.log(
			`SentiOne stream closed: ${s.connections} connection(s), ${s.drops} dropped, ${s.stalls} stalled, ${s.serverCloses} closed by the server, ${s.failedOpens} failed attempt(s), ${s.budgetWaits} budget wait(s); ${s.emitted} item(s) passed on, ${s.duplicates} repeat(s) dropped, ${s.malformed} malformed (${s.repaired} recovered), ${s.gapFills} gap search(es) with ${s.gapRequests} request(s)`,
		);
	}

	private fail(error: unknown): void {
		if (this.stopped) return;
		this.stopped = true;
		this.abort.abort();
		this.current?.close();
		this.hooks.fatal(asNodeError(this.node, error));
	}

	private async connect(backfillMinutes: number): Promise<OpenStream> {
		// a filter whose shape SentiOne refuses is left out from then on and applied by the verifier
		const { value: open, dropped, refusal } = await withFilterFallback(
			this.node,
			{ [SEARCH_REQUEST_FIELDS.filters]: this.settings.filters },
			async (body) =>
				await this.transport.openStream(
					this.target.request(backfillMinutes, this.abort.signal, body[SEARCH_REQUEST_FIELDS.filters] as IDataObject),
				),
			this.unsent,
		);
		const fresh = dropped.filter((name) => !this.unsent.includes(name));
		if (fresh.length > 0) {
			this.unsent = dropped;
			if (!this.options.manual) this.hooks.report(new NodeOperationError(this.node, refusedNotice(fresh, refusal)));
		}
		if (this.stopped) {
			open.close();
			throw new NodeOperationError(this.node, 'The SentiOne stream trigger was closed.');
		}
		this.stats.connections++;
		this.current = open;
		this.connectedAt = clock.now();
		this.lastAliveAt = this.connectedAt;
		this.connectedBackfill = backfillMinutes;
		return open;
	}

	/** Waits (backoff, budget) on the node's clock, so a reset instant and the wait agree; close() ends it. */
	private async pause(ms: number): Promise<boolean> {
		if (this.stopped) return false;
		try {
			await clock.sleep(boundedDelay(ms), this.abort.signal);
		} catch {
			return false;
		}
		return !this.stopped;
	}

	private async run(
		first: OpenStream | undefined,
		resumeGap?: CollectedRange,
		sample = false,
		waitForBudget = false,
	): Promise<void> {
		let open = first;
		let level = open ? 0 : 1;
		let failedOpens = open || waitForBudget || sample ? 0 : 1;
		if (this.options.ready) await this.options.ready;
		if (sample) {
			await this.sample();
			if (this.stopped) return;
			const opened = await attempt(async () => await this.connect(this.settings.startBackfillMinutes));
			if (!opened.ok) {
				this.fail(opened.error);
				return;
			}
			open = opened.value;
			level = 0;
		}
		if (resumeGap) await this.fillGap(resumeGap, 'outage');
		while (!this.stopped) {
			if (open) {
				const openedAt = Date.now();
				const end = await this.consume(open);
				open = undefined;
				if (this.stopped || end === 'closed') break;
				if (end === 'stalled') this.stats.stalls++;
				else if (end === 'dropped') this.stats.drops++;
				else this.stats.serverCloses++;
				level = Date.now() - openedAt >= RECONNECT.healthyAfterMs ? 0 : level + 1;
				this.hooks.log(`SentiOne stream: connection ${end}; reconnecting`);
			}

			const wait = reconnectWait(level, this.transport.rateLimits[this.target.group], clock.now());
			if (this.hourlyRefusals > 0) {
				// refused for the hourly budget: never sooner than the (plausible) reset, or the next hour
				const known = this.transport.rateLimits[this.target.group]?.resetAt;
				const limited = rateLimitWait(known, clock.now(), this.hourlyRefusals - 1);
				if (limited > wait.waitMs) {
					wait.waitMs = limited;
					wait.budget = true;
				}
			}
			if (wait.budget) {
				this.stats.budgetWaits++;
				this.hooks.log(
					`SentiOne stream: waiting ${Math.round(wait.waitMs / 1000)} s for the stream budget (${this.target.group})`,
				);
			}
			if (!(await this.pause(wait.waitMs))) break;

			const recovery = recoveryPlan(this.lastAliveAt, clock.now());
			const next = await attempt(async () => await this.connect(recovery.backfillMinutes));
			if (this.stopped) break;
			if (!next.ok) {
				const kind = failureKind(next.error);
				this.stats.failedOpens++;
				if (kind === 'permanent') {
					this.fail(next.error);
					break;
				}
				level++;
				if (kind === 'hourlyLimit') this.hourlyRefusals++;
				else failedOpens++;
				if (failedOpens >= RECONNECT.maxFailedOpens) {
					this.fail(next.error);
					break;
				}
				continue;
			}
			failedOpens = 0;
			this.hourlyRefusals = 0;
			open = next.value;
			this.stats.reconnects++;
			this.stats.lastBackfillMinutes = recovery.backfillMinutes;
			if (recovery.gap) await this.fillGap(recovery.gap, 'outage');
		}
	}

	private async consume(open: OpenStream): Promise<ConnectionEnd> {
		try {
			for await (const item of open.items) {
				this.lastAliveAt = clock.now();
				this.handle(item);
				if (this.stopped) break;
				if (this.repairDue()) await this.repair();
			}
			return this.stopped ? 'closed' : 'ended';
		} catch (error) {
			if (this.stopped) return 'closed';
			// a broken stream says whether it was dropped or went silent
			return errorDetails(error)?.streamInterrupted ?? 'dropped';
		} finally {
			open.close();
			if (this.current === open) this.current = undefined;
		}
	}

	private pass(rows: IDataObject[], keys: string[] = []): void {
		if (rows.length === 0 || this.stopped) return;
		if (this.persisted && this.options.store) {
			// saved with this emit: on disk before these mentions are processed
			const at = clock.now();
			this.persisted.lastAliveAt = Math.max(this.lastAliveAt, at);
			for (const key of keys) this.persisted.ids.push([key, at]);
			this.options.store.save(this.persisted);
		}
		if (this.options.manual) {
			this.hooks.emit(rows.slice(0, 1));
			this.stats.emitted++;
			// A test event is one item: stop listening.
			this.stopped = true;
			this.abort.abort();
			return;
		}
		this.hooks.emit(rows);
		this.stats.emitted += rows.length;
	}

	private handle(item: StreamItem): void {
		switch (item.type) {
			case 'mention': {
				if (this.settings.event !== 'newMention') return;
				this.pendingRepair.delete(idKey(item.id));
				const mention = this.admissible(item.id, item.mention);
				if (mention === undefined) return;
				if (this.memory.add(item.id)) this.pass([mentionJson(mention, this.settings.simplify)], [item.id]);
				else this.stats.duplicates++;
				return;
			}
			case 'engagementUpdate': {
				if (this.settings.event !== 'engagementUpdate') return;
				const update = item.update;
				// The event id (mention id and time) plus the metrics: a backfill repeats an update
				// exactly, while two changes of one mention in the same millisecond differ in their metrics.
				const key = `${item.id ?? `${String(update.mentionId)}:${String(update.updatedAt)}`}#${fingerprint(JSON.stringify(update.engagementMetrics ?? null))}`;
				if (this.memory.add(key)) this.pass([engagementJson(update)], [key]);
				else this.stats.duplicates++;
				return;
			}
			case 'malformed': {
				this.stats.malformed++;
				if (this.settings.event !== 'newMention' || !this.settings.fillGaps) return;
				if (this.pendingRepair.size >= MAX_PENDING_REPAIR) {
					this.stats.unrecoverable++;
					return;
				}
				if (item.event === 'mention' && item.id !== undefined) {
					if (!this.memory.has(item.id) && !this.pendingRepair.has(idKey(item.id))) {
						this.pendingRepair.set(idKey(item.id), clock.now());
					}
				} else if (item.event === 'mention' || item.event === '') {
					// an event that cannot be read at all (a JSON line cut short): whatever it was, the
					// search of the moment it arrived in passes on any mention not passed on yet
					this.pendingRepair.set(`${UNREADABLE}${++this.unreadable}`, clock.now());
				}
				return;
			}
			default:
				// heartbeats (they only keep the connection judged alive) and event kinds we do not know
				return;
		}
	}

	/**
	 * The mention as it may be passed on, or undefined: one that does not match the filters is
	 * dropped (reported once); one whose author SentiOne did not anonymize although it was asked
	 * stops the trigger, or has its identifying fields removed when the user chose that.
	 */
	private admissible(id: string | undefined, mention: IDataObject): IDataObject | undefined {
		const anonymization = this.settings.anonymization;
		let out = mention;
		if (anonymization) {
			const clear = fieldsInClear(mention);
			if (clear.length > 0) {
				this.stats.notAnonymized++;
				if (this.settings.notAnonymized !== 'remove') {
					this.fail(
						new NodeOperationError(
							this.node,
							`Anonymization (${anonymization === 'all' ? 'All' : 'Author'}) was asked for, but SentiOne sent mention ${id ?? '(no id)'} with ${clear.join(', ')} in clear`,
							{
								description:
									'The trigger stopped, and this mention was not passed on, so no author in clear reaches the workflow. SentiOne may not apply its (experimental) anonymization switch on the live stream. To go on without it, set Options → If Not Anonymized to Remove Identifying Fields (they become null), or turn Anonymization off.',
							},
						),
					);
					return undefined;
				}
				out = removeIdentifyingFields(mention, anonymization);
			}
		}
		if (!this.verifier.keep(out)) {
			this.stats.unmatched++;
			if (!this.verificationReported && !this.options.manual) {
				this.verificationReported = true;
				const notice = verificationNotice(
					this.verifier,
					'The trigger keeps checking every mention and passes on only matching ones. This is reported once.',
					this.unsent,
				);
				if (notice) this.hooks.report(new NodeOperationError(this.node, notice));
			}
			return undefined;
		}
		return out;
	}

	private repairDue(): boolean {
		if (this.pendingRepair.size === 0) return false;
		const first = Math.min(...this.pendingRepair.values());
		return clock.now() - first >= REPAIR_DELAY_MS;
	}

	/**
	 * "Listen for test event" without a live connection: the newest mention matching the filters,
	 * by one recent search. When there is none, the session goes on to open the stream and waits for
	 * the first one, as before.
	 */
	private async sample(): Promise<void> {
		const outcome = await attempt(
			async () =>
				await searchLatest({
					transport: this.transport,
					projectId: this.settings.projectId as number,
					filters: this.settings.filters,
					signal: this.abort.signal,
				}),
		);
		if (this.stopped) return;
		if (!outcome.ok) {
			this.fail(outcome.error);
			return;
		}
		for (const found of outcome.value) {
			const { id } = idAndCollectedAt(found);
			const mention = this.admissible(id, found);
			if (mention !== undefined) {
				this.pass([mentionJson(mention, this.settings.simplify)]);
				return;
			}
		}
		this.hooks.log('SentiOne stream: no matching mention found by search for the test event; opening the live stream');
	}

	/** Looks malformed mentions up by the moments they arrived in. */
	private async repair(): Promise<void> {
		const pending = Array.from(this.pendingRepair.entries());
		this.pendingRepair.clear();
		let from = Infinity;
		let to = -Infinity;
		for (const [, at] of pending) {
			const burst = at - this.connectedAt < BACKFILL_BURST_MS ? this.connectedBackfill * 60_000 : 0;
			from = Math.min(from, at - REPAIR_LOOKBACK_MS - burst - RECONNECT.marginMs);
			to = Math.max(to, at + RECONNECT.marginMs);
		}
		const emittedBefore = this.stats.emitted;
		await this.fillGap({ from, to }, 'repair');
		const known = pending.map(([id]) => id).filter((id) => !id.startsWith(UNREADABLE));
		const unreadable = pending.length - known.length;
		const missing = known.filter((id) => !this.memory.has(id));
		const found = this.stats.emitted - emittedBefore;
		this.stats.repaired += known.length - missing.length;
		if (unreadable > 0 && !this.stopped && found < unreadable + known.length - missing.length) {
			// fewer mentions came back than unreadable events arrived: say so, never stay silent
			this.hooks.report(
				new NodeOperationError(
					this.node,
					`${unreadable} event${unreadable === 1 ? '' : 's'} on the SentiOne stream could not be read, and the search of the moments ${unreadable === 1 ? 'it' : 'they'} arrived in passed on ${found} mention${found === 1 ? '' : 's'}`,
					{
						description:
							'An unreadable event carries no mention ID, so it cannot be looked up directly. Mentions it may have carried that the search did not return (not searchable yet, or the search budget or request cap stopped it) are missing. The stream goes on.',
					},
				),
			);
		}
		if (missing.length > 0 && !this.stopped) {
			this.hooks.report(
				new NodeOperationError(
					this.node,
					`${missing.length} mention${missing.length === 1 ? '' : 's'} arrived malformed on the SentiOne stream and could not be recovered`,
					{
						description: `Mention IDs: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}. The search of the moments they arrived in did not return them (not searchable yet, or the search budget or request cap stopped it). The stream goes on.`,
					},
				),
			);
		}
	}

	/** Searches a collected-at range and passes on what was not passed on yet (one execution). */
	private async fillGap(range: CollectedRange, reason: 'outage' | 'repair'): Promise<void> {
		const zone = this.transport.zone;
		const what = `mentions collected between ${formatLocal(range.from, zone)} and ${formatLocal(range.to, zone)}`;
		if (this.settings.event !== 'newMention' || !this.settings.fillGaps || this.settings.projectId === undefined) {
			if (reason === 'outage' && !this.options.manual) {
				this.hooks.report(
					new NodeOperationError(
						this.node,
						`The SentiOne stream was down longer than its 5-minute backfill: ${this.settings.event === 'newMention' ? what : `engagement updates between ${formatLocal(range.from, zone)} and ${formatLocal(range.to, zone)}`} may be missing`,
						{
							description:
								this.settings.event === 'newMention'
									? 'Gap filling is turned off (Options → Fill Gaps with Search).'
									: 'Engagement updates cannot be searched, so an outage longer than 5 minutes cannot be filled.',
						},
					),
				);
			}
			return;
		}
		if (range.to <= range.from) return;
		this.stats.gapFills++;
		const outcome = await attempt(
			async () =>
				await searchCollected({
					transport: this.transport,
					projectId: this.settings.projectId as number,
					filters: withoutFilters({ [SEARCH_REQUEST_FIELDS.filters]: this.settings.filters }, this.unsent)[
						SEARCH_REQUEST_FIELDS.filters
					] as IDataObject,
					range,
					maxRequests: this.settings.maxGapRequests,
					signal: this.abort.signal,
				}),
		);
		if (this.stopped) return;
		if (!outcome.ok) {
			this.hooks.report(
				new NodeOperationError(this.node, `Could not search for ${what} (${reason === 'outage' ? 'stream outage' : 'malformed events'}): ${String((outcome.error as Error)?.message ?? outcome.error)}`, {
					description: 'Mentions in that range that the stream did not deliver may be missing. The stream goes on.',
				}),
			);
			return;
		}
		const result = outcome.value;
		this.stats.gapRequests += result.requests;
		const fresh: IDataObject[] = [];
		const keys: string[] = [];
		for (const found of result.mentions) {
			const { id } = idAndCollectedAt(found);
			if (id !== undefined) this.pendingRepair.delete(idKey(id));
			const mention = this.admissible(id, found);
			if (mention === undefined) continue;
			if (id === undefined || this.memory.add(id)) {
				fresh.push(mentionJson(mention, this.settings.simplify));
				if (id !== undefined) keys.push(id);
			} else this.stats.duplicates++;
		}
		this.pass(fresh, keys);
		if (!result.complete && !this.options.manual) {
			this.hooks.report(
				new NodeOperationError(this.node, `Only part of the ${what} could be searched for after the SentiOne stream was interrupted`, {
					description: result.budgetStopped
						? `The search budget (30 requests an hour, shared by every workflow using the key) is used up${result.budgetResetAt !== undefined ? ` until ${formatInstant(result.budgetResetAt, clock.now(), this.transport.zone)}` : ''}. Mentions of that range after the last one passed on may be missing.`
						: `The search stopped after ${result.requests} requests (Options → Max Search Requests per Gap). Mentions of that range after the last one passed on may be missing.`,
				}),
			);
		}
	}
}

/** A short fingerprint of a text (32-bit FNV-1a, hex): enough to tell apart the updates of one instant. */
function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16);
}
