/**
 * Project → Create with a fake SentiOne: the request it builds, the item it returns, the errors
 * it raises (the engine tier runs it against the simulator: test/engine/actions/project.test.ts).
 */
import { SentiOne } from '../../../../nodes/SentiOne/SentiOne.node';
import { PROJECT_NAME_MAX_LENGTH } from '../../../../nodes/SentiOne/shared/contract';
import { failAction, runAction } from '../../../support/fake/action';
import { FakeApi } from '../../../support/fake/api';
import { executeContext, runExecute } from '../../../support/fake/context';

const node = new SentiOne();
const create = (parameters: Record<string, unknown>, api = new FakeApi()) =>
	executeContext({
		nodeType: node,
		api,
		parameters: { resource: 'project', operation: 'create', ...parameters },
	});
const createParameters = (extra: Record<string, unknown>) => ({
	resource: 'project',
	operation: 'create',
	...extra,
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

test('the name and the query are sent trimmed, to the API root of the Base URL', async () => {
	const api = new FakeApi({
		apiKey: 'SENTIONE-APIKEY-basic-demo',
		baseUrl: 'listen.example.com/api/public/v2/',
	}).on('POST', '/projects', { status: 201, body: { id: 8, name: 'Acme', query: 'acme*' } });
	await runAction(createParameters({ name: '  Acme  ', query: ' acme* ' }), { api });
	expect(api.requests[0].body).toEqual({ name: 'Acme', query: 'acme*' });
	expect(api.requests[0].url).toBe('https://listen.example.com/api/public/v2/projects');
	expect(api.requests[0].qs).toEqual({});
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

test('every local refusal names its field and says nothing was sent', async () => {
	const api = new FakeApi();
	const cases: Array<[Record<string, unknown>, string]> = [
		[{ name: '', query: 'acme' }, 'Name: the project name is empty.'],
		[
			{ name: 'x'.repeat(PROJECT_NAME_MAX_LENGTH + 1), query: 'acme' },
			`Name: the name is ${PROJECT_NAME_MAX_LENGTH + 1} characters long; SentiOne accepts at most ${PROJECT_NAME_MAX_LENGTH}.`,
		],
		[{ name: ['a', 'b'], query: 'acme' }, 'Name: expected text, got a list'],
		[{ name: 'Acme', query: '' }, 'Query: '],
		[{ name: 'Acme', query: 'ac*' }, 'Query: '],
		[{ name: 'Acme', query: 'a'.repeat(251) }, 'Query: '],
	];
	for (const [parameters, start] of cases) {
		const failure = await failAction(createParameters(parameters), { api });
		expect(failure.message.startsWith(start)).toBe(true);
		expect(failure.description).toBe(
			'Nothing was sent to SentiOne, so no request budget was used.',
		);
	}
	expect(api.requests).toHaveLength(0);
});

test('a name of exactly the longest length SentiOne accepts is sent', async () => {
	const name = 'n'.repeat(PROJECT_NAME_MAX_LENGTH);
	const api = new FakeApi().on('POST', '/projects', { status: 201, body: { id: 1, name } });
	await runAction(createParameters({ name, query: 'acme' }), { api });
	expect((api.requests[0].body as { name: string }).name).toHaveLength(PROJECT_NAME_MAX_LENGTH);
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

test('405 on the announced route: Project → Create is not available, with the details to check', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 405,
		body: { message: 'Method Not Allowed' },
	});
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api });
	expect(failure.message).toBe(
		'Project → Create is not available on this SentiOne API (405): Method Not Allowed',
	);
	expect(failure.description).toContain(
		'POST /projects is an endpoint SentiOne has announced but its specification does not confirm',
	);
});

test('422: each field SentiOne rejected, with its message', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 422,
		body: {
			message: 'Validation failed.',
			requestFieldErrors: { query: ['wildcard prefix too short'], name: 'already taken' },
		},
	});
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api });
	expect(failure.message).toBe(
		'SentiOne rejected 2 values (422) — query: wildcard prefix too short | name: already taken',
	);
	expect(failure.description).toBe(
		'Correct the parameter behind each field above and run again. (POST /projects)',
	);
	expect(failure.httpCode).toBe('422');
});

test('a create is never sent twice: a 503 fails at once (only reads are retried)', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 503,
		body: { message: 'Service Unavailable' },
	});
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api });
	expect(failure.message).toBe('SentiOne had a server error (503): Service Unavailable');
	expect(api.requests).toHaveLength(1);
});

test('a network failure: the create is not repeated and the error says SentiOne was not reached', async () => {
	const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), {
		code: 'ECONNREFUSED',
	});
	const api = new FakeApi().on('POST', '/projects', { error: refused });
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api });
	expect(failure.message).toBe(
		'Could not reach SentiOne: the connection was refused — nothing listens at the Base URL.',
	);
	expect(api.requests).toHaveLength(1);
});

test('an answer that is not JSON is not taken for a project', async () => {
	const api = new FakeApi().on('POST', '/projects', {
		status: 200,
		headers: { 'content-type': 'text/html' },
		body: '<html>welcome</html>',
	});
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api });
	expect(failure.message).toBe(
		"SentiOne's answer could not be used: status 200 came with a body that is not JSON",
	);
});

test('401 for a key SentiOne does not recognise, and 429 for the projects budget', async () => {
	const unknown = new FakeApi().on('POST', '/projects', {
		status: 401,
		body: { message: 'API key is not recognised.' },
	});
	expect(
		(await failAction(createParameters({ name: 'Acme', query: 'acme' }), { api: unknown })).message,
	).toMatch(/^SentiOne refused the API key \(401\): SentiOne does not recognise the API key/);
	const spent = new FakeApi().on('POST', '/projects', {
		status: 429,
		body: { message: 'The maximum number of requests for this endpoint is 300.' },
	});
	const failure = await failAction(createParameters({ name: 'Acme', query: 'acme' }), {
		api: spent,
	});
	expect(failure.message).toBe(
		"SentiOne's projects API budget is used up (429): at most 300 requests an hour for this key. SentiOne gave no usable reset time; hourly budgets reset at the top of each hour.",
	);
	// a create is not sent again after a 429 either
	expect(spent.requests).toHaveLength(1);
});
