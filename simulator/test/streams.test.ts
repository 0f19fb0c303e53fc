// Streams (D-23…D-33): export (SSE and both JSON-lines types), limit, order, normal end,
// anonymization, the live stream (backfill, new mentions, random order, concurrency), the
// engagement updates stream, heartbeats.

import { createHash } from 'node:crypto';

import {
	addMentions,
	admin,
	api,
	countEvents,
	createProject,
	openStream,
	parseLines,
	parseSse,
	searchAll,
	useSim,
	stream,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { waitFor } from '../../test/support/wait';
import { NOW, NOW_MS } from '../../test/support/time';
import { BASIC } from '../../test/support/keys';

let sim: Sim;
useSim(
	['--mentions', '600', '--limits', 'off', '--heartbeat-ms', '150'],
	(started) => (sim = started),
);

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const mentionsOf = (body: string) =>
	parseSse(body)
		.filter((e) => e.event === 'mention')
		.map((e) => JSON.parse(e.data));

describe('export streams', () => {
	test('SSE: event/data/id frames, id = mention id, search order, normal end', async () => {
		const body = {
			filters: { source: { type: ['X', 'Facebook', 'Reddit'] } },
			sortType: 'LikeCountDescending',
		};
		const res = await stream(sim, '/projects/1001/mentions/recent/search/stream', {
			body,
			accept: 'text/event-stream',
		});
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('text/event-stream');
		expect(res.end).toBe('complete');
		const first = res.body.split('\n\n')[0].split('\n');
		expect(first[0]).toBe('event: mention');
		expect(first[1].startsWith('data: {')).toBe(true);
		expect(first[2]).toMatch(/^id: [0-9a-f]{24}$/);
		const events = parseSse(res.body).filter((e) => e.event === 'mention');
		for (const e of events) expect(JSON.parse(e.data).id).toBe(e.id);
		const { mentions } = await searchAll(sim, 1001, body, { recent: true });
		expect(events.map((e) => e.id)).toEqual(mentions.map((m) => m.id));
		expect(events.length).toBeGreaterThan(25);
	});

	test('historical export, every sort: same order as the paginated search', async () => {
		for (const sortType of [
			'PublishedAtAscending',
			'CollectedAtDescending',
			'FollowerCountDescending',
		]) {
			const res = await stream(sim, '/projects/1002/mentions/search/stream', {
				body: { sortType },
				accept: 'application/x-ndjson',
			});
			const { mentions } = await searchAll(sim, 1002, { sortType });
			expect(parseLines(res.body).map((e) => e.id)).toEqual(mentions.map((m) => m.id));
		}
	});

	test.each([
		['application/x-ndjson', 'application/x-ndjson'],
		['application/json', 'application/json'],
		['text/html;q=0.9, application/x-ndjson;q=0.5', 'application/x-ndjson'],
	])('JSON lines with Accept %s → Content-Type %s', async (accept, type) => {
		const res = await stream(sim, '/projects/1001/mentions/search/stream?limit=7', { accept });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe(type);
		const lines = res.body.split('\n').filter(Boolean);
		expect(lines).toHaveLength(7);
		for (const l of lines) {
			const o = JSON.parse(l);
			expect(Object.keys(o)).toEqual(['event', 'data', 'id']);
			expect(o.event).toBe('mention');
			expect(o.data.id).toBe(o.id);
		}
		expect(res.end).toBe('complete');
	});

	test('limit caps the number of mentions; 0 → 422, not an integer → 400', async () => {
		const res = await stream(sim, '/projects/1001/mentions/search/stream?limit=3');
		expect(countEvents(res.body, 'mention')).toBe(3);
		const zero = await stream(sim, '/projects/1001/mentions/search/stream?limit=0');
		expect(zero.status).toBe(422);
		expect(Object.keys(JSON.parse(zero.body).requestFieldErrors)).toEqual(['limit']);
		const nan = await stream(sim, '/projects/1001/mentions/search/stream?limit=ten');
		expect(nan.status).toBe(400);
		expect(JSON.parse(nan.body).message).toContain('limit');
	});

	test('stream bodies follow the search validation (400, 404, 422) before the stream starts', async () => {
		expect((await stream(sim, '/projects/1001/mentions/search/stream', { body: 'x' })).status).toBe(
			400,
		);
		expect((await stream(sim, '/projects/9999/mentions/search/stream')).status).toBe(404);
		const r = await stream(sim, '/projects/1001/mentions/recent/search/stream', {
			body: { filters: { publishedAt: { from: '2020-01-01T00:00:00Z' } } },
		});
		expect(r.status).toBe(422);
		expect(Object.keys(JSON.parse(r.body).requestFieldErrors)).toEqual([
			'filters.publishedAt.from',
		]);
	});

	test('anonymization=author: author id/name and discussion author hashed (SHA-256 hex), avatar null', async () => {
		const plain = mentionsOf(
			(await stream(sim, '/projects/1001/mentions/search/stream?limit=200')).body,
		);
		const anon = mentionsOf(
			(await stream(sim, '/projects/1001/mentions/search/stream?limit=200&anonymization=author'))
				.body,
		);
		expect(anon.map((m) => m.id)).toEqual(plain.map((m) => m.id));
		const names = new Map<string, string>();
		for (let i = 0; i < plain.length; i++) {
			const p = plain[i];
			const a = anon[i];
			expect(a.author.name).toBe(p.author.name === null ? null : sha(p.author.name));
			expect(a.author.id).toBe(p.author.id === null ? null : sha(p.author.id));
			expect(a.author.avatar).toBeNull();
			if (p.discussion)
				expect(a.discussion.author.name).toBe(
					p.discussion.author.name === null ? null : sha(p.discussion.author.name),
				);
			expect(a.source).toEqual(p.source);
			expect(a.content).toEqual(p.content);
			if (a.author.name) {
				// same input → same hash
				if (names.has(p.author.name)) expect(names.get(p.author.name)).toBe(a.author.name);
				names.set(p.author.name, a.author.name);
				expect(a.author.name).toMatch(/^[0-9a-f]{64}$/);
			}
		}
		const repeated = plain.filter(
			(m, i) => plain.findIndex((x) => x.author.name === m.author.name) !== i,
		);
		expect(repeated.length).toBeGreaterThan(0);
	});

	test('anonymization=all also hashes the social channel and the parent author; other values → 422', async () => {
		const plain = mentionsOf(
			(await stream(sim, '/projects/1001/mentions/search/stream?limit=200')).body,
		);
		const anon = mentionsOf(
			(await stream(sim, '/projects/1001/mentions/search/stream?limit=200&anonymization=all')).body,
		);
		let parents = 0;
		for (let i = 0; i < plain.length; i++) {
			const ch = plain[i].source.socialChannel;
			expect(anon[i].source.socialChannel).toEqual({
				id: ch.id === null ? null : sha(ch.id),
				name: ch.name === null ? null : sha(ch.name),
			});
			expect(anon[i].source.mentionUrl).toBe(plain[i].source.mentionUrl);
			if (plain[i].context?.parent?.author?.name) {
				parents++;
				expect(anon[i].context.parent.author.name).toBe(sha(plain[i].context.parent.author.name));
			}
		}
		expect(parents).toBeGreaterThan(0);
		const bad = await stream(sim, '/projects/1001/mentions/search/stream?anonymization=names');
		expect(bad.status).toBe(422);
		expect(Object.keys(JSON.parse(bad.body).requestFieldErrors)).toEqual(['anonymization']);
	});

	test('tier: recent export is Basic, historical export Enterprise', async () => {
		expect(
			(await stream(sim, '/projects/1001/mentions/recent/search/stream?limit=1', { key: BASIC }))
				.status,
		).toBe(200);
		expect(
			(await stream(sim, '/projects/1001/mentions/search/stream?limit=1', { key: BASIC })).status,
		).toBe(401);
	});

	test('a large export streams completely (backpressure) and matches the ground truth', async () => {
		const pid = await createProject(sim, 'Bulk', 'bulk');
		for (let i = 0; i < 4; i++) await addMentions(sim, pid, 2500);
		const res = await stream(sim, `/projects/${pid}/mentions/search/stream`, {
			accept: 'application/x-ndjson',
		});
		expect(res.end).toBe('complete');
		const ids = parseLines(res.body)
			.filter((e) => e.event === 'mention')
			.map((e) => e.id);
		expect(ids).toHaveLength(10_000);
		expect(new Set(ids).size).toBe(10_000);
	});
});

describe('live stream', () => {
	const live = '/projects/1003/mentions/recent/search/stream/live';

	afterEach(() => admin(sim, 'POST', '/reset'));

	test('new mentions arrive as collected; filters apply; heartbeats keep it alive', async () => {
		const s = await openStream(sim, live, { body: { filters: { type: ['Comment', 'Post'] } } });
		expect(s.status).toBe(200);
		expect(s.headers['content-type']).toBe('text/event-stream');
		await s.until((b) => countEvents(b, 'heartbeat') >= 1);
		expect(countEvents(s.body(), 'mention')).toBe(0);
		const added = await addMentions(sim, 1003, 40);
		const expected = added.filter((m) => ['Comment', 'Post'].includes(m.type)).map((m) => m.id);
		await s.until((b) => countEvents(b, 'mention') >= expected.length);
		const got = mentionsOf(s.body()).map((m) => m.id);
		expect([...got].sort()).toEqual([...expected].sort());
		// Random order: not the collection order, not published order.
		expect(got).not.toEqual(expected);
		s.close();
	});

	test('live collection over time (--live-rate via admin) with the clock', async () => {
		const s = await openStream(sim, live, { accept: 'application/x-ndjson' });
		await admin(sim, 'POST', '/live', { ratePerMinute: 30 });
		await admin(sim, 'POST', '/clock', { advanceMs: 120_000 });
		await s.until((b) => b.split('\n').filter((l) => l.includes('"event":"mention"')).length >= 60);
		const events = parseLines(s.body()).filter((e) => e.event === 'mention');
		expect(events).toHaveLength(60);
		for (const e of events) {
			const m = JSON.parse(e.data);
			expect(Date.parse(m.collectedAt)).toBeGreaterThan(NOW_MS);
			expect(Date.parse(m.collectedAt)).toBeLessThanOrEqual(NOW_MS + 120_000);
		}
		s.close();
		// The collected mentions are searchable too.
		const { count } = await admin(sim, 'POST', '/count', {
			projectId: 1003,
			mode: 'recent',
			filters: { collectedAt: { from: new Date(NOW_MS + 1).toISOString() } },
		});
		expect(count).toBe(60);
	});

	test('backfillMinutes: the mentions collected in the last n minutes; 0–5 only', async () => {
		await addMentions(sim, 1003, 4, { collectedAt: new Date(NOW_MS - 2 * 60_000).toISOString() });
		const old = await addMentions(sim, 1003, 2, {
			collectedAt: new Date(NOW_MS - 6 * 60_000).toISOString(),
		});
		const truth = await admin(
			sim,
			'GET',
			`/mentions?projectId=1003&collectedFrom=${new Date(NOW_MS - 5 * 60_000).toISOString()}`,
		);
		expect(truth.mentions.length).toBeGreaterThanOrEqual(4);
		const s = await openStream(sim, `${live}?backfillMinutes=5`);
		await s.until((b) => countEvents(b, 'mention') >= truth.mentions.length);
		const got = mentionsOf(s.body()).map((m) => m.id);
		expect([...got].sort()).toEqual(truth.mentions.map((m: Loose) => m.id).sort());
		for (const o of old) expect(got).not.toContain(o.id);
		s.close();
		for (const v of ['6', '-1']) {
			const r = await stream(sim, `${live}?backfillMinutes=${v}`);
			expect(r.status).toBe(422);
			expect(Object.keys(JSON.parse(r.body).requestFieldErrors)).toEqual(['backfillMinutes']);
		}
		expect((await stream(sim, `${live}?backfillMinutes=two`)).status).toBe(400);
	});

	test('sortType is refused on live streams', async () => {
		const r = await stream(sim, live, { body: { sortType: 'PublishedAtDescending' } });
		expect(r.status).toBe(422);
		expect(JSON.parse(r.body).requestFieldErrors).toEqual({
			sortType: ['sorting is not supported on live streams.'],
		});
	});

	test('concurrency: 2 open → the third gets 429; released after disconnect', async () => {
		await admin(sim, 'POST', '/limits', { mode: 'spec' });
		const a = await openStream(sim, live, { key: BASIC });
		const b = await openStream(sim, live, { key: BASIC });
		expect([a.status, b.status]).toEqual([200, 200]);
		const c = await stream(sim, live, { key: BASIC });
		expect(c.status).toBe(429);
		expect(JSON.parse(c.body)).toEqual({
			message:
				'Maximum number of concurrent connections for this endpoint is 2. Close an open stream and try again.',
		});
		// Per key: the Enterprise key has its own two.
		const e = await openStream(sim, live);
		expect(e.status).toBe(200);
		expect((await admin(sim, 'GET', '/stats')).groups.live.open).toBe(3);
		a.close();
		await waitFor(async () => (await admin(sim, 'GET', '/stats')).groups.live.open === 2);
		const d = await openStream(sim, live, { key: BASIC });
		expect(d.status).toBe(200);
		for (const s of [b, d, e]) s.close();
	});

	test('export concurrency: 2', async () => {
		await admin(sim, 'POST', '/limits', { mode: 'spec' });
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 1 } });
		const a = await openStream(sim, '/projects/1001/mentions/search/stream');
		const b = await openStream(sim, '/projects/1001/mentions/search/stream');
		const c = await stream(sim, '/projects/1001/mentions/recent/search/stream');
		expect(c.status).toBe(429);
		a.close();
		b.close();
	});
});

