/**
 * Stream reader for the SentiOne Listen API v2 streams (contract D-27 to D-32).
 *
 * Two framings are served:
 * - `text/event-stream` (SSE), parsed by {@link SseParser} exactly as the WHATWG
 *   "event stream interpretation" describes;
 * - JSON lines (`application/x-ndjson`, `application/json`), one `{"event", "data", "id"}` object per line.
 *
 * {@link StreamReader} turns bytes (or strings) into typed {@link StreamItem}s. It never holds more
 * than the event currently being read: consumed text is released after every line, and an event
 * larger than `maxEventBytes` is skipped (not buffered) and reported as one `malformed` item.
 *
 * Scanning is linear in the input and works on each chunk in place:
 * - line ends are found with `indexOf('\n')` and `indexOf('\r')`, each search starting where the
 *   previous one ended, and a found position is reused until the scan passes it (a chunk without
 *   CR costs one CR search; after the last CR of a chunk the loop only looks for LF), so every
 *   character is looked at no more than twice;
 * - lines are handled as (chunk, start, end) ranges; only the values are sliced out;
 * - the unterminated line at the end of a chunk is kept as a list of fragments (never re-scanned,
 *   never concatenated per chunk) and joined once, when its line break arrives — an event spread
 *   over many small chunks costs one join;
 * - a CR at the end of a chunk ends its line at once; a LF at the start of the next chunk is skipped;
 * - JSON is parsed once per event, straight from the line.
 */
import type { IDataObject } from 'n8n-workflow';

import { EVENT_KINDS, STREAM_ACCEPT, STREAM_MEDIA_TYPES } from './contract';

export type StreamFormat = keyof typeof STREAM_ACCEPT;

const { mention: MENTION, heartbeat: HEARTBEAT, engagementUpdate: ENGAGEMENT_UPDATE } = EVENT_KINDS;

const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** How much of a skipped (too large) event is kept in the `malformed` item's `raw`, for diagnosis */
const OVERSIZE_SAMPLE_CHARS = 256;
const TOO_LARGE = 'event too large';

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

const FORMAT_OF_MEDIA_TYPE = new Map<string, StreamFormat>();
for (const format of ['sse', 'jsonLines'] as const) {
	for (const mediaType of STREAM_MEDIA_TYPES[format]) FORMAT_OF_MEDIA_TYPE.set(mediaType, format);
}

/**
 * `'sse'` for `text/event-stream`; `'jsonLines'` for `application/x-ndjson`, `application/json`,
 * `application/jsonl`, `application/x-jsonlines`, `application/json-seq` and the like
 * (`STREAM_MEDIA_TYPES`). Media type parameters (`; charset=utf-8`) and case are ignored.
 * `undefined` for anything else.
 */
export function streamFormatFromContentType(contentType: string | undefined): StreamFormat | undefined {
	if (typeof contentType !== 'string') return undefined;
	const semicolon = contentType.indexOf(';');
	const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
	return FORMAT_OF_MEDIA_TYPE.get(mediaType);
}

/** One raw SSE event as the WHATWG EventSource algorithm dispatches it */
export interface SseEvent {
	/** `'message'` when the block has no (or an empty) `event` field */
	event: string;
	data: string;
	/**
	 * The `id` field of this event block, if any (the last one without U+0000 wins). Unlike the
	 * WHATWG `lastEventId`, it does not carry over to later blocks; see {@link SseParser.lastEventId}.
	 */
	id?: string;
}

/** An event block that was skipped because it was larger than `maxEventBytes` */
export interface SseOversizedEvent {
	event: string;
	id?: string;
	/** The first characters of the discarded text (at most 256), for diagnosis */
	sample: string;
}

export interface SseParserHandlers {
	onEvent: (e: SseEvent) => void;
	onRetry?: (ms: number) => void;
	/** The comment text after the `:` and one optional space */
	onComment?: (text: string) => void;
	/** A block whose data (or one of whose lines) exceeded `maxEventBytes`; nothing of it was dispatched */
	onOversize?: (e: SseOversizedEvent) => void;
}

export interface StreamReaderOptions {
	/**
	 * Largest event accepted, default 16 MiB. Measured in UTF-16 code units of decoded text, which
	 * never exceeds the event's UTF-8 byte count. For SSE it bounds the joined `data` of an event and
	 * every single line; for JSON lines it bounds each line (without its line break).
	 */
	maxEventBytes?: number;
}

