/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- simulator/test code: not shipped in the package */
// Variants (variants.ts): every switch of the family of plausible APIs, proved against the default
// (the D-nn decisions); the admin API keeps telling the truth; the CLI flag and the admin
// endpoint; rawPath in the request log and routing from the raw target.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	addMentions,
	admin,
	api,
	countEvents,
	createProject,
	integersAbove2To53,
	openStream,
	parseSse,
	raw,
	search,
	searchAll,
	startSim,
	useSim,
	stream,
	type Loose,
	type Res,
	type Sim,
} from '../../test/support/simulator';
import { REPO_ROOT } from '../../test/support/paths';
import { DAY, NOW_MS } from '../../test/support/time';
import { BASIC, ENTERPRISE } from '../../test/support/keys';

const REPO = REPO_ROOT;

let sim: Sim;
useSim(
	['--mentions', '300', '--history-days', '30', '--limits', 'off'],
	(started) => (sim = started),
	{ reset: true },
);

const iso = (ms: number) => new Date(ms).toISOString();
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const setVariant = (body: Record<string, string>) => admin(sim, 'POST', '/variant', body);

/** POST to the admin variant endpoint without throwing on a 4xx. */
async function postVariant(body: unknown): Promise<{ status: number; json: Loose }> {
	const res = await fetch(sim.base + '/__admin/variant', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, json: await res.json() };
}

const DEFAULTS = {
	collectedAt: 'range',
	language: 'objects',
	country: 'objects',
	sentiment: 'applied',
	sourceType: 'applied',
	mentionType: 'applied',
	publishedAt: 'applied',
	query: 'applied',
	anonymization: 'applied',
	routes: 'present',
	notFoundMessage: 'specific',
	authOrder: '415-first',
	rateWindow: 'aligned',
	exportHeartbeats: 'on',
	cursor: 'keyset',
	lastCursor: 'null',
	engagementPayload: 'full',
	bigCounts: 'off',
};

describe('switching variants: admin endpoint and CLI flag', () => {
	test('GET shows the defaults; POST merges and returns the effective config; DELETE restores', async () => {
		expect(await admin(sim, 'GET', '/variant')).toEqual(DEFAULTS);
		const merged = await setVariant({
			filters: 'ignored-announced',
			routes: 'absent:removeTags,addTags',
		});
		expect(merged).toEqual({
			...DEFAULTS,
			collectedAt: 'ignored',
			language: 'ignored',
			country: 'ignored',
			routes: 'absent:addTags+removeTags',
		});
		const again = await setVariant({ cursor: 'offset', language: 'strings' });
		expect(again).toEqual({ ...merged, cursor: 'offset', language: 'strings' });
		// the effective config round-trips: POSTing it back changes nothing
		expect(await setVariant(again)).toEqual(again);
		// every announced route named = absent
		const all =
			'absent:createProject+updateProject+deleteProject+recentExport+engagementStream+listTags+addTags+removeTags';
		expect((await setVariant({ routes: all })).routes).toBe('absent');
		expect(await admin(sim, 'DELETE', '/variant')).toEqual(DEFAULTS);
	});

	test('a bad key or value → 400 naming the key and the allowed values; nothing changes', async () => {
		const bad = await postVariant({ lastCursor: 'absent', collectedAt: 'since' });
		expect(bad.status).toBe(400);
		expect(bad.json.message).toBe(
			'variant "collectedAt": "since" is not allowed. Allowed values: range, ignored, exclusive, seconds, string-since.',
		);
		expect((await admin(sim, 'GET', '/variant')).lastCursor).toBe('null');
		const unknown = await postVariant({ heartbeat: 'off' });
		expect(unknown.status).toBe(400);
		expect(unknown.json.message).toMatch(
			/^unknown variant key "heartbeat"\. Known keys: collectedAt, .*exportHeartbeats/,
		);
		const notString = await postVariant({ cursor: 1 });
		expect(notString.json.message).toBe(
			'variant "cursor" must be a string. Allowed values: keyset, offset.',
		);
		const confirmed = await postVariant({ routes: 'absent:liveStream' });
		expect(confirmed.status).toBe(400);
		expect(confirmed.json.message).toContain('"liveStream" cannot be absent');
		expect(confirmed.json.message).toContain(
			'createProject, updateProject, deleteProject, recentExport',
		);
		expect((await postVariant(['cursor=offset'])).status).toBe(400);
	});

	test('--variant (repeatable, comma-separated) sets the startup variant; reset returns to it', async () => {
		const other = await startSim([
			'--mentions',
			'10',
			'--variant',
			'collectedAt=string-since,routes=absent:addTags,removeTags',
			'--variant',
			'cursor=offset',
		]);
		try {
			const startup = {
				...DEFAULTS,
				collectedAt: 'string-since',
				routes: 'absent:addTags+removeTags',
				cursor: 'offset',
			};
			expect(await admin(other, 'GET', '/variant')).toEqual(startup);
			expect(other.stderr()).toContain(
				'variant collectedAt=string-since,routes=absent:addTags+removeTags,cursor=offset',
			);
			await admin(other, 'POST', '/variant', { lastCursor: 'absent', collectedAt: 'range' });
			await admin(other, 'POST', '/reset');
			expect(await admin(other, 'GET', '/variant')).toEqual(startup);
		} finally {
			await other.stop();
		}
	});

	test('a bad --variant stops the CLI with a message naming the key and the allowed values', async () => {
		await expect(startSim(['--variant', 'language=codes'])).rejects.toThrow(
			'simulator: --variant: variant "language": "codes" is not allowed. Allowed values: objects, ignored, strings, strings-tolerant.',
		);
		await expect(startSim(['--variant', 'authOrder'])).rejects.toThrow('must be written key=value');
		await expect(startSim(['--variant', 'routes=absent:historicalExport'])).rejects.toThrow(
			'variant "routes": "historicalExport" cannot be absent',
		);
	});

	test('the README table is the one --help-variants prints (variants.ts is the source)', () => {
		const out = spawnSync(process.execPath, ['simulator/src/cli.ts', '--help-variants'], {
			cwd: REPO,
			encoding: 'utf8',
		});
		expect(out.status).toBe(0);
		const table = out.stdout.trim();
		expect(table.split('\n')).toHaveLength(2 + Object.keys(DEFAULTS).length + 1);
		// a boolean, so a failure does not print the README (it lists the demo keys)
		const readme = readFileSync(join(REPO, 'simulator', 'README.md'), 'utf8');
		expect({ readmeHasTheTable: readme.includes(table) }).toEqual({ readmeHasTheTable: true });
	});
});

