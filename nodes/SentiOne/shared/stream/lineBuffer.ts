/**
 * What both stream framings (SSE and JSON lines) share: the size limit, UTF-8 decoding of the
 * chunks as they arrive, and one buffer for the line a chunk leaves unterminated.
 *
 * The unterminated line at the end of a chunk is kept as a list of fragments (never re-scanned,
 * never concatenated per chunk) and joined once, when its line break arrives: an event spread over
 * many small chunks costs one join. A line that grows past the limit is not buffered: from then on
 * it is skipped to its end, and only its first characters are kept, for diagnosis.
 */

export const LF = 10;
export const CR = 13;
export const SPACE = 32;
const BOM = 0xfeff;

const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** How much of a skipped (too large) event is kept for diagnosis */
const OVERSIZE_SAMPLE_CHARS = 256;

export interface StreamReaderOptions {
	/**
	 * Largest event accepted, default 16 MiB. Measured in UTF-16 code units of decoded text, which
	 * never exceeds the event's UTF-8 byte count. For SSE it bounds the joined `data` of an event and
	 * every single line; for JSON lines it bounds each line (without its line break).
	 */
	maxEventBytes?: number;
}

/** The limit of a stream's events, checked once for the reader and its framing. */
export interface EventLimit {
	max: number;
	/** Length of the sample kept from a skipped event: never more than is held when the limit trips, so it does not depend on the chunking */
	sampleChars: number;
}

export function eventLimit(options: StreamReaderOptions | undefined): EventLimit {
	let max = options?.maxEventBytes;
	if (max === undefined) max = DEFAULT_MAX_EVENT_BYTES;
	else if (typeof max !== 'number' || Number.isNaN(max) || max < 0) {
		throw new RangeError('maxEventBytes must be a non-negative number');
	}
	return { max, sampleChars: Math.min(OVERSIZE_SAMPLE_CHARS, max) };
}

/** The first `n` characters of `parts` followed by `last`, without joining everything */
function prefixOf(parts: string[], last: string, n: number): string {
	let out = '';
	for (let i = 0; i < parts.length && out.length < n; i++) out += parts[i].slice(0, n - out.length);
	if (out.length < n) out += last.slice(0, n - out.length);
	return out;
}

/**
 * The line left open at the end of a chunk, for a framing that scans each chunk in place. A
 * framing calls {@link start} on every chunk, {@link close} when the held line's break arrives and
 * {@link hold} for the rest of a chunk after its last line break.
 */
export class LineBuffer {
	/** Characters held */
	length = 0;
	/** The held line went over the limit: it is being skipped to its end */
	skipping = false;

	private parts: string[] = [];
	private sample = '';
	private started = false;

	/**
	 * @param limit the longest line that may be held; a framing whose line break may still add a
	 * character that is not part of the line (JSON lines: a CR before the LF) passes one more
	 */
	constructor(
		private readonly limit: number,
		private readonly sampleChars: number,
	) {}

	/** A line is left open by earlier chunks (held, or being skipped) */
	get open(): boolean {
		return this.length > 0 || this.skipping;
	}

	/** Where the text of `chunk` starts: after the one U+FEFF that may open the stream */
	start(chunk: string): number {
		if (this.started) return 0;
		this.started = true;
		return chunk.charCodeAt(0) === BOM ? 1 : 0;
	}

	/**
	 * Holds `chunk` from `pos` to `n` (its end) as part of the open line. Returns `true` when that
	 * makes the line too long: nothing of it is held any more, its first characters are kept for
	 * {@link takeSample}, and the rest of it is skipped.
	 */
	hold(chunk: string, pos: number, n: number): boolean {
		if (this.skipping) return false;
		const length = this.length + n - pos;
		if (length > this.limit) {
			this.sample = prefixOf(
				this.parts,
				chunk.slice(pos, pos + this.sampleChars),
				this.sampleChars,
			);
			this.parts = [];
			this.length = 0;
			this.skipping = true;
			return true;
		}
		this.parts.push(pos === 0 ? chunk : chunk.slice(pos));
		this.length = length;
		return false;
	}

	/**
	 * Ends the open line with `chunk` from `pos` to `end` (its line break, or the end of the
	 * stream): the whole line, or `undefined` when it was skipped as too long (see {@link takeSample}).
	 */
	close(chunk: string, pos: number, end: number): string | undefined {
		if (this.skipping) {
			this.skipping = false;
			return undefined;
		}
		this.parts.push(chunk.slice(pos, end));
		const line = this.parts.join('');
		this.parts = [];
		this.length = 0;
		return line;
	}

	/** The first characters of the line that went over the limit (at most `sampleChars`) */
	takeSample(): string {
		const sample = this.sample;
		this.sample = '';
		return sample;
	}

	/** Forgets the open line (end of stream) */
	clear(): void {
		this.parts = [];
		this.length = 0;
		this.skipping = false;
		this.sample = '';
	}
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
 * Chunks (bytes or strings) in, text out, and the stream's size in bytes. Bytes are decoded with
 * one streaming decoder, once per chunk (a character split across chunks survives); a U+FEFF is
 * kept for the framing, which strips the first one.
 */
export class Utf8Text {
	/** Bytes pushed (UTF-8 length for strings) */
	bytes = 0;
	private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
	private pending = false;
	private highSurrogateLast = false;

	decode(chunk: Uint8Array | string): string {
		if (typeof chunk !== 'string') {
			this.highSurrogateLast = false;
			this.bytes += chunk.byteLength;
			this.pending = true;
			return this.decoder.decode(chunk, { stream: true });
		}
		if (chunk.length > 0) {
			this.bytes += utf8Length(chunk);
			// A surrogate pair split between two string chunks was counted 3 + 3 bytes, not 4.
			const first = chunk.charCodeAt(0);
			if (this.highSurrogateLast && first >= 0xdc00 && first < 0xe000) this.bytes -= 2;
			const last = chunk.charCodeAt(chunk.length - 1);
			this.highSurrogateLast = last >= 0xd800 && last < 0xdc00;
		}
		// Bytes then a string: an incomplete character left by the bytes is flushed (as U+FFFD).
		return this.pending ? this.flush() + chunk : chunk;
	}

	/** The end of the bytes: an incomplete character left by them, as U+FFFD */
	flush(): string {
		if (!this.pending) return '';
		this.pending = false;
		return this.decoder.decode();
	}
}
