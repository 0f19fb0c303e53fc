/**
 * Mention → Export with a fake SentiOne that streams its answer in chunks, as Server-Sent Events
 * or JSON lines (D-27, D-28): the request (scope → route, Limit → `limit`, anonymization, Accept),
 * the rows (Simplify, other events skipped), reading stopped at the Limit, anonymization checked,
 * the caps, and an export cut short — which returns nothing and says so. The engine tier runs it
 * against the simulator: test/engine/actions/export.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SIMPLE_COLUMNS } from '../../../../nodes/SentiOne/shared/simplify';
import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import {
	heartbeatEvent,
	mention,
	mentionEvent,
	mentions,
	streamAnswer,
	type StreamEvent,
} from '../../../support/fake/mentions';
import { MINUTE, NOW_MS } from '../../../support/time';

const RECENT = '/projects/1001/mentions/recent/search/stream';
const HISTORICAL = '/projects/1001/mentions/search/stream';

const exportParameters = (extra: IDataObject = {}): IDataObject => ({
	resource: 'mention',
	operation: 'export',
	project: projectById(1001),
	...extra,
});

/** a hash SentiOne could put where an author's name was, and one for the id */
const HASHED = {
	id: '0b0e7c1e-8d36-4a0c-9a57-5d1f6f0b9a41',
	name: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
	avatar: null,
};

/** the mentions as events, with a heartbeat first and an event of a kind nobody knows between */
const eventsOf = (list: IDataObject[]): StreamEvent[] => [
	heartbeatEvent(),
	...list.slice(0, 1).map(mentionEvent),
	{ event: 'somethingNew', data: { hello: 'world' }, id: 'x1' },
	...list.slice(1).map(mentionEvent),
	heartbeatEvent('2026-11-21T10:30:15.000Z'),
];

useFakeClock();

describe('the request', () => {
	test('the default: recent scope over SSE with the Limit of 50 as `limit`, the SearchRequest as body', async () => {
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', eventsOf(mentions(3))));
		const { json } = await runAction(exportParameters(), { api });
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0]).toMatchObject({
			method: 'POST',
			path: RECENT,
			qs: { limit: 50 },
			body: { filters: {}, sortType: 'PublishedAtDescending' },
		});
		expect(api.requests[0].headers).toMatchObject({
			Accept: 'text/event-stream',
			'Content-Type': 'application/json',
			'X-API-KEY': api.credentials.apiKey,
		});
		expect(json.map((row) => row.id)).toEqual(['m1', 'm2', 'm3']);
	});

	test('all time over JSON lines with Return All: the historical route, no limit sent', async () => {
		const api = new FakeApi().on(
			'POST',
			HISTORICAL,
			streamAnswer('jsonLines', eventsOf(mentions(4)), { chunkSize: 7 }),
		);
		const { json } = await runAction(
			exportParameters({
				exportScope: 'historical',
				returnAll: true,
				filters: { sentiments: ['Positive'], publishedAfter: '2024-01-01T00:00:00Z' },
				sortType: 'CollectedAtAscending',
				options: { streamFormat: 'jsonLines' },
			}),
			{ api },
		);
		expect(api.requests[0]).toMatchObject({
			path: HISTORICAL,
			qs: {},
			body: {
				filters: {
					publishedAt: { from: '2024-01-01T00:00:00.000Z' },
					content: { sentiment: ['Positive'] },
				},
				sortType: 'CollectedAtAscending',
			},
		});
		expect(api.requests[0].headers.Accept).toBe('application/x-ndjson');
		expect(json.map((row) => row.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
	});

	test.each([
		['author', 'author'],
		['all', 'all'],
	])('anonymization %s is sent as the query parameter', async (level) => {
		const api = new FakeApi().on(
			'POST',
			RECENT,
			streamAnswer('sse', [mentionEvent(mention('m1', { author: HASHED }))]),
		);
		await runAction(exportParameters({ options: { anonymization: level } }), { api });
		expect(api.requests[0].qs).toEqual({ limit: 50, anonymization: level });
	});

	test('anonymization none sends no parameter', async () => {
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', []));
		await runAction(exportParameters({ limit: 5, options: { anonymization: 'none' } }), { api });
		expect(api.requests[0].qs).toEqual({ limit: 5 });
	});

	test('the recent scope keeps the 7-day rule of recent search; all time does not', async () => {
		const api = new FakeApi().on('POST', HISTORICAL, streamAnswer('sse', []));
		const old = { filters: { publishedAfter: '2026-10-01T00:00:00Z' } };
		const failure = await failAction(exportParameters(old), { api });
		expect(failure.message).toMatch(
			/^Filters → Published After: 2026-10-01 00:00 UTC is more than 7 days ago/,
		);
		expect(api.requests).toHaveLength(0);
		await runAction(exportParameters({ ...old, exportScope: 'historical' }), { api });
		expect(api.requests).toHaveLength(1);
	});
});

