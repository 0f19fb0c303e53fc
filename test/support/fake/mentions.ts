/**
 * What a fake SentiOne sends, for the unit tier: mentions shaped as the API sends them (the fields
 * the nodes read: id, collectedAt, content, source, author, metrics) and the events of its live
 * streams as Server-Sent Events text (D-28 to D-30), to feed a FakeStream or a `chunks` answer.
 */
import type { IDataObject } from 'n8n-workflow';

/** A mention collected at `collectedAt` (epoch ms or ISO text); `extra` overrides any field. */
export function mention(
	id: string,
	collectedAt: number | string,
	extra: IDataObject = {},
): IDataObject {
	const at = typeof collectedAt === 'number' ? new Date(collectedAt).toISOString() : collectedAt;
	return {
		id,
		type: 'Post',
		publishedAt: at,
		collectedAt: at,
		author: {
			id: `author-${id}`,
			name: `Author of ${id}`,
			influenceMetrics: { followerCount: 10 },
		},
		source: { type: 'Twitter', mentionUrl: `https://example.com/${id}` },
		content: {
			title: null,
			text: `text of ${id}`,
			sentiment: 'Neutral',
			language: { code: 'en' },
		},
		engagementMetrics: { sourceMetrics: { common: { likeCount: 1 } }, influenceScore: 5 },
		location: { country: { code: 'PL' } },
		attachments: [],
		...extra,
	};
}

/**
 * `count` mentions with ids `${prefix}0`, `${prefix}1` …, collected `stepMs` apart from `from`
 * (oldest first).
 */
export function mentions(count: number, from: number, stepMs = 1000, prefix = 'm'): IDataObject[] {
	return Array.from({ length: count }, (_, i) => mention(`${prefix}${i}`, from + i * stepMs));
}

/** One SSE event block: `event`, an optional `id`, the data (an object is sent as JSON). */
export function sseEvent(event: string, data: unknown, id?: string): string {
	const text = typeof data === 'string' ? data : JSON.stringify(data);
	const lines = text.split('\n').map((line) => `data: ${line}`);
	return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\n${lines.join('\n')}\n\n`;
}

/** The events of SentiOne's streams, as SSE text. */
export const sse = {
	mention: (m: IDataObject): string => sseEvent('mention', m, String(m.id)),
	/** a heartbeat as `{"date": …}`, or (legacy) a bare timestamp */
	heartbeat: (date: number | string, legacy = false): string => {
		const iso = typeof date === 'number' ? new Date(date).toISOString() : date;
		return sseEvent('heartbeat', legacy ? iso : { date: iso });
	},
	engagementUpdate: (update: IDataObject, id?: string): string =>
		sseEvent('engagementUpdate', update, id),
	/** a mention event whose data cannot be read (cut short), with its id in the event's `id` */
	malformedMention: (id: string): string => sseEvent('mention', `{"id":"${id}","content":`, id),
	comment: (text: string): string => `: ${text}\n\n`,
};
