/* eslint-disable @n8n/community-nodes/require-node-api-error -- test code: a failed wait says what the trigger did, for jest */
/**
 * The Stream Trigger's Viral Mention event (trigger/stream/viralAlerts.ts, viralLookup.ts) through
 * `trigger()` with a fake engagement stream (FakeStream), a fake historical search of project 1001
 * that sorts and pages like SentiOne (D-19, D-20) and a fake clock: each rule fires once per
 * mention — across a reconnect whose backfill repeats the updates and across a restart (static
 * data reloaded) — with the mention's figures and its link from one look-up (the request built:
 * body, order, paging; the cap), another project's mention is not alerted, updates that carry only
 * the id are judged from rounds of the same searches, and bad fields are refused before any request.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { ALERT_STATE_KEY } from '../../../../nodes/SentiOne/trigger/alerts';
import { STREAM_STATE_KEY } from '../../../../nodes/SentiOne/trigger/stream/streamState';
import type { FakeAnswer, FakeRequest } from '../../../support/fake/api';
import { FakeApi, FakeStream, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { emittedRows, untilRecorded } from '../../../support/fake/context';
import { mention, sse } from '../../../support/fake/mentions';
import { keyOf, streamContext, useStreamTrigger } from '../../../support/fake/streamTrigger';
import { DAY, HOUR, MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { sleep } from '../../../support/wait';

const T = NOW_MS; // 10:30 UTC
const { activate } = useStreamTrigger();
const clock = useFakeClock(T);

const ENGAGEMENT = PATHS.engagementStream();
const HISTORICAL = PATHS.historicalSearch(1001);
const TARGET = 'viralMention:1001';
/** the look-up's published-after at `now`: the engagement window (30 days) and an hour's margin */
const windowFrom = (now: number) => new Date(now - 30 * DAY - HOUR).toISOString();

type Counts = {
	likeCount?: number | null;
	shareCount?: number | null;
	commentCount?: number | null;
	viewCount?: number | null;
};

/** A mention of project 1001 with these counts. */
const inProject = (id: string, counts: Counts) =>
	mention(id, { engagementMetrics: { sourceMetrics: { common: counts } } });

const count = (m: IDataObject, by: string) =>
	(((m.engagementMetrics as IDataObject).sourceMetrics as IDataObject).common as IDataObject)[
		by
	] as number | null;

/**
 * The project's historical search: `store` sorted by the order asked for (nulls last, ties by id),
 * 25 a page, the cursor the offset. The test changes `store` as counts grow.
 */
function projectSearch(api: FakeApi, store: IDataObject[], answer?: () => FakeAnswer | undefined) {
	api.on('POST', HISTORICAL, (request: FakeRequest) => {
		const scripted = answer?.();
		if (scripted) return scripted;
		const body = request.body as IDataObject;
		const by = body.sortType === 'ShareCountDescending' ? 'shareCount' : 'likeCount';
		const sorted = [...store].sort(
			(a, b) =>
				(count(b, by) ?? -1) - (count(a, by) ?? -1) || String(a.id).localeCompare(String(b.id)),
		);
		const offset = Number(request.qs.cursor ?? 0);
		const next = offset + 25 < sorted.length ? String(offset + 25) : null;
		return { body: page(sorted.slice(offset, offset + 25), next) };
	});
}

/** An engagement update as D-28 has it (id `<mentionId>:<updatedAt>`); without counts: id-only. */
function update(mentionId: string, at: number, counts?: Counts): string {
	const updatedAt = new Date(at).toISOString();
	const data: IDataObject = { mentionId, updatedAt };
	if (counts) data.engagementMetrics = { influenceScore: 5, sourceMetrics: { common: counts } };
	return sse.engagementUpdate(data, `${mentionId}:${updatedAt}`);
}

const settle = async () => await sleep(30);

