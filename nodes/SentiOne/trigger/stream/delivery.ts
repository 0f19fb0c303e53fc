/**
 * What a stream session passes on, and how: each mention (or engagement update) once — a bounded
 * memory of ids drops the repeats that backfills and gap fills bring — only when it matches the
 * filters (a server may not apply them) and, when anonymization was asked for, only anonymized or
 * with its identifying fields removed; and the memory a restart of n8n resumes from, saved right
 * before every emit. With Options → Mark Delivered When other than Emitted, what is passed on
 * waits (redelivery.ts) until n8n confirms its execution, and is passed on again after a failure.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkAnonymized, inClearMessage } from '../../shared/anonymization';
import { mentionRow } from '../../shared/simplify';
import type { StreamItem } from '../../shared/stream';
import { idKey } from '../../shared/text';
import { clock } from '../../shared/clock';
import { FilterVerifier, verificationNotice } from '../../shared/verify';
import { idAndCollectedAt } from '../common/mentionKey';
import { testAlertItem } from '../alerts';
import { DedupMemory } from './dedupMemory';
import { Redelivery } from './redelivery';
import type { SessionContext } from './sessionTypes';
import type { StreamMemory } from './streamState';
import { uncertainIds } from './streamState';

type EngagementItem = Extract<StreamItem, { type: 'engagementUpdate' }>;

/** A short fingerprint of a text (32-bit FNV-1a, hex): enough to tell apart the updates of one instant. */
function fingerprint(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16);
}

export class Delivery {
	private readonly memory: DedupMemory;

	/** checks every mention against the stream's filters (a server may not apply them) */
	private readonly verifier: FilterVerifier;

	private verificationReported = false;

	/** what is persisted for a restart: updated right before every emit (streamState.ts) */
	private persisted: StreamMemory | undefined;

	/** what waits for its execution (Mark Delivered When other than Emitted; active workflows) */
	private readonly redelivery: Redelivery | undefined;

	constructor(private readonly session: SessionContext) {
		this.memory = new DedupMemory(session.options.dedupCapacity);
		this.verifier = new FilterVerifier(session.settings.filters);
		const mode = session.settings.markDelivered ?? 'emitted';
		if (mode !== 'emitted' && !session.options.manual)
			this.redelivery = new Redelivery(session, mode, () => this.save());
	}

	/**
	 * After a restart of n8n: the memory the last run left (active workflows only), its ids taken
	 * as passed on — except, where n8n deduplicates executions, the ids the shutdown may have cut
	 * short (streamState.ts `uncertainIds`): those are passed on again if the backfill brings them,
	 * under the same deduplication key, so n8n starts each at most once. From now on the memory is
	 * saved with every emit. Undefined on a first start.
	 */
	resume(): StreamMemory | undefined {
		const { options, hooks } = this.session;
		const saved = options.manual ? undefined : options.store?.load();
		if (saved) {
			const uncertain = hooks.deduplicates ? uncertainIds(saved) : new Set<string>();
			saved.ids = saved.ids.filter(([id]) => !uncertain.has(id));
			for (const [id] of saved.ids) this.memory.add(id);
			// items still waiting for a successful execution: passed on again by the redelivery only
			if (this.redelivery && saved.pending) {
				for (const item of saved.pending) this.memory.add(item.key);
				this.redelivery.restore(saved.pending);
			}
		}
		if (!options.manual && options.store) {
			this.persisted = {
				target: options.memoryTarget ?? '',
				lastAliveAt: saved?.lastAliveAt ?? this.session.lastAliveAt,
				ids: saved?.ids ?? [],
			};
			if (this.redelivery) this.persisted.pending = this.redelivery.saved();
			// n8n writes the static data once the activation is done: a restart before the first
			// alert resumes from here (the memory and the alerts' state of one instant)
			this.write();
		}
		return saved;
	}

	/** Starts passing on again what waits for a successful execution (Mark Delivered When). */
	startRedelivery(): void {
		this.redelivery?.start();
	}

	/** Resolves once nothing is waiting to be passed on again (the session stopped). */
	async close(): Promise<void> {
		await this.redelivery?.stop();
	}

	/** True when the mention with this id was passed on. */
	passedOn(id: string): boolean {
		return this.memory.has(id);
	}

	/**
	 * One execution with this row; `id`: the id (or engagement key) it is remembered by, from which
	 * the host derives the execution's deduplication key.
	 */
	private pass(row: IDataObject, id?: string): void {
		const { hooks, options, stats } = this.session;
		if (this.session.stopped) return;
		// saved with this emit (n8n starts the save and the execution side by side)
		if (this.persisted && id !== undefined) {
			const at = clock.now();
			this.persisted.ids.push(hooks.deduplicates ? [idKey(id), at, 1] : [idKey(id), at]);
		}
		if (this.redelivery) {
			// saved and passed on, then kept until its execution confirms it (an item without an id
			// is known by a fingerprint of itself)
			this.redelivery.first(id ?? `row:${fingerprint(JSON.stringify(row))}`, row);
		} else {
			this.save();
			hooks.emit(row, id);
		}
		stats.emitted++;
		// A test event is one item: stop listening.
		if (options.manual) this.session.finishTest();
	}

	/**
	 * An alert (an alert event): one execution, saved with the memory of ids; `key` names it for
	 * n8n's deduplication key (alerts are not remembered as ids).
	 */
	passAlert(item: IDataObject, key: string): void {
		if (this.session.stopped) return;
		if (this.redelivery) this.redelivery.first(key, item);
		else {
			this.save();
			this.session.hooks.emit(item, key);
		}
		this.session.stats.emitted++;
	}

