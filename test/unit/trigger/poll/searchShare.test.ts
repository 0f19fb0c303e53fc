/**
 * The poll trigger's share of the key's search budget (trigger/poll/searchShare.ts): checks spaced
 * to the share (n spacings after a check of n requests), none once the hour's share is spent, the
 * pages a check may spend (Max Requests per Poll, fewer when n8n gives the poll little time), and
 * the budget SentiOne last stated; several triggers and workflows on one key: what the others
 * spend, learnt from the rate-limit headers, and the line every trigger paces the key along.
 */
import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import type { PollSettings } from '../../../../nodes/SentiOne/trigger/poll/pollSettings';
import { newState } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import {
	account,
	hourOf,
	KEY_RESERVE,
	keyLeft,
	keyOversubscribed,
	learnKeyUse,
	othersPerHour,
	paceToKey,
	pagesThisPoll,
	rememberBudget,
	shareOfCheck,
} from '../../../../nodes/SentiOne/trigger/poll/searchShare';
import type { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { pollContext } from '../../../support/fake/context';
import { pollSettings } from '../../../support/fake/pollTrigger';
import { HOUR, MINUTE } from '../../../support/time';

const HOUR0 = Date.UTC(2026, 10, 21, 10, 0);

const settings = (requestsPerHour = 12, maxRequestsPerPoll = 2): PollSettings =>
	pollSettings({ maxRequestsPerPoll, requestsPerHour, lateWindowMs: 0 });

test('a check falls in the clock hour it starts in', () => {
	expect(hourOf(HOUR0)).toBe(HOUR0);
	expect(hourOf(HOUR0 + 59 * MINUTE)).toBe(HOUR0);
	expect(hourOf(HOUR0 + HOUR)).toBe(HOUR0 + HOUR);
});

describe('shareOfCheck', () => {
	test('the first check may spend the whole share of the hour', () => {
		expect(shareOfCheck(newState(1, null), settings(), HOUR0 + MINUTE)).toEqual({
			hour: HOUR0,
			spentBefore: 0,
			left: 12,
		});
	});

	test('checks are spaced to the share (12 an hour: 5 minutes, less 10 % for the schedule’s jitter)', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 1, HOUR0);
		expect(shareOfCheck(state, settings(), HOUR0 + 4 * MINUTE)).toBeUndefined();
		expect(shareOfCheck(state, settings(), HOUR0 + 4.5 * MINUTE - 1)).toBeUndefined();
		expect(shareOfCheck(state, settings(), HOUR0 + 4.5 * MINUTE)).toEqual({
			hour: HOUR0,
			spentBefore: 1,
			left: 11,
		});
	});

	test('a check that sent n requests is followed by n spacings (bounded by Max Requests per Poll)', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 2, HOUR0);
		expect(state.lastCost).toBe(2);
		expect(shareOfCheck(state, settings(), HOUR0 + 8 * MINUTE)).toBeUndefined();
		expect(shareOfCheck(state, settings(), HOUR0 + 9 * MINUTE)?.left).toBe(10);
		// a saved cost beyond what a check may send is not obeyed
		state.lastCost = 50;
		expect(shareOfCheck(state, settings(12, 2), HOUR0 + 9 * MINUTE)).toBeDefined();
	});

	test('once the hour’s share is spent, checks return quietly until the next hour', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 3, HOUR0);
		expect(shareOfCheck(state, settings(3, 3), HOUR0 + 50 * MINUTE)).toBeUndefined();
		expect(shareOfCheck(state, settings(3, 3), HOUR0 + HOUR)).toEqual({
			hour: HOUR0 + HOUR,
			spentBefore: 0,
			left: 3,
		});
	});

	test('a share of 0 (none of its own): every check runs, without a limit of its own', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 30, HOUR0);
		expect(shareOfCheck(state, settings(0), HOUR0 + 1)).toEqual({
			hour: HOUR0,
			spentBefore: 30,
			left: Infinity,
		});
	});

	test('no wait is longer than the hour, whatever share and cost', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 30, HOUR0);
		expect(shareOfCheck(state, settings(1, 30), HOUR0 + HOUR - 1)).toBeUndefined();
		expect(shareOfCheck(state, settings(1, 30), HOUR0 + HOUR)?.left).toBe(1);
	});
});