/** Waits until the trigger passed on `n` items; says what it did when it did not. */
async function emitted(ctx: ReturnType<typeof streamContext>, n: number) {
	try {
		await untilRecorded(ctx, (r) => r.emitted.length === n);
	} catch {
		throw new Error(
			`expected ${n} item(s): ${JSON.stringify({
				items: emittedRows(ctx),
				requests: ctx.recorded.api.requests.map((r) => [r.path, r.qs]),
				logs: ctx.recorded.logs,
				failed: ctx.recorded.failed.map(String),
				errors: ctx.recorded.errors.map(String),
			})}`,
		);
	}
}

/** Moves the clock and sends a heartbeat (the trigger judges due work on every event). */
async function tickAt(stream: FakeStream, ms: number) {
	clock().now = ms;
	stream.send(sse.heartbeat(ms));
	await settle();
}

const viral = (extra: IDataObject = {}) => ({
	event: 'viralMention',
	...extra,
	options: { stallTimeout: 600, ...((extra.options as IDataObject) ?? {}) },
});

/** An active trigger on a fake SentiOne: the engagement stream answers `streams` in order. */
async function startViral(
	streams: FakeStream[],
	store: IDataObject[],
	o: { parameters?: IDataObject; staticData?: IDataObject; api?: FakeApi } = {},
) {
	const api = o.api ?? new FakeApi();
	for (const stream of streams) api.once('POST', ENGAGEMENT, { stream });
	if (!o.api) projectSearch(api, store);
	const ctx = streamContext(api, { parameters: viral(o.parameters), staticData: o.staticData });
	const trigger = await activate(ctx);
	return { api, ctx, trigger };
}

const searches = (api: FakeApi) => api.sent(HISTORICAL);

