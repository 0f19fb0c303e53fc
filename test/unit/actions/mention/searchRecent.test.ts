/**
 * Mention → Search Recent with a fake SentiOne: the SearchRequest it builds (every filter where
 * docs/api-contract.md D-14 puts it, the 7-day window of D-18, the sort), cursor paging for Return
 * All and Limit, Simplify, the filters SentiOne did not apply, the rate-limit choice (fail, stop,
 * wait — on a frozen clock, so a wait for the reset takes no time) and the mapped errors. The
 * engine tier runs it against the simulator: test/engine/actions/search.test.ts, rateLimit.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SORT_TYPES } from '../../../../nodes/SentiOne/shared/contract';
import { SIMPLE_COLUMNS } from '../../../../nodes/SentiOne/shared/simplify';
import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { mention, mentions, simpleRowOf } from '../../../support/fake/mentions';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';

const PATH = '/projects/1001/mentions/recent/search';
const RESET_MS = NOW_MS + 30 * MINUTE;

const recent = (extra: IDataObject = {}): IDataObject => ({
	resource: 'mention',
	operation: 'searchRecent',
	project: projectById(1001),
	...extra,
});

/** 60 mentions in pages of 25, chained by cursors p2 and p3 */
function threePages(headers?: (cursor: unknown) => Record<string, number> | undefined): FakeApi {
	const all = mentions(60);
	return new FakeApi().on('POST', PATH, (request) => {
		const cursor = request.qs.cursor;
		const extra = headers?.(cursor);
		if (cursor === undefined) return { headers: extra, body: page(all.slice(0, 25), 'p2') };
		if (cursor === 'p2') return { headers: extra, body: page(all.slice(25, 50), 'p3') };
		return { headers: extra, body: page(all.slice(50), null) };
	});
}

const clock = useFakeClock();

describe('the request', () => {
	test('no filters: POST …/recent/search with empty filters and the default sort', async () => {
		const api = new FakeApi().on('POST', PATH, { body: page([]) });
		const { json } = await runAction(recent(), { api });
		expect(json).toEqual([]);
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({
			method: 'POST',
			path: PATH,
			qs: {},
			body: { filters: {}, sortType: 'PublishedAtDescending' },
		});
		expect(api.requests[0].headers).toMatchObject({
			Accept: 'application/json',
			'Content-Type': 'application/json',
		});
	});

	test('every filter lands where D-14 says, dates read in the workflow time zone and sent in UTC', async () => {
		const api = new FakeApi().on('POST', PATH, { body: page([mention('m1')]) });
		const { json, hints } = await runAction(
			recent({
				filters: {
					publishedAfter: '2026-11-20T12:00:00',
					publishedBefore: '2026-11-21T11:00:00',
					collectedAfter: '2026-11-21T08:00:00.500',
					collectedBefore: '2026-11-21T11:00:00',
					sourceTypes: ['Facebook', 'X', 'Facebook'],
					mentionTypes: ['Post', 'Comment'],
					sentiments: ['Positive', 'Negative'],
					query: ' acme OR "acme phone" ',
					languages: ' EN, en-GB ,en',
					countries: 'pl; de',
				},
			}),
			{ api, timezone: 'Europe/Warsaw' },
		);
		expect(api.requests[0].body).toEqual({
			filters: {
				publishedAt: { from: '2026-11-20T11:00:00.000Z', to: '2026-11-21T10:00:00.000Z' },
				// widened by whole seconds on the wire; applied exactly to what comes back
				collectedAt: { from: '2026-11-21T06:59:59.000Z', to: '2026-11-21T10:00:01.000Z' },
				source: { type: ['Facebook', 'X'] },
				type: ['Post', 'Comment'],
				content: {
					sentiment: ['Positive', 'Negative'],
					query: 'acme OR "acme phone"',
					language: [{ code: 'en' }, { code: 'en-gb' }],
				},
				location: { country: [{ code: 'PL' }, { code: 'DE' }] },
			},
			sortType: 'PublishedAtDescending',
		});
		// the mention matches every filter: passed on, nothing to tell
		expect(json.map((row) => row.id)).toEqual(['m1']);
		expect(hints).toEqual([]);
	});

	test('Published in the Last: a period ending now; 7 days is the whole window less its safety margin', async () => {
		const api = new FakeApi().on('POST', PATH, { body: page([]) });
		await runAction(
			recent({ filters: { publishedInLast: { period: { amount: 24, unit: 'hours' } } } }),
			{
				api,
			},
		);
		await runAction(
			recent({ filters: { publishedInLast: { period: { amount: 1.5, unit: 'days' } } } }),
			{
				api,
			},
		);
		await runAction(
			recent({ filters: { publishedInLast: { period: { amount: 7, unit: 'days' } } } }),
			{
				api,
			},
		);
		expect(api.requests.map((r) => (r.body as IDataObject).filters)).toEqual([
			{ publishedAt: { from: '2026-11-20T10:30:00.000Z' } },
			{ publishedAt: { from: '2026-11-19T22:30:00.000Z' } },
			{ publishedAt: { from: '2026-11-14T10:35:00.000Z' } },
		]);
	});

	test.each(SORT_TYPES.map((sort) => [sort]))('sort %s is sent as chosen', async (sortType) => {
		const api = new FakeApi().on('POST', PATH, { body: page([]) });
		await runAction(recent({ sortType }), { api });
		expect((api.requests[0].body as IDataObject).sortType).toBe(sortType);
	});
});

