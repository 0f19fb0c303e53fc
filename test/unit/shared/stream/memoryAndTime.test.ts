/**
 * Memory is bounded by the largest event, and reading is linear in the input — checked by counting
 * (characters scanned by `indexOf`, characters produced by `join`), not by wall-clock time.
 */
import {
	SseParser,
	StreamReader,
	type StreamFormat,
} from '../../../../nodes/SentiOne/shared/stream';
import { encoder, sampleMention } from '../../../support/streams';
import { seededRandom } from '../../../support/random';

describe('memory stays bounded by the largest event', () => {
	/** Feeds ~`totalBytes` of generated events in random chunks (1 B to 64 KiB, log-uniform) */
	function feedLargeStream(format: StreamFormat, totalBytes: number, seed: number) {
		const random = seededRandom(seed);
		// event templates of varied sizes: 150 B to 20 KB, plus a rare 300 KB one
		const texts = [0, 50, 300, 1200, 1500, 1800, 3000, 8000, 20000].map((n) =>
			'Zażółć gęślą jaźń 🎉 '.repeat(Math.ceil(n / 25)).slice(0, n),
		);
		texts.push('x'.repeat(300000));
		const reader = new StreamReader(format);
		let fed = 0;
		let events = 0;
		let mentions = 0;
		let heartbeats = 0;
		let maxBuffered = 0;
		let largestEvent = 0;
		let pending: Uint8Array = new Uint8Array(0);
		const count = (items: ReturnType<StreamReader['push']>) => {
			for (const item of items) {
				if (item.type === 'mention') mentions++;
				else if (item.type === 'heartbeat') heartbeats++;
				else throw new Error(`unexpected ${JSON.stringify(item).slice(0, 200)}`);
			}
		};
		while (fed < totalBytes) {
			const size = Math.floor(Math.exp(random() * Math.log(65536))) + 1;
			while (pending.length < size) {
				const roll = random();
				let text: string;
				if (roll < 0.05) {
					text =
						format === 'sse'
							? 'event: heartbeat\ndata: {"date":"2026-11-21T10:30:00.000Z"}\n\n'
							: '{"event":"heartbeat","data":"2026-11-21T10:30:00.000Z"}\n';
				} else {
					const body =
						texts[roll < 0.0005 ? texts.length - 1 : Math.floor(random() * (texts.length - 1))];
					const data = JSON.stringify(sampleMention('m' + events, body));
					text =
						format === 'sse'
							? `event: mention\ndata: ${data}\nid: m${events}\n\n`
							: `{"event":"mention","data":${data},"id":"m${events}"}\n`;
				}
				largestEvent = Math.max(largestEvent, text.length);
				events++;
				const bytes = encoder.encode(text);
				const joined = new Uint8Array(pending.length + bytes.length);
				joined.set(pending);
				joined.set(bytes, pending.length);
				pending = joined;
			}
			count(reader.push(pending.subarray(0, size)));
			pending = pending.slice(size);
			fed += size;
			maxBuffered = Math.max(maxBuffered, reader.bufferedBytes);
		}
		count(reader.push(pending));
		count(reader.end());
		return {
			reader,
			fed: fed + pending.length,
			events,
			mentions,
			heartbeats,
			maxBuffered,
			largestEvent,
		};
	}

	it.each([
		['sse', 50e6],
		['jsonLines', 20e6],
	] as Array<[StreamFormat, number]>)('%s: %d bytes in random chunks', (format, total) => {
		const r = feedLargeStream(format, total, 7);
		expect(r.mentions + r.heartbeats).toBe(r.events);
		expect(r.reader.stats.bytes).toBe(r.fed);
		expect(r.reader.stats.events).toBe(r.events);
		expect(r.reader.stats.malformed).toBe(0);
		expect(r.maxBuffered).toBeLessThanOrEqual(r.largestEvent);
		expect(r.maxBuffered).toBeLessThan(r.fed / 100);
		expect(r.reader.bufferedBytes).toBe(0);
	});
});

