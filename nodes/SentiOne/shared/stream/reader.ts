/**
 * The stream reader for the SentiOne Listen API v2 streams (contract D-27 to D-32): bytes (or
 * strings) in, typed {@link StreamItem}s out.
 *
 * Two framings are served:
 * - `text/event-stream` (SSE), parsed by {@link SseParser} exactly as the WHATWG "event stream
 *   interpretation" describes;
 * - JSON lines (`application/x-ndjson`, `application/json`), one `{"event", "data", "id"}` object
 *   per line, by {@link JsonLinesParser}.
 *
 * It never holds more than the event currently being read: consumed text is released after every
 * line, and an event larger than `maxEventBytes` is skipped (not buffered) and reported as one
 * `malformed` item. JSON is parsed once per event, straight from the line.
 */
import { STREAM_ACCEPT, STREAM_MEDIA_TYPES } from '../contract';
import { StreamEvents, type StreamItem, type StreamStats } from './events';
import { JsonLinesParser } from './jsonLines';
import { eventLimit, type StreamReaderOptions, Utf8Text } from './lineBuffer';
import { SseParser } from './sse';

export type StreamFormat = keyof typeof STREAM_ACCEPT;

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
export function streamFormatFromContentType(
	contentType: string | undefined,
): StreamFormat | undefined {
	if (typeof contentType !== 'string') return undefined;
	const semicolon = contentType.indexOf(';');
	const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon))
		.trim()
		.toLowerCase();
	return FORMAT_OF_MEDIA_TYPE.get(mediaType);
}

/**
 * Bytes (or strings) in, typed items out. Decodes UTF-8 incrementally (a character split across
 * chunks survives), frames by format and parses each event's JSON once. Never throws on content:
 * unparsable or unexpected events become `malformed` items and the stream goes on.
 */
export class StreamReader {
	readonly format: StreamFormat;
	private readonly text = new Utf8Text();
	private readonly events = new StreamEvents();
	private readonly framing: SseParser | JsonLinesParser;

	constructor(format: StreamFormat, options?: StreamReaderOptions) {
		if (format !== 'sse' && format !== 'jsonLines')
			throw new TypeError(`Unknown stream format: ${String(format)}`);
		this.format = format;
		const limit = eventLimit(options);
		const events = this.events;
		this.framing =
			format === 'sse'
				? new SseParser(
						{
							onEvent: (e) => events.sse(e),
							onRetry: (ms) => {
								events.counts.retryMs = ms;
							},
							onOversize: (e) => events.sseOversize(e),
						},
						{ maxEventBytes: limit.max },
					)
				: new JsonLinesParser(events, limit);
	}

	/** A snapshot of the counters */
	get stats(): StreamStats {
		return { bytes: this.text.bytes, ...this.events.counts };
	}

	/** Characters currently held for an incomplete line/event (bounded by the largest event) */
	get bufferedBytes(): number {
		return this.framing.bufferedLength;
	}

	push(chunk: Uint8Array | string): StreamItem[] {
		const text = this.text.decode(chunk);
		const out: StreamItem[] = [];
		this.events.out = out;
		if (text.length > 0) this.framing.feed(text);
		this.events.out = [];
		return out;
	}

	/**
	 * End of stream: flushes the decoder; a final JSON line without a line break is still read, an
	 * unterminated SSE event is dropped (per the SSE spec). A skipped, too large event is reported.
	 */
	end(): StreamItem[] {
		const rest = this.text.flush();
		const out: StreamItem[] = [];
		this.events.out = out;
		if (rest.length > 0) this.framing.feed(rest);
		this.framing.end();
		this.events.out = [];
		return out;
	}
}