describe('paging', () => {
	test('Return All follows the cursor with the same body: 60 mentions in 3 requests', async () => {
		const { json, api } = await runAction(
			recent({ returnAll: true, filters: { sentiments: ['Positive'] } }),
			{ api: threePages() },
		);
		expect(json.map((row) => row.id)).toEqual(mentions(60).map((m) => m.id));
		expect(api.requests.map((r) => r.qs)).toEqual([{}, { cursor: 'p2' }, { cursor: 'p3' }]);
		const bodies = api.requests.map((r) => JSON.stringify(r.body));
		expect(new Set(bodies).size).toBe(1);
	});

	test('Limit: only the pages it needs (25 → 1 request, 30 → 2, 100 → all 3)', async () => {
		const counts: Array<[number, number, number]> = [];
		for (const limit of [25, 30, 100]) {
			const { json, api } = await runAction(recent({ limit }), { api: threePages() });
			counts.push([limit, json.length, api.requests.length]);
		}
		expect(counts).toEqual([
			[25, 25, 1],
			[30, 30, 2],
			[100, 60, 3],
		]);
	});

	test('a cursor too long to send back is an unusable answer, not a loop', async () => {
		const api = new FakeApi().on('POST', PATH, { body: page(mentions(25), 'c'.repeat(5000)) });
		const failure = await failAction(recent({ returnAll: true }), { api });
		expect(failure.message).toBe(
			"SentiOne's answer could not be used: the page cursor is 5,000 characters long, too long to send back",
		);
		expect(api.requests).toHaveLength(1);
	});

	test('three pages in a row with nothing new stop paging with an error', async () => {
		let n = 0;
		const api = new FakeApi().on('POST', PATH, () => ({ body: page([], `empty-${++n}`) }));
		const failure = await failAction(recent({ returnAll: true }), { api });
		expect(failure.message).toBe(
			'SentiOne returned 3 pages in a row with nothing new (empty pages) under ever-new cursors, after 3 pages; paging stopped so as not to loop.',
		);
		expect(api.requests).toHaveLength(3);
	});
});

describe('the items', () => {
	test('Simplify (the default): the fixed columns in their order, each read from the mention', async () => {
		const api = new FakeApi().on('POST', PATH, { body: page([mention('m1')]) });
		const { json } = await runAction(recent(), { api });
		expect(Object.keys(json[0])).toEqual([...SIMPLE_COLUMNS]);
		expect(json[0]).toEqual(simpleRowOf('m1'));
	});

	test('Simplify on a sparse mention: every column still there, null where the mention has nothing', async () => {
		const sparse = { id: 'bare', type: 'Share', tags: ['a', 'b'] };
		const api = new FakeApi().on('POST', PATH, { body: page([sparse]) });
		const [row] = (await runAction(recent(), { api })).json;
		expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect(row).toMatchObject({ id: 'bare', mentionType: 'Share', tags: 'a, b', url: null });
		const nulls = SIMPLE_COLUMNS.filter((c) => !['id', 'mentionType', 'tags'].includes(c));
		for (const column of nulls) expect(row[column]).toBeNull();
	});

	test('Simplify off: the mention exactly as SentiOne sent it, unknown fields and a "json" field included', async () => {
		const full = mention('m1', {
			discussion: { id: 'd1', source: { type: 'Forums' } },
			futureField: { nested: [1, 2, 3] },
			json: 'not an item',
		});
		const api = new FakeApi().on('POST', PATH, { body: page([full]) });
		const { items } = await runAction(recent({ simplify: false }), { api });
		expect(items).toEqual([{ json: full, pairedItem: { item: 0 } }]);
	});
});

