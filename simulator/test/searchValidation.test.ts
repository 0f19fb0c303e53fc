// Search bodies: 400 (format, D-13) vs 422 (values, D-17, D-18), the filters (D-14), the 7-day
// window and its default, the historical future rule, and the ground truth of every filter.

import {
	admin,
	api,
	search,
	searchAll,
	useSim,
	type Sim,
	type Loose,
} from '../../test/support/simulator';
import { DAY, NOW_MS } from '../../test/support/time';
import { BASIC } from '../../test/support/keys';

let sim: Sim;
useSim(
	['--mentions', '1500', '--limits', 'off', '--history-days', '60'],
	(started) => (sim = started),
);

const iso = (ms: number) => new Date(ms).toISOString();

describe('400: wrongly formatted fields name the dotted path', () => {
	test('body missing, invalid JSON, not an object', async () => {
		for (const raw of ['', 'not json', '[]', '"x"', 'null']) {
			const res = await api(sim, 'POST', '/projects/1001/mentions/search', { raw });
			expect(res.status).toBe(400);
			expect(typeof res.json.message).toBe('string');
			expect(res.json.requestFieldErrors).toBeUndefined();
		}
	});

	test.each([
		[{ filters: [] }, 'filters:'],
		[{ filters: 'x' }, 'filters:'],
		[{ sortType: 3 }, 'sortType:'],
		[
			{ filters: { publishedAt: { from: 1 } } },
			'filters.publishedAt.from: expected an ISO 8601 date-time string such as 2025-05-22T10:30:00Z.',
		],
		[{ filters: { publishedAt: { to: '2026-13-01T00:00:00Z' } } }, 'filters.publishedAt.to:'],
		[{ filters: { publishedAt: { from: '2026-11-20' } } }, 'filters.publishedAt.from:'],
		[{ filters: { publishedAt: '2026-11-20T00:00:00Z' } }, 'filters.publishedAt:'],
		[{ filters: { collectedAt: { from: 'yesterday' } } }, 'filters.collectedAt.from:'],
		[{ filters: { source: { type: 'X' } } }, 'filters.source.type:'],
		[{ filters: { source: [] } }, 'filters.source:'],
		[{ filters: { type: [1] } }, 'filters.type:'],
		[{ filters: { content: { sentiment: 'Positive' } } }, 'filters.content.sentiment:'],
		[{ filters: { content: { query: 5 } } }, 'filters.content.query:'],
		[{ filters: { content: { language: ['en'] } } }, 'filters.content.language:'],
		[{ filters: { location: { country: 'PL' } } }, 'filters.location.country:'],
	])('%j → 400 naming the path', async (body, fragment) => {
		const res = await api(sim, 'POST', '/projects/1001/mentions/search', { body });
		expect(res.status).toBe(400);
		expect(res.json.message).toContain(fragment);
	});

	test('several format errors are all named in the one message', async () => {
		const res = await search(sim, 1001, {
			filters: { publishedAt: { from: 'x', to: 'y' }, type: 'Post' },
		});
		expect(res.status).toBe(400);
		for (const p of ['filters.publishedAt.from', 'filters.publishedAt.to', 'filters.type']) {
			expect(res.json.message).toContain(p);
		}
	});

	test('date-times with an offset and fractions are accepted', async () => {
		const res = await search(sim, 1001, {
			filters: {
				publishedAt: { from: '2026-11-20T12:00:00.123456+02:00', to: '2026-11-21T10:00:00Z' },
			},
		});
		expect(res.status).toBe(200);
	});

	test('unknown keys are ignored (tolerant reader)', async () => {
		const res = await search(sim, 1001, { filters: { nope: 1 }, extra: true });
		expect(res.status).toBe(200);
	});
});