describe('filters: `ignored` accepts the body and does not filter', () => {
	const text = (m: Loose) => `${m.content?.text ?? ''} ${m.content?.title ?? ''}`.toLowerCase();
	const cases: Array<[string, Loose, Loose, (m: Loose) => boolean]> = [
		[
			'collectedAt',
			{
				filters: { collectedAt: { from: iso(NOW_MS - 3 * DAY) } },
				sortType: 'CollectedAtAscending',
			},
			{ filters: { collectedAt: 'yesterday' } },
			(m) => Date.parse(m.collectedAt) >= NOW_MS - 3 * DAY,
		],
		[
			'publishedAt',
			{
				filters: { publishedAt: { from: iso(NOW_MS - 3 * DAY) } },
				sortType: 'PublishedAtAscending',
			},
			{ filters: { publishedAt: { from: iso(NOW_MS + DAY) } } },
			(m) => Date.parse(m.publishedAt) >= NOW_MS - 3 * DAY,
		],
		[
			'language',
			{ filters: { content: { language: [{ code: 'de' }] } } },
			{ filters: { content: { language: 'de' } } },
			(m) => m.content.language?.code === 'de',
		],
		[
			'country',
			{ filters: { location: { country: [{ code: 'DE' }] } } },
			{ filters: { location: { country: 'DE' } } },
			(m) => m.location?.country?.code === 'DE',
		],
		[
			'sentiment',
			{ filters: { content: { sentiment: ['Negative'] } } },
			{ filters: { content: { sentiment: ['Happy'] } } },
			(m) => m.content.sentiment === 'Negative',
		],
		[
			'sourceType',
			{ filters: { source: { type: ['Reddit'] } } },
			{ filters: { source: { type: ['Twitter'] } } },
			(m) => m.source.type === 'Reddit',
		],
		[
			'mentionType',
			{ filters: { type: ['Comment'] } },
			{ filters: { type: ['Tweet'] } },
			(m) => m.type === 'Comment',
		],
		[
			'query',
			{ filters: { content: { query: '"customer service"' } } },
			{ filters: { content: { query: 'a AND' } } },
			(m) => text(m).includes('customer service'),
		],
	];

	test.each(cases)('%s', async (key, body, refused, keeps) => {
		const strict = await search(sim, 1001, body);
		expect(strict.status).toBe(200);
		expect(strict.json.data.length).toBeGreaterThan(0);
		expect(strict.json.data.every(keeps)).toBe(true);
		expect([400, 422]).toContain((await search(sim, 1001, refused)).status);

		await setVariant({ [key]: 'ignored' });
		const loose = await search(sim, 1001, body);
		expect(loose.status).toBe(200);
		expect(loose.json.data.some((m: Loose) => !keeps(m))).toBe(true);
		// the key is unknown to this server: a value the default refuses is accepted
		expect((await search(sim, 1001, refused)).status).toBe(200);
	});

	test('filters=ignored-announced ignores collectedAt, language and country, nothing else', async () => {
		const v = await setVariant({ filters: 'ignored-announced' });
		expect(v).toEqual({
			...DEFAULTS,
			collectedAt: 'ignored',
			language: 'ignored',
			country: 'ignored',
		});
		const body = { filters: { content: { language: [{ code: 'de' }], sentiment: ['Negative'] } } };
		const res = await search(sim, 1001, body);
		expect(res.json.data.every((m: Loose) => m.content.sentiment === 'Negative')).toBe(true);
		expect(res.json.data.some((m: Loose) => m.content.language?.code !== 'de')).toBe(true);
	});

	test('the admin API keeps the truth: count and ground truth apply D-14 whatever the variant', async () => {
		const filters = { content: { language: [{ code: 'de' }], sentiment: ['Negative'] } };
		const truth = (
			await admin(sim, 'POST', '/count', { projectId: 1001, mode: 'historical', filters })
		).count;
		const ground = await admin(sim, 'GET', '/mentions?projectId=1001');
		expect(truth).toBeGreaterThan(0);
		await setVariant({ filters: 'ignored-announced', sentiment: 'ignored', language: 'strings' });
		expect(
			(await admin(sim, 'POST', '/count', { projectId: 1001, mode: 'historical', filters })).count,
		).toBe(truth);
		expect(await admin(sim, 'GET', '/mentions?projectId=1001')).toEqual(ground);
		// while the public API, reading the same body, now returns everything
		await setVariant({ language: 'ignored' });
		const { mentions } = await searchAll(sim, 1001, { filters });
		expect(mentions).toHaveLength(ground.mentions.length);
	});
});

