/**
 * Mention → Search Recent / Search Historical through n8n's engine against the simulator:
 * the request body of every filter and every sort, pagination (exact request counts),
 * expressions per item, raw and simplified output. The request counts the pagination tests
 * measured are written with writePart (part `request-counts`, rendered into
 * docs/request-counts.md by `npm run docs`).
 */
import type { IDataObject } from 'n8n-workflow';

import { SORT_TYPES } from '../../../nodes/SentiOne/shared/contract';
import { SIMPLE_COLUMNS } from '../../../nodes/SentiOne/shared/simplify';
import {
	admin,
	search,
	type Loose,
	type Sim,
	clearLog,
	onPath,
	projectWithMentions,
	requestLog,
} from '../../support/simulator';
import { jsonOf, loadWorkflow, outputOf, run, withParameters } from '../../support/actions';
import { DAY, NOW, NOW_MS } from '../../support/time';
import { SimClock, useSimulator } from '../../support/simClock';
import { ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';

let sim: Sim;
let clock: SimClock;

useSimulator(['--mentions', '1500'], (started, startedClock) => {
	sim = started;
	clock = startedClock;
});
beforeEach(async () => {
	// budgets are exercised in rateLimit.test.ts; here they would only get in the way
	await admin(sim, 'POST', '/limits', { mode: 'off' });
});

const recent = () => loadWorkflow('mention-search-recent');
const historical = () => loadWorkflow('mention-search-historical');
const searches =
	(path: RegExp = /\/mentions\/(recent\/)?search$/) =>
	async () =>
		onPath(await requestLog(sim), path);

async function groundTruth(
	projectId: number,
	mode: 'recent' | 'historical',
	filters: IDataObject,
): Promise<number> {
	return (await admin<{ count: number }>(sim, 'POST', '/count', { projectId, mode, filters }))
		.count;
}

describe('request body of every filter', () => {
	// Each case: the Filters collection as the user sets it → the API's `filters` object (D-14),
	// checked against the simulator's log, and the result count against its ground truth.
	// `sent`: what goes on the wire when it differs from the filters asked for: collectedAt is widened
	// by whole seconds on both sides (verify.ts widenCollectedAt), the exact range is applied locally
	const cases: Array<{
		name: string;
		scope: 'recent' | 'historical';
		filters: IDataObject;
		body: IDataObject;
		sent?: IDataObject;
		timezone?: string;
	}> = [
		{
			name: 'published after / before (wall clock in the workflow time zone, UTC)',
			scope: 'historical',
			filters: { publishedAfter: '2026-10-01T00:00:00', publishedBefore: '2026-10-15T12:00:00' },
			body: { publishedAt: { from: '2026-10-01T00:00:00.000Z', to: '2026-10-15T12:00:00.000Z' } },
		},
		{
			name: 'published after / before read in a non-UTC workflow time zone',
			scope: 'historical',
			timezone: 'Europe/Warsaw',
			filters: { publishedAfter: '2026-10-01T00:00:00', publishedBefore: '2026-11-20T12:00:00' },
			// Warsaw is UTC+2 on 1 October (summer time) and UTC+1 on 20 November
			body: { publishedAt: { from: '2026-09-30T22:00:00.000Z', to: '2026-11-20T11:00:00.000Z' } },
		},
		{
			name: 'published after as an ISO value with an offset (expression)',
			scope: 'recent',
			filters: { publishedAfter: '={{ "2026-11-20T12:00:00+02:00" }}' },
			body: { publishedAt: { from: '2026-11-20T10:00:00.000Z' } },
		},
		{
			name: 'published in the last 24 hours (relative to now)',
			scope: 'recent',
			filters: { publishedInLast: { period: { amount: 24, unit: 'hours' } } },
			body: { publishedAt: { from: new Date(NOW_MS - DAY).toISOString() } },
		},
		{
			name: 'published in the last 7 days keeps the 5-minute safety margin of recent search',
			scope: 'recent',
			filters: { publishedInLast: { period: { amount: 7, unit: 'days' } } },
			body: { publishedAt: { from: new Date(NOW_MS - 7 * DAY + 5 * 60_000).toISOString() } },
		},
		{
			name: 'published in the last 30 days on historical search',
			scope: 'historical',
			filters: { publishedInLast: { period: { amount: 30, unit: 'days' } } },
			body: { publishedAt: { from: new Date(NOW_MS - 30 * DAY).toISOString() } },
		},
		{
			name: 'collected after / before',
			scope: 'historical',
			filters: { collectedAfter: '2026-11-01T06:00:00', collectedBefore: '2026-11-21T00:00:00' },
			body: { collectedAt: { from: '2026-11-01T06:00:00.000Z', to: '2026-11-21T00:00:00.000Z' } },
			sent: { collectedAt: { from: '2026-11-01T05:59:59.000Z', to: '2026-11-21T00:00:01.000Z' } },
		},
		{
			name: 'source types',
			scope: 'recent',
			filters: { sourceTypes: ['X', 'Facebook', 'Reviews'] },
			body: { source: { type: ['X', 'Facebook', 'Reviews'] } },
		},
		{
			name: 'mention types',
			scope: 'recent',
			filters: { mentionTypes: ['Comment', 'PrivateMessage'] },
			body: { type: ['Comment', 'PrivateMessage'] },
		},
		{
			name: 'sentiments',
			scope: 'recent',
			filters: { sentiments: ['Negative', 'Unspecified'] },
			body: { content: { sentiment: ['Negative', 'Unspecified'] } },
		},
		{
			name: 'content query (AND, OR, NOT, parentheses, phrase, wildcard)',
			scope: 'historical',
			filters: { query: '  ("battery life" OR acme*) AND NOT refund  ' },
			body: { content: { query: '("battery life" OR acme*) AND NOT refund' } },
		},
		{
			name: 'languages (codes normalised to lower case)',
			scope: 'recent',
			filters: { languages: 'en, PL,en-GB' },
			body: { content: { language: [{ code: 'en' }, { code: 'pl' }, { code: 'en-gb' }] } },
		},
		{
			name: 'countries (codes normalised to upper case)',
			scope: 'recent',
			filters: { countries: 'gb; pl DE' },
			body: { location: { country: [{ code: 'GB' }, { code: 'PL' }, { code: 'DE' }] } },
		},
		{
			name: 'everything at once',
			scope: 'historical',
			filters: {
				publishedAfter: '2026-09-01T00:00:00',
				publishedBefore: '2026-11-21T00:00:00',
				collectedAfter: '2026-09-01T00:00:00',
				sourceTypes: ['Facebook', 'X', 'Websites', 'Forums'],
				mentionTypes: ['Post', 'Comment'],
				sentiments: ['Negative', 'Neutral'],
				query: 'acme OR mobile',
				languages: 'en,pl',
				countries: 'GB,PL,US',
			},
			body: {
				publishedAt: { from: '2026-09-01T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' },
				collectedAt: { from: '2026-09-01T00:00:00.000Z' },
				source: { type: ['Facebook', 'X', 'Websites', 'Forums'] },
				type: ['Post', 'Comment'],
				content: {
					sentiment: ['Negative', 'Neutral'],
					query: 'acme OR mobile',
					language: [{ code: 'en' }, { code: 'pl' }],
				},
				location: { country: [{ code: 'GB' }, { code: 'PL' }, { code: 'US' }] },
			},
			sent: {
				publishedAt: { from: '2026-09-01T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' },
				collectedAt: { from: '2026-08-31T23:59:59.000Z' },
				source: { type: ['Facebook', 'X', 'Websites', 'Forums'] },
				type: ['Post', 'Comment'],
				content: {
					sentiment: ['Negative', 'Neutral'],
					query: 'acme OR mobile',
					language: [{ code: 'en' }, { code: 'pl' }],
				},
				location: { country: [{ code: 'GB' }, { code: 'PL' }, { code: 'US' }] },
			},
		},
	];

	test.each(cases)('$name', async ({ scope, filters, body, sent, timezone }) => {
		const fixture = scope === 'recent' ? recent() : historical();
		if (timezone) fixture.settings = { ...(fixture.settings ?? {}), timezone };
		const workflow = withParameters(fixture, {
			filters,
			returnAll: true,
			simplify: false,
			sortType: 'PublishedAtDescending',
		});
		const result = await run(sim, workflow, { key: ENTERPRISE });
		const mentions = jsonOf(result);

		const log = await searches()();
		expect(log.length).toBeGreaterThan(0);
		for (const request of log) {
			expect(request.body).toEqual({ filters: sent ?? body, sortType: 'PublishedAtDescending' });
			expect(request.path).toBe(
				scope === 'recent'
					? '/api/public/v2/projects/1001/mentions/recent/search'
					: '/api/public/v2/projects/1001/mentions/search',
			);
			expect(request.contentType).toBe('application/json');
		}
		// what came back is exactly what the simulator says matches, at ceil(N/25) requests (1 for 0)
		const expected = await groundTruth(1001, scope, body);
		expect(mentions).toHaveLength(expected);
		expect(log).toHaveLength(
			Math.max(1, Math.ceil((sent ? await groundTruth(1001, scope, sent) : expected) / 25)),
		);
		expect(new Set(mentions.map((m) => m.id)).size).toBe(expected);
	});

	test('results honour the filters (sentiment, source type, mention type, language, country)', async () => {
		const workflow = withParameters(recent(), {
			returnAll: true,
			simplify: false,
			filters: {
				sentiments: ['Negative'],
				sourceTypes: ['Facebook', 'X'],
				mentionTypes: ['Comment'],
				languages: 'en',
				countries: 'GB',
			},
		});
		const mentions = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		expect(mentions.length).toBeGreaterThan(0);
		for (const m of mentions) {
			expect(m.content.sentiment).toBe('Negative');
			expect(['Facebook', 'X']).toContain(m.source.type);
			expect(m.type).toBe('Comment');
			expect(m.content.language.code).toBe('en');
			expect(m.location.country.code).toBe('GB');
			expect(Date.parse(m.publishedAt)).toBeGreaterThanOrEqual(NOW_MS - 7 * DAY);
		}
	});
});

describe('sort', () => {
	test('every one of the nine sort orders is sent as chosen and returns the API order (9 items, one run)', async () => {
		const inputItems = SORT_TYPES.map((sortType) => ({
			projectId: 1001,
			limit: 7,
			sortType,
			sentiments: [],
			sourceTypes: [],
		}));
		const result = await run(sim, loadWorkflow('mention-search-per-item'), {
			key: ENTERPRISE,
			inputItems,
		});
		const items = outputOf(result);
		const log = await searches()();
		expect(log.map((r) => r.body.sortType)).toEqual([...SORT_TYPES]);
		for (const request of log) expect(request.body.filters).toEqual({});

		for (const [index, sortType] of SORT_TYPES.entries()) {
			const got = items
				.filter((item) => (item.pairedItem as { item: number }).item === index)
				.map((item) => item.json.id);
			const direct = await search(sim, 1001, { filters: {}, sortType }, { recent: true });
			expect(got).toEqual(direct.json.data.slice(0, 7).map((m: Loose) => m.id));
		}
	});

	test('default sort is PublishedAtDescending', async () => {
		const workflow = withParameters(recent(), { filters: {} });
		delete (workflow.nodes.find((n) => n.name === 'SentiOne')!.parameters as IDataObject).sortType;
		const mentions = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		const log = await searches()();
		expect(log[0].body).toEqual({ filters: {}, sortType: 'PublishedAtDescending' });
		const times = mentions.map((m) => Date.parse(m.publishedAt));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
	});
});

describe('pagination', () => {
	/** what each pagination test measured, pushed once its assertions passed */
	const counts = {
		returnAll: [] as Array<{ mentions: number; requests: number }>,
		limit: [] as Array<{ limit: number; of: number; requests: number }>,
		historical: [] as Array<{ mentions: number; requests: number }>,
	};
	afterAll(() => {
		// a run filtered to other tests measured nothing: keep the figures of the last run that did
		if (Object.values(counts).every((list) => list.length === 0)) return;
		const row = (fault: string, items: number, requests: number): ResultRow => ({
			fault,
			through: 'Mention → Search, Return All / Limit',
			cases: 1,
			items,
			lost: 0,
			duplicated: 0,
			outcome: `${requests} search request(s)`,
		});
		writePart({
			part: 'request-counts',
			title: 'Search requests per Return All and Limit',
			command: 'npx jest test/engine/actions/search.test.ts -t pagination',
			rows: [
				...counts.returnAll.map((c) => row(`Return All of ${c.mentions}`, c.mentions, c.requests)),
				...counts.limit.map((c) => row(`Limit ${c.limit} of ${c.of}`, c.limit, c.requests)),
				...counts.historical.map((c) =>
					row(`historical Return All of ${c.mentions}`, c.mentions, c.requests),
				),
			],
			figures: counts,
		});
	});

	// N mentions in an empty project: Return All costs exactly ceil(N/25) requests (1 for N = 0)
	test.each([0, 1, 24, 25, 26, 50, 51, 250, 1000])('Return All of %i mentions', async (n) => {
		const projectId = await projectWithMentions(sim, n);
		await clearLog(sim);
		const workflow = withParameters(recent(), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			returnAll: true,
			filters: {},
			simplify: true,
		});
		const rows = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		const log = await searches()();
		expect(rows).toHaveLength(n);
		expect(new Set(rows.map((r) => r.id)).size).toBe(n);
		expect(log).toHaveLength(n === 0 ? 1 : Math.ceil(n / 25));
		// the same body on every page, the cursor of the previous page on every page but the first
		expect(new Set(log.map((r) => JSON.stringify(r.body))).size).toBe(1);
		expect(log[0].query.cursor).toBeUndefined();
		for (const request of log.slice(1)) expect(typeof request.query.cursor).toBe('string');
		const truth = await admin<{ mentions: Loose[] }>(
			sim,
			'GET',
			`/mentions?projectId=${projectId}`,
		);
		expect(new Set(rows.map((r) => r.id))).toEqual(new Set(truth.mentions.map((m: Loose) => m.id)));
		counts.returnAll.push({ mentions: n, requests: log.length });
	});

	test.each([
		[1, 1],
		[25, 1],
		[26, 2],
		[50, 2],
		[51, 3],
		[1000, 40],
	])('Limit %i of 1,000 mentions fetches only the %i page(s) it needs', async (limit, pages) => {
		const of = 1000;
		const projectId = await projectWithMentions(sim, of);
		await clearLog(sim);
		const workflow = withParameters(recent(), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			returnAll: false,
			limit,
			filters: {},
		});
		const rows = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		expect(rows).toHaveLength(limit);
		const log = await searches()();
		expect(log).toHaveLength(pages);
		counts.limit.push({ limit, of, requests: log.length });
	});

	test('a limit larger than the result returns everything at ceil(N/25) requests', async () => {
		const projectId = await projectWithMentions(sim, 30);
		await clearLog(sim);
		const workflow = withParameters(recent(), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			limit: 500,
			filters: {},
		});
		expect(jsonOf(await run(sim, workflow, { key: ENTERPRISE }))).toHaveLength(30);
		expect(await searches()()).toHaveLength(2);
	});

	test('historical Return All over a date range: ascending order, ground-truth count, ceil(N/25) requests', async () => {
		const mentions = jsonOf(await run(sim, historical(), { key: ENTERPRISE }));
		const log = await searches(/\/mentions\/search$/)();
		const expected = await groundTruth(1001, 'historical', {
			publishedAt: { from: '2026-09-01T00:00:00.000Z', to: '2026-10-15T00:00:00.000Z' },
		});
		expect(expected).toBeGreaterThan(25);
		expect(mentions).toHaveLength(expected);
		expect(log).toHaveLength(Math.ceil(expected / 25));
		const times = mentions.map((m) => Date.parse(m.publishedAt));
		expect([...times].sort((a, b) => a - b)).toEqual(times);
		for (const t of times) {
			expect(t).toBeGreaterThanOrEqual(Date.parse('2026-09-01T00:00:00Z'));
			expect(t).toBeLessThan(Date.parse('2026-10-15T00:00:00Z'));
		}
		counts.historical.push({ mentions: mentions.length, requests: log.length });
	});
});

