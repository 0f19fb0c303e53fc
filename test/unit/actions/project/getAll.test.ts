/**
 * Project → Get Many with a fake SentiOne: GET /projects paged by cursor (Return All to the last
 * page, Limit only the pages it needs), the projects passed on as SentiOne sent them, what the
 * pager drops and says, and the errors (the engine tier runs it against the simulator:
 * test/engine/actions/project.test.ts).
 */
import { failAction, runAction } from '../../../support/fake/action';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { MINUTE, NOW_MS } from '../../../support/time';

const getAll = (extra: Record<string, unknown> = {}) => ({
	resource: 'project',
	operation: 'getAll',
	...extra,
});

const projects = (from: number, count: number) =>
	Array.from({ length: count }, (_, k) => ({ id: from + k, name: `Project ${from + k}` }));

/** 45 projects in pages of 20, chained by cursors c1 and c2 */
function threePages(): FakeApi {
	return new FakeApi().on('GET', '/projects', (request) => {
		const cursor = request.qs.cursor;
		if (cursor === undefined) return { body: page(projects(1, 20), 'c1') };
		if (cursor === 'c1') return { body: page(projects(21, 20), 'c2') };
		if (cursor === 'c2') return { body: page(projects(41, 5), null) };
		return { status: 400, body: { message: `unknown cursor ${String(cursor)}` } };
	});
}

useFakeClock();

test('Return All follows the cursor to the last page: 45 projects in 3 requests', async () => {
	const { json, api, items } = await runAction(getAll({ returnAll: true }), {
		api: threePages(),
	});
	expect(json.map((p) => p.id)).toEqual(projects(1, 45).map((p) => p.id));
	expect(api.requests.map((r) => [r.method, r.path, r.qs])).toEqual([
		['GET', '/projects', {}],
		['GET', '/projects', { cursor: 'c1' }],
		['GET', '/projects', { cursor: 'c2' }],
	]);
	// a GET carries no body; the key and the JSON content type come from the credential
	expect(api.requests[0].body).toBeUndefined();
	expect(api.requests[0].headers).toMatchObject({
		'X-API-KEY': api.credentials.apiKey,
		'Content-Type': 'application/json',
		Accept: 'application/json',
	});
	expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
});

test('Limit fetches only the pages it needs and cuts the last one', async () => {
	const one = await runAction(getAll({ limit: 5 }), { api: threePages() });
	expect(one.json.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
	expect(one.api.requests).toHaveLength(1);

	const two = await runAction(getAll({ limit: 21 }), { api: threePages() });
	expect(two.json).toHaveLength(21);
	expect(two.json[20]).toEqual({ id: 21, name: 'Project 21' });
	expect(two.api.requests).toHaveLength(2);
});

test('the default is a Limit of 50: a list of 45 ends at its last page', async () => {
	const { json, api } = await runAction(getAll(), { api: threePages() });
	expect(json).toHaveLength(45);
	expect(api.requests).toHaveLength(3);
});

test('an empty cursor ends the list like a null one', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: page(projects(1, 2), '') });
	const { json } = await runAction(getAll({ returnAll: true }), { api });
	expect(json).toHaveLength(2);
	expect(api.requests).toHaveLength(1);
});

test('projects are passed on as SentiOne sent them, unknown fields and a "json" field included', async () => {
	const odd = { id: 9, name: 'Odd', query: 'acme', json: { not: 'an item' }, extra: [1, 2] };
	const api = new FakeApi().on('GET', '/projects', { body: page([odd]) });
	const { items } = await runAction(getAll(), { api });
	expect(items).toEqual([{ json: odd, pairedItem: { item: 0 } }]);
});

test('entries that are not records are skipped and repeats dropped, each told once', async () => {
	const api = new FakeApi()
		.once('GET', '/projects', { body: page([{ id: 1, name: 'A' }, null, 7, 'x'], 'c1') })
		.once('GET', '/projects', {
			body: page(
				[
					{ id: 1, name: 'A' },
					{ id: 2, name: 'B' },
				],
				null,
			),
		});
	const { json, hints } = await runAction(getAll({ returnAll: true }), { api });
	expect(json).toEqual([
		{ id: 1, name: 'A' },
		{ id: 2, name: 'B' },
	]);
	expect(hints).toEqual([
		'SentiOne sent 3 entries that were not an object (null, a number, a text or a list) where a record belongs; they were skipped.',
		'SentiOne returned 1 record a second time while paging; each is in the output once.',
	]);
});

