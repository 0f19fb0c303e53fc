/**
 * The Stream Trigger's mention alerts (Digest, Volume Spike, Sentiment Shift; docs/alerts.md): every
 * mention the stream passes on once goes to the alert engine (trigger/alerts/) instead of the
 * workflow, and the alerts due are passed on. What the trigger has seen whole follows its
 * connection: time connected is seen (minus a short margin for mentions still on their way); an
 * outage is a hole until the reconnect's backfill has had time to arrive and a gap fill covered
 * the rest. The engine's state is saved together with the stream's memory of ids, at activation
 * and with every alert (delivery.ts), so a restart resumes both from one point.
 */
import type { IDataObject } from 'n8n-workflow';

import { clock } from '../../shared/clock';
import type { AlertEngine } from '../alerts';
import { ALERT_MAX_DELAY_MS, alertScope, factsOf, openEngine } from '../alerts';
import { RECONNECT } from './reconnect';
import type { StreamSettings } from './streamSettings';

/** Mentions collected this long ago may still be on their way (the live stream's delay). */
export const ARRIVAL_MARGIN_MS = 30_000;
/** A digest window is closed this long after its end (its last mentions still arriving). */
export const STREAM_GRACE_MS = 60_000;

export interface AlertStore {
	load(): unknown;
	save(state: IDataObject): void;
}

export class StreamAlerts {
	readonly engine: AlertEngine;

	/** spans waiting for the backfill of a connection (RECONNECT.backfillSettleMs after it opened) */
	private settling: Array<{ from: number; to: number; settleAt: number }> = [];

	/** whether the stream is connected now (time passing counts as seen) */
	private connected = false;

	/** whether a connection has opened since this engine started (fresh or resumed) */
	private connectedBefore = false;

	constructor(
		settings: StreamSettings & { alert: NonNullable<StreamSettings['alert']> },
		zone: string,
		private readonly store: AlertStore | undefined,
		/** passes an alert on (the delivery saves the stream's memory and the alerts with it) */
		private readonly deliver: (item: IDataObject, key: string) => void,
		now: number,
	) {
		if (settings.alert.event === 'viralMention')
			throw new Error('viral alerts are not mention alerts');
		this.engine = openEngine(
			{ sentiOneAlerts: store?.load() as IDataObject | undefined },
			settings.alert,
			{
				zone,
				scope: alertScope(settings.alert, zone, {
					project: settings.projectId,
					filters: settings.filters,
				}),
				graceMs: STREAM_GRACE_MS,
				maxDelayMs: STREAM_GRACE_MS + ALERT_MAX_DELAY_MS,
				seenFrom: now,
			},
			now,
		);
	}

	/** Saves the engine's state (the delivery calls it with every save of the stream's memory). */
	save(): void {
		this.store?.save(this.engine.snapshot());
	}

	/** A matching mention, passed on once by the delivery. */
	observe(mention: IDataObject): void {
		const now = clock.now();
		const facts = factsOf(mention, now);
		if (facts) this.engine.observe(facts, now);
	}

	/**
	 * A connection opened at `openedAt`, the stream having been last alive at `lastAliveAt`: the
	 * outage is a hole; the part the connection's backfill covers is seen once it had time to arrive.
	 */
	connectedAt(openedAt: number, lastAliveAt: number, backfillMinutes: number): void {
		this.connected = true;
		// a fresh trigger's first connection follows no outage: before it, the trigger saw nothing yet
		const first = !this.connectedBefore && !this.engine.resumed;
		this.connectedBefore = true;
		const from = Math.min(lastAliveAt, openedAt) - ARRIVAL_MARGIN_MS;
		if (openedAt > from) {
			if (first) this.engine.notStarted(from, openedAt);
			else
				this.engine.hole(
					from,
					openedAt,
					'the live stream was interrupted and what it missed could not all be read again',
				);
			const backfillFrom = Math.max(from, openedAt - backfillMinutes * 60_000);
			this.settling.push({
				from: backfillFrom,
				to: openedAt,
				settleAt: openedAt + RECONNECT.backfillSettleMs,
			});
		}
	}

	/** The connection ended: time stops counting as seen until the next one. */
	disconnected(): void {
		this.connected = false;
	}

	/** A gap fill (search or export) read every mention of [from, to). */
	filled(from: number, to: number): void {
		this.engine.fill(from - ARRIVAL_MARGIN_MS, to);
	}

	/** On every event of the stream and every pause: what is seen, and the alerts due now. */
	tick(): void {
		const now = clock.now();
		for (const span of this.settling.filter((s) => s.settleAt <= now))
			this.engine.fill(span.from, span.to);
		this.settling = this.settling.filter((s) => s.settleAt > now);
		if (this.connected) this.engine.cover(now - ARRIVAL_MARGIN_MS);
		const items = this.engine.due(now);
		// each emit saves the state, with the stream's memory (delivery.ts), before n8n writes it
		for (const item of items) this.deliver(item, alertKey(item));
	}
}

/** The key an alert is passed on under (n8n's deduplication key is derived from it). */
export function alertKey(item: IDataObject): string {
	return `alert:${String(item.kind)}:${String(item.windowStart ?? item.startedAt ?? item.windowEnd ?? item.updatedAt ?? '')}`;
}
