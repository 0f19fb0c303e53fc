/**
 * Catching up by export: every matching mention collected in [from, to), through one export
 * stream, which costs one request of the export budget whatever its size (searches would cost one
 * per 25 mentions). Used when a trigger has fallen behind further than its searches can carry
 * (the poll trigger beyond its ceiling; the Stream Trigger after a long outage or a restart).
 *
 * Nothing is taken on trust: the range is widened by a second on each side and every mention is
 * checked again against the filters and the range (FilterVerifier), so a server that reads the
 * bounds another way, or ignores the collectedAt filter, still yields exactly the range; a stream
 * that stops early or outgrows the cap says so (`complete: false`), and the caller keeps the range
 * as a hole rather than counting it as seen.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { BOUNDS } from '../../shared/bounds';
import type { Scope } from '../../shared/contract';
import {
	FILTER_FIELDS,
	FILTER_SHAPES,
	route,
	scopedEndpoint,
	SEARCH_REQUEST_FIELDS,
} from '../../shared/contract';
import { asNodeError, errorDetails } from '../../shared/errors';
import type { StreamFormat } from '../../shared/stream';
import { toIso } from '../../shared/time';
import type { SentiOneTransport } from '../../shared/transport';
import { FilterVerifier, widenCollectedAt, withFilterFallback } from '../../shared/verify';
import { idAndCollectedAt } from './mentionKey';

/** The bounds of a catch-up export. */
export const CATCH_UP_CAPS = {
	/** most mentions one catch-up reads (beyond it the range stays a hole) */
	maxMentions: 50_000,
	/** most stream data it reads */
	maxBytes: 256 * 1_000_000,
	/** longest it may take */
	deadlineMs: 10 * 60_000,
	/** the stall limit: an export with no complete event (a mention or a heartbeat) for this long has stalled */
	idleMs: BOUNDS.exportStallMs,
} as const;

export interface RangeExport {
	/** the matching mentions of the range, in the order they came */
	mentions: IDataObject[];
	/** every matching mention of the range was read */
	complete: boolean;
	/** why not, in words */
	why?: string;
	/** requests spent (1, or 2 when a refused filter had to be left out) */
	requests: number;
}

/** Exports the mentions of `projectId` collected in [from, to) that match `filters`. */
export async function exportCollectedRange(
	transport: SentiOneTransport,
	node: INode,
	request: {
		projectId: number;
		scope: Scope;
		filters: IDataObject;
		from: number;
		to: number;
		format: StreamFormat;
		signal?: AbortSignal;
	},
): Promise<RangeExport> {
	const filters: IDataObject = {
		...request.filters,
		[FILTER_FIELDS.collectedAt]: FILTER_SHAPES.collectedAt(
			toIso(request.from, 'the start of the catch-up range'),
			toIso(request.to, 'the end of the catch-up range'),
		),
	};
	const body: IDataObject = {
		[SEARCH_REQUEST_FIELDS.filters]: filters,
		[SEARCH_REQUEST_FIELDS.sortType]: 'CollectedAtAscending',
	};
	const verifier = new FilterVerifier(filters);
	const before = transport.requestsSent;
	const { value: stream } = await withFilterFallback(
		node,
		widenCollectedAt(body),
		async (sent) =>
			await transport.openStream({
				...route(scopedEndpoint('export', request.scope), request.projectId),
				body: sent,
				format: request.format,
				idleTimeoutMs: CATCH_UP_CAPS.idleMs,
				deadlineMs: CATCH_UP_CAPS.deadlineMs,
				maxBytes: CATCH_UP_CAPS.maxBytes,
				signal: request.signal,
			}),
	);
	const mentions: IDataObject[] = [];
	const seen = new Set<string>();
	try {
		for await (const item of stream.items) {
			if (item.type !== 'mention') continue;
			const { id, collectedAt } = idAndCollectedAt(item.mention);
			if (collectedAt === undefined || collectedAt < request.from || collectedAt >= request.to)
				continue;
			if (!verifier.keep(item.mention)) continue;
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			if (mentions.length >= CATCH_UP_CAPS.maxMentions) {
				return {
					mentions,
					complete: false,
					why: `the catch-up export stopped at ${CATCH_UP_CAPS.maxMentions.toLocaleString('en-US')} mentions`,
					requests: transport.requestsSent - before,
				};
			}
			mentions.push(item.mention);
		}
	} catch (error) {
		const interrupted = errorDetails(error)?.streamInterrupted;
		if (!interrupted) throw asNodeError(node, error);
		return {
			mentions,
			complete: false,
			why: `the catch-up export ${interrupted === 'deadline' ? 'took too long' : interrupted === 'oversize' ? 'grew too large' : interrupted === 'stalled' ? `stalled (no complete event for ${CATCH_UP_CAPS.idleMs / 1000} s, its stall limit)` : 'broke off'} after ${mentions.length} mentions`,
			requests: transport.requestsSent - before,
		};
	} finally {
		stream.close();
	}
	return { mentions, complete: true, requests: transport.requestsSent - before };
}
