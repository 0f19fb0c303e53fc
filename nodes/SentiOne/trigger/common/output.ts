/**
 * What the triggers hand to the workflow: one item per mention (the full mention, or the flat row
 * of Simplify) and one item per engagement update.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { simplifyMention } from '../../shared/simplify';
import { readServerInstant } from '../../shared/time';

export function mentionJson(mention: IDataObject, simplify: boolean): IDataObject {
	return simplify ? simplifyMention(mention) : mention;
}

/** An engagement update as the stream sends it: `{ mentionId, engagementMetrics, updatedAt }` (D-28). */
export function engagementJson(update: IDataObject): IDataObject {
	return { ...update };
}

/**
 * Output items, built directly (n8n's returnJsonArray would unwrap a mention that happens to carry
 * a field named "json").
 */
export function asItems(rows: IDataObject[]): INodeExecutionData[] {
	return rows.map((json) => ({ json }));
}

/** Ids longer than this are not ids SentiOne issues: such a mention is treated as having none. */
const MAX_ID_CHARS = 1024;

/** The mention's id and collectedAt (epoch ms), when it has readable, plausible ones. */
export function idAndCollectedAt(mention: IDataObject): { id?: string; collectedAt?: number } {
	const rawId = mention.id;
	const id =
		typeof rawId === 'string' && rawId !== '' && rawId.length <= MAX_ID_CHARS
			? rawId
			: typeof rawId === 'number' && Number.isFinite(rawId)
				? String(rawId)
				: undefined;
	return { id, collectedAt: readServerInstant(mention.collectedAt) };
}
