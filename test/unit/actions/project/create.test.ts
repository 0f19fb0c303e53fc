/**
 * Project → Create with a fake SentiOne: the request it builds, the item it returns, the errors
 * it raises (the engine tier runs it against the simulator: test/engine/actions/project.test.ts).
 */
import { SentiOne } from '../../../../nodes/SentiOne/SentiOne.node';
import { FakeApi } from '../../../support/fake/api';
import { executeContext, runExecute } from '../../../support/fake/context';

const node = new SentiOne();
const create = (parameters: Record<string, unknown>, api = new FakeApi()) =>
	executeContext({
		nodeType: node,
		api,
		parameters: { resource: 'project', operation: 'create', ...parameters },
	});

test('sends the name and the query to POST /projects and returns the project', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 201,
		body: { id: 7, name: 'Acme', query: 'acme OR "acme phone"' },
	});
	const ctx = create({ name: 'Acme', query: 'acme OR "acme phone"' }, api);
	const [items] = await runExecute(node, ctx);
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({
		method: 'POST',
		path: '/projects',
		body: { name: 'Acme', query: 'acme OR "acme phone"' },
	});
	expect(api.requests[0].headers['X-API-KEY']).toBe(api.credentials.apiKey);
	expect(items).toEqual([
		{ json: { id: 7, name: 'Acme', query: 'acme OR "acme phone"' }, pairedItem: { item: 0 } },
	]);
});

test('an empty name or a malformed query stops before any request, naming the field', async () => {
	const api = new FakeApi();
	await expect(runExecute(node, create({ name: '  ', query: 'acme' }, api))).rejects.toThrow(
		/Name/,
	);
	await expect(
		runExecute(node, create({ name: 'Acme', query: 'acme AND (' }, api)),
	).rejects.toThrow(/Query/);
	expect(api.requests).toHaveLength(0);
});

test('a refusal of the route is said in words (a deployment without the announced endpoint)', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 404,
		body: { message: 'Not Found' },
	});
	await expect(runExecute(node, create({ name: 'Acme', query: 'acme' }, api))).rejects.toThrow(
		/not available/i,
	);
});
