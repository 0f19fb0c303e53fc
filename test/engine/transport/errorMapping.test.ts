/**
 * SentiOneTransport.request against the simulator: the rate-limit headers of every answer, and
 * every status the API gives (or a server in its place could give) mapped by the one error mapper
 * into words that say what happened and what to do.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import { errorDetails } from '../../../nodes/SentiOne/shared/errors';
import type { ApiRequest } from '../../../nodes/SentiOne/shared/transport';
import { readRateLimit, SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	admin,
	api,
	type Sim,
	nextHourOf,
	requestLog,
	script,
	useRealTimeSim,
} from '../../support/simulator';
import { withExecuteContext, credentials } from '../../support/engine';
import { N8N_DEFAULT_ZONE, shownAt, shownAtPattern } from '../../support/shownTime';
import {
	describeError,
	expectNoKeysIn,
	failureOf,
	inNode,
	remember,
	UNKNOWN_KEY,
	valueOf,
} from '../../support/inNode';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';
import { iso } from '../../support/time';

let sim: Sim;
useRealTimeSim(['--mentions', '200'], (started) => (sim = started));

// written out (no endpoint name): the mapper's wording for a request the endpoint table does not name
const getProjects: ApiRequest = {
	method: 'GET',
	path: PATHS.listProjects(),
	group: 'projects',
	tier: 'Basic',
	read: true,
};
const recentSearch = (projectId: number, body: object): ApiRequest => ({
	method: 'POST',
	path: PATHS.recentSearch(projectId),
	group: 'search',
	tier: 'Basic',
	body: body as ApiRequest['body'],
	read: true,
});
const historicalSearch = (projectId: number, body: object): ApiRequest => ({
	...recentSearch(projectId, body),
	path: PATHS.historicalSearch(projectId),
	tier: 'Enterprise',
});

/** One request through a fresh transport in the engine; the error it fails with. */
function failing(
	request: ApiRequest,
	key = ENTERPRISE,
	baseUrl?: string,
	options: ConstructorParameters<typeof SentiOneTransport>[1] = {},
) {
	return failureOf(credentials(sim, key, baseUrl), async function () {
		return await new SentiOneTransport(this, options).request(request);
	});
}

/** the workflow here has no time-zone setting, so messages use n8n's default zone */
const shown = (ms: number) => shownAt(ms, N8N_DEFAULT_ZONE);

describe('rate-limit headers', () => {
	test('are parsed on every answer — successes, errors and stream opens — into the result and transport.rateLimits', async () => {
		const reset = await nextHourOf(sim);
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this);
				const first = await t.request(getProjects);
				const second = await t.request(getProjects);
				const search = await t.request(recentSearch(1001, {}));
				let notFound: unknown;
				try {
					await t.request(recentSearch(999, {}));
				} catch (error) {
					notFound = describeError(error).message;
				}
				const afterError = { ...t.rateLimits.search };
				const stream = await t.openStream({
					path: PATHS.historicalExport(1001),
					group: 'export',
					tier: 'Enterprise',
					body: {},
					qs: { limit: 1 },
					format: 'sse',
				});
				for await (const item of stream.items) void item;
				return {
					first: first.rateLimit,
					second: second.rateLimit,
					search: search.rateLimit,
					notFound,
					afterError,
					stream: stream.rateLimit,
					all: JSON.parse(JSON.stringify(t.rateLimits)),
					sent: t.requestsSent,
				};
			}),
		);
		expect(result.first).toEqual({
			group: 'projects',
			limit: 300,
			remaining: 299,
			resetAt: reset,
			readAt: expect.any(Number),
		});
		expect(result.second).toEqual({
			group: 'projects',
			limit: 300,
			remaining: 298,
			resetAt: reset,
			readAt: expect.any(Number),
		});
		expect(result.search).toEqual({
			group: 'search',
			limit: 30,
			remaining: 29,
			resetAt: reset,
			readAt: expect.any(Number),
		});
		// the 404 is counted (D-05) and its headers are read before the error is mapped
		expect(result.notFound).toMatch(/\(404\)/);
		expect(result.afterError).toEqual({
			group: 'search',
			limit: 30,
			remaining: 28,
			resetAt: reset,
			readAt: expect.any(Number),
		});
		expect(result.stream).toEqual({
			group: 'export',
			limit: 5,
			remaining: 4,
			resetAt: reset,
			readAt: expect.any(Number),
		});
		expect(result.all).toEqual({
			projects: {
				group: 'projects',
				limit: 300,
				remaining: 298,
				resetAt: reset,
				readAt: expect.any(Number),
			},
			search: {
				group: 'search',
				limit: 30,
				remaining: 28,
				resetAt: reset,
				readAt: expect.any(Number),
			},
			export: {
				group: 'export',
				limit: 5,
				remaining: 4,
				resetAt: reset,
				readAt: expect.any(Number),
			},
		});
		expect(result.sent).toBe(5);
		expect(await requestLog(sim)).toHaveLength(5);
	});

	test.each([
		[
			'all three',
			{
				'x-rate-limit-limit': '30',
				'x-rate-limit-remaining': '0',
				'x-rate-limit-reset': '1795258800',
			},
			{ limit: 30, remaining: 0, resetAt: 1795258800000 },
		],
		[
			'repeated headers (first wins)',
			{ 'x-rate-limit-limit': ['30', '31'], 'x-rate-limit-remaining': [' 7 '] },
			{ limit: 30, remaining: 7, resetAt: undefined },
		],
		[
			'non-integers ignored',
			{
				'x-rate-limit-limit': 'many',
				'x-rate-limit-remaining': '1.5',
				'x-rate-limit-reset': '1795258800',
			},
			{ limit: undefined, remaining: undefined, resetAt: 1795258800000 },
		],
	])('readRateLimit: %s', (_what, headers, expected) => {
		// `now` half an hour before the reset the cases carry (a reset must be plausible: bounds.ts)
		expect(readRateLimit(headers, 'search', 1795258800000 - 1_800_000)).toEqual({
			group: 'search',
			...expected,
			readAt: 1795258800000 - 1_800_000,
		});
	});

	test('readRateLimit: no rate-limit header → undefined', () => {
		expect(readRateLimit({ 'content-type': 'application/json' }, 'projects')).toBeUndefined();
		expect(readRateLimit(undefined, 'projects')).toBeUndefined();
	});
});