/** Runs `fn` counting the characters `String.prototype.indexOf` looks at and the characters `Array.prototype.join` produces */
function countWork<T>(fn: () => T): { result: T; scanned: number; joined: number } {
	const stringProto = String.prototype as unknown as {
		indexOf: (this: string, search: string, from?: number) => number;
	};
	const arrayProto = Array.prototype as unknown as {
		join: (this: unknown[], separator?: string) => string;
	};
	const indexOf = stringProto.indexOf;
	const join = arrayProto.join;
	let scanned = 0;
	let joined = 0;
	stringProto.indexOf = function (this: string, search: string, from?: number): number {
		const found = indexOf.call(this, search, from);
		const start = Math.min(Math.max(from ?? 0, 0), this.length);
		scanned += (found === -1 ? this.length : found + search.length) - start;
		return found;
	};
	arrayProto.join = function (this: unknown[], separator?: string): string {
		const result = join.call(this, separator);
		joined += result.length;
		return result;
	};
	try {
		const result = fn();
		return { result, scanned, joined };
	} finally {
		stringProto.indexOf = indexOf;
		arrayProto.join = join;
	}
}

describe('reading is linear in the input', () => {
	const chunkOf = (i: number, size: number) => String.fromCharCode(97 + (i % 26)).repeat(size);

	function oneSseEventIn(chunks: number, size: number) {
		return countWork(() => {
			let data = '';
			const parser = new SseParser({ onEvent: (e) => (data = e.data) });
			parser.feed('event: mention\ndata: ');
			for (let i = 0; i < chunks; i++) parser.feed(chunkOf(i, size));
			parser.feed('\nid: m1\n\n');
			parser.end();
			return data.length;
		});
	}

	it('SseParser: one event spanning 1,000 and 4,000 small chunks', () => {
		const small = oneSseEventIn(1000, 1000);
		const big = oneSseEventIn(4000, 1000);
		expect(small.result).toBe(1e6);
		expect(big.result).toBe(4e6);
		// every character is scanned at most twice (once for LF, once for CR) and joined once
		expect(small.scanned).toBeLessThanOrEqual(2 * 1e6 + 200);
		expect(small.joined).toBeLessThanOrEqual(1e6 + 100);
		// four times the input, four times the work (a quadratic reader would do sixteen times)
		expect(big.scanned / small.scanned).toBeLessThan(4.1);
		expect(big.joined / small.joined).toBeLessThan(4.1);
	});

	it.each(['sse', 'jsonLines'] as StreamFormat[])(
		'StreamReader (%s): one event spanning 1,000 chunks of bytes',
		(format) => {
			const payload = JSON.stringify({ id: 'm1', text: 'ł'.repeat(500000) });
			const text =
				format === 'sse'
					? `event: mention\ndata: ${payload}\nid: m1\n\n`
					: `{"event":"mention","data":${payload},"id":"m1"}\n`;
			const bytes = encoder.encode(text);
			const size = Math.ceil(bytes.length / 1000);
			const work = countWork(() => {
				const reader = new StreamReader(format);
				const items = [];
				for (let i = 0; i < bytes.length; i += size)
					items.push(...reader.push(bytes.subarray(i, i + size)));
				items.push(...reader.end());
				return items;
			});
			expect(work.result).toEqual([{ type: 'mention', id: 'm1', mention: JSON.parse(payload) }]);
			expect(work.scanned).toBeLessThanOrEqual(2 * text.length + 1000);
			expect(work.joined).toBeLessThanOrEqual(text.length + 1000);
		},
	);

	it('many short lines, CR-only line breaks and lines without colon scan linearly', () => {
		for (const text of [
			'data: x\r'.repeat(20000) + '\r',
			'data: x\n'.repeat(20000) + '\n',
			'x\n'.repeat(20000),
			':\r\n'.repeat(20000),
		]) {
			const work = countWork(() => {
				let events = 0;
				const parser = new SseParser({ onEvent: () => events++ });
				parser.feed(text);
				parser.end();
				return events;
			});
			expect(work.scanned).toBeLessThanOrEqual(3 * text.length);
		}
	});

	it('a 16 MB JSON line in 16,000 chunks is read quickly (generous bound)', () => {
		const payload = JSON.stringify({ id: 'big', text: 'y'.repeat(16e6) });
		const bytes = encoder.encode(`{"event":"mention","data":${payload}}\n`);
		const started = Date.now();
		const reader = new StreamReader('jsonLines', { maxEventBytes: 32e6 });
		const items = [];
		for (let i = 0; i < bytes.length; i += 1000)
			items.push(...reader.push(bytes.subarray(i, i + 1000)));
		items.push(...reader.end());
		expect(items.map((i) => i.type)).toEqual(['mention']);
		expect(Date.now() - started).toBeLessThan(10000); // takes ~0.1 s; a quadratic reader copies ~128 GB
	});
});
