import fc from 'fast-check';

import {
	StreamReader,
	type StreamFormat,
	type StreamItem,
	type StreamReaderOptions,
} from '../../nodes/SentiOne/shared/stream';

export const encoder = new TextEncoder();

/** Characters that make life hard for a stream parser: multi-byte UTF-8, surrogate pairs, separators, NUL, BOM */
export const TRICKY_CHARS = [
	'a',
	'b',
	'z',
	'0',
	'7',
	' ',
	'  ',
	':',
	': ',
	'\t',
	'"',
	'{',
	'}',
	'\\',
	'\0',
	'\uFEFF',
	'ą',
	'ę',
	'ł',
	'ń',
	'ó',
	'ś',
	'ź',
	'ż',
	'Ł',
	'Ż',
	'é',
	'ß',
	'€',
	'中',
	'文',
	'🎉',
	'😀',
	'👍🏽',
	'🇵🇱',
	'\u2028',
];

/** A string without CR/LF made of tricky characters */
export const lineText = (maxLength = 12): fc.Arbitrary<string> =>
	fc.string({ unit: fc.constantFrom(...TRICKY_CHARS), maxLength });

/** Sorted distinct cut points in [1, length) */
export const cutPoints = (length: number): fc.Arbitrary<number[]> =>
	length < 2
		? fc.constant([])
		: fc
				.uniqueArray(fc.integer({ min: 1, max: length - 1 }), {
					maxLength: Math.min(length - 1, 40),
				})
				.map((cuts) => cuts.sort((a, b) => a - b));

export function splitAt<T extends string | Uint8Array>(whole: T, cuts: number[]): T[] {
	const parts: T[] = [];
	let from = 0;
	for (const cut of cuts) {
		parts.push(whole.slice(from, cut) as T);
		from = cut;
	}
	parts.push(whole.slice(from) as T);
	return parts;
}

/** Cuts `whole` into pieces of `size` (the last one shorter) */
export function splitEvery<T extends string | Uint8Array>(whole: T, size: number): T[] {
	const parts: T[] = [];
	for (let i = 0; i < whole.length; i += size) parts.push(whole.slice(i, i + size) as T);
	return parts;
}

export function readAll(
	format: StreamFormat,
	chunks: Array<Uint8Array | string>,
	options?: { maxEventBytes?: number },
): { items: StreamItem[]; reader: StreamReader } {
	const reader = new StreamReader(format, options);
	const items: StreamItem[] = [];
	for (const chunk of chunks) items.push(...reader.push(chunk));
	items.push(...reader.end());
	return { items, reader };
}

/** Reads a Node Readable (or any async iterable body) to the end, yielding items as they are read. */
export async function* readStreamItems(
	body: AsyncIterable<Uint8Array | string>,
	format: StreamFormat,
	options?: StreamReaderOptions,
): AsyncGenerator<StreamItem> {
	const reader = new StreamReader(format, options);
	for await (const chunk of body) {
		const items = reader.push(chunk);
		for (let i = 0; i < items.length; i++) yield items[i];
	}
	const rest = reader.end();
	for (let i = 0; i < rest.length; i++) yield rest[i];
}

/** A small deterministic PRNG (mulberry32) for the big generated streams */

export function sampleMention(id: string, text: string): Record<string, unknown> {
	return {
		id,
		createdAt: '2026-11-21T10:30:00.000Z',
		author: { id: 'a-' + id, name: 'Autor Łukasz', avatar: null },
		content: { title: 'Tytuł', text, language: 'pl' },
		source: { domain: 'example.pl', type: 'forum' },
		sentiment: 1,
	};
}
