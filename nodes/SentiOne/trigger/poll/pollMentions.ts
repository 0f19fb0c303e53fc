/**
 * One poll of the New Mention trigger.
 *
 * - Manual "Fetch test event": one request for the latest matching mentions; the state is not read
 *   or written.
 * - First active poll: notes the newest matching mention (one request) and passes nothing on, or,
 *   with Backfill, starts the watermark N hours back and continues as a normal poll.
 * - Every other poll finds the mentions collected since the watermark, at most "Max Requests per
 *   Poll" pages, passes on each it has not passed on before (oldest first) and moves the watermark
 *   only over mentions in hand. A backlog bigger than one poll leaves a round open (its cursor).
 *   Two ways to find them (the contract module's UNCONFIRMED.collectedAtFilter):
 *   - SentiOne's `filters.collectedAt` (the announced filter, D-14), sorted by collection time
 *     ascending, from the watermark minus as much of the late-mention window as fits in the pages
 *     the check needs anyway;
 *   - once SentiOne is seen not to honour that filter (it returns older mentions, or refuses the
 *     filter's shape), the confirmed `CollectedAtDescending` sort alone: newest first, down to the
 *     watermark. Said once; kept from then on.
 *   Whatever the server returns, a mention older than the scan, below the floor, already passed on,
 *   without an id, or not matching the filters is never passed on.
 * - A 429 keeps the watermark: what was fetched before it is passed on, the rest waits for the next
 *   poll after the reset; the error says when that is (once per hourly window).
 * - Notices (a filter SentiOne did not apply, a repaired state …) are reported once, as an error of
 *   a check that has nothing to pass on, so no mention is held back for them.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { EndpointName, SortType } from '../../shared/contract';
import { endpoint, FILTER_FIELDS, FILTER_SHAPES, HOURLY_LIMITS, PATHS, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { asNodeError, errorDetails, formatInstant } from '../../shared/errors';
import type { PaginateResult } from '../../shared/pager';
import { paginate } from '../../shared/pager';
import { nextHourStart } from '../../shared/bounds';
import { clock, formatLocal, readServerInstant, toIso } from '../../shared/time';
import type { ApiRequest } from '../../shared/transport';
import { SentiOneTransport } from '../../shared/transport';
import {
	FilterVerifier,
	refusedFilters,
	refusedNotice,
	verificationNotice,
	withFilterFallback,
	withoutFilters,
} from '../../shared/verify';
import { attempt } from '../common/attempt';
import { asItems, idAndCollectedAt, mentionJson } from '../common/output';
import type { Collected, PollBudget, PollState, ScanMode } from './pollState';
import { addNotice, admit, loadState, newState, PAGE_SIZE_SEARCH, prune, rereadAllowance, saveState, scanFrom, wasSeen } from './pollState';
import type { PollSettings } from './pollSettings';
import { readPollSettings } from './pollSettings';

const ASCENDING: SortType = 'CollectedAtAscending';
const HOUR_MS = 3_600_000;
/** A check may come this share of the spacing early (n8n's schedule is not exact to the second). */
const SPACING_TOLERANCE = 0.9;
const DESCENDING: SortType = 'CollectedAtDescending';
/** New mentions short of the last check's count at which a check stops paging (the tail waits one check). */
const TAIL_SLACK = 2;
/** Pages allowed per 30 s of the engine's poll budget (each page may take a while on a slow link). */
const MS_PER_PAGE_OF_BUDGET = 30_000;

function searchRequest(settings: PollSettings, body: IDataObject): ApiRequest {
	const name: EndpointName = settings.source === 'historical' ? 'historicalSearch' : 'recentSearch';
	const path = settings.source === 'historical' ? PATHS.historicalSearch : PATHS.recentSearch;
	return { ...endpoint(name), path: path(settings.projectId), body, retry: { maxRateLimitWaitMs: 0 } };
}

function searchBody(filters: IDataObject, collectedFrom: number | undefined, sort: SortType): IDataObject {
	const withRange: IDataObject = { ...filters };
	if (collectedFrom !== undefined) {
		withRange[FILTER_FIELDS.collectedAt] = FILTER_SHAPES.collectedAt(toIso(collectedFrom));
	}
	return { [SEARCH_REQUEST_FIELDS.filters]: withRange, [SEARCH_REQUEST_FIELDS.sortType]: sort };
}

