/**
 * A generic, incremental parser for `text/event-stream` text, following the WHATWG "event stream
 * interpretation". It knows nothing of SentiOne's events (see `events.ts`).
 *
 * Scanning is linear in the input and works on each chunk in place:
 * - line ends are found with `indexOf('\n')` and `indexOf('\r')`, each search starting where the
 *   previous one ended, and a found position is reused until the scan passes it (a chunk without
 *   CR costs one CR search; after the last CR of a chunk the loop only looks for LF), so every
 *   character is looked at no more than twice;
 * - lines are handled as (chunk, start, end) ranges; only the values are sliced out;
 * - the unterminated line at the end of a chunk goes to the {@link LineBuffer};
 * - a CR at the end of a chunk ends its line at once; a LF at the start of the next chunk is skipped.
 */
import { eventLimit, LF, LineBuffer, SPACE, type StreamReaderOptions } from './lineBuffer';

const COLON = 58;
const ASCII_DIGITS = /^[0-9]+$/;

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
	private readonly sampleChars: number;
	private readonly partial: LineBuffer;

	/** The previous chunk ended with CR: a LF at the start of the next chunk belongs to it */
	private skipLF = false;

	private data = '';
	private hasData = false;
	private eventName = '';
	private id: string | undefined = undefined;
	private lastId = '';
	/** The current block went over `max`: its data is dropped, it is reported at its end */
	private oversized = false;
	private sample = '';

	constructor(handlers: SseParserHandlers, options?: StreamReaderOptions) {
		this.onEvent = handlers.onEvent;
		this.onRetry = handlers.onRetry;
		this.onComment = handlers.onComment;
		this.onOversize = handlers.onOversize;
		const limit = eventLimit(options);
		this.max = limit.max;
		this.sampleChars = limit.sampleChars;
		this.partial = new LineBuffer(limit.max, limit.sampleChars);
	}

	/** The WHATWG "last event ID": the latest `id` field seen, kept across events ('' if none or reset) */
	get lastEventId(): string {
		return this.lastId;
	}

	/** Characters held for the unterminated line and the event being read */
	get bufferedLength(): number {
		return (
			this.partial.length +
			this.data.length +
			this.eventName.length +
			(this.id === undefined ? 0 : this.id.length)
		);
	}

	/**
	 * The hot loop of the stream reader: every byte of an SSE stream passes through here. It is
	 * longer than it would need to be because the common cases (LF-only line breaks, a one-line
	 * `data` event followed by its blank line) have paths of their own.
	 */
	feed(chunk: string): void {
		const n = chunk.length;
		if (n === 0) return;
		const partial = this.partial;
		let pos = partial.start(chunk);
		if (this.skipLF) {
			this.skipLF = false;
			if (chunk.charCodeAt(pos) === LF) pos++;
		}
		let lf = chunk.indexOf('\n', pos);
		let cr = chunk.indexOf('\r', pos);

		if (partial.open) {
			// Finish the line left open by earlier chunks.
			const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
			if (end === -1) {
				this.holdPartial(chunk, pos, n);
				return;
			}
			const line = partial.close(chunk, pos, end);
			if (line !== undefined) this.lineOrCheck(line, 0, line.length, true);
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
		if (this.oversized || this.partial.skipping) {
			this.oversized = true;
			this.dispatch();
		}
		this.partial.clear();
		this.skipLF = false;
		this.data = '';
		this.hasData = false;
		this.eventName = '';
		this.id = undefined;
		this.sample = '';
	}

	private holdPartial(chunk: string, pos: number, n: number): void {
		if (this.partial.hold(chunk, pos, n)) this.trip(this.partial.takeSample());
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
		else if (checkLength && end - start > this.max)
			this.trip(s.slice(start, Math.min(end, start + this.sampleChars)));
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
				if (ASCII_DIGITS.test(value) && this.onRetry !== undefined)
					this.onRetry(parseInt(value, 10));
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
