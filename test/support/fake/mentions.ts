/**
 * What a fake SentiOne sends about mentions, for the unit tier: a whole Mention as the specification
 * describes it (every required field, the announced additions), and the events of an export or
 * live stream written out in either framing (D-27, D-28) as a FakeAnswer with its content type.
 * A test changes only the fields its case is about: `mention('m1', { content: { sentiment: 'Negative' } })`.
 */
import type { IDataObject } from 'n8n-workflow';

import { STREAM_ACCEPT } from '../../../nodes/SentiOne/shared/contract';
import type { StreamFormat } from '../../../nodes/SentiOne/shared/stream';
import { NOW } from '../time';
import type { FakeAnswer } from './api';

/** Any part of a mention, nested objects partly too (a null or a list replaces the value). */
export type MentionPatch = { [key: string]: unknown };

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base` with `patch` laid over it: objects merged key by key, anything else replaced. */
function merged(base: IDataObject, patch: MentionPatch): IDataObject {
	const out: IDataObject = { ...base };
	for (const [key, value] of Object.entries(patch)) {
		const current = out[key];
		out[key] =
			isPlainObject(current) && isPlainObject(value)
				? merged(current, value)
				: (value as IDataObject[string]);
	}
	return out;
}

/**
 * A mention with every field the specification lists (published 09:00 and collected 09:05 on the
 * day of test/support/time.ts NOW, in English, from Poland, on Facebook, Positive, tagged "vip"),
 * `patch` laid over it.
 */
export function mention(id: string, patch: MentionPatch = {}): IDataObject {
	const day = NOW.slice(0, 10);
	const base: IDataObject = {
		id,
		author: {
			id: `author-${id}`,
			name: 'Anna Nowak',
			avatar: { url: `https://cdn.example/avatars/${id}.png`, type: 'Image' },
			gender: 'Female',
			influenceMetrics: { followerCount: 1200, fanCount: null },
		},
		source: {
			socialChannel: { id: 'channel-7', name: 'Acme fans' },
			mentionUrl: `https://social.example/posts/${id}`,
			type: 'Facebook',
		},
		type: 'Post',
		publishedAt: `${day}T09:00:00.000Z`,
		collectedAt: `${day}T09:05:00.000Z`,
		content: {
			title: 'Acme phone review',
			text: `The Acme phone is great (${id})`,
			language: { code: 'en' },
			sentiment: 'Positive',
		},
		engagementMetrics: {
			influenceScore: 7,
			engagementRate: 0.05,
			sourceMetrics: {
				common: { likeCount: 10, shareCount: 2, commentCount: 3, viewCount: 400 },
				facebook: null,
			},
		},
		location: { coordinates: null, country: { code: 'PL' }, region: null, city: 'Kraków' },
		attachments: [],
		tags: ['vip'],
	};
	return merged(base, patch);
}

/**
 * The row Simplify makes of `mention(id)` (written out by hand, not by the code under test), its
 * two dates replaced when the mention's were.
 */
export function simpleRowOf(
	id: string,
	dates: { publishedAt?: string; collectedAt?: string } = {},
): IDataObject {
	const day = NOW.slice(0, 10);
	return {
		id,
		url: `https://social.example/posts/${id}`,
		publishedAt: dates.publishedAt ?? `${day}T09:00:00.000Z`,
		collectedAt: dates.collectedAt ?? `${day}T09:05:00.000Z`,
		sourceType: 'Facebook',
		mentionType: 'Post',
		sentiment: 'Positive',
		authorName: 'Anna Nowak',
		authorFollowers: 1200,
		title: 'Acme phone review',
		text: `The Acme phone is great (${id})`,
		language: 'en',
		country: 'PL',
		likeCount: 10,
		shareCount: 2,
		commentCount: 3,
		viewCount: 400,
		influenceScore: 7,
		engagementRate: 0.05,
		tags: 'vip',
	};
}

/** `count` mentions m<first>, m<first+1> …, each with `patch` laid over it. */
export function mentions(count: number, patch: MentionPatch = {}, first = 1): IDataObject[] {
	return Array.from({ length: count }, (_, k) => mention(`m${first + k}`, patch));
}

