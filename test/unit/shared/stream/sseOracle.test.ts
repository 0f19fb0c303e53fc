/**
 * SseParser against `eventsource-parser` 3.1.1 as an oracle, on random streams and random chunkings.
 *
 * Where the oracle and the WHATWG "event stream interpretation" differ, and what we chose:
 *
 * 1. `id`. WHATWG keeps a *last event ID buffer* that survives dispatches (an event without an `id`
 *    field inherits the previous one's). The oracle reports the `id` field of the current block only,
 *    resetting it at every blank line. Our contract (SseEvent.id = "the id field of this event
 *    block") is the oracle's; the sticky WHATWG value is available as `SseParser.lastEventId`.
 *    Both report `id: ''` for an empty `id:` field and ignore an `id` containing U+0000.
 *    No divergence on any stream.
 * 2. `event`. The oracle reports `undefined` where WHATWG says `message` (no or empty `event`
 *    field); we report `'message'`. The harness maps the oracle's `undefined` to `'message'`.
 * 3. BOM. The oracle strips a BOM only when the first chunk starts with the three characters
 *    0xEF 0xBB 0xBF (UTF-8 bytes mis-decoded as Latin-1); a correctly decoded U+FEFF is kept and
 *    becomes part of the first field name. WHATWG strips one U+FEFF (the UTF-8 decode step does),
 *    and so do we. The harness therefore gives the oracle text whose one leading BOM has already
 *    been removed — the way the oracle is meant to be used, behind a decoder — and our parser the
 *    BOM-preserving text, so the stripping is done by our code and compared.
 * 4. A CR that ends a chunk. The oracle holds back a line ending in CR at the end of a chunk
 *    (waiting for a possible LF) until a later chunk contains a CR or LF; a chunk without line
 *    breaks is just appended to it. When the stream ends first, that complete line is never
 *    interpreted: a `retry`, a comment, or the blank line that dispatches the last event is lost
 *    (its `reset({consume: true})` would parse the held text as one line *including* the CR).
 *    WHATWG interprets a line at its CR, and so do we (a LF at the start of the next chunk is then
 *    skipped: CRLF split across chunks is one line break). The harness gives the oracle the stream
 *    without its unterminated last line (which neither parser interprets) and with one extra LF
 *    after a final CR (pairing with it into one CRLF break), which changes nothing else.
 * 5. End of stream. Both drop an unterminated final event (we never call the oracle's
 *    `reset({consume: true})`).
 *
 * Within those adjustments the generated streams cover every construct (comments, unknown fields,
 * lines without colon, `retry` valid/invalid, mixed CR/LF/CRLF, BOM, NUL, multi-byte text) and the
 * sequences of events, retries and comments must be identical.
 */
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';

import { SseParser } from '../../../../nodes/SentiOne/shared/stream';
import { cutPoints, encoder, lineText, splitAt } from '../../../support/streams';

type Log = Array<
	['event', string, string, string | undefined] | ['retry', number] | ['comment', string]
>;

function runOurs(chunks: string[]): { log: Log; lastEventId: string } {
	const log: Log = [];
	const parser = new SseParser({
		onEvent: (e) => log.push(['event', e.event, e.data, e.id]),
		onRetry: (ms) => log.push(['retry', ms]),
		onComment: (text) => log.push(['comment', text]),
	});
	for (const chunk of chunks) parser.feed(chunk);
	parser.end();
	return { log, lastEventId: parser.lastEventId };
}

function runOracle(chunks: string[]): Log {
	const log: Log = [];
	const parser = createParser({
		onEvent: (e) => log.push(['event', e.event ?? 'message', e.data, e.id]),
		onRetry: (ms) => log.push(['retry', ms]),
		onComment: (text) => log.push(['comment', text]),
	});
	for (const chunk of oracleView(chunks)) parser.feed(chunk);
	return log;
}

/** Divergence 4: the chunks without the unterminated last line, plus a LF after a final CR */
function oracleView(chunks: string[]): string[] {
	let end = -1;
	for (let i = chunks.length - 1; i >= 0 && end === -1; i--) {
		const at = Math.max(chunks[i].lastIndexOf('\n'), chunks[i].lastIndexOf('\r'));
		if (at !== -1) end = i;
	}
	if (end === -1) return [];
	const view = chunks.slice(0, end + 1);
	const last = view[end];
	const cut = Math.max(last.lastIndexOf('\n'), last.lastIndexOf('\r')) + 1;
	view[end] = last.slice(0, cut);
	if (view[end].endsWith('\r')) view.push('\n');
	return view;
}

