/**
 * Every error status reaches the user through the transport's one mapping, and "Continue On Fail"
 * turns a failed item into `{ error, description }` with its pairedItem.
 */
import type { IDataObject } from 'n8n-workflow';

import { admin, type Sim, clearLog, onPath, requestLog } from '../../support/simulator';
import { jsonOf, loadWorkflow, NODE, outputOf, run, withParameters } from '../../support/actions';
import { useSimulator } from '../../support/simClock';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';

let sim: Sim;

useSimulator(['--mentions', '200'], (started) => {
	sim = started;
});

const recent = (parameters: IDataObject = {}) =>
	withParameters(loadWorkflow('mention-search-recent'), parameters);

async function script(path: string, status: number, body: unknown, times = 1, kind = 'json') {
	await admin(sim, 'POST', '/faults', {
		script: [{ match: { path }, times, respond: { status, kind, body } }],
	});
}

async function failure(
	workflow: ReturnType<typeof recent>,
	key = ENTERPRISE,
	inputItems?: IDataObject[],
) {
	const result = await run(sim, workflow, { key, inputItems });
	const error = result.nodeError(NODE);
	if (!error) throw new Error('expected the node to fail');
	return error as Error & { description?: string; httpCode?: string; context?: IDataObject };
}

describe('each error status, with the mapped message', () => {
	test('400: malformed request, with the server message', async () => {
		await script('/mentions/recent/search$', 400, {
			message:
				'filters.publishedAt.from: expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z.',
		});
		const error = await failure(recent());
		expect(error.message).toBe(
			'SentiOne rejected the request as malformed (400): filters.publishedAt.from: expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z.',
		);
		expect(error.httpCode).toBe('400');
	});

	test('401: a key SentiOne does not recognise', async () => {
		const error = await failure(recent(), 'SENTIONE-APIKEY-revoked-long-ago');
		expect(error.message).toContain('SentiOne does not recognise the API key');
		expect(error.message).not.toContain('revoked-long-ago');
		expect(error.httpCode).toBe('401');
	});

	test('401: a key without API access', async () => {
		const error = await failure(recent(), NOACCESS);
		expect(error.message).toBe(
			"Mention → Search Recent needs API access (SentiOne's Basic tier), and this API key has none (401)",
		);
	});

	test('401: historical search with a Basic key says it needs the Enterprise tier', async () => {
		const error = await failure(loadWorkflow('mention-search-historical'), BASIC);
		expect(error.message).toBe(
			"Mention → Search Historical needs SentiOne's Enterprise tier, and this API key does not have it (401)",
		);
		expect(error.description).toContain(
			'With a Basic key, Mention → Search Recent covers the mentions published in the last 7 days.',
		);
	});

	test('401: tagging and the historical export with a Basic key need the Enterprise tier too', async () => {
		const tag = await failure(loadWorkflow('tag-get-many'), BASIC);
		expect(tag.message).toContain("needs SentiOne's Enterprise tier");
		const exported = await failure(loadWorkflow('mention-export'), BASIC);
		expect(exported.message).toContain("needs SentiOne's Enterprise tier");
	});

	test('a missing or ill-shaped key is refused by the credential before any request', async () => {
		await clearLog(sim);
		const missing = await failure(recent(), '');
		expect(missing.message).toContain('SentiOne credential: the API key is missing');
		const shape = await failure(recent(), 'not-a-sentione-key');
		expect(shape.message).toContain(
			'SentiOne credential: the API key does not have the shape of a SentiOne key',
		);
		expect(await requestLog(sim)).toHaveLength(0);
	});

	test('404: an unknown project', async () => {
		const error = await failure(recent({ project: { __rl: true, value: '99999', mode: 'id' } }));
		expect(error.message).toBe(
			'SentiOne could not find what the request names (404): Project 99999 not found.',
		);
		expect(error.httpCode).toBe('404');
	});

	test('415: content type refused (a proxy stripping the header)', async () => {
		await script('/mentions/recent/search$', 415, {
			message: 'Content-Type must be application/json.',
		});
		const error = await failure(recent());
		expect(error.message).toBe(
			"SentiOne refused the request's content type (415): Content-Type must be application/json.",
		);
		expect(error.description).toContain('a proxy between n8n and SentiOne may be stripping it');
	});

	test('422: field-level messages, one per offending field', async () => {
		await script('/mentions/recent/search$', 422, {
			message: 'Validation failed.',
			requestFieldErrors: {
				'filters.source.type': [
					'"Twitter" is not a valid SourceType. Allowed: Facebook, Websites, Instagram.',
				],
				'filters.publishedAt.from': ['must be within the last 7 days'],
			},
		});
		const error = await failure(recent());
		expect(error.message).toBe(
			'SentiOne rejected 2 values (422) — filters.source.type: "Twitter" is not a valid SourceType. Allowed: Facebook, Websites, Instagram. | filters.publishedAt.from: must be within the last 7 days' +
				// a date is judged by SentiOne's clock: the message says how it stands to n8n's (D-50)
				". SentiOne judges dates by its own clock (n8n's clock and SentiOne's agree within seconds)",
		);
	});

	test('422 from the server on a project update (an unknown project ID is a 404, a bad field a 422)', async () => {
		await script('^/projects/1002$', 422, {
			message: 'Validation failed.',
			requestFieldErrors: { name: ['required (the field is "name"; "mame" is not accepted)'] },
		});
		const error = await failure(loadWorkflow('project-update'));
		expect(error.message).toBe(
			'SentiOne rejected a value (422) — name: required (the field is "name"; "mame" is not accepted)',
		);
	});

	test('429: hourly budget exhausted, with the reset time', async () => {
		await admin(sim, 'POST', '/limits', { hourly: { projects: 0 } });
		const error = await failure(loadWorkflow('project-get-many'));
		expect(error.message).toBe(
			"SentiOne's projects API budget is used up (429): at most 0 requests an hour for this key. It resets at 2026-11-21 11:00 UTC (in 30 min).",
		);
		expect(error.httpCode).toBe('429');
	});

	test('429: the monthly mentions cap', async () => {
		await admin(sim, 'POST', '/limits', { monthlyCap: { enterprise: 0 } });
		const error = await failure(recent());
		expect(error.message).toBe(
			"SentiOne's monthly mentions cap is reached (429): at most 0 mentions a month for this key. It resets at 2026-12-01 00:00 UTC (in 230 h).",
		);
	});

	test('500 on a write: reported at once, never repeated', async () => {
		await clearLog(sim);
		await script('^/projects$', 500, { message: 'Internal error.' });
		const error = await failure(loadWorkflow('project-create'));
		expect(error.message).toBe('SentiOne had a server error (500): Internal error.');
		expect(onPath(await requestLog(sim), /^\/projects$/)).toHaveLength(1);
	});

	test('503 on a read: retried twice, then reported', async () => {
		await clearLog(sim);
		await script(
			'/mentions/recent/search$',
			503,
			{ message: 'Service temporarily unavailable.' },
			3,
		);
		const error = await failure(recent());
		expect(error.message).toBe(
			'SentiOne had a server error (503): Service temporarily unavailable.',
		);
		expect(onPath(await requestLog(sim), /\/mentions\/recent\/search$/)).toHaveLength(3);
	});

	test('503 once on a read: the retry succeeds and the run completes', async () => {
		await clearLog(sim);
		await script(
			'/mentions/recent/search$',
			503,
			{ message: 'Service temporarily unavailable.' },
			1,
		);
		expect(jsonOf(await run(sim, recent({ limit: 10 }), { key: ENTERPRISE }))).toHaveLength(10);
		expect(onPath(await requestLog(sim), /\/mentions\/recent\/search$/)).toHaveLength(2);
	});

	test('an HTML error page instead of JSON is described, not dumped', async () => {
		await script(
			'/mentions/recent/search$',
			404,
			'<html><body><h1>404 Not Found</h1></body></html>',
			1,
			'html',
		);
		const error = await failure(recent());
		expect(error.message).toContain(
			'SentiOne could not find what the request names (404): an HTML page',
		);
	});

	test('an unreachable Base URL', async () => {
		const result = await run(sim, recent(), { key: ENTERPRISE, baseUrl: 'http://127.0.0.1:9' });
		expect(result.nodeError(NODE)?.message).toBe(
			'Could not reach SentiOne: the connection was refused — nothing listens at the Base URL (after 3 attempts).',
		);
	});
});

