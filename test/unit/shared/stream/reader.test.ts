/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
import { Readable } from 'node:stream';

import {
	SseParser,
	StreamReader,
	streamFormatFromContentType,
	type SseEvent,
	type StreamItem,
} from '../../../../nodes/SentiOne/shared/stream';
import {
	encoder,
	readAll,
	readStreamItems,
	sampleMention,
	splitEvery,
} from '../../../support/streams';

const mention1 = sampleMention('m1', 'Świetna obsługa 🎉');
const mention2 = sampleMention('m2', 'Zażółć gęślą jaźń');
const heartbeatDate = '2026-11-21T10:30:00.000Z';
const update = {
	mentionId: 'm1',
	engagementMetrics: { likes: 3, shares: 1 },
	updatedAt: '2026-11-21T10:31:00.000Z',
};

function omitId(m: Record<string, unknown>): Record<string, unknown> {
	const copy = { ...m };
	delete copy.id;
	return copy;
}

function sseEvent(event: string, data: string, id?: string): string {
	return `event: ${event}\ndata: ${data}\n${id === undefined ? '' : `id: ${id}\n`}\n`;
}

function jsonLine(event: string, data: unknown, id?: string): string {
	return JSON.stringify({ event, data, id }) + '\n';
}

describe('streamFormatFromContentType', () => {
	it.each([
		['text/event-stream', 'sse'],
		['text/event-stream; charset=utf-8', 'sse'],
		['Text/Event-Stream ;charset=UTF-8', 'sse'],
		['application/x-ndjson', 'jsonLines'],
		['application/x-ndjson; charset=utf-8', 'jsonLines'],
		['application/json', 'jsonLines'],
		['application/json;charset=utf-8', 'jsonLines'],
		['  APPLICATION/JSON  ', 'jsonLines'],
		['application/jsonl', 'jsonLines'],
		['application/x-jsonlines', 'jsonLines'],
		['application/ndjson', 'jsonLines'],
		['text/html', undefined],
		['text/plain', undefined],
		['application/xml', undefined],
		['application/octet-stream', undefined],
		['', undefined],
		[undefined, undefined],
	] as Array<[string | undefined, string | undefined]>)('%p → %p', (contentType, expected) => {
		expect(streamFormatFromContentType(contentType)).toBe(expected);
	});
});

describe('SseParser', () => {
	function parse(text: string | string[]): {
		events: SseEvent[];
		retries: number[];
		comments: string[];
	} {
		const events: SseEvent[] = [];
		const retries: number[] = [];
		const comments: string[] = [];
		const parser = new SseParser({
			onEvent: (e) => events.push(e),
			onRetry: (ms) => retries.push(ms),
			onComment: (c) => comments.push(c),
		});
		for (const chunk of typeof text === 'string' ? [text] : text) parser.feed(chunk);
		parser.end();
		return { events, retries, comments };
	}

	it('follows the WHATWG examples', () => {
		// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
		expect(parse('data: YHOO\ndata: +2\ndata: 10\n\n').events).toEqual([
			{ event: 'message', data: 'YHOO\n+2\n10' },
		]);
		expect(
			parse(
				': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n',
			).events,
		).toEqual([
			{ event: 'message', data: 'first event', id: '1' },
			{ event: 'message', data: 'second event', id: '' },
		]);
		expect(parse('data\n\ndata\ndata\n\ndata:').events).toEqual([
			{ event: 'message', data: '' },
			{ event: 'message', data: '\n' },
		]);
		expect(parse('data:test\n\ndata: test\n\n').events).toEqual([
			{ event: 'message', data: 'test' },
			{ event: 'message', data: 'test' },
		]);
	});

	it('handles event names, comments, retry and unknown fields', () => {
		const r = parse(
			'event: mention\n:keep-alive\n: spaced\nfoo: bar\nretry: 3000\nretry: 3s\ndata: {}\n\nevent: x\n\ndata: y\n\n',
		);
		expect(r.events).toEqual([
			{ event: 'mention', data: '{}' },
			{ event: 'message', data: 'y' },
		]);
		expect(r.retries).toEqual([3000]);
		expect(r.comments).toEqual(['keep-alive', 'spaced']);
	});

	it('treats CR, LF and CRLF as line breaks, also across chunks', () => {
		const expected = [{ event: 'a', data: '1\n2' }];
		expect(parse('event: a\rdata: 1\r\ndata: 2\n\r').events).toEqual(expected);
		expect(parse(['event: a\r', '\ndata: 1\r', '\ndata: 2\r', '\n\r', '\n']).events).toEqual(
			expected,
		);
		expect(parse(['event: a\r', '', '\ndata: 1\r', '\r']).events).toEqual([
			{ event: 'a', data: '1' },
		]);
	});

	it('drops an unterminated final event', () => {
		expect(parse('data: a\n\ndata: b\n').events).toEqual([{ event: 'message', data: 'a' }]);
	});

	it('releases consumed text after each event', () => {
		const parser = new SseParser({ onEvent: () => undefined });
		parser.feed('event: mention\ndata: ' + 'x'.repeat(1000) + '\nid: m1\n\n');
		expect(parser.bufferedLength).toBe(0);
		parser.feed('data: abc');
		expect(parser.bufferedLength).toBe(9);
	});
});

