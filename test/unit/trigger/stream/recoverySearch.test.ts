/**
 * The Stream Trigger's searches (trigger/stream/recoverySearch.ts) with a fake SentiOne: a
 * collected-at range filled by recent search (ascending, the range widened by whole seconds and
 * checked again on what comes back), the newest-first fallback when SentiOne ignores the filter,
 * the request cap and the search budget; and the one-request sample of a test event.
 */
import { SentiOneStreamTrigger } from '../../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import {
	searchCollected,
	searchLatest,
} from '../../../../nodes/SentiOne/trigger/stream/recoverySearch';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { triggerContext } from '../../../support/fake/context';
import { mentionAt } from '../../../support/fake/mentions';
import { idsOf } from '../../../support/tally';
import { MINUTE, NOW_MS, SECOND, iso } from '../../../support/time';

const T = NOW_MS;
useFakeClock(T);
const SEARCH = PATHS.recentSearch(1001);

const transportFor = (api: FakeApi) =>
	new SentiOneTransport(triggerContext({ nodeType: new SentiOneStreamTrigger(), api }), {
		retry: { maxRateLimitWaitMs: 0 },
	});

/** the range of an outage: from T − 10 min + 0.5 s to T − 5 min + 0.5 s (exclusive) */
const range = { from: T - 10 * MINUTE + 500, to: T - 5 * MINUTE + 500 };

const gap = (api: FakeApi, maxRequests = 6, filters = {}) =>
	searchCollected({ transport: transportFor(api), projectId: 1001, filters, range, maxRequests });

test('asks recent search for the range, widened by whole seconds, oldest first; keeps only what lies in the range', async () => {
	const api = new FakeApi()
		.once('POST', SEARCH, {
			body: page(
				[
					mentionAt('edge-before', range.from - 300),
					mentionAt('g1', range.from),
					mentionAt('g2', range.from + MINUTE),
				],
				'c1',
			),
		})
		.once('POST', SEARCH, {
			body: page([mentionAt('g3', range.to - 1), mentionAt('edge-after', range.to)]),
		});
	const result = await gap(api, 6, { type: ['Post'] });
	expect(api.requests.map((r) => ({ path: r.path, qs: r.qs, body: r.body }))).toEqual([
		{
			path: SEARCH,
			qs: {},
			body: {
				filters: {
					type: ['Post'],
					collectedAt: {
						from: iso(T - 10 * MINUTE - SECOND),
						to: iso(T - 5 * MINUTE + 2 * SECOND),
					},
				},
				sortType: 'CollectedAtAscending',
			},
		},
		expect.objectContaining({ qs: { cursor: 'c1' } }),
	]);
	expect(idsOf(result.mentions)).toEqual(['g1', 'g2', 'g3']);
	expect(result).toMatchObject({ requests: 2, complete: true, budgetStopped: false });
});

test('SentiOne ignoring the collectedAt filter: newest first within the rest of the cap, down to the range, oldest first out', async () => {
	const api = new FakeApi()
		.once('POST', SEARCH, { body: page([mentionAt('way-old', T - 60 * MINUTE)], 'c1') })
		.once('POST', SEARCH, {
			body: page(
				[
					mentionAt('after', T),
					mentionAt('g2', range.from + 2 * MINUTE),
					mentionAt('g1', range.from + MINUTE),
				],
				'd1',
			),
		})
		.once('POST', SEARCH, {
			body: page([mentionAt('g0', range.from), mentionAt('before', range.from - 1)], 'd2'),
		});
	const result = await gap(api, 6, { type: ['Post'] });
	expect(api.requests).toHaveLength(3);
	expect(api.requests[1]).toMatchObject({
		qs: {},
		body: { filters: { type: ['Post'] }, sortType: 'CollectedAtDescending' },
	});
	expect(idsOf(result.mentions)).toEqual(['g0', 'g1', 'g2']);
	expect(result).toMatchObject({ requests: 3, complete: true });
});

test('the request cap stops it: incomplete, not stopped by the budget', async () => {
	const api = new FakeApi().on('POST', SEARCH, {
		body: page([mentionAt('g1', range.from)], 'more'),
	});
	const result = await gap(api, 1);
	expect(api.requests).toHaveLength(1);
	expect(idsOf(result.mentions)).toEqual(['g1']);
	expect(result).toMatchObject({ requests: 1, complete: false, budgetStopped: false });
});

test('a 429 stops it: incomplete, with the reset SentiOne gave', async () => {
	const resetAt = T + 20 * MINUTE;
	const api = new FakeApi()
		.once('POST', SEARCH, { body: page([mentionAt('g1', range.from)], 'c1') })
		.once('POST', SEARCH, {
			status: 429,
			headers: rateLimitHeaders(30, 0, resetAt),
			body: { message: 'Rate limit exceeded.' },
		});
	const result = await gap(api);
	expect(idsOf(result.mentions)).toEqual(['g1']);
	expect(result).toMatchObject({ complete: false, budgetStopped: true, budgetResetAt: resetAt });
});

test('a test event’s sample: one request, newest first, matching the filters', async () => {
	const api = new FakeApi().on('POST', SEARCH, {
		body: page([mentionAt('c', T, { type: 'Comment' }), mentionAt('p', T - 1)], 'more'),
	});
	const found = await searchLatest({
		transport: transportFor(api),
		projectId: 1001,
		filters: { type: ['Post'] },
	});
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0].body).toEqual({
		filters: { type: ['Post'] },
		sortType: 'CollectedAtDescending',
	});
	expect(idsOf(found)).toEqual(['p']);
});