describe('the rows', () => {
	test('Simplify (the default): the fixed columns; heartbeats and unknown kinds are not rows', async () => {
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', eventsOf(mentions(2))));
		const { json, hints } = await runAction(exportParameters(), { api });
		expect(json).toHaveLength(2);
		for (const row of json) expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect(json[1]).toMatchObject({ id: 'm2', sentiment: 'Positive', country: 'PL', tags: 'vip' });
		expect(hints).toEqual([]);
	});

	test('Simplify off: each mention as SentiOne sent it', async () => {
		const list = [mention('m1', { unknownField: { a: 1 } }), mention('m2')];
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', eventsOf(list)));
		const { items } = await runAction(exportParameters({ simplify: false }), { api });
		expect(items).toEqual(list.map((json) => ({ json, pairedItem: { item: 0 } })));
	});

	test('SSE and JSON lines, in any chunking, give the same rows', async () => {
		const list = mentions(5, { content: { text: 'zażółć gęślą jaźń 🎉' } });
		const rows: IDataObject[][] = [];
		for (const [format, chunkSize] of [
			['sse', 3],
			['sse', 1000],
			['jsonLines', 5],
			['jsonLines', 1000],
		] as const) {
			const api = new FakeApi().on(
				'POST',
				RECENT,
				streamAnswer(format, eventsOf(list), { chunkSize }),
			);
			const options = { streamFormat: format };
			rows.push((await runAction(exportParameters({ simplify: false, options }), { api })).json);
		}
		for (const run of rows) expect(run).toEqual(list);
	});

	test('JSON lines answered as application/json are read as JSON lines', async () => {
		const answer = streamAnswer('jsonLines', eventsOf(mentions(2)), {
			headers: { 'content-type': 'application/json; charset=utf-8' },
		});
		const api = new FakeApi().on('POST', RECENT, answer);
		const { json } = await runAction(exportParameters({ options: { streamFormat: 'jsonLines' } }), {
			api,
		});
		expect(json.map((row) => row.id)).toEqual(['m1', 'm2']);
	});

	test('events that cannot be read are skipped, counted in one notice', async () => {
		const events: StreamEvent[] = [
			mentionEvent(mention('m1')),
			{ event: 'mention', raw: '{"id": "m2", "content": ', id: 'm2' },
			{ event: 'mention', data: { content: { text: 'no id' } } },
			mentionEvent(mention('m4')),
		];
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', events));
		const { json, hints } = await runAction(exportParameters(), { api });
		expect(json.map((row) => row.id)).toEqual(['m1', 'm4']);
		expect(hints).toEqual([
			'Input item 1: 2 events of the export stream could not be read and were skipped.',
		]);
	});

	test('heartbeats in either form (D-28) and other kinds of event are neither rows nor unreadable', async () => {
		const events: StreamEvent[] = [
			heartbeatEvent(),
			{ event: 'heartbeat', raw: '2026-11-21T10:30:15.000Z' },
			mentionEvent(mention('m1')),
			{
				event: 'engagementUpdate',
				data: { mentionId: 'm1', engagementMetrics: {}, updatedAt: '2026-11-21T10:30:20.000Z' },
				id: 'm1:2026-11-21T10:30:20.000Z',
			},
			{ event: 'comment', raw: 'not json at all' },
		];
		for (const format of ['sse', 'jsonLines'] as const) {
			// in JSON lines the legacy heartbeat is a JSON string
			const framed =
				format === 'sse'
					? events
					: events.map((e) =>
							e.raw === undefined ? e : { event: e.event, data: e.raw, id: e.id },
						);
			const api = new FakeApi().on('POST', RECENT, streamAnswer(format, framed));
			const { json, hints } = await runAction(
				exportParameters({ options: { streamFormat: format } }),
				{ api },
			);
			expect(json.map((row) => row.id)).toEqual(['m1']);
			expect(hints).toEqual([]);
		}
	});

	test('the Limit stops reading at once and closes the connection, without waiting for the stream to end', async () => {
		// after the third mention the stream stays open and silent: a reader waiting for its end
		// would wait out the 120 s idle guard
		const answer = streamAnswer('sse', mentions(3).map(mentionEvent), { hold: true });
		const api = new FakeApi().on('POST', RECENT, answer);
		const { json } = await runAction(exportParameters({ limit: 3 }), { api });
		expect(json).toHaveLength(3);
		expect(api.requests[0].response?.destroyed).toBe(true);
	});

	test('more mentions than the Limit: only the Limit is passed on', async () => {
		const api = new FakeApi().on(
			'POST',
			RECENT,
			streamAnswer('sse', mentions(10).map(mentionEvent)),
		);
		const { json } = await runAction(exportParameters({ limit: 4 }), { api });
		expect(json.map((row) => row.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
	});

	test('mentions that break a filter are dropped and told once; the Limit counts only matches', async () => {
		const list = [
			mention('m1', { type: 'Comment' }),
			mention('m2'),
			mention('m3', { type: 'Comment' }),
			mention('m4', { type: 'Comment' }),
		];
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', list.map(mentionEvent)));
		const { json, hints } = await runAction(
			exportParameters({ limit: 2, filters: { mentionTypes: ['Comment'] } }),
			{ api },
		);
		expect(json.map((row) => row.id)).toEqual(['m1', 'm3']);
		expect(hints).toEqual([
			"SentiOne did not apply every filter it was sent: 1 of the 3 mentions it returned did not match and were removed (did not match: Mention Types (1 mention)). The output holds only mentions that match. The request that fetched them was counted against SentiOne's budget all the same.",
		]);
	});

	test('a refused country filter: the stream is opened again without it and the filter applied here', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, {
				status: 400,
				body: { message: 'filters.location.country: expected a list of strings' },
			})
			.once(
				'POST',
				RECENT,
				streamAnswer('sse', [
					mentionEvent(mention('pl')),
					mentionEvent(mention('de', { location: { country: { code: 'DE' } } })),
				]),
			);
		const { json, hints } = await runAction(exportParameters({ filters: { countries: 'PL' } }), {
			api,
		});
		expect(api.requests.map((r) => (r.body as IDataObject).filters)).toEqual([
			{ location: { country: [{ code: 'PL' }] } },
			{},
		]);
		expect(json.map((row) => row.id)).toEqual(['pl']);
		expect(hints).toEqual([
			expect.stringMatching(
				/^SentiOne refused the Countries filter in the shape the node sends \(SentiOne rejected the request as malformed \(400\): filters\.location\.country: expected a list of strings\)\. The node asked again without it/,
			),
		]);
	});
});

