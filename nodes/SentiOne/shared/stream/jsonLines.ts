/**
 * JSON lines framing (`application/x-ndjson`, `application/json`, contract D-27): one
 * `{"event", "data", "id"}` object per line, lines ending at LF (a CR before it is dropped), one
 * leading U+FEFF stripped, blank lines skipped; a final line without a line break is still read.
 * Each line is parsed once, straight from the chunk it arrived in.
 */
import { EVENT_KINDS } from '../contract';
import { errorMessage, idOf, isObject, type StreamEvents, TOO_LARGE } from './events';
import { CR, type EventLimit, LineBuffer, SPACE } from './lineBuffer';
import { readJson } from '../json';

const TAB = 9;

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

export class JsonLinesParser {
	private readonly max: number;
	private readonly sampleChars: number;
	private readonly partial: LineBuffer;

	constructor(
		private readonly events: StreamEvents,
		limit: EventLimit,
	) {
		this.max = limit.max;
		this.sampleChars = limit.sampleChars;
		// `max + 1`: a held line may still end with a CR that is not part of it.
		this.partial = new LineBuffer(limit.max + 1, limit.sampleChars);
	}

	/** Characters held for the unterminated line */
	get bufferedLength(): number {
		return this.partial.length;
	}

	feed(chunk: string): void {
		const n = chunk.length;
		const partial = this.partial;
		let pos = partial.start(chunk);
		let lf = chunk.indexOf('\n', pos);
		if (partial.open) {
			if (lf === -1) {
				partial.hold(chunk, pos, n);
				return;
			}
			const line = partial.close(chunk, pos, lf);
			if (line === undefined) this.skipped();
			else this.line(line, 0, line.length);
			pos = lf + 1;
			lf = chunk.indexOf('\n', pos);
		}
		while (lf !== -1) {
			this.line(chunk, pos, lf);
			pos = lf + 1;
			lf = chunk.indexOf('\n', pos);
		}
		if (pos < n) partial.hold(chunk, pos, n);
	}

	/** End of stream: a final line without a line break is read; a skipped, too large one reported */
	end(): void {
		if (!this.partial.open) return;
		const line = this.partial.close('', 0, 0);
		if (line === undefined) this.skipped();
		else this.line(line, 0, line.length);
	}

	/** The line that was too long to hold has ended */
	private skipped(): void {
		this.events.malformed('', undefined, this.partial.takeSample(), TOO_LARGE);
	}

	/** One line: `s` from `start` (inclusive) to `end` (exclusive, its LF or the end of `s`) */
	private line(s: string, start: number, end: number): void {
		if (end > start && s.charCodeAt(end - 1) === CR) end--;
		if (end === start) return;
		if (end - start > this.max) {
			this.events.malformed(
				'',
				undefined,
				s.slice(start, Math.min(end, start + this.sampleChars)),
				TOO_LARGE,
			);
			return;
		}
		const line = s.slice(start, end);
		const c0 = line.charCodeAt(0);
		if ((c0 === SPACE || c0 === TAB) && line.trim() === '') return;
		let parsed: unknown;
		try {
			parsed = readJson(line);
		} catch (error) {
			// a line cut short: keep what can be read with confidence, so the event can be named
			const salvaged = salvageEnvelope(line);
			this.events.malformed(
				salvaged.event,
				salvaged.id,
				line,
				`invalid JSON: ${errorMessage(error)}`,
			);
			return;
		}
		if (!isObject(parsed)) {
			this.events.malformed('', undefined, line, 'line is not a JSON object');
			return;
		}
		const event = parsed.event;
		if (typeof event === 'string') {
			this.events.parsed(event, parsed.data, idOf(parsed.id), line);
		} else if (event === undefined && parsed.id !== undefined && parsed.content !== undefined) {
			// a bare mention, without the envelope
			this.events.parsed(EVENT_KINDS.mention, parsed, undefined, line);
		} else if (event === undefined) {
			this.events.malformed('', idOf(parsed.id), line, 'line has no "event" field');
		} else {
			this.events.malformed('', idOf(parsed.id), line, '"event" is not a string');
		}
	}
}
