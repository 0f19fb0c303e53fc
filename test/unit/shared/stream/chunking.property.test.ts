/**
 * For any chunking of a generated stream (bytes cut anywhere, including inside multi-byte
 * characters and between CR and LF; strings cut anywhere, including inside surrogate pairs),
 * StreamReader yields exactly the items (and counters) it yields for the stream in one piece.
 */
import fc from 'fast-check';

import type { StreamFormat } from '../../../../nodes/SentiOne/shared/stream';
import {
	cutPoints,
	encoder,
	lineText,
	readAll,
	sampleMention,
	splitAt,
} from '../../../support/streams';

type Rec =
	| { kind: 'mention'; id: string; text: string; withId: boolean; frameId: string | null }
	| { kind: 'heartbeat'; form: 'object' | 'bare' | 'quoted' }
	| { kind: 'engagementUpdate'; id: string }
	| { kind: 'unknown'; name: string; data: string }
	| { kind: 'broken'; event: string; data: string }
	| { kind: 'noise'; text: string };

const text = lineText(40);
const rec: fc.Arbitrary<Rec> = fc.oneof(
	{
		weight: 5,
		arbitrary: fc.record({
			kind: fc.constant('mention' as const),
			id: lineText(6),
			text,
			withId: fc.boolean(),
			frameId: fc.option(lineText(6)),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('heartbeat' as const),
			form: fc.constantFrom('object' as const, 'bare' as const, 'quoted' as const),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({ kind: fc.constant('engagementUpdate' as const), id: lineText(6) }),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('unknown' as const),
			name: fc.constantFrom('somethingNew', 'ping', 'ż'),
			data: text,
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('broken' as const),
			event: fc.constantFrom('mention', 'heartbeat', 'engagementUpdate'),
			data: text.map((t) => '{"id":"x","t":"' + t),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('noise' as const), text: lineText(10) }) },
);

function payload(r: Rec): { event: string; data: unknown; dataText: string; id?: string } {
	const date = '2026-11-21T10:30:00.000Z';
	switch (r.kind) {
		case 'mention': {
			const m = sampleMention(r.id, r.text);
			if (!r.withId) delete m.id;
			return { event: 'mention', data: m, dataText: JSON.stringify(m), id: r.frameId ?? undefined };
		}
		case 'heartbeat':
			if (r.form === 'object')
				return {
					event: 'heartbeat',
					data: { date },
					dataText: JSON.stringify({ date }),
					id: '2026-11-21T10:30:00.000+00:00',
				};
			return {
				event: 'heartbeat',
				data: date,
				dataText: r.form === 'bare' ? date : JSON.stringify(date),
			};
		case 'engagementUpdate': {
			const u = { mentionId: r.id, engagementMetrics: { likes: 1 }, updatedAt: date };
			return {
				event: 'engagementUpdate',
				data: u,
				dataText: JSON.stringify(u),
				id: `${r.id}:${date}`,
			};
		}
		case 'unknown':
			return { event: r.name, data: r.data, dataText: r.data };
		case 'broken':
			return { event: r.event, data: undefined, dataText: r.data };
		case 'noise':
			return { event: '', data: undefined, dataText: r.text };
	}
}

const lineBreak = fc.constantFrom('\n', '\r', '\r\n');

const sseText: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', '\uFEFF'),
		fc.array(
			fc.tuple(
				rec,
				lineBreak,
				fc.boolean(),
				fc.constantFrom('', ': keep-alive', 'retry: 2500', 'retry: x', 'unknown: 1'),
			),
			{ maxLength: 12 },
		),
	)
	.map(
		([bom, recs]) =>
			bom +
			recs
				.map(([r, br, splitData, extra]) => {
					if (r.kind === 'noise') return (r.text.startsWith(':') ? r.text : ': ' + r.text) + br;
					const p = payload(r);
					// optionally spread the data over two `data:` lines (JSON tolerates the joining LF between tokens)
					const cut = splitData ? p.dataText.indexOf(',') + 1 : 0;
					const dataLines =
						cut > 0
							? ['data: ' + p.dataText.slice(0, cut), 'data:' + p.dataText.slice(cut)]
							: ['data: ' + p.dataText];
					const lines = [
						'event: ' + p.event,
						...dataLines,
						...(p.id === undefined ? [] : ['id: ' + p.id]),
					];
					if (extra !== '') lines.splice(1, 0, extra);
					return lines.join(br) + br + br;
				})
				.join(''),
	);

const jsonLinesText: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', '\uFEFF'),
		fc.array(fc.tuple(rec, fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '  \n')), {
			maxLength: 12,
		}),
		fc.boolean(),
	)
	.map(([bom, recs, finalBreak]) => {
		const body = recs
			.map(([r, br, blank]) => {
				const p = payload(r);
				let line: string;
				if (r.kind === 'noise') line = r.text;
				else if (r.kind === 'broken') line = p.dataText;
				else if (r.kind === 'mention' && r.frameId === null)
					line = p.dataText; // a bare mention line
				else line = JSON.stringify({ event: p.event, data: p.data, id: p.id });
				return line + br + blank;
			})
			.join('');
		return bom + (finalBreak ? body : body.replace(/\r?\n$/, ''));
	});

function property(
	format: StreamFormat,
	gen: fc.Arbitrary<string>,
): fc.IPropertyWithHooks<[[string, number[], number[], number | undefined]]> {
	return fc.property(
		gen.chain((t) =>
			fc.tuple(
				fc.constant(t),
				cutPoints(encoder.encode(t).length),
				cutPoints(t.length),
				fc.constantFrom(undefined, 60, 200, 400),
			),
		),
		([t, byteCuts, charCuts, maxEventBytes]) => {
			const bytes = encoder.encode(t);
			const options = { maxEventBytes };
			const whole = readAll(format, [bytes], options);
			const byBytes = readAll(format, splitAt(bytes, byteCuts), options);
			const byChars = readAll(format, splitAt(t, charCuts), options);
			expect(byBytes.items).toEqual(whole.items);
			expect(byChars.items).toEqual(whole.items);
			expect(byBytes.reader.stats).toEqual(whole.reader.stats);
			expect(byChars.reader.stats).toEqual(whole.reader.stats);
			expect(readAll(format, [t], options).reader.stats).toEqual(whole.reader.stats);
			const s = whole.reader.stats;
			expect(s.events).toBe(whole.items.length);
			expect(s.mentions + s.heartbeats + s.engagementUpdates + s.other + s.malformed).toBe(
				s.events,
			);
			expect(s.bytes).toBe(bytes.length);
			expect(whole.reader.bufferedBytes).toBe(0);
		},
	);
}

describe('StreamReader gives the same items for any chunking', () => {
	it('SSE', () => {
		fc.assert(property('sse', sseText), { numRuns: 1000 });
	});

	it('JSON lines', () => {
		fc.assert(property('jsonLines', jsonLinesText), { numRuns: 1000 });
	});

	it('the generators produce every kind of item', () => {
		const seen = new Set<string>();
		for (const t of fc.sample(sseText, { numRuns: 300, seed: 1 }))
			for (const i of readAll('sse', [t], { maxEventBytes: 200 }).items) seen.add(i.type);
		for (const t of fc.sample(jsonLinesText, { numRuns: 300, seed: 1 }))
			for (const i of readAll('jsonLines', [t]).items) seen.add(i.type);
		expect([...seen].sort()).toEqual([
			'engagementUpdate',
			'heartbeat',
			'malformed',
			'mention',
			'other',
		]);
	});
});