/**
 * The collectedAt sent for a scan that starts at `from`: a whole second earlier, so a server that
 * reads `from` as exclusive, or compares whole seconds, still returns the mentions at `from`; and
 * never ahead of the node's clock (a watermark moved ahead by a mention dated in the future must
 * not make SentiOne refuse the scan as asking for the future, D-18).
 */
function requestedFrom(from: number, now: number): number {
	return Math.min(Math.floor(from / 1000) * 1000 - 1000, Math.floor(now / 1000) * 1000 - 1000);
}

function roundKey(settings: PollSettings, mode: ScanMode): string {
	return JSON.stringify({ source: settings.source, filters: settings.filters, mode });
}

function budgetError(ctx: IPollFunctions, budget: PollBudget, requestSent: boolean): NodeApiError {
	const limit = budget.limit ?? HOURLY_LIMITS.search;
	const reset = budget.resetAt !== undefined ? ` It resets at ${formatInstant(budget.resetAt, clock.now(), ctx.getTimezone())}.` : '';
	const message = `SentiOne's search budget is used up (429): at most ${limit} requests an hour for this API key.${reset}`;
	const description = `${requestSent ? '' : 'No request was sent this time. '}The watermark was kept, so nothing is lost: the first check after the reset continues from the last mention passed on. Recent and historical search share this budget with every workflow using the key; poll less often, lower Max Requests per Poll, or use the SentiOne Stream Trigger for busy projects. This is reported once per hourly window.`;
	return new NodeApiError(ctx.getNode(), { message, httpCode: '429' } as JsonObject, {
		message,
		description,
		httpCode: '429',
	});
}

function rememberBudget(transport: SentiOneTransport, previous: PollBudget | undefined): PollBudget | undefined {
	const seen = transport.rateLimits.search;
	if (!seen) return previous;
	const budget: PollBudget = { limit: seen.limit, remaining: seen.remaining, resetAt: seen.resetAt };
	if (previous?.reported !== undefined && previous.reported === seen.resetAt) budget.reported = previous.reported;
	return budget;
}

/** The mentions in hand, with the id and collectedAt the state needs; those without an id are counted. */
function collect(mentions: IDataObject[], fallbackAt: number): { collected: Collected[]; keptAt: number[]; noId: number } {
	const collected: Collected[] = [];
	const keptAt: number[] = [];
	let noId = 0;
	mentions.forEach((mention, index) => {
		const { id, collectedAt } = idAndCollectedAt(mention);
		if (id === undefined) {
			noId++;
			return;
		}
		collected.push({ id, collectedAt: collectedAt ?? fallbackAt });
		keptAt.push(index);
	});
	return { collected, keptAt, noId };
}

/** "Fetch test event": the latest matching mentions, one request, state untouched. */
async function sample(ctx: IPollFunctions, transport: SentiOneTransport, settings: PollSettings) {
	const verifier = new FilterVerifier(settings.filters);
	const { value: result } = await withFilterFallback(
		ctx.getNode(),
		searchBody(settings.filters, undefined, DESCENDING),
		async (body) =>
			await paginate<IDataObject>(transport, searchRequest(settings, body), {
				returnAll: true,
				pageBudget: 1,
				onRateLimit: 'fail',
				keep: verifier.keep,
			}),
	);
	const rows = result.items.slice().reverse().map((m) => mentionJson(m, settings.simplify));
	return rows.length > 0 ? [asItems(rows)] : null;
}

/** "Start From: Now" (or a state that could not be read): note the newest matching mention, pass nothing on. */
async function seed(transport: SentiOneTransport, settings: PollSettings, now: number): Promise<PollState> {
	const verifier = new FilterVerifier(settings.filters);
	const { value: result, dropped, refusal } = await withFilterFallback(
		transport.node,
		searchBody(settings.filters, undefined, DESCENDING),
		async (body) =>
			await paginate<IDataObject>(transport, searchRequest(settings, body), {
				returnAll: true,
				pageBudget: 1,
				onRateLimit: 'fail',
				keep: verifier.keep,
			}),
	);
	const state = newState(settings.projectId, null);
	const unsent = dropped.filter((f): f is 'language' | 'country' => f !== 'collectedAt');
	if (unsent.length > 0) {
		state.unsent = unsent;
		addNotice(state, `refused:${unsent.join(',')}`, refusedNotice(unsent, refusal));
	}
	const { collected } = collect(result.items, now);
	if (collected.length > 0) {
		// oldest first, so the watermark ends at the newest
		admit(state, collected.slice().reverse(), now);
		// More matching mentions exist below the page: never scan down to them (they are old).
		if (!result.complete) state.floor = Math.min(...state.seen.map(([, at]) => at));
	}
	prune(state, settings.lateWindowMs);
	state.budget = rememberBudget(transport, undefined);
	return state;
}