describe('anonymization is checked on every mention', () => {
	const inClear = mention('m2');

	test('hashed authors pass as they came', async () => {
		const hashed = mention('m1', { author: HASHED });
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', [mentionEvent(hashed)]));
		const { json } = await runAction(
			exportParameters({ simplify: false, options: { anonymization: 'author' } }),
			{ api },
		);
		expect(json).toEqual([hashed]);
	});

	test('an author in clear fails the export (the default): nothing is returned', async () => {
		const api = new FakeApi().on(
			'POST',
			RECENT,
			streamAnswer('sse', [mentionEvent(mention('m1', { author: HASHED })), mentionEvent(inClear)]),
		);
		const failure = await failAction(exportParameters({ options: { anonymization: 'author' } }), {
			api,
		});
		expect(failure.message).toBe(
			'Anonymization (Author) was asked for, but SentiOne sent mention m2 with author.name, author.id, author.avatar in clear',
		);
		expect(failure.description).toMatch(
			/^Nothing is returned, so no author in clear reaches the workflow/,
		);
		expect(JSON.stringify(failure.error)).not.toContain('Anna Nowak');
	});

	test('If Not Anonymized → Remove Identifying Fields: nulls instead, and a notice', async () => {
		const withParent = mention('m2', {
			context: { parent: { author: { name: 'Jan Kowalski' } } },
			discussion: { id: 'd1', author: { name: 'Jan Kowalski' } },
		});
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', [mentionEvent(withParent)]));
		const { json, hints } = await runAction(
			exportParameters({
				simplify: false,
				options: { anonymization: 'all', notAnonymized: 'remove' },
			}),
			{ api },
		);
		expect(json[0]).toMatchObject({
			id: 'm2',
			author: { id: null, name: null, avatar: null, gender: 'Female' },
			source: { socialChannel: { id: null, name: null }, type: 'Facebook' },
			context: { parent: { author: { name: null } } },
			discussion: { id: 'd1', author: { name: null } },
			content: withParent.content,
		});
		expect(hints).toEqual([
			'Input item 1: SentiOne did not anonymize 1 mention; their identifying fields were removed (set to null) as Options → If Not Anonymized says.',
		]);
	});
});

