/**
 * The count of one digest window: the total, counts by sentiment, source type, mention type and
 * language, the top mentions by reach and the most-reached negative mentions (each list bounded
 * by the user's N). Plain data, so it is saved in the trigger's static data as it is.
 */
import type { IDataObject } from 'n8n-workflow';

import type { MentionFacts } from './facts';
import { byReach } from './facts';

/** A mention kept in a list of a tally: its ranking keys and its row. */
export interface Ranked {
	id: string;
	reach: MentionFacts['reach'];
	row: IDataObject;
}

export interface Tally {
	start: number;
	end: number;
	total: number;
	bySentiment: Record<string, number>;
	bySourceType: Record<string, number>;
	byMentionType: Record<string, number>;
	byLanguage: Record<string, number>;
	top: Ranked[];
	negative: Ranked[];
}

export function newTally(start: number, end: number): Tally {
	return {
		start,
		end,
		total: 0,
		bySentiment: {},
		bySourceType: {},
		byMentionType: {},
		byLanguage: {},
		top: [],
		negative: [],
	};
}

const bump = (counts: Record<string, number>, key: string) => {
	counts[key] = (counts[key] ?? 0) + 1;
};

/** Keeps the `n` highest of `list` plus `entry` (by reach), in order. */
function keepTop(list: Ranked[], entry: Ranked, n: number): Ranked[] {
	if (n <= 0) return list;
	if (list.length >= n && byReach(entry, list[list.length - 1]) >= 0) return list;
	const out = [...list, entry].sort(byReach);
	return out.slice(0, n);
}

/** Counts one mention into the tally (the caller counts each mention once). */
export function addToTally(
	tally: Tally,
	facts: MentionFacts,
	limits: { top: number; negative: number },
): void {
	tally.total++;
	bump(tally.bySentiment, facts.sentiment);
	bump(tally.bySourceType, facts.sourceType);
	bump(tally.byMentionType, facts.mentionType);
	bump(tally.byLanguage, facts.language);
	const entry: Ranked = { id: facts.id, reach: facts.reach, row: facts.row };
	tally.top = keepTop(tally.top, entry, limits.top);
	if (facts.sentiment === 'Negative')
		tally.negative = keepTop(tally.negative, entry, limits.negative);
}

/** A count map ordered by count (highest first), then by name. */
export function sortedCounts(counts: Record<string, number>): Record<string, number> {
	return Object.fromEntries(
		Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)),
	);
}
