/**
 * The project picker's "From list" (nodes/SentiOne/shared/listSearch.ts) on a fake load-options
 * context and a fake SentiOne: one page of GET /projects per call with the API cursor as n8n's
 * pagination token, the typed filter applied to names and IDs here, entries the picker cannot
 * offer left out, a token that could loop dropped, and SentiOne's refusals mapped. The engine
 * tier: test/engine/actions/project.test.ts.
 */
import { searchProjectList } from '../../support/fake/action';
import { FakeApi, page } from '../../support/fake/api';

const projects = [
	{ id: 1001, name: 'Acme Mobile', query: 'acme' },
	{ id: 1002, name: 'Coffee shops', query: 'coffee' },
	{ id: 1003, name: 'Cold brew COFFEE', query: 'brew' },
];

test('one page of GET /projects: "name (id)" with the id as value, the cursor as the next token', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: page(projects, 'next-1') });
	const result = await searchProjectList(api);
	expect(result).toEqual({
		results: [
			{ name: 'Acme Mobile (1001)', value: '1001' },
			{ name: 'Coffee shops (1002)', value: '1002' },
			{ name: 'Cold brew COFFEE (1003)', value: '1003' },
		],
		paginationToken: 'next-1',
	});
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({ method: 'GET', path: '/projects', qs: {} });
	expect(api.requests[0].headers['X-API-KEY']).toBe(api.credentials.apiKey);
});

test('the pagination token goes back as the cursor; the last page has no token', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: page(projects.slice(0, 1), null) });
	const result = await searchProjectList(api, undefined, 'next-1');
	expect(api.requests[0].qs).toEqual({ cursor: 'next-1' });
	expect(result.paginationToken).toBeUndefined();
});

test('the filter matches names regardless of case, or an ID exactly', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: page(projects) });
	expect((await searchProjectList(api, ' coffee ')).results.map((r) => r.value)).toEqual([
		'1002',
		'1003',
	]);
	expect((await searchProjectList(api, '1001')).results.map((r) => r.value)).toEqual(['1001']);
	// part of an ID is not an ID
	expect((await searchProjectList(api, '100')).results).toEqual([]);
	// the API has no name filter: each call still asks for the page as it is
	expect(api.requests.map((r) => r.qs)).toEqual([{}, {}, {}]);
});

test('entries the picker cannot offer are left out; a missing name shows the ID; a long name is cut', async () => {
	const long = 'L'.repeat(300);
	const api = new FakeApi().on('GET', '/projects', {
		body: page([
			{ id: 1, name: 'One' },
			{ id: '2', name: 'Two as text' },
			{ id: 3, name: '   ' },
			{ id: 4 },
			{ id: 5, name: long },
			{ id: 0, name: 'zero' },
			{ id: -6, name: 'negative' },
			{ id: 7.5, name: 'fraction' },
			{ id: 'abc', name: 'not a number' },
			{ id: '12345678901234567', name: 'too long an ID' },
			{ name: 'no id' },
			null,
			'text',
			[8],
		]),
	});
	const { results } = await searchProjectList(api);
	expect(results).toEqual([
		{ name: 'One (1)', value: '1' },
		{ name: 'Two as text (2)', value: '2' },
		{ name: 'Project 3 (3)', value: '3' },
		{ name: 'Project 4 (4)', value: '4' },
		{ name: `${'L'.repeat(200)} (5)`, value: '5' },
	]);
});

test('a page without a data list offers nothing (and no token)', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: { projects } });
	expect(await searchProjectList(api)).toEqual({ results: [], paginationToken: undefined });
});

test('a cursor that would loop or cannot be sent back is not offered as the next token', async () => {
	const tokens: unknown[] = [];
	for (const cursor of ['same', 'c'.repeat(4097), 42, '']) {
		const api = new FakeApi().on('GET', '/projects', { body: { data: projects, cursor } });
		tokens.push((await searchProjectList(api, undefined, 'same')).paginationToken);
	}
	expect(tokens).toEqual([undefined, undefined, undefined, undefined]);
	const api = new FakeApi().on('GET', '/projects', { body: page(projects, 'c'.repeat(4096)) });
	expect((await searchProjectList(api)).paginationToken).toHaveLength(4096);
});

test('SentiOne refusing the key: the mapped 401 reaches the editor', async () => {
	const api = new FakeApi().on('GET', '/projects', {
		status: 401,
		body: { message: 'API key is not recognised.' },
	});
	await expect(searchProjectList(api)).rejects.toThrow(
		"SentiOne refused the API key (401): SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential's Base URL.",
	);
});

test('a credential without a key or with a bad Base URL fails before any request', async () => {
	const missing = new FakeApi({ apiKey: '' });
	await expect(searchProjectList(missing)).rejects.toThrow(
		/^SentiOne credential: the API key is missing/,
	);
	const badBase = new FakeApi({ apiKey: 'SENTIONE-APIKEY-basic-demo', baseUrl: 'ftp://files' });
	await expect(searchProjectList(badBase)).rejects.toThrow(
		'SentiOne credential: Base URL "ftp://files" must start with https:// (or http:// for a local server).',
	);
	expect(missing.requests).toHaveLength(0);
	expect(badBase.requests).toHaveLength(0);
});
