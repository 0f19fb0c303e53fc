/**
 * One poll of the New Mention trigger.
 *
 * - Manual "Fetch test event": one request for the latest matching mentions; the state is not read
 *   or written.
 * - First active poll: notes the newest matching mention (one request) and passes nothing on, or,
 *   with Backfill, starts the watermark N hours back and continues as a normal poll.
 * - Every other poll finds the mentions collected since the watermark (scan.ts), at most "Max
 *   Requests per Poll" pages within the trigger's share of the search budget (searchShare.ts),
 *   passes on each it has not passed on before (oldest first) and moves the watermark only over
 *   mentions in hand (watermark.ts). A backlog bigger than one poll leaves a round open (its cursor).
 *   Once SentiOne is seen not to honour the collectedAt filter (it returns older mentions, or
 *   refuses the filter's shape), the check finds them newest first instead: said once, kept from
 *   then on.
 * - A 429 keeps the watermark: what was fetched before it is passed on, the rest waits for the next
 *   poll after the reset; the error says when that is (once per hourly window).
 * - Notices (notices.ts) are reported once, as an error of a check that has nothing to pass on, so
 *   no mention is held back for them.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { nextHourStart } from '../../shared/bounds';
import { SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { asNodeError, errorDetails } from '../../shared/errors';
import { toItems } from '../../shared/items';
import { mentionRow } from '../../shared/simplify';
import { clock, formatLocal } from '../../shared/time';
import { SentiOneTransport } from '../../shared/transport';
import {
	FilterVerifier,
	refusedFilters,
	refusedNotice,
	verificationNotice,
	withoutFilters,
} from '../../shared/verify';
import { idAndCollectedAt } from '../common/mentionKey';
import {
	behindNotice,
	budgetError,
	descendingNotice,
	noIdNotice,
	noticeError,
	repairNotice,
} from './notices';
import type { PollSettings } from './pollSettings';
import { readPollSettings } from './pollSettings';
import { account, hourOf, pagesThisPoll, rememberBudget, shareOfCheck } from './searchShare';
import type { PollBudget, PollState, ScanMode } from './pollState';
import { addNotice, loadState, newState, saveState } from './pollState';
import { newestPage, requestedFrom, roundKey, Scan } from './scan';
import type { Collected } from './watermark';
import { admit, prune, rereadAllowance, scanFrom } from './watermark';

const HOUR_MS = 3_600_000;
/** checks in a row ending with more to read before the trigger counts as falling behind */
const BEHIND_CHECKS = 6;

