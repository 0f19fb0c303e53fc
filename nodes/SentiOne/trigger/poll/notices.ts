/**
 * What the poll trigger tells the user besides the mentions it passes on. Notices (a filter
 * SentiOne did not apply, a repaired state, falling behind …) are reported once, as an error of a
 * check that has nothing to pass on, so no mention is held back for them; a spent search budget is
 * reported once per hourly window.
 */
import type { IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZES } from '../../shared/contract';
import { declareFailure, FAILURES } from '../../shared/errors';
import { clock } from '../../shared/clock';
import { formatInstant, formatLocal } from '../../shared/time';
import type { FilterVerifier } from '../../shared/verify';
import { verificationNotice } from '../../shared/verify';
import { hourlyLimit } from '../../shared/wording';
import type { PollSettings } from './pollSettings';
import type { PollBudget, PollState } from './pollState';
import type { Behind } from './catchUp';
import { CATCH_UP_SPACING_MS, ceilingPerHour } from './catchUp';

export function budgetError(
	ctx: IPollFunctions,
	budget: PollBudget,
	requestSent: boolean,
): NodeApiError {
	const limit = budget.limit ?? hourlyLimit('recentSearch');
	const reset =
		budget.resetAt !== undefined
			? ` It resets at ${formatInstant(budget.resetAt, clock.now(), ctx.getTimezone())}.`
			: '';
	const message = `SentiOne's search budget is used up (429): at most ${limit} requests an hour for this API key.${reset}`;
	const description = `${requestSent ? '' : 'No request was sent this time. '}The watermark was kept, so nothing is lost: the first check after the reset continues from the last mention passed on. Recent and historical search share this budget with every workflow using the key; poll less often, lower Max Requests per Poll, or use the SentiOne Stream Trigger for busy projects. This is reported once per hourly window.`;
	const error = new NodeApiError(ctx.getNode(), { message, httpCode: '429' } as JsonObject, {
		message,
		description,
		httpCode: '429',
	});
	// n8n 2.x's poll scheduler polls again only after the reset
	return declareFailure(error, FAILURES.hourlyBudgetSpent(budget.resetAt));
}

/**
 * Reports the pending notices (once), as an error: nothing was held back for them. A notice is not
 * a failure, so it declares no cause: n8n 2.x's poll scheduler then backs off by seconds only, and
 * the next scheduled check runs as planned.
 */
export function noticeError(ctx: IPollFunctions, notices: string[]): NodeOperationError {
	const [first, ...rest] = notices;
	return new NodeOperationError(ctx.getNode(), first, {
		description: `${rest.length > 0 ? `${rest.join(' ')} ` : ''}This is reported once; the trigger goes on. No mention was held back for this notice.`,
	});
}

export function repairNotice(repairs: string[], restarted: boolean): string {
	return `The trigger's saved state was repaired: ${repairs.join('; ')}.${restarted ? ' It started again from the newest matching mention, so mentions collected between its last good check and now may not have been passed on.' : ' Nothing is passed on twice; a mention collected in a part of the state that could not be read may have been missed.'}`;
}

/**
 * Falling behind. With what the check measured (`behind`): the rate, the backlog, since when, and
 * whether the trigger catches up by export; without (checks in a row over an hour behind), the
 * general words.
 */
