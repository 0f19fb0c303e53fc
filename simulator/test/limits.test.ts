// Hourly windows aligned to the UTC hour (D-07), the 429 bodies (D-08), the monthly mentions cap
// (D-09), and the admin limit controls.

import {
	admin,
	api,
	search,
	useSim,
	stream,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { BASIC, ENTERPRISE } from '../../test/support/keys';

let sim: Sim;
useSim(['--mentions', '400'], (started) => (sim = started), { reset: true });

const hourly = (limit: number, reset: string) =>
	`Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is ${limit}. Limits will reset at ${reset}.`;

test('search: 30 per hour, one budget shared by recent and historical search', async () => {
	for (let i = 0; i < 15; i++) {
		const r = await search(sim, 1001, {}, { recent: true });
		expect(r.status).toBe(200);
		expect(r.headers.get('x-rate-limit-remaining')).toBe(String(29 - i));
	}
	for (let i = 0; i < 15; i++) expect((await search(sim, 1001, {})).status).toBe(200);
	for (const recent of [true, false]) {
		const res = await search(sim, 1001, {}, { recent });
		expect(res.status).toBe(429);
		expect(res.json).toEqual({ message: hourly(30, '2026-11-21T11:00:00.000Z') });
		expect(res.headers.get('x-rate-limit-limit')).toBe('30');
		expect(res.headers.get('x-rate-limit-remaining')).toBe('0');
		expect(res.headers.get('x-rate-limit-reset')).toBe(
			String(Date.parse('2026-11-21T11:00:00Z') / 1000),
		);
	}
	// Budgets are per key: the Basic key still has its own 30.
	const basic = await search(sim, 1001, {}, { recent: true, key: BASIC });
	expect(basic.status).toBe(200);
	expect(basic.headers.get('x-rate-limit-remaining')).toBe('29');
	// Other groups are unaffected.
	expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	// 429s are not counted.
	const log = (await admin(sim, 'GET', '/requests')).requests;
	expect(log.filter((r: Loose) => r.status === 429).every((r: Loose) => !r.counted)).toBe(true);
});

test('projects: 300 per hour shared by list and create/update/delete', async () => {
	const created = await api(sim, 'POST', '/projects', { body: { name: 'P', query: 'p' } });
	expect(created.headers.get('x-rate-limit-remaining')).toBe('299');
	for (let i = 0; i < 298; i++) await api(sim, 'GET', '/projects');
	const last = await api(sim, 'DELETE', `/projects/${created.json.id}`);
	expect(last.status).toBe(204);
	expect(last.headers.get('x-rate-limit-remaining')).toBe('0');
	const res = await api(sim, 'GET', '/projects');
	expect(res.status).toBe(429);
	expect(res.json).toEqual({ message: hourly(300, '2026-11-21T11:00:00.000Z') });
});

test('the window resets at the top of the UTC hour', async () => {
	await admin(sim, 'POST', '/limits', { hourly: { search: 2 } });
	await search(sim, 1001, {});
	await search(sim, 1001, {});
	expect((await search(sim, 1001, {})).status).toBe(429);
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T10:59:59.999Z' });
	const before = await search(sim, 1001, {});
	expect(before.status).toBe(429);
	expect(before.json.message).toContain('Limits will reset at 2026-11-21T11:00:00.000Z.');
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T11:00:00.000Z' });
	const after = await search(sim, 1001, {});
	expect(after.status).toBe(200);
	expect(after.headers.get('x-rate-limit-remaining')).toBe('1');
	expect(after.headers.get('x-rate-limit-reset')).toBe(
		String(Date.parse('2026-11-21T12:00:00Z') / 1000),
	);
});

test('admin limits: tiny limits, resetWindows, mode off', async () => {
	const eff = await admin(sim, 'POST', '/limits', { hourly: { projects: 1 } });
	expect(eff.hourly.projects).toBe(1);
	expect(eff.hourly.search).toBe(30);
	expect(eff.concurrency).toEqual({
		projects: 0,
		search: 0,
		tags: 0,
		export: 2,
		live: 2,
		engagement: 1,
	});
	expect(eff.monthlyCap).toEqual({ basic: 10000, enterprise: 100000000 });
	expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	expect((await api(sim, 'GET', '/projects')).status).toBe(429);
	await admin(sim, 'POST', '/limits', { resetWindows: true });
	expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	await admin(sim, 'POST', '/limits', { mode: 'off' });
	for (let i = 0; i < 3; i++) {
		const r = await api(sim, 'GET', '/projects');
		expect(r.status).toBe(200);
		expect(r.headers.get('x-rate-limit-remaining')).toBe('1');
	}
});

test('stream groups: 5 export streams per hour, shared by recent and historical export', async () => {
	for (let i = 0; i < 5; i++) {
		const path =
			i % 2
				? '/projects/1001/mentions/search/stream?limit=1'
				: '/projects/1001/mentions/recent/search/stream?limit=1';
		const res = await stream(sim, path);
		expect(res.status).toBe(200);
		expect(res.end).toBe('complete');
	}
	const res = await stream(sim, '/projects/1001/mentions/search/stream?limit=1');
	expect(res.status).toBe(429);
	expect(JSON.parse(res.body)).toEqual({ message: hourly(5, '2026-11-21T11:00:00.000Z') });
	expect(res.headers['x-rate-limit-remaining']).toBe('0');
	// The live stream has its own budget.
	const live = await stream(sim, '/projects/1001/mentions/recent/search/stream/live', {
		timeoutMs: 200,
	});
	expect(live.status).toBe(200);
});

describe('monthly mentions cap (D-09)', () => {
	const capMessage = (cap: number) =>
		`Monthly mentions cap of ${cap} has been exceeded. The cap resets at 2026-12-01T00:00:00.000Z.`;

	test('a page that would cross the cap is cut; the next request answers 429', async () => {
		await admin(sim, 'POST', '/limits', { monthlyCap: { basic: 30 } });
		const p1 = await search(sim, 1001, {}, { recent: true, key: BASIC });
		expect(p1.json.data).toHaveLength(25);
		const p2 = await search(
			sim,
			1001,
			{},
			{ recent: true, key: BASIC, query: { cursor: p1.json.cursor } },
		);
		expect(p2.status).toBe(200);
		expect(p2.json.data).toHaveLength(5);
		expect(typeof p2.json.cursor).toBe('string');
		const p3 = await search(
			sim,
			1001,
			{},
			{ recent: true, key: BASIC, query: { cursor: p2.json.cursor } },
		);
		expect(p3.status).toBe(429);
		expect(p3.json).toEqual({ message: capMessage(30) });
		// Every mention-returning endpoint refuses, the project list does not.
		const s = await stream(sim, '/projects/1001/mentions/recent/search/stream', { key: BASIC });
		expect(s.status).toBe(429);
		expect(JSON.parse(s.body)).toEqual({ message: capMessage(30) });
		expect((await api(sim, 'GET', '/projects', { key: BASIC })).status).toBe(200);
		// The Enterprise tier has its own cap.
		expect((await search(sim, 1001, {}, { recent: true, key: ENTERPRISE })).status).toBe(200);
		const stats = await admin(sim, 'GET', '/stats');
		expect(stats.monthlyMentions).toEqual({ basic: 30, enterprise: 25 });
		// A new calendar month resets the cap.
		await admin(sim, 'POST', '/clock', { now: '2026-12-01T00:00:00.000Z' });
		expect((await search(sim, 1001, {}, { recent: true, key: BASIC })).status).toBe(200);
	});

	test('stream events count against the cap; an export cut by the cap breaks the connection', async () => {
		await admin(sim, 'POST', '/limits', { monthlyCap: { enterprise: 40 } });
		const res = await stream(sim, '/projects/1001/mentions/search/stream', {
			accept: 'application/x-ndjson',
		});
		expect(res.status).toBe(200);
		expect(res.end).toBe('error');
		expect(res.body.split('\n').filter((l) => l.includes('"event":"mention"'))).toHaveLength(40);
		const next = await search(sim, 1001, {});
		expect(next.status).toBe(429);
		expect(next.json.message).toBe(capMessage(40));
	});
});
