/**
 * How both triggers know a mention: its id (what they remember, so it is passed on once) and its
 * collectedAt (where the poll trigger's watermark and a stream's gap search stand).
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS } from '../../shared/bounds';
import { readServerInstant } from '../../shared/time';

/** The mention's id and collectedAt (epoch ms), when it has readable, plausible ones. */
export function idAndCollectedAt(mention: IDataObject): { id?: string; collectedAt?: number } {
	const rawId = mention.id;
	const id =
		typeof rawId === 'string' && rawId !== '' && rawId.length <= BOUNDS.maxMentionIdChars
			? rawId
			: typeof rawId === 'number' && Number.isFinite(rawId)
				? String(rawId)
				: undefined;
	return { id, collectedAt: readServerInstant(mention.collectedAt) };
}
