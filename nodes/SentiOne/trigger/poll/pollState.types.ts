/**
 * The shape of the poll trigger's saved state (pollState.ts reads and repairs it, watermark.ts
 * scans with it): types only, so the two can share them without importing each other.
 */
export interface PollRound {
	/** The request body the round was started with (JSON); a cursor only fits that body. */
	body: string;
	/** The settings the round was started with (source, filters, mode); a change starts a new round. */
	key: string;
	cursor: string;
	/** A newest-first round: the newest collectedAt it passed on (the watermark once it is done). */
	top?: number;
}

export interface PollBudget {
	limit?: number;
	remaining?: number;
	resetAt?: number;
	/** The reset instant of the window whose exhaustion was already reported (reported once). */
	reported?: number;
}

/** What the key's search budget showed after this trigger's last requests (searchShare.ts). */
export interface KeyUse {
	/** the window's reset (epoch ms) */
	resetAt: number;
	limit: number;
	/** what the key had left after this trigger's last request */
	remaining: number;
	/** this trigger's requests in the window */
	mine: number;
	/** when it was seen */
	at: number;
	/** the others' pace in the window before, requests an hour */
	othersBefore?: number;
}

/** How a check finds new mentions (contract module, UNCONFIRMED.collectedAtFilter). */
export type ScanMode = 'collectedAt' | 'descending';

export interface PollState {
	v: number;
	projectId: number;
	/** collectedAt (epoch ms) of the newest mention in hand; null: nothing matched yet, so everything that appears is new */
	watermark: number | null;
	/** [id (or its hash), collectedAt ms] of mentions passed on (or noted at the start), oldest first */
	seen: Array<[string, number]>;
	/** Exclusive lower bound of every scan (ids at or before it may have been forgotten); null: none */
	floor: number | null;
	round?: PollRound;
	budget?: PollBudget;
	mode?: ScanMode;
	/** new mentions per check, averaged over the last checks (sizes the re-read and the paging of the next one) */
	lastNew?: number;
	/** mentions a check left for the next one when it stopped paging at the arrival rate */
	tail?: number;
	/** when a mention last arrived late (behind the watermark) */
	lateAt?: number;
	/** unconfirmed filters SentiOne refused the shape of: not sent any more, applied locally */
	unsent?: Array<'language' | 'country'>;
	/** the search requests this trigger spent in the current hour (its share, pollSettings) */
	spent?: { hour: number; count: number };
	/** when the last check that sent a request ran */
	checkedAt?: number;
	/** the requests that check sent (the next check waits as many spacings) */
	lastCost?: number;
	/** what the key's search budget showed after the last requests, to pace to the other workflows */
	key?: KeyUse;
	/** when a check last found mentions arriving faster than the trigger's searches carry (catchUp.ts) */
	behind?: number;
	/** the catch-up exports: when the last ran, a 429's reset to wait for, refused for good (catchUp.ts) */
	catchUp?: { at?: number; waitUntil?: number; off?: 1 };
	/** the pending notices are told by the next check, whatever it is (falling behind cannot wait for a quiet check) */
	urgent?: boolean;
	/** checks in a row that ended with more to read */
	behindChecks?: number;
	/** kinds of notice already reported (each is reported once) */
	told?: string[];
	/** notices waiting to be reported */
	pending?: string[];
}