describe('filters SentiOne did not apply', () => {
	test('mentions that break a filter are dropped and the user told once; the limit counts only matches', async () => {
		const page1 = [
			mention('m1', { content: { sentiment: 'Negative' } }),
			mention('m2'),
			mention('m3', { content: { sentiment: 'Negative', language: { code: 'de' } } }),
			mention('m4', { content: { sentiment: 'Negative' } }),
		];
		const api = new FakeApi().on('POST', PATH, { body: page(page1, null) });
		const { json, hints } = await runAction(
			recent({ limit: 2, filters: { sentiments: ['Negative'], languages: 'en' } }),
			{ api },
		);
		expect(json.map((row) => row.id)).toEqual(['m1', 'm4']);
		expect(hints).toEqual([
			"SentiOne did not apply every filter it was sent: 2 of the 4 mentions it returned did not match and were removed (did not match: Sentiments (1 mention), Languages (1 mention)). The output holds only mentions that match. The request that fetched them was counted against SentiOne's budget all the same.",
		]);
	});

	test('the collected range is applied exactly although it is sent widened', async () => {
		const api = new FakeApi().on('POST', PATH, {
			body: page([
				mention('early', { collectedAt: '2026-11-21T07:59:59.999Z' }),
				mention('first', { collectedAt: '2026-11-21T08:00:00.000Z' }),
				mention('last', { collectedAt: '2026-11-21T08:59:59.999Z' }),
				mention('late', { collectedAt: '2026-11-21T09:00:00.000Z' }),
			]),
		});
		const { json } = await runAction(
			recent({
				filters: {
					collectedAfter: '2026-11-21T08:00:00Z',
					collectedBefore: '2026-11-21T09:00:00Z',
				},
			}),
			{ api },
		);
		expect(json.map((row) => row.id)).toEqual(['first', 'last']);
		expect((api.requests[0].body as IDataObject).filters).toEqual({
			collectedAt: { from: '2026-11-21T07:59:59.000Z', to: '2026-11-21T09:00:01.000Z' },
		});
	});

	test('a refused filter shape: asked again without it, applied locally, the user told once', async () => {
		const api = new FakeApi()
			.once('POST', PATH, {
				status: 422,
				body: {
					message: 'Validation failed.',
					requestFieldErrors: { 'filters.content.language': ['must be a list of strings'] },
				},
			})
			.once('POST', PATH, {
				body: page([mention('en1'), mention('de1', { content: { language: { code: 'de' } } })]),
			});
		const { json, hints } = await runAction(recent({ filters: { languages: 'en' } }), { api });
		expect(api.requests.map((r) => r.body)).toEqual([
			{ filters: { content: { language: [{ code: 'en' }] } }, sortType: 'PublishedAtDescending' },
			// the emptied content group goes too
			{ filters: {}, sortType: 'PublishedAtDescending' },
		]);
		expect(json.map((row) => row.id)).toEqual(['en1']);
		expect(hints).toEqual([
			"SentiOne refused the Languages filter in the shape the node sends (SentiOne rejected a value (422) — filters.content.language: must be a list of strings). The node asked again without it and kept only the mentions that match, so the output is what was asked; the refused request and the extra pages count against SentiOne's budget.",
		]);
	});

	test('a 422 that refuses a value, not a shape, is the error it is', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 422,
			body: {
				message: 'Validation failed.',
				requestFieldErrors: { 'filters.content.query': ['unbalanced parentheses'] },
			},
		});
		const failure = await failAction(recent({ filters: { languages: 'en' } }), { api });
		expect(failure.message).toBe(
			'SentiOne rejected a value (422) — filters.content.query: unbalanced parentheses',
		);
		expect(api.requests).toHaveLength(1);
	});
});