describe('a threshold crossed', () => {
	test('one look-up finds the mention: the alert carries the figures and the link, once, under its own key, saved with the stream memory', async () => {
		const store = [
			inProject('a', { likeCount: 10 }),
			inProject('v', { likeCount: 1200, shareCount: 30 }),
		];
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store);
		expect(api.requests.map((r) => r.path)).toEqual([ENGAGEMENT]);
		clock().now = T + MINUTE;
		stream.send(update('v', T + MINUTE, { likeCount: 999, shareCount: 20 }));
		await settle();
		expect(searches(api)).toEqual([]); // below every threshold: no request
		stream.send(
			update('v', T + 2 * MINUTE, {
				likeCount: 1200,
				shareCount: 30,
				commentCount: 4,
				viewCount: null,
			}),
		);
		await emitted(ctx, 1);
		expect(searches(api)).toHaveLength(1);
		expect(searches(api)[0]).toMatchObject({
			qs: {},
			body: {
				filters: { publishedAt: { from: windowFrom(T + MINUTE) } },
				sortType: 'LikeCountDescending',
			},
		});
		const [item] = emittedRows(ctx);
		expect(item).toMatchObject({
			kind: 'viralMention',
			mentionId: 'v',
			projectId: 1001,
			rule: 'crossed',
			metric: 'likeCount',
			level: 1000,
			value: 1200,
			figures: { likeCount: 1200, shareCount: 30, commentCount: 4 },
			updatedAt: new Date(T + 2 * MINUTE).toISOString(),
			found: true,
			url: 'https://social.example/posts/v',
			authorName: 'Anna Nowak',
			sourceType: 'Facebook',
			text: 'The Acme phone is great (v)',
			lookup: 'Found in project 1001 by 1 search (most liked first).',
		});
		expect(item.summary).toBe(
			'Going viral: A post by Anna Nowak on Facebook passed 1,000 likes (1,200 likes, 30 shares, 4 comments) at 10:32 (UTC). “Acme phone review” https://social.example/posts/v',
		);
		expect(ctx.recorded.keys[0]).toBe(keyOf('viral:v|likeCount|>=1000', TARGET));
		expect(ctx.staticData[STREAM_STATE_KEY]).toMatchObject({ target: TARGET });
		expect(ctx.staticData[ALERT_STATE_KEY]).toMatchObject({
			kind: 'viralMention',
			projectId: 1001,
			rules: { fired: [['v|likeCount|>=1000', T + 2 * MINUTE]] },
			lookups: [T + MINUTE], // the clock when the search was sent
		});
		// higher figures later: the same rule does not fire again
		stream.send(update('v', T + 3 * MINUTE, { likeCount: 5000, shareCount: 30 }));
		await settle();
		expect(emittedRows(ctx)).toHaveLength(1);
	});

	test('a reconnect whose backfill repeats the updates fires nothing again; a restart from the saved static data neither, and the next rule fires once', async () => {
		const store = [inProject('v', { likeCount: 1500, shareCount: 10 })];
		const first = new FakeStream();
		const second = new FakeStream();
		const { api, ctx, trigger } = await startViral([first, second], store);
		clock().now = T + MINUTE;
		const crossing = update('v', T + MINUTE, { likeCount: 1500, shareCount: 10 });
		first.send(crossing);
		await emitted(ctx, 1);
		first.drop();
		await untilRecorded(ctx, () => api.sent(ENGAGEMENT).length === 2, 'the reconnect');
		expect(api.sent(ENGAGEMENT)[1].qs).toMatchObject({ backfillMinutes: expect.any(Number) });
		second.send(crossing, update('v', T + 30 * SECOND, { likeCount: 1100, shareCount: 8 }));
		await settle();
		expect(emittedRows(ctx)).toHaveLength(1);
		await trigger.close();
		// n8n stops; it starts again with the static data it saved (JSON there and back)
		const saved = JSON.parse(JSON.stringify(ctx.staticData)) as IDataObject;
		const third = new FakeStream();
		const again = await startViral([third], store, { staticData: saved });
		third.send(crossing);
		await settle();
		expect(emittedRows(again.ctx)).toEqual([]);
		store[0] = inProject('v', { likeCount: 1600, shareCount: 250 });
		clock().now = T + 5 * MINUTE;
		third.send(update('v', T + 5 * MINUTE, { likeCount: 1600, shareCount: 250 }));
		// two rules at once (200 shares; Fast Growth: +100 shares within 60 minutes): two alerts, one look-up
		await emitted(again.ctx, 2);
		expect(emittedRows(again.ctx)).toMatchObject([
			{ rule: 'crossed', metric: 'shareCount', level: 200, found: true },
			{ rule: 'gained', metric: 'shareCount', level: 100, from: 10, minutes: 4, found: true },
		]);
		// not looked up again: the row of an alerted mention is saved with the alerts
		expect(searches(again.api)).toEqual([]);
		expect(emittedRows(again.ctx)[0]).toMatchObject({
			url: 'https://social.example/posts/v',
			lookup: 'Found in project 1001 by an earlier search (no request).',
		});
		third.send(update('v', T + 5 * MINUTE, { likeCount: 1600, shareCount: 250 }));
		await settle();
		expect(emittedRows(again.ctx)).toHaveLength(2);
	});

	test('an alert whose look-up the restart cut short is not saved as fired: the backfill fires it again', async () => {
		const api = new FakeApi();
		const store = [inProject('a', { likeCount: 1200 }), inProject('v', { likeCount: 1500 })];
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		// the look-up of `a` is answered; the next one (of `v`) hangs until n8n stops
		api.once('POST', HISTORICAL, { body: page([store[0]], null) });
		api.once('POST', HISTORICAL, async () => {
			await held;
			return { body: page(store, null) };
		});
		const first = new FakeStream();
		const { ctx, trigger } = await startViral([first], store, { api });
		clock().now = T + MINUTE;
		first.send(
			update('a', T + MINUTE, { likeCount: 1200 }),
			update('v', T + MINUTE, { likeCount: 1500 }),
		);
		await emitted(ctx, 1);
		await settle();
		const closing = trigger.close();
		release();
		await closing;
		expect(emittedRows(ctx).map((r) => r.mentionId)).toEqual(['a']);
		// saved with the alert of `a`: its rule, not that of `v` (not passed on)
		const saved = JSON.parse(JSON.stringify(ctx.staticData)) as IDataObject;
		expect((saved[ALERT_STATE_KEY] as IDataObject).rules).toMatchObject({
			fired: [['a|likeCount|>=1000', T + MINUTE]],
		});
		const second = new FakeStream();
		const again = await startViral([second], store, { staticData: saved });
		second.send(
			update('a', T + MINUTE, { likeCount: 1200 }),
			update('v', T + MINUTE, { likeCount: 1500 }),
		);
		await emitted(again.ctx, 1);
		await settle();
		expect(emittedRows(again.ctx)).toMatchObject([{ mentionId: 'v', found: true }]);
	});
});

