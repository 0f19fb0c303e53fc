/**
 * Volume beyond what the poll trigger's searches carry: each request brings up to 25 mentions, so
 * its share of the search budget caps what it reads in an hour (its ceiling, `ceilingPerHour`:
 * about 300 at the defaults). A check that ends with more to read while mentions arrive faster
 * than that has fallen behind (`fallingBehind`): the next check says so, with the backlog and what
 * to do, and — with Options → Catch Up by Export (on by default) — a later check reads the whole
 * backlog with one export stream (trigger/common/exportRange.ts, the one catch-up export), which
 * costs one request of the export budget whatever its size, at most one every
 * `CATCH_UP_SPACING_MS`. Nothing is taken on trust: the export's mentions go through the same id
 * memory and watermark as a search's (never one passed on twice), and an export that stops early
 * counts only when what it delivered came in collection order; otherwise the searches go on from
 * the watermark. An export SentiOne refuses (no such route, the tier, its budget) leaves the
 * searches to it, said once.
 */
import type { IDataObject } from 'n8n-workflow';

import { PAGE_SIZES, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import type { Outcome } from '../../shared/attempt';
import { attempt } from '../../shared/attempt';
import { errorDetails } from '../../shared/errors';
import { nextHourStart } from '../../shared/transport';
import type { SentiOneTransport } from '../../shared/transport';
import { HOUR_MS, MINUTE_MS, SECOND_MS } from '../../shared/units';
import { withoutFilters } from '../../shared/verify';
import type { RangeExport } from '../common/exportRange';
import { exportCollectedRange } from '../common/exportRange';
import { idAndCollectedAt } from '../common/mentionKey';
import type { PollSettings } from './pollSettings';
import { MAX_REQUESTS_PER_HOUR } from './pollSettings';
import type { PollState } from './pollState';
import { rereadAllowance, scanFrom } from './watermark';

/** Shortest time between two catch-up exports (at most 3 of the key's 5 export requests an hour). */
export const CATCH_UP_SPACING_MS = 20 * MINUTE_MS;
/** The mentions a check read must span at least this long to tell an arrival rate (not a burst at one instant). */
const MIN_RATE_SPAN_MS = 30 * SECOND_MS;

/** Mentions an hour the trigger's searches carry at most: its share (or the whole budget) × a page. */
export function ceilingPerHour(settings: PollSettings): number {
	const perHour = settings.requestsPerHour > 0 ? settings.requestsPerHour : MAX_REQUESTS_PER_HOUR;
	return perHour * (PAGE_SIZES.search as number);
}

/** How far behind the trigger is, as the notice tells it. */
export interface Behind {
	/** mentions an hour arriving, as the check measured them */
	ratePerHour: number;
	/** mentions waiting, estimated at that rate */
	backlog: number;
	/** collectedAt of the newest mention passed on (the oldest waiting came after it) */
	since: number;
}

/**
 * A check that ends with more to read (`moreToRead`) while the mentions it read arrived faster
 * than the trigger's ceiling (its share's: a trigger without one is told by the slow rule alone):
 * how far behind it is. Undefined when it keeps up, or when the
 * mentions read span too short a time to tell a rate (a burst at one instant is a backlog a few
 * checks clear, not a rate).
 */
export function fallingBehind(
	settings: PollSettings,
	state: PollState,
	read: IDataObject[],
	moreToRead: boolean,
	now: number,
): Behind | undefined {
	// without a share of its own its pace is n8n's Poll Times, which it does not know: only the
	// slow rule (checks in a row over an hour behind, pollMentions.ts) tells
	if (!moreToRead || state.watermark === null || settings.requestsPerHour <= 0) return undefined;
	const times = read
		.map((m) => idAndCollectedAt(m).collectedAt)
		.filter((at): at is number => at !== undefined);
	if (times.length < 2) return undefined;
	const span = Math.max(...times) - Math.min(...times);
	if (span < MIN_RATE_SPAN_MS) return undefined;
	const ratePerHour = ((times.length - 1) * HOUR_MS) / span;
	if (ratePerHour <= ceilingPerHour(settings)) return undefined;
	const since = state.watermark;
	const backlog = Math.max(0, Math.round((ratePerHour * Math.max(0, now - since)) / HOUR_MS));
	return { ratePerHour: Math.round(ratePerHour), backlog, since };
}

/** Whether this check catches up by export (falling behind, allowed, and not too soon after the last). */
export function catchUpDue(settings: PollSettings, state: PollState, now: number): boolean {
	const c = state.catchUp;
	return (
		settings.catchUp &&
		state.behind !== undefined &&
		state.watermark !== null &&
		c?.off === undefined &&
		(c?.at === undefined || now - c.at >= CATCH_UP_SPACING_MS) &&
		(c?.waitUntil === undefined || now >= c.waitUntil)
	);
}

/** What a catch-up brought: the mentions to pass on (oldest first), or undefined (the searches go on). */
export interface CaughtUp {
	mentions: IDataObject[];
	/** every mention of the range was read */
	complete: boolean;
	/** requests it spent (of the export budget) */
	requests: number;
}

/** Why SentiOne refused an export, when it will not change by waiting (no route, the tier): said once, and no more tries. */
function refusedForGood(error: unknown): boolean {
	const status = errorDetails(error)?.statusCode;
	return status === 401 || status === 403 || status === 404 || status === 405;
}

/**
 * Reads everything collected from the scan's start to now with one export, and notes it in the
 * state (when, and what SentiOne said when it refused). Undefined: the check searches as usual.
 */
export async function catchUpByExport(
	transport: SentiOneTransport,
	settings: PollSettings,
	state: PollState,
	now: number,
): Promise<{ caught?: CaughtUp; refusal?: string; requests: number }> {
	const from = scanFrom(state, settings.lateWindowMs, rereadAllowance(state, now));
	const before = transport.requestsSent;
	if (from === undefined || from >= now) return { requests: 0 };
	const filters = withoutFilters(
		{ [SEARCH_REQUEST_FIELDS.filters]: settings.filters },
		state.unsent ?? [],
	)[SEARCH_REQUEST_FIELDS.filters] as IDataObject;
	const outcome: Outcome<RangeExport> = await attempt(
		async () =>
			await exportCollectedRange(transport, transport.node, {
				projectId: settings.projectId,
				scope: settings.source,
				filters,
				from,
				to: now,
				format: 'sse',
			}),
	);
	const requests = transport.requestsSent - before;
	state.catchUp = { ...(state.catchUp ?? {}), at: now };
	delete state.catchUp.waitUntil;
	if (!outcome.ok) {
		const details = errorDetails(outcome.error);
		const message = String((outcome.error as Error)?.message ?? outcome.error);
		if (refusedForGood(outcome.error)) {
			state.catchUp.off = 1;
			return { refusal: message, requests };
		}
		if (details?.statusCode === 429)
			state.catchUp.waitUntil = details.resetAt ?? nextHourStart(now);
		return { requests };
	}
	const { mentions, complete } = outcome.value;
	const keyed = mentions.map((mention) => ({ mention, at: idAndCollectedAt(mention).collectedAt }));
	if (!complete) {
		// only a part in collection order moves the watermark safely (all before the last came)
		const inOrder = keyed.every(
			(m, i) => m.at !== undefined && (i === 0 || m.at >= (keyed[i - 1].at as number)),
		);
		if (!inOrder) return { requests };
	}
	// oldest first, as a search passes them on (a stable sort keeps the order of equal instants)
	const sorted = keyed
		.filter((m) => m.at !== undefined)
		.sort((a, b) => (a.at as number) - (b.at as number))
		.map((m) => m.mention);
	return { caught: { mentions: sorted, complete, requests }, requests };
}