function normaliseMax(options: StreamReaderOptions | undefined): number {
	const max = options?.maxEventBytes;
	if (max === undefined) return DEFAULT_MAX_EVENT_BYTES;
	if (typeof max !== 'number' || Number.isNaN(max) || max < 0) {
		throw new RangeError('maxEventBytes must be a non-negative number');
	}
	return max;
}

const ASCII_DIGITS = /^[0-9]+$/;

/** `s` has `data:` at `i` */
function isDataField(s: string, i: number): boolean {
	return (
		s.charCodeAt(i + 4) === COLON &&
		s.charCodeAt(i) === 100 &&
		s.charCodeAt(i + 1) === 97 &&
		s.charCodeAt(i + 2) === 116 &&
		s.charCodeAt(i + 3) === 97
	);
}

/** The first `n` characters of `parts` followed by `last`, without joining everything */
function prefixOf(parts: string[], last: string, n: number): string {
	let out = '';
	for (let i = 0; i < parts.length && out.length < n; i++) out += parts[i].slice(0, n - out.length);
	if (out.length < n) out += last.slice(0, n - out.length);
	return out;
}

/**
 * Incremental parser for `text/event-stream` text, following the WHATWG "event stream
 * interpretation": one leading U+FEFF stripped; lines end at CRLF, LF or CR (also when the CR and
 * the LF arrive in different chunks); `:` comments; `field: value` with one optional space removed;
 * a line without a colon is a field with an empty value; `data` lines joined with `\n`; a blank line
 * dispatches (nothing when there is no data, but the block's `event` and `id` are reset); `id`
 * containing U+0000 ignored; `retry` with ASCII digits only reported; unknown fields ignored; an
 * unterminated event at the end of the stream is dropped.
 */
export class SseParser {
	private readonly onEvent: (e: SseEvent) => void;
	private readonly onRetry: ((ms: number) => void) | undefined;
	private readonly onComment: ((text: string) => void) | undefined;
	private readonly onOversize: ((e: SseOversizedEvent) => void) | undefined;
	private readonly max: number;
	/** Length of the sample kept from a skipped event: never more than is held when the limit trips, so it does not depend on the chunking */
	private readonly sampleChars: number;

	private started = false;
	/** The previous chunk ended with CR: a LF at the start of the next chunk belongs to it */
	private skipLF = false;
	/** Fragments of an unterminated line, joined once its end arrives */
	private parts: string[] = [];
	private partsLen = 0;
	/** The unterminated line is longer than `max` and is being skipped to its end */
	private skippingLine = false;

	private data = '';
	private hasData = false;
	private eventName = '';
	private id: string | undefined = undefined;
	private lastId = '';
	/** The current block went over `max`: its data is dropped, it is reported at its end */
	private oversized = false;
	private sample = '';

	constructor(
		handlers: SseParserHandlers,
		options?: StreamReaderOptions,
	) {
		this.onEvent = handlers.onEvent;
		this.onRetry = handlers.onRetry;
		this.onComment = handlers.onComment;
		this.onOversize = handlers.onOversize;
		this.max = normaliseMax(options);
		this.sampleChars = Math.min(OVERSIZE_SAMPLE_CHARS, this.max);
	}

	/** The WHATWG "last event ID": the latest `id` field seen, kept across events ('' if none or reset) */
	get lastEventId(): string {
		return this.lastId;
	}

	/** Characters held for the unterminated line and the event being read */
	get bufferedLength(): number {
		return this.partsLen + this.data.length + this.eventName.length + (this.id === undefined ? 0 : this.id.length);
	}