function pagesThisPoll(ctx: IPollFunctions, settings: PollSettings): number {
	const budgetOf = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	const budgetMs = typeof budgetOf === 'function' ? budgetOf.call(ctx) : undefined;
	if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0) return settings.maxRequestsPerPoll;
	return Math.max(1, Math.min(settings.maxRequestsPerPoll, Math.floor(budgetMs / MS_PER_PAGE_OF_BUDGET)));
}

/** Reports the pending notices (once), as an error: nothing was held back for them. */
function noticeError(ctx: IPollFunctions, notices: string[]): NodeOperationError {
	const [first, ...rest] = notices;
	return new NodeOperationError(ctx.getNode(), first, {
		description: `${rest.length > 0 ? `${rest.join(' ')} ` : ''}This is reported once; the trigger goes on. No mention was held back for this notice.`,
	});
}

function repairNotice(repairs: string[], restarted: boolean): string {
	return `The trigger's saved state was repaired: ${repairs.join('; ')}.${restarted ? ' It started again from the newest matching mention, so mentions collected between its last good check and now may not have been passed on.' : ' Nothing is passed on twice; a mention collected in a part of the state that could not be read may have been missed.'}`;
}


interface Scan {
	result: PaginateResult<IDataObject>;
	body: IDataObject;
	/** descending: the scan reached below its start (or the end), so the round is done */
	done: boolean;
	/** ascending: SentiOne returned mentions collected before what was asked */
	ignored: boolean;
}

/** checks in a row ending with more to read before the trigger counts as falling behind */
const BEHIND_CHECKS = 6;

function behindNotice(settings: PollSettings, share: number): string {
	const limit = share > 0 ? `Search Requests per Hour: ${share}, at most ${settings.maxRequestsPerPoll} per check` : `Max Requests per Poll: ${settings.maxRequestsPerPoll}`;
	return `The trigger is falling behind: new mentions SentiOne collected over an hour ago are still waiting, because its requests (Options → ${limit}; each brings up to ${PAGE_SIZE_SEARCH} mentions) carry fewer than the project collects. Nothing is lost — they are passed on, oldest first, as the requests allow — but they arrive late. Raise those options (Search Requests per Hour at most ${HOURLY_LIMITS.search}, leaving less for other workflows using the key), or use the SentiOne Stream Trigger for a project this busy.`;
}

