/**
 * The poll trigger's share of the key's search budget (Options → Search Requests per Hour): checks
 * are spaced to it and stop when it is spent; one that comes sooner sends nothing, quietly. A check
 * that sent n requests spends n spacings, so the share is spread over the hour, not spent in its
 * first half by a backlog. Also the pages one check may spend, and the search budget SentiOne last
 * stated, which the state keeps.
 *
 * Several triggers and workflows on one key: every answer states what the whole key has left in
 * its window (`x-rate-limit-remaining`, `-reset`), and the trigger counts its own requests in it,
 * so it knows what the others spent (`learnKeyUse`). Every trigger on the key paces the key along
 * one line (`keyLeft`): it sends only while the key keeps at least what a steady pace to the reset
 * would keep, plus `KEY_RESERVE` that triggers never touch (a few requests' head start allowed,
 * `KEY_HEAD_START`). Between its checks it counts the others as spending at the pace they kept.
 * Triggers that all do this add up within the budget whatever their number and shares, and a
 * workflow that searches now and then finds the reserve (and the slack under the line) left. When
 * the others' pace and the trigger's share together need more than the budget, it says so once a
 * day (`sharedKeyNotice`), before anyone gets a 429.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { ENDPOINTS, scopedEndpoint } from '../../shared/contract';
import type { SentiOneTransport } from '../../shared/transport';
import { HOUR_MS, MINUTE_MS } from '../../shared/units';
import type { PollSettings } from './pollSettings';
import type { KeyUse, PollBudget, PollState } from './pollState';

/** A check may come this share of the spacing early (n8n's schedule is not exact to the second). */
const SPACING_TOLERANCE = 0.9;
/** Pages allowed per 30 s of the engine's poll budget (each page may take a while on a slow link). */
const MS_PER_PAGE_OF_BUDGET = 30_000;
/** The most requests one check is remembered to have cost (a saved cost beyond it is not obeyed). */
const MAX_COST = 100;

/** Searches of the key's window triggers always leave to other workflows. */
export const KEY_RESERVE = 3;
/** How far ahead of the steady pace the key may be spent (a backlog's pages, triggers checking at once). */
const KEY_HEAD_START = 5;
/**
 * How long after the trigger last saw the key the others are counted as going on at their pace
 * (beyond it they are taken to pace to the line as well: a trigger that waits must not wait for good).
 */
const STALE_MS = 15 * MINUTE_MS;
/** The shortest span the others' spending is measured over (a young window says little). */
const MEASURE_MS = 20 * MINUTE_MS;

/** The others' spending in the window `key` describes, as requests an hour (what the key spent that was not this trigger's). */
function othersNow(key: KeyUse): number {
	const others = Math.max(0, key.limit - key.remaining - key.mine);
	return (others * HOUR_MS) / Math.max(key.at - (key.resetAt - HOUR_MS), MEASURE_MS);
}

/** The pace other workflows on the key keep, requests an hour (this window's; early on, the last one's if higher). */
export function othersPerHour(key: KeyUse): number {
	const young = key.at - (key.resetAt - HOUR_MS) < MEASURE_MS;
	const now = othersNow(key);
	return young && key.othersBefore !== undefined ? Math.max(now, key.othersBefore) : now;
}

/**
 * Searches this trigger may send now and leave the key on or above the line from its budget
 * (less KEY_RESERVE, plus the head start) at the window's start down to KEY_RESERVE at its reset,
 * counting the others as spending at their pace since the trigger last saw the key, for at most
 * STALE_MS (undefined: it has not seen the key yet). A window the trigger has not seen yet allows at least one request, to see it.
 */
export function keyLeft(state: PollState, now: number): number | undefined {
	const key = state.key;
	if (!key) return undefined;
	const usable = key.limit - KEY_RESERVE;
	// the others never spend faster than the line lets the key go (they pace to it too, or get 429)
	const pace = Math.min(othersPerHour(key), usable) / HOUR_MS;
	let resetAt = key.resetAt;
	let remaining: number;
	let probe = 0;
	if (now < resetAt) remaining = key.remaining - pace * Math.min(now - key.at, STALE_MS);
	else {
		resetAt += (Math.floor((now - resetAt) / HOUR_MS) + 1) * HOUR_MS;
		remaining = key.limit - pace * Math.min(now - (resetAt - HOUR_MS), STALE_MS);
		probe = 1;
	}
	const line = Math.max(
		KEY_RESERVE,
		KEY_RESERVE + (usable * (resetAt - now)) / HOUR_MS - KEY_HEAD_START,
	);
	return Math.max(probe, Math.floor(remaining - line));
}

/**
 * Learns from the search budget SentiOne stated after this check's `sent` requests what the key
 * has left and how much of its window the others spent. False when nothing could be learnt.
 */