test('a cursor SentiOne already returned stops paging: a loop is a server fault, nothing partial', async () => {
	const api = new FakeApi()
		.once('GET', '/projects', { body: page(projects(1, 20), 'c1') })
		.once('GET', '/projects', { body: page(projects(21, 20), 'c1') });
	const failure = await failAction(getAll({ returnAll: true }), { api });
	expect(failure.message).toBe(
		'SentiOne returned a page cursor it had already returned (after 2 pages and 40 items); paging stopped to avoid a loop.',
	);
	expect(failure.description).toContain(
		'This is a fault of the server. Nothing partial is returned.',
	);
	expect(api.requests).toHaveLength(2);
});

test('a page without a data list is an unusable answer', async () => {
	const api = new FakeApi().on('GET', '/projects', { body: { projects: [] } });
	const failure = await failAction(getAll(), { api });
	expect(failure.message).toBe('SentiOne\'s answer could not be used: the page has no "data" list');
});

test('a Limit below 1 (from an expression) stops before any request, naming the field', async () => {
	const api = new FakeApi();
	const failure = await failAction(getAll({ limit: 0 }), { api });
	expect(failure.message).toBe('Limit: "0" is not valid. Expected a whole number of at least 1.');
	expect(failure.description).toBe('Nothing was sent to SentiOne, so no request budget was used.');
	const text = await failAction(getAll({ returnAll: 'yes' }), { api });
	expect(text.message).toBe('Return All: "yes" is not valid. Expected true or false.');
	expect(api.requests).toHaveLength(0);
});

test('401: a key SentiOne does not recognise', async () => {
	const api = new FakeApi().on('GET', '/projects', {
		status: 401,
		body: { message: 'API key is not recognised.' },
	});
	const failure = await failAction(getAll(), { api });
	expect(failure.message).toBe(
		"SentiOne refused the API key (401): SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential's Base URL.",
	);
	expect(failure.httpCode).toBe('401');
});

test('429: the projects budget is used up, with the reset the headers give', async () => {
	const api = new FakeApi().on('GET', '/projects', {
		status: 429,
		headers: rateLimitHeaders(300, 0, NOW_MS + 30 * MINUTE),
		body: {
			message: 'Too many requests. The maximum number of requests for this endpoint is 300.',
		},
	});
	const failure = await failAction(getAll(), { api });
	expect(failure.message).toBe(
		"SentiOne's projects API budget is used up (429): at most 300 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
	);
	expect(failure.description).toBe(
		'The projects API allows 300 requests an hour per API key, shared by every workflow using it.',
	);
	expect(api.requests).toHaveLength(1);
});

test('the missing or ill-shaped key is refused by the credential before anything is sent', async () => {
	const missing = await failAction(getAll(), { api: new FakeApi({ apiKey: '  ' }) });
	expect(missing.message).toMatch(/^SentiOne credential: the API key is missing/);
	expect(missing.description).toBe(
		'Open the SentiOne credential and correct it. Nothing was sent to SentiOne.',
	);
	const shape = await failAction(getAll(), { api: new FakeApi({ apiKey: 'abc-123' }) });
	expect(shape.message).toMatch(
		/^SentiOne credential: the API key does not have the shape of a SentiOne key/,
	);
});

test('404 on the project list (a confirmed route): SentiOne could not find it, check the Base URL', async () => {
	const api = new FakeApi().on('GET', '/projects', { status: 404, body: { message: 'Not Found' } });
	const failure = await failAction(getAll(), { api });
	expect(failure.message).toBe('SentiOne could not find what the request names (404): Not Found');
	expect(failure.description).toContain(
		"If every request gives 404, check the credential's Base URL.",
	);
});