describe('fast growth', () => {
	test('gains M within T minutes: one alert with where it started and how long it took', async () => {
		const store = [inProject('g', { shareCount: 150, likeCount: 40 })];
		const stream = new FakeStream();
		const { ctx } = await startViral([stream], store, {
			parameters: {
				viral_shareCount: 0,
				viral_likeCount: 0,
				viralGrowthGain: 100,
				viralGrowthMinutes: 30,
			},
		});
		for (const [m, shares] of [
			[0, 20],
			[10, 60],
			[20, 110],
			[40, 150],
		]) {
			clock().now = T + m * MINUTE;
			stream.send(update('g', T + m * MINUTE, { shareCount: shares, likeCount: 40 }));
			await settle();
		}
		// 20 → 110 in 20 minutes: 90 (no); 60 at minute 10 → 150 at minute 40: 90 (no); 20 → 150 spans 40 minutes
		expect(emittedRows(ctx)).toEqual([]);
		clock().now = T + 45 * MINUTE;
		stream.send(update('g', T + 45 * MINUTE, { shareCount: 215, likeCount: 40 }));
		await emitted(ctx, 1);
		expect(emittedRows(ctx)[0]).toMatchObject({
			rule: 'gained',
			metric: 'shareCount',
			level: 100,
			value: 215,
			from: 110,
			minutes: 25,
			found: true,
		});
		expect(emittedRows(ctx)[0].summary).toMatch(
			/^Going viral: A post by Anna Nowak on Facebook gained 105 shares in 25 minutes \(40 likes, 215 shares\) at 11:15 \(UTC\)\./,
		);
	});
});