	feed(chunk: string): void {
		const n = chunk.length;
		if (n === 0) return;
		let pos = 0;
		if (!this.started) {
			this.started = true;
			if (chunk.charCodeAt(0) === BOM) pos = 1;
		}
		if (this.skipLF) {
			this.skipLF = false;
			if (chunk.charCodeAt(pos) === LF) pos++;
		}
		let lf = chunk.indexOf('\n', pos);
		let cr = chunk.indexOf('\r', pos);

		if (this.partsLen > 0 || this.skippingLine) {
			// Finish the line left open by earlier chunks.
			const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
			if (end === -1) {
				this.holdPartial(chunk, pos, n);
				return;
			}
			if (this.skippingLine) {
				this.skippingLine = false;
			} else {
				this.parts.push(chunk.slice(pos, end));
				const line = this.parts.join('');
				this.parts = [];
				this.partsLen = 0;
				this.lineOrCheck(line, 0, line.length, true);
			}
			pos = end + 1;
			if (end === cr) {
				if (pos === n) this.skipLF = true;
				else if (chunk.charCodeAt(pos) === LF) pos++;
			}
		}

		// Lines complete within this chunk are no longer than it: only a big chunk needs the line-length check.
		const checkLength = n > this.max;
		// Mixed line breaks, until no CR is left in the chunk.
		while (cr !== -1) {
			if (lf !== -1 && lf < pos) lf = chunk.indexOf('\n', pos);
			if (cr < pos) {
				cr = chunk.indexOf('\r', pos);
				if (cr === -1) break;
			}
			if (lf !== -1 && lf < cr) {
				this.lineOrCheck(chunk, pos, lf, checkLength);
				pos = lf + 1;
			} else {
				this.lineOrCheck(chunk, pos, cr, checkLength);
				pos = cr + 1;
				if (pos === n) {
					this.skipLF = true;
					return;
				}
				if (chunk.charCodeAt(pos) === LF) pos++;
			}
		}
		// Only LF line breaks from here on: the hot loop.
		if (lf !== -1 && lf < pos) lf = chunk.indexOf('\n', pos);
		if (checkLength) {
			while (lf !== -1) {
				this.lineOrCheck(chunk, pos, lf, true);
				pos = lf + 1;
				lf = chunk.indexOf('\n', pos);
			}
		} else {
			while (lf !== -1) {
				if (lf === pos) {
					this.dispatch();
				} else if (chunk.charCodeAt(lf + 1) !== LF) {
					this.line(chunk, pos, lf);
				} else {
					// The line is followed by a blank line: dispatch without another search.
					if (!this.hasData && !this.oversized && isDataField(chunk, pos)) {
						// A one-line event's data goes straight into the event.
						const e: SseEvent = {
							event: this.eventName || 'message',
							data: chunk.slice(chunk.charCodeAt(pos + 5) === SPACE ? pos + 6 : pos + 5, lf),
							id: this.id,
						};
						this.eventName = '';
						this.id = undefined;
						this.onEvent(e);
					} else {
						this.line(chunk, pos, lf);
						this.dispatch();
					}
					lf++;
				}
				pos = lf + 1;
				lf = chunk.indexOf('\n', pos);
			}
		}
		if (pos < n) this.holdPartial(chunk, pos, n);
	}

	/** End of stream: an unterminated line and an undispatched event are discarded (a skipped, too large one is reported). */
	end(): void {
		if (this.oversized || this.skippingLine) {
			this.oversized = true;
			this.dispatch();
		}
		this.parts = [];
		this.partsLen = 0;
		this.skippingLine = false;
		this.skipLF = false;
		this.data = '';
		this.hasData = false;
		this.eventName = '';
		this.id = undefined;
		this.sample = '';
	}

	private holdPartial(chunk: string, pos: number, n: number): void {
		if (this.skippingLine) return;
		const len = this.partsLen + n - pos;
		if (len > this.max) {
			this.trip(prefixOf(this.parts, chunk.slice(pos, pos + this.sampleChars), this.sampleChars));
			this.parts = [];
			this.partsLen = 0;
			this.skippingLine = true;
			return;
		}
		this.parts.push(pos === 0 ? chunk : chunk.slice(pos));
		this.partsLen = len;
	}

	private trip(sample: string): void {
		if (!this.oversized) {
			this.oversized = true;
			this.sample = this.hasData ? this.data.slice(0, this.sampleChars) : sample;
		}
		this.data = '';
		this.hasData = false;
	}

	private lineOrCheck(s: string, start: number, end: number, checkLength: boolean): void {
		if (start === end) this.dispatch();
		else if (checkLength && end - start > this.max) this.trip(s.slice(start, Math.min(end, start + this.sampleChars)));
		else this.line(s, start, end);
	}