describe('an export cut short returns nothing and says so', () => {
	test('a stream that breaks off: an error naming how many mentions had come', async () => {
		const answer = streamAnswer('sse', mentions(2).map(mentionEvent), {
			breakOff: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
		});
		const api = new FakeApi().on('POST', RECENT, answer);
		const failure = await failAction(exportParameters({ returnAll: true }), { api });
		expect(failure.message).toBe(
			'The export stream broke off after 2 mentions, so the export is incomplete: The SentiOne stream broke off before its end: socket hang up',
		);
		expect(failure.description).toBe(
			'Nothing is returned for an incomplete export, so a partial result is never taken for the whole. Run again (each run costs 1 of the 5 export streams an hour), or narrow the filters or set a Limit.',
		);
		expect(api.requests).toHaveLength(1);
	});

	test('with Continue On Fail the item becomes { error, description }, no partial rows', async () => {
		const answer = streamAnswer('jsonLines', mentions(1).map(mentionEvent), {
			breakOff: new Error('aborted'),
		});
		const api = new FakeApi().on('POST', RECENT, answer);
		const { items } = await runAction(
			exportParameters({ options: { streamFormat: 'jsonLines' } }),
			{
				api,
				continueOnFail: true,
			},
		);
		expect(items).toEqual([
			{
				json: {
					error:
						'The export stream broke off after 1 mention, so the export is incomplete: The SentiOne stream broke off before its end: aborted',
					description: expect.stringContaining('Nothing is returned for an incomplete export'),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('Max Mentions per Run: an export beyond it stops with an error, nothing partial', async () => {
		const api = new FakeApi().on(
			'POST',
			HISTORICAL,
			streamAnswer('sse', mentions(5).map(mentionEvent)),
		);
		const failure = await failAction(
			exportParameters({ exportScope: 'historical', returnAll: true, options: { maxMentions: 3 } }),
			{ api },
		);
		expect(failure.message).toBe(
			'The export stopped at 3 mentions (Options → Max Mentions per Run)',
		);
		expect(failure.description).toBe(
			'Nothing is returned, so a partial export is never taken for the whole. Set a Limit, narrow the filters, or raise Max Mentions per Run.',
		);
		expect(api.requests[0].response?.destroyed).toBe(true);
	});

	test('Max Size: a stream bringing more data stops with an error naming the cap', async () => {
		const big = mentions(12, { content: { text: 'x'.repeat(100_000) } });
		const api = new FakeApi().on(
			'POST',
			RECENT,
			streamAnswer('sse', big.map(mentionEvent), { chunkSize: 64 * 1024 }),
		);
		const failure = await failAction(
			exportParameters({ returnAll: true, options: { maxSizeMb: 1 } }),
			{ api },
		);
		expect(failure.message).toMatch(
			/^The export stopped at 1 MB of stream data \(Options → Max Size \(MB\)\) after \d mentions$/,
		);
		expect(failure.description).toBe(
			'Nothing is returned, so a partial export is never taken for the whole. Set a Limit, narrow the filters, or raise Max Size (MB).',
		);
	});

	test('a page where the stream belongs is an unusable answer, never an empty export', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			status: 200,
			headers: { 'content-type': 'text/html' },
			body: '<html><body>Sign in</body></html>',
		});
		const failure = await failAction(exportParameters(), { api });
		expect(failure.message).toBe(
			'SentiOne\'s answer could not be used: status 200 came with an HTML page ("<html><body>Sign in</body></html>") (Content-Type text/html), not a stream',
		);
	});

	test('a stream of nothing but unreadable events is an unusable answer', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			status: 200,
			headers: { 'content-type': 'application/x-ndjson' },
			chunks: ['{"data": [1, 2, 3], "cursor": null}'],
		});
		const failure = await failAction(exportParameters({ options: { streamFormat: 'jsonLines' } }), {
			api,
		});
		expect(failure.message).toMatch(
			/^SentiOne's answer could not be used: the stream carried no event SentiOne documents, only 1 unreadable one/,
		);
	});

	test('an empty stream is an empty export', async () => {
		const api = new FakeApi().on('POST', RECENT, streamAnswer('sse', [heartbeatEvent()]));
		const { items, hints } = await runAction(exportParameters(), { api });
		expect(items).toEqual([]);
		expect(hints).toEqual([]);
	});
});

