/**
 * The poll trigger's share of the key's search budget (Options → Search Requests per Hour): checks
 * are spaced to it and stop when it is spent; one that comes sooner sends nothing, quietly. A check
 * that sent n requests spends n spacings, so the share is spread over the hour, not spent in its
 * first half by a backlog. Also the pages one check may spend, and the search budget SentiOne last
 * stated, which the state keeps.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { ENDPOINTS, scopedEndpoint } from '../../shared/contract';
import type { SentiOneTransport } from '../../shared/transport';
import { HOUR_MS } from '../../shared/units';
import type { PollSettings } from './pollSettings';
import type { PollBudget, PollState } from './pollState';

/** A check may come this share of the spacing early (n8n's schedule is not exact to the second). */
const SPACING_TOLERANCE = 0.9;
/** Pages allowed per 30 s of the engine's poll budget (each page may take a while on a slow link). */
const MS_PER_PAGE_OF_BUDGET = 30_000;
/** The most requests one check is remembered to have cost (a saved cost beyond it is not obeyed). */
const MAX_COST = 100;

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
