/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports -- benchmark code: not shipped */
/**
 * Part 2 — stream decoding. The same bytes go through three decoders:
 *
 * - **StreamReader**, the node's own reader as shipped (`dist/nodes/SentiOne/shared/stream/`):
 *   bytes in, typed items out (UTF-8 decoding, framing, one JSON.parse per event, kind and id checks);
 * - **eventsource-parser** (SSE only; JSON lines are not its format): `TextDecoder` in streaming
 *   mode → `parser.feed()` → `JSON.parse(event.data)` for each `mention` event, which is how it is
 *   used (its own EventSourceParserStream is TextDecoderStream + the same parser);
 * - **bare JSON.parse** of the same mentions, already cut out and decoded (the SSE `data` strings;
 *   the JSON lines), with no framing and no decoding at all: the ceiling.
 *
 * For SSE, the part where the StreamReader and eventsource-parser differ is also timed on its own:
 * UTF-8 decoding and framing only (the reader's SseParser and eventsource-parser, each fed by its
 * TextDecoder, counting mention events, no JSON.parse). For JSON lines a hand-written reader
 * (TextDecoder, `split('\n')`, JSON.parse per line) is shown for reference. No target applies to
 * these rows.
 *
 * The bytes are a real export of the simulator (historical export, N mentions), captured over
 * HTTP in both framings. They are fed in the chunks the socket delivered them in (loopback), and
 * re-cut into 16 KiB chunks (a TLS record: what an HTTPS connection yields) and 1,460-byte chunks
 * (one TCP segment each: the worst case). Every pass runs in this worker process after a warm-up,
 * the decoders in rotating order, each pass after a full garbage collection; each pass must
 * return exactly N mentions. A round (one pass of each decoder) during which other processes used
 * more than half a core is measured again. mentions/s and MB/s (10^6 bytes of the stream per second) are
 * computed over the same stream bytes for every decoder, so their ratios are the same. The process's
 * CPU time of each pass is recorded too: on a shared machine it is the steadier cross-check.
 */
import { request } from 'node:http';
import { join } from 'node:path';

import { createParser } from 'eventsource-parser';

import type {
	SseParser as SseParserSource,
	StreamReader as StreamReaderSource,
} from '../nodes/SentiOne/shared/stream';
import { cpuMonitor, MB, ROOT, stat, type Stat } from './lib';

type Format = 'sse' | 'jsonLines';

/** The reader as shipped (dist/, built by `npm run bench`); its types from the source. */
function shipped(): { StreamReader: typeof StreamReaderSource; SseParser: typeof SseParserSource } {
	return require(join(ROOT, 'dist', 'nodes', 'SentiOne', 'shared', 'stream', 'index.js')) as {
		StreamReader: typeof StreamReaderSource;
		SseParser: typeof SseParserSource;
	};
}

export interface Capture {
	format: Format;
	bytes: number;
	mentions: number;
	chunks: Buffer[];
}

/** The simulator's historical export of project 1001 (the first `limit` mentions), as the socket delivered it. */
export function captureExport(base: string, format: Format, limit: number): Promise<Capture> {
	const url = new URL(`${base}/api/public/v2/projects/1001/mentions/search/stream?limit=${limit}`);
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: url.hostname,
				port: url.port,
				path: url.pathname + url.search,
				method: 'POST',
				agent: false,
				headers: {
					'x-api-key': 'SENTIONE-APIKEY-enterprise-demo',
					'content-type': 'application/json',
					accept: format === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
				},
			},
			(res) => {
				if (res.statusCode !== 200) {
					reject(new Error(`export answered ${res.statusCode}`));
					res.resume();
					return;
				}
				const chunks: Buffer[] = [];
				let bytes = 0;
				res.on('data', (d: Buffer) => {
					chunks.push(d);
					bytes += d.length;
				});
				res.on('end', () => {
					if (!res.complete) reject(new Error('the export broke off'));
					else resolve({ format, bytes, mentions: 0, chunks });
				});
				res.on('error', reject);
			},
		);
		req.setTimeout(600_000, () => req.destroy(new Error('export timed out')));
		req.on('error', reject);
		req.end(JSON.stringify({ filters: {}, sortType: 'PublishedAtDescending' }));
	});
}

/** The same bytes cut into chunks of `size` (views, no copy). */
function rechunk(whole: Buffer, size: number): Buffer[] {
	const out: Buffer[] = [];
	for (let i = 0; i < whole.length; i += size)
		out.push(whole.subarray(i, Math.min(i + size, whole.length)));
	return out;
}