describe('bad input stops before any request, naming the field', () => {
	const cases: Array<[string, IDataObject, string]> = [
		[
			'a start older than the 7-day window',
			{ filters: { publishedAfter: '2026-11-13T10:00:00Z' } },
			'Filters → Published After: 2026-11-13 10:00 UTC is more than 7 days ago; recent search only covers mentions published since 2026-11-14 10:35 UTC. Use Search Historical (Enterprise tier) for older mentions.',
		],
		[
			'an end before the 7-day window',
			{ filters: { publishedBefore: '2026-11-10T00:00:00Z' } },
			'Filters → Published Before: 2026-11-10 00:00 UTC is before the 7-day window of recent search, so nothing could match. Use Search Historical (Enterprise tier) for older mentions.',
		],
		[
			'a period longer than 7 days',
			{ filters: { publishedInLast: { period: { amount: 8, unit: 'days' } } } },
			'Filters → Published in the Last: 8 days reaches beyond the 7 days recent search covers. Use at most 7 days, or Search Historical (Enterprise tier) for older mentions.',
		],
		[
			'a period and a start together',
			{
				filters: {
					publishedAfter: '2026-11-20T10:00:00Z',
					publishedInLast: { period: { amount: 2, unit: 'hours' } },
				},
			},
			'Filters → Published in the Last: set either Published in the Last or Published After, not both.',
		],
		[
			'an end not later than the start',
			{
				filters: {
					publishedAfter: '2026-11-20T10:00:00Z',
					publishedBefore: '2026-11-20T10:00:00Z',
				},
			},
			'Filters → Published Before: the end (2026-11-20 10:00 UTC) must be later than the start (2026-11-20 10:00 UTC).',
		],
		[
			'a collected start in the future',
			{ filters: { collectedAfter: '2026-11-21T12:00:00Z' } },
			'Filters → Collected After: 2026-11-21 12:00 UTC is in the future; nothing can have been collected then.',
		],
		[
			'a date that is not a date',
			{ filters: { publishedAfter: 'yesterday' } },
			'Filters → Published After: "yesterday" is not a date: it is not in ISO 8601 form.',
		],
		[
			'a sentiment SentiOne does not have',
			{ filters: { sentiments: ['Angry'] } },
			'Filters → Sentiments: "Angry" is not a sentiment. Expected one of: Positive, Negative, Neutral, Unspecified.',
		],
		[
			'a source type in the wrong case',
			{ filters: { sourceTypes: ['facebook'] } },
			'Filters → Source Types: "facebook" is not a source type.',
		],
		[
			'a mention type SentiOne does not have',
			{ filters: { mentionTypes: ['Tweet'] } },
			'Filters → Mention Types: "Tweet" is not a mention type.',
		],
		[
			'a language that is not a code',
			{ filters: { languages: 'english' } },
			'Filters → Languages: "english" is not a language code (ISO 639-1 such as en, or with a region such as en-gb).',
		],
		[
			'a country of three letters',
			{ filters: { countries: 'POL' } },
			'Filters → Countries: "POL" is not a two-letter country code (ISO 3166-1 alpha-2 such as PL).',
		],
		[
			'a malformed content query',
			{ filters: { query: 'acme AND (' } },
			'Filters → Content Query: ',
		],
		[
			'a sort SentiOne does not have',
			{ sortType: 'Newest' },
			'Sort By: "Newest" is not a sort order.',
		],
		['Simplify that is not a switch', { simplify: 'maybe' }, 'Simplify: "maybe" is not valid.'],
		[
			'an unknown rate-limit choice',
			{ options: { onRateLimit: 'retry' } },
			'Options → On Rate Limit: "retry" is not a choice. Expected one of: fail, stop, wait.',
		],
		[
			'a Max Wait beyond 180 minutes',
			{ options: { onRateLimit: 'wait', maxWaitMinutes: 500 } },
			'Options → Max Wait (Minutes): "500" is not valid. Expected a number from 1 to 180.',
		],
		[
			'a Limit that is not a number',
			{ limit: 'ten' },
			'Limit: "ten" is not valid. Expected a whole number of at least 1.',
		],
	];
	test.each(cases)('%s', async (_, parameters, message) => {
		const api = new FakeApi();
		const failure = await failAction(recent(parameters), { api });
		expect(failure.message.startsWith(message)).toBe(true);
		expect(failure.description).toBe(
			'Nothing was sent to SentiOne, so no request budget was used.',
		);
		expect(failure.itemIndex).toBe(0);
		expect(api.requests).toHaveLength(0);
	});
});