describe('errors before the stream starts', () => {
	test('a Basic key on all time: the Enterprise tier, with the recent export as the alternative', async () => {
		const api = new FakeApi().on('POST', HISTORICAL, {
			status: 401,
			body: {
				message:
					'API key does not have permission for this endpoint. It requires the Enterprise tier.',
			},
		});
		const failure = await failAction(exportParameters({ exportScope: 'historical' }), { api });
		expect(failure.message).toBe(
			"Mention → Export (all time) needs SentiOne's Enterprise tier, and this API key does not have it (401)",
		);
		expect(failure.description).toMatch(
			/^With a Basic key, Mention → Export with Mentions From: Last 7 Days covers the last 7 days\./,
		);
	});

	test('429, the hourly export budget: named with its reset, the stream not retried', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			status: 429,
			headers: rateLimitHeaders(5, 0, NOW_MS + 30 * MINUTE),
			body: { message: 'Too many requests.' },
		});
		const failure = await failAction(exportParameters(), { api });
		expect(failure.message).toBe(
			"SentiOne's export stream budget is used up (429): at most 5 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
		);
		expect(api.requests).toHaveLength(1);
	});

	test('429, too many open exports', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			status: 429,
			body: { message: 'The maximum number of concurrent connections for this endpoint is 2.' },
		});
		const failure = await failAction(exportParameters(), { api });
		expect(failure.message).toBe(
			'Too many open export stream connections (429): at most 2 connections at a time for this key.',
		);
	});

	test('404 without naming a project on the announced recent route: not available on this API', async () => {
		const api = new FakeApi().on('POST', RECENT, { status: 404, body: { message: 'Not Found' } });
		const failure = await failAction(exportParameters(), { api });
		expect(failure.message).toBe(
			'Mention → Export (last 7 days) is not available on this SentiOne API (404): Not Found',
		);
	});

	test('406: the stream format was refused', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			status: 406,
			body: {
				message: 'Accept must be text/event-stream, application/x-ndjson or application/json.',
			},
		});
		const failure = await failAction(exportParameters(), { api });
		expect(failure.message).toBe(
			'SentiOne refused the requested stream format (406): Accept must be text/event-stream, application/x-ndjson or application/json.',
		);
	});
});

describe('bad input stops before the stream is opened, naming the field', () => {
	const cases: Array<[IDataObject, string]> = [
		[
			{ exportScope: 'weekly' },
			'Mentions From: "weekly" is not a choice. Expected one of: recent, historical.',
		],
		[
			{ options: { anonymization: 'some' } },
			'Options → Anonymization: "some" is not a level. Expected one of: none, author, all.',
		],
		[
			{ options: { notAnonymized: 'ignore' } },
			'Options → If Not Anonymized: "ignore" is not a choice. Expected one of: fail, remove.',
		],
		[
			{ options: { streamFormat: 'xml' } },
			'Options → Stream Format: "xml" is not a stream format. Expected one of: jsonLines, sse.',
		],
		[
			{ options: { maxMentions: 0 } },
			'Options → Max Mentions per Run: "0" is not valid. Expected a whole number from 1 to 10000000.',
		],
		[
			{ options: { maxSizeMb: 5000 } },
			'Options → Max Size (MB): "5000" is not valid. Expected a whole number from 1 to 4096.',
		],
		[
			{ options: { timeoutMinutes: 1.5 } },
			'Options → Timeout (Minutes): "1.5" is not valid. Expected a whole number from 1 to 1440.',
		],
		[{ limit: -1 }, 'Limit: "-1" is not valid. Expected a whole number of at least 1.'],
		[
			{ returnAll: false, limit: 5000, options: { maxMentions: 1000 } },
			'Limit: 5,000 is above Options → Max Mentions per Run (1,000). Lower the Limit or raise Max Mentions per Run.',
		],
		[
			{ filters: { countries: 'Poland' } },
			'Filters → Countries: "POLAND" is not a two-letter country code',
		],
		[{ project: projectById('abc') }, 'Project: "abc" is not a project ID.'],
	];
	test.each(cases)('%j', async (parameters, message) => {
		const api = new FakeApi();
		const failure = await failAction(exportParameters(parameters), { api });
		expect(failure.message.startsWith(message)).toBe(true);
		expect(api.requests).toHaveLength(0);
	});
});