export function learnKeyUse(
	state: PollState,
	seen: { limit?: number; remaining?: number; resetAt?: number } | undefined,
	sent: number,
	now: number,
): boolean {
	if (sent === 0 || !seen) return false;
	const { limit, remaining, resetAt } = seen;
	if (limit === undefined || remaining === undefined || resetAt === undefined) return false;
	const previous = state.key;
	const same = previous?.resetAt === resetAt;
	const mine = Math.min((same ? previous.mine : 0) + sent, limit);
	const key: KeyUse = { resetAt, limit, remaining: Math.min(remaining, limit), mine, at: now };
	const before = previous && !same ? othersNow(previous) : previous?.othersBefore;
	if (before !== undefined) key.othersBefore = Math.round(before * 10) / 10;
	state.key = key;
	return true;
}

/**
 * Whether the others' pace, measured over a window of some length, and this trigger's share
 * together need more than the key's budget: then the trigger takes only what the
 * line leaves, and says so.
 */
export function keyOversubscribed(state: PollState, settings: PollSettings): boolean {
	const key = state.key;
	if (!key || settings.requestsPerHour <= 0) return false;
	const measured =
		key.at - (key.resetAt - HOUR_MS) >= MEASURE_MS ? othersNow(key) : key.othersBefore;
	return measured !== undefined && measured + settings.requestsPerHour > key.limit;
}

/** The hour a check falls in and what it may still spend of the trigger's share. */
export interface CheckShare {
	/** start of the hour (epoch ms) */
	hour: number;
	/** requests of the share already spent in this hour before the check */
	spentBefore: number;
	/** requests the check may send before the share is spent (Infinity: no share of its own) */
	left: number;
}

/** The start of the hour `now` falls in. */
export function hourOf(now: number): number {
	return Math.floor(now / HOUR_MS) * HOUR_MS;
}

/** What this check may spend; undefined when it comes too soon or the share is spent (it returns quietly). */
export function shareOfCheck(
	state: PollState,
	settings: PollSettings,
	now: number,
): CheckShare | undefined {
	const hour = hourOf(now);
	if (state.spent?.hour !== hour) state.spent = { hour, count: 0 };
	const share = settings.requestsPerHour;
	// (bounded: a saved cost beyond what a check may send, or a wait beyond the hour, is not obeyed)
	const cost = Math.min(Math.max(1, state.lastCost ?? 1), settings.maxRequestsPerPoll);
	const spacing = Math.min((HOUR_MS / share) * cost * SPACING_TOLERANCE, HOUR_MS);
	if (share > 0 && state.checkedAt !== undefined && now - state.checkedAt < spacing)
		return undefined;
	const left = share > 0 ? share - state.spent.count : Infinity;
	if (left <= 0) return undefined;
	return { hour, spentBefore: state.spent.count, left };
}

/**
 * Several triggers and workflows on the key: what this check may send of what the others leave
 * (the check's `left` lowered to it); false when that is nothing (the check returns quietly). A
 * trigger without a share of its own (0) does not pace itself.
 */
export function paceToKey(
	check: CheckShare,
	state: PollState,
	settings: PollSettings,
	now: number,
): boolean {
	if (settings.requestsPerHour <= 0) return true;
	const ofKey = keyLeft(state, now);
	if (ofKey === undefined) return true;
	check.left = Math.min(check.left, ofKey);
	return check.left > 0;
}

/** Counts what a check sent against the share (before every save that follows a request). */
export function account(
	state: PollState,
	check: Pick<CheckShare, 'hour' | 'spentBefore'>,
	sent: number,
	now: number,
): void {
	if (sent === 0) return;
	state.spent = { hour: check.hour, count: check.spentBefore + sent };
	state.checkedAt = now;
	state.lastCost = Math.min(sent, MAX_COST);
}

/** The pages this check may spend: Max Requests per Poll, fewer when n8n gives the poll little time. */
export function pagesThisPoll(ctx: IPollFunctions, settings: PollSettings): number {
	const budgetOf = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	const budgetMs = typeof budgetOf === 'function' ? budgetOf.call(ctx) : undefined;
	if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0)
		return settings.maxRequestsPerPoll;
	return Math.max(
		1,
		Math.min(settings.maxRequestsPerPoll, Math.floor(budgetMs / MS_PER_PAGE_OF_BUDGET)),
	);
}

/** The search budget SentiOne last stated, to keep in the state (its exhaustion reported once per window). */
export function rememberBudget(
	transport: SentiOneTransport,
	settings: PollSettings,
	previous: PollBudget | undefined,
): PollBudget | undefined {
	const seen = transport.rateLimits[ENDPOINTS[scopedEndpoint('search', settings.source)].group];
	if (!seen) return previous;
	const budget: PollBudget = {
		limit: seen.limit,
		remaining: seen.remaining,
		resetAt: seen.resetAt,
	};
	if (previous?.reported !== undefined && previous.reported === seen.resetAt)
		budget.reported = previous.reported;
	return budget;
}
