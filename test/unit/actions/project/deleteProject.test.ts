/**
 * Project → Delete with a fake SentiOne: DELETE /projects/{id} without a body, `{ deleted, id }`
 * as the item, and the errors (the engine tier runs it against the simulator:
 * test/engine/actions/project.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { MINUTE, NOW_MS } from '../../../support/time';

const remove = (project: IDataObject = projectById(1003)): IDataObject => ({
	resource: 'project',
	operation: 'deleteProject',
	project,
});

useFakeClock();

test('sends DELETE /projects/{id} without a body and returns { deleted: true, id }', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', { status: 204 });
	const { items } = await runAction(remove(), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({ method: 'DELETE', path: '/projects/1003', qs: {} });
	expect(api.requests[0].body).toBeUndefined();
	// the JSON content type goes with every request, a DELETE too (SentiOne answers 415 without it)
	expect(api.requests[0].headers['Content-Type']).toBe('application/json');
	expect(items).toEqual([{ json: { deleted: true, id: 1003 }, pairedItem: { item: 0 } }]);
});

test('whatever SentiOne answers on success, the item is { deleted: true, id }', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', {
		body: { id: 1003, name: 'Gone', status: 'deleted' },
	});
	const { json } = await runAction(remove(), { api });
	expect(json).toEqual([{ deleted: true, id: 1003 }]);
});

test('one delete per input item, each linked to its item', async () => {
	const api = new FakeApi().on('DELETE', /^\/projects\/\d+$/, { status: 204 });
	const { items } = await runAction([remove(projectById(1)), remove(projectById(2))], { api });
	expect(api.requests.map((r) => r.path)).toEqual(['/projects/1', '/projects/2']);
	expect(items).toEqual([
		{ json: { deleted: true, id: 1 }, pairedItem: { item: 0 } },
		{ json: { deleted: true, id: 2 }, pairedItem: { item: 1 } },
	]);
});

test('no project, or one that is not an ID: refused before any request, naming the field', async () => {
	const api = new FakeApi();
	expect((await failAction(remove(projectById('')), { api })).message).toBe(
		'Project: no project is selected. Choose one from the list or enter its ID.',
	);
	expect((await failAction(remove(projectById('-5')), { api })).message).toBe(
		'Project: "-5" is not a project ID. Expected a positive whole number such as 1001.',
	);
	expect(api.requests).toHaveLength(0);
});

test('404 naming the project: not found, with what to check', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', {
		status: 404,
		body: { message: 'Project 1003 not found.' },
	});
	const failure = await failAction(remove(), { api });
	expect(failure.message).toBe(
		'SentiOne could not find what the request names (404): Project 1003 not found.',
	);
	expect(failure.itemIndex).toBe(0);
});

test('404 without naming a project: Project → Delete is not available on this SentiOne API', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', {
		status: 404,
		body: { message: 'No route.' },
	});
	const failure = await failAction(remove(), { api });
	expect(failure.message).toBe(
		'Project → Delete is not available on this SentiOne API (404): No route.',
	);
});

test('401 with a key lacking API access: the operation needs the Basic tier', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', {
		status: 401,
		body: {
			message: 'API key does not have permission for this endpoint. It requires the Basic tier.',
		},
	});
	const failure = await failAction(remove(), { api });
	expect(failure.message).toBe(
		"Project → Delete needs API access (SentiOne's Basic tier), and this API key has none (401)",
	);
});

test('429 with the reset in the message: the projects budget and when it resets', async () => {
	const api = new FakeApi().on('DELETE', '/projects/1003', {
		status: 429,
		headers: rateLimitHeaders(300, 0, NOW_MS + 10 * MINUTE),
		body: { message: 'Too many requests. Limits will reset at 2026-11-21T11:00:00Z.' },
	});
	const failure = await failAction(remove(), { api });
	// the message's instant wins over the header's
	expect(failure.message).toBe(
		"SentiOne's projects API budget is used up (429): at most 300 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
	);
});

// The specification shows no response for DELETE /projects/{id} (D-11 guesses 204 with an empty
// body) and the item never uses it: a 2xx with a text body, an empty one or JSON that is not an
// object deleted the project all the same (failing here would make a retry meet a 404).
test.each([
	['a text body', { 'content-type': 'text/plain' }, 'Deleted'],
	['an empty JSON body', { 'content-type': 'application/json' }, ''],
	['JSON that is not an object', { 'content-type': 'application/json' }, '"ok"'],
	['a truncated JSON body', { 'content-type': 'application/json' }, '{"deleted":'],
])('a 2xx with %s is a successful delete, sent once', async (_name, headers, body) => {
	const api = new FakeApi().on('DELETE', '/projects/1003', { status: 200, headers, body });
	const { json } = await runAction(remove(), { api });
	expect(json).toEqual([{ deleted: true, id: 1003 }]);
	expect(api.requests).toHaveLength(1);
});
