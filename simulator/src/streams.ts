/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Streams (D-23…D-33): framing (SSE or JSON lines), heartbeats, anonymization, the writer with
// backpressure and stream faults, and the hub that feeds live and engagement subscribers.

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

import { bigMentionJson, bigUpdateJson, isBigMention } from './bigCounts.ts';
import type { Clock } from './clock.ts';
import type { StreamFaults } from './faults.ts';
import type { EngagementMetrics, Mention, Rec } from './types.ts';
import type { Anonymization } from './validate.ts';

export type Framing = 'sse' | 'ndjson' | 'json';

const MEDIA: Record<string, Framing> = {
	'text/event-stream': 'sse',
	'application/x-ndjson': 'ndjson',
	'application/json': 'json',
};

export const CONTENT_TYPES: Record<Framing, string> = {
	sse: 'text/event-stream',
	ndjson: 'application/x-ndjson',
	json: 'application/json',
};

/** D-27: pick the framing from Accept (highest q first); null → 406. */
export function negotiate(accept: string | undefined): Framing | null {
	if (!accept) return null;
	const ranges = accept
		.split(',')
		.map((part, i) => {
			const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
			const q = params.find((p) => p.startsWith('q='));
			return { type, q: q ? Number(q.slice(2)) : 1, i };
		})
		.filter((r) => r.q > 0 && MEDIA[r.type])
		.sort((a, b) => b.q - a.q || a.i - b.i);
	return ranges.length ? MEDIA[ranges[0].type] : null;
}

// --- anonymization (D-26) ---------------------------------------------------------------------

export function sha256Hex(s: string): string {
	return createHash('sha256').update(s).digest('hex');
}

function hashValue(v: unknown): unknown {
	return typeof v === 'string' ? sha256Hex(v) : v;
}

/**
 * The JSON of a mention as a search page or a stream sends it: anonymized when asked, its counts
 * above 2^53 under the variant `bigCounts=on` (bigCounts.ts).
 */
export function mentionJson(rec: Rec, level: Anonymization, bigCounts = false): string {
	const big = bigCounts && isBigMention(rec.id);
	if (!level)
		return big ? (rec.bigJson ??= bigMentionJson(rec.m)) : (rec.json ??= JSON.stringify(rec.m));
	// the store holds ordinary numbers, so the copy through JSON is exact
	const m = JSON.parse((rec.json ??= JSON.stringify(rec.m))) as Mention;
	if (m.author) {
		m.author.id = hashValue(m.author.id) as string | null;
		m.author.name = hashValue(m.author.name) as string | null;
		m.author.avatar = null;
	}
	if (m.discussion?.author)
		m.discussion.author.name = hashValue(m.discussion.author.name) as string | null;
	if (level === 'all') {
		const ch = m.source?.socialChannel;
		if (ch) {
			ch.id = hashValue(ch.id) as string | null;
			ch.name = hashValue(ch.name) as string | null;
		}
		const parentAuthor = m.context?.parent?.author;
		if (parentAuthor) parentAuthor.name = hashValue(parentAuthor.name) as string | null;
	}
	return big ? bigMentionJson(m) : JSON.stringify(m);
}

// --- engagement updates (D-28) ----------------------------------------------------------------

export interface EngagementUpdate {
	mentionId: string;
	engagementMetrics: EngagementMetrics;
	updatedAt: string;
}

/**
 * The `data` of an engagementUpdate event: D-28's full update, or (variant
 * `engagementPayload=id-only`) only the mention id and the instant; counts above 2^53 under
 * `bigCounts=on`.
 */
export function updateJson(
	u: EngagementUpdate,
	payload: 'full' | 'id-only',
	bigCounts: boolean,
): string {
	if (payload === 'id-only')
		return JSON.stringify({ mentionId: u.mentionId, updatedAt: u.updatedAt });
	return bigCounts && isBigMention(u.mentionId) ? bigUpdateJson(u) : JSON.stringify(u);
}

// --- the writer -------------------------------------------------------------------------------

export interface WriterOptions {
	res: ServerResponse;
	framing: Framing;
	clock: Clock;
	heartbeatMs: number;
	legacyHeartbeat: boolean;
	faults: StreamFaults;
	/** Whether dropAfterBytes applies to this connection (dropTimes). */
	drop: boolean;
	onClose: () => void;
}

/**
 * Serialises everything written to one stream response: frames never interleave, writes respect
 * backpressure, and the stream faults (drop, stall, chunking, malformed and unknown events) apply.
 */
export class StreamWriter {
	closed = false;
	stalled = false;
	bytes = 0;
	dataEvents = 0;
	private chain: Promise<void> = Promise.resolve();
	private timer: NodeJS.Timeout | undefined;
	private noticeCount = 0;
	private readonly o: WriterOptions;

	constructor(o: WriterOptions) {
		this.o = o;
		if (o.faults.stallAfterEvents === 0) this.stalled = true;
		o.res.on('close', () => {
			this.closed = true;
			this.stopHeartbeats();
			o.onClose();
		});
	}

	frame(kind: string, data: string, id: string): string {
		if (this.o.framing === 'sse') return `event: ${kind}\ndata: ${data}\nid: ${id}\n\n`;
		return `{"event":${JSON.stringify(kind)},"data":${data},"id":${JSON.stringify(id)}}\n`;
	}