/**
 * Decodes byte chunks with a streaming decoder, one string per chunk. With `stripBOM`, one leading
 * U+FEFF is removed, as the UTF-8 decode of the Encoding standard does. (Node's own
 * `new TextDecoder()` is not used for that: in stream mode, when the first BOM is split across
 * chunks, Node 24 strips a second BOM too — `EF | BB BF EF BB BF 65` decodes to `e`.)
 */
function decodeChunks(chunks: Uint8Array[], stripBOM: boolean): string[] {
	const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
	const out = chunks.map((c) => decoder.decode(c, { stream: true }));
	out.push(decoder.decode());
	if (stripBOM) {
		const first = out.findIndex((c) => c.length > 0);
		if (first !== -1 && out[first].charCodeAt(0) === 0xfeff) out[first] = out[first].slice(1);
	}
	return out;
}

const sep = fc.constantFrom(':', ': ', ':  ');
const fieldName = fc.constantFrom(
	'data',
	'event',
	'id',
	'retry',
	'Data',
	'EVENT',
	'dat',
	'datas',
	'ids',
	'x',
	'foo',
	'retry2',
	'ł',
);
const eventName = fc.oneof(
	fc.constantFrom('', 'mention', 'heartbeat', 'engagementUpdate', 'message', 'zdarzenie-ż', 'ev 1'),
	lineText(8),
);

/** One SSE line, without its line break */
const line: fc.Arbitrary<string> = fc.oneof(
	{ weight: 6, arbitrary: fc.tuple(sep, lineText(16)).map(([s, v]) => 'data' + s + v) },
	{ weight: 3, arbitrary: fc.tuple(sep, eventName).map(([s, v]) => 'event' + s + v) },
	{ weight: 3, arbitrary: fc.tuple(sep, lineText(6)).map(([s, v]) => 'id' + s + v) },
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				sep,
				fc.oneof(
					fc.nat({ max: 100000 }).map(String),
					fc.constantFrom(
						'',
						'12a',
						'-5',
						' 5',
						'1.5',
						'１２',
						'0x10',
						'007',
						'99999999999999999999',
					),
				),
			)
			.map(([s, v]) => 'retry' + s + v),
	},
	{ weight: 2, arbitrary: lineText(10).map((v) => ':' + v) },
	{ weight: 2, arbitrary: fc.tuple(fieldName, sep, lineText(6)).map(([f, s, v]) => f + s + v) },
	{ weight: 2, arbitrary: fc.oneof(fieldName, lineText(6)) }, // a line without colon (or random text)
	{ weight: 4, arbitrary: fc.constant('') }, // blank line: dispatch
);
const lineBreak = fc.constantFrom('\n', '\n', '\r', '\r\n');

/** A random SSE stream */
const sseStream: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', '', '', '\uFEFF', '\uFEFF\uFEFF'),
		fc.array(fc.tuple(line, lineBreak), { maxLength: 40 }),
		fc.constantFrom('', '\n', '\r', '\r\n', '\n\n', 'data: tail'),
	)
	.map(([bom, lines, tail]) => bom + lines.map(([l, b]) => l + b).join('') + tail);