describe('engagement updates stream', () => {
	const path = '/mentions/engagement/updates/stream/live';
	afterEach(() => admin(sim, 'POST', '/reset'));

	test('engagementUpdate events: mentionId, engagementMetrics, updatedAt; reflected in search', async () => {
		const s = await openStream(sim, path, { accept: 'application/x-ndjson' });
		expect(s.status).toBe(200);
		const { updates } = await admin(sim, 'POST', '/engagement', { count: 5 });
		expect(updates).toHaveLength(5);
		await s.until((b) => b.split('\n').filter((l) => l.includes('engagementUpdate')).length >= 5);
		const events = parseLines(s.body()).filter((e) => e.event === 'engagementUpdate');
		const data = events.map((e) => JSON.parse(e.data));
		expect(data).toEqual(updates);
		for (let i = 0; i < events.length; i++) {
			expect(Object.keys(data[i])).toEqual(['mentionId', 'engagementMetrics', 'updatedAt']);
			expect(events[i].id).toBe(`${data[i].mentionId}:${data[i].updatedAt}`);
			expect(data[i].updatedAt).toBe(NOW);
		}
		s.close();
		const last = data[data.length - 1];
		const truth = (
			await admin(sim, 'GET', '/mentions?full=1&projectId=' + (await projectOf(last.mentionId)))
		).mentions;
		const m = truth.find((x: Loose) => x.id === last.mentionId);
		expect(m.engagementMetrics).toEqual(last.engagementMetrics);
		// Only mentions published within the last month get updates.
		for (const u of data) {
			const pid = await projectOf(u.mentionId);
			const mm = (await admin(sim, 'GET', `/mentions?projectId=${pid}`)).mentions.find(
				(x: Loose) => x.id === u.mentionId,
			);
			expect(Date.parse(mm.publishedAt)).toBeGreaterThanOrEqual(NOW_MS - 30 * 24 * 3600_000);
		}
	});

	test('several updates of one mention at one instant never share an updatedAt (nor an event id)', async () => {
		const first = (await admin(sim, 'POST', '/engagement', { count: 1 })).updates[0];
		const { updates } = await admin(sim, 'POST', '/engagement', {
			mentionId: first.mentionId,
			count: 3,
		});
		const instants = [first, ...updates].map((u: Loose) => u.updatedAt);
		expect(new Set(instants).size).toBe(4);
	});

	test('rate over time, backfill, Enterprise only, 1 concurrent connection', async () => {
		await admin(sim, 'POST', '/limits', { mode: 'spec' });
		await admin(sim, 'POST', '/live', { engagementPerMinute: 60 });
		await admin(sim, 'POST', '/clock', { advanceMs: 10_000 });
		const s = await openStream(sim, `${path}?backfillMinutes=1`);
		await s.until((b) => countEvents(b, 'engagementUpdate') >= 10);
		const second = await stream(sim, path);
		expect(second.status).toBe(429);
		expect(JSON.parse(second.body).message).toContain(
			'concurrent connections for this endpoint is 1',
		);
		s.close();
		expect((await stream(sim, path, { key: BASIC })).status).toBe(401);
		expect((await stream(sim, `${path}?backfillMinutes=9`)).status).toBe(422);
	});

	async function projectOf(mentionId: string): Promise<number> {
		for (const pid of [1001, 1002, 1003]) {
			const list = (await admin(sim, 'GET', `/mentions?projectId=${pid}`)).mentions;
			if (list.some((m: Loose) => m.id === mentionId)) return pid;
		}
		throw new Error('mention not found');
	}
});