	/**
	 * The frame(s) for one data event (mention or engagement update), or '' when the stream is
	 * stalled or closed. Applies malformedEvery / unknownEventEvery / stallAfterEvents.
	 */
	dataFrame(kind: string, json: string, id: string): string {
		if (this.closed || this.stalled) return '';
		const f = this.o.faults;
		this.dataEvents++;
		let out = '';
		if (f.unknownEventEvery && this.dataEvents % f.unknownEventEvery === 0) {
			this.noticeCount++;
			out += this.frame(
				'notice',
				JSON.stringify({ message: 'Scheduled maintenance tonight at 02:00 UTC.' }),
				`notice-${this.noticeCount}`,
			);
		}
		if (f.malformedEvery && this.dataEvents % f.malformedEvery === 0) {
			out += this.frame(kind, json.slice(0, Math.floor(json.length / 2)), id);
		} else {
			out += this.frame(kind, json, id);
		}
		if (f.stallAfterEvents !== undefined && this.dataEvents >= f.stallAfterEvents)
			this.stalled = true;
		return out;
	}

	heartbeatFrame(): string {
		const iso = this.o.clock.iso();
		const id = iso.replace(/Z$/, '+00:00');
		if (this.o.legacyHeartbeat) {
			return this.frame('heartbeat', this.o.framing === 'sse' ? iso : JSON.stringify(iso), id);
		}
		return this.frame('heartbeat', JSON.stringify({ date: iso }), id);
	}

	startHeartbeats(): void {
		this.timer = setInterval(() => {
			if (!this.closed && !this.stalled) void this.send(this.heartbeatFrame());
		}, this.o.heartbeatMs);
	}

	stopHeartbeats(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	/** Queue text for writing; resolves when it is written (or the stream closed). */
	send(text: string): Promise<void> {
		if (!text || this.closed) return this.chain;
		this.chain = this.chain.then(() => this.write(text));
		return this.chain;
	}

	/** Close normally once everything queued is written (D-30). */
	end(): Promise<void> {
		this.stopHeartbeats();
		this.chain = this.chain.then(() => {
			if (!this.closed) this.o.res.end();
		});
		return this.chain;
	}

	/**
	 * Break the connection without a normal end. Graceful: what was written still reaches the
	 * client, then the socket closes mid-body (a truncated chunked body). Otherwise: at once.
	 */
	destroy(graceful = false): void {
		this.stopHeartbeats();
		this.closed = true;
		const socket = this.o.res.socket;
		if (graceful && socket) {
			socket.end();
			setTimeout(() => socket.destroy(), 2000).unref();
			return;
		}
		socket?.destroy();
		this.o.res.destroy();
	}

	private async write(text: string): Promise<void> {
		if (this.closed) return;
		let buf = Buffer.from(text);
		const limit = this.o.faults.dropAfterBytes;
		if (this.o.drop && limit !== undefined && this.bytes + buf.length > limit) {
			buf = buf.subarray(0, Math.max(limit - this.bytes, 0));
			if (buf.length) await this.writeBuf(buf, true);
			this.bytes += buf.length;
			this.destroy(true);
			return;
		}
		await this.writeBuf(buf, false);
		this.bytes += buf.length;
	}

	private async writeBuf(buf: Buffer, flush: boolean): Promise<void> {
		const chunk = this.o.faults.chunkBytes;
		if (chunk) {
			for (let i = 0; i < buf.length && !this.closed; i += chunk) {
				await this.writeOne(buf.subarray(i, i + chunk), true);
				await new Promise((r) => setTimeout(r, 1));
			}
		} else {
			await this.writeOne(buf, flush);
		}
	}

	private writeOne(buf: Buffer, waitFlush: boolean): Promise<void> {
		const res = this.o.res;
		if (this.closed || res.destroyed) return Promise.resolve();
		return new Promise<void>((resolve) => {
			let finished = false;
			let needDrain = false;
			let needFlush = waitFlush;
			const finish = () => {
				if (finished) return;
				finished = true;
				res.off('close', finish);
				res.off('drain', onDrain);
				resolve();
			};
			const check = () => {
				if (!needDrain && !needFlush) finish();
			};
			const onDrain = () => {
				needDrain = false;
				check();
			};
			res.on('close', finish);
			const ok = res.write(
				buf,
				waitFlush
					? () => {
							needFlush = false;
							check();
						}
					: undefined,
			);
			if (!ok) {
				needDrain = true;
				res.once('drain', onDrain);
			}
			check();
		});
	}
}

// --- live subscribers -------------------------------------------------------------------------

export interface LiveSubscriber {
	projectId: number;
	/** Receives every newly collected mention of the project; filters on its own. */
	deliver: (recs: Rec[]) => void;
}

export interface EngagementSubscriber {
	deliver: (updates: EngagementUpdate[]) => void;
}

/** Fan-out of newly collected mentions and engagement updates to open live streams. */
export class Hub {
	readonly live = new Set<LiveSubscriber>();
	readonly engagement = new Set<EngagementSubscriber>();

	publishMentions(projectId: number, recs: Rec[]): void {
		if (!recs.length) return;
		for (const s of this.live) if (s.projectId === projectId) s.deliver(recs);
	}

	publishEngagement(updates: EngagementUpdate[]): void {
		if (!updates.length) return;
		for (const s of this.engagement) s.deliver(updates);
	}
}