export function behindNotice(
	settings: PollSettings,
	share: number,
	behind?: Behind,
	zone = 'UTC',
	now = clock.now(),
): string {
	const limit =
		share > 0
			? `Search Requests per Hour: ${share}, at most ${settings.maxRequestsPerPoll} per check`
			: `Max Requests per Poll: ${settings.maxRequestsPerPoll}`;
	const exports = hourlyLimit('recentExport');
	const raise = `raise those options (Search Requests per Hour at most ${hourlyLimit('recentSearch')}, leaving less for other workflows using the key), or use the SentiOne Stream Trigger for a project this busy`;
	if (!behind)
		return `The trigger is falling behind: new mentions SentiOne collected over an hour ago are still waiting, because its requests (Options → ${limit}; each brings up to ${PAGE_SIZES.search} mentions) carry fewer than the project collects. Nothing is lost — they are passed on, oldest first, as the requests allow — but they arrive late. To keep up ${settings.catchUp ? '' : 'turn on Options → Catch Up by Export, '}${raise}.`;
	const catchUp = settings.catchUp
		? `it catches up by reading the backlog with one export stream (Options → Catch Up by Export: one of the key's ${exports} export requests an hour, whatever its size, at most one every ${CATCH_UP_SPACING_MS / 60_000} minutes), so they arrive within about that`
		: 'they are passed on, oldest first, as the requests allow, but later and later';
	return `The trigger is falling behind: mentions arrive at about ${behind.ratePerHour.toLocaleString('en-US')} an hour, more than its requests carry (Options → ${limit}; each brings up to ${PAGE_SIZES.search} mentions: about ${ceilingPerHour(settings).toLocaleString('en-US')} an hour). About ${behind.backlog.toLocaleString('en-US')} are waiting, the oldest collected after ${formatLocal(behind.since, zone)} (${Math.max(0, Math.round((now - behind.since) / 60_000))} min ago). Nothing is lost: ${catchUp}. To keep up ${settings.catchUp ? 'without exports, ' : 'turn on Options → Catch Up by Export, '}${raise}.`;
}

/** Said once when SentiOne refuses the catch-up export (no such route, the tier): the trigger stops trying. */
export function catchUpRefusedNotice(message: string): string {
	return `The trigger could not catch up by export: SentiOne refused the export (${message}). It goes on with searches only, so nothing is lost, but mentions beyond what they carry arrive late; it does not try the export again (turn Options → Catch Up by Export off to silence this).`;
}

/**
 * Said once a day while other workflows on the key and this trigger's share together need more than
 * SentiOne's search budget: before anyone gets a 429, not after.
 */
export function sharedKeyNotice(
	settings: PollSettings,
	limit: number,
	others: number,
	reserve: number,
): string {
	return `This API key's search budget is shared: other workflows or triggers using the key spend about ${Math.round(others)} searches an hour, and with this trigger's share (Options → Search Requests per Hour: ${settings.requestsPerHour}) they would need more than SentiOne's ${limit} an hour. So that none of them gets a 429, the trigger now takes only what the others leave, keeping ${reserve} free until each reset; its mentions may arrive later while the key is this busy, and none is lost. To give it more, lower the shares of the other triggers on this key or give them keys of their own.`;
}

/** Said once when the trigger stops relying on SentiOne's collectedAt filter. */
export function descendingNotice(why: string): string {
	return `SentiOne did not apply the collectedAt filter (${why}). The trigger now finds new mentions with SentiOne's newest-first order (CollectedAtDescending) down to the last mention it passed on, which relies only on what the API documents. Nothing is passed on twice, a check with nothing new still costs one request, and a backlog bigger than one check arrives newest first across checks.`;
}

/** Said once when SentiOne returned mentions without a usable id. */
export function noIdNotice(noId: number): string {
	return `SentiOne returned ${noId} mention${noId === 1 ? '' : 's'} without a usable id; ${noId === 1 ? 'it was' : 'they were'} not passed on, because the trigger could not tell ${noId === 1 ? 'it' : 'them'} apart from mentions already passed on.`;
}

/** Said once when SentiOne's search answers held entries that were not mentions. */
export function skippedNotice(skipped: number): string {
	return `SentiOne sent ${skipped} entries that were not mentions (not objects) in its search answers; they were skipped.`;
}

const FILTERED_OUT_SPENT =
	'The trigger keeps checking every mention, so only matching ones are passed on; the requests that fetched the others were counted against the search budget all the same.';

/** What this check tells besides its mentions: filters SentiOne did not apply, mentions without an id, entries that were not mentions. */
export function noticesOf(
	state: PollState,
	verifier: FilterVerifier,
	noId: number,
	skipped: number,
): Array<[kind: string, text: string]> {
	const notices: Array<[string, string]> = [];
	const told = verificationNotice(verifier, FILTERED_OUT_SPENT, state.unsent);
	if (told)
		notices.push([`filters:${verifier.summary()?.replace(/\s*\(\d+ mentions?\)/g, '')}`, told]);
	if (noId > 0) notices.push(['noId', noIdNotice(noId)]);
	if (skipped > 0) notices.push(['skipped', skippedNotice(skipped)]);
	return notices;
}
