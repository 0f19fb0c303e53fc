/**
 * The action node's item loop (nodes/SentiOne/actions/router.ts) with a fake SentiOne: one run of
 * the operation per input item with its own parameters, every row linked to its item, Continue On
 * Fail rows `{ error, description }`, the execution hints shown once per run whatever the number
 * of items, and one transport per execution — what one item learns (a refused tier, a spent
 * budget, a refused filter shape) spares the next item a request, and a new execution starts
 * afresh. The engine tier: test/engine/actions/itemErrors.test.ts, tier.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { actionNode, failAction, projectById, runAction } from '../../support/fake/action';
import { FakeApi, page, rateLimitHeaders } from '../../support/fake/api';
import { useFakeClock } from '../../support/fake/clock';
import { executeContext, runExecute } from '../../support/fake/context';
import { mention } from '../../support/fake/mentions';
import { MINUTE, NOW_MS } from '../../support/time';

const RECENT = /^\/projects\/\d+\/mentions\/recent\/search$/;
const HISTORICAL = /^\/projects\/\d+\/mentions\/search$/;

const recent = (projectId: number, extra: IDataObject = {}): IDataObject => ({
	resource: 'mention',
	operation: 'searchRecent',
	project: projectById(projectId),
	...extra,
});
const historical = (projectId: number, extra: IDataObject = {}): IDataObject => ({
	...recent(projectId, extra),
	operation: 'searchHistorical',
});

const ENTERPRISE_REFUSED = {
	status: 401,
	body: {
		message: 'API key does not have permission for this endpoint. It requires the Enterprise tier.',
	},
};

useFakeClock();

describe('one run per input item', () => {
	test('each item runs its own resource and operation with its own parameters; rows keep their item', async () => {
		const api = new FakeApi()
			.on('GET', '/projects', { body: page([{ id: 1 }, { id: 2 }]) })
			.on('GET', '/projects/5/tags', { body: page([{ name: 'vip' }]) })
			.on('POST', RECENT, (r) => ({ body: page([mention(`from-${r.path.split('/')[2]}`)]) }));
		const { items } = await runAction(
			[
				{ resource: 'project', operation: 'getAll' },
				{ resource: 'tag', operation: 'getAll', project: projectById(5) },
				recent(9, { simplify: false }),
			],
			{ api },
		);
		expect(items).toEqual([
			{ json: { id: 1 }, pairedItem: { item: 0 } },
			{ json: { id: 2 }, pairedItem: { item: 0 } },
			{ json: { name: 'vip' }, pairedItem: { item: 1 } },
			{ json: mention('from-9'), pairedItem: { item: 2 } },
		]);
		expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /projects',
			'GET /projects/5/tags',
			'POST /projects/9/mentions/recent/search',
		]);
	});

	test('an item whose operation gives nothing adds no row; the next items still run', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, { body: page([]) })
			.once('POST', RECENT, { body: page([mention('m1')]) });
		const { items } = await runAction([recent(1), recent(2)], { api });
		expect(items.map((i) => [i.json.id, i.pairedItem])).toEqual([['m1', { item: 1 }]]);
	});

	test('an operation the node does not have is refused with the names given', async () => {
		const failure = await failAction({ resource: 'project', operation: 'archive' });
		expect(failure.message).toBe('The operation "archive" of "project" is not supported.');
		expect(failure.api.requests).toHaveLength(0);
	});
});

describe('a failing item', () => {
	test("without Continue On Fail: the node stops with the item's error; later items do not run", async () => {
		const api = new FakeApi().on('POST', RECENT, { body: page([mention('m1')]) });
		const failure = await failAction(
			[recent(1), recent(2, { filters: { sentiments: ['Angry'] } }), recent(3)],
			{ api },
		);
		expect(failure.message).toMatch(/^Filters → Sentiments: "Angry" is not a sentiment/);
		expect(failure.itemIndex).toBe(1);
		expect(api.requests.map((r) => r.path)).toEqual(['/projects/1/mentions/recent/search']);
	});

	test('Continue On Fail: the item becomes { error, description } linked to it, and the rest run', async () => {
		const api = new FakeApi()
			.on('POST', '/projects/2/mentions/recent/search', {
				status: 404,
				body: { message: 'Project 2 not found.' },
			})
			.on('POST', RECENT, { body: page([mention('m1')]) });
		const { items } = await runAction([recent(1), recent(2), recent(3, { limit: 0 }), recent(4)], {
			api,
			continueOnFail: true,
		});
		expect(items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.id).toBe('m1');
		expect(items[1].json).toEqual({
			error: 'SentiOne could not find what the request names (404): Project 2 not found.',
			description:
				"Check the project ID or mention ID (POST /projects/2/mentions/recent/search); a project must be visible to this API key. If every request gives 404, check the credential's Base URL.",
		});
		expect(items[2].json).toEqual({
			error: 'Limit: "0" is not valid. Expected a whole number of at least 1.',
			description: 'Nothing was sent to SentiOne, so no request budget was used.',
		});
		expect(items[3].json.id).toBe('m1');
		expect(api.requests).toHaveLength(3);
	});

	test('Continue On Fail with an error that has no description: the row holds the error alone', async () => {
		const { items } = await runAction(
			{ resource: 'tag', operation: 'rename' },
			{ continueOnFail: true },
		);
		expect(items).toEqual([
			{
				json: { error: 'The operation "rename" of "tag" is not supported.' },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('the notices gathered before a failure are still shown with it', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, {
				body: page([mention('neg', { content: { sentiment: 'Negative' } }), mention('pos')]),
			})
			.once('POST', RECENT, { status: 400, body: { message: 'Bad request.' } });
		const failure = await failAction(
			[recent(1, { filters: { sentiments: ['Negative'] } }), recent(2)],
			{ api },
		);
		expect(failure.message).toBe('SentiOne rejected the request as malformed (400): Bad request.');
		expect(failure.hints).toEqual([
			expect.stringMatching(
				/^SentiOne did not apply every filter it was sent: 1 of the 2 mentions/,
			),
		]);
	});
});

describe('the execution hints: each kind once per run, counted over all items', () => {
	test('filters SentiOne did not apply, over three items: one notice with the totals', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			body: page([
				mention('neg', { content: { sentiment: 'Negative' } }),
				mention('pos'),
				mention('de', { content: { sentiment: 'Negative', language: { code: 'de' } } }),
			]),
		});
		const filters = { sentiments: ['Negative'], languages: 'en' };
		const { json, hints } = await runAction(
			[recent(1, { filters }), recent(2, { filters }), recent(3, { filters })],
			{ api },
		);
		expect(json.map((row) => row.id)).toEqual(['neg', 'neg', 'neg']);
		expect(hints).toEqual([
			"SentiOne did not apply every filter it was sent: 6 of the 9 mentions it returned did not match and were removed (did not match: Sentiments (3 mentions), Languages (3 mentions)). The output holds only mentions that match. The 3 requests that fetched them were counted against SentiOne's budget all the same.",
		]);
	});

	test('entries that are not records and repeats, over two items: one notice each, summed', async () => {
		const api = new FakeApi()
			.once('GET', '/projects', { body: page([{ id: 1 }, null, 'x'], 'c') })
			.once('GET', '/projects', { body: page([{ id: 1 }, { id: 2 }], null) })
			.once('GET', '/projects', { body: page([[1], { id: 3 }], 'c') })
			.once('GET', '/projects', { body: page([{ id: 3 }, { id: 3 }], null) });
		const getAll = { resource: 'project', operation: 'getAll', returnAll: true };
		const { items, hints } = await runAction([getAll, getAll], { api });
		expect(items.map((i) => [i.json.id, (i.pairedItem as { item: number }).item])).toEqual([
			[1, 0],
			[2, 0],
			[3, 1],
		]);
		expect(hints).toEqual([
			'SentiOne sent 3 entries that were not an object (null, a number, a text or a list) where a record belongs; they were skipped.',
			'SentiOne returned 3 records a second time while paging; each is in the output once.',
		]);
	});

	test('a clean run shows no hint at all', async () => {
		const api = new FakeApi().on('POST', RECENT, { body: page([mention('m1')]) });
		const { hints } = await runAction(
			[recent(1, { filters: { sentiments: ['Positive'] } }), recent(2)],
			{
				api,
			},
		);
		expect(hints).toEqual([]);
	});

	test('hints are warnings in the output pane', async () => {
		const api = new FakeApi().on('GET', '/projects', { body: page([null, { id: 1 }]) });
		const ctx = executeContext({
			nodeType: actionNode,
			api,
			parameters: { resource: 'project', operation: 'getAll' },
		});
		await runExecute(actionNode, ctx);
		expect(ctx.recorded.hints).toEqual([
			{
				message: expect.stringMatching(/^SentiOne sent 1 entry that was not an object/),
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});
});

describe('one transport per execution', () => {
	test('a tier refused on item 0 refuses item 1 without a request; another tier is still asked', async () => {
		const api = new FakeApi()
			.on('POST', HISTORICAL, ENTERPRISE_REFUSED)
			.on('POST', RECENT, { body: page([mention('m1')]) });
		const { items } = await runAction(
			[
				historical(1),
				historical(2),
				{ resource: 'tag', operation: 'getAll', project: projectById(1) },
				recent(3),
			],
			{ api, continueOnFail: true },
		);
		expect(api.requests.map((r) => r.path)).toEqual([
			'/projects/1/mentions/search',
			'/projects/3/mentions/recent/search',
		]);
		const refused =
			"Mention → Search Historical needs SentiOne's Enterprise tier, and this API key does not have it (401)";
		expect(items[0].json.error).toBe(refused);
		expect(items[1].json.error).toBe(refused);
		expect(items[1].json.description).toContain(
			'(SentiOne: refused for an earlier operation of this run; nothing was sent this time)',
		);
		expect(items[2].json.error).toBe(
			"Tag → Get Many needs SentiOne's Enterprise tier, and this API key does not have it (401)",
		);
		expect(items[3]).toEqual({
			json: expect.objectContaining({ id: 'm1' }),
			pairedItem: { item: 3 },
		});
	});

	test('a new execution starts with a new transport: the tier is asked again', async () => {
		const api = new FakeApi().on('POST', HISTORICAL, ENTERPRISE_REFUSED);
		await failAction(historical(1), { api });
		await failAction(historical(1), { api });
		expect(api.requests).toHaveLength(2);
	});

	test('a budget spent on item 0 stops item 1 before it sends a request that would be refused', async () => {
		const api = new FakeApi().on('POST', RECENT, {
			headers: rateLimitHeaders(30, 0, NOW_MS + 20 * MINUTE),
			body: page([mention('m1')]),
		});
		const { items } = await runAction([recent(1), recent(2)], { api, continueOnFail: true });
		expect(api.requests).toHaveLength(1);
		expect(items[0].json.id).toBe('m1');
		expect(items[1]).toEqual({
			json: {
				error:
					"SentiOne's search budget is used up (30 requests an hour); it resets at 2026-11-21 10:50 UTC (in 20 min).",
				description:
					'No request was sent, so no budget was wasted. 0 item(s) had been fetched; nothing is returned. Choose to wait for the reset or to stop and return what was fetched.',
			},
			pairedItem: { item: 1 },
		});
	});

	test('a filter shape refused on item 0 is not sent again by item 1, and told once', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, {
				status: 422,
				body: {
					message: 'Validation failed.',
					requestFieldErrors: { 'filters.location.country': ['unknown field'] },
				},
			})
			.on('POST', RECENT, {
				body: page([mention('pl'), mention('us', { location: { country: { code: 'US' } } })]),
			});
		const filters = { countries: 'PL', sentiments: ['Positive'] };
		const { json, hints } = await runAction([recent(1, { filters }), recent(2, { filters })], {
			api,
		});
		expect(api.requests.map((r) => (r.body as IDataObject).filters)).toEqual([
			{ content: { sentiment: ['Positive'] }, location: { country: [{ code: 'PL' }] } },
			{ content: { sentiment: ['Positive'] } },
			{ content: { sentiment: ['Positive'] } },
		]);
		expect(json.map((row) => row.id)).toEqual(['pl', 'pl']);
		// told once: that it was refused (the mentions it let through are not a second notice)
		expect(hints).toEqual([
			expect.stringMatching(/^SentiOne refused the Countries filter in the shape the node sends/),
		]);
	});
});