describe('account', () => {
	test('counts what a check sent against the share, when, and what it cost (at most 100)', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 4 }, 3, HOUR0 + 7);
		expect(state).toMatchObject({
			spent: { hour: HOUR0, count: 7 },
			checkedAt: HOUR0 + 7,
			lastCost: 3,
		});
		account(state, { hour: HOUR0, spentBefore: 7 }, 500, HOUR0 + 8);
		expect(state.lastCost).toBe(100);
	});

	test('a check that sent nothing changes nothing', () => {
		const state = newState(1, null);
		account(state, { hour: HOUR0, spentBefore: 0 }, 0, HOUR0);
		expect(state).toEqual(newState(1, null));
	});
});

describe('pagesThisPoll', () => {
	const withBudget = (pollBudgetMs?: number) =>
		pollContext({ nodeType: new SentiOneTrigger(), pollBudgetMs });

	test('Max Requests per Poll when n8n gives no poll budget (n8n 1.x) or an unusable one', () => {
		expect(pagesThisPoll(withBudget(), settings(12, 5))).toBe(5);
		for (const ms of [0, -1, NaN, Infinity])
			expect(pagesThisPoll(withBudget(ms), settings(12, 5))).toBe(5);
	});

	test('one page per 30 s of the poll budget, at least one, at most Max Requests per Poll', () => {
		expect(pagesThisPoll(withBudget(30_000), settings(12, 5))).toBe(1);
		expect(pagesThisPoll(withBudget(10_000), settings(12, 5))).toBe(1);
		expect(pagesThisPoll(withBudget(95_000), settings(12, 5))).toBe(3);
		expect(pagesThisPoll(withBudget(3_600_000), settings(12, 5))).toBe(5);
	});
});

describe('rememberBudget', () => {
	const transportSeeing = (search?: object) =>
		({ rateLimits: search ? { search } : {} }) as unknown as SentiOneTransport;

	test('keeps what SentiOne last stated for the search group, or what was known before', () => {
		const resetAt = HOUR0 + HOUR;
		expect(
			rememberBudget(
				transportSeeing({ group: 'search', limit: 30, remaining: 4, resetAt }),
				settings(),
				undefined,
			),
		).toEqual({ limit: 30, remaining: 4, resetAt });
		const before = { limit: 30, remaining: 1 };
		expect(rememberBudget(transportSeeing(), settings(), before)).toBe(before);
	});

	test('a window already reported stays reported; a new window is not', () => {
		const resetAt = HOUR0 + HOUR;
		const seen = transportSeeing({ group: 'search', limit: 30, remaining: 0, resetAt });
		expect(rememberBudget(seen, settings(), { remaining: 0, resetAt, reported: resetAt })).toEqual({
			limit: 30,
			remaining: 0,
			resetAt,
			reported: resetAt,
		});
		expect(
			rememberBudget(seen, settings(), { remaining: 0, resetAt: HOUR0, reported: HOUR0 }),
		).toEqual({ limit: 30, remaining: 0, resetAt });
	});
});

