/**
 * What the alerts read from a mention: when it was collected (which window and bucket it counts
 * in), the categories a digest counts, how far it reaches (the ranking of a digest's top mentions,
 * documented in docs/alerts.md), and the flat row an alert item shows.
 */
import type { IDataObject } from 'n8n-workflow';

import { mentionRow } from '../../shared/simplify';
import { idAndCollectedAt } from '../common/mentionKey';

/** Longest text an alert item keeps of a mention (the item stays small; the link has the rest). */
export const TEXT_CHARS = 280;

export interface MentionFacts {
	id: string;
	collectedAt: number;
	sentiment: string;
	sourceType: string;
	mentionType: string;
	language: string;
	/** the ranking keys, most important first (docs/alerts.md "Top mentions") */
	reach: [followers: number, engagement: number, influence: number];
	/** the flat row (Simplify columns), its text cut to TEXT_CHARS */
	row: IDataObject;
}

const count = (value: unknown): number =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

const label = (value: unknown): string =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : 'Unknown';

/** The facts of a mention, or undefined when it has no usable id or collectedAt. */
export function factsOf(mention: IDataObject, fallbackAt?: number): MentionFacts | undefined {
	const { id, collectedAt } = idAndCollectedAt(mention);
	const at = collectedAt ?? fallbackAt;
	if (id === undefined || at === undefined) return undefined;
	const row = mentionRow(mention, true);
	if (typeof row.text === 'string' && row.text.length > TEXT_CHARS)
		row.text = `${row.text.slice(0, TEXT_CHARS - 1)}…`;
	return {
		id,
		collectedAt: at,
		sentiment: label(row.sentiment),
		sourceType: label(row.sourceType),
		mentionType: label(row.mentionType),
		language: typeof row.language === 'string' && row.language !== '' ? row.language : 'unknown',
		reach: [
			count(row.authorFollowers),
			count(row.likeCount) + count(row.shareCount) + count(row.commentCount),
			count(row.influenceScore),
		],
		row,
	};
}

/** Orders mentions by reach, highest first; ties by id so the order is the same on every run. */
export function byReach(
	a: Pick<MentionFacts, 'id' | 'reach'>,
	b: Pick<MentionFacts, 'id' | 'reach'>,
): number {
	for (let i = 0; i < a.reach.length; i++) {
		if (a.reach[i] !== b.reach[i]) return b.reach[i] - a.reach[i];
	}
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
