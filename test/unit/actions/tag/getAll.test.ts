/**
 * Tag → Get Many with a fake SentiOne: GET /projects/{id}/tags paged by cursor (Return All, Limit),
 * the tags passed on as SentiOne sent them, a tag known by its name (a name listed twice is one
 * tag), and the errors. The engine tier: test/engine/actions/tag.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi, page } from '../../../support/fake/api';

const PATH = '/projects/1001/tags';

const getAll = (extra: IDataObject = {}): IDataObject => ({
	resource: 'tag',
	operation: 'getAll',
	project: projectById(1001),
	...extra,
});

const tags = (from: number, count: number) =>
	Array.from({ length: count }, (_, k) => ({ name: `t${from + k}`, mentionCount: from + k }));

/** 150 tags in pages of 100 */
const twoPages = () =>
	new FakeApi().on('GET', PATH, (r) =>
		r.qs.cursor === undefined
			? { body: page(tags(0, 100), 'next') }
			: { body: page(tags(100, 50), null) },
	);

test('Return All: GET /projects/{id}/tags through the cursor, 150 tags in 2 requests', async () => {
	const { json, api } = await runAction(getAll({ returnAll: true }), { api: twoPages() });
	expect(json).toEqual(tags(0, 150));
	expect(api.requests.map((r) => [r.method, r.path, r.qs, r.body])).toEqual([
		['GET', PATH, {}, undefined],
		['GET', PATH, { cursor: 'next' }, undefined],
	]);
});

test('Limit (default 50): only the pages it needs, the last one cut', async () => {
	const { json, api } = await runAction(getAll(), { api: twoPages() });
	expect(json).toEqual(tags(0, 50));
	expect(api.requests).toHaveLength(1);
	const more = await runAction(getAll({ limit: 120 }), { api: twoPages() });
	expect(more.json).toEqual(tags(0, 120));
	expect(more.api.requests).toHaveLength(2);
});

test('a tag is known by its name: a name listed again is passed on once, and told', async () => {
	const api = new FakeApi()
		.once('GET', PATH, {
			body: page([{ name: 'vip', mentionCount: 3 }, { name: 'complaint' }], 'n'),
		})
		.once('GET', PATH, {
			body: page(
				[
					{ name: 'vip', mentionCount: 3 },
					{ name: 'VIP', mentionCount: 0 },
				],
				null,
			),
		});
	const { json, hints } = await runAction(getAll({ returnAll: true }), { api });
	expect(json).toEqual([
		{ name: 'vip', mentionCount: 3 },
		{ name: 'complaint' },
		{ name: 'VIP', mentionCount: 0 },
	]);
	expect(hints).toEqual([
		'SentiOne returned 1 record a second time while paging; each is in the output once.',
	]);
});

test('tags are passed on as SentiOne sent them: two tags with one id but different names both stay', async () => {
	const odd = [
		{ id: 1, name: 'a', color: '#f00' },
		{ id: 1, name: 'b', extra: { nested: true } },
	];
	const api = new FakeApi().on('GET', PATH, { body: page(odd) });
	const { items } = await runAction(getAll(), { api });
	expect(items).toEqual(odd.map((json) => ({ json, pairedItem: { item: 0 } })));
});

test('the project is checked before any request, naming the field', async () => {
	const api = new FakeApi();
	const failure = await failAction(getAll({ project: projectById('tags') }), { api });
	expect(failure.message).toBe(
		'Project: "tags" is not a project ID. Expected a positive whole number such as 1001.',
	);
	expect(api.requests).toHaveLength(0);
});

test('a Basic key: Tag → Get Many needs the Enterprise tier', async () => {
	const api = new FakeApi().on('GET', PATH, {
		status: 401,
		body: {
			message:
				'API key does not have permission for this endpoint. It requires the Enterprise tier.',
		},
	});
	const failure = await failAction(getAll(), { api });
	expect(failure.message).toBe(
		"Tag → Get Many needs SentiOne's Enterprise tier, and this API key does not have it (401)",
	);
});

test('404 naming the project: not found; naming nothing: not available on this API', async () => {
	const missing = new FakeApi().on('GET', PATH, {
		status: 404,
		body: { message: 'Project 1001 not found.' },
	});
	expect((await failAction(getAll(), { api: missing })).message).toBe(
		'SentiOne could not find what the request names (404): Project 1001 not found.',
	);
	const absent = new FakeApi().on('GET', PATH, { status: 404, body: '' });
	expect((await failAction(getAll(), { api: absent })).message).toBe(
		'Tag → Get Many is not available on this SentiOne API (404): an empty body',
	);
});

test('429 for the tagging budget, and 422 naming a field', async () => {
	const spent = new FakeApi().on('GET', PATH, { status: 429, body: { message: 'Too many.' } });
	expect((await failAction(getAll(), { api: spent })).message).toMatch(
		/^SentiOne's tagging API budget is used up \(429\)/,
	);
	const rejected = new FakeApi().on('GET', PATH, {
		status: 422,
		body: { message: 'Validation failed.', requestFieldErrors: { cursor: 'unknown cursor' } },
	});
	expect((await failAction(getAll(), { api: rejected })).message).toBe(
		'SentiOne rejected a value (422) — cursor: unknown cursor',
	);
});