describe('other shapes of the unconfirmed filter values', () => {
	const T0 = NOW_MS - 3600_000; // 09:30:00.000
	let ids: { before: string; at: string; half: string; next: string };
	let projectId: number;

	/** A project of four mentions collected around T0, in two languages and two countries. */
	async function shapeProject(): Promise<void> {
		projectId = await createProject(sim, 'Shapes');
		const add = async (col: number, lang: string, country: string) =>
			(
				await addMentions(sim, projectId, 1, {
					collectedAt: iso(col),
					overrides: {
						content: { language: { code: lang } },
						location: { country: { code: country } },
					},
				})
			)[0].id as string;
		ids = {
			before: await add(T0 - 1000, 'en', 'PL'),
			at: await add(T0, 'de', 'DE'),
			half: await add(T0 + 500, 'en', 'PL'),
			next: await add(T0 + 1000, 'de', 'DE'),
		};
	}
	beforeEach(shapeProject);

	const found = async (filters: unknown): Promise<string[]> => {
		const res = await search(sim, projectId, { filters });
		if (res.status !== 200) throw new Error(`search → ${res.status}: ${res.text}`);
		return res.json.data.map((m: Loose) => m.id).sort();
	};
	const sorted = (...xs: string[]) => xs.sort();

	test('collectedAt=exclusive: a mention collected exactly at `from` is left out', async () => {
		const filters = { collectedAt: { from: iso(T0) } };
		expect(await found(filters)).toEqual(sorted(ids.at, ids.half, ids.next));
		await setVariant({ collectedAt: 'exclusive' });
		expect(await found(filters)).toEqual(sorted(ids.half, ids.next));
	});

	test('collectedAt=seconds: a `from` with a fraction is rounded up to the next second', async () => {
		const filters = { collectedAt: { from: iso(T0 + 200) } };
		expect(await found(filters)).toEqual(sorted(ids.half, ids.next));
		await setVariant({ collectedAt: 'seconds' });
		expect(await found(filters)).toEqual([ids.next]);
		expect(await found({ collectedAt: { from: iso(T0) } })).toEqual(
			sorted(ids.at, ids.half, ids.next),
		);
	});

	test('collectedAt=string-since: a date-time string means at or after; the D-14 object → 400', async () => {
		const since = { collectedAt: iso(T0) };
		const object = { collectedAt: { from: iso(T0) } };
		const refused = await search(sim, projectId, { filters: since });
		expect(refused.status).toBe(400);
		expect(refused.json.message).toContain('filters.collectedAt: expected an object');

		await setVariant({ collectedAt: 'string-since' });
		expect(await found(since)).toEqual(sorted(ids.at, ids.half, ids.next));
		const ours = await search(sim, projectId, { filters: object });
		expect(ours.status).toBe(400);
		expect(ours.json.message).toBe(
			'filters.collectedAt: expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z (collected at or after).',
		);
		const future = await search(sim, projectId, { filters: { collectedAt: iso(NOW_MS + 60_000) } });
		expect(future.status).toBe(422);
		expect(Object.keys(future.json.requestFieldErrors)).toEqual(['filters.collectedAt']);
	});

	test.each([
		[
			'language',
			'filters.content.language',
			(codes: unknown) => ({ content: { language: codes } }),
			'de',
		],
		[
			'country',
			'filters.location.country',
			(codes: unknown) => ({ location: { country: codes } }),
			'DE',
		],
	] as const)('%s=strings and strings-tolerant', async (key, path, filters, code) => {
		const objects = filters([{ code }]);
		const strings = filters([code]);
		const de = sorted(ids.at, ids.next);
		const all = sorted(ids.before, ids.at, ids.half, ids.next);
		// default: objects filter, strings are refused
		expect(await found(objects)).toEqual(de);
		expect((await search(sim, projectId, { filters: strings })).status).toBe(400);

		await setVariant({ [key]: 'strings' });
		expect(await found(strings)).toEqual(de);
		const refused = await search(sim, projectId, { filters: objects });
		expect(refused.status).toBe(400);
		expect(refused.json.message).toBe(
			`${path}: expected an array of strings such as ["${key === 'language' ? 'en' : 'PL'}"].`,
		);

		await setVariant({ [key]: 'strings-tolerant' });
		expect(await found(strings)).toEqual(de);
		// our objects are entries it cannot read: dropped silently, nothing filtered
		expect(await found(objects)).toEqual(all);
		expect(await found(filters([{ code }, code]))).toEqual(de);
	});
});

