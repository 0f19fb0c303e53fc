// Authentication (D-02, D-03, D-06), Content-Type (D-04), routing (D-34), Accept (D-27),
// the order of checks (D-05) and the rate-limit headers on every response (D-07).

import { admin, api, raw, useSim, type Sim, type Loose } from '../../test/support/simulator';
import { NOW_MS } from '../../test/support/time';
import { BASIC, ENTERPRISE, NOACCESS } from '../../test/support/keys';

let sim: Sim;
useSim(['--mentions', '300'], (started) => (sim = started), { reset: true });

const MSG = {
	missing: 'API key is missing. Send it in the X-API-KEY header.',
	shape: 'API key has an invalid format: it must start with the prefix SENTIONE-APIKEY-.',
	unknown: 'API key is not recognised.',
	enterprise:
		'API key does not have permission for this endpoint. It requires the Enterprise tier.',
	basic: 'API key does not have permission for this endpoint. It requires the Basic tier.',
};

describe('401: the four causes with the D-03 messages', () => {
	test.each([
		['missing header', null, MSG.missing],
		['empty header', '', MSG.missing],
		['wrong shape', 'your_secret_key_here', MSG.shape],
		['lower-case prefix', 'sentione-apikey-basic-demo', MSG.shape],
		['not recognised', 'SENTIONE-APIKEY-does-not-exist', MSG.unknown],
		['other vendor prefix, right shape', 'ACME-APIKEY-basic-demo', MSG.unknown],
	])('%s on GET /projects', async (_name, key, message) => {
		const res = await api(sim, 'GET', '/projects', { key });
		expect(res.status).toBe(401);
		expect(res.json).toEqual({ message });
	});

	test('Basic key on Enterprise endpoints: historical search, tagging, engagement stream, historical export', async () => {
		const h = await api(sim, 'POST', '/projects/1001/mentions/search', { key: BASIC, body: {} });
		expect(h.status).toBe(401);
		expect(h.json).toEqual({ message: MSG.enterprise });
		const t = await api(sim, 'GET', '/projects/1001/tags', { key: BASIC });
		expect(t.json).toEqual({ message: MSG.enterprise });
		const e = await api(sim, 'POST', '/mentions/engagement/updates/stream/live', {
			key: BASIC,
			body: {},
			accept: 'text/event-stream',
		});
		expect(e.status).toBe(401);
		const x = await api(sim, 'POST', '/projects/1001/mentions/search/stream', {
			key: BASIC,
			body: {},
			accept: 'text/event-stream',
		});
		expect(x.status).toBe(401);
		expect(x.json).toEqual({ message: MSG.enterprise });
	});

	test('Basic key is enough for the project list, recent search and project CRUD', async () => {
		expect((await api(sim, 'GET', '/projects', { key: BASIC })).status).toBe(200);
		expect(
			(await api(sim, 'POST', '/projects/1001/mentions/recent/search', { key: BASIC, body: {} }))
				.status,
		).toBe(200);
		expect(
			(await api(sim, 'POST', '/projects', { key: BASIC, body: { name: 'B', query: 'b' } })).status,
		).toBe(201);
	});

	test('a recognised key without Loose API tier is refused everywhere, GET /projects included', async () => {
		const list = await api(sim, 'GET', '/projects', { key: NOACCESS });
		expect(list.status).toBe(401);
		expect(list.json).toEqual({ message: MSG.basic });
		const hist = await api(sim, 'POST', '/projects/1001/mentions/search', {
			key: NOACCESS,
			body: {},
		});
		expect(hist.json).toEqual({ message: MSG.enterprise });
	});

	test('401 responses are not counted (fresh window in the headers)', async () => {
		await api(sim, 'GET', '/projects', { key: 'SENTIONE-APIKEY-nope' });
		const res = await api(sim, 'POST', '/projects/1001/mentions/search', { key: BASIC, body: {} });
		expect(res.headers.get('x-rate-limit-remaining')).toBe('30');
		const log = await admin(sim, 'GET', '/requests');
		expect(log.requests.every((r: Loose) => r.counted === false)).toBe(true);
	});
});