describe('expressions per item', () => {
	test('two input items with different projects, filters, limits and sorts in one run', async () => {
		const inputItems = [
			{
				projectId: 1001,
				limit: 3,
				sortType: 'PublishedAtDescending',
				sentiments: ['Negative'],
				sourceTypes: ['X'],
			},
			{
				projectId: 1002,
				limit: 30,
				sortType: 'LikeCountDescending',
				sentiments: ['Positive'],
				sourceTypes: ['Facebook', 'Instagram'],
			},
		];
		const items = outputOf(
			await run(sim, loadWorkflow('mention-search-per-item'), { key: ENTERPRISE, inputItems }),
		);
		const log = await searches()();

		expect(log.map((r) => r.path)).toEqual([
			'/api/public/v2/projects/1001/mentions/recent/search',
			'/api/public/v2/projects/1002/mentions/recent/search',
			'/api/public/v2/projects/1002/mentions/recent/search',
		]);
		expect(log[0].body).toEqual({
			filters: { source: { type: ['X'] }, content: { sentiment: ['Negative'] } },
			sortType: 'PublishedAtDescending',
		});
		expect(log[1].body).toEqual({
			filters: {
				source: { type: ['Facebook', 'Instagram'] },
				content: { sentiment: ['Positive'] },
			},
			sortType: 'LikeCountDescending',
		});

		const first = items.filter((i) => (i.pairedItem as { item: number }).item === 0);
		const second = items.filter((i) => (i.pairedItem as { item: number }).item === 1);
		expect(first).toHaveLength(3);
		expect(second).toHaveLength(30);
		for (const item of first) {
			expect(item.json.content).toMatchObject({ sentiment: 'Negative' });
			expect(item.json.source).toMatchObject({ type: 'X' });
		}
		for (const item of second) {
			expect(item.json.content).toMatchObject({ sentiment: 'Positive' });
			expect(['Facebook', 'Instagram']).toContain((item.json.source as IDataObject).type);
		}
		expect(items.map((i) => (i.pairedItem as { item: number }).item)).toEqual([
			...Array(3).fill(0),
			...Array(30).fill(1),
		]);
	});
});