describe('continueOnFail', () => {
	test('failed items become { error, description } with their pairedItem; good items run as usual', async () => {
		const workflow = withParameters(
			loadWorkflow('mention-search-per-item'),
			{},
			{ onError: 'continueRegularOutput' },
		);
		const inputItems = [
			{
				projectId: '',
				limit: 2,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
			{
				projectId: 1001,
				limit: 2,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
			{
				projectId: 99999,
				limit: 2,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
			{ projectId: 1002, limit: 1, sortType: 'Popularity', sentiments: [], sourceTypes: [] },
		];
		const items = outputOf(await run(sim, workflow, { key: ENTERPRISE, inputItems }));
		expect(items).toEqual([
			{
				json: {
					error: 'Project: no project is selected. Choose one from the list or enter its ID.',
					description: 'Nothing was sent to SentiOne, so no request budget was used.',
				},
				pairedItem: { item: 0 },
			},
			{ json: expect.objectContaining({ id: expect.any(String) }), pairedItem: { item: 1 } },
			{ json: expect.objectContaining({ id: expect.any(String) }), pairedItem: { item: 1 } },
			{
				json: {
					error: 'SentiOne could not find what the request names (404): Project 99999 not found.',
					description: expect.stringContaining('Check the project ID or mention ID'),
				},
				pairedItem: { item: 2 },
			},
			{
				json: {
					error: expect.stringMatching(/^Sort By: "Popularity" is not a sort order/),
					description: 'Nothing was sent to SentiOne, so no request budget was used.',
				},
				pairedItem: { item: 3 },
			},
		]);
		// error items carry exactly these keys
		expect(Object.keys(items[0].json)).toEqual(['error', 'description']);
	});

	test('without continueOnFail the run stops at the failing item and names it', async () => {
		await clearLog(sim);
		const inputItems = [
			{
				projectId: 1001,
				limit: 1,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
			{
				projectId: 99999,
				limit: 1,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
			{
				projectId: 1002,
				limit: 1,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
		];
		const error = await failure(loadWorkflow('mention-search-per-item'), ENTERPRISE, inputItems);
		expect(error.message).toContain('Project 99999 not found');
		expect(error.context?.itemIndex).toBe(1);
		// item 3 was never attempted
		expect(onPath(await requestLog(sim), /\/mentions\//).map((r) => r.path)).toEqual([
			'/api/public/v2/projects/1001/mentions/recent/search',
			'/api/public/v2/projects/99999/mentions/recent/search',
		]);
	});
});
