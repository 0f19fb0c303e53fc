/**
 * What the triggers hand to the workflow: one item per mention (the full mention, or the flat row
 * of Simplify) and one item per engagement update.
 */
import type { IDataObject } from 'n8n-workflow';

import { simplifyMention } from '../shared/simplify';

export function mentionJson(mention: IDataObject, simplify: boolean): IDataObject {
	return simplify ? simplifyMention(mention) : mention;
}

/** An engagement update as the stream sends it: `{ mentionId, engagementMetrics, updatedAt }` (D-28). */
export function engagementJson(update: IDataObject): IDataObject {
	return { ...update };
}

/** The mention's id and collectedAt (epoch ms), when it has them. */
export function idAndCollectedAt(mention: IDataObject): { id?: string; collectedAt?: number } {
	const rawId = mention.id;
	const id = typeof rawId === 'string' && rawId !== '' ? rawId : typeof rawId === 'number' ? String(rawId) : undefined;
	const rawAt = mention.collectedAt;
	const at = typeof rawAt === 'string' ? Date.parse(rawAt) : NaN;
	return { id, collectedAt: Number.isNaN(at) ? undefined : at };
}
