/* eslint-disable @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Fault injection and the admin API.

import {
	addMentions,
	admin,
	api,
	countEvents,
	openStream,
	parseSse,
	raw,
	search,
	startSim,
	useSim,
	stream,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { sleep } from '../../test/support/wait';
import { NOW, NOW_MS } from '../../test/support/time';
import { ENTERPRISE } from '../../test/support/keys';

let sim: Sim;
useSim(['--mentions', '300', '--limits', 'off'], (started) => (sim = started), { reset: true });

const H = { 'x-api-key': 'SENTIONE-APIKEY-enterprise-demo', 'content-type': 'application/json' };

describe('scripted responses', () => {
	test('json with status and headers, matched by method/path/group, one-shot by default', async () => {
		await admin(sim, 'POST', '/faults', {
			script: [
				{
					match: { method: 'GET', path: '^/projects$' },
					respond: {
						kind: 'json',
						status: 502,
						body: { message: 'boom' },
						headers: { 'retry-after': '1' },
					},
				},
			],
		});
		const a = await api(sim, 'GET', '/projects');
		expect(a.status).toBe(502);
		expect(a.json).toEqual({ message: 'boom' });
		expect(a.headers.get('retry-after')).toBe('1');
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	});

	test('times, group match, html and text kinds', async () => {
		await admin(sim, 'POST', '/faults', {
			script: [
				{ match: { group: 'search' }, times: 2, respond: { kind: 'html', status: 502 } },
				{ match: { group: 'search' }, respond: { kind: 'text', status: 500, body: 'oops' } },
			],
		});
		for (let i = 0; i < 2; i++) {
			const r = await search(sim, 1001, {});
			expect(r.status).toBe(502);
			expect(r.headers.get('content-type')).toBe('text/html');
			expect(r.text).toContain('<html>');
		}
		const t = await search(sim, 1001, {});
		expect([t.status, t.text, t.headers.get('content-type')]).toEqual([500, 'oops', 'text/plain']);
		expect((await search(sim, 1001, {})).status).toBe(200);
		expect((await admin(sim, 'GET', '/faults')).script).toEqual([]);
	});

	test('truncated-json: 200, application/json, half a document', async () => {
		await admin(sim, 'POST', '/faults', { script: [{ respond: { kind: 'truncated-json' } }] });
		const r = await search(sim, 1001, {});
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toBe('application/json');
		expect(r.text.startsWith('{"data":[')).toBe(true);
		expect(() => JSON.parse(r.text)).toThrow();
	});

	test('huge: a valid JSON body over 50 MB', async () => {
		await admin(sim, 'POST', '/faults', { script: [{ respond: { kind: 'huge' } }] });
		const r = await raw(sim, '/projects', { method: 'GET', headers: H, timeoutMs: 20_000 });
		expect(r.status).toBe(200);
		expect(r.end).toBe('complete');
		expect(r.body.length).toBeGreaterThan(50 * 1024 * 1024);
		expect(JSON.parse(r.body).cursor).toBeNull();
	});

	test('hang: no answer until the client gives up; reset: socket destroyed without a response', async () => {
		await admin(sim, 'POST', '/faults', {
			script: [{ respond: { kind: 'hang' } }, { respond: { kind: 'reset' } }],
		});
		const hung = await raw(sim, '/projects', { method: 'GET', headers: H, timeoutMs: 300 }).catch(
			(e: Error) => e,
		);
		expect(hung).toHaveProperty('message', 'no response before the timeout'); // no response at all
		const reset = await raw(sim, '/projects', { method: 'GET', headers: H }).catch((e: Error) => e);
		expect(reset).toHaveProperty('code', 'ECONNRESET');
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
		const log = (await admin(sim, 'GET', '/requests')).requests;
		expect(log.slice(0, 2).map((r: Loose) => r.status)).toEqual([null, null]);
	});
});

describe('request log', () => {
	test('records the body (parsed JSON or text), Accept and Content-Type, never the key', async () => {
		await admin(sim, 'DELETE', '/requests');
		await search(sim, 1001, {
			filters: { content: { sentiment: ['Negative'] } },
			sortType: 'CollectedAtAscending',
		});
		await api(sim, 'POST', '/projects', { raw: 'not json' });
		await api(sim, 'GET', '/projects');
		const log = (await admin(sim, 'GET', '/requests')).requests;
		expect(log[0].body).toEqual({
			filters: { content: { sentiment: ['Negative'] } },
			sortType: 'CollectedAtAscending',
		});
		expect(log[0].contentType).toBe('application/json');
		expect(log[1].body).toBe('not json');
		expect(log[2].body).toBeNull();
		expect(JSON.stringify(log)).not.toContain('APIKEY');
	});
});

describe('other faults', () => {
	test('force429: the D-08 hourly 429 with headers, then normal again', async () => {
		await admin(sim, 'POST', '/faults', { force429: { group: 'search', times: 2 } });
		for (let i = 0; i < 2; i++) {
			const r = await search(sim, 1001, {});
			expect(r.status).toBe(429);
			expect(r.json.message).toBe(
				'Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at 2026-11-21T11:00:00.000Z.',
			);
			expect(r.headers.get('x-rate-limit-remaining')).toBe('0');
		}
		expect((await search(sim, 1001, {})).status).toBe(200);
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
	});

	test('latencyMs: a client that gives up during the delay takes no stream slot', async () => {
		await admin(sim, 'POST', '/faults', { latencyMs: 400 });
		const gaveUp = await raw(sim, '/projects/1001/mentions/recent/search/stream/live', {
			headers: {
				'x-api-key': ENTERPRISE,
				'content-type': 'application/json',
				accept: 'text/event-stream',
			},
			body: '{}',
			timeoutMs: 100,
		}).catch((e: Error) => e);
		expect(gaveUp).toBeInstanceOf(Error);
		await sleep(600);
		expect((await admin(sim, 'GET', '/stats')).groups.live.open).toBe(0);
		await admin(sim, 'DELETE', '/faults');
	});

	test('errorRate + errorStatus (seeded), latencyMs', async () => {
		await admin(sim, 'POST', '/faults', { errorRate: 1, errorStatus: 500 });
		const r = await api(sim, 'GET', '/projects');
		expect(r.status).toBe(500);
		expect(typeof r.json.message).toBe('string');
		await admin(sim, 'DELETE', '/faults');
		await admin(sim, 'POST', '/faults', { latencyMs: 200 });
		const start = Date.now();
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
		expect(Date.now() - start).toBeGreaterThanOrEqual(190);
		await admin(sim, 'POST', '/faults', { errorRate: 0.5 });
		const statuses: number[] = [];
		await admin(sim, 'POST', '/faults', { latencyMs: 0 });
		for (let i = 0; i < 20; i++) statuses.push((await api(sim, 'GET', '/projects')).status);
		expect(statuses).toContain(503);
		expect(statuses).toContain(200);
	});

	test('repeatCursor: every page returns the same cursor', async () => {
		await admin(sim, 'POST', '/faults', { repeatCursor: true });
		const p1 = await search(sim, 1001, {});
		const p2 = await search(sim, 1001, {}, { query: { cursor: p1.json.cursor } });
		const p3 = await search(sim, 1001, {}, { query: { cursor: p2.json.cursor } });
		expect(p2.json.cursor).toBe(p1.json.cursor);
		expect(p3.json.cursor).toBe(p1.json.cursor);
	});

	test('indexLagMs: new mentions searchable only that long after collectedAt', async () => {
		await admin(sim, 'POST', '/faults', { indexLagMs: 60_000 });
		const [m] = await addMentions(sim, 1001, 1, {
			collectedAt: new Date(NOW_MS - 30_000).toISOString(),
		});
		expect(m.collectedAt).toBe(new Date(NOW_MS - 30_000).toISOString());
		const body = { filters: { collectedAt: { from: new Date(NOW_MS - 40_000).toISOString() } } };
		expect((await search(sim, 1001, body)).json.data.map((x: Loose) => x.id)).not.toContain(m.id);
		expect(
			(
				await admin(sim, 'POST', '/count', {
					projectId: 1001,
					mode: 'historical',
					filters: body.filters,
				})
			).count,
		).toBe(0);
		await admin(sim, 'POST', '/clock', { advanceMs: 30_000 });
		expect((await search(sim, 1001, body)).json.data.map((x: Loose) => x.id)).toContain(m.id);
	});
});

describe('stream faults', () => {
	const exp = '/projects/1001/mentions/search/stream';

	test('dropAfterBytes + dropTimes: the first connection breaks mid-body, the next is whole', async () => {
		await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 5000, dropTimes: 1 } });
		const a = await stream(sim, `${exp}?limit=50`);
		expect(a.status).toBe(200);
		expect(a.end).toBe('error');
		expect(Buffer.byteLength(a.body)).toBe(5000);
		const b = await stream(sim, `${exp}?limit=50`);
		expect(b.end).toBe('complete');
		expect(countEvents(b.body, 'mention')).toBe(50);
	});

	test('malformedEvery: every k-th mention event carries broken JSON', async () => {
		await admin(sim, 'POST', '/faults', { stream: { malformedEvery: 3 } });
		const r = await stream(sim, `${exp}?limit=9`);
		const events = parseSse(r.body);
		const broken = events.filter((e) => {
			try {
				JSON.parse(e.data);
				return false;
			} catch {
				return true;
			}
		});
		expect(events).toHaveLength(9);
		expect(broken.map((e) => events.indexOf(e))).toEqual([2, 5, 8]);
	});

	test('unknownEventEvery: an event kind the client does not know', async () => {
		await admin(sim, 'POST', '/faults', { stream: { unknownEventEvery: 2 } });
		const r = await stream(sim, `${exp}?limit=4`);
		const kinds = parseSse(r.body).map((e) => e.event);
		expect(kinds).toEqual(['mention', 'notice', 'mention', 'mention', 'notice', 'mention']);
	});

	test('stallAfterEvents: then nothing at all, not even heartbeats, socket open', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 2, heartbeatMs: 30 } });
		const s = await openStream(sim, exp);
		await s.until((b) => countEvents(b, 'mention') === 2);
		await new Promise((r) => setTimeout(r, 250));
		expect(parseSse(s.body()).map((e) => e.event)).toEqual(['mention', 'mention']);
		expect(s.ended()).toBeNull();
		s.close();
	});

	test('chunkBytes: the body arrives in small pieces and still parses', async () => {
		await admin(sim, 'POST', '/faults', { stream: { chunkBytes: 512 } });
		const r = await stream(sim, `${exp}?limit=5`, { accept: 'application/x-ndjson' });
		expect(r.end).toBe('complete');
		expect(r.chunks).toBeGreaterThan(5);
		expect(
			r.body
				.split('\n')
				.filter(Boolean)
				.map((l) => JSON.parse(l).event),
		).toEqual(Array(5).fill('mention'));
	});

	test('heartbeatMs fault changes the interval', async () => {
		await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 20 } });
		const s = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live');
		await s.until((b) => countEvents(b, 'heartbeat') >= 5, 2000);
		s.close();
	});
});

describe('admin API', () => {
	test('health, stats, faults round trip, bad input → 400', async () => {
		expect(await admin(sim, 'GET', '/health')).toEqual({ ok: true, now: NOW });
		await search(sim, 1001, {});
		await api(sim, 'GET', '/projects', { key: null });
		const stats = await admin(sim, 'GET', '/stats');
		expect(stats.groups.search).toEqual({ requests: 1, counted: 1, open: 0 });
		expect(stats.groups.projects).toEqual({ requests: 1, counted: 0, open: 0 });
		expect(stats.mentionsPerProject).toEqual({ 1001: 300, 1002: 300, 1003: 300 });
		expect(stats.monthlyMentions.enterprise).toBe(25);
		const f = await admin(sim, 'POST', '/faults', { latencyMs: 5, stream: { chunkBytes: 10 } });
		expect(f).toMatchObject({ latencyMs: 5, stream: { chunkBytes: 10 } });
		const merged = await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 10 } });
		expect(merged.stream).toEqual({ chunkBytes: 10, heartbeatMs: 10 });
		const cleared = await admin(sim, 'DELETE', '/faults');
		expect(cleared).toMatchObject({ latencyMs: 0, script: [], stream: {} });
		const bad = await fetch(sim.base + '/__admin/faults', {
			method: 'POST',
			body: '{"errorRate": 7}',
		});
		expect(bad.status).toBe(400);
	});

	test('clock: now, advanceMs, frozen', async () => {
		expect(await admin(sim, 'POST', '/clock', { advanceMs: 1500 })).toEqual({
			now: '2026-11-21T10:30:01.500Z',
		});
		expect(await admin(sim, 'POST', '/clock', { now: '2026-12-24T18:00:00Z' })).toEqual({
			now: '2026-12-24T18:00:00.000Z',
		});
		await admin(sim, 'POST', '/clock', { frozen: false });
		await new Promise((r) => setTimeout(r, 50));
		const { now } = await admin(sim, 'POST', '/clock', { frozen: true });
		expect(Date.parse(now)).toBeGreaterThan(Date.parse('2026-12-24T18:00:00Z'));
		await admin(sim, 'POST', '/reset');
		expect((await admin(sim, 'GET', '/health')).now).toBe(NOW);
	});

	test('mentions: add with overrides and instants, list ground truth, count', async () => {
		const added = await addMentions(sim, 1002, 3, {
			overrides: { content: { sentiment: 'Negative' }, source: { type: 'Reviews' } },
			collectedAt: '2026-11-21T10:00:00Z',
			publishedAt: '2026-11-21T09:00:00Z',
		});
		expect(added).toHaveLength(3);
		for (const m of added) {
			expect(m.content.sentiment).toBe('Negative');
			expect(m.source.type).toBe('Reviews');
			expect(m.collectedAt).toBe('2026-11-21T10:00:00.000Z');
			expect(m.publishedAt).toBe('2026-11-21T09:00:00.000Z');
			expect(typeof m.content.text === 'string' || m.content.text === null).toBe(true);
		}
		const list = await admin(
			sim,
			'GET',
			'/mentions?projectId=1002&collectedFrom=2026-11-21T10:00:00Z&collectedTo=2026-11-21T10:00:00.001Z',
		);
		expect(list.mentions.map((m: Loose) => m.id).sort()).toEqual(added.map((m) => m.id).sort());
		expect(Object.keys(list.mentions[0]).sort()).toEqual([
			'collectedAt',
			'id',
			'publishedAt',
			'sentiment',
			'sourceType',
			'type',
		]);
		const { count } = await admin(sim, 'POST', '/count', {
			projectId: 1002,
			mode: 'recent',
			filters: {
				source: { type: ['Reviews'] },
				content: { sentiment: ['Negative'] },
				collectedAt: { from: '2026-11-21T10:00:00Z', to: '2026-11-21T10:00:00.001Z' },
			},
		});
		expect(count).toBe(3);
		const before = (await admin(sim, 'GET', '/requests')).requests.length;
		expect(before).toBe(0); // admin calls are not logged
	});

	test('generated data looks real: every enum value, optional fields, unknown field', async () => {
		const { mentions } = await admin(sim, 'GET', '/mentions?projectId=1001&full=1');
		const set = (f: (m: Loose) => unknown) => new Set(mentions.map(f));
		expect(set((m) => m.source.type).size).toBe(12);
		expect(set((m) => m.type).size).toBe(5);
		expect(set((m) => m.content.sentiment).size).toBe(4);
		expect(set((m) => m.author.gender).size).toBe(3);
		expect(mentions.some((m: Loose) => m.content.title)).toBe(true);
		expect(mentions.some((m: Loose) => m.discussion?.id)).toBe(true);
		expect(mentions.some((m: Loose) => m.context?.parent?.content?.text)).toBe(true);
		expect(mentions.some((m: Loose) => m.deprecatedV1Fields?.id)).toBe(true);
		expect(mentions.some((m: Loose) => m.location === undefined)).toBe(true);
		expect(
			mentions
				.filter((m: Loose) => m.content.review)
				.every((m: Loose) => m.source.type === 'Reviews'),
		).toBe(true);
		expect(
			mentions
				.filter((m: Loose) => m.engagementMetrics.sourceMetrics.facebook)
				.every((m: Loose) => m.source.type === 'Facebook'),
		).toBe(true);
		expect(
			mentions
				.filter((m: Loose) => m.engagementMetrics.sourceMetrics.twitter)
				.every((m: Loose) => m.source.type === 'X'),
		).toBe(true);
		for (const m of mentions)
			expect(Date.parse(m.collectedAt)).toBeGreaterThanOrEqual(Date.parse(m.publishedAt));
		const big = await startSim(['--mentions', '3000', '--projects', '1', '--seed', '7']);
		try {
			const all = (await admin(big, 'GET', '/mentions?projectId=1001&full=1')).mentions;
			expect(all.some((m: Loose) => 'sentioneInternalScore' in m)).toBe(true);
			// Same seed → same data.
			const again = await startSim([
				'--mentions',
				'3000',
				'--projects',
				'1',
				'--seed',
				'7',
				'--no-admin',
			]);
			try {
				const r = await api(again, 'POST', '/projects/1001/mentions/search', { body: {} });
				const r2 = await api(big, 'POST', '/projects/1001/mentions/search', { body: {} });
				expect(r.json).toEqual(r2.json);
				expect((await fetch(again.base + '/__admin/health')).status).toBe(404);
			} finally {
				await again.stop();
			}
		} finally {
			await big.stop();
		}
	});

	test('generated mentions are coherent: text in the language of its code, country where it is spoken, topics of the project', async () => {
		// where each language is written (a mention without a language can be from anywhere)
		const countries: Record<string, string[]> = {
			en: ['US', 'GB', 'IN', 'CA', 'AU'],
			'en-gb': ['GB'],
			pl: ['PL'],
			de: ['DE', 'AT'],
			fr: ['FR'],
			es: ['ES', 'MX'],
			it: ['IT'],
			pt: ['BR', 'PT'],
			nl: ['NL'],
			sv: ['SE'],
			uk: ['UA'],
		};
		const english = /(?<!\p{L})(the|is|with|about|your|has|anyone|my|for|what|it|more)(?!\p{L})/iu;
		// words of one project's topics that another project's mentions never hold
		const own: Record<number, RegExp> = {
			1001: /battery|camera|screen|5G|Akku|bateria|batería|batteria|batterij|batteri|батарея/i,
			1002: /espresso|roast|beans|coffee|café|kawiarnia|ziarna|Bohnen|caffè|кав/i,
			1003: /mortgage|account|loan|banking|kredyt|konto|Konto|hipoteca|mutuo|іпотека/i,
		};
		// the projects' queries (the project list does not show them)
		const queries: Record<number, string> = {
			1001: '"acme mobile" OR acme OR acmephone*',
			1002: '"nordic coffee" OR nordicbrew* OR (nordic AND (espresso OR roast))',
			1003: '"vistula bank" OR vistulabank OR (vistula AND (loan OR mortgage OR account))',
		};
		for (const projectId of [1001, 1002, 1003]) {
			const { mentions } = await admin(sim, 'GET', `/mentions?projectId=${projectId}&full=1`);
			const texts = (m: Loose) =>
				[m.content.text, m.content.title, m.context?.parent?.content?.text].filter(
					(t): t is string => typeof t === 'string',
				);
			for (const m of mentions as Loose[]) {
				const code: string | undefined = m.content.language?.code;
				const country: string | undefined = m.location?.country?.code;
				if (code && country)
					expect({ id: m.id, code, country: countries[code].includes(country) }).toEqual({
						id: m.id,
						code,
						country: true,
					});
				for (const text of texts(m)) {
					// Ukrainian is written in Cyrillic, nothing else is
					expect({ code, text, cyrillic: /\p{Script=Cyrillic}/u.test(text) }).toEqual({
						code,
						text,
						cyrillic: code === 'uk',
					});
					if (code && !code.startsWith('en'))
						expect({ code, text, english: english.test(text.replace(/#\S+|@\S+/g, '')) }).toEqual({
							code,
							text,
							english: false,
						});
					for (const [other, words] of Object.entries(own)) {
						if (Number(other) !== projectId)
							expect({ projectId, text, foreign: words.test(text) }).toEqual({
								projectId,
								text,
								foreign: false,
							});
					}
				}
			}
			// the project's own topics come up, and every text or title matches the project's query
			expect(mentions.some((m: Loose) => own[projectId].test(m.content.text ?? ''))).toBe(true);
			const { count } = await admin(sim, 'POST', '/count', {
				projectId,
				mode: 'historical',
				filters: { content: { query: queries[projectId] } },
			});
			expect(count).toBe(mentions.filter((m: Loose) => m.content.text || m.content.title).length);
		}
	});

	test('flags: --legacy-heartbeat', async () => {
		const s2 = await startSim([
			'--mentions',
			'10',
			'--projects',
			'1',
			'--legacy-heartbeat',
			'--heartbeat-ms',
			'40',
		]);
		try {
			const s = await openStream(s2, '/projects/1001/mentions/recent/search/stream/live');
			await s.until((b) => b.includes('event: heartbeat'));
			expect(s.body()).toContain(`data: ${NOW}\n`);
			s.close();
		} finally {
			await s2.stop();
		}
	});
});
