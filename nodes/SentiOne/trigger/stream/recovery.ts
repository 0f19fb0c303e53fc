/**
 * What a stream session fetches by search instead of the stream: an outage longer than the
 * backfill a reconnect can ask for (recoverySearch.ts), mentions that arrived malformed (their id is
 * known, or the moment they arrived in), and a test event's sample. What cannot be recovered is
 * reported (a failed execution); the stream goes on.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { attempt } from '../../shared/attempt';
import { BACKFILL_MINUTES_MAX, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { declareFailure, failureOf } from '../../shared/errors';
import type { StreamItem } from '../../shared/stream';
import { idKey } from '../../shared/text';
import { clock, serverClock } from '../../shared/clock';
import { formatInstant, formatLocal } from '../../shared/time';
import { MINUTE_MS } from '../../shared/units';
import { withoutFilters } from '../../shared/verify';
import { hourlyLimit } from '../../shared/wording';
import type { Delivery } from './delivery';
import type { CollectedRange } from './recoverySearch';
import { searchCollected, searchLatest } from './recoverySearch';
import { exportCollectedRange } from '../common/exportRange';
import { onServerClock, RECONNECT } from './reconnect';
import type { SessionContext } from './sessionTypes';
import { onMentionStream } from './streamSettings';

type MalformedItem = Extract<StreamItem, { type: 'malformed' }>;

/** Placeholder key prefix in the repair list for an event whose id could not be read */
const UNREADABLE = '\u0000unreadable:';
/** Malformed mentions are recovered this long after the first of a batch arrived (time to become searchable). */
const REPAIR_DELAY_MS = 5_000;
/** How far before its arrival a malformed mention may have been collected (live tail). */
const REPAIR_LOOKBACK_MS = 60_000;
/** Malformed events waiting for recovery at most (more are reported as not recovered at once). */
const MAX_PENDING_REPAIR = 10_000;

export class Recovery {
	/** malformed events waiting for recovery: id key (or a placeholder), and when it arrived */
	private readonly pending = new Map<string, number>();

	/** events that could not be read at all, counted to give each a placeholder in `pending` */
	private unreadable = 0;

	constructor(
		private readonly session: SessionContext,
		private readonly delivery: Delivery,
	) {}

	/** A mention arrived whole: it no longer waits for recovery. */
	arrived(id: string): void {
		this.pending.delete(idKey(id));
	}

	/** An event that could not be read: remembered for the search of the moment it arrived in. */
	malformed(item: MalformedItem): void {
		const { settings, stats } = this.session;
		stats.malformed++;
		if (!onMentionStream(settings.event) || !settings.fillGaps) return;
		if (this.pending.size >= MAX_PENDING_REPAIR) {
			stats.unrecoverable++;
			return;
		}
		if (item.event === 'mention' && item.id !== undefined) {
			if (!this.delivery.passedOn(item.id) && !this.pending.has(idKey(item.id))) {
				this.pending.set(idKey(item.id), clock.now());
			}
		} else if (item.event === 'mention' || item.event === '') {
			// an event that cannot be read at all (a JSON line cut short): whatever it was, the
			// search of the moment it arrived in passes on any mention not passed on yet
			this.pending.set(`${UNREADABLE}${++this.unreadable}`, clock.now());
		}
	}

	/** True when the first malformed event of a batch has waited long enough to be searchable. */
	get due(): boolean {
		if (this.pending.size === 0) return false;
		const first = Math.min(...this.pending.values());
		return clock.now() - first >= REPAIR_DELAY_MS;
	}

	/**
	 * "Listen for test event" without a live connection: the newest mention matching the filters,
	 * by one recent search. When there is none, the session goes on to open the stream and waits for
	 * the first one, as before.
	 */
	async sample(): Promise<void> {
		const { settings, transport, signal, hooks } = this.session;
		const outcome = await attempt(
			async () =>
				await searchLatest({
					transport,
					projectId: settings.projectId as number,
					filters: settings.filters,
					signal,
				}),
		);
		if (this.session.stopped) return;
		if (!outcome.ok) {
			this.session.fail(outcome.error);
			return;
		}
		if (this.delivery.sample(outcome.value)) return;
		hooks.log(
			'SentiOne stream: no matching mention found by search for the test event; opening the live stream',
		);
	}

	/** Looks malformed mentions up by the moments they arrived in. */
	async repair(): Promise<void> {
		const { stats, hooks, node } = this.session;
		const pending = Array.from(this.pending.entries());
		this.pending.clear();
		let from = Infinity;
		let to = -Infinity;
		for (const [, at] of pending) {
			const burst =
				at - this.session.connectedAt < RECONNECT.backfillSettleMs
					? this.session.connectedBackfill * MINUTE_MS
					: 0;
			from = Math.min(from, at - REPAIR_LOOKBACK_MS - burst - RECONNECT.marginMs);
			to = Math.max(to, at + RECONNECT.marginMs);
		}
		const emittedBefore = stats.emitted;
		await this.fillGap({ from, to }, 'repair');
		const known = pending.map(([id]) => id).filter((id) => !id.startsWith(UNREADABLE));
		const unreadable = pending.length - known.length;
		const missing = known.filter((id) => !this.delivery.passedOn(id));
		const found = stats.emitted - emittedBefore;
		stats.repaired += known.length - missing.length;
		if (
			unreadable > 0 &&
			!this.session.stopped &&
			found < unreadable + known.length - missing.length
		) {
			// fewer mentions came back than unreadable events arrived: say so, never stay silent
			hooks.report(
				new NodeOperationError(
					node,
					`${unreadable} event${unreadable === 1 ? '' : 's'} on the SentiOne stream could not be read, and the search of the moments ${unreadable === 1 ? 'it' : 'they'} arrived in passed on ${found} mention${found === 1 ? '' : 's'}`,
					{
						description:
							'An unreadable event carries no mention ID, so it cannot be looked up directly. Mentions it may have carried that the search did not return (not searchable yet, or the search budget or request cap stopped it) are missing. The stream goes on.',
					},
				),
			);
		}
		if (missing.length > 0 && !this.session.stopped) {
			hooks.report(
				new NodeOperationError(
					node,
					`${missing.length} mention${missing.length === 1 ? '' : 's'} arrived malformed on the SentiOne stream and could not be recovered`,
					{
						description: `Mention IDs: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}. The search of the moments they arrived in did not return them (not searchable yet, or the search budget or request cap stopped it). The stream goes on.`,
					},
				),
			);
		}
	}