describe('error mapping', () => {
	test('errors keep message, description and httpCode through the engine, but the details only inside the node', async () => {
		let thrown: unknown;
		try {
			await withExecuteContext(
				credentials(sim, ENTERPRISE),
				async function (this: IExecuteFunctions) {
					return await new SentiOneTransport(this).request(recentSearch(999, {}));
				},
			);
		} catch (error) {
			thrown = error;
		}
		remember(thrown);
		const e = thrown as { message: string; description: string; httpCode: string };
		expect(e.message).toBe(
			'SentiOne could not find what the request names (404): Project 999 not found.',
		);
		expect(e.description).toMatch(/Check the project ID/);
		expect(e.httpCode).toBe('404');
		expect(errorDetails(thrown)).toBeUndefined();
		// inside the node the mapped error still carries its details
		const inside = await failing(recentSearch(999, {}));
		expect(inside.constructorName).toBe('NodeApiError');
		expect(inside.details).toEqual({ statusCode: 404 });
	});

	test('400 (a value of the wrong JSON type) quotes the server and names the field', async () => {
		const body = { filters: { source: { type: 'Facebook' } } };
		const direct = await api(sim, 'POST', PATHS.recentSearch(1001), { body });
		expect(direct.status).toBe(400);
		const error = await failing(recentSearch(1001, body));
		expect(error.message).toBe(
			`SentiOne rejected the request as malformed (400): ${direct.json.message}`,
		);
		expect(error.message).toContain('filters.source.type');
		expect(error.description).toMatch(
			/wrong format \(POST \/projects\/1001\/mentions\/recent\/search\)/,
		);
		expect(error.httpCode).toBe('400');
		expect(error.details).toEqual({ statusCode: 400 });
	});

	test('401, recognised key without any API tier: names the tier of the endpoint', async () => {
		const error = await failing(getProjects, NOACCESS);
		expect(error.message).toBe(
			'SentiOne refused the API key (401): your API key does not have the Basic tier this operation needs. Ask SentiOne to enable API access for this key.',
		);
		expect(error.description).toContain(
			'Server message: API key does not have permission for this endpoint. It requires the Basic tier.',
		);
		expect(error.httpCode).toBe('401');
	});

	test('401, Basic key on historical search: says the Enterprise tier is needed and offers the Basic alternative', async () => {
		const error = await failing(historicalSearch(1001, {}), BASIC);
		expect(error.message).toMatch(
			/^SentiOne refused the API key \(401\): your API key does not have the Enterprise tier/,
		);
		expect(error.message).toMatch(/This needs the Enterprise tier/);
		expect(error.message).toMatch(/recent search covers the last 7 days/);
		expect(error.description).toMatch(/POST \/projects\/1001\/mentions\/search needs Enterprise/);
	});

	test('401, unknown key: says the key is not recognised and to check the Base URL', async () => {
		const error = await failing(getProjects, UNKNOWN_KEY);
		expect(error.message).toBe(
			"SentiOne refused the API key (401): SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential's Base URL.",
		);
	});

	test('401 with a message the node cannot classify: quotes the server', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 401, body: { message: 'Go away.' } });
		const error = await failing(getProjects);
		expect(error.message).toBe('SentiOne refused the API key (401): Go away.');
		expect(error.description).toMatch(
			/missing, is not shaped like .* not recognised, or lacks the tier/,
		);
	});

	test('404, unknown project', async () => {
		const error = await failing(recentSearch(999, {}));
		expect(error.message).toBe(
			'SentiOne could not find what the request names (404): Project 999 not found.',
		);
		expect(error.description).toMatch(
			/If every request gives 404, check the credential's Base URL/,
		);
	});

	test('404 from a Base URL that points elsewhere', async () => {
		const error = await failing(getProjects, ENTERPRISE, `${sim.base}/elsewhere`);
		expect(error.message).toBe('SentiOne could not find what the request names (404): Not found.');
		expect((await requestLog(sim)).map((e) => e.path)).toEqual([
			'/elsewhere/api/public/v2/projects',
		]);
	});

	test('406 on a stream open (scripted: the node always sends a valid Accept)', async () => {
		await script(sim, '/mentions/search/stream$', {
			kind: 'json',
			status: 406,
			body: {
				message: 'Accept must be text/event-stream, application/x-ndjson or application/json.',
			},
		});
		const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
			return await new SentiOneTransport(this).openStream({
				path: PATHS.historicalExport(1001),
				group: 'export',
				tier: 'Enterprise',
				body: {},
				format: 'sse',
			});
		});
		expect(error.message).toBe(
			'SentiOne refused the requested stream format (406): Accept must be text/event-stream, application/x-ndjson or application/json.',
		);
		expect(error.description).toMatch(/Server-Sent Events or JSON Lines/);
	});

	test('the stream open really sends the Accept of the chosen format', async () => {
		valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this);
				for (const format of ['sse', 'jsonLines'] as const) {
					const s = await t.openStream({
						path: PATHS.historicalExport(1001),
						group: 'export',
						tier: 'Enterprise',
						body: {},
						qs: { limit: 1 },
						format,
					});
					for await (const item of s.items) void item;
				}
				return true;
			}),
		);
		expect((await requestLog(sim)).map((e) => [e.status, e.accept, e.contentType])).toEqual([
			[200, 'text/event-stream', 'application/json'],
			[200, 'application/x-ndjson', 'application/json'],
		]);
	});

	test('415 (scripted: the node always sends Content-Type) blames a proxy', async () => {
		await script(sim, '^/projects$', {
			kind: 'json',
			status: 415,
			body: { message: 'Content-Type must be application/json.' },
		});
		const error = await failing(getProjects);
		expect(error.message).toBe(
			"SentiOne refused the request's content type (415): Content-Type must be application/json.",
		);
		expect(error.description).toMatch(/a proxy between n8n and SentiOne may be stripping it/);
	});

	test('422 with several offending paths: every path and message in the error message and in the details', async () => {
		const body = {
			filters: {
				publishedAt: { from: iso(Date.now() - 30 * 24 * 3600 * 1000) },
				source: { type: ['Twitter', 'Facebok'] },
				type: ['Tweet'],
				content: { sentiment: ['Happy'], query: 'acme AND' },
			},
			sortType: 'Newest',
		};
		const direct = await api(sim, 'POST', PATHS.recentSearch(1001), { body });
		expect(direct.status).toBe(422);
		const fieldErrors = direct.json.requestFieldErrors as Record<string, string[]>;
		expect(Object.keys(fieldErrors).length).toBeGreaterThanOrEqual(5);

		const error = await failing(recentSearch(1001, body));
		expect(error.message).toMatch(
			new RegExp(`^SentiOne rejected ${Object.keys(fieldErrors).length} values \\(422\\) — `),
		);
		for (const [path, messages] of Object.entries(fieldErrors)) {
			expect(error.message).toContain(`${path}: `);
			for (const message of messages) expect(error.message).toContain(message);
		}
		expect(error.details).toEqual({ statusCode: 422, fieldErrors });
		expect(error.description).toMatch(/Correct the parameter behind each field above/);
	});

	test('422 with one path says "a value"', async () => {
		const error = await failing(recentSearch(1001, { sortType: 'Newest' }));
		expect(error.message).toMatch(/^SentiOne rejected a value \(422\) — sortType: /);
		expect(Object.keys(error.details?.fieldErrors ?? {})).toEqual(['sortType']);
	});

	describe('429', () => {
		test('hourly (tiny limit): the maximum, the reset from the body and the header, the shared search budget', async () => {
			await admin(sim, 'POST', '/limits', { hourly: { search: 1 } });
			const reset = await nextHourOf(sim);
			const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this);
				await t.request(recentSearch(1001, {}));
				return await t.request(historicalSearch(1001, {}));
			});
			expect(error.message).toMatch(
				new RegExp(
					`^SentiOne's search budget is used up \\(429\\): at most 1 request an hour for this key\\. It resets at ${shownAtPattern(reset, N8N_DEFAULT_ZONE)} \\(in \\d+ min\\)\\.$`,
				),
			);
			expect(error.description).toMatch(
				/Recent search and historical search share one budget of 30 requests an hour per API key/,
			);
			expect(error.details).toEqual({ statusCode: 429, rateLimitKind: 'hourly', resetAt: reset });
			// body and header agree here (the simulator's reset is the header's, to the second)
			const log = await requestLog(sim);
			expect(log.map((e) => e.status)).toEqual([200, 429]);
		});

		test('hourly, reset only in x-rate-limit-reset (scripted): the header’s reset is stated', async () => {
			const resetSeconds = Math.floor(Date.now() / 1000) + 1800;
			await script(sim, '^/projects$', {
				kind: 'json',
				status: 429,
				body: { message: 'Rate limit of requests for this endpoint has been reached.' },
				headers: {
					'x-rate-limit-limit': 300,
					'x-rate-limit-remaining': 0,
					'x-rate-limit-reset': resetSeconds,
				},
			});
			const error = await failing(getProjects);
			expect(error.message).toBe(
				`SentiOne's projects API budget is used up (429): at most 300 requests an hour for this key. It resets at ${shown(resetSeconds * 1000)} (in 30 min).`,
			);
			expect(error.description).toBe(
				'The projects API allows 300 requests an hour per API key, shared by every workflow using it.',
			);
			expect(error.details).toEqual({
				statusCode: 429,
				rateLimitKind: 'hourly',
				resetAt: resetSeconds * 1000,
			});
		});

		test('hourly, body and header disagree (scripted): the body’s reset is stated and used', async () => {
			const headerReset = Math.floor(Date.now() / 1000) + 600;
			const bodyReset = (headerReset + 1800) * 1000;
			await script(sim, '/mentions/recent/search$', {
				kind: 'json',
				status: 429,
				body: {
					message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at ${iso(bodyReset)}.`,
				},
				headers: {
					'x-rate-limit-limit': 30,
					'x-rate-limit-remaining': 0,
					'x-rate-limit-reset': headerReset,
				},
			});
			const error = await failing(recentSearch(1001, {}));
			expect(error.message).toContain('at most 30 requests an hour');
			expect(error.message).toContain(`It resets at ${shown(bodyReset)}`);
			expect(error.message).not.toContain(shown(headerReset * 1000));
			expect(error.details?.resetAt).toBe(bodyReset);
		});

		test('concurrent streams: worded as connections, never as a budget', async () => {
			await admin(sim, 'POST', '/limits', { concurrency: { export: 1 } });
			// the first stream stays open (silent) until the node closes it
			await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 1 } });
			const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this);
				const open = await t.openStream({
					path: PATHS.historicalExport(1001),
					group: 'export',
					tier: 'Enterprise',
					body: {},
					format: 'sse',
				});
				try {
					return await t.openStream({
						path: PATHS.historicalExport(1002),
						group: 'export',
						tier: 'Enterprise',
						body: {},
						format: 'jsonLines',
					});
				} finally {
					open.close();
				}
			});
			expect(error.message).toBe(
				'Too many open export stream connections (429): at most 1 connection at a time for this key.',
			);
			expect(error.description).toMatch(/holds the stream connections of this key open/);
			expect(error.details).toEqual({
				statusCode: 429,
				rateLimitKind: 'concurrent',
				resetAt: expect.any(Number),
			});
		});

		test('monthly mentions cap: worded as the cap, reset on the 1st, no hourly wording; never waited for', async () => {
			await admin(sim, 'POST', '/limits', { monthlyCap: { enterprise: 10 } });
			const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
			const n = new Date(now);
			const firstOfNextMonth = Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + 1, 1);
			const outcome = valueOf(
				await inNode(credentials(sim, ENTERPRISE), async function () {
					const t = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 3_600_000 } });
					const page = await t.request<{ data: unknown[] }>(historicalSearch(1001, {}));
					try {
						await t.request(historicalSearch(1002, {}));
						return { page: page.body.data.length, error: undefined };
					} catch (error) {
						return { page: page.body.data.length, error: describeError(error) };
					}
				}),
			);
			expect(outcome.page).toBe(10);
			const error = outcome.error!;
			expect(error.message).toBe(
				`SentiOne's monthly mentions cap is reached (429): at most 10 mentions a month for this key. It resets at ${shown(firstOfNextMonth)} (in ${Math.round((firstOfNextMonth - Date.now()) / 3_600_000)} h).`,
			);
			expect(error.description).toMatch(/resets on the 1st of the month/);
			expect(error.details).toEqual({
				statusCode: 429,
				rateLimitKind: 'monthlyCap',
				resetAt: firstOfNextMonth,
			});
			expect((await requestLog(sim)).map((e) => e.status)).toEqual([200, 429]);
		});
	});

	test('500 with a JSON message: a server error, quoted, not retried', async () => {
		await script(
			sim,
			'^/projects$',
			{ kind: 'json', status: 500, body: { message: 'Unexpected error: boom' } },
			5,
		);
		const error = await failing(getProjects);
		expect(error.message).toBe('SentiOne had a server error (500): Unexpected error: boom');
		expect(error.description).toMatch(/The service failed to handle GET \/projects/);
		expect(await requestLog(sim)).toHaveLength(1);
	});

	test('500 with a plain-text body: described, not dumped', async () => {
		await script(sim, '^/projects$', { kind: 'text', status: 500 });
		const error = await failing(getProjects);
		expect(error.message).toBe(
			'SentiOne had a server error (500): a non-JSON body ("Internal Server Error")',
		);
	});

	test('a status the API never documents (418, scripted)', async () => {
		await script(sim, '^/projects$', {
			kind: 'json',
			status: 418,
			body: { message: "I'm a teapot" },
		});
		const error = await failing(getProjects);
		expect(error.message).toBe("SentiOne answered with an unexpected status 418: I'm a teapot");
		expect(error.description).toBe(
			"The node does not expect status 418 from GET /projects. Check the credential's Base URL points at the SentiOne API.",
		);
		expect(error.httpCode).toBe('418');
	});

	test('405 from the real simulator (a method the path does not have) says the method is not accepted', async () => {
		const error = await failing({ ...getProjects, method: 'PATCH' });
		expect(error.message).toBe('SentiOne does not accept PATCH here (405): Method not allowed.');
	});

	test('a key echoed by a server in a message, an HTML page or a field path is redacted', async () => {
		await script(sim, '^/projects$', {
			kind: 'json',
			status: 400,
			body: { message: `header X-API-KEY=${ENTERPRISE} is not allowed here` },
		});
		await script(sim, '^/projects$', {
			kind: 'html',
			status: 418,
			body: `<html><body>Denied for ${ENTERPRISE}</body></html>`,
		});
		await script(sim, '^/projects$', {
			kind: 'json',
			status: 422,
			body: {
				message: 'Request validation failed.',
				requestFieldErrors: { [`key.${BASIC}`]: [`${BASIC} is wrong`] },
			},
		});
		const e400 = await failing(getProjects);
		const e418 = await failing(getProjects);
		const e422 = await failing(getProjects);
		expect(e400.message).toBe(
			'SentiOne rejected the request as malformed (400): header X-API-KEY=[redacted API key] is not allowed here',
		);
		// (the redaction also swallows the rest of the word after the key: `</body></html>` here)
		expect(e418.message).toMatch(
			/^SentiOne answered with an unexpected status 418: an HTML page \("<html><body>Denied for \[redacted API key\]/,
		);
		expect(e422.message).toBe(
			'SentiOne rejected a value (422) — key.[redacted API key]: [redacted API key] is wrong',
		);
		expect(e422.details?.fieldErrors).toEqual({
			'key.[redacted API key]': ['[redacted API key] is wrong'],
		});
	});
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(20);
});