describe('415: Content-Type on every method (D-04)', () => {
	test.each([
		['GET', '/projects', undefined],
		['POST', '/projects/1001/mentions/recent/search', '{}'],
		['DELETE', '/projects/1001', undefined],
		['PUT', '/projects/1001', '{"name":"a","query":"a"}'],
	])('%s %s without Content-Type → 415', async (method, path, body) => {
		const res = await api(sim, method, path, { contentType: null, raw: body });
		expect(res.status).toBe(415);
		expect(res.json).toEqual({ message: 'Content-Type must be application/json.' });
	});

	test('another media type → 415; parameters such as charset are allowed', async () => {
		const bad = await api(sim, 'POST', '/projects/1001/mentions/recent/search', {
			contentType: 'text/plain',
			raw: '{}',
		});
		expect(bad.status).toBe(415);
		const ok = await api(sim, 'POST', '/projects/1001/mentions/recent/search', {
			contentType: 'application/json; charset=utf-8',
			raw: '{}',
		});
		expect(ok.status).toBe(200);
		const upper = await api(sim, 'GET', '/projects', { contentType: 'Application/JSON' });
		expect(upper.status).toBe(200);
	});

	test('415 is checked before authentication (D-05)', async () => {
		const res = await api(sim, 'GET', '/projects', { key: null, contentType: null });
		expect(res.status).toBe(415);
	});
});

describe('routing (D-34), Accept (D-27)', () => {
	test('unknown route → 404 Not found.', async () => {
		const res = await api(sim, 'GET', '/nothing/here');
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ message: 'Not found.' });
	});

	test('known path, other method → 405 with Allow', async () => {
		const res = await api(sim, 'GET', '/projects/1001/mentions/search');
		expect(res.status).toBe(405);
		expect(res.json).toEqual({ message: 'Method not allowed.' });
		expect(res.headers.get('allow')).toBe('POST');
		const del = await api(sim, 'DELETE', '/projects');
		expect(del.status).toBe(405);
	});

	test('streams: missing or other Accept → 406', async () => {
		for (const accept of [undefined, 'application/xml', '*/*']) {
			const res = await api(sim, 'POST', '/projects/1001/mentions/search/stream', {
				body: {},
				accept,
			});
			expect(res.status).toBe(406);
			expect(res.json).toEqual({
				message: 'Accept must be text/event-stream, application/x-ndjson or application/json.',
			});
		}
	});

	test('projectId that is not a positive integer → 400', async () => {
		for (const id of ['abc', '0', '-5', '1.5']) {
			const res = await api(sim, 'POST', `/projects/${id}/mentions/recent/search`, { body: {} });
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ message: 'projectId must be a positive integer.' });
		}
	});

	test('unknown project → 404 with the D-21 message', async () => {
		const res = await api(sim, 'POST', '/projects/999999/mentions/recent/search', { body: {} });
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ message: 'Project 999999 not found.' });
	});

	test('order of checks: 400 (format) comes before 404 (project) and 422 (values)', async () => {
		const bad = { filters: { publishedAt: { from: 12 } }, sortType: 'Nope' };
		const format = await api(sim, 'POST', '/projects/999999/mentions/search', { body: bad });
		expect(format.status).toBe(400);
		const values = await api(sim, 'POST', '/projects/999999/mentions/search', {
			body: { sortType: 'Nope' },
		});
		expect(values.status).toBe(404);
	});
});