describe('SseParser against eventsource-parser (oracle)', () => {
	it('produces the same events, retries and comments for random streams and random string chunkings', () => {
		fc.assert(
			fc.property(
				sseStream.chain((text) => fc.tuple(fc.constant(text), cutPoints(text.length))),
				([text, cuts]) => {
					const chunks = splitAt(text, cuts);
					// Divergence 3: the oracle does not strip a decoded U+FEFF; give it the stream without it.
					const oracleText = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
					const oracleChunks = splitAt(
						oracleText,
						cuts.map((c) => (oracleText === text ? c : c - 1)).filter((c) => c > 0),
					);
					expect(runOurs(chunks).log).toEqual(runOracle(oracleChunks));
					// and the same as in one piece
					expect(runOurs(chunks).log).toEqual(runOurs([text]).log);
				},
			),
			{ numRuns: 2500 },
		);
	});

	it('produces the same events for random byte chunkings (cuts inside multi-byte characters and CRLF pairs)', () => {
		fc.assert(
			fc.property(
				sseStream
					.map((text) => encoder.encode(text))
					.chain((bytes) => fc.tuple(fc.constant(bytes), cutPoints(bytes.length))),
				([bytes, cuts]) => {
					const byteChunks = splitAt(bytes, cuts);
					const ours = runOurs(decodeChunks(byteChunks, false));
					const oracle = runOracle(decodeChunks(byteChunks, true).filter((c) => c.length > 0));
					expect(ours.log).toEqual(oracle);
				},
			),
			{ numRuns: 2500 },
		);
	});

	it('agrees on streams close to the SentiOne format', () => {
		const event = fc
			.tuple(
				fc.constantFrom('mention', 'heartbeat', 'engagementUpdate', 'somethingNew'),
				fc.array(lineText(30), { minLength: 1, maxLength: 3 }),
				fc.option(lineText(8)),
				lineBreak,
			)
			.map(
				([kind, data, id, br]) =>
					[
						'event: ' + kind,
						...data.map((d) => 'data: ' + d),
						...(id === null ? [] : ['id: ' + id]),
						'',
					].join(br) + br,
			);
		fc.assert(
			fc.property(
				fc
					.array(event, { maxLength: 12 })
					.map((events) => events.join(''))
					.chain((text) => fc.tuple(fc.constant(text), cutPoints(text.length))),
				([text, cuts]) => {
					const chunks = splitAt(text, cuts);
					expect(runOurs(chunks).log).toEqual(runOracle(chunks));
				},
			),
			{ numRuns: 1000 },
		);
	});

	describe('documented divergences', () => {
		it('reports the id of the block, and the WHATWG last event ID separately', () => {
			const text =
				'id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid\ndata: d\n\nid: x\0y\ndata: e\n\n';
			const { log, lastEventId } = runOurs([text]);
			expect(log).toEqual([
				['event', 'message', 'a', '1'],
				['event', 'message', 'b', undefined],
				['event', 'message', 'c', undefined],
				['event', 'message', 'd', ''],
				['event', 'message', 'e', undefined],
			]);
			expect(runOracle([text])).toEqual(log);
			expect(lastEventId).toBe(''); // WHATWG: `id` with an empty value resets it; `x\0y` is ignored
		});

		it('strips one decoded BOM (the oracle does not)', () => {
			expect(runOurs(['\uFEFFdata: a\n\n']).log).toEqual([['event', 'message', 'a', undefined]]);
			expect(runOurs(['\uFEFF\uFEFFdata: a\n\ndata: b\n\n']).log).toEqual([
				['event', 'message', 'b', undefined],
			]);
			expect(runOurs(['', '\uFEFF', 'data: a\n\n']).log).toEqual([
				['event', 'message', 'a', undefined],
			]);
			expect(runOurs(['data: a\n\n\uFEFFdata: b\n\n']).log).toEqual([
				['event', 'message', 'a', undefined],
			]);
		});

		it('treats a CR at the end of the stream as a line break', () => {
			expect(runOurs(['data: x\n\r']).log).toEqual([['event', 'message', 'x', undefined]]);
			expect(runOurs(['data: x\r', '\r']).log).toEqual([['event', 'message', 'x', undefined]]);
			// one line break when CR and LF arrive in different chunks
			expect(runOurs(['data: x\r', '\ndata: y\r', '\n\r', '\n']).log).toEqual([
				['event', 'message', 'x\ny', undefined],
			]);
			expect(runOurs(['retry: 10000\r', 'data: tail']).log).toEqual([['retry', 10000]]);
			// The raw oracle (eventsource-parser 3.1.1) misses both:
			const raw: unknown[] = [];
			const oracle = createParser({ onEvent: (e) => raw.push(e), onRetry: (ms) => raw.push(ms) });
			oracle.feed('data: x\n\r');
			oracle.reset();
			oracle.feed('retry: 10000\r');
			oracle.feed('data: tail');
			expect(raw).toEqual([]);
		});
	});
});
