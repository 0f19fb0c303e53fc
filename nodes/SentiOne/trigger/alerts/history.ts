/**
 * The trigger's own history, which spike and sentiment-shift alerts compare a window with: how
 * many matching mentions were collected in each 5-minute slot of the last 8 days, by sentiment,
 * and whether each slot was seen whole. A slot the trigger did not see whole (it fell behind, an
 * outage, a gap fill that stopped short) or that lies inside an alert episode stays out of every
 * baseline, so neither a missing count nor a spike raises or lowers what "normal" means.
 *
 * Plain arrays, saved in the trigger's static data (about 30 KB at most). Pure.
 */

export const SLOT_MS = 5 * 60_000;
/** 8 days of slots: 7 past days for "the same time on past days", and the one in progress. */
export const HISTORY_SLOTS = 8 * 24 * 12;

/** Slot flags. */
export const OPEN = 0;
export const COMPLETE = 1;
export const INCOMPLETE = 2;
/** complete, but part of an alert episode: out of the baseline */
export const EPISODE = 3;

export const SENTIMENTS = ['Negative', 'Positive', 'Neutral', 'Unspecified'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export interface History {
	/** the slot number (epoch ms / SLOT_MS) of index 0 */
	first: number;
	/** matching mentions per slot */
	total: number[];
	/** per sentiment, in SENTIMENTS order */
	bySentiment: number[][];
	/** OPEN, COMPLETE, INCOMPLETE or EPISODE per slot */
	flags: number[];
}

export const slotOf = (ms: number): number => Math.floor(ms / SLOT_MS);

export function newHistory(now: number): History {
	return { first: slotOf(now), total: [], bySentiment: SENTIMENTS.map(() => []), flags: [] };
}

/** Makes room up to `slot` and drops what is older than HISTORY_SLOTS before it. */
function reach(history: History, slot: number): void {
	while (history.first + history.total.length <= slot) {
		history.total.push(0);
		history.flags.push(OPEN);
		for (const list of history.bySentiment) list.push(0);
	}
	const excess = history.total.length - HISTORY_SLOTS;
	if (excess > 0) {
		history.first += excess;
		history.total.splice(0, excess);
		history.flags.splice(0, excess);
		for (const list of history.bySentiment) list.splice(0, excess);
	}
}

function sentimentIndex(sentiment: string): number {
	const i = SENTIMENTS.indexOf(sentiment as Sentiment);
	return i < 0 ? SENTIMENTS.length - 1 : i;
}

/** Counts one mention (the caller counts each once); a mention older than the history is not kept. */
export function countMention(history: History, collectedAt: number, sentiment: string): void {
	const slot = slotOf(collectedAt);
	if (slot < history.first) return;
	reach(history, slot);
	const i = slot - history.first;
	history.total[i]++;
	history.bySentiment[sentimentIndex(sentiment)][i]++;
}

/**
 * Seals the slots that end at or before `through`: complete when no hole overlaps them, else
 * incomplete. Sealed slots keep their flag (a late-filled hole does not reopen them).
 */
export function seal(
	history: History,
	through: number,
	holes: ReadonlyArray<readonly [number, number, string?]>,
): void {
	const lastWhole = slotOf(through) - 1;
	if (lastWhole < history.first) return;
	reach(history, lastWhole);
	for (let i = 0; i <= lastWhole - history.first; i++) {
		if (history.flags[i] !== OPEN) continue;
		const from = (history.first + i) * SLOT_MS;
		const to = from + SLOT_MS;
		history.flags[i] = holes.some(([a, b]) => a < to && b > from) ? INCOMPLETE : COMPLETE;
	}
}

/** Marks the complete slots of [from, to) as part of an alert episode (out of the baseline). */
export function markEpisode(history: History, from: number, to: number): void {
	for (let slot = slotOf(from); slot < slotOf(to - 1) + 1; slot++) {
		const i = slot - history.first;
		if (i >= 0 && i < history.flags.length && history.flags[i] === COMPLETE)
			history.flags[i] = EPISODE;
	}
}

export interface SlotSum {
	total: number;
	/** per sentiment, in SENTIMENTS order */
	bySentiment: number[];
	/** every slot of the span is in the history and COMPLETE */
	usable: boolean;
}

/** The counts of the slots of [from, to) (slot-aligned: from and to are rounded down to slots). */
export function sumSlots(history: History, from: number, to: number): SlotSum {
	const out: SlotSum = { total: 0, bySentiment: SENTIMENTS.map(() => 0), usable: true };
	const a = slotOf(from);
	const b = slotOf(to);
	for (let slot = a; slot < b; slot++) {
		const i = slot - history.first;
		if (i < 0 || i >= history.total.length || history.flags[i] !== COMPLETE) {
			out.usable = false;
			if (i < 0 || i >= history.total.length) continue;
		}
		out.total += history.total[i];
		history.bySentiment.forEach((list, s) => (out.bySentiment[s] += list[i]));
	}
	return out;
}

/** Checks saved history field by field; undefined when it cannot be used (the trigger starts afresh). */
export function readHistory(raw: unknown): History | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const h = raw as Partial<History>;
	const ints = (list: unknown, max: number): list is number[] =>
		Array.isArray(list) &&
		list.length <= HISTORY_SLOTS &&
		list.every((n) => Number.isInteger(n) && n >= 0 && n <= max);
	if (
		typeof h.first !== 'number' ||
		!Number.isInteger(h.first) ||
		h.first < 0 ||
		!ints(h.total, Number.MAX_SAFE_INTEGER) ||
		!ints(h.flags, EPISODE) ||
		h.flags.length !== h.total.length ||
		!Array.isArray(h.bySentiment) ||
		h.bySentiment.length !== SENTIMENTS.length ||
		!h.bySentiment.every(
			(list) => ints(list, Number.MAX_SAFE_INTEGER) && list.length === h.total!.length,
		)
	)
		return undefined;
	return {
		first: h.first,
		total: [...h.total],
		flags: [...h.flags],
		bySentiment: h.bySentiment.map((list) => [...list]),
	};
}