/** The mentions' JSON texts: SSE `data` strings, or JSON lines (setup only, not timed). */
function mentionTexts(whole: Buffer, format: Format): string[] {
	const text = whole.toString('utf8');
	const out: string[] = [];
	if (format === 'sse') {
		for (const block of text.split('\n\n')) {
			if (!block.startsWith('event: mention\n')) continue;
			for (const line of block.split('\n')) if (line.startsWith('data: ')) out.push(line.slice(6));
		}
	} else {
		for (const line of text.split('\n')) if (line.startsWith('{"event":"mention"')) out.push(line);
	}
	return out;
}

interface Contestant {
	name: string;
	run(): number;
}

export interface DecodeFigure {
	format: Format;
	chunking: string;
	chunks: number;
	decoder: string;
	mentionsPerSecond: Stat;
	mbPerSecond: Stat;
	ms: Stat;
	/** CPU time of the worker process during each pass (user + system, GC threads included) */
	cpuMs?: Stat;
	mentionsPerCpuSecond?: Stat;
}

export interface DecodeResult {
	mentions: number;
	bytes: Record<Format, number>;
	meanMentionBytes: Record<Format, number>;
	loopbackChunkBytes: Record<Format, { median: number; max: number; count: number }>;
	figures: DecodeFigure[];
	runs: number;
	/** rounds (one pass of every decoder) measured again because other processes were busy */
	repeatedRounds: number;
}

/** Every chunk through a streaming TextDecoder into `feed`, the flush included. */
function feedDecoded(
	chunks: Buffer[],
	decoder: InstanceType<typeof TextDecoder>,
	feed: (text: string) => void,
): void {
	for (let c = 0; c < chunks.length; c++) feed(decoder.decode(chunks[c], { stream: true }));
	const rest = decoder.decode();
	if (rest) feed(rest);
}

/**
 * eventsource-parser as it is used: a streaming TextDecoder feeding `parser.feed()` (its own
 * EventSourceParserStream is TextDecoderStream + the same parser). Counts the `mention` events
 * whose data `accept` takes.
 */
function eventsourceParser(chunks: Buffer[], accept: (data: string) => boolean): number {
	let n = 0;
	const parser = createParser({
		onEvent(event) {
			if (event.event === 'mention' && accept(event.data)) n++;
		},
	});
	feedDecoded(chunks, new TextDecoder(), (text) => parser.feed(text));
	parser.reset({ consume: true });
	return n;
}