describe('StreamReader – SSE', () => {
	const stream =
		': hello\n' +
		sseEvent('mention', JSON.stringify(mention1), 'm1') +
		sseEvent(
			'heartbeat',
			JSON.stringify({ date: heartbeatDate }),
			'2026-11-21T10:30:00.000+00:00',
		) +
		sseEvent('heartbeat', heartbeatDate) +
		sseEvent('heartbeat', JSON.stringify(heartbeatDate)) +
		sseEvent('engagementUpdate', JSON.stringify(update), 'm1:2026-11-21T10:31:00.000Z') +
		sseEvent('mention', '{"id":"m3","content":{"text":"ucięte', 'm3') +
		sseEvent('somethingNew', '{"a":1}', 'n1') +
		sseEvent('somethingRaw', 'not json') +
		'data: plain message\n\n' +
		sseEvent('mention', JSON.stringify(mention2), 'm2');

	const expected: StreamItem[] = [
		{ type: 'mention', id: 'm1', mention: mention1 },
		{ type: 'heartbeat', date: heartbeatDate, legacy: false },
		{ type: 'heartbeat', date: heartbeatDate, legacy: true },
		{ type: 'heartbeat', date: heartbeatDate, legacy: true },
		{ type: 'engagementUpdate', id: 'm1:2026-11-21T10:31:00.000Z', update },
		expect.objectContaining({
			type: 'malformed',
			event: 'mention',
			id: 'm3',
			raw: '{"id":"m3","content":{"text":"ucięte',
		}),
		{ type: 'other', event: 'somethingNew', id: 'n1', data: { a: 1 } },
		{ type: 'other', event: 'somethingRaw', data: 'not json' },
		{ type: 'other', event: 'message', data: 'plain message' },
		{ type: 'mention', id: 'm2', mention: mention2 },
	];

	it('maps every event kind, counts malformed JSON and goes on', () => {
		const { items, reader } = readAll('sse', [encoder.encode(stream)]);
		expect(items).toEqual(expected);
		const malformed = items[5] as Extract<StreamItem, { type: 'malformed' }>;
		expect(malformed.reason).toMatch(/^invalid JSON: /);
		expect(reader.stats).toEqual({
			bytes: encoder.encode(stream).length,
			events: 10,
			mentions: 2,
			heartbeats: 3,
			engagementUpdates: 1,
			other: 3,
			malformed: 1,
		});
	});

	it('gives the same items for strings, bytes and tiny chunks', () => {
		const bytes = encoder.encode(stream);
		expect(readAll('sse', [stream]).items).toEqual(expected);
		expect(readAll('sse', splitEvery(bytes, 1)).items).toEqual(expected);
		expect(readAll('sse', splitEvery(stream, 3)).items).toEqual(expected);
		expect(readAll('sse', [stream]).reader.stats.bytes).toBe(bytes.length);
	});

	it('takes the mention id from the data, else from the SSE id', () => {
		const withoutId = omitId(mention1);
		const { items, reader } = readAll('sse', [
			sseEvent('mention', JSON.stringify(withoutId), 'sse-id') +
				sseEvent('mention', JSON.stringify(mention1), 'other-id') +
				sseEvent('mention', JSON.stringify(withoutId)) +
				sseEvent('mention', '[1,2]', 'x') +
				sseEvent('mention', JSON.stringify({ ...withoutId, id: 42 })),
		]);
		expect(items).toEqual([
			{ type: 'mention', id: 'sse-id', mention: withoutId },
			{ type: 'mention', id: 'm1', mention: mention1 },
			expect.objectContaining({ type: 'malformed', event: 'mention', reason: 'mention has no id' }),
			expect.objectContaining({
				type: 'malformed',
				event: 'mention',
				id: 'x',
				reason: 'mention data is not a JSON object',
			}),
			{ type: 'mention', id: '42', mention: { ...withoutId, id: 42 } },
		]);
		expect(reader.stats.malformed).toBe(2);
		expect(reader.stats.mentions).toBe(3);
	});

	it('recognises both heartbeat forms and rejects heartbeats without a date', () => {
		const { items } = readAll('sse', [
			sseEvent('heartbeat', '{"date":"2026-11-21T10:30:00.000Z"}') +
				sseEvent('heartbeat', '2026-11-21T10:30:00.000Z') +
				sseEvent('heartbeat', '  2026-11-21T10:30:00.000Z ') +
				sseEvent('heartbeat', '"2026-11-21T10:30:00.000Z"') +
				sseEvent('heartbeat', '2026-11-21T10:30:00+00:00') +
				sseEvent('heartbeat', '{}') +
				sseEvent('heartbeat', '2026') +
				sseEvent('heartbeat', 'yesterday'),
		]);
		expect(
			items.map((i) =>
				i.type === 'heartbeat' ? [i.date, i.legacy] : [i.type, (i as { reason: string }).reason],
			),
		).toEqual([
			['2026-11-21T10:30:00.000Z', false],
			['2026-11-21T10:30:00.000Z', true],
			['2026-11-21T10:30:00.000Z', true],
			['2026-11-21T10:30:00.000Z', true],
			['2026-11-21T10:30:00+00:00', true],
			['malformed', 'heartbeat without a date'],
			['malformed', 'heartbeat without a date'],
			['malformed', expect.stringMatching(/^invalid JSON/)],
		]);
	});

	it('records retry and never throws on garbage', () => {
		const { items, reader } = readAll('sse', [
			'retry: 1500\n\u0000\u0001garbage\n\n:\n\r\n\n\ndata\n\nevent: engagementUpdate\ndata: 7\n\n',
		]);
		expect(items).toEqual([
			{ type: 'other', event: 'message', data: '' },
			expect.objectContaining({ type: 'malformed', event: 'engagementUpdate', raw: '7' }),
		]);
		expect(reader.stats.retryMs).toBe(1500);
	});

	it('decodes multi-byte characters split across chunks, and strips one BOM', () => {
		const text =
			'\uFEFF' + sseEvent('mention', JSON.stringify(sampleMention('ż🎉', 'Łódź 👍🏽 中文')));
		const bytes = encoder.encode(text);
		for (let cut = 1; cut < bytes.length; cut++) {
			const { items } = readAll('sse', [bytes.slice(0, cut), bytes.slice(cut)]);
			expect(items).toEqual([
				{ type: 'mention', id: 'ż🎉', mention: sampleMention('ż🎉', 'Łódź 👍🏽 中文') },
			]);
		}
	});

	it('turns invalid UTF-8 into U+FFFD instead of failing', () => {
		const bytes = Uint8Array.from([
			...encoder.encode('event: x\ndata: a'),
			0xff,
			0xc5,
			...encoder.encode('\n\n'),
		]);
		expect(readAll('sse', [bytes]).items).toEqual([
			{ type: 'other', event: 'x', data: 'a\uFFFD\uFFFD' },
		]);
		// an incomplete character at the very end is flushed by end()
		const reader = new StreamReader('jsonLines');
		reader.push(encoder.encode('"ab'));
		reader.push(Uint8Array.from([0xc5]));
		expect(reader.end()).toEqual([
			expect.objectContaining({ type: 'malformed', raw: '"ab\uFFFD' }),
		]);
	});
});

