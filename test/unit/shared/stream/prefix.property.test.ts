/**
 * A stream cut off at any byte (a dropped connection) never makes the reader invent or garble an
 * item: what it yields for the prefix is the start of what it yields for the whole stream. SSE:
 * exactly the events whose blank line arrived (an unterminated event is dropped). JSON lines: the
 * complete lines, plus at most one item for the cut last line, which is either that line's item
 * (cut right after it) or `malformed`. Complements test/unit/shared/stream/chunking.property.test.ts
 * (any chunking of a complete stream), which has no cut-off streams.
 */
import fc from 'fast-check';

import type { StreamFormat } from '../../../../nodes/SentiOne/shared/stream';
import { encoder, lineText, readAll, sampleMention } from '../../../support/streams';
import { writePart } from '../../../support/results';

type Rec =
	| { kind: 'mention'; id: string; text: string }
	| { kind: 'heartbeat'; legacy: boolean }
	| { kind: 'unknown'; data: string };

const rec: fc.Arbitrary<Rec> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('mention' as const),
			id: fc.stringMatching(/^[a-f0-9]{6,24}$/),
			text: lineText(40),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({ kind: fc.constant('heartbeat' as const), legacy: fc.boolean() }),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('unknown' as const),
			data: fc.stringMatching(/^[a-z ]{0,20}$/),
		}),
	},
);

const DATE = '2026-11-21T10:30:00.000Z';

function frame(format: StreamFormat, r: Rec): string {
	const [event, data, id] =
		r.kind === 'mention'
			? ['mention', JSON.stringify(sampleMention(r.id, r.text)), r.id]
			: r.kind === 'heartbeat'
				? [
						'heartbeat',
						r.legacy
							? format === 'sse'
								? DATE
								: JSON.stringify(DATE)
							: JSON.stringify({ date: DATE }),
						DATE.replace('Z', '+00:00'),
					]
				: ['notice', JSON.stringify({ message: r.data }), 'n-1'];
	if (format === 'sse') return `event: ${event}\ndata: ${data}\nid: ${id}\n\n`;
	return `{"event":${JSON.stringify(event)},"data":${data},"id":${JSON.stringify(id)}}\n`;
}

const streamAndCut = (format: StreamFormat) =>
	fc.array(rec, { minLength: 1, maxLength: 15 }).chain((recs) => {
		const text = recs.map((r) => frame(format, r)).join('');
		const bytes = encoder.encode(text);
		return fc.tuple(fc.constant(bytes), fc.integer({ min: 0, max: bytes.length }));
	});

let cases = 0;

describe.each(['sse', 'jsonLines'] as StreamFormat[])('%s cut off at any byte', (format) => {
	test("yields the start of the whole stream's items, nothing invented", () => {
		fc.assert(
			fc.property(streamAndCut(format), ([bytes, cut]) => {
				cases++;
				const whole = readAll(format, [bytes]).items;
				const prefixBytes = bytes.slice(0, cut);
				const got = readAll(format, [prefixBytes]).items;
				const text = new TextDecoder().decode(prefixBytes);
				const complete =
					format === 'sse' ? text.split('\n\n').length - 1 : text.split('\n').length - 1;
				expect(got.slice(0, complete)).toEqual(whole.slice(0, complete));
				const extra = got.slice(complete);
				if (format === 'sse') {
					expect(extra).toEqual([]);
				} else {
					expect(extra.length).toBeLessThanOrEqual(1);
					if (extra.length === 1 && extra[0].type !== 'malformed')
						expect(extra[0]).toEqual(whole[complete]);
				}
			}),
			{ numRuns: 1500, seed: 11 },
		);
	});
});

afterAll(() => {
	expect(cases).toBe(3000);
	writePart({
		part: 'properties-stream',
		title: 'Property tests: a stream cut off at any byte',
		command: 'npx jest test/unit/shared/stream/prefix.property.test.ts',
		rows: [
			{
				fault:
					'SSE and JSON-lines streams of mentions, heartbeats (both forms) and unknown events, cut at a random byte',
				through: 'StreamReader',
				cases,
				outcome:
					'the items of the whole stream up to the cut, never an invented or altered one; a cut JSON line is malformed',
			},
		],
	});
});
