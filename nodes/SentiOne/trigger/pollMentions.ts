/**
 * One poll of the New Mention trigger.
 *
 * - Manual "Fetch test event": one request for the latest matching mentions; the state is not read
 *   or written.
 * - First active poll: notes the newest matching mention (one request) and passes nothing on, or,
 *   with Backfill, starts the watermark N hours back and continues as a normal poll.
 * - Every other poll: searches by collection time ascending from the watermark minus the
 *   late-mention window, at most "Max Requests per Poll" pages, passes on each mention it has not
 *   passed on before (oldest first), and moves the watermark only over mentions in hand. A backlog
 *   bigger than one poll leaves a round open (its cursor) for the next poll.
 * - A 429 keeps the watermark: what was fetched before it is passed on, the rest waits for the next
 *   poll after the reset; the error says when that is (once per hourly window).
 */
import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { SortType, Tier } from '../shared/contract';
import { FILTER_FIELDS, HOURLY_LIMITS, PATHS, SEARCH_REQUEST_FIELDS } from '../shared/contract';
import { asNodeError, errorDetails, formatInstant } from '../shared/errors';
import type { PaginateResult } from '../shared/pager';
import { paginate } from '../shared/pager';
import { clock, toIso } from '../shared/time';
import type { ApiRequest } from '../shared/transport';
import { SentiOneTransport } from '../shared/transport';
import { attempt } from './attempt';
import { idAndCollectedAt, mentionJson } from './output';
import type { Collected, PollBudget, PollState } from './pollState';
import { admit, loadState, newState, prune, saveState, scanFrom } from './pollState';
import type { PollSettings } from './pollSettings';
import { readPollSettings } from './pollSettings';

const ASCENDING: SortType = 'CollectedAtAscending';
const DESCENDING: SortType = 'CollectedAtDescending';
/** Pages allowed per 30 s of the engine's poll budget (each page may take a while on a slow link). */
const MS_PER_PAGE_OF_BUDGET = 30_000;

function searchRequest(settings: PollSettings, body: IDataObject): ApiRequest {
	const historical = settings.source === 'historical';
	const tier: Tier = historical ? 'Enterprise' : 'Basic';
	return {
		method: 'POST',
		path: historical ? PATHS.historicalSearch(settings.projectId) : PATHS.recentSearch(settings.projectId),
		group: 'search',
		tier,
		body,
		read: true,
		retry: { maxRateLimitWaitMs: 0 },
	};
}

function searchBody(filters: IDataObject, collectedFrom: number | undefined, sort: SortType): IDataObject {
	const withRange: IDataObject = { ...filters };
	if (collectedFrom !== undefined) {
		withRange[FILTER_FIELDS.collectedAt] = { [FILTER_FIELDS.from]: toIso(collectedFrom) };
	}
	return { [SEARCH_REQUEST_FIELDS.filters]: withRange, [SEARCH_REQUEST_FIELDS.sortType]: sort };
}

function roundKey(settings: PollSettings): string {
	return JSON.stringify({ source: settings.source, filters: settings.filters });
}

function toItems(ctx: IPollFunctions, mentions: IDataObject[], simplify: boolean): INodeExecutionData[][] | null {
	if (mentions.length === 0) return null;
	return [ctx.helpers.returnJsonArray(mentions.map((m) => mentionJson(m, simplify)))];
}

function collected(mention: IDataObject, fallbackAt: number): Collected | undefined {
	const { id, collectedAt } = idAndCollectedAt(mention);
	return id === undefined ? undefined : { id, collectedAt: collectedAt ?? fallbackAt };
}

