/**
 * How both triggers know a mention: its id (what they remember, so it is passed on once) and its
 * collectedAt (where the poll trigger's watermark and a stream's gap search stand).
 */
import type { IDataObject } from 'n8n-workflow';

import { readServerInstant } from '../../shared/time';

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
