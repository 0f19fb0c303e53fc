/** Project → Get Many, Create, Update, Delete, and the project picker's list search. */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { admin, type Loose, type Sim, clearLog, onPath, requestLog } from '../../support/simulator';
import { withExecuteContext } from '../../support/engine';
import { jsonOf, loadWorkflow, NODE, outputOf, run, withParameters } from '../../support/actions';
import { useSimulator } from '../../support/simClock';
import { BASIC, ENTERPRISE } from '../../support/keys';

let sim: Sim;

// 45 projects = 3 pages of 20 (D-10)
useSimulator(['--projects', '45', '--mentions', '5'], (started) => {
	sim = started;
});

const listRequests = async () =>
	onPath(await requestLog(sim), /^\/projects$/).filter((r) => r.method === 'GET');

describe('Get Many', () => {
	test('Return All pages through the cursor: 45 projects in 3 requests', async () => {
		const projects = jsonOf(await run(sim, loadWorkflow('project-get-many'), { key: BASIC }));
		expect(projects).toHaveLength(45);
		expect(projects[0]).toEqual({ id: 1001, name: 'Acme Mobile' });
		expect(new Set(projects.map((p) => p.id)).size).toBe(45);
		const log = await listRequests();
		expect(log).toHaveLength(3);
		expect(log.map((r) => r.query.cursor === undefined)).toEqual([true, false, false]);
		expect(log.every((r) => r.contentType === 'application/json' && r.body === null)).toBe(true);
	});

	test.each([
		[5, 1],
		[20, 1],
		[21, 2],
		[45, 3],
	])('Limit %i fetches %i page(s)', async (limit, pages) => {
		const workflow = withParameters(loadWorkflow('project-get-many'), { returnAll: false, limit });
		expect(jsonOf(await run(sim, workflow, { key: BASIC }))).toHaveLength(limit);
		expect(await listRequests()).toHaveLength(pages);
	});

	test('pairedItem links every project to the input item', async () => {
		const items = outputOf(
			await run(
				sim,
				withParameters(loadWorkflow('project-get-many'), { returnAll: false, limit: 2 }),
				{
					key: BASIC,
					inputItems: [{ a: 1 }, { a: 2 }],
				},
			),
		);
		expect(items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
	});
});

describe('Create, Update, Delete', () => {
	test('Create sends { name, query } and returns the project', async () => {
		const [project] = jsonOf(await run(sim, loadWorkflow('project-create'), { key: BASIC }));
		expect(project).toEqual({
			id: expect.any(Number),
			name: 'Nordic Tea House',
			query: '"nordic tea" OR teahouse* NOT jobs',
		});
		const [request] = onPath(await requestLog(sim), /^\/projects$/);
		expect(request.method).toBe('POST');
		expect(request.status).toBe(201);
		expect(request.body).toEqual({
			name: 'Nordic Tea House',
			query: '"nordic tea" OR teahouse* NOT jobs',
		});
		// the new project is listed
		const projects = jsonOf(await run(sim, loadWorkflow('project-get-many'), { key: BASIC }));
		expect(projects).toContainEqual({ id: project.id, name: 'Nordic Tea House' });
	});

	test('Create trims the name and the query', async () => {
		const workflow = withParameters(loadWorkflow('project-create'), {
			name: '  Spaced  ',
			query: '  acme  ',
		});
		const [project] = jsonOf(await run(sim, workflow, { key: BASIC }));
		expect(project).toMatchObject({ name: 'Spaced', query: 'acme' });
	});

	test('Update replaces name and query of the chosen project', async () => {
		const [project] = jsonOf(await run(sim, loadWorkflow('project-update'), { key: BASIC }));
		expect(project).toEqual({
			id: 1002,
			name: 'Nordic Coffee Roasters (renamed)',
			query: '"nordic coffee" OR roaster*',
		});
		const [request] = onPath(await requestLog(sim), /^\/projects\/1002$/);
		expect(request.method).toBe('PUT');
		expect(request.body).toEqual({
			name: 'Nordic Coffee Roasters (renamed)',
			query: '"nordic coffee" OR roaster*',
		});
	});

	test('Delete returns { deleted: true, id } and the project is gone', async () => {
		const items = outputOf(await run(sim, loadWorkflow('project-delete'), { key: BASIC }));
		expect(items).toEqual([{ json: { deleted: true, id: 1003 }, pairedItem: { item: 0 } }]);
		const [request] = onPath(await requestLog(sim), /^\/projects\/1003$/);
		expect(request).toMatchObject({ method: 'DELETE', status: 204, body: null });
		const stats = await admin<Loose>(sim, 'GET', '/stats');
		expect(stats.mentionsPerProject['1003']).toBeUndefined();
	});

	test('Delete of an unknown project: 404 with the mapped message', async () => {
		const workflow = withParameters(loadWorkflow('project-delete'), {
			project: { __rl: true, value: '4242', mode: 'id' },
		});
		const result = await run(sim, workflow, { key: BASIC });
		expect(result.nodeError(NODE)?.message).toBe(
			'SentiOne could not find what the request names (404): Project 4242 not found.',
		);
	});

	test('one run creates a project per input item (expressions per item)', async () => {
		const workflow = withParameters(loadWorkflow('project-create'), {
			name: '={{ $json.brand }}',
			query: '={{ $json.q }}',
		});
		const created = jsonOf(
			await run(sim, workflow, {
				key: ENTERPRISE,
				inputItems: [
					{ brand: 'Brand A', q: 'alpha OR "brand a"' },
					{ brand: 'Brand B', q: 'beta*' },
				],
			}),
		);
		expect(created.map((p) => [p.name, p.query])).toEqual([
			['Brand A', 'alpha OR "brand a"'],
			['Brand B', 'beta*'],
		]);
	});
});

describe('project picker (From list)', () => {
	test('searchProjects lists one page with the cursor as pagination token, and filters by name', async () => {
		await clearLog(sim);
		const node = new SentiOne();
		const { first, second, filtered } = await withExecuteContext(
			{ apiKey: BASIC, baseUrl: sim.base },
			async function () {
				const ctx = this as unknown as ILoadOptionsFunctions;
				const search = node.methods.listSearch.searchProjects;
				const first = await search.call(ctx);
				const second = await search.call(ctx, undefined, first.paginationToken);
				const filtered = await search.call(ctx, 'coffee');
				return { first, second, filtered } as Loose;
			},
		);
		expect(first.results).toHaveLength(20);
		expect(first.results[0]).toEqual({ name: 'Acme Mobile (1001)', value: '1001' });
		expect(typeof first.paginationToken).toBe('string');
		expect(second.results[0].value).toBe('1021');
		expect(filtered.results.every((r: Loose) => /coffee/i.test(r.name))).toBe(true);
		expect(await listRequests()).toHaveLength(3);
	});
});
