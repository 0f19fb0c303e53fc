// The query language (D-15, D-16), the nine sort orders with their tie-breaks (D-19), and keyset
// pages and cursors (D-20).

import {
	addMentions,
	api,
	createProject,
	search,
	searchAll,
	useSim,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { DAY, NOW_MS } from '../../test/support/time';

let sim: Sim;
useSim(
	['--mentions', '700', '--projects', '2', '--limits', 'off', '--history-days', '30'],
	(started) => (sim = started),
);

describe('query language', () => {
	let pid: number;
	const texts: Record<string, [string, string | null]> = {
		t1: ['Acme Mobile launches a new phone', null],
		t2: ['The mobile acme store is open', null],
		t3: ['acmephones are great', null],
		t4: ['Customer service was terrible', null],
		t5: ['Great customer support from Acme', null],
		t6: ['Nothing relevant here', null],
		t7: ['bad battery', 'Acme review'],
		t8: ['e-commerce checkout is slow', null],
	};
	const idToName = new Map<string, string>();

	beforeAll(async () => {
		pid = await createProject(sim, 'Query lab', 'acme OR customer');
		for (const [name, [text, title]] of Object.entries(texts)) {
			const [m] = await addMentions(sim, pid, 1, { overrides: { content: { text, title } } });
			idToName.set(m.id, name);
		}
	});

	const run = async (query: string) => {
		const res = await search(sim, pid, { filters: { content: { query } } });
		expect(res.status).toBe(200);
		return res.json.data.map((m: Loose) => idToName.get(m.id)).sort();
	};

	test.each([
		['acme', ['t1', 't2', 't5', 't7']],
		['ACME', ['t1', 't2', 't5', 't7']],
		['"acme mobile"', ['t1']],
		['"Acme   MOBILE"', ['t1']],
		['acme*', ['t1', 't2', 't3', 't5', 't7']],
		['acmephone*', ['t3']],
		['acme NOT mobile', ['t5', 't7']],
		['acme AND NOT mobile', ['t5', 't7']],
		['NOT acme', ['t3', 't4', 't6', 't8']],
		['customer OR acme AND mobile', ['t1', 't2', 't4', 't5']],
		['(customer OR acme) AND mobile', ['t1', 't2']],
		['great customer', ['t5']],
		['"customer service"', ['t4']],
		['acme and mobile', []],
		['acme AND bad', ['t7']],
		['review', ['t7']],
		['NOT NOT great', ['t3', 't5']],
		['e-commerce', ['t8']],
		['commerce', ['t8']],
		['acme OR customer NOT terrible', ['t1', 't2', 't5', 't7']],
		['brand NOT (acme OR customer)', []],
	])('%s', async (query, expected) => {
		expect(await run(query)).toEqual(expected);
	});

	test.each([
		[''],
		['   '],
		['acme AND'],
		['OR acme'],
		['NOT'],
		['acme NOT'],
		['acme OR OR mobile'],
		['(acme'],
		['acme)'],
		['()'],
		['"acme'],
		['""'],
		['ac*'],
		['acm*'],
		['a*b'],
		['*acme'],
		['acme**'],
		['x'.repeat(251)],
	])(
		'invalid query %j → 422 on filters.content.query (search) and on query (project)',
		async (query) => {
			const res = await search(sim, pid, { filters: { content: { query } } });
			expect(res.status).toBe(422);
			expect(Object.keys(res.json.requestFieldErrors)).toEqual(['filters.content.query']);
			expect(res.json.requestFieldErrors['filters.content.query']).toHaveLength(1);
			const p = await api(sim, 'POST', '/projects', { body: { name: 'x', query } });
			expect(p.status).toBe(422);
			expect(Object.keys(p.json.requestFieldErrors)).toEqual(['query']);
		},
	);

	test('a query of exactly 250 characters is accepted', async () => {
		const q = ('acme OR '.repeat(30) + 'acme').padEnd(250, ' ');
		expect(q.length).toBe(250);
		expect((await search(sim, pid, { filters: { content: { query: q } } })).status).toBe(200);
	});
});

describe('sort orders (D-19)', () => {
	let all: Loose[];
	beforeAll(async () => {
		all = (await searchAll(sim, 1001, {})).mentions;
	});

	const keyOf: Record<string, (m: Loose) => number | null> = {
		PublishedAtDescending: (m) => Date.parse(m.publishedAt),
		PublishedAtAscending: (m) => Date.parse(m.publishedAt),
		CollectedAtDescending: (m) => Date.parse(m.collectedAt),
		CollectedAtAscending: (m) => Date.parse(m.collectedAt),
		InfluenceScoreDescending: (m) => m.engagementMetrics.influenceScore,
		EngagementRateDescending: (m) => m.engagementMetrics.engagementRate,
		LikeCountDescending: (m) => m.engagementMetrics.sourceMetrics.common.likeCount,
		ShareCountDescending: (m) => m.engagementMetrics.sourceMetrics.common.shareCount,
		FollowerCountDescending: (m) => m.author.influenceMetrics.followerCount,
	};

	test.each(Object.keys(keyOf))('%s: order, nulls last, ties by id ascending', async (sortType) => {
		const { mentions } = await searchAll(sim, 1001, { sortType });
		expect(mentions).toHaveLength(all.length);
		const key = keyOf[sortType];
		const desc = sortType.endsWith('Descending');
		let ties = 0;
		let nulls = 0;
		for (let i = 1; i < mentions.length; i++) {
			const a = key(mentions[i - 1]);
			const b = key(mentions[i]);
			if (a === null) {
				expect(b).toBeNull();
				nulls++;
			} else if (b !== null && a !== b) {
				expect(desc ? a > b : a < b).toBe(true);
			}
			if (a === b) {
				ties++;
				expect(mentions[i - 1].id < mentions[i].id).toBe(true);
			}
		}
		expect(ties).toBeGreaterThan(0); // the data has equal keys to break
		if (sortType.startsWith('PublishedAt') || sortType.startsWith('CollectedAt'))
			expect(nulls).toBe(0);
		else expect(nulls).toBeGreaterThan(0);
	});

	test('default sort is PublishedAtDescending', async () => {
		const a = await search(sim, 1001, {});
		const b = await search(sim, 1001, { sortType: 'PublishedAtDescending' });
		expect(a.json.data.map((m: Loose) => m.id)).toEqual(b.json.data.map((m: Loose) => m.id));
	});
});

describe('pages and cursors (D-20)', () => {
	test.each([
		[0, 1],
		[1, 1],
		[25, 1],
		[26, 2],
		[1000, 40],
	])('%i results → %i requests, cursor null exactly on the last page', async (n, requests) => {
		const pid = await createProject(sim, `Paging ${n}`, 'paging');
		let left = n;
		while (left > 0) {
			await addMentions(sim, pid, Math.min(left, 500));
			left -= 500;
		}
		const res = await searchAll(sim, pid, {});
		expect(res.mentions).toHaveLength(n);
		expect(new Set(res.mentions.map((m) => m.id)).size).toBe(n);
		expect(res.requests).toBe(requests);
		expect(res.cursors.slice(0, -1).every((c) => typeof c === 'string')).toBe(true);
		expect(res.cursors[res.cursors.length - 1]).toBeNull();
		const first = await search(sim, pid, {});
		expect(first.json.data).toHaveLength(Math.min(n, 25));
	});

	test('keyset: mentions collected between pages cause no duplicates and no gaps', async () => {
		const pid = await createProject(sim, 'Keyset', 'keyset');
		const originals = await addMentions(sim, pid, 100);
		for (const sortType of [
			'PublishedAtDescending',
			'CollectedAtAscending',
			'LikeCountDescending',
		]) {
			const { mentions } = await searchAll(
				sim,
				pid,
				{ sortType },
				{
					between: async () => {
						await addMentions(sim, pid, 7);
						await addMentions(sim, pid, 3, {
							publishedAt: new Date(NOW_MS - 20 * DAY).toISOString(),
						});
					},
				},
			);
			const ids = mentions.map((m) => m.id);
			expect(new Set(ids).size).toBe(ids.length);
			for (const o of originals) expect(ids).toContain(o.id);
		}
	});

	test('the cursor is bound to the body, sort and endpoint', async () => {
		const body = {
			filters: { source: { type: ['X', 'Facebook'] } },
			sortType: 'PublishedAtAscending',
		};
		const first = await search(sim, 1001, body);
		const cursor = first.json.cursor as string;
		expect(typeof cursor).toBe('string');
		const same = await search(
			sim,
			1001,
			{ sortType: 'PublishedAtAscending', filters: { source: { type: ['X', 'Facebook'] } } },
			{ query: { cursor } },
		);
		expect(same.status).toBe(200);
		expect(same.json.data[0].id).not.toBe(first.json.data[0].id);
		const mismatch =
			'cursor does not match this request: send the same body as for the first page.';
		for (const other of [
			{ ...body, sortType: 'PublishedAtDescending' },
			{ ...body, filters: { source: { type: ['X'] } } },
			{},
		]) {
			const res = await search(sim, 1001, other, { query: { cursor } });
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ message: mismatch });
		}
		const otherProject = await search(sim, 1002, body, { query: { cursor } });
		expect(otherProject.json).toEqual({ message: mismatch });
		const recent = await search(
			sim,
			1001,
			{
				...body,
				filters: { ...body.filters, publishedAt: { from: new Date(NOW_MS - DAY).toISOString() } },
			},
			{ recent: true, query: { cursor } },
		);
		expect(recent.json).toEqual({ message: mismatch });
		for (const junk of ['abc', '!!', 'eyJ4IjoxfQ']) {
			const res = await search(sim, 1001, body, { query: { cursor: junk } });
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ message: 'cursor is invalid.' });
		}
	});
});