describe('the look-up', () => {
	test('reads a second page when the first neither finds the mention nor rules it out', async () => {
		const store = [
			...Array.from({ length: 30 }, (_, k) =>
				inProject(`top${String(k).padStart(2, '0')}`, { likeCount: 9000 - k }),
			),
			inProject('v', { likeCount: 1500 }),
		];
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store);
		stream.send(update('v', T, { likeCount: 1500 }));
		await emitted(ctx, 1);
		expect(searches(api).map((r) => r.qs)).toEqual([{}, { cursor: '25' }]);
		expect(searches(api)[1].body).toEqual(searches(api)[0].body);
		expect(emittedRows(ctx)[0]).toMatchObject({
			found: true,
			lookup: 'Found in project 1001 by 2 searches (most liked first).',
		});
	});

	test('a mention of another project (the order passes below its count without it) is not alerted, nor looked up again', async () => {
		const store = [
			inProject('a', { likeCount: 300, shareCount: 5 }),
			inProject('b', { likeCount: 2 }),
		];
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store);
		stream.send(update('elsewhere', T, { likeCount: 5000, shareCount: 1 }));
		await settle();
		expect(searches(api)).toHaveLength(1);
		stream.send(update('elsewhere', T + MINUTE, { likeCount: 5000, shareCount: 900 }));
		await settle();
		expect(searches(api)).toHaveLength(1);
		expect(emittedRows(ctx)).toEqual([]);
		expect(ctx.recorded.logs.join('\n')).toMatch(
			/is not in project 1001 \(1 search\); not alerted/,
		);
	});

	test('comments and views are looked for in the likes order (shares when the update has no likes); not placed, the alert says why', async () => {
		const store = Array.from({ length: 60 }, (_, k) =>
			inProject(`p${k}`, { likeCount: 100_000 + k, shareCount: 1 }),
		);
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store, {
			parameters: {
				viral_viewCount: 10_000,
				viral_likeCount: 0,
				viral_shareCount: 0,
				viralGrowthGain: 0,
			},
		});
		stream.send(update('x', T, { likeCount: 60_000, viewCount: 20_000 }));
		await emitted(ctx, 1);
		expect(searches(api).map((r) => (r.body as IDataObject).sortType)).toEqual([
			'LikeCountDescending',
			'LikeCountDescending',
		]);
		expect(emittedRows(ctx)[0]).toMatchObject({
			metric: 'viewCount',
			found: false,
			url: null,
			authorName: null,
			mention: null,
			lookup:
				'it is not among the 50 mentions of project 1001 with the most likes that 2 searches read (most liked first, published in the last 30 days).',
		});
		expect(emittedRows(ctx)[0].summary).toBe(
			'Going viral: A mention passed 10,000 views (60,000 likes, 20,000 views) at 10:30 (UTC). Its link could not be found: it is not among the 50 mentions of project 1001 with the most likes that 2 searches read (most liked first, published in the last 30 days).',
		);
		stream.send(update('y', T, { shareCount: 1, viewCount: 50_000 }));
		await emitted(ctx, 2);
		expect((searches(api)[2].body as IDataObject).sortType).toBe('ShareCountDescending');
		expect(emittedRows(ctx)[1]).toMatchObject({ mentionId: 'y', found: false });
	});

	test('one look-up per mention: a mention the search could not place is not searched again for its later rules, after a restart neither', async () => {
		const store = Array.from({ length: 60 }, (_, k) =>
			inProject(`p${k}`, { likeCount: 100_000 + k, shareCount: 1 }),
		);
		const stream = new FakeStream();
		const parameters = { viral_viewCount: 10_000, viralGrowthGain: 0 };
		const { api, ctx, trigger } = await startViral([stream], store, { parameters });
		stream.send(update('x', T, { likeCount: 1500, shareCount: 10, viewCount: 100 }));
		await emitted(ctx, 1);
		expect(searches(api)).toHaveLength(2); // the likes order, two pages
		const note =
			'it is not among the 50 mentions of project 1001 with the most likes that 2 searches read (most liked first, published in the last 30 days).';
		expect(emittedRows(ctx)[0]).toMatchObject({ metric: 'likeCount', found: false, lookup: note });
		clock().now = T + MINUTE;
		stream.send(update('x', T + MINUTE, { likeCount: 1600, shareCount: 300, viewCount: 100 }));
		await emitted(ctx, 2);
		expect(searches(api)).toHaveLength(2);
		expect(emittedRows(ctx)[1]).toMatchObject({
			metric: 'shareCount',
			found: false,
			lookup: `an earlier search did not find it (no request): ${note}`,
		});
		await trigger.close();
		const saved = JSON.parse(JSON.stringify(ctx.staticData)) as IDataObject;
		const next = new FakeStream();
		const again = await startViral([next], store, { parameters, staticData: saved });
		clock().now = T + 2 * MINUTE;
		next.send(update('x', T + 2 * MINUTE, { likeCount: 1700, shareCount: 300, viewCount: 12_000 }));
		await emitted(again.ctx, 1);
		expect(emittedRows(again.ctx)[0]).toMatchObject({ metric: 'viewCount', found: false });
		expect(searches(again.api)).toEqual([]);
	});

	test('the cap: past Look-Up Searches per Hour the alert comes without its link, saying until when; an hour later it looks up again', async () => {
		const store = [
			inProject('v1', { likeCount: 2000 }),
			inProject('v2', { likeCount: 3000 }),
			inProject('v3', { likeCount: 4000 }),
		];
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store, {
			parameters: { options: { lookupSearchesPerHour: 1 } },
		});
		stream.send(update('v1', T, { likeCount: 2000 }));
		await emitted(ctx, 1);
		clock().now = T + 10 * MINUTE;
		stream.send(update('elsewhere', T + 10 * MINUTE, { likeCount: 1001 }));
		await emitted(ctx, 2);
		expect(searches(api)).toHaveLength(1);
		expect(emittedRows(ctx)[1]).toMatchObject({ mentionId: 'elsewhere', found: false, url: null });
		expect(emittedRows(ctx)[1].lookup).toMatch(
			/^the look-up cap \(1 search an hour, Options → Look-Up Searches per Hour\) is spent until 2026-11-21 11:30(:00)? UTC \(in 50 min\)\.$/,
		);
		// v2 was on the page of the first look-up: found without a request
		stream.send(update('v2', T + 11 * MINUTE, { likeCount: 3000 }));
		await emitted(ctx, 3);
		expect(emittedRows(ctx)[2]).toMatchObject({
			found: true,
			lookup: 'Found in project 1001 by an earlier search (no request).',
		});
		clock().now = T + HOUR + SECOND;
		store.push(inProject('v4', { likeCount: 1001 }));
		stream.send(update('v4', T + HOUR, { likeCount: 1001 }));
		await emitted(ctx, 4);
		expect(searches(api)).toHaveLength(2);
	});

	test('a spent search budget of the key: the alert says so and no further request is sent', async () => {
		const api = new FakeApi();
		let refuse = true;
		projectSearch(api, [inProject('v', { likeCount: 5000 })], () =>
			refuse
				? {
						status: 429,
						headers: rateLimitHeaders(30, 0, T + 20 * MINUTE),
						body: { message: 'Too many requests.' },
					}
				: undefined,
		);
		const stream = new FakeStream();
		const { ctx } = await startViral([stream], [], { api });
		stream.send(update('v', T, { likeCount: 5000 }));
		await emitted(ctx, 1);
		expect(emittedRows(ctx)[0]).toMatchObject({ found: false });
		expect(emittedRows(ctx)[0].lookup).toMatch(
			/^SentiOne's search budget of this API key is used up until 2026-11-21 10:50/,
		);
		refuse = false;
		stream.send(update('w', T, { likeCount: 5000 }));
		await emitted(ctx, 2);
		expect(searches(api)).toHaveLength(1); // the known budget: not spent on a certain 429
	});
});