describe('rate-limit headers on every response (D-07)', () => {
	const resetSeconds = (Math.floor(NOW_MS / 3600_000) + 1) * 3600;

	test.each([
		['200 project list', 'GET', '/projects', {}, 200, '300'],
		['401', 'GET', '/projects', { key: null }, 401, '300'],
		['415', 'GET', '/projects', { contentType: null }, 415, '300'],
		['404 route', 'GET', '/nope', {}, 404, '300'],
		['405', 'GET', '/projects/1001/mentions/recent/search', {}, 405, '30'],
		['400', 'POST', '/projects/1001/mentions/recent/search', { raw: '{' }, 400, '30'],
		[
			'422',
			'POST',
			'/projects/1001/mentions/recent/search',
			{ body: { sortType: 'x' } },
			422,
			'30',
		],
		['404 project', 'POST', '/projects/5/mentions/search', { body: {} }, 404, '30'],
		['tags 200', 'GET', '/projects/1001/tags', {}, 200, '300'],
	] as const)('%s', async (_n, method, path, o, status, limit) => {
		const res = await api(sim, method, path, o as object);
		expect(res.status).toBe(status);
		expect(res.headers.get('x-rate-limit-limit')).toBe(limit);
		expect(Number(res.headers.get('x-rate-limit-remaining'))).toBeGreaterThanOrEqual(0);
		expect(res.headers.get('x-rate-limit-reset')).toBe(String(resetSeconds));
	});

	test('stream 200 responses carry the stream group headers (D-33)', async () => {
		const res = await raw(sim, '/projects/1001/mentions/search/stream?limit=1', {
			headers: {
				'x-api-key': ENTERPRISE,
				'content-type': 'application/json',
				accept: 'text/event-stream',
			},
			body: '{}',
		});
		expect(res.status).toBe(200);
		expect(res.headers['x-rate-limit-limit']).toBe('5');
		expect(res.headers['x-rate-limit-remaining']).toBe('4');
		expect(res.headers['x-rate-limit-reset']).toBe(String(resetSeconds));
	});

	test('a failing request that passed authentication still spends budget (D-05)', async () => {
		await api(sim, 'POST', '/projects/1001/mentions/recent/search', { raw: 'nope' });
		await api(sim, 'POST', '/projects/1001/mentions/recent/search', { body: { sortType: 'x' } });
		const res = await api(sim, 'POST', '/projects/1001/mentions/recent/search', { body: {} });
		expect(res.headers.get('x-rate-limit-remaining')).toBe('27');
	});
});

describe('request log (admin)', () => {
	test('records API requests with group, tier and counted; never the key', async () => {
		await api(sim, 'GET', '/projects', { key: BASIC, query: { cursor: '' } });
		await api(sim, 'GET', '/projects', { key: 'SENTIONE-APIKEY-unknown' });
		const { requests } = await admin(sim, 'GET', '/requests');
		expect(requests).toHaveLength(2);
		expect(requests[0]).toMatchObject({
			seq: 1,
			method: 'GET',
			path: '/api/public/v2/projects',
			status: 200,
			group: 'projects',
			tier: 'basic',
			counted: true,
			at: '2026-11-21T10:30:00.000Z',
		});
		expect(requests[1]).toMatchObject({ status: 401, tier: null, counted: false });
		expect(JSON.stringify(requests)).not.toContain('APIKEY');
		await admin(sim, 'DELETE', '/requests');
		expect((await admin(sim, 'GET', '/requests')).requests).toEqual([]);
	});
});

describe('Date: every answer is dated by the simulator clock (D-36, D-50)', () => {
	test('a success, a refusal and an unknown route carry the clock, to the second; it moves with the clock', async () => {
		const answers = [
			await api(sim, 'GET', '/projects', { key: BASIC }),
			await api(sim, 'GET', '/projects', { key: null }),
			await api(sim, 'GET', '/nowhere', { key: BASIC }),
		];
		for (const res of answers) expect(res.headers.get('date')).toBe(new Date(NOW_MS).toUTCString());
		await admin(sim, 'POST', '/clock', { advanceMs: 17 * 60_000 });
		const later = await api(sim, 'GET', '/projects', { key: BASIC });
		expect(later.headers.get('date')).toBe(new Date(NOW_MS + 17 * 60_000).toUTCString());
	});
});
