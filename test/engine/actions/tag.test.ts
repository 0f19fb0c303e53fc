/** Tag → Add, Remove, Get Many (Enterprise tier, D-22). */
import { admin, type Loose, type Sim, clearLog, onPath, requestLog } from '../../support/simulator';
import { jsonOf, loadWorkflow, NODE, outputOf, run, withParameters } from '../../support/actions';
import { useSimulator } from '../../support/simClock';
import { BASIC, ENTERPRISE } from '../../support/keys';

let sim: Sim;
let mentionIds: string[];

useSimulator(['--mentions', '100'], (started) => {
	sim = started;
});
beforeEach(async () => {
	const truth = await admin<{ mentions: Loose[] }>(sim, 'GET', '/mentions?projectId=1001&full=1');
	// mentions without tags from the generator, so the expected tag lists are exact
	mentionIds = truth.mentions
		.filter((m: Loose) => !m.tags || m.tags.length === 0)
		.map((m: Loose) => m.id);
	await clearLog(sim);
});

async function tagsOf(id: string): Promise<string[]> {
	const truth = await admin<{ mentions: Loose[] }>(sim, 'GET', '/mentions?projectId=1001&full=1');
	return truth.mentions.find((m: Loose) => m.id === id)?.tags ?? [];
}

test('Add sends { tags } to the mention and returns the API answer', async () => {
	const [id] = mentionIds;
	const items = outputOf(
		await run(sim, loadWorkflow('tag-add'), { key: ENTERPRISE, inputItems: [{ mentionId: id }] }),
	);
	expect(items).toEqual([{ json: { id, tags: ['complaint', 'vip'] }, pairedItem: { item: 0 } }]);
	const [request] = onPath(await requestLog(sim), /\/tags$/);
	expect(request).toMatchObject({
		method: 'POST',
		path: `/api/public/v2/projects/1001/mentions/${id}/tags`,
		body: { tags: ['complaint', 'vip'] },
		status: 200,
	});
	expect(await tagsOf(id)).toEqual(['complaint', 'vip']);
});

test('Add is idempotent and drops duplicate names from the request', async () => {
	const [id] = mentionIds;
	const workflow = withParameters(loadWorkflow('tag-add'), { tags: 'vip, vip,complaint ' });
	await run(sim, workflow, { key: ENTERPRISE, inputItems: [{ mentionId: id }] });
	const [answer] = jsonOf(
		await run(sim, workflow, { key: ENTERPRISE, inputItems: [{ mentionId: id }] }),
	);
	expect(answer).toEqual({ id, tags: ['vip', 'complaint'] });
	expect(onPath(await requestLog(sim), /\/tags$/).map((r) => r.body)).toEqual([
		{ tags: ['vip', 'complaint'] },
		{ tags: ['vip', 'complaint'] },
	]);
});

test('Remove sends DELETE with { tags } and returns the tags the mention keeps', async () => {
	const [id] = mentionIds;
	await run(sim, loadWorkflow('tag-add'), { key: ENTERPRISE, inputItems: [{ mentionId: id }] });
	await clearLog(sim);
	const [answer] = jsonOf(
		await run(sim, loadWorkflow('tag-remove'), {
			key: ENTERPRISE,
			inputItems: [{ mentionId: id }],
		}),
	);
	expect(answer).toEqual({ id, tags: ['complaint'] });
	const [request] = onPath(await requestLog(sim), /\/tags$/);
	expect(request).toMatchObject({ method: 'DELETE', body: { tags: ['vip'] }, status: 200 });
	expect(await tagsOf(id)).toEqual(['complaint']);
});

test('one run tags a different mention per input item', async () => {
	const ids = mentionIds.slice(0, 3);
	const items = outputOf(
		await run(sim, loadWorkflow('tag-add'), {
			key: ENTERPRISE,
			inputItems: ids.map((mentionId) => ({ mentionId })),
		}),
	);
	expect(items.map((i) => [i.json.id, i.pairedItem])).toEqual(
		ids.map((id, item) => [id, { item }]),
	);
	expect(onPath(await requestLog(sim), /\/tags$/).map((r) => r.path)).toEqual(
		ids.map((id) => `/api/public/v2/projects/1001/mentions/${id}/tags`),
	);
});

