/**
 * One stream trigger's connection to SentiOne, for as long as the workflow is active:
 * - opens the stream through the transport; the first outcome decides activation (a failure
 *   retrying cannot fix, or a spent budget, fails it with the API's message);
 * - hands each event to what is passed on (delivery.ts: once, matching, anonymized);
 * - treats silence longer than the stall timeout (heartbeats keep a healthy stream talking) and any
 *   break or server close as a lost connection, and reconnects with backoff within the stream
 *   budget (reconnect.ts), asking for `backfillMinutes` over the outage and filling a longer outage
 *   with a search (recovery.ts), which also recovers mentions that arrived malformed;
 * - reports a persistent failure through `fatal` (emitError) and a loss it could not repair through
 *   `report` (a failed execution; the stream keeps running);
 * - on close: aborts the connection, any wait and any search, and resolves once nothing is left.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attempt } from '../../shared/attempt';
import type { UnconfirmedFilter } from '../../shared/contract';
import { ENDPOINTS, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { asNodeError, declareFailure, errorDetails, failureOf } from '../../shared/errors';
import type { StreamItem } from '../../shared/stream';
import { clock } from '../../shared/clock';
import { MINUTE_MS } from '../../shared/units';
import { formatInstant } from '../../shared/time';
import type { OpenStream, SentiOneTransport } from '../../shared/transport';
import { refusedNotice, withFilterFallback } from '../../shared/verify';
import { Delivery } from './delivery';
import type { CollectedRange } from './recoverySearch';
import { failureKind, reconnectDelay, recoveryPlan, RECONNECT } from './reconnect';
import { Recovery } from './recovery';
import type { SessionContext, SessionHooks, SessionOptions, SessionStats } from './sessionTypes';
import { newStats } from './sessionTypes';
import { StreamAlerts } from './streamAlerts';
import type { StreamSettings } from './streamSettings';
import { onMentionStream } from './streamSettings';
import type { StreamTarget } from './streamTarget';
import { ViralAlerts } from './viralAlerts';

type ConnectionEnd = 'ended' | 'dropped' | 'stalled' | 'deadline' | 'oversize' | 'closed';

export class StreamSession implements SessionContext {
	readonly stats: SessionStats = newStats();

	private readonly abort = new AbortController();

	private readonly delivery: Delivery;

	private readonly recovery: Recovery;

	private current: OpenStream | undefined;

	private loop: Promise<void> | undefined;

	/** closed, failed, or a test event passed on */
	private closedOrFailed = false;

	/** epoch ms when the stream last delivered something */
	lastAliveAt = 0;

	/** hourly 429s in a row on reconnect (spaces the next attempts out: rateLimitWait, transport/retry.ts) */
	private hourlyRefusals = 0;

	get receivedThrough(): number {
		const settling = clock.now() - this.connectedAt < RECONNECT.backfillSettleMs;
		if (!settling) return this.lastAliveAt;
		return Math.min(this.lastAliveAt, this.connectedAt - this.connectedBackfill * MINUTE_MS);
	}

	/** why the last connection ended, when it broke (for the log) */
	private interruption: string | undefined;

	/** filters SentiOne refused the shape of: no longer sent, applied by the verifier */
	unsent: UnconfirmedFilter[] = [];

	/** when the current connection opened, and the backfill minutes it asked for */
	connectedAt = 0;

	connectedBackfill = 0;

	constructor(
		readonly node: INode,
		readonly transport: SentiOneTransport,
		readonly settings: StreamSettings,
		private readonly target: StreamTarget,
		readonly hooks: SessionHooks,
		readonly options: SessionOptions,
	) {
		this.delivery = new Delivery(this);
		this.recovery = new Recovery(this, this.delivery);
		if (settings.alert && settings.alert.event !== 'viralMention') {
			this.alerts = new StreamAlerts(
				{ ...settings, alert: settings.alert },
				transport.zone,
				options.manual ? undefined : options.alertStore,
				(item, key) => this.delivery.passAlert(item, key),
				clock.now(),
			);
		}
		if (settings.alert?.event === 'viralMention') {
			this.viral = new ViralAlerts(
				this,
				settings.alert,
				options.manual ? undefined : options.alertStore,
				(item, key) => this.delivery.passAlert(item, key),
			);
		}
	}

	/** the mention alerts (alert events) */
	readonly alerts?: StreamAlerts;

	/** the viral alerts (Viral Mention: engagement updates) */
	readonly viral?: ViralAlerts;

	get signal(): AbortSignal {
		return this.abort.signal;
	}

	get stopped(): boolean {
		return this.closedOrFailed;
	}

	/** A test event was passed on: stop listening. */
	finishTest(): void {
		this.closedOrFailed = true;
		this.abort.abort();
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
		this.lastAliveAt = now;
		const saved = this.delivery.resume();
		if (saved) {
			this.lastAliveAt = saved.lastAliveAt;
			this.stats.resumed = true;
		}
		const resume = saved ? recoveryPlan(saved.lastAliveAt, now) : undefined;
		const backfill = Math.max(this.settings.startBackfillMinutes, resume?.backfillMinutes ?? 0);
		if (this.sampleFirst()) {
			// "Listen for test event": the latest matching mention by one search, not one of the few live
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
					this.closedOrFailed = true;
					throw asNodeError(this.node, first.error);
				}
				// the stream budget is spent (or every connection taken): active all the same, it
				// connects after the reset and a search fetches what was collected meanwhile
				waitForBudget = true;
				if (kind === 'hourlyLimit') this.hourlyRefusals = 1;
				this.hooks.report(this.activationDeferred(first.error, kind));
			} else if (kind !== 'transient') {
				this.closedOrFailed = true;
				throw asNodeError(this.node, first.error);
			} else {
				this.stats.failedOpens++;
				this.hooks.log(
					`SentiOne stream: first connection failed, retrying: ${String((first.error as Error)?.message)}`,
				);
			}
		}
		this.delivery.startRedelivery();
		this.loop = this.run(
			first.ok ? first.value : undefined,
			first.ok ? resume?.gap : undefined,
			false,
			waitForBudget,
		).then(
			() => undefined,
			(error: unknown) => this.fail(error),
		);
	}

	/** A manual test of new mentions without anonymization starts with a search for a sample. */
	private sampleFirst(): boolean {
		return (
			this.options.manual &&
			onMentionStream(this.settings.event) &&
			!this.settings.anonymization &&
			this.settings.projectId !== undefined
		);
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
		const deferred = new NodeOperationError(
			this.node,
			`${(error as Error).message} The trigger is active and connects ${when}.`,
			{
				description:
					'Mentions collected until it connects are fetched then with a search (Options → Fill Gaps with Search), so nothing is lost. Testing the trigger ("Listen for test event") does not spend a live connection when a search can show a sample. Each activation of a workflow with this trigger opens one connection; the budget is per API key, shared by every workflow using it.',
			},
		);
		// the refusal's cause: a spent stream budget (with its reset), or every connection taken
		return declareFailure(deferred, failureOf(error));
	}

	/** Stops everything and resolves once the connection, waits and searches are gone. */
	async close(): Promise<void> {
		this.closedOrFailed = true;
		this.abort.abort();
		this.current?.close();
		await this.loop;
		await this.viral?.close();
		await this.delivery.close();
		const s = this.stats;
		this.hooks.log(
			`SentiOne stream closed: ${s.connections} connection(s), ${s.drops} dropped, ${s.stalls} stalled, ${s.serverCloses} closed by the server, ${s.failedOpens} failed attempt(s), ${s.budgetWaits} budget wait(s); ${s.emitted} item(s) passed on, ${s.duplicates} repeat(s) dropped, ${s.malformed} malformed (${s.repaired} recovered), ${s.gapFills} gap search(es) with ${s.gapRequests} request(s)`,
		);
	}

	fail(error: unknown): void {
		if (this.stopped) return;
		this.closedOrFailed = true;
		this.abort.abort();
		this.current?.close();
		this.hooks.fatal(asNodeError(this.node, error));
	}

	private async connect(backfillMinutes: number): Promise<OpenStream> {
		// a filter whose shape SentiOne refuses is left out from then on and applied by the verifier
		const {
			value: open,
			dropped,
			refusal,
		} = await withFilterFallback(
			this.node,
			{ [SEARCH_REQUEST_FIELDS.filters]: this.settings.filters },
			async (body) =>
				await this.transport.openStream(
					this.target.request(
						backfillMinutes,
						this.abort.signal,
						body[SEARCH_REQUEST_FIELDS.filters] as IDataObject,
					),
				),
			this.unsent,
		);
		const fresh = dropped.filter((name) => !this.unsent.includes(name));
		if (fresh.length > 0) {
			this.unsent = dropped;
			if (!this.options.manual)
				this.hooks.report(new NodeOperationError(this.node, refusedNotice(fresh, refusal)));
		}
		if (this.stopped) {
			open.close();
			throw new NodeOperationError(this.node, 'The SentiOne stream trigger was closed.');
		}
		this.stats.connections++;
		this.current = open;
		this.connectedAt = clock.now();
		this.alerts?.connectedAt(this.connectedAt, this.lastAliveAt, backfillMinutes);
		this.lastAliveAt = this.connectedAt;
		this.connectedBackfill = backfillMinutes;
		return open;
	}

	/** How long to wait before the next connection (reconnect.ts); a wait for the budget is counted and logged. */
	private waitBeforeReconnect(level: number): number {
		const group = ENDPOINTS[this.target.endpoint].group;
		const budget = this.transport.rateLimits[group];
		const wait = reconnectDelay(level, budget, this.hourlyRefusals, clock.now());
		if (wait.budget) {
			this.stats.budgetWaits++;
			this.hooks.log(
				`SentiOne stream: waiting ${Math.round(wait.waitMs / 1000)} s for the stream budget (${group})`,
			);
		}
		return wait.waitMs;
	}

	/**
	 * Waits (backoff, budget) with the transport's one wait, on the node's clock so a reset instant
	 * and the wait agree; close() ends it at once (its signal aborts). False: stop.
	 */
	private async pause(ms: number): Promise<boolean> {
		if (this.stopped) return false;
		const waited = await attempt(
			async () =>
				await this.transport.wait(ms, 'while the stream trigger waited to reconnect', {
					signal: this.abort.signal,
				}),
		);
		return waited.ok && !this.stopped;
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
			await this.recovery.sample();
			if (this.stopped) return;
			const opened = await attempt(
				async () => await this.connect(this.settings.startBackfillMinutes),
			);
			if (!opened.ok) {
				this.fail(opened.error);
				return;
			}
			open = opened.value;
			level = 0;
		}
		if (resumeGap) await this.fillOutage(resumeGap);
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
				this.hooks.log(
					`SentiOne stream: connection ${end}${this.interruption ? ` (${this.interruption})` : ''}; reconnecting`,
				);
			}

			if (!(await this.pause(this.waitBeforeReconnect(level)))) break;

			const plan = recoveryPlan(this.receivedThrough, clock.now());
			const next = await attempt(async () => await this.connect(plan.backfillMinutes));
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
			this.stats.lastBackfillMinutes = plan.backfillMinutes;
			if (plan.gap) await this.fillOutage(plan.gap);
		}
	}

	/** Fills an outage longer than the backfill; the alerts count it as seen when it was filled whole. */
	private async fillOutage(gap: CollectedRange): Promise<void> {
		if (await this.recovery.fillGap(gap, 'outage')) this.alerts?.filled(gap.from, gap.to);
	}

	private async consume(open: OpenStream): Promise<ConnectionEnd> {
		this.interruption = undefined;
		try {
			for await (const item of open.items) {
				this.lastAliveAt = clock.now();
				this.handle(item);
				if (this.stopped) break;
				this.alerts?.tick();
				this.viral?.tick();
				if (this.recovery.due) await this.recovery.repair();
			}
			return this.stopped ? 'closed' : 'ended';
		} catch (error) {
			if (this.stopped) return 'closed';
			// a broken stream says whether it was dropped or went silent, and what had arrived
			this.interruption = (error as Error)?.message;
			return errorDetails(error)?.streamInterrupted ?? 'dropped';
		} finally {
			open.close();
			if (this.current === open) this.current = undefined;
			this.alerts?.disconnected();
		}
	}

	private handle(item: StreamItem): void {
		switch (item.type) {
			case 'mention':
				if (!onMentionStream(this.settings.event)) return;
				this.recovery.arrived(item.id);
				this.delivery.mention(item.id, item.mention);
				return;
			case 'engagementUpdate':
				if (this.settings.event === 'engagementUpdate') this.delivery.engagement(item);
				else this.viral?.update(item);
				return;
			case 'malformed':
				this.recovery.malformed(item);
				return;
			default:
				// heartbeats (they only keep the connection judged alive) and event kinds we do not know
				return;
		}
	}
}