	/** Saves the memory a restart resumes from, with the alerts' state. */
	private save(): void {
		if (!this.persisted) return;
		this.persisted.lastAliveAt = this.session.receivedThrough;
		if (this.redelivery) this.persisted.pending = this.redelivery.saved();
		this.write();
	}

	/**
	 * Writes the memory and the mention alerts' state together: n8n writes the static data only at
	 * activation and when an execution starts, so what it writes must be one instant's pair — the
	 * alerts' counts and the ids they counted — for a restart to count each mention once (what
	 * came after is read again: the outage's backfill and gap fill start from `lastAliveAt`).
	 */
	private write(): void {
		const { options } = this.session;
		if (!this.persisted || !options.store) return;
		options.store.save(this.persisted);
		this.session.alerts?.save();
	}

	/**
	 * A new mention (once): counted by the alerts of an alert event, else passed on in its own
	 * execution. A counted id is remembered like a passed one and saved with the next alert.
	 */
	private take(mention: IDataObject, id: string | undefined): void {
		const alerts = this.session.alerts;
		if (!alerts) {
			this.pass(mentionRow(mention, this.session.settings.simplify), id);
			return;
		}
		if (id !== undefined && this.persisted) this.persisted.ids.push([idKey(id), clock.now()]);
		alerts.observe(mention);
	}

	/** A mention of the live stream: passed on once, when admissible. */
	mention(id: string, mention: IDataObject): void {
		const admitted = this.admissible(id, mention);
		if (admitted === undefined) return;
		if (this.memory.add(id)) this.take(admitted, id);
		else this.session.stats.duplicates++;
	}

	/** An engagement update: passed on once. */
	engagement(item: EngagementItem): void {
		const update = item.update;
		// The event id (mention id and time) plus the metrics: a backfill repeats an update
		// exactly, while two changes of one mention in the same millisecond differ in their metrics.
		const key = `${item.id ?? `${String(update.mentionId)}:${String(update.updatedAt)}`}#${fingerprint(JSON.stringify(update.engagementMetrics ?? null))}`;
		// as the stream sends it: `{ mentionId, engagementMetrics, updatedAt }` (D-28)
		if (this.memory.add(key)) this.pass({ ...update }, key);
		else this.session.stats.duplicates++;
	}

	/**
	 * Mentions a search found (a gap, a test event's sample): those admissible and not passed on
	 * yet, each in its own execution like a live mention (so each has its deduplication key); a
	 * mention without an id cannot be remembered and is passed on. `found` hears of every id the
	 * search returned.
	 */
	searched(mentions: IDataObject[], found: (id: string) => void = () => undefined): void {
		for (const candidate of mentions) {
			const { id } = idAndCollectedAt(candidate);
			if (id !== undefined) found(id);
			const mention = this.admissible(id, candidate);
			if (mention === undefined) continue;
			if (id === undefined || this.memory.add(id)) this.take(mention, id);
			else this.session.stats.duplicates++;
		}
	}

	/** A test event's sample: the first admissible of `mentions`; false when there is none. */
	sample(mentions: IDataObject[]): boolean {
		const { settings } = this.session;
		if (settings.alert) {
			const admitted = mentions
				.map((m) => this.admissible(idAndCollectedAt(m).id, m))
				.filter((m): m is IDataObject => m !== undefined);
			if (admitted.length === 0) return false;
			this.pass(testAlertItem(settings.alert, admitted, this.session.transport.zone, clock.now()));
			return true;
		}
		for (const candidate of mentions) {
			const mention = this.admissible(idAndCollectedAt(candidate).id, candidate);
			if (mention !== undefined) {
				this.pass(mentionRow(mention, this.session.settings.simplify));
				return true;
			}
		}
		return false;
	}

	/**
	 * The mention as it may be passed on, or undefined: one that does not match the filters is
	 * dropped (reported once); one whose author SentiOne did not anonymize although it was asked
	 * stops the trigger, or has its identifying fields removed when the user chose that.
	 */
	private admissible(id: string | undefined, mention: IDataObject): IDataObject | undefined {
		const { settings, stats, options, hooks, node } = this.session;
		let out = mention;
		if (settings.anonymization) {
			const checked = checkAnonymized(mention, settings.anonymization, settings.notAnonymized);
			if ('clear' in checked || checked.removed) stats.notAnonymized++;
			if ('clear' in checked) {
				this.session.fail(
					new NodeOperationError(
						node,
						inClearMessage(settings.anonymization, id ?? '(no id)', checked.clear),
						{
							description:
								'The trigger stopped, and this mention was not passed on, so no author in clear reaches the workflow. SentiOne may not apply its (experimental) anonymization switch on the live stream. To go on without it, set Options → If Not Anonymized to Remove Identifying Fields (they become null), or turn Anonymization off.',
						},
					),
				);
				return undefined;
			}
			out = checked.mention;
		}
		if (!this.verifier.keep(out)) {
			stats.unmatched++;
			if (!this.verificationReported && !options.manual) {
				this.verificationReported = true;
				const notice = verificationNotice(
					this.verifier,
					'The trigger keeps checking every mention and passes on only matching ones. This is reported once.',
					this.session.unsent,
				);
				if (notice) hooks.report(new NodeOperationError(node, notice));
			}
			return undefined;
		}
		return out;
	}
}