describe('heartbeats', () => {
	afterEach(() => admin(sim, 'POST', '/reset'));

	test('object form: data {"date": UTC ms Z}, id with +00:00; interval from --heartbeat-ms', async () => {
		const s = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live');
		const start = Date.now();
		await s.until((b) => countEvents(b, 'heartbeat') >= 3);
		expect(Date.now() - start).toBeGreaterThanOrEqual(300);
		const hb = parseSse(s.body()).find((e) => e.event === 'heartbeat')!;
		expect(JSON.parse(hb.data)).toEqual({ date: NOW });
		expect(hb.id).toBe('2026-11-21T10:30:00.000+00:00');
		s.close();
		const j = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live', {
			accept: 'application/json',
		});
		await j.until((b) => b.includes('heartbeat'));
		expect(JSON.parse(j.body().split('\n')[0])).toEqual({
			event: 'heartbeat',
			data: { date: NOW },
			id: '2026-11-21T10:30:00.000+00:00',
		});
		j.close();
	});

	test('legacy form via fault: bare timestamp (unquoted in SSE, a JSON string in JSON lines)', async () => {
		await admin(sim, 'POST', '/faults', { stream: { legacyHeartbeat: true, heartbeatMs: 50 } });
		const s = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live');
		await s.until((b) => b.includes('event: heartbeat'));
		expect(s.body().split('\n\n')[0]).toBe(
			`event: heartbeat\ndata: ${NOW}\nid: 2026-11-21T10:30:00.000+00:00`,
		);
		s.close();
		const j = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live', {
			accept: 'application/x-ndjson',
		});
		await j.until((b) => b.includes('heartbeat'));
		expect(JSON.parse(j.body().split('\n')[0]).data).toBe(NOW);
		j.close();
	});

	test('the heartbeat date follows the server clock', async () => {
		await admin(sim, 'POST', '/clock', { now: '2026-11-21T12:00:00.000Z' });
		const s = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live');
		await s.until((b) => b.includes('event: heartbeat'));
		expect(s.body()).toContain('data: {"date":"2026-11-21T12:00:00.000Z"}');
		s.close();
	});

	test('heartbeats also flow on the engagement stream', async () => {
		const s = await openStream(sim, '/mentions/engagement/updates/stream/live');
		await s.until((b) => countEvents(b, 'heartbeat') >= 1);
		s.close();
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	});
});
