/**
 * Project → Update with a fake SentiOne: PUT /projects/{id} with the whole `{ name, query }`, the
 * project SentiOne answers passed on, and the errors (the engine tier runs it against the
 * simulator: test/engine/actions/project.test.ts).
 */
import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi } from '../../../support/fake/api';

const update = (extra: Record<string, unknown>) => ({
	resource: 'project',
	operation: 'update',
	project: projectById(1002),
	name: 'Acme Mobile',
	query: '"acme mobile" OR acmephone*',
	...extra,
});

test('sends PUT /projects/{id} with the name and the query, and returns the project SentiOne answers', async () => {
	const answer = {
		id: 1002,
		name: 'Acme Mobile',
		query: '"acme mobile" OR acmephone*',
		owner: 'x',
	};
	const api = new FakeApi().on('PUT', '/projects/1002', { body: answer });
	const { items } = await runAction(update({}), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({
		method: 'PUT',
		path: '/projects/1002',
		qs: {},
		body: { name: 'Acme Mobile', query: '"acme mobile" OR acmephone*' },
	});
	expect(items).toEqual([{ json: answer, pairedItem: { item: 0 } }]);
});

test('the project may be chosen from the list, typed as an ID, or given as a number by an expression', async () => {
	const api = new FakeApi().on('PUT', /^\/projects\/\d+$/, (r) => ({
		body: { id: Number(r.path.split('/')[2]) },
	}));
	await runAction(update({ project: { __rl: true, mode: 'list', value: '77' } }), { api });
	await runAction(update({ project: projectById(' 78 ') }), { api });
	await runAction(update({ project: 79 }), { api });
	expect(api.requests.map((r) => r.path)).toEqual(['/projects/77', '/projects/78', '/projects/79']);
});

test('a project that is not a positive whole number stops before any request, naming the field', async () => {
	const api = new FakeApi();
	const cases: Array<[unknown, string]> = [
		[projectById(''), 'Project: no project is selected. Choose one from the list or enter its ID.'],
		[
			projectById('12a'),
			'Project: "12a" is not a project ID. Expected a positive whole number such as 1001.',
		],
		[
			projectById('0'),
			'Project: "0" is not a project ID. Expected a positive whole number such as 1001.',
		],
		[
			projectById('../1'),
			'Project: "../1" is not a project ID. Expected a positive whole number such as 1001.',
		],
		[
			projectById('99999999999999999999'),
			'Project: "99999999999999999999" is not a project ID. Expected a positive whole number such as 1001.',
		],
	];
	for (const [project, message] of cases) {
		const failure = await failAction(update({ project }), { api });
		expect(failure.message).toBe(message);
	}
	expect(api.requests).toHaveLength(0);
});

test('the name and the query are checked as for Create, before any request', async () => {
	const api = new FakeApi();
	expect((await failAction(update({ name: '' }), { api })).message).toBe(
		'Name: the project name is empty.',
	);
	expect((await failAction(update({ query: 'acme AND' }), { api })).message).toMatch(/^Query: /);
	expect(api.requests).toHaveLength(0);
});

test('404 naming the project: SentiOne could not find it', async () => {
	const api = new FakeApi().on('PUT', '/projects/1002', {
		status: 404,
		body: { message: 'Project 1002 not found.' },
	});
	const failure = await failAction(update({}), { api });
	expect(failure.message).toBe(
		'SentiOne could not find what the request names (404): Project 1002 not found.',
	);
	expect(failure.description).toBe(
		"Check the project ID or mention ID (PUT /projects/1002); a project must be visible to this API key. If every request gives 404, check the credential's Base URL.",
	);
	expect(failure.httpCode).toBe('404');
});

test('404 naming nothing: Project → Update is not available on this SentiOne API', async () => {
	const api = new FakeApi().on('PUT', '/projects/1002', { status: 404, body: 'Not Found' });
	const failure = await failAction(update({}), { api });
	expect(failure.message).toBe(
		'Project → Update is not available on this SentiOne API (404): a non-JSON body ("Not Found")',
	);
});

test("422 on a field: the field and SentiOne's words", async () => {
	const api = new FakeApi().on('PUT', '/projects/1002', {
		status: 422,
		body: {
			message: 'Validation failed.',
			requestFieldErrors: { name: ['required (the field is "name"; "mame" is not accepted)'] },
		},
	});
	const failure = await failAction(update({}), { api });
	expect(failure.message).toBe(
		'SentiOne rejected a value (422) — name: required (the field is "name"; "mame" is not accepted)',
	);
});

test('an update is not repeated after a server error', async () => {
	const api = new FakeApi().on('PUT', '/projects/1002', {
		status: 502,
		body: { message: 'Bad Gateway' },
	});
	const failure = await failAction(update({}), { api });
	expect(failure.message).toBe('SentiOne had a server error (502): Bad Gateway');
	expect(api.requests).toHaveLength(1);
});

test('401 for a key without API access, and 429 for the projects budget', async () => {
	const noTier = new FakeApi().on('PUT', '/projects/1002', {
		status: 401,
		body: {
			message: 'API key does not have permission for this endpoint. It requires the Basic tier.',
		},
	});
	expect((await failAction(update({}), { api: noTier })).message).toBe(
		"Project → Update needs API access (SentiOne's Basic tier), and this API key has none (401)",
	);
	const spent = new FakeApi().on('PUT', '/projects/1002', {
		status: 429,
		body: { message: 'Too many requests.' },
	});
	expect((await failAction(update({}), { api: spent })).message).toMatch(
		/^SentiOne's projects API budget is used up \(429\): at most 300 requests an hour for this key\./,
	);
});