function budgetError(ctx: IPollFunctions, budget: PollBudget, requestSent: boolean): NodeApiError {
	const limit = budget.limit ?? HOURLY_LIMITS.search;
	const reset = budget.resetAt !== undefined ? ` It resets at ${formatInstant(budget.resetAt)}.` : '';
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

/** "Fetch test event": the latest matching mentions, one request, state untouched. */
async function sample(ctx: IPollFunctions, transport: SentiOneTransport, settings: PollSettings) {
	const result = await paginate<IDataObject>(
		transport,
		searchRequest(settings, searchBody(settings.filters, undefined, DESCENDING)),
		{ returnAll: true, pageBudget: 1, onRateLimit: 'fail' },
	);
	return toItems(ctx, result.items.slice().reverse(), settings.simplify);
}

/** First activation with "Start From: Now": note the newest matching mention, pass nothing on. */
async function seed(transport: SentiOneTransport, settings: PollSettings): Promise<PollState> {
	const result = await paginate<IDataObject>(
		transport,
		searchRequest(settings, searchBody(settings.filters, undefined, DESCENDING)),
		{ returnAll: true, pageBudget: 1, onRateLimit: 'fail' },
	);
	const now = clock.now();
	const noted = result.items.map((m) => collected(m, now)).filter((m): m is Collected => m !== undefined);
	if (noted.length === 0) return newState(settings.projectId, null);
	const state = newState(settings.projectId, null);
	admit(state, noted);
	// More matching mentions exist below the page: never scan down to them (they are old).
	if (!result.complete) state.floor = Math.min(...noted.map((m) => m.collectedAt));
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

export async function pollNewMentions(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readPollSettings(this);
	const transport = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
	const node = this.getNode();

	if (this.getMode() === 'manual') return await sample(this, transport, settings);

	const staticData = this.getWorkflowStaticData('node');
	let state = loadState(staticData, settings.projectId);
	if (!state) {
		if (settings.startFrom === 'now') {
			saveState(staticData, await seed(transport, settings));
			return null;
		}
		const start = clock.now() - settings.backfillHours * 3_600_000;
		state = newState(settings.projectId, start, start - 1);
	}

	// The budget is known to be spent: report it once per window, then wait quietly for the reset.
	const known = state.budget;
	if (known?.remaining === 0 && known.resetAt !== undefined && known.resetAt > clock.now()) {
		if (known.reported === known.resetAt) return null;
		known.reported = known.resetAt;
		saveState(staticData, state);
		throw budgetError(this, known, false);
	}

	const key = roundKey(settings);
	const fresh = searchBody(settings.filters, scanFrom(state, settings.lateWindowMs), ASCENDING);
	const resume = state.round && state.round.key === key ? state.round : undefined;
	let body: IDataObject = resume ? (JSON.parse(resume.body) as IDataObject) : fresh;
	const pageBudget = pagesThisPoll(this, settings);
	const run = async (requestBody: IDataObject, cursor: string | undefined) =>
		await paginate<IDataObject>(transport, searchRequest(settings, requestBody), {
			returnAll: true,
			onRateLimit: 'stop',
			cursor,
			pageBudget,
		});

	let outcome = await attempt(async () => await run(body, resume?.cursor));
	if (!outcome.ok && resume && errorDetails(outcome.error)?.statusCode === 400) {
		// The server no longer accepts the saved cursor: start the round again from the watermark.
		body = fresh;
		outcome = await attempt(async () => await run(body, undefined));
	}
	if (!outcome.ok) {
		state.budget = rememberBudget(transport, state.budget);
		saveState(staticData, state);
		throw asNodeError(node, outcome.error);
	}
	const result: PaginateResult<IDataObject> = outcome.value;

	state.budget = rememberBudget(transport, state.budget);
	if (result.items.length === 0 && result.stopped) {
		// 429 before anything was fetched: nothing moves.
		const budget: PollBudget = { ...(state.budget ?? {}), remaining: 0 };
		if (result.stopped.resetAt !== undefined) budget.resetAt = result.stopped.resetAt;
		budget.reported = budget.resetAt;
		state.budget = budget;
		saveState(staticData, state);
		throw budgetError(this, budget, true);
	}

	const now = clock.now();
	const admitted = admit(
		state,
		result.items.map((m) => collected(m, state?.watermark ?? now)),
	);
	state.round = result.nextCursor ? { body: JSON.stringify(body), key, cursor: result.nextCursor } : undefined;
	prune(state, settings.lateWindowMs);
	saveState(staticData, state);
	return toItems(
		this,
		admitted.map((i) => result.items[i]),
		settings.simplify,
	);
}
