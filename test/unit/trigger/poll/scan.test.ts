/**
 * How one check of the poll trigger reads SentiOne (trigger/poll/scan.ts), with a fake SentiOne at
 * n8n's request helper: the collectedAt it asks from (a whole second earlier, never ahead of the
 * clock), the ascending scan (paging within its budget, stopping at the arrival rate, noticing a
 * server that ignores the filter), the newest-first scan (down to the watermark), and the newest
 * page a first check or a test event reads.
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { FilterVerifier } from '../../../../nodes/SentiOne/shared/verify';
import type { PollState } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import { newState } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import {
	newestPage,
	requestedFrom,
	roundKey,
	Scan,
	searchRequest,
} from '../../../../nodes/SentiOne/trigger/poll/scan';
import { admit } from '../../../../nodes/SentiOne/trigger/poll/watermark';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { pollContext } from '../../../support/fake/context';
import { pollSettings } from '../../../support/fake/pollTrigger';
import { mentionAt } from '../../../support/fake/mentions';
import { idsOf } from '../../../support/tally';
import { MINUTE, NOW_MS, iso } from '../../../support/time';

const clock = useFakeClock();
const T = NOW_MS;
const SEARCH = PATHS.recentSearch(1001);

const settings = pollSettings;

const transportFor = (api: FakeApi) =>
	new SentiOneTransport(pollContext({ nodeType: new SentiOneTrigger(), api }), {
		retry: { maxRateLimitWaitMs: 0 },
	});

const scanOf = (
	api: FakeApi,
	state: PollState,
	from: number | undefined,
	pages = 2,
	s = settings(),
) => new Scan(transportFor(api), s, state, new FilterVerifier(s.filters), from, clock().now, pages);

describe('what a scan asks for', () => {
	test('collectedAt is asked from a whole second earlier, and never ahead of the clock', () => {
		expect(requestedFrom(T + 1500, T + MINUTE)).toBe(T);
		expect(requestedFrom(T + 1000, T + MINUTE)).toBe(T);
		// a watermark moved ahead by a mention dated in the future
		expect(requestedFrom(T + 10 * MINUTE, T + 500)).toBe(T - 1000);
	});

	test('a round belongs to its search, filters and mode: a change of any starts a new round', () => {
		const key = roundKey(settings(), 'collectedAt');
		expect(roundKey(settings(), 'collectedAt')).toBe(key);
		expect(
			new Set([
				key,
				roundKey(settings({ source: 'historical' }), 'collectedAt'),
				roundKey(settings({ filters: { type: ['Post'] } }), 'collectedAt'),
				roundKey(settings(), 'descending'),
			]).size,
		).toBe(4);
	});

	test('the request goes to the search of the chosen source, never waiting for a reset', () => {
		expect(searchRequest(settings(), {})).toMatchObject({
			method: 'POST',
			path: SEARCH,
			group: 'search',
			retry: { maxRateLimitWaitMs: 0 },
		});
		expect(searchRequest(settings({ source: 'historical' }), {}).path).toBe(
			PATHS.historicalSearch(1001),
		);
	});

	test('a fresh body: ascending from the scan start, or newest first without collectedAt', () => {
		clock().advance(MINUTE);
		const scan = scanOf(new FakeApi(), newState(1001, T), T + 1500);
		expect(scan.body('collectedAt', { type: ['Post'] })).toEqual({
			filters: { type: ['Post'], collectedAt: { from: iso(T) } },
			sortType: 'CollectedAtAscending',
		});
		expect(scan.body('descending', { type: ['Post'] })).toEqual({
			filters: { type: ['Post'] },
			sortType: 'CollectedAtDescending',
		});
		expect(scanOf(new FakeApi(), newState(1001, null), undefined).body('collectedAt', {})).toEqual({
			filters: {},
			sortType: 'CollectedAtAscending',
		});
	});
});

describe('the ascending scan', () => {
	test('pages with the cursor within its page budget and says where to continue', async () => {
		const api = new FakeApi()
			.once('POST', SEARCH, { body: page([mentionAt('a', T + 1000)], 'c1') })
			.once('POST', SEARCH, { body: page([mentionAt('b', T + 2000)], 'c2') });
		const scan = scanOf(api, newState(1001, T), T);
		const body = scan.body('collectedAt', {});
		const outcome = await scan.run('collectedAt', body, undefined);
		expect(outcome.ok).toBe(true);
		const value = outcome.ok ? outcome.value : undefined;
		expect(idsOf(value?.result.items ?? [])).toEqual(['a', 'b']);
		expect(value).toMatchObject({ done: false, ignored: false });
		expect(value?.result.nextCursor).toBe('c2');
		expect(api.requests.map((r) => r.qs)).toEqual([{}, { cursor: 'c1' }]);
		expect(api.requests.every((r) => JSON.stringify(r.body) === JSON.stringify(body))).toBe(true);
	});

	test('continues a round from its cursor', async () => {
		const api = new FakeApi().once('POST', SEARCH, { body: page([mentionAt('c', T + 3000)]) });
		const scan = scanOf(api, newState(1001, T), T);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), 'c2');
		expect(api.requests[0].qs).toEqual({ cursor: 'c2' });
		expect(outcome.ok && outcome.value.done).toBe(true);
	});

	test('whatever the server returns, a mention older than the scan or at the floor is not kept', async () => {
		const state = newState(1001, T + 5000, T + 2000);
		const api = new FakeApi().once('POST', SEARCH, {
			body: page([
				mentionAt('at-floor', T + 2000),
				mentionAt('before', T + 2500),
				mentionAt('in', T + 3000),
			]),
		});
		const scan = scanOf(api, state, T + 2600);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		// none is older than what was asked (a second before the clock): the filter was honoured
		expect(outcome.ok && outcome.value.ignored).toBe(false);
		expect(idsOf(outcome.ok ? outcome.value.result.items : [])).toEqual(['in']);
	});

	test('a mention collected before what was asked: SentiOne ignored the filter; paging stops there', async () => {
		const api = new FakeApi()
			.once('POST', SEARCH, {
				body: page([mentionAt('old', T - 60 * MINUTE), mentionAt('new', T + 10)], 'c1'),
			})
			.on('POST', SEARCH, { body: page([mentionAt('more', T + 20)]) });
		const scan = scanOf(api, newState(1001, T), T);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		expect(outcome.ok && outcome.value.ignored).toBe(true);
		expect(api.requests).toHaveLength(1);
		expect(idsOf(outcome.ok ? outcome.value.result.items : [])).toEqual(['new']);
	});

	test('stops at the arrival rate: about as many new mentions as the last check found, the tail waits', async () => {
		const state = newState(1001, T);
		state.lastNew = 3;
		const api = new FakeApi()
			.once('POST', SEARCH, {
				body: page([mentionAt('a', T + 1), mentionAt('b', T + 2), mentionAt('c', T + 3)], 'c1'),
			})
			.on('POST', SEARCH, { body: page([mentionAt('d', T + 4)]) });
		const scan = scanOf(api, state, T, 5);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		expect(api.requests).toHaveLength(1);
		expect(outcome.ok && outcome.value.result.nextCursor).toBe('c1');
		expect(scan.tail).toBe(2);
	});

	test('a burst (more than the last check found) goes on paging up to the budget', async () => {
		const state = newState(1001, T);
		state.lastNew = 1;
		const burst = Array.from({ length: 10 }, (_, i) => mentionAt(`b${i}`, T + i + 1));
		const api = new FakeApi()
			.once('POST', SEARCH, { body: page(burst, 'c1') })
			.once('POST', SEARCH, { body: page([mentionAt('last', T + 100)]) });
		const scan = scanOf(api, state, T, 5);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		expect(api.requests).toHaveLength(2);
		expect(outcome.ok && outcome.value.done).toBe(true);
		expect(scan.tail).toBeUndefined();
	});

	test('mentions already passed on do not count as new for the arrival rate', async () => {
		const state = newState(1001, T);
		state.lastNew = 2;
		admit(
			state,
			[
				{ id: 'seen1', collectedAt: T },
				{ id: 'seen2', collectedAt: T },
			],
			clock().now,
		);
		const api = new FakeApi()
			.once('POST', SEARCH, {
				body: page([mentionAt('seen1', T), mentionAt('seen2', T), mentionAt('n1', T + 1)], 'c1'),
			})
			.once('POST', SEARCH, { body: page([mentionAt('n2', T + 2)]) });
		const scan = scanOf(api, state, T, 5);
		await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		// 1 new after the first page (short by 1, within the slack of 2): the tail waits
		expect(api.requests).toHaveLength(1);
		expect(scan.tail).toBe(2);
	});

	test('a 429 stops paging and keeps what was fetched', async () => {
		const api = new FakeApi()
			.once('POST', SEARCH, { body: page([mentionAt('a', T + 1)], 'c1') })
			.once('POST', SEARCH, {
				status: 429,
				headers: rateLimitHeaders(30, 0, T + 30 * MINUTE),
				body: { message: 'Rate limit exceeded.' },
			});
		const scan = scanOf(api, newState(1001, T), T, 3);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		const result = outcome.ok ? outcome.value.result : undefined;
		expect(idsOf(result?.items ?? [])).toEqual(['a']);
		expect(result?.stopped?.resetAt).toBe(T + 30 * MINUTE);
		expect(result?.nextCursor).toBe('c1');
	});

	test('a refusal is an outcome, not a throw (the check decides what it means)', async () => {
		const api = new FakeApi().once('POST', SEARCH, {
			status: 400,
			body: { message: 'Unknown field filters.collectedAt' },
		});
		const scan = scanOf(api, newState(1001, T), T);
		const outcome = await scan.run('collectedAt', scan.body('collectedAt', {}), undefined);
		expect(outcome.ok).toBe(false);
		expect(outcome.ok ? '' : (outcome.error as Error).message).toMatch(
			/^SentiOne rejected the request as malformed \(400\): Unknown field filters\.collectedAt/,
		);
	});
});

describe('the newest-first scan', () => {
	test('reads down to the scan start and is done once a page reaches below it', async () => {
		const api = new FakeApi()
			.once('POST', SEARCH, {
				body: page([mentionAt('n3', T + 3000), mentionAt('n2', T + 2000)], 'c1'),
			})
			.once('POST', SEARCH, {
				body: page([mentionAt('n1', T + 1000), mentionAt('old', T - 5000)], 'c2'),
			})
			.on('POST', SEARCH, { body: page([mentionAt('older', T - 9000)]) });
		const scan = scanOf(api, newState(1001, T), T, 5);
		const body = scan.body('descending', {});
		const outcome = await scan.run('descending', body, undefined);
		expect(api.requests).toHaveLength(2);
		expect(api.requests[0].body).toEqual({ filters: {}, sortType: 'CollectedAtDescending' });
		expect(outcome.ok && outcome.value.done).toBe(true);
		expect(idsOf(outcome.ok ? outcome.value.result.items : [])).toEqual(['n3', 'n2', 'n1']);
	});

	test('a backlog bigger than the budget is not done: the round goes on from the cursor', async () => {
		const api = new FakeApi().once('POST', SEARCH, {
			body: page([mentionAt('n9', T + 9000), mentionAt('n8', T + 8000)], 'c1'),
		});
		const scan = scanOf(api, newState(1001, T), T, 1);
		const outcome = await scan.run('descending', scan.body('descending', {}), undefined);
		expect(outcome.ok && outcome.value.done).toBe(false);
		expect(outcome.ok && outcome.value.result.nextCursor).toBe('c1');
	});
});

describe('the newest page (first check, test event)', () => {
	test('one request, newest first, whether or not more pages exist', async () => {
		const api = new FakeApi().on('POST', SEARCH, {
			body: page([mentionAt('b', T + 2), mentionAt('a', T + 1)], 'more'),
		});
		const { value, dropped } = await newestPage(transportFor(api), settings());
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0].body).toEqual({ filters: {}, sortType: 'CollectedAtDescending' });
		expect(idsOf(value.items)).toEqual(['b', 'a']);
		expect(value.complete).toBe(false);
		expect(dropped).toEqual([]);
	});

	test('a filter whose shape SentiOne refuses is left out and applied to what comes back', async () => {
		const filters: IDataObject = { content: { language: [{ code: 'en' }] } };
		const api = new FakeApi()
			.once('POST', SEARCH, {
				status: 422,
				body: {
					message: 'Invalid',
					requestFieldErrors: { 'filters.content.language': ['unknown'] },
				},
			})
			.once('POST', SEARCH, {
				body: page([
					mentionAt('en', T + 2),
					mentionAt('de', T + 1, { content: { text: 'x', language: { code: 'de' } } }),
				]),
			});
		const { value, dropped } = await newestPage(transportFor(api), settings({ filters }));
		expect(dropped).toEqual(['language']);
		expect(api.requests.map((r) => r.body)).toEqual([
			{ filters, sortType: 'CollectedAtDescending' },
			{ filters: {}, sortType: 'CollectedAtDescending' },
		]);
		expect(idsOf(value.items)).toEqual(['en']);
	});
});