export async function pollNewMentions(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readPollSettings(this);
	const transport = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
	const node = this.getNode();

	if (this.getMode() === 'manual') return await sample(this, transport, settings);

	const staticData = this.getWorkflowStaticData('node');
	const now = clock.now();
	const loaded = loadState(staticData, settings.projectId, now);
	let state = loaded.state;
	if (!state) {
		if (settings.startFrom === 'now' || loaded.repairs.length > 0) {
			state = await seed(transport, settings, now);
			if (loaded.repairs.length > 0) addNotice(state, '', repairNotice(loaded.repairs, true));
			// the first check counts against the trigger's share like any other
			state.spent = { hour: Math.floor(now / HOUR_MS) * HOUR_MS, count: transport.requestsSent };
			state.checkedAt = now;
			if (transport.requestsSent > 0) state.lastCost = Math.min(transport.requestsSent, 100);
			saveState(staticData, state);
			if (state.pending) {
				const pending = state.pending;
				delete state.pending;
				saveState(staticData, state);
				throw noticeError(this, pending);
			}
			return null;
		}
		const start = now - settings.backfillHours * 3_600_000;
		state = newState(settings.projectId, start, start - 1);
	} else if (loaded.repairs.length > 0) {
		addNotice(state, '', repairNotice(loaded.repairs, false));
	}

	// This trigger's share of the key's search budget (Options → Search Requests per Hour): checks
	// are spaced to it and stop when it is spent; one that comes sooner sends nothing, quietly.
	const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
	if (state.spent?.hour !== hour) state.spent = { hour, count: 0 };
	const share = settings.requestsPerHour;
	// a check that sent n requests spends n spacings: the share is spread over the hour, not spent
	// in its first half by a backlog
	// (bounded: a saved cost beyond what a check may send, or a wait beyond the hour, is not obeyed)
	const cost = Math.min(Math.max(1, state.lastCost ?? 1), settings.maxRequestsPerPoll);
	const spacing = Math.min((HOUR_MS / share) * cost * SPACING_TOLERANCE, HOUR_MS);
	if (share > 0 && state.checkedAt !== undefined && now - state.checkedAt < spacing) return null;
	const shareLeft = share > 0 ? share - state.spent.count : Infinity;
	if (shareLeft <= 0) return null;
	const spent = state.spent;
	/** counts what this check sent against the share (called before every save that follows a request) */
	const account = () => {
		if (transport.requestsSent === 0) return;
		(state as PollState).spent = { hour, count: spent.count + transport.requestsSent };
		(state as PollState).checkedAt = now;
		(state as PollState).lastCost = Math.min(transport.requestsSent, 100);
	};

	// The budget is known to be spent: report it once per window, then wait quietly for the reset.
	const known = state.budget;
	if (known?.remaining === 0 && known.resetAt !== undefined && known.resetAt > now) {
		if (known.reported === known.resetAt) return null;
		known.reported = known.resetAt;
		saveState(staticData, state);
		throw budgetError(this, known, false);
	}

	const verifier = new FilterVerifier(settings.filters);
	// the filters sent: those SentiOne refused the shape of stay out (the verifier applies them)
	const sentFilters = withoutFilters({ [SEARCH_REQUEST_FIELDS.filters]: settings.filters }, state.unsent ?? [])[
		SEARCH_REQUEST_FIELDS.filters
	] as IDataObject;
	const watermarkBefore = state.watermark;
	const from = scanFrom(state, settings.lateWindowMs, rereadAllowance(state, now));
	const floor = state.floor;
	const pageBudget = Math.min(pagesThisPoll(this, settings), shareLeft);
	let noId = 0;
	/** a mention the scan must not pass on whatever it is: older than the scan or below the floor */
	const outsideScan = (at: number | undefined) =>
		at !== undefined && ((from !== undefined && at < from) || (floor !== null && at <= floor));

	/**
	 * Whether the check has what it came for: about as many new mentions as recent checks found
	 * (arrivals keep a steady rate), give or take the mentions it read again. That small
	 * tail then waits for the next check, which continues the cursor without reading anything again
	 * — so mentions arriving one page per check cost one request per check, not two. A check that
	 * finds more than the last one did (a burst) keeps paging up to Max Requests per Poll.
	 */
	const expected = state.lastNew;
	const tailBefore = state.tail ?? 0;
	let tail: number | undefined;
	const enoughForNow = (fresh: number, stale: number) => {
		if (expected === undefined || fresh === 0) return false;
		// short by no more than the slots mentions read again took; over by no more than the tail
		// the last check left for this one (a burst goes on paging)
		const short = Math.max(TAIL_SLACK, stale);
		if (fresh < expected - short || fresh > expected + Math.max(TAIL_SLACK, tailBefore)) return false;
		tail = Math.max(short, expected - fresh);
		return true;
	};

	const ascending = async (body: IDataObject, cursor: string | undefined): Promise<Scan> => {
		const sent = ((body[SEARCH_REQUEST_FIELDS.filters] as IDataObject)?.[FILTER_FIELDS.collectedAt] as IDataObject)?.[FILTER_FIELDS.from];
		const lowest = typeof sent === 'string' ? readServerInstant(sent) : undefined;
		let ignored = false;
		let fresh = 0;
		let stale = 0;
		const result = await paginate<IDataObject>(transport, searchRequest(settings, body), {
			returnAll: true,
			onRateLimit: 'stop',
			cursor,
			pageBudget,
			keep: (mention) => {
				const at = readServerInstant(mention.collectedAt);
				if (lowest !== undefined && at !== undefined && at < lowest) {
					ignored = true;
					return false;
				}
				const kept = !outsideScan(at) && verifier.keep(mention);
				const { id } = idAndCollectedAt(mention);
				if (kept && id !== undefined) {
					if (wasSeen(state, id)) stale++;
					else fresh++;
				}
				return kept;
			},
			stopAfter: () => ignored || enoughForNow(fresh, stale),
		});
		return { result, body, done: result.complete, ignored };
	};

	const descending = async (body: IDataObject, cursor: string | undefined): Promise<Scan> => {
		let crossed = false;
		const result = await paginate<IDataObject>(transport, searchRequest(settings, body), {
			returnAll: true,
			onRateLimit: 'stop',
			cursor,
			pageBudget,
			keep: (mention) => !outsideScan(readServerInstant(mention.collectedAt)) && verifier.keep(mention),
			stopAfter: (page) => {
				crossed = page.some((m) => outsideScan(readServerInstant(m.collectedAt)));
				return crossed;
			},
		});
		return { result, body, done: crossed || result.complete, ignored: false };
	};

	const mode: ScanMode = state.mode ?? 'collectedAt';
	const key = roundKey(settings, mode);
	const resume = state.round && state.round.key === key ? state.round : undefined;
	if (state.round && !resume) delete state.round;
	const fresh = (m: ScanMode) =>
		m === 'descending'
			? searchBody(sentFilters, undefined, DESCENDING)
			: searchBody(sentFilters, from === undefined ? undefined : requestedFrom(from, now), ASCENDING);
	const run = async (m: ScanMode, body: IDataObject, cursor: string | undefined) =>
		await attempt(async () => (m === 'descending' ? await descending(body, cursor) : await ascending(body, cursor)));

	let scanMode = mode;
	let sentBody = resume ? (JSON.parse(resume.body) as IDataObject) : fresh(scanMode);
	let outcome = await run(scanMode, sentBody, resume?.cursor);
	if (!outcome.ok && resume && errorDetails(outcome.error)?.statusCode === 400 && refusedFilters(outcome.error, sentBody).length === 0) {
		// The server no longer accepts the saved cursor: start the round again from the watermark.
		delete state.round;
		sentBody = fresh(scanMode);
		outcome = await run(scanMode, sentBody, undefined);
	}
	const switchToDescending = (why: string) => {
		scanMode = 'descending';
		state.mode = 'descending';
		delete state.round;
		addNotice(
			state,
			'collectedAt',
			`SentiOne did not apply the collectedAt filter (${why}). The trigger now finds new mentions with SentiOne's newest-first order (CollectedAtDescending) down to the last mention it passed on, which relies only on what the API documents. Nothing is passed on twice, a check with nothing new still costs one request, and a backlog bigger than one check arrives newest first across checks.`,
		);
	};
	// SentiOne refused the shape of an unconfirmed filter, or returned mentions older than the
	// collectedAt asked for: leave the filter out from now on (applying it locally) or switch to the
	// newest-first order. This check passes nothing on (nothing is lost: the next check continues
	// from the same watermark) and says so once.
	const refused = outcome.ok ? [] : refusedFilters(outcome.error, sentBody);
	if (refused.length > 0 || (outcome.ok && outcome.value.ignored)) {
		delete state.round;
		if (outcome.ok) {
			switchToDescending(
				`it returned mentions collected before ${formatLocal(requestedFrom(from ?? now, now), this.getTimezone())}, the earliest the check asked for`,
			);
		} else {
			if (refused.includes('collectedAt')) switchToDescending(`it refused the filter: ${(outcome.error as Error).message}`);
			const others = refused.filter((f): f is 'language' | 'country' => f !== 'collectedAt');
			if (others.length > 0) {
				state.unsent = Array.from(new Set([...(state.unsent ?? []), ...others]));
				addNotice(state, `refused:${others.join(',')}`, refusedNotice(others, outcome.error));
			}
		}
		state.budget = rememberBudget(transport, state.budget);
		const pending = state.pending ?? [];
		delete state.pending;
		account();
		saveState(staticData, state);
		if (pending.length === 0) return null;
		throw noticeError(this, pending);
	}
	if (!outcome.ok) {
		state.budget = rememberBudget(transport, state.budget);
		account();
		saveState(staticData, state);
		throw asNodeError(node, outcome.error);
	}
	const { result, body, done } = outcome.value;

	state.budget = rememberBudget(transport, state.budget);
	if (result.items.length === 0 && result.stopped) {
		// 429 before anything was fetched: nothing moves.
		const budget: PollBudget = { ...(state.budget ?? {}), remaining: 0 };
		// an unknown or implausible reset: the top of the next hour (D-07), so the refusal is
		// reported once and later checks wait quietly instead of asking again on every poll
		budget.resetAt = result.stopped.resetAt ?? nextHourStart(now);
		budget.reported = budget.resetAt;
		state.budget = budget;
		account();
		saveState(staticData, state);
		throw budgetError(this, budget, true);
	}

	// Oldest first (a newest-first scan is turned around).
	const inOrder = scanMode === 'descending' ? result.items.slice().reverse() : result.items;
	const { collected, keptAt, noId: withoutId } = collect(inOrder, state.watermark ?? now);
	noId += withoutId;
	const holdWatermark = scanMode === 'descending' && !done;
	if (holdWatermark) {
		const top = state.round?.top;
		state.round = { body: JSON.stringify(body), key: roundKey(settings, scanMode), cursor: result.nextCursor ?? '', top };
	}
	const admitted = admit(state, collected, now, holdWatermark);
	if (scanMode === 'descending' && done && state.round?.top !== undefined) {
		state.watermark = Math.max(state.watermark ?? state.round.top, state.round.top);
	}
	if (scanMode === 'descending') {
		if (done || !result.nextCursor) delete state.round;
	} else {
		state.round = result.nextCursor ? { body: JSON.stringify(body), key, cursor: result.nextCursor } : undefined;
		if (!state.round) delete state.round;
	}
	if (watermarkBefore !== null && admitted.some((i) => collected[i].collectedAt < watermarkBefore)) state.lateAt = now;
	// new mentions per check, averaged over the last checks (sizes the next re-read and paging)
	state.lastNew = Math.round(state.lastNew === undefined ? admitted.length : (state.lastNew + admitted.length) / 2);
	if (tail !== undefined && state.round) state.tail = tail;
	else delete state.tail;

	const told = verificationNotice(
		verifier,
		'The trigger keeps checking every mention, so only matching ones are passed on; the requests that fetched the others were counted against the search budget all the same.',
		state.unsent,
	);
	if (told) addNotice(state, `filters:${verifier.summary()?.replace(/\s*\(\d+ mentions?\)/g, '')}`, told);
	if (noId > 0) {
		addNotice(
			state,
			'noId',
			`SentiOne returned ${noId} mention${noId === 1 ? '' : 's'} without a usable id; ${noId === 1 ? 'it was' : 'they were'} not passed on, because the trigger could not tell ${noId === 1 ? 'it' : 'them'} apart from mentions already passed on.`,
		);
	}
	if (result.skipped > 0) {
		addNotice(state, 'skipped', `SentiOne sent ${result.skipped} entries that were not mentions (not objects) in its search answers; they were skipped.`);
	}
	// Check after check ends with more to read, and what waits was collected over an hour ago: a
	// project busier than the trigger's requests carry (not a backlog a few checks clear, as after
	// a wait for the budget). Said once a day while it lasts.
	state.behindChecks = state.round ? Math.min((state.behindChecks ?? 0) + 1, 10_000) : 0;
	if (state.behindChecks === 0) delete state.behindChecks;
	if ((state.behindChecks ?? 0) >= BEHIND_CHECKS && state.watermark !== null && now - state.watermark > HOUR_MS) {
		addNotice(state, `behind:${Math.floor(now / 86_400_000)}`, behindNotice(settings, share));
	}
	prune(state, settings.lateWindowMs);
	const rows = admitted.map((i) => mentionJson(inOrder[keptAt[i]], settings.simplify));
	if (rows.length === 0 && state.pending && state.pending.length > 0) {
		const pending = state.pending;
		delete state.pending;
		account();
		saveState(staticData, state);
		throw noticeError(this, pending);
	}
	account();
	saveState(staticData, state);
	return rows.length > 0 ? [asItems(rows)] : null;
}