describe('StreamReader – JSON lines', () => {
	const lines =
		jsonLine('mention', mention1, 'm1') +
		jsonLine('heartbeat', { date: heartbeatDate }, '2026-11-21T10:30:00.000+00:00') +
		jsonLine('heartbeat', heartbeatDate, '2026-11-21T10:30:00.000+00:00') +
		'\n' +
		'   \r\n' +
		jsonLine('engagementUpdate', update, 'm1:2026-11-21T10:31:00.000Z') +
		'{"event":"mention","data":{"id":"m3",\n' +
		jsonLine('somethingNew', [1, 2], 'n1') +
		'[1,2]\n' +
		'{"data":{}}\r\n' +
		JSON.stringify(mention2) +
		'\r\n' +
		jsonLine('mention', mention1, 'm1').trimEnd(); // no final line break

	const expected: StreamItem[] = [
		{ type: 'mention', id: 'm1', mention: mention1 },
		{ type: 'heartbeat', date: heartbeatDate, legacy: false },
		{ type: 'heartbeat', date: heartbeatDate, legacy: true },
		{ type: 'engagementUpdate', id: 'm1:2026-11-21T10:31:00.000Z', update },
		expect.objectContaining({
			type: 'malformed',
			event: 'mention',
			id: 'm3',
			raw: '{"event":"mention","data":{"id":"m3",',
			reason: expect.stringMatching(/^invalid JSON/),
		}),
		{ type: 'other', event: 'somethingNew', id: 'n1', data: [1, 2] },
		expect.objectContaining({
			type: 'malformed',
			event: '',
			raw: '[1,2]',
			reason: 'line is not a JSON object',
		}),
		expect.objectContaining({
			type: 'malformed',
			event: '',
			raw: '{"data":{}}',
			reason: 'line has no "event" field',
		}),
		{ type: 'mention', id: 'm2', mention: mention2 },
		{ type: 'mention', id: 'm1', mention: mention1 },
	];

	it.each(['application/x-ndjson', 'application/json'])(
		'reads %s bodies: every kind, blank lines, CRLF, bare mentions, malformed lines',
		(contentType) => {
			const format = streamFormatFromContentType(contentType);
			expect(format).toBe('jsonLines');
			const { items, reader } = readAll(format!, [encoder.encode(lines)]);
			expect(items).toEqual(expected);
			expect(reader.stats).toEqual({
				bytes: encoder.encode(lines).length,
				events: 10,
				mentions: 3,
				heartbeats: 2,
				engagementUpdates: 1,
				other: 1,
				malformed: 3,
			});
		},
	);

	it('gives the same items in any chunking', () => {
		const bytes = encoder.encode(lines);
		expect(readAll('jsonLines', splitEvery(bytes, 1)).items).toEqual(expected);
		expect(readAll('jsonLines', splitEvery(bytes, 7)).items).toEqual(expected);
		expect(readAll('jsonLines', splitEvery(lines, 5)).items).toEqual(expected);
	});

	it('falls back to the line id for a mention without one, and rejects odd data', () => {
		const withoutId = omitId(mention1);
		const { items } = readAll('jsonLines', [
			jsonLine('mention', withoutId, 'line-id') +
				jsonLine('mention', 'text', 'x') +
				jsonLine('engagementUpdate', null) +
				jsonLine('heartbeat', 5) +
				'{"event":7,"data":{}}\n',
		]);
		expect(items).toEqual([
			{ type: 'mention', id: 'line-id', mention: withoutId },
			expect.objectContaining({
				type: 'malformed',
				event: 'mention',
				id: 'x',
				reason: 'mention data is not a JSON object',
			}),
			expect.objectContaining({
				type: 'malformed',
				event: 'engagementUpdate',
				reason: 'engagementUpdate data is not a JSON object',
			}),
			expect.objectContaining({
				type: 'malformed',
				event: 'heartbeat',
				reason: 'heartbeat without a date',
			}),
			expect.objectContaining({ type: 'malformed', event: '', reason: '"event" is not a string' }),
		]);
	});

	it('strips a BOM at the start', () => {
		expect(
			readAll('jsonLines', [
				encoder.encode('\uFEFF' + jsonLine('heartbeat', { date: heartbeatDate })),
			]).items,
		).toEqual([{ type: 'heartbeat', date: heartbeatDate, legacy: false }]);
	});
});

