/**
 * One poll of the New Mention trigger (`pollNewMentions`, a sequence of the steps below).
 *
 * - Manual "Fetch test event" (`sample`): one request for the latest matching mentions; the state
 *   is not read or written.
 * - First active poll (`seed`): notes the newest matching mention (one request) and passes nothing
 *   on, or, with Backfill (`continuedState`), starts the watermark N hours back and continues as a
 *   normal poll.
 * - Every other poll finds the mentions collected since the watermark (`runScan`, scan.ts), at most
 *   "Max Requests per Poll" pages within the trigger's share of the search budget (searchShare.ts),
 *   passes on each it has not passed on before (oldest first) and moves the watermark only over
 *   mentions in hand (`advanceRound`, watermark.ts). A backlog bigger than one poll leaves a round
 *   open (its cursor). Once SentiOne is seen not to honour the collectedAt filter (it returns older
 *   mentions, or refuses the filter's shape), the check finds them newest first instead
 *   (`handleRefusal`): said once, kept from then on.
 * - A 429 keeps the watermark (`fetchedOrThrow`): what was fetched before it is passed on, the rest
 *   waits for the next poll after the reset; the error says when that is (once per hourly window,
 *   `gateOnBudget`).
 * - Notices (notices.ts: `noticesOf`, `trackBehind`) are reported once, as an error of a check that
 *   has nothing to pass on, so no mention is held back for them.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Outcome } from '../../shared/attempt';
import { ENDPOINTS, scopedEndpoint, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import { asNodeError, errorDetails } from '../../shared/errors';
import { toItems } from '../../shared/items';
import { mentionRow } from '../../shared/simplify';
import { clock, serverClock } from '../../shared/clock';
import { formatLocal } from '../../shared/time';
import { nextHourStart, SentiOneTransport } from '../../shared/transport';
import { DAY_MS, HOUR_MS } from '../../shared/units';
import { FilterVerifier, refusedFilters, refusedNotice, withoutFilters } from '../../shared/verify';
import { testAlertItem } from '../alerts';
import { idAndCollectedAt } from '../common/mentionKey';
import {
	behindNotice,
	budgetError,
	descendingNotice,
	catchUpRefusedNotice,
	noIdNotice,
	noticeError,
	noticesOf,
	repairNotice,
	sharedKeyNotice,
} from './notices';
import { catchUpByExport, catchUpDue, fallingBehind } from './catchUp';
import type { PollSettings } from './pollSettings';
import { readPollSettings } from './pollSettings';
import { alertCheck, alertEngine, seedAlerts } from './pollAlerts';
import type { CheckShare } from './searchShare';
import {
	account,
	hourOf,
	KEY_RESERVE,
	keyOversubscribed,
	learnKeyUse,
	othersPerHour,
	paceToKey,
	pagesThisPoll,
	rememberBudget,
	shareOfCheck,
} from './searchShare';
import type { Loaded, PollBudget, PollState, ScanMode } from './pollState';
import { addNotice, loadState, newState, saveState, waitingSeed } from './pollState';
import { isEndCursor } from '../../shared/pager';
import type { ScanResult } from './scan';
import { newestPage, requestedFrom, roundKey, Scan } from './scan';
import type { Collected } from './watermark';
import { admit, prune, rereadAllowance, scanFrom } from './watermark';

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
async function sample(transport: SentiOneTransport, settings: PollSettings, zone: string) {
	const { value: result } = await newestPage(transport, settings);
	if (settings.alert)
		return [toItems([testAlertItem(settings.alert, result.items, zone, clock.now())])];
	const rows = result.items
		.slice()
		.reverse()
		.map((m) => mentionRow(m, settings.simplify));
	return rows.length > 0 ? [toItems(rows)] : null;
}

/**
 * "Start From: Now" (or a state that could not be read, `repairs` saying why): note the newest
 * matching mention, pass nothing on. This first check counts against the trigger's share like any
 * other.
 */