/** The mentions in hand, with the id and collectedAt the state needs; those without an id are counted. */
function collect(
	mentions: IDataObject[],
	fallbackAt: number,
): { collected: Collected[]; keptAt: number[]; noId: number } {
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
async function sample(transport: SentiOneTransport, settings: PollSettings) {
	const { value: result } = await newestPage(transport, settings);
	const rows = result.items
		.slice()
		.reverse()
		.map((m) => mentionRow(m, settings.simplify));
	return rows.length > 0 ? [toItems(rows)] : null;
}

/** "Start From: Now" (or a state that could not be read): note the newest matching mention, pass nothing on. */
async function seed(
	transport: SentiOneTransport,
	settings: PollSettings,
	now: number,
): Promise<PollState> {
	const { value: result, dropped, refusal } = await newestPage(transport, settings);
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
	state.budget = rememberBudget(transport, settings, undefined);
	return state;
}

/** Saves the state and reports the notices waiting in it, if any (as the check's error). */
function saveAndReport(ctx: IPollFunctions, staticData: IDataObject, state: PollState): null {
	const pending = state.pending ?? [];
	delete state.pending;
	saveState(staticData, state);
	if (pending.length > 0) throw noticeError(ctx, pending);
	return null;
}

export async function pollNewMentions(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = readPollSettings(this);
	const transport = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
	const node = this.getNode();

	if (this.getMode() === 'manual') return await sample(transport, settings);

	const staticData = this.getWorkflowStaticData('node');
	const now = clock.now();
	const loaded = loadState(staticData, settings.projectId, now);
	if (!loaded.state && (settings.startFrom === 'now' || loaded.repairs.length > 0)) {
		const seeded = await seed(transport, settings, now);
		if (loaded.repairs.length > 0) addNotice(seeded, '', repairNotice(loaded.repairs, true));
		// the first check counts against the trigger's share like any other
		account(seeded, { hour: hourOf(now), spentBefore: 0 }, transport.requestsSent, now);
		return saveAndReport(this, staticData, seeded);
	}
	// Start From: Backfill, first check: the watermark starts the backfill hours back
	const backfillFrom = now - settings.backfillHours * HOUR_MS;
	const state = loaded.state ?? newState(settings.projectId, backfillFrom, backfillFrom - 1);
	if (loaded.state && loaded.repairs.length > 0)
		addNotice(state, '', repairNotice(loaded.repairs, false));

	const check = shareOfCheck(state, settings, now);
	if (!check) return null;
	const spent = () => account(state, check, transport.requestsSent, now);

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
	const sentFilters = withoutFilters(
		{ [SEARCH_REQUEST_FIELDS.filters]: settings.filters },
		state.unsent ?? [],
	)[SEARCH_REQUEST_FIELDS.filters] as IDataObject;
	const watermarkBefore = state.watermark;
	const from = scanFrom(state, settings.lateWindowMs, rereadAllowance(state, now));
	const scan = new Scan(
		transport,
		settings,
		state,
		verifier,
		from,
		now,
		Math.min(pagesThisPoll(this, settings), check.left),
	);

	const mode: ScanMode = state.mode ?? 'collectedAt';
	const key = roundKey(settings, mode);
	const resume = state.round && state.round.key === key ? state.round : undefined;
	if (state.round && !resume) delete state.round;

	let scanMode = mode;
	let sentBody = resume
		? (JSON.parse(resume.body) as IDataObject)
		: scan.body(scanMode, sentFilters);
	let outcome = await scan.run(scanMode, sentBody, resume?.cursor);
	if (
		!outcome.ok &&
		resume &&
		errorDetails(outcome.error)?.statusCode === 400 &&
		refusedFilters(outcome.error, sentBody).length === 0
	) {
		// The server no longer accepts the saved cursor: start the round again from the watermark.
		delete state.round;
		sentBody = scan.body(scanMode, sentFilters);
		outcome = await scan.run(scanMode, sentBody, undefined);
	}
	const switchToDescending = (why: string) => {
		scanMode = 'descending';
		state.mode = 'descending';
		delete state.round;
		addNotice(state, 'collectedAt', descendingNotice(why));
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
			if (refused.includes('collectedAt'))
				switchToDescending(`it refused the filter: ${(outcome.error as Error).message}`);
			const others = refused.filter((f): f is 'language' | 'country' => f !== 'collectedAt');
			if (others.length > 0) {
				state.unsent = Array.from(new Set([...(state.unsent ?? []), ...others]));
				addNotice(state, `refused:${others.join(',')}`, refusedNotice(others, outcome.error));
			}
		}
		state.budget = rememberBudget(transport, settings, state.budget);
		spent();
		return saveAndReport(this, staticData, state);
	}
	if (!outcome.ok) {
		state.budget = rememberBudget(transport, settings, state.budget);
		spent();
		saveState(staticData, state);
		throw asNodeError(node, outcome.error);
	}
	const { result, body, done } = outcome.value;

	state.budget = rememberBudget(transport, settings, state.budget);
	if (result.items.length === 0 && result.stopped) {
		// 429 before anything was fetched: nothing moves.
		const budget: PollBudget = { ...(state.budget ?? {}), remaining: 0 };
		// an unknown or implausible reset: the top of the next hour (D-07), so the refusal is
		// reported once and later checks wait quietly instead of asking again on every poll
		budget.resetAt = result.stopped.resetAt ?? nextHourStart(now);
		budget.reported = budget.resetAt;
		state.budget = budget;
		spent();
		saveState(staticData, state);
		throw budgetError(this, budget, true);
	}

	// Oldest first (a newest-first scan is turned around).
	const inOrder = scanMode === 'descending' ? result.items.slice().reverse() : result.items;
	const { collected, keptAt, noId } = collect(inOrder, state.watermark ?? now);
	const holdWatermark = scanMode === 'descending' && !done;
	if (holdWatermark) {
		const top = state.round?.top;
		state.round = {
			body: JSON.stringify(body),
			key: roundKey(settings, scanMode),
			cursor: result.nextCursor ?? '',
			top,
		};
	}
	const admitted = admit(state, collected, now, holdWatermark);
	if (scanMode === 'descending' && done && state.round?.top !== undefined) {
		state.watermark = Math.max(state.watermark ?? state.round.top, state.round.top);
	}
	if (scanMode === 'descending') {
		if (done || !result.nextCursor) delete state.round;
	} else {
		state.round = result.nextCursor
			? { body: JSON.stringify(body), key, cursor: result.nextCursor }
			: undefined;
		if (!state.round) delete state.round;
	}
	if (watermarkBefore !== null && admitted.some((i) => collected[i].collectedAt < watermarkBefore))
		state.lateAt = now;
	// new mentions per check, averaged over the last checks (sizes the next re-read and paging)
	state.lastNew = Math.round(
		state.lastNew === undefined ? admitted.length : (state.lastNew + admitted.length) / 2,
	);
	if (scan.tail !== undefined && state.round) state.tail = scan.tail;
	else delete state.tail;

	const told = verificationNotice(
		verifier,
		'The trigger keeps checking every mention, so only matching ones are passed on; the requests that fetched the others were counted against the search budget all the same.',
		state.unsent,
	);
	if (told)
		addNotice(state, `filters:${verifier.summary()?.replace(/\s*\(\d+ mentions?\)/g, '')}`, told);
	if (noId > 0) addNotice(state, 'noId', noIdNotice(noId));
	if (result.skipped > 0) {
		addNotice(
			state,
			'skipped',
			`SentiOne sent ${result.skipped} entries that were not mentions (not objects) in its search answers; they were skipped.`,
		);
	}
	// Check after check ends with more to read, and what waits was collected over an hour ago: a
	// project busier than the trigger's requests carry (not a backlog a few checks clear, as after
	// a wait for the budget). Said once a day while it lasts.
	state.behindChecks = state.round ? Math.min((state.behindChecks ?? 0) + 1, 10_000) : 0;
	if (state.behindChecks === 0) delete state.behindChecks;
	if (
		(state.behindChecks ?? 0) >= BEHIND_CHECKS &&
		state.watermark !== null &&
		now - state.watermark > HOUR_MS
	) {
		addNotice(
			state,
			`behind:${Math.floor(now / 86_400_000)}`,
			behindNotice(settings, settings.requestsPerHour),
		);
	}
	prune(state, settings.lateWindowMs);
	const rows = admitted.map((i) => mentionRow(inOrder[keptAt[i]], settings.simplify));
	spent();
	if (rows.length === 0) return saveAndReport(this, staticData, state);
	saveState(staticData, state);
	return [toItems(rows)];
}