	/**
	 * Searches a collected-at range and passes on what was not passed on yet (one execution each);
	 * true when every mention of the range was read. An outage of an alert event is read through
	 * one export first (one request whatever its size: trigger/common/exportRange.ts), by search
	 * when the export is refused.
	 */
	async fillGap(nodeRange: CollectedRange, reason: 'outage' | 'repair'): Promise<boolean> {
		const { settings, transport, options, hooks, node, stats } = this.session;
		// the range is of the node's clock; SentiOne dated the mentions by its own (D-50)
		const range = onServerClock(nodeRange, serverClock.offset);
		const zone = transport.zone;
		const between = `between ${formatLocal(range.from, zone)} and ${formatLocal(range.to, zone)}`;
		const what = `mentions collected ${between}`;
		if (
			!onMentionStream(settings.event) ||
			!settings.fillGaps ||
			settings.projectId === undefined
		) {
			if (reason === 'outage' && !options.manual) {
				hooks.report(
					new NodeOperationError(
						node,
						`The SentiOne stream was down longer than its ${BACKFILL_MINUTES_MAX}-minute backfill: ${onMentionStream(settings.event) ? what : `engagement updates ${between}`} may be missing`,
						{
							description: onMentionStream(settings.event)
								? 'Gap filling is turned off (Options → Fill Gaps with Search).'
								: `Engagement updates cannot be searched, so an outage longer than ${BACKFILL_MINUTES_MAX} minutes cannot be filled.`,
						},
					),
				);
			}
			return false;
		}
		if (range.to <= range.from) return true;
		stats.gapFills++;
		if (this.session.alerts && reason === 'outage' && (await this.exported(range))) return true;
		const outcome = await attempt(
			async () =>
				await searchCollected({
					transport,
					projectId: settings.projectId as number,
					filters: withoutFilters(
						{ [SEARCH_REQUEST_FIELDS.filters]: settings.filters },
						this.session.unsent,
					)[SEARCH_REQUEST_FIELDS.filters] as IDataObject,
					range,
					maxRequests: settings.maxGapRequests,
					signal: this.session.signal,
				}),
		);
		if (this.session.stopped) return false;
		if (!outcome.ok) {
			// reported with the cause of the search's failure
			hooks.report(
				declareFailure(
					new NodeOperationError(
						node,
						`Could not search for ${what} (${reason === 'outage' ? 'stream outage' : 'malformed events'}): ${String((outcome.error as Error)?.message ?? outcome.error)}`,
						{
							description:
								'Mentions in that range that the stream did not deliver may be missing. The stream goes on.',
						},
					),
					failureOf(outcome.error),
				),
			);
			return false;
		}
		const result = outcome.value;
		stats.gapRequests += result.requests;
		this.delivery.searched(result.mentions, (id) => this.arrived(id));
		if (!result.complete && !options.manual) {
			hooks.report(
				new NodeOperationError(
					node,
					`Only part of the ${what} could be searched for after the SentiOne stream was interrupted`,
					{
						description: result.budgetStopped
							? `The search budget (${hourlyLimit('recentSearch')} requests an hour, shared by every workflow using the key) is used up${result.budgetResetAt !== undefined ? ` until ${formatInstant(result.budgetResetAt, clock.now(), zone)}` : ''}. Mentions of that range after the last one passed on may be missing.`
							: `The search stopped after ${result.requests} requests (Options → Max Search Requests per Gap). Mentions of that range after the last one passed on may be missing.`,
					},
				),
			);
		}
		return result.complete;
	}

	/**
	 * An outage of an alert event, read through one export of the recent mentions; false when the
	 * export was refused or stopped early (the search then tries; what it reads is counted once).
	 */
	private async exported(range: CollectedRange): Promise<boolean> {
		const { settings, transport, node, hooks } = this.session;
		const outcome = await attempt(
			async () =>
				await exportCollectedRange(transport, node, {
					projectId: settings.projectId as number,
					scope: 'recent',
					filters: withoutFilters(
						{ [SEARCH_REQUEST_FIELDS.filters]: settings.filters },
						this.session.unsent,
					)[SEARCH_REQUEST_FIELDS.filters] as IDataObject,
					from: range.from,
					to: range.to,
					format: settings.format,
					signal: this.session.signal,
				}),
		);
		if (this.session.stopped || !outcome.ok) {
			if (!outcome.ok)
				hooks.log(
					`SentiOne stream: the catch-up export was refused (${String((outcome.error as Error)?.message)}); searching instead`,
				);
			return false;
		}
		this.session.stats.gapRequests += outcome.value.requests;
		this.delivery.searched(outcome.value.mentions, (id) => this.arrived(id));
		return outcome.value.complete;
	}
}