describe('output', () => {
	const additions = {
		content: {
			title: 'A title',
			review: { rating: { value: 4, scale: { min: 1, max: 5, percent: 80 } } },
		},
		context: { parent: { content: { text: 'the parent post' } } },
		deprecatedV1Fields: { id: 'v1-123' },
		tags: ['vip', 'complaint'],
		discussion: { id: 'thread-1', author: { name: 'Thread Starter' }, source: { type: 'Forums' } },
		sentioneInternalScore: 0.73,
		somethingNobodyAnnounced: { nested: [1, { deep: true }], text: null },
		json: { looks: 'like an n8n item, but is a field of the mention' },
	};

	test('raw mentions come through untouched: announced additions and unknown fields included', async () => {
		const projectId = await projectWithMentions(sim, 3, additions);
		const truth = await admin<{ mentions: Loose[] }>(
			sim,
			'GET',
			`/mentions?projectId=${projectId}&full=1`,
		);
		const workflow = withParameters(recent(), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			returnAll: true,
			filters: {},
			simplify: false,
		});
		const rows = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		const byId = new Map(truth.mentions.map((m: Loose) => [m.id, m]));
		expect(rows).toHaveLength(3);
		for (const row of rows) {
			expect(row).toEqual(byId.get(row.id));
			expect(row.json).toEqual(additions.json);
			expect(row.somethingNobodyAnnounced).toEqual(additions.somethingNobodyAnnounced);
			expect(row.content.review.rating.scale.percent).toBe(80);
		}
	});

	test('Simplify: the same columns in the same order on every row, null where a mention lacks a field', async () => {
		const rows = jsonOf(
			await run(sim, withParameters(historical(), { simplify: true }), { key: ENTERPRISE }),
		);
		expect(rows.length).toBeGreaterThan(25);
		for (const row of rows) expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
		expect(rows.some((r) => r.country === null)).toBe(true);
		expect(rows.some((r) => r.title === null)).toBe(true);
	});

	test('Simplify maps each column from the mention', async () => {
		const projectId = await projectWithMentions(sim, 1, additions);
		const [mention] = (
			await admin<{ mentions: Loose[] }>(sim, 'GET', `/mentions?projectId=${projectId}&full=1`)
		).mentions;
		const workflow = withParameters(recent(), {
			project: { __rl: true, value: String(projectId), mode: 'id' },
			filters: {},
			simplify: true,
		});
		const [row] = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
		const common = mention.engagementMetrics.sourceMetrics.common;
		expect(row).toEqual({
			id: mention.id,
			url: mention.source.mentionUrl,
			publishedAt: mention.publishedAt,
			collectedAt: mention.collectedAt,
			sourceType: mention.source.type,
			mentionType: mention.type,
			sentiment: mention.content.sentiment,
			authorName: mention.author.name ?? null,
			authorFollowers: mention.author.influenceMetrics.followerCount ?? null,
			title: 'A title',
			text: mention.content.text ?? null,
			language: mention.content.language?.code ?? null,
			country: mention.location?.country?.code ?? null,
			likeCount: common.likeCount ?? null,
			shareCount: common.shareCount ?? null,
			commentCount: common.commentCount ?? null,
			viewCount: common.viewCount ?? null,
			influenceScore: mention.engagementMetrics.influenceScore ?? null,
			engagementRate: mention.engagementMetrics.engagementRate ?? null,
			tags: 'vip, complaint',
		});
		expect(Object.keys(row)).toEqual([...SIMPLE_COLUMNS]);
	});

	test('the simulator and the node agree on the time (virtual clock at NOW)', () => {
		expect(new Date(clock.now).toISOString()).toBe(NOW);
	});
});