function contestants(format: Format, chunks: Buffer[], texts: string[]): Contestant[] {
	const { StreamReader, SseParser } = shipped();
	const list: Contestant[] = [
		{
			name: 'StreamReader',
			run() {
				const reader = new StreamReader(format);
				let n = 0;
				for (let c = 0; c < chunks.length; c++) {
					const items = reader.push(chunks[c]);
					for (let i = 0; i < items.length; i++) if (items[i].type === 'mention') n++;
				}
				for (const item of reader.end()) if (item.type === 'mention') n++;
				return n;
			},
		},
	];
	if (format === 'sse') {
		list.push({
			name: 'eventsource-parser + JSON.parse',
			run: () =>
				eventsourceParser(chunks, (data) => {
					const mention = JSON.parse(data) as { id?: unknown };
					return mention !== null && typeof mention === 'object' && mention.id !== undefined;
				}),
		});
		// The part where the two differ, on its own: UTF-8 decoding and SSE framing, no JSON.parse
		// (no target; it shows where the time of the two rows above goes).
		list.push({
			name: "framing only: SseParser (the reader's)",
			run() {
				let n = 0;
				const parser = new SseParser({
					onEvent(event) {
						if (event.event === 'mention') n++;
					},
				});
				feedDecoded(chunks, new TextDecoder('utf-8', { ignoreBOM: true }), (text) =>
					parser.feed(text),
				);
				parser.end();
				return n;
			},
		});
		list.push({
			name: 'framing only: eventsource-parser',
			run: () => eventsourceParser(chunks, () => true),
		});
	} else {
		list.push({
			name: 'hand-written lines reader (reference)',
			run() {
				let n = 0;
				let buffer = '';
				const line = (text: string) => {
					if (text.length === 0) return;
					const parsed = JSON.parse(text) as { event?: string; data?: { id?: unknown } };
					if (parsed.event === 'mention' && parsed.data?.id !== undefined) n++;
				};
				feedDecoded(chunks, new TextDecoder(), (text) => {
					buffer += text;
					const lines = buffer.split('\n');
					buffer = lines.pop() ?? '';
					for (let i = 0; i < lines.length; i++) line(lines[i]);
				});
				line(buffer);
				return n;
			},
		});
	}
	list.push({
		name: 'bare JSON.parse',
		run() {
			let n = 0;
			for (let i = 0; i < texts.length; i++) {
				const parsed = JSON.parse(texts[i]) as { id?: unknown; data?: { id?: unknown } };
				if ((format === 'sse' ? parsed.id : parsed.data?.id) !== undefined) n++;
			}
			return n;
		},
	});
	return list;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Runs in the decode worker (a process of its own, started with --expose-gc). */
export async function measureDecode(options: {
	base: string;
	mentions: number;
	runs: number;
	progress: (m: string) => void;
}): Promise<DecodeResult> {
	const figures: DecodeFigure[] = [];
	const bytes = { sse: 0, jsonLines: 0 };
	const meanMentionBytes = { sse: 0, jsonLines: 0 };
	const loopbackChunkBytes = {} as DecodeResult['loopbackChunkBytes'];
	let repeated = 0;
	for (const format of ['sse', 'jsonLines'] as const) {
		options.progress(`decode: capturing the ${format} export of ${options.mentions} mentions`);
		const capture = await captureExport(options.base, format, options.mentions);
		const whole = Buffer.concat(capture.chunks);
		const texts = mentionTexts(whole, format);
		if (texts.length !== options.mentions)
			throw new Error(
				`the ${format} export held ${texts.length} mentions, expected ${options.mentions}`,
			);
		bytes[format] = whole.length;
		meanMentionBytes[format] = Math.round(whole.length / texts.length);
		const sizes = stat(capture.chunks.map((c) => c.length));
		loopbackChunkBytes[format] = {
			median: sizes.median,
			max: sizes.max,
			count: capture.chunks.length,
		};
		const chunkings: Array<[string, Buffer[]]> = [
			['as delivered (loopback)', capture.chunks],
			['16 KiB', rechunk(whole, 16 * 1024)],
			['1,460 B', rechunk(whole, 1460)],
		];
		for (const [chunking, chunks] of chunkings) {
			const list = contestants(format, chunks, texts);
			// warm-up: every decoder twice (JIT), checked for exactness
			for (const c of list) {
				for (let w = 0; w < 2; w++) {
					const n = c.run();
					if (n !== options.mentions)
						throw new Error(
							`${c.name} (${format}, ${chunking}) returned ${n} mentions, expected ${options.mentions}`,
						);
				}
			}
			const times = new Map<string, number[]>(list.map((c) => [c.name, []]));
			const cpuTimes = new Map<string, number[]>(list.map((c) => [c.name, []]));
			// a pass during which other processes kept more than half a core busy is repeated
			// (at most 3 × runs attempts per decoder); how many were repeated is reported
			const maxAttempts = 3 * options.runs;
			for (let r = 0, attempts = 0; r < options.runs; attempts++) {
				const round: Array<[string, number, number]> = [];
				let disturbed = false;
				for (let k = 0; k < list.length; k++) {
					const c = list[(k + r) % list.length];
					gc();
					const others = cpuMonitor();
					const cpu0 = process.cpuUsage();
					const t0 = process.hrtime.bigint();
					const n = c.run();
					const ms = Number(process.hrtime.bigint() - t0) / 1e6;
					const cpu = process.cpuUsage(cpu0);
					if (others.stop() > 0.5) disturbed = true;
					if (n !== options.mentions)
						throw new Error(`${c.name} returned ${n} mentions, expected ${options.mentions}`);
					round.push([c.name, ms, (cpu.user + cpu.system) / 1000]);
				}
				// repeat while enough attempts are left for the passes still missing
				if (disturbed && maxAttempts - attempts - 1 >= options.runs - r) {
					repeated++;
					continue;
				}
				for (const [name, ms, cpuMs] of round) {
					times.get(name)!.push(ms);
					cpuTimes.get(name)!.push(cpuMs);
				}
				r++;
			}
			for (const c of list) {
				const ms = times.get(c.name)!;
				const cpuMs = cpuTimes.get(c.name)!;
				figures.push({
					cpuMs: stat(cpuMs),
					mentionsPerCpuSecond: stat(cpuMs.map((t) => options.mentions / (t / 1000))),
					format,
					chunking,
					chunks: chunks.length,
					decoder: c.name,
					ms: stat(ms),
					mentionsPerSecond: stat(ms.map((t) => options.mentions / (t / 1000))),
					mbPerSecond: stat(ms.map((t) => whole.length / MB / (t / 1000))),
				});
			}
			options.progress(
				`decode: ${format}, ${chunking}: ${list.map((c) => `${c.name} ${Math.round(stat(times.get(c.name)!).median)} ms`).join(', ')}`,
			);
		}
		capture.chunks.length = 0;
	}
	return {
		mentions: options.mentions,
		bytes,
		meanMentionBytes,
		loopbackChunkBytes,
		figures,
		runs: options.runs,
		repeatedRounds: repeated,
	};
}