describe('anonymization', () => {
	const exportNames = async (
		query: string,
	): Promise<{ status: number; names: Map<string, string | null>; body: string }> => {
		const res = await stream(sim, `/projects/1001/mentions/search/stream?limit=10&${query}`);
		const names = new Map<string, string | null>();
		if (res.status === 200) {
			for (const e of parseSse(res.body).filter((x) => x.event === 'mention')) {
				names.set(e.id, JSON.parse(e.data).author.name);
			}
		}
		return { status: res.status, names, body: res.body };
	};
	let clear: Map<string, string | null>;
	beforeEach(async () => {
		const { mentions } = await admin(sim, 'GET', '/mentions?projectId=1001&full=1');
		clear = new Map(mentions.map((m: Loose) => [m.id, m.author.name]));
	});
	const inClear = (names: Map<string, string | null>) => {
		expect(names.size).toBe(10);
		expect([...names.values()].some((n) => n !== null)).toBe(true);
		for (const [id, name] of names) expect(name).toBe(clear.get(id));
	};
	const hashed = (names: Map<string, string | null>) => {
		expect(names.size).toBe(10);
		for (const [id, name] of names) {
			const original = clear.get(id);
			expect(name).toBe(original === null ? null : sha(original!));
		}
	};

	test('default: `anonymization` hashes; `anonymize` is an unknown parameter', async () => {
		hashed((await exportNames('anonymization=author')).names);
		inClear((await exportNames('anonymize=author')).names);
	});

	test('anonymization=ignored: the parameter is accepted whatever its value; authors in clear', async () => {
		await setVariant({ anonymization: 'ignored' });
		inClear((await exportNames('anonymization=author')).names);
		const bogus = await exportNames('anonymization=everything');
		expect(bogus.status).toBe(200);
		inClear(bogus.names);
	});

	test('anonymization=renamed: the parameter is `anonymize`; `anonymization` is ignored', async () => {
		await setVariant({ anonymization: 'renamed' });
		inClear((await exportNames('anonymization=author')).names);
		hashed((await exportNames('anonymize=author')).names);
		const bad = await exportNames('anonymize=everything');
		expect(bad.status).toBe(422);
		expect(Object.keys(JSON.parse(bad.body).requestFieldErrors)).toEqual(['anonymize']);
	});
});

describe('routes=absent: announced routes answer exactly like an unknown path', () => {
	const ACCEPT = 'text/event-stream';
	const announced: Array<[string, string, string, Loose, string?]> = [
		['updateProject', 'PUT', '/projects/1001', { name: 'N', query: 'n' }],
		['listTags', 'GET', '/projects/1001/tags', undefined],
		['addTags', 'POST', '/projects/1001/mentions/MID/tags', { tags: ['vip'] }],
		['removeTags', 'DELETE', '/projects/1001/mentions/MID/tags', { tags: ['vip'] }],
		['recentExport', 'POST', '/projects/1001/mentions/recent/search/stream?limit=1', {}, ACCEPT],
		['engagementStream', 'POST', '/mentions/engagement/updates/stream/live', {}, ACCEPT],
		['deleteProject', 'DELETE', '/projects/1001', undefined], // last: it deletes project 1001
	];
	let mid: string;
	beforeEach(async () => {
		mid = (await admin(sim, 'GET', '/mentions?projectId=1001')).mentions[0].id;
	});
	const call = (method: string, path: string, body: Loose, accept?: string): Promise<Res> =>
		path.includes('/stream')
			? raw(sim, path, {
					method,
					headers: { 'x-api-key': ENTERPRISE, 'content-type': 'application/json', accept: accept! },
					body: JSON.stringify(body),
					timeoutMs: 300,
				}).then((r) => ({
					status: r.status,
					headers: new Headers(r.headers as Record<string, string>),
					text: r.body,
					json: undefined,
				}))
			: api(sim, method, path.replace('MID', mid), { body, accept });
	const same = (a: Res, b: Res) => {
		expect(a.status).toBe(b.status);
		expect(a.text).toBe(b.text);
		for (const h of [
			'content-type',
			'allow',
			'x-rate-limit-limit',
			'x-rate-limit-remaining',
			'x-rate-limit-reset',
		]) {
			expect([h, a.headers.get(h)]).toEqual([h, b.headers.get(h)]);
		}
	};

	test('present by default', async () => {
		for (const [, method, path, body, accept] of announced) {
			expect([200, 204]).toContain((await call(method, path, body, accept)).status);
		}
		expect((await api(sim, 'POST', '/projects', { body: { name: 'P', query: 'p' } })).status).toBe(
			201,
		);
	});

	test('routes=absent: 404 like an unknown path, 405 + Allow where another method remains', async () => {
		await setVariant({ routes: 'absent' });
		const unknown = await api(sim, 'GET', '/nothing/here');
		expect(unknown.status).toBe(404);
		for (const [, method, path, body, accept] of announced)
			same(await call(method, path, body, accept), unknown);
		// POST /projects: the path keeps GET, so it answers like a method the path never had
		const create = await api(sim, 'POST', '/projects', { body: { name: 'P', query: 'p' } });
		expect(create.status).toBe(405);
		expect(create.headers.get('allow')).toBe('GET');
		same(create, await api(sim, 'DELETE', '/projects'));
		// nothing was counted or grouped, as for an unknown path
		const log = (await admin(sim, 'GET', '/requests')).requests;
		expect(
			log
				.filter((r: Loose) => r.status === 404)
				.every((r: Loose) => r.group === null && !r.counted),
		).toBe(true);
		// confirmed routes stay
		expect((await api(sim, 'GET', '/projects')).status).toBe(200);
		expect((await search(sim, 1001, {}, { recent: true })).status).toBe(200);
		expect((await stream(sim, '/projects/1001/mentions/search/stream?limit=1')).status).toBe(200);
		expect(
			(await stream(sim, '/projects/1001/mentions/recent/search/stream/live', { timeoutMs: 200 }))
				.status,
		).toBe(200);
	});

	test('routes=absent:<list> takes away only those', async () => {
		await setVariant({ routes: 'absent:addTags+removeTags+createProject' });
		const unknown = await api(sim, 'GET', '/nothing/here');
		for (const [name, method, path, body, accept] of announced) {
			const res = await call(method, path, body, accept);
			if (name === 'addTags' || name === 'removeTags') same(res, unknown);
			else expect([200, 204]).toContain(res.status);
		}
		const create = await api(sim, 'POST', '/projects', { body: { name: 'P', query: 'p' } });
		expect(create.status).toBe(405);
		expect(create.headers.get('allow')).toBe('GET');
	});
});