describe('422: values not allowed, every offending path at once', () => {
	test('each enum: one message per bad value on the array path', async () => {
		const res = await search(sim, 1001, {
			sortType: 'Newest',
			filters: {
				source: { type: ['X', 'Twitter', 'facebook'] },
				type: ['Post', 'Tweet'],
				content: { sentiment: ['Happy'] },
			},
		});
		expect(res.status).toBe(422);
		expect(res.json.message).toEqual(expect.any(String));
		const e = res.json.requestFieldErrors;
		expect(Object.keys(e).sort()).toEqual(
			['filters.content.sentiment', 'filters.source.type', 'filters.type', 'sortType'].sort(),
		);
		expect(e['filters.source.type']).toHaveLength(2);
		expect(e['filters.source.type'][0]).toBe(
			'"Twitter" is not a valid SourceType. Allowed: Facebook, Websites, Instagram, Forums, X, Blogs, TikTok, Reviews, Reddit, Video, Imported, Other.',
		);
		expect(e['filters.type'][0]).toContain('"Tweet" is not a valid MentionType');
		expect(e['filters.content.sentiment'][0]).toContain('"Happy" is not a valid Sentiment');
		expect(e.sortType[0]).toContain('"Newest" is not a valid SortType');
	});

	test('every allowed enum value is accepted', async () => {
		const res = await search(sim, 1001, {
			filters: {
				source: {
					type: [
						'Facebook',
						'Websites',
						'Instagram',
						'Forums',
						'X',
						'Blogs',
						'TikTok',
						'Reviews',
						'Reddit',
						'Video',
						'Imported',
						'Other',
					],
				},
				type: ['Post', 'Comment', 'Article', 'PrivateMessage', 'Share'],
				content: { sentiment: ['Positive', 'Negative', 'Neutral', 'Unspecified'] },
			},
		});
		expect(res.status).toBe(200);
		expect(res.json.data).toHaveLength(25);
	});

	test('recent: from earlier than now − 7 days → 422; exactly 7 days is fine', async () => {
		const old = await search(
			sim,
			1001,
			{ filters: { publishedAt: { from: iso(NOW_MS - 7 * DAY - 1000) } } },
			{ recent: true },
		);
		expect(old.status).toBe(422);
		expect(Object.keys(old.json.requestFieldErrors)).toEqual(['filters.publishedAt.from']);
		const edge = await search(
			sim,
			1001,
			{ filters: { publishedAt: { from: iso(NOW_MS - 7 * DAY) } } },
			{ recent: true },
		);
		expect(edge.status).toBe(200);
	});

	test('historical: from in the future → 422; the same old from is fine', async () => {
		const future = await search(sim, 1001, {
			filters: { publishedAt: { from: iso(NOW_MS + 60_000) } },
		});
		expect(future.status).toBe(422);
		expect(future.json.requestFieldErrors['filters.publishedAt.from'][0]).toContain('future');
		const old = await search(sim, 1001, {
			filters: { publishedAt: { from: iso(NOW_MS - 30 * DAY) } },
		});
		expect(old.status).toBe(200);
	});

	test('from not before to → 422 on <range>.from, for publishedAt and collectedAt', async () => {
		const t = iso(NOW_MS - DAY);
		const res = await search(sim, 1001, {
			filters: {
				publishedAt: { from: t, to: t },
				collectedAt: { from: iso(NOW_MS - 1000), to: iso(NOW_MS - 2000) },
			},
		});
		expect(res.status).toBe(422);
		expect(res.json.requestFieldErrors['filters.publishedAt.from']).toEqual([
			'must be earlier than filters.publishedAt.to.',
		]);
		expect(res.json.requestFieldErrors['filters.collectedAt.from']).toEqual([
			'must be earlier than filters.collectedAt.to.',
		]);
	});

	test('collectedAt.from in the future → 422 in both searches', async () => {
		for (const recent of [true, false]) {
			const res = await search(
				sim,
				1001,
				{ filters: { collectedAt: { from: iso(NOW_MS + 1000) } } },
				{ recent },
			);
			expect(res.status).toBe(422);
			expect(Object.keys(res.json.requestFieldErrors)).toEqual(['filters.collectedAt.from']);
		}
	});

	test('language and country codes of the wrong form → 422', async () => {
		const res = await search(sim, 1001, {
			filters: {
				content: { language: [{ code: 'english' }] },
				location: { country: [{ code: 'POL' }] },
			},
		});
		expect(res.status).toBe(422);
		expect(Object.keys(res.json.requestFieldErrors).sort()).toEqual([
			'filters.content.language',
			'filters.location.country',
		]);
	});

	test('all offending paths in one answer, across kinds', async () => {
		const res = await search(
			sim,
			1001,
			{
				sortType: 'X',
				filters: {
					publishedAt: { from: iso(NOW_MS - 30 * DAY) },
					source: { type: ['Nope'] },
					content: { query: 'a AND' },
					collectedAt: { from: iso(NOW_MS + DAY) },
				},
			},
			{ recent: true },
		);
		expect(res.status).toBe(422);
		expect(Object.keys(res.json.requestFieldErrors).sort()).toEqual(
			[
				'filters.collectedAt.from',
				'filters.content.query',
				'filters.publishedAt.from',
				'filters.source.type',
				'sortType',
			].sort(),
		);
	});
});