describe('maxEventBytes', () => {
	const big = 'x'.repeat(5000);

	it('skips a too large SSE event and reports it once, in any chunking', () => {
		const text =
			sseEvent('mention', JSON.stringify(mention1), 'm1') +
			`event: mention\ndata: {"id":"big","text":"${big}"}\nid: big\n\n` +
			`event: mention\ndata: {"id":"multi",\ndata: "a":"${big.slice(0, 600)}",\ndata: "b":"${big.slice(0, 600)}"}\nid: multi\n\n` +
			sseEvent('mention', JSON.stringify(mention2), 'm2');
		for (const size of [1, 10, 100, 1000, text.length]) {
			const { items, reader } = readAll('sse', splitEvery(encoder.encode(text), size), {
				maxEventBytes: 1000,
			});
			expect(items).toEqual([
				{ type: 'mention', id: 'm1', mention: mention1 },
				{
					type: 'malformed',
					event: 'mention',
					id: 'big',
					raw: expect.stringMatching(/^(data: )?\{"id":"big","text":"x+$/),
					reason: 'event too large',
				},
				{
					type: 'malformed',
					event: 'mention',
					id: 'multi',
					raw: expect.stringMatching(/^\{"id":"multi",\n"a":"x+/),
					reason: 'event too large',
				},
				{ type: 'mention', id: 'm2', mention: mention2 },
			]);
			expect(reader.stats.malformed).toBe(2);
			expect(reader.stats.events).toBe(4);
		}
	});

	it('never buffers more than the limit while skipping', () => {
		const reader = new StreamReader('sse', { maxEventBytes: 1000 });
		reader.push('event: mention\ndata: ');
		let max = 0;
		for (let i = 0; i < 1000; i++) {
			reader.push('y'.repeat(100));
			max = Math.max(max, reader.bufferedBytes);
		}
		expect(max).toBeLessThanOrEqual(1000 + 'mention'.length); // the line limit, plus the event name held for the report
		expect(reader.push('\nid: huge\n\n')).toEqual([
			expect.objectContaining({
				type: 'malformed',
				event: 'mention',
				id: 'huge',
				reason: 'event too large',
			}),
		]);
		expect(reader.push(sseEvent('heartbeat', heartbeatDate))).toEqual([
			{ type: 'heartbeat', date: heartbeatDate, legacy: true },
		]);
		expect(reader.bufferedBytes).toBe(0);
	});

	it('reports a too large event cut off by the end of the stream', () => {
		const reader = new StreamReader('sse', { maxEventBytes: 100 });
		expect(reader.push('event: mention\ndata: ' + big)).toEqual([]);
		expect(reader.end()).toEqual([
			expect.objectContaining({ type: 'malformed', event: 'mention', reason: 'event too large' }),
		]);
	});

	it('skips a too large JSON line, in any chunking', () => {
		const text =
			jsonLine('mention', mention1, 'm1') +
			jsonLine('mention', { id: 'big', text: big }, 'big') +
			jsonLine('mention', mention2, 'm2');
		for (const size of [1, 10, 999, text.length]) {
			const { items, reader } = readAll('jsonLines', splitEvery(text, size), {
				maxEventBytes: 1000,
			});
			expect(items).toEqual([
				{ type: 'mention', id: 'm1', mention: mention1 },
				{
					type: 'malformed',
					event: '',
					raw: expect.stringMatching(/^\{"event":"mention","data":\{"id":"big"/),
					reason: 'event too large',
				},
				{ type: 'mention', id: 'm2', mention: mention2 },
			]);
			expect(reader.stats.malformed).toBe(1);
		}
		// exactly at the limit (a CR is not counted) passes
		const line = JSON.stringify({ event: 'x', data: 'y'.repeat(50) });
		expect(
			readAll('jsonLines', splitEvery(line + '\r\n', 3), { maxEventBytes: line.length }).items,
		).toEqual([{ type: 'other', event: 'x', data: 'y'.repeat(50) }]);
		expect(readAll('jsonLines', [line + '\n'], { maxEventBytes: line.length - 1 }).items).toEqual([
			expect.objectContaining({ type: 'malformed', reason: 'event too large' }),
		]);
	});
});

describe('readStreamItems', () => {
	it('reads a Node Readable of Buffers', async () => {
		const text =
			sseEvent('mention', JSON.stringify(mention1), 'm1') + sseEvent('heartbeat', heartbeatDate);
		const body = Readable.from(splitEvery(Buffer.from(text), 5));
		const items: StreamItem[] = [];
		for await (const item of readStreamItems(body, 'sse')) items.push(item);
		expect(items).toEqual([
			{ type: 'mention', id: 'm1', mention: mention1 },
			{ type: 'heartbeat', date: heartbeatDate, legacy: true },
		]);
	});

	it('reads an async iterable of strings, including a final line without line break', async () => {
		async function* body(): AsyncGenerator<string> {
			yield '{"event":"heartbeat","data":{"date":"' + heartbeatDate;
			yield '"}}\n{"event":"mention","data":{"id":"m9"}}';
		}
		const items: StreamItem[] = [];
		for await (const item of readStreamItems(body(), 'jsonLines')) items.push(item);
		expect(items).toEqual([
			{ type: 'heartbeat', date: heartbeatDate, legacy: false },
			{ type: 'mention', id: 'm9', mention: { id: 'm9' } },
		]);
	});
});