test('notFoundMessage=generic: a missing project or mention names no resource', async () => {
	const mention = () =>
		api(sim, 'POST', '/projects/1001/mentions/nope/tags', { body: { tags: ['x'] } });
	expect((await search(sim, 999, {})).json).toEqual({ message: 'Project 999 not found.' });
	expect((await mention()).json).toEqual({ message: 'Mention nope not found in project 1001.' });
	await setVariant({ notFoundMessage: 'generic' });
	for (const res of [
		await search(sim, 999, {}),
		await mention(),
		await api(sim, 'PUT', '/projects/999', { body: { name: 'a', query: 'a' } }),
		await stream(sim, '/projects/999/mentions/search/stream').then((r) => ({
			status: r.status,
			json: JSON.parse(r.body),
		})),
	]) {
		expect(res.status).toBe(404);
		expect(res.json).toEqual({ message: 'Not Found' });
	}
	// unknown paths keep their own text
	expect((await api(sim, 'GET', '/nothing')).json).toEqual({ message: 'Not found.' });
});

test('authOrder=401-first: 401 before 415 (and 406)', async () => {
	const noKeyNoType = () => api(sim, 'GET', '/projects', { key: null, contentType: null });
	const keyWrongType = () => api(sim, 'GET', '/projects', { contentType: 'text/plain' });
	const noKeyBadAccept = () =>
		api(sim, 'POST', '/projects/1001/mentions/search/stream', {
			key: null,
			body: {},
			accept: 'text/html',
		});
	expect((await noKeyNoType()).status).toBe(415);
	expect((await keyWrongType()).status).toBe(415);
	expect((await noKeyBadAccept()).status).toBe(406);
	await setVariant({ authOrder: '401-first' });
	const first = await noKeyNoType();
	expect(first.status).toBe(401);
	expect(first.json).toEqual({ message: 'API key is missing. Send it in the X-API-KEY header.' });
	expect(
		(await api(sim, 'GET', '/projects', { key: 'SENTIONE-APIKEY-nope', contentType: null })).status,
	).toBe(401);
	expect((await noKeyBadAccept()).status).toBe(401);
	const wrongType = await keyWrongType();
	expect(wrongType.status).toBe(415);
	// the key was checked first: the log knows the caller
	const log = (await admin(sim, 'GET', '/requests')).requests;
	expect(log[log.length - 1]).toMatchObject({ status: 415, tier: 'enterprise', counted: false });
});