	/**
	 * One complete, non-empty line not longer than `max`: `s` from `start` (inclusive) to `end`
	 * (exclusive, a line break or the end of `s`).
	 */
	private line(s: string, start: number, end: number): void {
		const c0 = s.charCodeAt(start);
		if (c0 === COLON) {
			const onComment = this.onComment;
			if (onComment !== undefined) {
				onComment(s.slice(s.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end));
			}
			return;
		}
		// Hot paths: `data:`, `event:`, `id:` (a line break or the end of `s` never matches a letter,
		// a colon or a space, so looking one character past a short line is safe).
		if (c0 === 100 && isDataField(s, start)) {
			this.addData(s.slice(s.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
			return;
		}
		if (
			c0 === 101 &&
			s.charCodeAt(start + 5) === COLON &&
			s.charCodeAt(start + 1) === 118 &&
			s.charCodeAt(start + 2) === 101 &&
			s.charCodeAt(start + 3) === 110 &&
			s.charCodeAt(start + 4) === 116
		) {
			this.eventName = s.slice(s.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
			return;
		}
		if (c0 === 105 && s.charCodeAt(start + 2) === COLON && s.charCodeAt(start + 1) === 100) {
			this.setId(s.slice(s.charCodeAt(start + 3) === SPACE ? start + 4 : start + 3, end));
			return;
		}
		this.otherLine(s.slice(start, end));
	}

	/** Any other line: `retry`, unknown fields, a line without colon, `data`/`event`/`id` without colon */
	private otherLine(text: string): void {
		const colon = text.indexOf(':');
		let field: string;
		let value: string;
		if (colon === -1) {
			field = text;
			value = '';
		} else {
			field = text.slice(0, colon);
			value = text.slice(text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
		}
		switch (field) {
			case 'data':
				this.addData(value);
				break;
			case 'event':
				this.eventName = value;
				break;
			case 'id':
				this.setId(value);
				break;
			case 'retry':
				if (ASCII_DIGITS.test(value) && this.onRetry !== undefined) this.onRetry(parseInt(value, 10));
				break;
			default:
				// Unknown fields are ignored.
				break;
		}
	}

	private addData(value: string): void {
		if (this.oversized) return;
		if (!this.hasData) {
			this.data = value;
			this.hasData = true;
		} else if (this.data.length + 1 + value.length > this.max) {
			this.trip('');
		} else {
			this.data = this.data + '\n' + value;
		}
	}

	private setId(value: string): void {
		if (value.indexOf('\0') !== -1) return;
		this.id = value;
		this.lastId = value;
	}

	/** A blank line: dispatch the event (if it has data) and start a new block. State is reset before the handler runs. */
	private dispatch(): void {
		const event = this.eventName || 'message';
		const id = this.id;
		this.eventName = '';
		this.id = undefined;
		if (this.oversized) {
			const sample = this.sample;
			this.oversized = false;
			this.sample = '';
			const onOversize = this.onOversize;
			if (onOversize !== undefined) onOversize({ event, id, sample });
		} else if (this.hasData) {
			const data = this.data;
			this.data = '';
			this.hasData = false;
			this.onEvent({ event, data, id });
		}
	}
}

export type StreamItem =
	| { type: 'mention'; id: string; mention: IDataObject }
	| { type: 'heartbeat'; date: string; legacy: boolean }
	| { type: 'engagementUpdate'; id?: string; update: IDataObject }
	| { type: 'other'; event: string; id?: string; data: unknown }
	/** `raw` is the event's data (SSE) or line (JSON lines); for `event too large`, only its first 256 characters */
	| { type: 'malformed'; event: string; id?: string; raw: string; reason: string };

export interface StreamStats {
	/** Bytes pushed (UTF-8 length for strings) */
	bytes: number;
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

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `2026-11-21T10:30:00.000Z`, `2026-11-21 10:30:00+00:00`, `2026-11-21T10:30Z`, … */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function idOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

const NON_ASCII = /[\u0080-\uffff]/;

function utf8Length(s: string): number {
	const first = s.search(NON_ASCII);
	if (first === -1) return s.length;
	const n = s.length;
	let bytes = first;
	for (let i = first; i < n; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) bytes += 1;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d < 0xe000) {
				bytes += 4;
				i++;
			} else {
				bytes += 3;
			}
		} else bytes += 3;
	}
	return bytes;
}

/**
 * Bytes (or strings) in, typed items out. Decodes UTF-8 incrementally (a character split across
 * chunks survives), frames by format and parses each event's JSON once. Never throws on content:
 * unparsable or unexpected events become `malformed` items and the stream goes on.
 */
export class StreamReader {
	readonly format: StreamFormat;
	private readonly max: number;
	private readonly sampleChars: number;
	private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
	private decoderPending = false;
	private highSurrogateLast = false;
	private readonly sse: SseParser | undefined;
	private out: StreamItem[] = [];
	private readonly counts: StreamStats = {
		bytes: 0,
		events: 0,
		mentions: 0,
		heartbeats: 0,
		engagementUpdates: 0,
		other: 0,
		malformed: 0,
	};

	// JSON lines framing state
	private started = false;
	private parts: string[] = [];
	private partsLen = 0;
	private skippingLine = false;
	private skippedSample = '';

	constructor(format: StreamFormat, options?: StreamReaderOptions) {
		if (format !== 'sse' && format !== 'jsonLines') throw new TypeError(`Unknown stream format: ${String(format)}`);
		this.format = format;
		this.max = normaliseMax(options);
		this.sampleChars = Math.min(OVERSIZE_SAMPLE_CHARS, this.max);
		if (format === 'sse') {
			this.sse = new SseParser(
				{
					onEvent: (e) => this.onSseEvent(e),
					onRetry: (ms) => {
						this.counts.retryMs = ms;
					},
					onOversize: (e) => this.emitMalformed(e.event, e.id, e.sample, TOO_LARGE),
				},
				{ maxEventBytes: this.max },
			);
		}
	}

	/** A snapshot of the counters */
	get stats(): StreamStats {
		return { ...this.counts };
	}

	/** Characters currently held for an incomplete line/event (bounded by the largest event) */
	get bufferedBytes(): number {
		return this.sse !== undefined ? this.sse.bufferedLength : this.partsLen;
	}

	push(chunk: Uint8Array | string): StreamItem[] {
		let text: string;
		if (typeof chunk === 'string') {
			if (chunk.length > 0) {
				this.counts.bytes += utf8Length(chunk);
				// A surrogate pair split between two string chunks was counted 3 + 3 bytes, not 4.
				const first = chunk.charCodeAt(0);
				if (this.highSurrogateLast && first >= 0xdc00 && first < 0xe000) this.counts.bytes -= 2;
				const last = chunk.charCodeAt(chunk.length - 1);
				this.highSurrogateLast = last >= 0xd800 && last < 0xdc00;
			}
			text = chunk;
			if (this.decoderPending) {
				// Bytes then a string: an incomplete character left by the bytes is flushed (as U+FFFD).
				this.decoderPending = false;
				text = this.decoder.decode() + text;
			}
		} else {
			this.highSurrogateLast = false;
			this.counts.bytes += chunk.byteLength;
			text = this.decoder.decode(chunk, { stream: true });
			this.decoderPending = true;
		}
		const out: StreamItem[] = [];
		this.out = out;
		if (text.length > 0) this.feedText(text);
		this.out = [];
		return out;
	}

	/**
	 * End of stream: flushes the decoder; a final JSON line without a line break is still read, an
	 * unterminated SSE event is dropped (per the SSE spec). A skipped, too large event is reported.
	 */
	end(): StreamItem[] {
		const rest = this.decoderPending ? this.decoder.decode() : '';
		this.decoderPending = false;
		const out: StreamItem[] = [];
		this.out = out;
		if (rest.length > 0) this.feedText(rest);
		if (this.sse !== undefined) this.sse.end();
		else this.endLines();
		this.out = [];
		return out;
	}

	private feedText(text: string): void {
		if (this.sse !== undefined) this.sse.feed(text);
		else this.feedLines(text);
	}

	// ---- JSON lines ----

	private feedLines(chunk: string): void {
		const n = chunk.length;
		let pos = 0;
		if (!this.started) {
			this.started = true;
			if (chunk.charCodeAt(0) === BOM) pos = 1;
		}
		let lf = chunk.indexOf('\n', pos);
		if (this.partsLen > 0 || this.skippingLine) {
			if (lf === -1) {
				this.holdLine(chunk, pos, n);
				return;
			}
			if (this.skippingLine) {
				this.skippingLine = false;
				this.emitMalformed('', undefined, this.skippedSample, TOO_LARGE);
				this.skippedSample = '';
			} else {
				this.parts.push(chunk.slice(pos, lf));
				const line = this.parts.join('');
				this.parts = [];
				this.partsLen = 0;
				this.jsonLine(line, 0, line.length);
			}
			pos = lf + 1;
			lf = chunk.indexOf('\n', pos);
		}
		while (lf !== -1) {
			this.jsonLine(chunk, pos, lf);
			pos = lf + 1;
			lf = chunk.indexOf('\n', pos);
		}
		if (pos < n) this.holdLine(chunk, pos, n);
	}

	private holdLine(chunk: string, pos: number, n: number): void {
		if (this.skippingLine) return;
		const len = this.partsLen + n - pos;
		// `max + 1`: the line may still end with a CR that is not part of it.
		if (len > this.max + 1) {
			this.skippedSample = prefixOf(this.parts, chunk.slice(pos, pos + this.sampleChars), this.sampleChars);
			this.parts = [];
			this.partsLen = 0;
			this.skippingLine = true;
			return;
		}
		this.parts.push(pos === 0 ? chunk : chunk.slice(pos));
		this.partsLen = len;
	}

	private endLines(): void {
		if (this.skippingLine) {
			this.skippingLine = false;
			this.emitMalformed('', undefined, this.skippedSample, TOO_LARGE);
			this.skippedSample = '';
		} else if (this.partsLen > 0) {
			const line = this.parts.join('');
			this.parts = [];
			this.partsLen = 0;
			this.jsonLine(line, 0, line.length);
		}
	}

	private jsonLine(s: string, start: number, end: number): void {
		if (end > start && s.charCodeAt(end - 1) === CR) end--;
		if (end === start) return;
		if (end - start > this.max) {
			this.emitMalformed('', undefined, s.slice(start, Math.min(end, start + this.sampleChars)), TOO_LARGE);
			return;
		}
		const line = s.slice(start, end);
		const c0 = line.charCodeAt(0);
		if ((c0 === SPACE || c0 === 9) && line.trim() === '') return;
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch (error) {
			// a line cut short: keep what can be read with confidence, so the event can be named
			const salvaged = salvageEnvelope(line);
			this.emitMalformed(salvaged.event, salvaged.id, line, `invalid JSON: ${errorMessage(error)}`);
			return;
		}
		if (!isObject(parsed)) {
			this.emitMalformed('', undefined, line, 'line is not a JSON object');
			return;
		}
		const event = parsed.event;
		if (typeof event === 'string') {
			this.emitParsed(event, parsed.data, idOf(parsed.id), line);
		} else if (event === undefined && parsed.id !== undefined && parsed.content !== undefined) {
			this.emitParsed(MENTION, parsed, undefined, line);
		} else if (event === undefined) {
			this.emitMalformed('', idOf(parsed.id), line, 'line has no "event" field');
		} else {
			this.emitMalformed('', idOf(parsed.id), line, '"event" is not a string');
		}
	}

	// ---- SSE ----

	private onSseEvent(e: SseEvent): void {
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
				parsed = JSON.parse(data);
			} catch (error) {
				this.emitMalformed(event, e.id, data, `invalid JSON: ${errorMessage(error)}`);
				return;
			}
			this.emitParsed(event, parsed, e.id, data);
			return;
		}
		let value: unknown = data;
		try {
			value = JSON.parse(data);
		} catch {
			// Not JSON: unknown kinds pass through with their raw text.
			value = data;
		}
		this.emitParsed(event, value, e.id, data);
	}

