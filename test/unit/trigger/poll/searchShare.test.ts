/**
 * The poll trigger's share of the key's search budget (trigger/poll/searchShare.ts): checks spaced
 * to the share (n spacings after a check of n requests), none once the hour's share is spent, the
 * pages a check may spend (Max Requests per Poll, fewer when n8n gives the poll little time), and
 * the budget SentiOne last stated.
 */
import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import type { PollSettings } from '../../../../nodes/SentiOne/trigger/poll/pollSettings';
import { newState } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import {
	account,
	hourOf,
	pagesThisPoll,
	rememberBudget,
	shareOfCheck,
} from '../../../../nodes/SentiOne/trigger/poll/searchShare';
import type { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { pollContext } from '../../../support/fake/context';
import { HOUR, MINUTE } from '../../../support/time';

const HOUR0 = Date.UTC(2026, 10, 21, 10, 0);

const settings = (requestsPerHour = 12, maxRequestsPerPoll = 2): PollSettings => ({
	event: 'newMention',
	projectId: 1001,
	source: 'recent',
	filters: {},
	simplify: true,
	startFrom: 'now',
	backfillHours: 0,
	maxRequestsPerPoll,
	requestsPerHour,
	lateWindowMs: 0,
});

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