async function seed(
	ctx: IPollFunctions,
	transport: SentiOneTransport,
	settings: PollSettings,
	now: number,
	repairs: string[],
): Promise<PollState> {
	const { value: result, dropped, refusal } = await newestPage(transport, settings, 'stop');
	if (result.stopped) {
		// 429: still no position. Saved, so the checks until the reset send nothing (said once).
		const seen = rememberBudget(transport, settings, undefined);
		const budget = {
			...seen,
			remaining: 0,
			resetAt: result.stopped.resetAt ?? nextHourStart(now),
		};
		waitingSeed(ctx.getWorkflowStaticData('node'), settings.projectId, budget, repairs);
		throw budgetError(ctx, budget, true);
	}
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
	if (repairs.length > 0) addNotice(state, '', repairNotice(repairs, true));
	account(state, { hour: hourOf(now), spentBefore: 0 }, transport.requestsSent, now);
	learnFromKey(state, transport, settings, transport.requestsSent, now, false);
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

/** One scheduled check: what its steps read, and the state they move. */
interface Check {
	ctx: IPollFunctions;
	transport: SentiOneTransport;
	settings: PollSettings;
	staticData: IDataObject;
	state: PollState;
	/** the hour the check falls in and what it may spend of the trigger's share */
	share: CheckShare;
	now: number;
	/** what the key's budget says was learnt (once per check) */
	learned?: boolean;
	/** requests a catch-up export spent (not searches) */
	exportRequests?: number;
}

/** The scan a check ran, and what the steps after it need to know of it. */
interface ScanRun {
	scan: Scan;
	verifier: FilterVerifier;
	mode: ScanMode;
	/** the round the scan belongs to (roundKey) */
	key: string;
	/** the body sent (the open round's, or a fresh one) */
	body: IDataObject;
	outcome: Outcome<ScanResult>;
	/** the watermark before the check */
	watermarkBefore: number | null;
}

/**
 * Counts what the check sent against the trigger's share (before every save that follows a
 * request), and learns from SentiOne's answer what the key has left and the others spend (once).
 */
function spend(c: Check): void {
	// the searches of this check (a catch-up export spends the export budget, not the share)
	const sent = c.transport.requestsSent - (c.exportRequests ?? 0);
	account(c.state, c.share, sent, c.now);
	if (c.learned) return;
	c.learned = true;
	learnFromKey(c.state, c.transport, c.settings, sent, c.now);
}

/**
 * What the key's budget says after `sent` searches of this check; the shared-key notice when due
 * (`tell`: not on the first check, which n8n runs at activation).
 */
function learnFromKey(
	state: PollState,
	transport: SentiOneTransport,
	settings: PollSettings,
	sent: number,
	now: number,
	tell = true,
): void {
	const group = ENDPOINTS[scopedEndpoint('search', settings.source)].group;
	if (!learnKeyUse(state, transport.rateLimits[group], sent, now)) return;
	if (tell && keyOversubscribed(state, settings) && state.key) {
		addNotice(
			state,
			`sharedKey:${Math.floor(now / DAY_MS)}`,
			sharedKeyNotice(settings, state.key.limit, othersPerHour(state.key), KEY_RESERVE),
		);
	}
}

/** Keeps the search budget SentiOne stated in its answers. */
function noteBudget(c: Check): void {
	c.state.budget = rememberBudget(c.transport, c.settings, c.state.budget);
}

/** The saved state a check continues; Start From: Backfill, first check: the watermark the backfill hours back. */
function continuedState(loaded: Loaded, settings: PollSettings, now: number): PollState {
	const backfillFrom = now - settings.backfillHours * HOUR_MS;
	const state = loaded.state ?? newState(settings.projectId, backfillFrom, backfillFrom - 1);
	if (loaded.state && loaded.repairs.length > 0)
		addNotice(state, '', repairNotice(loaded.repairs, false));
	return state;
}

/**
 * The budget is known to be spent: reported once per window (as this check's error), then the
 * checks wait quietly for the reset. True: this check sends nothing.
 */
function gateOnBudget(c: Check): boolean {
	const known = c.state.budget;
	if (!(known?.remaining === 0 && known.resetAt !== undefined && known.resetAt > c.now))
		return false;
	if (known.reported === known.resetAt) return true;
	known.reported = known.resetAt;
	saveState(c.staticData, c.state);
	throw budgetError(c.ctx, known, false);
}

/** A 400 that names no refused filter, to a request continuing a saved cursor: the cursor is stale. */
function staleCursor(outcome: Outcome<ScanResult>, body: IDataObject): boolean {
	return (
		!outcome.ok &&
		errorDetails(outcome.error)?.statusCode === 400 &&
		refusedFilters(outcome.error, body).length === 0
	);
}

/**
 * Scans from the watermark in the check's mode, or continues the open round of the same settings
 * (a round of other settings is dropped); a cursor the server no longer accepts starts the round
 * again from the watermark.
 */
async function runScan(c: Check): Promise<ScanRun> {
	const { ctx, settings, state, now } = c;
	const verifier = new FilterVerifier(settings.filters);
	// the filters sent: those SentiOne refused the shape of stay out (the verifier applies them)
	const sentFilters = withoutFilters(
		{ [SEARCH_REQUEST_FIELDS.filters]: settings.filters },
		state.unsent ?? [],
	)[SEARCH_REQUEST_FIELDS.filters] as IDataObject;
	const watermarkBefore = state.watermark;
	const from = scanFrom(state, settings.lateWindowMs, rereadAllowance(state, now));
	const pages = Math.min(pagesThisPoll(ctx, settings), c.share.left);
	const scan = new Scan(c.transport, settings, state, verifier, from, now, pages);

	const mode: ScanMode = state.mode ?? 'collectedAt';
	const key = roundKey(settings, mode);
	const resume = state.round && state.round.key === key ? state.round : undefined;
	if (state.round && !resume) delete state.round;
	let body = resume ? (JSON.parse(resume.body) as IDataObject) : scan.body(mode, sentFilters);
	let outcome = await scan.run(mode, body, resume?.cursor);
	if (resume && staleCursor(outcome, body)) {
		// The server no longer accepts the saved cursor: start the round again from the watermark.
		delete state.round;
		body = scan.body(mode, sentFilters);
		outcome = await scan.run(mode, body, undefined);
	}
	return { scan, verifier, mode, key, body, outcome, watermarkBefore };
}

function switchToDescending(state: PollState, why: string): void {
	state.mode = 'descending';
	delete state.round;
	addNotice(state, 'collectedAt', descendingNotice(why));
}

/**
 * SentiOne refused the shape of an unconfirmed filter, or returned mentions older than the
 * collectedAt asked for: leave the filter out from now on (applying it locally) or switch to the
 * newest-first order, and say so once. True: this check passes nothing on (nothing is lost: the
 * next check continues from the same watermark).
 */
function handleRefusal(c: Check, { outcome, body, scan }: ScanRun): boolean {
	const { state, now } = c;
	const refused = outcome.ok ? [] : refusedFilters(outcome.error, body);
	if (refused.length === 0 && !(outcome.ok && outcome.value.ignored)) return false;
	delete state.round;
	if (outcome.ok) {
		const asked = formatLocal(requestedFrom(scan.from ?? now, now), c.ctx.getTimezone());
		const why = `it returned mentions collected before ${asked}, the earliest the check asked for`;
		switchToDescending(state, why);
		return true;
	}
	if (refused.includes('collectedAt'))
		switchToDescending(state, `it refused the filter: ${(outcome.error as Error).message}`);
	const others = refused.filter((f): f is 'language' | 'country' => f !== 'collectedAt');
	if (others.length > 0) {
		state.unsent = Array.from(new Set([...(state.unsent ?? []), ...others]));
		addNotice(state, `refused:${others.join(',')}`, refusedNotice(others, outcome.error));
	}
	return true;
}

/**
 * What the scan fetched. A failure, or a 429 before anything was fetched, keeps the watermark and is
 * the check's error (a spent budget then waits quietly for its reset).
 */
function fetchedOrThrow(c: Check, outcome: Outcome<ScanResult>): ScanResult {
	const { state, staticData } = c;
	noteBudget(c);
	if (!outcome.ok) {
		spend(c);
		saveState(staticData, state);
		throw asNodeError(c.ctx.getNode(), outcome.error);
	}
	const { result } = outcome.value;
	if (result.items.length > 0 || !result.stopped) return outcome.value;
	// 429 before anything was fetched: nothing moves.
	const budget: PollBudget = { ...(state.budget ?? {}), remaining: 0 };
	// an unknown or implausible reset: the top of the next hour (D-07), so the refusal is
	// reported once and later checks wait quietly instead of asking again on every poll
	budget.resetAt = result.stopped.resetAt ?? nextHourStart(c.now);
	budget.reported = budget.resetAt;
	state.budget = budget;
	spend(c);
	saveState(staticData, state);
	throw budgetError(c.ctx, budget, true);
}

/**
 * Passes over what the scan fetched, oldest first (a newest-first scan is turned around): admits
 * the new mentions and moves the round (its cursor kept while there is more to read; a newest-first
 * round holds the watermark until it is done, then raises it to the round's top), and notes
 * whether a mention came late, how many were new and the tail left for the next check.
 */
function advanceRound(c: Check, run: ScanRun, { result, body, done }: ScanResult) {
	const { state, now } = c;
	const descending = run.mode === 'descending';
	const inOrder = descending ? result.items.slice().reverse() : result.items;
	const { collected, keptAt, noId } = collect(inOrder, state.watermark ?? now);
	const holdWatermark = descending && !done;
	if (holdWatermark) {
		const top = state.round?.top;
		state.round = {
			body: JSON.stringify(body),
			key: run.key,
			cursor: result.nextCursor ?? '',
			top,
		};
	}
	const admitted = admit(state, collected, now, holdWatermark);
	if (descending && done && state.round?.top !== undefined)
		state.watermark = Math.max(state.watermark ?? state.round.top, state.round.top);
	if (descending) {
		if (done || isEndCursor(result.nextCursor)) delete state.round;
	} else {
		const cursor = result.nextCursor;
		state.round =
			cursor && !isEndCursor(cursor)
				? { body: JSON.stringify(body), key: run.key, cursor }
				: undefined;
		if (!state.round) delete state.round;
	}
	const before = run.watermarkBefore;
	if (before !== null && admitted.some((i) => collected[i].collectedAt < before))
		state.lateAt = now;
	// new mentions per check, averaged over the last checks (sizes the next re-read and paging)
	state.lastNew = Math.round(
		state.lastNew === undefined ? admitted.length : (state.lastNew + admitted.length) / 2,
	);
	if (run.scan.tail !== undefined && state.round) state.tail = run.scan.tail;
	else delete state.tail;
	return { mentions: admitted.map((i) => inOrder[keptAt[i]]), noId };
}

/**
 * Falling behind, told by the next check (whatever it is: at these rates a check with nothing to
 * pass on never comes): this check ended with more to read while the mentions it read arrived
 * faster than the trigger's searches carry (catchUp.ts, `fallingBehind`); or check after check
 * ended with more to read and what waits was collected over an hour ago. Said once a day while it
 * lasts; the next due check catches up by export when it may.
 */
function trackBehind(c: Check, read: IDataObject[]): void {
	const { state, settings, now } = c;
	state.behindChecks = state.round ? Math.min((state.behindChecks ?? 0) + 1, 10_000) : 0;
	if (state.behindChecks === 0) delete state.behindChecks;
	const behind = fallingBehind(settings, state, read, state.round !== undefined, now);
	const slow =
		(state.behindChecks ?? 0) >= BEHIND_CHECKS &&
		state.watermark !== null &&
		now - state.watermark > HOUR_MS;
	if (behind || slow) state.behind = now;
	else if (!state.round) delete state.behind;
	if (!behind && !slow) return;
	const kind = `behind:${Math.floor(now / DAY_MS)}`;
	if (state.told?.includes(kind)) return;
	const zone = c.ctx.getTimezone();
	addNotice(state, kind, behindNotice(settings, settings.requestsPerHour, behind, zone, now));
	state.urgent = true;
}

/**
 * Passes on what the check brought (a search's or a catch-up's): through the alert engine for an
 * alert event, else as rows; saves, and reports pending notices when there is nothing to pass on.
 */
function passOn(c: Check, loaded: Loaded, mentions: IDataObject[]): INodeExecutionData[][] | null {
	const { ctx, settings, staticData, state, now } = c;
	prune(state, settings.lateWindowMs);
	// a fresh engine of a backfill sees from where the backfill starts
	const seenFrom = loaded.state ? now : now - settings.backfillHours * HOUR_MS;
	const engine = alertEngine(ctx, settings, staticData, now, seenFrom);
	const items = engine
		? alertCheck(c, engine, mentions)
		: mentions.map((mention) => mentionRow(mention, settings.simplify));
	spend(c);
	if (items.length === 0) return saveAndReport(ctx, staticData, state);
	saveState(staticData, state);
	return [toItems(items)];
}

/**
 * Falling behind: the backlog by one export (catchUp.ts). Undefined when it did not catch up (not
 * allowed, refused, or a part it cannot trust): the check searches as usual.
 */
async function catchUp(
	c: Check,
	loaded: Loaded,
): Promise<INodeExecutionData[][] | null | undefined> {
	const { state, settings, now } = c;
	const { caught, refusal, requests } = await catchUpByExport(c.transport, settings, state, now);
	c.exportRequests = requests;
	if (refusal) addNotice(state, 'catchUp:off', catchUpRefusedNotice(refusal));
	if (!caught) return undefined;
	const { collected, keptAt, noId } = collect(caught.mentions, state.watermark ?? now);
	const admitted = admit(state, collected, now);
	// the searches go on from the new watermark: an open round is behind it
	delete state.round;
	delete state.tail;
	if (caught.complete) {
		delete state.behind;
		delete state.behindChecks;
	}
	if (noId > 0) addNotice(state, 'noId', noIdNotice(noId));
	return passOn(
		c,
		loaded,
		admitted.map((i) => caught.mentions[keptAt[i]]),
	);
}

export async function pollNewMentions(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const settings = readPollSettings(this);
	const transport = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
	if (this.getMode() === 'manual') return await sample(transport, settings, this.getTimezone());

	const staticData = this.getWorkflowStaticData('node');
	// the watermark, the scan's start and "collected in the future" are SentiOne's instants: its
	// clock, as its answers dated them (D-50)
	const now = serverClock.now();
	const loaded = loadState(staticData, settings.projectId, now);
	if (
		!loaded.state &&
		(settings.startFrom === 'now' || loaded.repairs.length > 0 || loaded.seedWait)
	) {
		// a first check refused by a 429 waits quietly for the reset
		if (loaded.seedWait && loaded.seedWait.resetAt > now) return null;
		const seeded = await seed(this, transport, settings, now, loaded.repairs);
		seedAlerts(this, settings, staticData, now);
		return saveAndReport(this, staticData, seeded);
	}
	const state = continuedState(loaded, settings, now);
	if (state.urgent) {
		// told now, whatever this check would have done (it sends nothing; the next goes on)
		delete state.urgent;
		if ((state.pending ?? []).length > 0) return saveAndReport(this, staticData, state);
	}
	const share = shareOfCheck(state, settings, now);
	if (!share) return null;
	const c: Check = { ctx: this, transport, settings, staticData, state, share, now };
	if (catchUpDue(settings, state, now)) {
		const caughtUp = await catchUp(c, loaded);
		if (caughtUp !== undefined) return caughtUp;
	}
	if (gateOnBudget(c)) return null;
	if (!paceToKey(share, state, settings, now)) return null;

	const run = await runScan(c);
	if (handleRefusal(c, run)) {
		noteBudget(c);
		spend(c);
		return saveAndReport(this, staticData, state);
	}
	const fetched = fetchedOrThrow(c, run.outcome);
	const { mentions, noId } = advanceRound(c, run, fetched);
	const skipped = fetched.result.skipped;
	for (const [kind, text] of noticesOf(state, run.verifier, noId, skipped))
		addNotice(state, kind, text);
	trackBehind(c, fetched.result.items);
	return passOn(c, loaded, mentions);
}