describe('updates that carry only the id', () => {
	test('no request per update; a round reads the likes and shares orders, the rules run on the figures found, alerts carry the link; the next round 20 minutes on', async () => {
		const store = [
			inProject('v', { likeCount: 1500, shareCount: 20 }),
			inProject('s', { likeCount: 3, shareCount: 400 }),
			inProject('quiet', { likeCount: 2, shareCount: 1 }),
		];
		const stream = new FakeStream();
		const { api, ctx } = await startViral([stream], store);
		stream.send(update('v', T), update('s', T), update('elsewhere', T), update('v', T + 1));
		await settle();
		expect(searches(api)).toEqual([]);
		await tickAt(stream, T + 5 * SECOND);
		await emitted(ctx, 2);
		expect(searches(api).map((r) => [(r.body as IDataObject).sortType, r.qs])).toEqual([
			['LikeCountDescending', {}],
			['ShareCountDescending', {}],
		]);
		expect(emittedRows(ctx)).toMatchObject([
			{
				mentionId: 'v',
				metric: 'likeCount',
				found: true,
				url: 'https://social.example/posts/v',
				figures: { likeCount: 1500, shareCount: 20 },
			},
			{ mentionId: 's', metric: 'shareCount', found: true },
		]);
		expect(emittedRows(ctx)[0].lookup).toBe(
			"Read by a search of project 1001 (the update carried only the mention's ID).",
		);
		expect(ctx.recorded.logs.join('\n')).toMatch(
			/carry only the mention's ID; .* a round every 20 min/,
		);
		// updates keep coming: no round before 20 minutes
		store[0] = inProject('v', { likeCount: 1500, shareCount: 250 });
		stream.send(update('v', T + MINUTE));
		await tickAt(stream, T + 19 * MINUTE);
		expect(searches(api)).toHaveLength(2);
		await tickAt(stream, T + 20 * MINUTE + 5 * SECOND);
		// 200 shares, and +230 within 60 minutes (Fast Growth): two alerts of one round
		await emitted(ctx, 4);
		expect(emittedRows(ctx).slice(2)).toMatchObject([
			{ mentionId: 'v', rule: 'crossed', metric: 'shareCount', level: 200 },
			{ mentionId: 'v', rule: 'gained', metric: 'shareCount', from: 20, minutes: 20 },
		]);
		expect(searches(api).length).toBeLessThanOrEqual(4);
	});

	test('Fast Growth shorter than the time between rounds is reported once', async () => {
		const stream = new FakeStream();
		const { ctx } = await startViral([stream], [], { parameters: { viralGrowthMinutes: 10 } });
		stream.send(update('v', T), update('w', T));
		await settle();
		expect(ctx.recorded.failed.map((e) => e.message)).toEqual([
			"Fast Growth within 10 minutes cannot be judged: SentiOne's engagement updates carry only the mention's ID, so the figures are read by search, every 20 minutes with 6 look-up searches an hour.",
		]);
	});
});