test('rateWindow=rolling: the window starts at the first counted request and lasts an hour', async () => {
	const secs = (s: string) => String(Date.parse(s) / 1000);
	await admin(sim, 'POST', '/limits', { mode: 'spec', hourly: { search: 2 } });
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T10:41:15.000Z' });
	// default: aligned to the UTC hour
	expect((await search(sim, 1001, {})).headers.get('x-rate-limit-reset')).toBe(
		secs('2026-11-21T11:00:00Z'),
	);

	await admin(sim, 'POST', '/limits', { resetWindows: true });
	await setVariant({ rateWindow: 'rolling' });
	const fresh = await api(sim, 'GET', '/projects', { key: null });
	expect(fresh.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T11:41:15Z'));
	const first = await search(sim, 1001, {});
	expect(first.headers.get('x-rate-limit-remaining')).toBe('1');
	expect(first.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T11:41:15Z'));
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T10:51:15.000Z' });
	const second = await search(sim, 1001, {});
	expect(second.headers.get('x-rate-limit-remaining')).toBe('0');
	expect(second.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T11:41:15Z'));
	// each key has its own window: the Basic key's starts now
	const basic = await search(sim, 1001, {}, { recent: true, key: BASIC });
	expect(basic.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T11:51:15Z'));

	const over = await search(sim, 1001, {});
	expect(over.status).toBe(429);
	expect(over.headers.get('x-rate-limit-remaining')).toBe('0');
	expect(over.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T11:41:15Z'));
	expect(over.json.message).toBe(
		'Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 2. Limits will reset at 2026-11-21T11:41:15.000Z.',
	);
	// past the top of the hour the aligned window would be fresh; the rolling one is not
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T11:41:14.999Z' });
	expect((await search(sim, 1001, {})).status).toBe(429);
	await admin(sim, 'POST', '/clock', { now: '2026-11-21T11:41:15.000Z' });
	const next = await search(sim, 1001, {});
	expect(next.status).toBe(200);
	expect(next.headers.get('x-rate-limit-remaining')).toBe('1');
	expect(next.headers.get('x-rate-limit-reset')).toBe(secs('2026-11-21T12:41:15Z'));
});

test('exportHeartbeats=off: export streams send no heartbeats; live streams keep theirs', async () => {
	// slow writes (small chunks) keep the export open long enough for several heartbeats
	await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 15, chunkBytes: 32 } });
	const path = '/projects/1001/mentions/search/stream?limit=3';
	const on = await stream(sim, path);
	expect(countEvents(on.body, 'mention')).toBe(3);
	expect(countEvents(on.body, 'heartbeat')).toBeGreaterThan(0);

	await setVariant({ exportHeartbeats: 'off' });
	const off = await stream(sim, path);
	expect(off.end).toBe('complete');
	expect(countEvents(off.body, 'mention')).toBe(3);
	expect(countEvents(off.body, 'heartbeat')).toBe(0);
	const live = await openStream(sim, '/projects/1001/mentions/recent/search/stream/live');
	try {
		await live.until((b) => countEvents(b, 'heartbeat') >= 2);
	} finally {
		live.close();
	}
});

describe('cursor=offset', () => {
	const body = { sortType: 'PublishedAtDescending' };
	const pageAfterInsert = async () => {
		const p1 = await search(sim, 1001, body);
		await addMentions(sim, 1001, 1, { publishedAt: iso(NOW_MS - 1000), collectedAt: iso(NOW_MS) });
		const p2 = await search(sim, 1001, body, { query: { cursor: p1.json.cursor } });
		expect(p2.status).toBe(200);
		return { p1: p1.json.data.map((m: Loose) => m.id), p2: p2.json.data.map((m: Loose) => m.id) };
	};

	test('default keyset: a mention collected between two pages does not shift them', async () => {
		const before = (await searchAll(sim, 1001, body)).mentions.map((m) => m.id);
		const { p1, p2 } = await pageAfterInsert();
		expect(p1).toEqual(before.slice(0, 25));
		expect(p2).toEqual(before.slice(25, 50));
	});

	test('offset: the same pages without changes; a new mention shifts page 2 by one (a duplicate)', async () => {
		const keyset = (await searchAll(sim, 1001, body)).mentions.map((m) => m.id);
		const keysetCursor = (await search(sim, 1001, body)).json.cursor;
		await setVariant({ cursor: 'offset' });
		const offset = await searchAll(sim, 1001, body);
		expect(offset.mentions.map((m) => m.id)).toEqual(keyset);
		expect(offset.requests).toBe(Math.ceil(keyset.length / 25));
		const { p1, p2 } = await pageAfterInsert();
		expect(p1).toEqual(keyset.slice(0, 25));
		expect(p2[0]).toBe(p1[24]);
		expect(p2.slice(1)).toEqual(keyset.slice(25, 49));
		// a keyset cursor means nothing to this server
		const stale = await search(sim, 1001, body, { query: { cursor: keysetCursor } });
		expect(stale.status).toBe(400);
		expect(stale.json).toEqual({ message: 'cursor is invalid.' });
	});
});

test('lastCursor=absent: the last page of every envelope omits the cursor key', async () => {
	const narrow = {
		filters: { content: { sentiment: ['Negative'] }, source: { type: ['Reddit'] } },
	};
	const pages = () =>
		Promise.all([
			search(sim, 1001, narrow),
			api(sim, 'GET', '/projects'),
			api(sim, 'GET', '/projects/1001/tags'),
		]);
	for (const res of await pages()) {
		expect(res.status).toBe(200);
		expect(res.json.cursor).toBeNull();
		expect(res.text.endsWith(',"cursor":null}')).toBe(true);
	}
	await setVariant({ lastCursor: 'absent' });
	const [found, projects, tags] = await pages();
	expect(found.json.data.length).toBeGreaterThan(0);
	expect(projects.json.data.length).toBeGreaterThan(0);
	for (const res of [found, projects, tags]) {
		expect(res.status).toBe(200);
		expect(Object.keys(res.json)).toEqual(['data']);
	}
	// a page that is not the last keeps its cursor
	expect(typeof (await search(sim, 1001, {})).json.cursor).toBe('string');
});

test('lastCursor=blank / whitespace: the last page says "" or "  "; sent back, it is an invalid cursor (400)', async () => {
	const narrow = {
		filters: { content: { sentiment: ['Negative'] }, source: { type: ['Reddit'] } },
	};
	const envelopes = (cursor?: string) => {
		const query = cursor === undefined ? undefined : { cursor };
		return Promise.all([
			search(sim, 1001, narrow, { query }),
			api(sim, 'GET', '/projects', { query }),
			api(sim, 'GET', '/projects/1001/tags', { query }),
		]);
	};
	// D-42 by default: `?cursor=` counts as no cursor
	for (const res of await envelopes('')) expect(res.status).toBe(200);
	for (const [lastCursor, written] of [
		['blank', '""'],
		['whitespace', '"  "'],
	]) {
		await setVariant({ lastCursor });
		const [found, projects, tags] = await envelopes();
		expect(found.json.data.length).toBeGreaterThan(0);
		expect(tags.json.data.length).toBeGreaterThan(0);
		for (const res of [found, projects, tags]) {
			expect(res.status).toBe(200);
			expect(res.text.endsWith(`],"cursor":${written}}`)).toBe(true);
		}
		// sending the end back, or the other blank form, is an invalid cursor on every envelope
		for (const cursor of ['', '  ']) {
			for (const res of await envelopes(cursor)) {
				expect({ lastCursor, cursor, status: res.status, body: res.json }).toEqual({
					lastCursor,
					cursor,
					status: 400,
					body: { message: 'cursor is invalid.' },
				});
			}
		}
		// real cursors still page to the end, which is the blank cursor
		const ids: string[] = [];
		let cursor: string = '';
		for (let pages = 0; pages < 20; pages++) {
			const res = await search(sim, 1001, {}, { query: cursor ? { cursor } : undefined });
			expect(res.status).toBe(200);
			ids.push(...res.json.data.map((m: Loose) => m.id));
			cursor = res.json.cursor;
			if (cursor.trim() === '') break;
		}
		expect(cursor).toBe(JSON.parse(written));
		expect(new Set(ids).size).toBe(300);
	}
});

test('engagementPayload=id-only: updates carry only mentionId and updatedAt, live and backfill; the admin API answers the full ones', async () => {
	await setVariant({ engagementPayload: 'id-only' });
	const earlier = (await admin(sim, 'POST', '/engagement', { count: 2 })).updates;
	const s = await openStream(sim, '/mentions/engagement/updates/stream/live?backfillMinutes=1', {
		accept: 'application/x-ndjson',
	});
	try {
		const { updates } = await admin(sim, 'POST', '/engagement', { count: 3 });
		for (const u of [...earlier, ...updates])
			expect(Object.keys(u)).toEqual(['mentionId', 'engagementMetrics', 'updatedAt']);
		await s.until((b) => (b.match(/"engagementUpdate"/g) ?? []).length >= 5);
		const lines = s
			.body()
			.split('\n')
			.filter((l) => l.includes('"engagementUpdate"'));
		const got = lines.map((l) => JSON.parse(l));
		for (const e of got) {
			expect(Object.keys(e.data)).toEqual(['mentionId', 'updatedAt']);
			expect(e.id).toBe(`${e.data.mentionId}:${e.data.updatedAt}`);
		}
		const key = (u: Loose) => `${u.mentionId}:${u.updatedAt}`;
		expect(got.map((e) => key(e.data)).sort()).toEqual([...earlier, ...updates].map(key).sort());
	} finally {
		s.close();
	}
});

describe('bigCounts=on: counts above 2^53, exact in the JSON text', () => {
	// BigInt() rather than literals: the test build targets ES2019
	const TWO_53 = BigInt(2) ** BigInt(53);
	const LIKE = 'engagementMetrics.sourceMetrics.common.likeCount';

	/** The ground truth's big mentions of a project: id → path → exact value. */
	async function exactCountsOf(projectId: number): Promise<Map<string, Record<string, string>>> {
		const truth = (await admin(sim, 'GET', `/mentions?projectId=${projectId}`)).mentions;
		return new Map(
			truth.filter((m: Loose) => m.exactCounts).map((m: Loose) => [m.id, m.exactCounts]),
		);
	}
	const valuesOf = (exact: Map<string, Record<string, string>>, ids: string[]) =>
		ids.flatMap((id) => Object.values(exact.get(id) ?? {})).sort();

	test('off: no such numbers and no exactCounts; on: about one mention in eight, exact values in the ground truth', async () => {
		expect(integersAbove2To53((await search(sim, 1001, {})).text)).toEqual([]);
		expect((await exactCountsOf(1001)).size).toBe(0);
		await setVariant({ bigCounts: 'on' });
		const exact = await exactCountsOf(1001);
		expect(exact.size).toBeGreaterThan(300 * 0.06);
		expect(exact.size).toBeLessThan(300 * 0.2);
		const full = (await admin(sim, 'GET', '/mentions?projectId=1001&full=1')).mentions;
		for (const m of full.filter((x: Loose) => x.exactCounts)) {
			const common = m.engagementMetrics.sourceMetrics.common;
			for (const [path, v] of Object.entries(m.exactCounts as Record<string, string>)) {
				const small =
					path.endsWith('Count') && path.startsWith('author.')
						? m.author.influenceMetrics[path.split('.').pop()!]
						: common[path.split('.').pop()!];
				expect(BigInt(v)).toBe(TWO_53 + BigInt(1) + BigInt(2) * BigInt(small));
				// a JavaScript number cannot hold it
				expect(String(Number(v))).not.toBe(v);
			}
		}
	});

	test('search pages write exactly those values; the count sorts rank them first; cursors work', async () => {
		await setVariant({ bigCounts: 'on' });
		const exact = await exactCountsOf(1001);
		let cursor: string | null = null;
		for (let pages = 0; pages < 4; pages++) {
			const res: Res = await search(sim, 1001, {}, { query: cursor ? { cursor } : undefined });
			const ids = res.json.data.map((m: Loose) => m.id);
			expect(integersAbove2To53(res.text).sort()).toEqual(valuesOf(exact, ids));
			cursor = res.json.cursor;
		}
		// LikeCountDescending: the big likes first, by their exact value (ties by id)
		const bigLikes = [...exact]
			.filter(([, c]) => c[LIKE] !== undefined)
			.sort(([ia, a], [ib, b]) => {
				const d = BigInt(b[LIKE]) - BigInt(a[LIKE]);
				return d > BigInt(0) ? 1 : d < BigInt(0) ? -1 : ia < ib ? -1 : 1;
			})
			.map(([id]) => id);
		expect(bigLikes.length).toBeGreaterThan(25);
		const sorted = await searchAll(sim, 1001, { sortType: 'LikeCountDescending' });
		expect(sorted.mentions.slice(0, bigLikes.length).map((m) => m.id)).toEqual(bigLikes);
		expect(new Set(sorted.mentions.map((m) => m.id)).size).toBe(300);
	});

	test('exports (SSE, JSON lines, anonymized) write the exact values of every big mention', async () => {
		await setVariant({ bigCounts: 'on' });
		const exact = await exactCountsOf(1001);
		const want = valuesOf(exact, [...exact.keys()]);
		for (const [accept, query] of [
			['text/event-stream', ''],
			['application/x-ndjson', ''],
			['application/json', '?anonymization=all'],
		]) {
			const res = await stream(sim, `/projects/1001/mentions/search/stream${query}`, { accept });
			expect(res.end).toBe('complete');
			expect({ accept, values: integersAbove2To53(res.body).sort() }).toEqual({
				accept,
				values: want,
			});
		}
	});

	test('the live stream and engagement updates write them too', async () => {
		await setVariant({ bigCounts: 'on' });
		const live = await openStream(sim, '/projects/1002/mentions/recent/search/stream/live', {
			accept: 'application/x-ndjson',
		});
		try {
			const added = await addMentions(sim, 1002, 60);
			const exact = await exactCountsOf(1002);
			const bigAdded = added.map((m: Loose) => m.id).filter((id: string) => exact.has(id));
			expect(bigAdded.length).toBeGreaterThan(0);
			await live.until((b) => (b.match(/"event":"mention"/g) ?? []).length >= 60);
			expect(integersAbove2To53(live.body()).sort()).toEqual(valuesOf(exact, bigAdded));
		} finally {
			live.close();
		}
		const exact = await exactCountsOf(1001);
		const [id] = [...exact].find(([, c]) => c[LIKE] !== undefined)!;
		const s = await openStream(sim, '/mentions/engagement/updates/stream/live', {
			accept: 'text/event-stream',
		});
		try {
			await admin(sim, 'POST', '/engagement', { mentionId: id, count: 1 });
			await s.until((b) => b.includes('event: engagementUpdate'));
			const after = (await exactCountsOf(1001)).get(id)!;
			const common = Object.entries(after)
				.filter(([path]) => path.startsWith('engagementMetrics.'))
				.map(([, v]) => v)
				.sort();
			const event = parseSse(s.body()).find((e) => e.event === 'engagementUpdate')!;
			expect(integersAbove2To53(event.data).sort()).toEqual(common);
		} finally {
			s.close();
		}
	});
});

describe('request log: rawPath, and routing from the raw target', () => {
	const headers = { 'x-api-key': ENTERPRISE, 'content-type': 'application/json' };
	const last = async () => {
		const log = (await admin(sim, 'GET', '/requests')).requests;
		return log[log.length - 1];
	};

	test('an ordinary request: rawPath = path, without the query string', async () => {
		await api(sim, 'GET', '/projects', { query: { cursor: '' } });
		expect(await last()).toMatchObject({
			path: '/api/public/v2/projects',
			rawPath: '/api/public/v2/projects',
			query: { cursor: '' },
		});
	});

	test.each([
		[
			'/projects/1002/mentions/../../1001/mentions/search',
			'/api/public/v2/projects/1001/mentions/search',
		],
		[
			'/projects/1002/mentions/%2e%2E/%2E./1001/mentions/./search',
			'/api/public/v2/projects/1001/mentions/search',
		],
		[
			'/../../../api/public/v2/projects/1001/mentions/search',
			'/api/public/v2/projects/1001/mentions/search',
		],
	])('dot segments are removed before routing: %s', async (sent, routed) => {
		const res = await raw(sim, sent + '?cursor=', { method: 'POST', headers, body: '{}' });
		expect(res.status).toBe(200);
		expect(await last()).toMatchObject({
			rawPath: '/api/public/v2' + sent,
			path: routed,
			status: 200,
		});
	});

	test('a percent-encoded slash stays inside its segment', async () => {
		const tag = await raw(sim, '/projects/1001/mentions/a%2Fb/tags', {
			method: 'POST',
			headers,
			body: '{"tags":["x"]}',
		});
		expect(tag.status).toBe(404);
		expect(JSON.parse(tag.body)).toEqual({ message: 'Mention a/b not found in project 1001.' });
		expect(await last()).toMatchObject({
			rawPath: '/api/public/v2/projects/1001/mentions/a%2Fb/tags',
			path: '/api/public/v2/projects/1001/mentions/a%2Fb/tags',
		});
		const joined = await raw(sim, '/projects%2F1001%2Ftags', { method: 'GET', headers });
		expect(joined.status).toBe(404);
		expect(JSON.parse(joined.body)).toEqual({ message: 'Not found.' });
	});

	test('unencoded characters are logged exactly as sent', async () => {
		const res = await raw(sim, '/projects/1001/mentions/a"b|c/tags', {
			method: 'POST',
			headers,
			body: '{"tags":["x"]}',
		});
		expect(res.status).toBe(404);
		expect(await last()).toMatchObject({
			rawPath: '/api/public/v2/projects/1001/mentions/a"b|c/tags',
		});
	});
});