describe('several triggers and workflows on one key', () => {
	const RESET = HOUR0 + HOUR;
	const seen = (remaining: number, resetAt = RESET) => ({ limit: 30, remaining, resetAt });

	test('what the others spent is what the key spent that was not this trigger’s', () => {
		const state = newState(1001, null);
		expect(learnKeyUse(state, seen(29), 0, HOUR0)).toBe(false);
		expect(learnKeyUse(state, undefined, 1, HOUR0)).toBe(false);
		expect(learnKeyUse(state, { limit: 30 }, 1, HOUR0)).toBe(false);
		// 10:30: this trigger's 2 requests, the key has 20 left: the others spent 8 in 30 minutes
		expect(learnKeyUse(state, seen(20), 2, HOUR0 + 30 * MINUTE)).toBe(true);
		expect(state.key).toEqual({
			resetAt: RESET,
			limit: 30,
			remaining: 20,
			mine: 2,
			at: HOUR0 + 30 * MINUTE,
		});
		expect(othersPerHour(state.key!)).toBe(16);
		// same window: its own requests add up
		learnKeyUse(state, seen(17), 1, HOUR0 + 40 * MINUTE);
		expect(state.key?.mine).toBe(3);
		// a new window starts its own count and keeps the others' pace of the last one
		learnKeyUse(state, seen(29, RESET + HOUR), 1, RESET + MINUTE);
		expect(state.key).toMatchObject({ mine: 1, remaining: 29, othersBefore: 15 });
		// early in a window the pace of the last one counts (a young window says little)
		expect(othersPerHour(state.key!)).toBe(15);
	});

	test('a trigger sends only while the key stays on the line down to the reserve at the reset', () => {
		const state = newState(1001, null);
		// unknown key: no limit of its own
		expect(keyLeft(state, HOUR0)).toBeUndefined();
		// 10:30, the key has 20 left, the others spend 16 an hour: the line at 10:30 is
		// 3 + 27 / 2 - 5 = 11.5, so 8 may go now
		learnKeyUse(state, seen(20), 2, HOUR0 + 30 * MINUTE);
		expect(keyLeft(state, HOUR0 + 30 * MINUTE)).toBe(8);
		// 10 minutes later the others are taken to have spent 16 / 6 ≈ 2.7 more; the line is 7
		expect(keyLeft(state, HOUR0 + 40 * MINUTE)).toBe(10);
		// the key nearly spent near the reset: nothing; the reserve is never touched
		learnKeyUse(state, seen(4), 1, HOUR0 + 55 * MINUTE);
		expect(keyLeft(state, HOUR0 + 55 * MINUTE)).toBe(1);
		learnKeyUse(state, seen(3), 1, HOUR0 + 56 * MINUTE);
		expect(keyLeft(state, HOUR0 + 56 * MINUTE)).toBeLessThanOrEqual(0);
		expect(keyLeft(state, HOUR0 + 59 * MINUTE)).toBeLessThanOrEqual(0);
		// a window not seen yet allows at least one request, to see it
		expect(keyLeft(state, RESET + MINUTE)).toBeGreaterThanOrEqual(1);
		expect(KEY_RESERVE).toBe(3);
	});

	test('the check sends no more than the key allows, nothing when it allows none; a share of 0 does not pace', () => {
		const state = newState(1001, null);
		learnKeyUse(state, seen(5), 1, HOUR0 + 30 * MINUTE);
		const check = () => ({ hour: HOUR0, spentBefore: 1, left: 11 });
		expect(paceToKey(check(), state, settings(), HOUR0 + 31 * MINUTE)).toBe(false);
		expect(paceToKey(check(), state, settings(0), HOUR0 + 31 * MINUTE)).toBe(true);
		// 10:35: 12 left, the others spent 16 in 35 minutes; the line at 10:36 is 8.8: 2 may go
		learnKeyUse(state, seen(12), 1, HOUR0 + 35 * MINUTE);
		const lowered = check();
		expect(paceToKey(lowered, state, settings(), HOUR0 + 36 * MINUTE)).toBe(true);
		expect(lowered.left).toBe(2);
	});

	test('said when the others’ measured pace and the share need more than the budget', () => {
		const state = newState(1001, null);
		// 10:10 is too early to measure; nothing known before: nothing said
		learnKeyUse(state, seen(10), 1, HOUR0 + 10 * MINUTE);
		expect(keyOversubscribed(state, settings())).toBe(false);
		// 10:30: the others spent 19 in 30 minutes (38 an hour) + 12 > 30
		learnKeyUse(state, seen(10), 1, HOUR0 + 30 * MINUTE);
		expect(keyOversubscribed(state, settings())).toBe(true);
		expect(keyOversubscribed(state, settings(0))).toBe(false);
		// others at 16 an hour and a share of 12 fit
		const calm = newState(1001, null);
		learnKeyUse(calm, seen(20), 2, HOUR0 + 30 * MINUTE);
		expect(keyOversubscribed(calm, settings())).toBe(false);
	});
});
