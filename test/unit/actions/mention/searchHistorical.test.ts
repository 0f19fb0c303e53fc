/**
 * Mention → Search Historical with a fake SentiOne: what it shares with Search Recent (the
 * SearchRequest, the pager, Simplify, the rate-limit choice; searchRecent.test.ts covers them in
 * depth) and what differs — its endpoint, its tier, and the date rules of all time (D-18): no 7-day
 * window, but no start in the future. The engine tier: test/engine/actions/search.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIMPLE_COLUMNS } from '../../../../nodes/SentiOne/shared/simplify';
import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { mention, mentions } from '../../../support/fake/mentions';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';

const PATH = '/projects/1001/mentions/search';

const historical = (extra: IDataObject = {}): IDataObject => ({
	resource: 'mention',
	operation: 'searchHistorical',
	project: projectById(1001),
	...extra,
});

const clock = useFakeClock();

test('no filters: POST …/mentions/search (not the recent route), empty filters, the default sort', async () => {
	const api = new FakeApi().on('POST', PATH, { body: page([mention('m1')]) });
	const { json } = await runAction(historical(), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({
		method: 'POST',
		path: PATH,
		qs: {},
		body: { filters: {}, sortType: 'PublishedAtDescending' },
	});
	expect(json.map((row) => row.id)).toEqual(['m1']);
});

test('the filters and the sort go in the same SearchRequest as for recent search', async () => {
	const api = new FakeApi().on('POST', PATH, {
		body: page([mention('old', { publishedAt: '2025-06-01T12:00:00.000Z' })]),
	});
	const { json, hints } = await runAction(
		historical({
			filters: {
				publishedAfter: '2025-01-01T00:00:00Z',
				publishedBefore: '2026-01-01T00:00:00Z',
				sentiments: ['Positive'],
				sourceTypes: ['Facebook'],
				countries: 'pl',
			},
			sortType: 'PublishedAtAscending',
		}),
		{ api },
	);
	expect(api.requests[0].body).toEqual({
		filters: {
			publishedAt: { from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' },
			source: { type: ['Facebook'] },
			content: { sentiment: ['Positive'] },
			location: { country: [{ code: 'PL' }] },
		},
		sortType: 'PublishedAtAscending',
	});
	expect(json.map((row) => row.id)).toEqual(['old']);
	expect(hints).toEqual([]);
});

test('a start years back is sent as it is, and a period of any length', async () => {
	const api = new FakeApi().on('POST', PATH, { body: page([]) });
	await runAction(historical({ filters: { publishedAfter: '2019-03-01T00:00:00Z' } }), { api });
	await runAction(
		historical({ filters: { publishedInLast: { period: { amount: 30, unit: 'days' } } } }),
		{ api },
	);
	expect(api.requests.map((r) => (r.body as IDataObject).filters)).toEqual([
		{ publishedAt: { from: '2019-03-01T00:00:00.000Z' } },
		{ publishedAt: { from: '2026-10-22T10:30:00.000Z' } },
	]);
});

test('a start in the future is refused before any request, naming the field', async () => {
	const api = new FakeApi();
	const failure = await failAction(
		historical({ filters: { publishedAfter: '2026-11-22T00:00:00Z' } }),
		{ api },
	);
	expect(failure.message).toBe(
		'Filters → Published After: 2026-11-22 00:00 UTC is in the future; historical search needs a start in the past.',
	);
	const outside = await failAction(
		historical({ filters: { publishedAfter: '1970-01-02T00:00:00Z' } }),
		{ api },
	);
	expect(outside.message).toMatch(
		/^Filters → Published After: "1970-01-02T00:00:00Z" is not a date: 1970-01-02 is outside the years 1990 to 2100\. Expected an ISO 8601 date/,
	);
	expect(api.requests).toHaveLength(0);
});

test('Return All pages through the cursor; the mentions come in the order SentiOne sends them', async () => {
	const all = mentions(30).reverse();
	const api = new FakeApi()
		.once('POST', PATH, { body: page(all.slice(0, 25), 'next') })
		.once('POST', PATH, { body: page(all.slice(25), null) });
	const { json } = await runAction(historical({ returnAll: true, simplify: false }), { api });
	expect(json).toEqual(all);
	expect(api.requests.map((r) => r.qs)).toEqual([{}, { cursor: 'next' }]);
});

test('Simplify applies as for recent search', async () => {
	const api = new FakeApi().on('POST', PATH, { body: page(mentions(3)) });
	const { json } = await runAction(historical(), { api });
	for (const row of json) expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
	expect(json.map((row) => row.url)).toEqual([
		'https://social.example/posts/m1',
		'https://social.example/posts/m2',
		'https://social.example/posts/m3',
	]);
});

test('a Basic key: the operation needs the Enterprise tier, and recent search is named as the alternative', async () => {
	const api = new FakeApi().on('POST', PATH, {
		status: 401,
		body: {
			message:
				'API key does not have permission for this endpoint. It requires the Enterprise tier.',
		},
	});
	const failure = await failAction(historical(), { api });
	expect(failure.message).toBe(
		"Mention → Search Historical needs SentiOne's Enterprise tier, and this API key does not have it (401)",
	);
	expect(failure.description).toBe(
		'With a Basic key, Mention → Search Recent covers the mentions published in the last 7 days. To use Mention → Search Historical, ask SentiOne for an API key with the Enterprise tier. Later operations of this run that need the same tier are refused without a request. (SentiOne: API key does not have permission for this endpoint. It requires the Enterprise tier.)',
	);
});

test('the rate-limit choice works as for recent search: wait for the shared search budget', async () => {
	const all = mentions(30);
	const api = new FakeApi()
		.once('POST', PATH, {
			headers: rateLimitHeaders(30, 0, NOW_MS + 10 * MINUTE),
			body: page(all.slice(0, 25), 'next'),
		})
		.once('POST', PATH, { body: page(all.slice(25), null) });
	const { json } = await runAction(
		historical({ returnAll: true, options: { onRateLimit: 'wait', maxWaitMinutes: 15 } }),
		{ api },
	);
	expect(json).toHaveLength(30);
	expect(clock().slept).toEqual([10 * MINUTE + SECOND]);
});

test('the filters SentiOne did not apply are dropped and told', async () => {
	const api = new FakeApi().on('POST', PATH, {
		body: page([mention('fb'), mention('x', { source: { type: 'X' } })]),
	});
	const { json, hints } = await runAction(historical({ filters: { sourceTypes: ['Facebook'] } }), {
		api,
	});
	expect(json.map((row) => row.id)).toEqual(['fb']);
	expect(hints).toEqual([
		"SentiOne did not apply every filter it was sent: 1 of the 2 mentions it returned did not match and were removed (did not match: Source Types (1 mention)). The output holds only mentions that match. The request that fetched them was counted against SentiOne's budget all the same.",
	]);
});

test('404, 422 and 429 (fail) are the mapped errors, with the historical route named', async () => {
	const missing = new FakeApi().on('POST', PATH, {
		status: 404,
		body: { message: 'Project 1001 not found.' },
	});
	const notFound = await failAction(historical(), { api: missing });
	expect(notFound.message).toBe(
		'SentiOne could not find what the request names (404): Project 1001 not found.',
	);
	expect(notFound.description).toContain(`(POST ${PATH})`);
	const rejected = new FakeApi().on('POST', PATH, {
		status: 422,
		body: {
			message: 'Validation failed.',
			requestFieldErrors: { 'filters.publishedAt.from': ['must not be in the future'] },
		},
	});
	expect((await failAction(historical(), { api: rejected })).message).toBe(
		"SentiOne rejected a value (422) — filters.publishedAt.from: must not be in the future. SentiOne judges dates by its own clock (n8n's clock and SentiOne's agree within seconds)",
	);
	const spent = new FakeApi().on('POST', PATH, {
		status: 429,
		headers: rateLimitHeaders(30, 0, NOW_MS + 30 * MINUTE),
		body: { message: 'Too many requests.' },
	});
	expect((await failAction(historical(), { api: spent })).message).toBe(
		"SentiOne's search budget is used up (429): at most 30 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
	);
	expect(clock().slept).toEqual([]);
});
