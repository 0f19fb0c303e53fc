/**
 * SentiOne's stream events (contract D-28 to D-30) as typed items: a mention, a heartbeat, an
 * engagement update, any other kind passed through, and what cannot be read as `malformed` (never
 * an exception: the stream goes on).
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_KINDS } from '../contract';
import type { SseEvent, SseOversizedEvent } from './sse';
import { readJson } from '../json';

const { mention: MENTION, heartbeat: HEARTBEAT, engagementUpdate: ENGAGEMENT_UPDATE } = EVENT_KINDS;

export const TOO_LARGE = 'event too large';

export type StreamItem =
	| { type: 'mention'; id: string; mention: IDataObject }
	| { type: 'heartbeat'; date: string; legacy: boolean }
	| { type: 'engagementUpdate'; id?: string; update: IDataObject }
	| { type: 'other'; event: string; id?: string; data: unknown }
	/** `raw` is the event's data (SSE) or line (JSON lines); for `event too large`, only its first 256 characters */
	| { type: 'malformed'; event: string; id?: string; raw: string; reason: string };

/** What the events of a stream were, counted as they are read */
export interface EventCounts {
	/** Events read, of every kind: mentions + heartbeats + engagementUpdates + other + malformed */
	events: number;
	mentions: number;
	heartbeats: number;
	engagementUpdates: number;
	other: number;
	malformed: number;
	/** The last valid SSE `retry` value */
	retryMs?: number;
}

export interface StreamStats extends EventCounts {
	/** Bytes pushed (UTF-8 length for strings) */
	bytes: number;
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function idOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** `2026-11-21T10:30:00.000Z`, `2026-11-21 10:30:00+00:00`, `2026-11-21T10:30Z`, … */
const TIMESTAMP =
	/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The events of one stream, whatever their framing, into {@link out}: the reader points it at a
 * fresh list for every chunk.
 */
export class StreamEvents {
	out: StreamItem[] = [];
	readonly counts: EventCounts = {
		events: 0,
		mentions: 0,
		heartbeats: 0,
		engagementUpdates: 0,
		other: 0,
		malformed: 0,
	};

	/** One SSE event: its data is JSON for the known kinds (a legacy heartbeat is a bare timestamp), text or JSON for others */
	sse(e: SseEvent): void {
		const event = e.event;
		const data = e.data;
		if (event === MENTION || event === ENGAGEMENT_UPDATE || event === HEARTBEAT) {
			if (event === HEARTBEAT) {
				// Legacy form: a bare, unquoted timestamp.
				const trimmed = data.trim();
				const c0 = trimmed.charCodeAt(0);
				if (c0 >= 48 && c0 <= 57 && TIMESTAMP.test(trimmed)) {
					this.counts.events++;
					this.counts.heartbeats++;
					this.out.push({ type: 'heartbeat', date: trimmed, legacy: true });
					return;
				}
			}
			let parsed: unknown;
			try {
				parsed = readJson(data);
			} catch (error) {
				this.malformed(event, e.id, data, `invalid JSON: ${errorMessage(error)}`);
				return;
			}
			this.parsed(event, parsed, e.id, data);
			return;
		}
		let value: unknown = data;
		try {
			value = readJson(data);
		} catch {
			// Not JSON: unknown kinds pass through with their raw text.
			value = data;
		}
		this.parsed(event, value, e.id, data);
	}

	/** An SSE event skipped as too large */
	sseOversize(e: SseOversizedEvent): void {
		this.malformed(e.event, e.id, e.sample, TOO_LARGE);
	}

	/** One event whose data has been parsed; `raw` is its text, for a `malformed` item */
	parsed(event: string, data: unknown, id: string | undefined, raw: string): void {
		const counts = this.counts;
		switch (event) {
			case MENTION: {
				if (!isObject(data)) {
					this.malformed(event, id, raw, 'mention data is not a JSON object');
					return;
				}
				const mentionId = idOf(data.id) ?? id;
				if (mentionId === undefined) {
					this.malformed(event, id, raw, 'mention has no id');
					return;
				}
				counts.events++;
				counts.mentions++;
				this.out.push({ type: 'mention', id: mentionId, mention: data });
				return;
			}
			case HEARTBEAT: {
				if (isObject(data) && typeof data.date === 'string') {
					counts.events++;
					counts.heartbeats++;
					this.out.push({ type: 'heartbeat', date: data.date, legacy: false });
				} else if (typeof data === 'string' && data.length > 0) {
					counts.events++;
					counts.heartbeats++;
					this.out.push({ type: 'heartbeat', date: data, legacy: true });
				} else {
					this.malformed(event, id, raw, 'heartbeat without a date');
				}
				return;
			}
			case ENGAGEMENT_UPDATE: {
				if (!isObject(data)) {
					this.malformed(event, id, raw, 'engagementUpdate data is not a JSON object');
					return;
				}
				counts.events++;
				counts.engagementUpdates++;
				this.out.push({ type: 'engagementUpdate', id, update: data });
				return;
			}
			default:
				counts.events++;
				counts.other++;
				this.out.push({ type: 'other', event, id, data });
		}
	}

	malformed(event: string, id: string | undefined, raw: string, reason: string): void {
		this.counts.events++;
		this.counts.malformed++;
		this.out.push({ type: 'malformed', event, id, raw, reason });
	}
}
