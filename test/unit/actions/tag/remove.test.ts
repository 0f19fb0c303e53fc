/**
 * Tag → Remove with a fake SentiOne: DELETE /projects/{id}/mentions/{mentionId}/tags with a
 * `{ tags }` body (D-22), the tags the mention keeps passed on, the same local checks as Add
 * (add.test.ts covers them one by one), and the errors. The engine tier: test/engine/actions/tag.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi } from '../../../support/fake/api';

const PATH = '/projects/1001/mentions/7f3c2a9e/tags';

const remove = (extra: IDataObject = {}): IDataObject => ({
	resource: 'tag',
	operation: 'remove',
	project: projectById(1001),
	mentionId: '7f3c2a9e',
	tags: 'vip',
	...extra,
});

test('sends DELETE with a { tags } body and returns the tags the mention keeps', async () => {
	const api = new FakeApi().on('DELETE', PATH, { body: { id: '7f3c2a9e', tags: ['complaint'] } });
	const { items } = await runAction(remove({ tags: 'vip, not-there , vip' }), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({
		method: 'DELETE',
		path: PATH,
		qs: {},
		body: { tags: ['vip', 'not-there'] },
	});
	expect(api.requests[0].headers['Content-Type']).toBe('application/json');
	expect(items).toEqual([
		{ json: { id: '7f3c2a9e', tags: ['complaint'] }, pairedItem: { item: 0 } },
	]);
});

test('one mention per input item, each answer linked to its item', async () => {
	const api = new FakeApi().on('DELETE', /\/mentions\/[^/]+\/tags$/, (r) => ({
		body: { id: decodeURIComponent(r.path.split('/')[4]), tags: [] },
	}));
	const { items } = await runAction([remove({ mentionId: 'm1' }), remove({ mentionId: 'm/2' })], {
		api,
	});
	expect(api.requests.map((r) => r.path)).toEqual([
		'/projects/1001/mentions/m1/tags',
		'/projects/1001/mentions/m%2F2/tags',
	]);
	expect(items).toEqual([
		{ json: { id: 'm1', tags: [] }, pairedItem: { item: 0 } },
		{ json: { id: 'm/2', tags: [] }, pairedItem: { item: 1 } },
	]);
});

test('the names and the mention ID are checked as for Add, before any request', async () => {
	const api = new FakeApi();
	expect((await failAction(remove({ tags: '' }), { api })).message).toBe(
		'Tags: no tag name is given. Enter one or more names separated by commas.',
	);
	expect((await failAction(remove({ mentionId: '.' }), { api })).message).toMatch(
		/^Mention ID: "\." cannot be a mention ID/,
	);
	expect((await failAction(remove({ project: projectById('1.5') }), { api })).message).toBe(
		'Project: "1.5" is not a project ID. Expected a positive whole number such as 1001.',
	);
	expect(api.requests).toHaveLength(0);
});

test('405 on the announced route: Tag → Remove is not available on this SentiOne API', async () => {
	const api = new FakeApi().on('DELETE', PATH, {
		status: 405,
		body: { message: 'Method Not Allowed' },
	});
	const failure = await failAction(remove(), { api });
	expect(failure.message).toBe(
		'Tag → Remove is not available on this SentiOne API (405): Method Not Allowed',
	);
});

test('404 naming the mention: not found', async () => {
	const api = new FakeApi().on('DELETE', PATH, {
		status: 404,
		body: { message: 'Mention 7f3c2a9e not found in project 1001.' },
	});
	expect((await failAction(remove(), { api })).message).toBe(
		'SentiOne could not find what the request names (404): Mention 7f3c2a9e not found in project 1001.',
	);
});

test('a removal is never repeated after a server error', async () => {
	const api = new FakeApi().on('DELETE', PATH, { status: 503, body: { message: 'Unavailable' } });
	const failure = await failAction(remove(), { api });
	expect(failure.message).toBe('SentiOne had a server error (503): Unavailable');
	expect(api.requests).toHaveLength(1);
});

test('401 for a Basic key, and 429 for the tagging budget', async () => {
	const basic = new FakeApi().on('DELETE', PATH, {
		status: 401,
		body: {
			message:
				'API key does not have permission for this endpoint. It requires the Enterprise tier.',
		},
	});
	expect((await failAction(remove(), { api: basic })).message).toBe(
		"Tag → Remove needs SentiOne's Enterprise tier, and this API key does not have it (401)",
	);
	const spent = new FakeApi().on('DELETE', PATH, { status: 429, body: { message: 'Slow down.' } });
	const failure = await failAction(remove(), { api: spent });
	expect(failure.message).toMatch(
		/^SentiOne's tagging API budget is used up \(429\): at most 300 requests an hour for this key\./,
	);
	expect(failure.description).toBe(
		'The tagging API allows 300 requests an hour per API key, shared by every workflow using it.',
	);
});
