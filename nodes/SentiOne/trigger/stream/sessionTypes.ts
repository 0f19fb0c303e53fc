/**
 * What a stream session is given (hooks, options, the store of its memory), what it counts, and
 * what its parts — the connection loop (streamSession.ts), what is passed on (delivery.ts) and what
 * is fetched again by search (recovery.ts) — share of it.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { UnconfirmedFilter } from '../../shared/contract';
import type { SentiOneTransport } from '../../shared/transport';
import type { DeliveryAttempt } from './redeliveryPolicy';
import type { StreamAlerts } from './streamAlerts';
import type { StreamSettings } from './streamSettings';
import type { StreamMemory } from './streamState';

export interface SessionHooks {
	/**
	 * One execution with this item. `id`: the id of the mention (or the key of the update) it
	 * carries, from which the host derives the execution's deduplication key when it has one.
	 * `attempt` (Mark Delivered When other than Emitted): which attempt of the item this is (the
	 * key differs per attempt) and whom to tell how its execution ended (redelivery.ts).
	 */
	emit(row: IDataObject, id?: string, attempt?: DeliveryAttempt): void;
	/**
	 * True when n8n refuses a second execution with the same deduplication key (n8n 2.41+, active
	 * workflows): ids a restart leaves uncertain can then be passed on again (streamState.ts).
	 */
	readonly deduplicates?: boolean;
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

/** Where the session keeps its alerts' state (mention alerts; saved with the memory of ids). */
export interface SessionAlertStore {
	load(): unknown;
	save(state: IDataObject): void;
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
	/** the alerts' state (mention alerts only) */
	alertStore?: SessionAlertStore;
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
	/** Mark Delivered When (not Emitted): items whose execution confirmed their delivery */
	delivered: number;
	/** items passed on again after a failed execution (retries) */
	redelivered: number;
	/** items whose execution n8n did not start again (its deduplication key existed): not retried */
	unconfirmed: number;
	/** items given up (attempts spent, no word from n8n, or too many waiting) and reported */
	givenUp: number;
}

export function newStats(): SessionStats {
	return {
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
		delivered: 0,
		redelivered: 0,
		unconfirmed: 0,
		givenUp: 0,
	};
}

/** What the parts of a session read of it and ask of it. */
export interface SessionContext {
	readonly node: INode;
	readonly transport: SentiOneTransport;
	readonly settings: StreamSettings;
	readonly hooks: SessionHooks;
	readonly options: SessionOptions;
	readonly stats: SessionStats;
	/** aborts the connection, any wait and any search when the session stops */
	readonly signal: AbortSignal;
	/** true once the session was closed or failed, or a test event was passed on */
	readonly stopped: boolean;
	/** filters SentiOne refused the shape of: no longer sent, applied by the verifier */
	readonly unsent: UnconfirmedFilter[];
	/** epoch ms when the stream last delivered something */
	readonly lastAliveAt: number;
	/**
	 * Everything collected before this instant has been received: the last delivery, held back to
	 * where the current connection's backfill starts while that backfill may still be arriving.
	 * A reconnect or a restart recovers from here.
	 */
	readonly receivedThrough: number;
	/** epoch ms when the current connection opened, and the backfill minutes it asked for */
	readonly connectedAt: number;
	readonly connectedBackfill: number;
	/** the mention alerts the session feeds instead of passing mentions on (alert events) */
	readonly alerts?: StreamAlerts;
	/** stops the trigger with this error (emitError) */
	fail(error: unknown): void;
	/** a test event was passed on: stop listening */
	finishTest(): void;
}