	// ---- mapping ----

	private emitParsed(event: string, data: unknown, id: string | undefined, raw: string): void {
		const counts = this.counts;
		switch (event) {
			case MENTION: {
				if (!isObject(data)) {
					this.emitMalformed(event, id, raw, 'mention data is not a JSON object');
					return;
				}
				const mentionId = idOf(data.id) ?? id;
				if (mentionId === undefined) {
					this.emitMalformed(event, id, raw, 'mention has no id');
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
					this.emitMalformed(event, id, raw, 'heartbeat without a date');
				}
				return;
			}
			case ENGAGEMENT_UPDATE: {
				if (!isObject(data)) {
					this.emitMalformed(event, id, raw, 'engagementUpdate data is not a JSON object');
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

	private emitMalformed(event: string, id: string | undefined, raw: string, reason: string): void {
		this.counts.events++;
		this.counts.malformed++;
		this.out.push({ type: 'malformed', event, id, raw, reason });
	}
}

const SALVAGE_EVENT = /^\s*\{\s*"event"\s*:\s*"([A-Za-z][\w-]*)"/;
const SALVAGE_DATA_ID = /"data"\s*:\s*\{\s*"id"\s*:\s*"([^"\\]{1,200})"/;
const SALVAGE_ENVELOPE_ID = /,\s*"id"\s*:\s*"([^"\\]{1,200})"\s*\}\s*$/;

/**
 * The event kind and id of a JSON line that does not parse, read only where they stand in the
 * documented envelope `{"event": …, "data": {"id": …, …}, "id": …}`; anything less certain is left
 * undefined rather than guessed.
 */
function salvageEnvelope(line: string): { event: string; id?: string } {
	const event = SALVAGE_EVENT.exec(line)?.[1] ?? '';
	const id = SALVAGE_DATA_ID.exec(line)?.[1] ?? SALVAGE_ENVELOPE_ID.exec(line)?.[1];
	return { event, id };
}