describe('On Rate Limit, when the budget runs out part-way (page 1 says 0 remaining)', () => {
	/** page 1 leaves the budget at 0 until RESET_MS; later pages leave 29 */
	const exhaustedAfterPage1 = () =>
		threePages((cursor) =>
			cursor === undefined
				? rateLimitHeaders(30, 0, RESET_MS)
				: rateLimitHeaders(30, 29, RESET_MS + 60 * MINUTE),
		);

	test('fail (the default): an error naming the reset, without sending the request that would be refused', async () => {
		const api = exhaustedAfterPage1();
		const failure = await failAction(recent({ returnAll: true }), { api });
		expect(failure.message).toBe(
			"SentiOne's search budget is used up (30 requests an hour); it resets at 2026-11-21 11:00 UTC (in 30 min).",
		);
		expect(failure.description).toBe(
			'No request was sent, so no budget was wasted. 25 item(s) had been fetched; nothing is returned. Choose to wait for the reset or to stop and return what was fetched.',
		);
		expect(api.requests).toHaveLength(1);
		expect(clock().slept).toEqual([]);
	});

	test('stop: the mentions fetched so far, and a notice that the result is incomplete', async () => {
		const { json, hints, api } = await runAction(
			recent({ returnAll: true, options: { onRateLimit: 'stop' } }),
			{ api: exhaustedAfterPage1() },
		);
		expect(json).toHaveLength(25);
		expect(api.requests).toHaveLength(1);
		expect(hints).toEqual([
			'Incomplete result for input item 1: Stopped after 25 items (1 page): the hourly budget is used up until 2026-11-21 11:00 UTC (in 30 min). The items fetched so far are returned; run again after the reset for the rest.',
		]);
	});

	test('wait: sleeps until just after the reset (on the node clock), then fetches the rest', async () => {
		const { json, hints, api } = await runAction(
			recent({ returnAll: true, options: { onRateLimit: 'wait' } }),
			{ api: exhaustedAfterPage1() },
		);
		expect(json).toHaveLength(60);
		expect(api.requests).toHaveLength(3);
		expect(clock().slept).toEqual([30 * MINUTE + SECOND]);
		expect(clock().now).toBe(RESET_MS + SECOND);
		expect(hints).toEqual([]);
	});

	test('wait, but the reset is further than Max Wait: an error, nothing returned, nothing slept', async () => {
		const failure = await failAction(
			recent({ returnAll: true, options: { onRateLimit: 'wait', maxWaitMinutes: 10 } }),
			{ api: exhaustedAfterPage1() },
		);
		expect(failure.message).toBe(
			"SentiOne's search budget is used up (30 requests an hour); it resets at 2026-11-21 11:00 UTC (in 30 min).",
		);
		expect(failure.description).toBe(
			'Waiting for the reset would exceed the longest wait you allowed. 25 item(s) had been fetched; nothing is returned. Raise the maximum wait, or choose to stop and return what was fetched.',
		);
		expect(clock().slept).toEqual([]);
	});

	test('a Limit the first page satisfies needs no second request, whatever the budget', async () => {
		const { json, api } = await runAction(recent({ limit: 20 }), { api: exhaustedAfterPage1() });
		expect(json).toHaveLength(20);
		expect(api.requests).toHaveLength(1);
	});
});