test('Get Many lists the project tags with their mention counts (Return All and Limit)', async () => {
	await run(sim, loadWorkflow('tag-add'), {
		key: ENTERPRISE,
		inputItems: mentionIds.slice(0, 2).map((mentionId) => ({ mentionId })),
	});
	const all = jsonOf(await run(sim, loadWorkflow('tag-get-many'), { key: ENTERPRISE }));
	expect(all).toContainEqual({ name: 'complaint', mentionCount: expect.any(Number) });
	expect(all).toContainEqual({ name: 'vip', mentionCount: expect.any(Number) });
	const vip = all.find((t) => t.name === 'vip');
	expect(vip.mentionCount).toBeGreaterThanOrEqual(2);
	const names = all.map((t) => t.name);
	expect([...names].sort()).toEqual(names);

	await clearLog(sim);
	const two = jsonOf(
		await run(sim, withParameters(loadWorkflow('tag-get-many'), { returnAll: false, limit: 2 }), {
			key: ENTERPRISE,
		}),
	);
	expect(two).toEqual(all.slice(0, 2));
	expect(onPath(await requestLog(sim), /\/tags$/)).toHaveLength(1);
});

test('Basic tier: the tagging operations say they need the Enterprise tier', async () => {
	const result = await run(sim, loadWorkflow('tag-add'), {
		key: BASIC,
		inputItems: [{ mentionId: mentionIds[0] }],
	});
	expect(result.nodeError(NODE)?.message).toBe(
		"Tag → Add needs SentiOne's Enterprise tier, and this API key does not have it (401)",
	);
});

test('an unknown mention: 404 naming it', async () => {
	const result = await run(sim, loadWorkflow('tag-add'), {
		key: ENTERPRISE,
		inputItems: [{ mentionId: 'no-such-mention' }],
	});
	expect(result.nodeError(NODE)?.message).toBe(
		'SentiOne could not find what the request names (404): Mention no-such-mention not found in project 1001.',
	);
});

test('a mention ID with a slash is sent encoded, never as another path', async () => {
	const result = await run(sim, loadWorkflow('tag-add'), {
		key: ENTERPRISE,
		inputItems: [{ mentionId: 'a/b' }],
	});
	expect(result.nodeError(NODE)?.message).toContain('Mention a/b not found in project 1001');
	expect(onPath(await requestLog(sim), /\/tags$/)[0].path).toBe(
		'/api/public/v2/projects/1001/mentions/a%2Fb/tags',
	);
});

test('Get Many pages through 100 tags per page: 150 tags in 2 requests; a removed tag stays listed with 0 mentions', async () => {
	const [id] = mentionIds;
	const names = Array.from({ length: 150 }, (_, k) => `t${String(k).padStart(3, '0')}`);
	const batches = [names.slice(0, 50), names.slice(50, 100), names.slice(100)].map((batch) => ({
		mentionId: id,
		tags: batch.join(','),
	}));
	await run(sim, withParameters(loadWorkflow('tag-add'), { tags: '={{ $json.tags }}' }), {
		key: ENTERPRISE,
		inputItems: batches,
	});
	await run(sim, withParameters(loadWorkflow('tag-remove'), { tags: 't000' }), {
		key: ENTERPRISE,
		inputItems: [{ mentionId: id }],
	});
	await clearLog(sim);
	const all = jsonOf(await run(sim, loadWorkflow('tag-get-many'), { key: ENTERPRISE }));
	const ours = all.filter((t) => /^t\d{3}$/.test(t.name));
	expect(ours).toHaveLength(150);
	expect(ours[0]).toEqual({ name: 't000', mentionCount: 0 });
	expect(ours[1]).toEqual({ name: 't001', mentionCount: 1 });
	expect(onPath(await requestLog(sim), /\/tags$/)).toHaveLength(Math.ceil(all.length / 100));
});