describe('settings and test events', () => {
	test.each([
		[{ project: { __rl: true, mode: 'id', value: '' } }, /^Project/],
		[{ viral_likeCount: -1 }, /^Likes At Least: "-1" is not valid/],
		[
			{ viral_likeCount: 0, viral_shareCount: 0, viralGrowthGain: 0 },
			/^Likes At Least: every threshold is 0 and Fast Growth: Gain is 0/,
		],
		[
			{ viral_viewCount: 1e15 },
			/^Views At Least: "1000000000000000" is not valid\. Expected a whole number from 0 to 10000000000\.$/,
		],
		[{ viral_shareCount: 2.5 }, /^Shares At Least: "2\.5" is not valid/],
		[{ viral_commentCount: 'many' }, /^Comments At Least: "many" is not valid/],
		[{ viralGrowthGain: -5 }, /^Fast Growth: Gain: "-5" is not valid/],
		[{ viralGrowthGain: 2e10 }, /^Fast Growth: Gain: "20000000000" is not valid/],
		[{ viralGrowthMinutes: 0 }, /^Fast Growth: Within \(Minutes\): "0" is not valid/],
		[{ viralGrowthMinutes: -30 }, /^Fast Growth: Within \(Minutes\): "-30" is not valid/],
		[{ viralGrowthMinutes: 1441 }, /^Fast Growth: Within \(Minutes\): "1441" is not valid/],
		[{ viralGrowthMetric: 'loveCount' }, /^Fast Growth Of: "loveCount" is not a choice/],
		[
			{ options: { lookupSearchesPerHour: 0 } },
			/^Options → Look-Up Searches per Hour: "0" is not valid\. Expected a whole number from 1 to 30\.$/,
		],
		[
			{ options: { lookupSearchesPerHour: 31 } },
			/^Options → Look-Up Searches per Hour: "31" is not valid/,
		],
	])('%j is refused naming the field, before any request', async (parameters, message) => {
		const api = new FakeApi();
		const ctx = streamContext(api, { parameters: { event: 'viralMention', ...parameters } });
		await expect(activate(ctx)).rejects.toThrow(message);
		expect(api.requests).toEqual([]);
	});

	test('"Listen for test event": the first engagement update as an item of the alert\'s shape, no search, then it stops', async () => {
		const api = new FakeApi();
		const stream = new FakeStream();
		api.once('POST', ENGAGEMENT, { stream });
		const ctx = streamContext(api, { parameters: viral(), mode: 'manual' });
		await activate(ctx);
		stream.send(update('v', T, { likeCount: 12, shareCount: 3 }));
		await emitted(ctx, 1);
		expect(emittedRows(ctx)[0]).toMatchObject({
			kind: 'viralMention',
			test: true,
			mentionId: 'v',
			figures: { likeCount: 12, shareCount: 3 },
			url: null,
			summary:
				'Test event, built from the first engagement update: a mention now has 12 likes, 3 shares. An alert comes when a mention of project 1001 passes a threshold or grows fast, with its figures and its link.',
		});
		expect(api.sent(HISTORICAL)).toEqual([]);
		expect(api.sent(ENGAGEMENT)[0].qs).toEqual({ backfillMinutes: 5 });
		await untilRecorded(ctx, () => stream.closed, 'the stream to close');
	});
});
