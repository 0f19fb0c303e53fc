/* eslint-disable @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Projects: list (D-10), create / update / delete and the `mame` behaviour (D-11), ids (D-12);
// tagging (D-22).

import {
	addMentions,
	admin,
	api,
	createProject,
	search,
	searchAll,
	useSim,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { BASIC } from '../../test/support/keys';

let sim: Sim;
useSim(['--mentions', '200', '--projects', '25', '--limits', 'off'], (started) => (sim = started));

describe('project list (D-10)', () => {
	test('20 per page, ids from 1001, cursor null on the last page; Basic key', async () => {
		const p1 = await api(sim, 'GET', '/projects', { key: BASIC });
		expect(p1.status).toBe(200);
		expect(p1.json.data).toHaveLength(20);
		expect(p1.json.data[0]).toEqual({ id: 1001, name: 'Acme Mobile' });
		expect(Object.keys(p1.json.data[5]).sort()).toEqual(['id', 'name']);
		const p2 = await api(sim, 'GET', '/projects', {
			key: BASIC,
			query: { cursor: p1.json.cursor },
		});
		expect(p2.json.data.map((p: Loose) => p.id)[0]).toBe(1021);
		expect(p2.json.cursor).toBeNull();
		const all = [...p1.json.data, ...p2.json.data];
		expect(all.length).toBeGreaterThanOrEqual(25);
		expect(new Set(all.map((p: Loose) => p.id)).size).toBe(all.length);
	});

	test('malformed cursor → 400', async () => {
		const res = await api(sim, 'GET', '/projects', { query: { cursor: 'zzz' } });
		expect(res.status).toBe(400);
	});
});

describe('create / update / delete (D-11)', () => {
	test('create → 201 {id, name, query}; listed; searchable and empty', async () => {
		const res = await api(sim, 'POST', '/projects', {
			key: BASIC,
			body: { name: 'Brand X', query: '"brand x" OR brandx*' },
		});
		expect(res.status).toBe(201);
		expect(res.json).toEqual({
			id: expect.any(Number),
			name: 'Brand X',
			query: '"brand x" OR brandx*',
		});
		const id = res.json.id;
		const list = await api(sim, 'GET', '/projects', {
			query: { cursor: (await api(sim, 'GET', '/projects')).json.cursor },
		});
		expect(list.json.data).toContainEqual({ id, name: 'Brand X' });
		const s = await search(sim, id, {});
		expect(s.status).toBe(200);
		expect(s.json).toEqual({ data: [], cursor: null });
		// Live collection can add to it; generated texts match its query.
		const [m] = await addMentions(sim, id, 1);
		const hit = await search(sim, id, { filters: { content: { query: '"brand x" OR brandx*' } } });
		expect(hit.json.data.map((x: Loose) => x.id)).toEqual([m.id]);
	});

	test('update → 200 with both fields; delete → 204 empty, then 404', async () => {
		const id = await createProject(sim, 'Old', 'old');
		const up = await api(sim, 'PUT', `/projects/${id}`, {
			body: { name: 'New', query: 'new OR newer' },
		});
		expect(up.status).toBe(200);
		expect(up.json).toEqual({ id, name: 'New', query: 'new OR newer' });
		const del = await api(sim, 'DELETE', `/projects/${id}`);
		expect(del.status).toBe(204);
		expect(del.text).toBe('');
		const again = await api(sim, 'DELETE', `/projects/${id}`);
		expect(again.status).toBe(404);
		expect(again.json).toEqual({ message: `Project ${id} not found.` });
		expect((await search(sim, id, {})).status).toBe(404);
		expect(
			(await api(sim, 'PUT', `/projects/${id}`, { body: { name: 'a', query: 'a' } })).status,
		).toBe(404);
	});

	test('validation: 422 per field, all at once', async () => {
		const res = await api(sim, 'POST', '/projects', { body: { name: '  ', query: 'a AND' } });
		expect(res.status).toBe(422);
		expect(Object.keys(res.json.requestFieldErrors).sort()).toEqual(['name', 'query']);
		const missing = await api(sim, 'POST', '/projects', { body: {} });
		expect(missing.json.requestFieldErrors).toEqual({ name: ['required.'], query: ['required.'] });
		const long = await api(sim, 'POST', '/projects', {
			body: { name: 'n'.repeat(256), query: 'q'.repeat(251) },
		});
		expect(Object.keys(long.json.requestFieldErrors).sort()).toEqual(['name', 'query']);
		const ok = await api(sim, 'POST', '/projects', {
			body: { name: 'n'.repeat(255), query: 'ok' },
		});
		expect(ok.status).toBe(201);
		const put = await api(sim, 'PUT', '/projects/1001', { body: { name: 'only name' } });
		expect(put.status).toBe(422);
		expect(Object.keys(put.json.requestFieldErrors)).toEqual(['query']);
	});

	test('the "mame" spelling: 422 on name with the explaining message', async () => {
		const res = await api(sim, 'POST', '/projects', { body: { mame: 'Typo', query: 'typo' } });
		expect(res.status).toBe(422);
		expect(res.json.requestFieldErrors).toEqual({
			name: ['required (the field is "name"; "mame" is not accepted)'],
		});
		const both = await api(sim, 'POST', '/projects', {
			body: { mame: 'Typo', name: 'Right', query: 'typo' },
		});
		expect(both.status).toBe(201);
		expect(both.json.name).toBe('Right');
	});

	test('format errors → 400: not an object, wrong JSON types; bad ids → 400', async () => {
		for (const raw of ['[]', '"x"', '{', '']) {
			expect((await api(sim, 'POST', '/projects', { raw })).status).toBe(400);
		}
		expect((await api(sim, 'POST', '/projects', { body: { name: 5, query: 'a' } })).status).toBe(
			400,
		);
		expect(
			(await api(sim, 'POST', '/projects', { body: { name: 'a', query: ['a'] } })).status,
		).toBe(400);
		const bad = await api(sim, 'PUT', '/projects/abc', { body: { name: 'a', query: 'a' } });
		expect(bad.status).toBe(400);
		expect(bad.json).toEqual({ message: 'projectId must be a positive integer.' });
		expect((await api(sim, 'DELETE', '/projects/0')).status).toBe(400);
	});
});

describe('tagging (D-22)', () => {
	let mentionId: string;
	beforeAll(async () => {
		const pid = await createProject(sim, 'Tags', 'tags');
		[{ id: mentionId }] = await addMentions(sim, pid, 1, { overrides: { tags: [] } });
		(globalThis as Loose).tagProject = pid;
	});
	const pid = () => (globalThis as Loose).tagProject as number;
	const path = () => `/projects/${pid()}/mentions/${mentionId}/tags`;

	test('add: 200 {id, tags}, idempotent; visible in search; listed with counts', async () => {
		const a = await api(sim, 'POST', path(), { body: { tags: ['lead', ' vip '] } });
		expect(a.status).toBe(200);
		expect(a.json).toEqual({ id: mentionId, tags: ['lead', 'vip'] });
		const b = await api(sim, 'POST', path(), { body: { tags: ['lead', 'lead'] } });
		expect(b.json).toEqual({ id: mentionId, tags: ['lead', 'vip'] });
		const s = await search(sim, pid(), {});
		expect(s.json.data[0].tags).toEqual(['lead', 'vip']);
		const list = await api(sim, 'GET', `/projects/${pid()}/tags`);
		expect(list.status).toBe(200);
		expect(list.json).toEqual({
			data: [
				{ name: 'lead', mentionCount: 1 },
				{ name: 'vip', mentionCount: 1 },
			],
			cursor: null,
		});
	});

	test('remove: 200 with the remaining tags; removing an absent tag is a no-op; tag stays listed', async () => {
		const r = await api(sim, 'DELETE', path(), { body: { tags: ['vip', 'never-had'] } });
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ id: mentionId, tags: ['lead'] });
		const again = await api(sim, 'DELETE', path(), { body: { tags: ['vip'] } });
		expect(again.json.tags).toEqual(['lead']);
		const list = await api(sim, 'GET', `/projects/${pid()}/tags`);
		expect(list.json.data).toContainEqual({ name: 'vip', mentionCount: 0 });
		expect((await search(sim, pid(), {})).json.data[0].tags).toEqual(['lead']);
	});

	test('Enterprise only', async () => {
		const res = await api(sim, 'POST', path(), { key: BASIC, body: { tags: ['x'] } });
		expect(res.status).toBe(401);
		expect(res.json.message).toContain('Enterprise');
	});

	test('422 on tags: empty list, empty name, comma, too long, too many; 400 wrong types', async () => {
		for (const tags of [
			[],
			[''],
			['  '],
			['a,b'],
			['t'.repeat(101)],
			Array.from({ length: 51 }, (_, i) => `t${i}`),
		]) {
			const res = await api(sim, 'POST', path(), { body: { tags } });
			expect(res.status).toBe(422);
			expect(Object.keys(res.json.requestFieldErrors)).toEqual(['tags']);
		}
		expect((await api(sim, 'POST', path(), { body: {} })).status).toBe(422);
		expect((await api(sim, 'POST', path(), { body: { tags: 'lead' } })).status).toBe(400);
		expect((await api(sim, 'POST', path(), { body: { tags: [1] } })).status).toBe(400);
		expect((await api(sim, 'POST', path(), { raw: 'x' })).status).toBe(400);
	});

	test('404: unknown project, unknown mention (D-22 message)', async () => {
		const p = await api(sim, 'POST', `/projects/424242/mentions/${mentionId}/tags`, {
			body: { tags: ['a'] },
		});
		expect(p.json).toEqual({ message: 'Project 424242 not found.' });
		const m = await api(sim, 'POST', `/projects/${pid()}/mentions/nope/tags`, {
			body: { tags: ['a'] },
		});
		expect(m.status).toBe(404);
		expect(m.json).toEqual({ message: `Mention nope not found in project ${pid()}.` });
	});

	test('seeded data: some mentions carry tags and the tag list counts them', async () => {
		const { mentions } = await searchAll(sim, 1001, {});
		const tagged = mentions.filter((m) => m.tags?.length);
		expect(tagged.length).toBeGreaterThan(0);
		const list = await api(sim, 'GET', '/projects/1001/tags');
		const total = list.json.data.reduce((n: number, t: Loose) => n + t.mentionCount, 0);
		expect(total).toBe(tagged.reduce((n, m) => n + m.tags.length, 0));
	});

	test('admin reset restores the seeded state', async () => {
		await admin(sim, 'POST', '/reset');
		expect((await api(sim, 'GET', `/projects/${pid()}/tags`)).status).toBe(404);
	});
});