describe('On Rate Limit, when SentiOne answers 429 part-way', () => {
	/** page 1, then a 429 for the next request, then page 2 and 3 */
	function refusedOnce(message = 'Too many requests. Limits will reset at 2026-11-21T11:00:00Z.') {
		const all = mentions(60);
		return new FakeApi()
			.once('POST', PATH, { body: page(all.slice(0, 25), 'p2') })
			.once('POST', PATH, { status: 429, body: { message } })
			.on('POST', PATH, (r) =>
				r.qs.cursor === 'p2'
					? { body: page(all.slice(25, 50), 'p3') }
					: { body: page(all.slice(50), null) },
			);
	}

	test('fail: the mapped 429, with the budget it names and the reset it states', async () => {
		const failure = await failAction(recent({ returnAll: true }), { api: refusedOnce() });
		expect(failure.message).toBe(
			"SentiOne's search budget is used up (429): at most 30 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
		);
		expect(failure.description).toBe(
			'Recent search and historical search share one budget of 30 requests an hour per API key, across every workflow using the key. Each page of 25 mentions is one request. Lower the limit, use Export for bulk extraction, or set the rate-limit option to wait for the reset.',
		);
		expect(failure.httpCode).toBe('429');
	});

	test('stop: what was fetched before the 429, with the notice', async () => {
		const { json, hints } = await runAction(
			recent({ returnAll: true, options: { onRateLimit: 'stop' } }),
			{ api: refusedOnce() },
		);
		expect(json).toHaveLength(25);
		expect(hints).toEqual([
			'Incomplete result for input item 1: Stopped after 25 items (1 page): the hourly budget is used up until 2026-11-21 11:00 UTC (in 30 min). The items fetched so far are returned; run again after the reset for the rest.',
		]);
	});

	test('wait: the refused request is sent again after the reset; nothing is lost or repeated', async () => {
		const { json, api } = await runAction(
			recent({ returnAll: true, options: { onRateLimit: 'wait' } }),
			{ api: refusedOnce() },
		);
		expect(json.map((row) => row.id)).toEqual(mentions(60).map((m) => m.id));
		expect(api.requests.map((r) => r.qs)).toEqual([
			{},
			{ cursor: 'p2' },
			{ cursor: 'p2' },
			{ cursor: 'p3' },
		]);
		expect(clock().slept).toEqual([30 * MINUTE + SECOND]);
	});

	test('the monthly mentions cap is not waited for, whatever the choice', async () => {
		const failure = await failAction(
			recent({ returnAll: true, options: { onRateLimit: 'wait' } }),
			{
				api: refusedOnce(
					'Monthly mentions cap of 100000 reached. The cap resets at 2026-12-01T00:00:00Z.',
				),
			},
		);
		expect(failure.message).toBe(
			"SentiOne's monthly mentions cap is reached (429): at most 100,000 mentions a month for this key. It resets at 2026-12-01 00:00 UTC (in 230 h).",
		);
		expect(clock().slept).toEqual([]);
	});
});

describe('errors SentiOne answers', () => {
	test('400 with the server message', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 400,
			body: { message: 'filters.publishedAt.from: expected an ISO 8601 date-time string.' },
		});
		const failure = await failAction(recent(), { api });
		expect(failure.message).toBe(
			'SentiOne rejected the request as malformed (400): filters.publishedAt.from: expected an ISO 8601 date-time string.',
		);
		expect(failure.description).toContain(`(POST ${PATH})`);
	});

	test('404 naming the project', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 404,
			body: { message: 'Project 1001 not found.' },
		});
		expect((await failAction(recent(), { api })).message).toBe(
			'SentiOne could not find what the request names (404): Project 1001 not found.',
		);
	});

	test('401 for a key without any API tier', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 401,
			body: {
				message: 'API key does not have permission for this endpoint. It requires the Basic tier.',
			},
		});
		const failure = await failAction(recent(), { api });
		expect(failure.message).toBe(
			"Mention → Search Recent needs API access (SentiOne's Basic tier), and this API key has none (401)",
		);
		expect(failure.description).toContain('Ask your SentiOne account manager to enable API access');
	});

	test('an HTML page where the JSON page belongs', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 500,
			headers: { 'content-type': 'text/html' },
			body: '<!doctype html><title>Oops</title>',
		});
		// a 500 is not retried (only 502/503/504 are)
		const failure = await failAction(recent(), { api });
		expect(failure.message).toBe(
			'SentiOne had a server error (500): an HTML page ("<!doctype html><title>Oops</title>")',
		);
		expect(api.requests).toHaveLength(1);
	});
});