/** One event of a stream; `raw` is written instead of `data` as JSON (an event cut short, a bare timestamp). */
export interface StreamEvent {
	event: string;
	data?: unknown;
	/** the data as it is written on the wire, instead of JSON.stringify(data) */
	raw?: string;
	id?: string;
}

/** A mention event (its id is the mention's id, as SentiOne sends it). */
export const mentionEvent = (m: IDataObject): StreamEvent => ({
	event: 'mention',
	data: m,
	id: String(m.id),
});

/** A heartbeat as SentiOne sends it now: `{"date"}`, its id the same instant with an offset. */
export const heartbeatEvent = (date = NOW): StreamEvent => ({
	event: 'heartbeat',
	data: { date },
	id: date.replace(/Z$/, '+00:00'),
});

const dataText = (e: StreamEvent) => e.raw ?? JSON.stringify(e.data);

/** The events as Server-Sent Events: `event:`, `data:`, `id:`, a blank line (D-27). */
export function sseText(events: StreamEvent[]): string {
	return events
		.map(
			(e) =>
				`event: ${e.event}\ndata: ${dataText(e)}\n${e.id === undefined ? '' : `id: ${e.id}\n`}\n`,
		)
		.join('');
}

/** The events as JSON lines: `{"event", "data", "id"}` per line (D-27); a `raw` line is written as it is. */
export function jsonLinesText(events: StreamEvent[]): string {
	return events
		.map((e) =>
			e.raw !== undefined
				? `${e.raw}\n`
				: `${JSON.stringify(e.id === undefined ? { event: e.event, data: e.data } : { event: e.event, data: e.data, id: e.id })}\n`,
		)
		.join('');
}

/**
 * A stream answer: the events in the framing with its content type, as UTF-8 bytes cut into chunks
 * of `chunkSize` bytes (so events, and characters, arrive split across chunks, as on the wire);
 * `extra` adds headers or an end that is not normal (`breakOff`, `hold`).
 */
export function streamAnswer(
	format: StreamFormat,
	events: StreamEvent[],
	extra: Omit<FakeAnswer, 'chunks' | 'body'> & { chunkSize?: number } = {},
): FakeAnswer {
	const { chunkSize = 100, headers, ...rest } = extra;
	const bytes = new TextEncoder().encode(
		format === 'sse' ? sseText(events) : jsonLinesText(events),
	);
	const chunks: Uint8Array[] = [];
	for (let at = 0; at < bytes.length; at += chunkSize)
		chunks.push(bytes.subarray(at, at + chunkSize));
	return {
		status: 200,
		headers: { 'content-type': STREAM_ACCEPT[format], ...(headers ?? {}) },
		chunks,
		...rest,
	};
}

/** A mention collected (and published) at `collectedAt` (epoch ms or ISO text), `patch` laid over it. */
export function mentionAt(
	id: string,
	collectedAt: number | string,
	patch: MentionPatch = {},
): IDataObject {
	const at = typeof collectedAt === 'number' ? new Date(collectedAt).toISOString() : collectedAt;
	return mention(id, { publishedAt: at, collectedAt: at, ...patch });
}

/** `count` mentions `${prefix}0`, `${prefix}1` …, collected `stepMs` apart from `from` (oldest first). */
export function mentionsEvery(
	count: number,
	from: number,
	stepMs = 1000,
	prefix = 'm',
): IDataObject[] {
	return Array.from({ length: count }, (_, i) => mentionAt(`${prefix}${i}`, from + i * stepMs));
}

/** One SSE event as text: data that is not text is written as JSON, text as it is. */
export function sseEvent(event: string, data: unknown, id?: string): string {
	return sseText([typeof data === 'string' ? { event, raw: data, id } : { event, data, id }]);
}

/** The events of SentiOne's streams, as SSE text, one at a time (to feed a FakeStream). */
export const sse = {
	mention: (m: IDataObject): string => sseText([mentionEvent(m)]),
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