describe('filters select exactly the matching mentions', () => {
	let truth: Loose[];
	beforeAll(async () => {
		truth = (await admin(sim, 'GET', '/mentions?projectId=1001&full=1')).mentions;
	});

	const ids = (ms: Loose[]) => ms.map((m) => m.id).sort();

	test('recent search without filters = all mentions published in the last 7 days, newest first', async () => {
		const { mentions } = await searchAll(sim, 1001, {}, { recent: true, key: BASIC });
		const expected = truth.filter((m) => Date.parse(m.publishedAt) >= NOW_MS - 7 * DAY);
		expect(ids(mentions)).toEqual(ids(expected));
		expect(mentions.length).toBeGreaterThan(400); // about 40% of 1500
		const times = mentions.map((m) => Date.parse(m.publishedAt));
		expect(times).toEqual([...times].sort((a, b) => b - a));
	});

	test('historical search without filters = every mention', async () => {
		const { mentions } = await searchAll(sim, 1001, {});
		expect(mentions).toHaveLength(truth.length);
	});

	test('publishedAt: from inclusive, to exclusive', async () => {
		const pivot = truth[100].publishedAt;
		const { mentions } = await searchAll(sim, 1001, {
			filters: { publishedAt: { from: pivot, to: iso(Date.parse(pivot) + DAY) } },
		});
		expect(mentions.some((m) => m.publishedAt === pivot)).toBe(true);
		const upTo = await searchAll(sim, 1001, { filters: { publishedAt: { to: pivot } } });
		expect(upTo.mentions.some((m) => m.publishedAt === pivot)).toBe(false);
		expect(
			upTo.mentions.length +
				truth.filter((m) => Date.parse(m.publishedAt) >= Date.parse(pivot)).length,
		).toBe(truth.length);
	});

	test('collectedAt range', async () => {
		const from = NOW_MS - 3 * DAY;
		const to = NOW_MS - DAY;
		const { mentions } = await searchAll(sim, 1001, {
			filters: { collectedAt: { from: iso(from), to: iso(to) } },
		});
		expect(ids(mentions)).toEqual(
			ids(truth.filter((m) => Date.parse(m.collectedAt) >= from && Date.parse(m.collectedAt) < to)),
		);
		expect(mentions.length).toBeGreaterThan(0);
	});

	test('source.type, type and sentiment', async () => {
		const body = {
			filters: {
				source: { type: ['X', 'Reviews'] },
				type: ['Post'],
				content: { sentiment: ['Negative', 'Unspecified'] },
			},
		};
		const { mentions } = await searchAll(sim, 1001, body);
		const expected = truth.filter(
			(m) =>
				['X', 'Reviews'].includes(m.source.type) &&
				m.type === 'Post' &&
				['Negative', 'Unspecified'].includes(m.content.sentiment),
		);
		expect(ids(mentions)).toEqual(ids(expected));
		expect(expected.length).toBeGreaterThan(0);
	});

	test('an empty array means no restriction', async () => {
		const a = await search(sim, 1001, { filters: { source: { type: [] }, type: [] } });
		const b = await search(sim, 1001, {});
		expect(a.json.data.map((m: Loose) => m.id)).toEqual(b.json.data.map((m: Loose) => m.id));
	});

	test('content.language (case-insensitive, region codes exact)', async () => {
		const { mentions } = await searchAll(sim, 1001, {
			filters: { content: { language: [{ code: 'PL' }, { code: 'en-GB' }] } },
		});
		const expected = truth.filter((m) => ['pl', 'en-gb'].includes(m.content.language?.code));
		expect(ids(mentions)).toEqual(ids(expected));
		expect(new Set(mentions.map((m) => m.content.language.code))).toEqual(new Set(['pl', 'en-gb']));
	});

	test('location.country (case-insensitive); mentions without a country never match', async () => {
		const { mentions } = await searchAll(sim, 1001, {
			filters: { location: { country: [{ code: 'de' }, { code: 'US' }] } },
		});
		const expected = truth.filter((m) => ['DE', 'US'].includes(m.location?.country?.code));
		expect(ids(mentions)).toEqual(ids(expected));
		expect(expected.length).toBeGreaterThan(0);
	});

	test('admin count agrees with what search returns', async () => {
		const filters = { source: { type: ['Facebook'] }, content: { query: 'acme' } };
		const { count } = await admin(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'historical',
			filters,
		});
		const { mentions } = await searchAll(sim, 1001, { filters });
		expect(mentions).toHaveLength(count);
		const recent = await admin(sim, 'POST', '/count', { projectId: 1001, mode: 'recent' });
		const r = await searchAll(sim, 1001, {}, { recent: true });
		expect(r.mentions).toHaveLength(recent.count);
	});
});
