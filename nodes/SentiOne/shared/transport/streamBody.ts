/**
 * The body of an open stream as items: chunks through the body guard (liveness counted in complete
 * events, not bytes), decoded by the one stream reader, within the stream's byte cap and deadline.
 * A stream that breaks off, goes silent, runs too long or brings too much ends with an error that
 * says which (streamInterrupted details); one that carried nothing SentiOne documents is an
 * unusable answer, never an empty stream.
 */
import type { INode } from 'n8n-workflow';

import type { RequestInfo } from '../errors';
import { streamInterrupted, unusableAnswer } from '../errors';
import type { StreamItem, StreamReader, StreamStats } from '../stream';
import type { Chunked, Guard } from './bodyGuard';
import {
	DeadlineError,
	durationText,
	formatBytes,
	guardedChunks,
	minutesText,
	SizeError,
	StallError,
	StoppedError,
} from './bodyGuard';

/** The connection a stream's items come over. */
export interface StreamConnection {
	/** true once it was closed (by the caller, or at the end) */
	readonly closed: boolean;
	/** drops the connection (anything but a normal end) */
	close(): void;
	/** the server ended the stream normally */
	ended(): void;
}

export interface StreamLimits {
	/** most bytes the whole stream may bring */
	maxBytes?: number;
	/** longest the stream may stay open (for the message; the guard holds the instant) */
	deadlineMs?: number;
	itemIndex?: number;
	/** the error of a stopped run (cancel.ts), when the run's stop drops the stream */
	stopped?: () => Error;
}

/** The events that are progress on a stream (the stall limit counts from the last of them). */
const LIVENESS = new Set<StreamItem['type']>(['mention', 'heartbeat', 'engagementUpdate']);

/** A stall's words: the limit, that bytes do not count, and what had arrived. */
function stallText(error: StallError, seen: StreamStats, request: RequestInfo): string {
	const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
	const engagement = request.endpoint === 'engagementStream';
	const arrived = engagement
		? plural(seen.engagementUpdates, 'engagement update')
		: plural(seen.mentions, 'mention');
	return `no complete event (${engagement ? 'an engagement update' : 'a mention'} or a heartbeat) for ${durationText(error.stallMs)}, the stall limit (bytes alone do not count); ${arrived} had arrived`;
}

export async function* streamItems(
	node: INode,
	request: RequestInfo,
	source: Chunked,
	reader: StreamReader,
	guard: Guard,
	connection: StreamConnection,
	limits: StreamLimits,
): AsyncGenerator<StreamItem> {
	let ended = false;
	try {
		try {
			for await (const chunk of guardedChunks(source, guard)) {
				const items = reader.push(chunk);
				if (limits.maxBytes !== undefined && reader.stats.bytes > limits.maxBytes) {
					throw new SizeError(
						`${formatBytes(reader.stats.bytes)} arrived, more than the ${formatBytes(limits.maxBytes)} allowed`,
					);
				}
				for (const item of items) {
					// progress is a complete event SentiOne documents: never bytes, comments, events
					// of unknown kinds or unreadable ones
					if (LIVENESS.has(item.type)) guard.liveness.at = Date.now();
					yield item;
				}
			}
		} catch (error) {
			if (connection.closed) return;
			if (error instanceof StoppedError && limits.stopped) throw limits.stopped();
			if (error instanceof SizeError)
				throw streamInterrupted(node, 'oversize', error.message, limits.itemIndex);
			if (error instanceof DeadlineError) {
				throw streamInterrupted(
					node,
					'deadline',
					`the stream was still open after ${minutesText(limits.deadlineMs ?? 0)}, the longest allowed`,
					limits.itemIndex,
				);
			}
			throw error instanceof StallError
				? streamInterrupted(
						node,
						'stalled',
						stallText(error, reader.stats, request),
						limits.itemIndex,
					)
				: streamInterrupted(
						node,
						'dropped',
						String((error as Error)?.message ?? 'connection lost'),
						limits.itemIndex,
					);
		}
		if (connection.closed) return;
		for (const item of reader.end()) yield item;
		const seen = reader.stats;
		if (seen.malformed > 0 && seen.mentions + seen.heartbeats + seen.engagementUpdates === 0) {
			// nothing SentiOne documents arrived, only unreadable content: not a stream that ended
			throw unusableAnswer(
				node,
				request,
				`the stream carried no event SentiOne documents, only ${seen.malformed} unreadable one${seen.malformed === 1 ? '' : 's'} (a JSON document or a page instead of a stream?)`,
				limits.itemIndex,
			);
		}
		ended = true;
	} finally {
		if (ended) connection.ended();
		else connection.close();
	}
}
