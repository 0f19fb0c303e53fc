// Viral mentions (viral.ts): chosen mentions or a share of new ones grow minute by minute; one
// engagementUpdate (D-28) per minute of growth, counts that only grow, the store's figures (search,
// ground truth) current; the admin endpoint, the CLI flags, reset.
import {
	addMentions,
	admin,
	adminCall,
	advanceClock,
	openStream,
	parseLines,
	searchAll,
	startSim,
	useSim,
	type LiveStream,
	type Loose,
	type Sim,
} from '../../test/support/simulator';
import { DAY, MINUTE, NOW_MS } from '../../test/support/time';

const ENGAGEMENT = '/mentions/engagement/updates/stream/live';
const iso = (ms: number) => new Date(ms).toISOString();

let sim: Sim;
useSim(
	[
		'--projects',
		'1',
		'--mentions',
		'200',
		'--history-days',
		'20',
		'--limits',
		'off',
		'--heartbeat-ms',
		'150',
	],
	(started) => (sim = started),
	{ reset: true },
);

const truthOf = async (s: Sim, id: string): Promise<Loose> =>
	(await admin(s, 'GET', '/mentions?projectId=1001&full=1')).mentions.find(
		(m: Loose) => m.id === id,
	);

/** The engagementUpdate events a stream received so far, parsed. */
const updatesOn = (s: LiveStream): Loose[] =>
	parseLines(s.body())
		.filter((e) => e.event === 'engagementUpdate')
		.map((e) => ({ ...JSON.parse(e.data), eventId: e.id }));

const common = (u: Loose) => u.engagementMetrics.sourceMetrics.common;

describe('a chosen mention goes viral', () => {
	test('one update a minute for its minutes, counts that only grow, search and ground truth current', async () => {
		const [target] = (await admin(sim, 'GET', '/mentions?projectId=1001&full=1')).mentions.filter(
			(m: Loose) => m.engagementMetrics.sourceMetrics.common.likeCount !== null,
		);
		const before = target.engagementMetrics.sourceMetrics.common;
		const s = await openStream(sim, ENGAGEMENT, { accept: 'application/x-ndjson' });
		try {
			const started = await admin(sim, 'POST', '/engagement', {
				viral: [
					{
						mentionId: target.id,
						minutes: 5,
						perMinute: { likeCount: 40, shareCount: 10, viewCount: 2000 },
					},
				],
			});
			expect(started.updates).toEqual([]);
			expect(started.viral).toEqual([
				{
					mentionId: target.id,
					startedAt: iso(NOW_MS),
					endsAt: iso(NOW_MS + 5 * MINUTE),
					minutesDone: 0,
					minutes: 5,
					factor: 1,
					perMinute: { likeCount: 40, shareCount: 10, viewCount: 2000 },
				},
			]);
			// three minutes in one jump: three updates, one per minute, at the minute
			await advanceClock(sim, 3 * MINUTE + 30_000);
			await s.until((b) => (b.match(/engagementUpdate/g) ?? []).length >= 3);
			await advanceClock(sim, 10 * MINUTE);
			await s.until((b) => (b.match(/engagementUpdate/g) ?? []).length >= 5);
			const ups = updatesOn(s);
			expect(ups).toHaveLength(5);
			ups.forEach((u, i) => {
				expect(u.mentionId).toBe(target.id);
				expect(u.updatedAt).toBe(iso(NOW_MS + (i + 1) * MINUTE));
				expect(u.eventId).toBe(`${target.id}:${u.updatedAt}`);
				const c = common(u);
				expect(c.likeCount).toBe(before.likeCount + 40 * (i + 1));
				expect(c.shareCount).toBe((before.shareCount ?? 0) + 10 * (i + 1));
				expect(c.viewCount).toBe((before.viewCount ?? 0) + 2000 * (i + 1));
				expect(c.commentCount).toBe(before.commentCount);
			});
			// done: no more updates, nothing growing
			await advanceClock(sim, 10 * MINUTE);
			expect((await admin(sim, 'GET', '/engagement')).viral).toEqual([]);
			expect(updatesOn(s)).toHaveLength(5);
			// the store has the current figures: ground truth, and a search sorted by likes
			const last = ups[4];
			expect((await truthOf(sim, target.id)).engagementMetrics).toEqual(last.engagementMetrics);
			const { mentions } = await searchAll(sim, 1001, { sortType: 'LikeCountDescending' });
			const found = mentions.find((m) => m.id === target.id);
			expect(found.engagementMetrics).toEqual(last.engagementMetrics);
			const likes = mentions.map((m) => m.engagementMetrics.sourceMetrics.common.likeCount ?? -1);
			expect(likes).toEqual([...likes].sort((a, b) => b - a));
		} finally {
			s.close();
		}
	});

	test('a factor curve multiplies the counts each minute; the default curve applies to what is not given', async () => {
		const all = (await admin(sim, 'GET', '/mentions?projectId=1001&full=1')).mentions;
		const [a, b] = all.filter(
			(m: Loose) => (m.engagementMetrics.sourceMetrics.common.likeCount ?? 0) > 0,
		);
		const res = await admin(sim, 'POST', '/engagement', {
			viralCurve: { minutes: 2 },
			viral: [{ mentionId: a.id, factor: 2, perMinute: {} }, { mentionId: b.id }],
		});
		expect(res.viralCurve).toEqual({
			minutes: 2,
			factor: 1,
			perMinute: { likeCount: 50, shareCount: 12, commentCount: 8, viewCount: 2500 },
		});
		expect(res.viral.map((v: Loose) => [v.minutes, v.factor])).toEqual([
			[2, 2],
			[2, 1],
		]);
		await advanceClock(sim, 5 * MINUTE);
		const ca = (await truthOf(sim, a.id)).engagementMetrics.sourceMetrics.common;
		const a0 = a.engagementMetrics.sourceMetrics.common;
		expect(ca.likeCount).toBe(a0.likeCount * 4);
		expect(ca.viewCount).toBe(a0.viewCount === null ? null : a0.viewCount * 4);
		const cb = (await truthOf(sim, b.id)).engagementMetrics.sourceMetrics.common;
		const b0 = b.engagementMetrics.sourceMetrics.common;
		expect(cb.likeCount).toBe(b0.likeCount + 100);
		expect(cb.commentCount).toBe((b0.commentCount ?? 0) + 16);
	});

	test('bad viral requests → 404 or 400 naming the field; nothing changes', async () => {
		const [old] = await addMentions(sim, 1001, 1, {
			publishedAt: iso(NOW_MS - 40 * DAY),
			collectedAt: iso(NOW_MS - 39 * DAY),
		});
		const [recent] = (await admin(sim, 'GET', '/mentions?projectId=1001')).mentions.slice(-1);
		const cases: Array<[unknown, number, string]> = [
			[{ viral: [{ mentionId: 'nope' }] }, 404, 'viral[0].mentionId: mention nope not found.'],
			[
				{ viral: [{ mentionId: recent.id }, { mentionId: old.id }] },
				400,
				`viral[1].mentionId: mention ${old.id} was published more than 30 days ago`,
			],
			[
				{ viral: [{ mentionId: recent.id, perMinute: { loveCount: 3 } }] },
				400,
				'viral[0].perMinute.loveCount is not a common count',
			],
			[
				{ viral: [{ mentionId: recent.id, minutes: 0 }] },
				400,
				'viral[0].minutes must be a number between 1 and 10080',
			],
			[
				{ viral: [{ mentionId: recent.id, factor: 0.5 }] },
				400,
				'viral[0].factor must be a number between 1 and 10',
			],
			[{ viral: { mentionId: recent.id } }, 400, 'viral must be an array'],
			[{ viralShare: 2 }, 400, 'viralShare must be between 0 and 1'],
			[
				{ viralCurve: { minutes: 3, speed: 2 } },
				400,
				'viralCurve.speed is not a field of a viral curve',
			],
			[{ viralShares: 0.1 }, 400, 'viralShares is not a field'],
		];
		for (const [body, status, message] of cases) {
			const res = await adminCall(sim, 'POST', '/engagement', body);
			expect({ body, status: res.status, message: res.json.message }).toEqual({
				body,
				status,
				message: expect.stringContaining(message),
			});
		}
		expect(await admin(sim, 'GET', '/engagement')).toEqual({
			engagementPerMinute: 0,
			viralShare: 0,
			viralCurve: {
				minutes: 60,
				factor: 1,
				perMinute: { likeCount: 50, shareCount: 12, commentCount: 8, viewCount: 2500 },
			},
			viral: [],
		});
	});
});

describe('a share of the new mentions goes viral (--viral-share, --viral-curve)', () => {
	test('each viral mention grows from its collectedAt, one update a minute; reset restores the flags', async () => {
		const flags = [
			'--projects',
			'1',
			'--mentions',
			'20',
			'--limits',
			'off',
			'--live-rate',
			'20',
			'--viral-share',
			'0.1',
			'--viral-curve',
			'minutes=10,likeCount=7',
			'--heartbeat-ms',
			'100',
		];
		const other = await startSim(flags);
		try {
			const startup = await admin(other, 'GET', '/engagement');
			expect(startup).toMatchObject({
				viralShare: 0.1,
				viralCurve: { minutes: 10, factor: 1, perMinute: { likeCount: 7 } },
			});
			const s = await openStream(other, ENGAGEMENT, { accept: 'application/x-ndjson' });
			try {
				await advanceClock(other, 30 * MINUTE);
				const end = NOW_MS + 30 * MINUTE;
				const collected = (
					await admin(other, 'GET', `/mentions?projectId=1001&collectedFrom=${iso(NOW_MS)}`)
				).mentions;
				expect(collected).toHaveLength(600);
				// every update the stream will carry: min(10, whole minutes since collection) per viral mention
				const growing = (await admin(other, 'GET', '/engagement')).viral;
				// one tick's updates go out in one write: a heartbeat after them means all have arrived
				await s.until((b) => /engagementUpdate[\s\S]*"heartbeat"/.test(b), 10_000);
				const byId = new Map<string, Loose[]>();
				for (const u of updatesOn(s)) byId.set(u.mentionId, [...(byId.get(u.mentionId) ?? []), u]);
				expect(byId.size).toBeGreaterThanOrEqual(30);
				expect(byId.size).toBeLessThanOrEqual(100);
				let total = 0;
				for (const [id, ups] of byId) {
					const m = collected.find((x: Loose) => x.id === id);
					expect(m).toBeDefined();
					const col = Date.parse(m.collectedAt);
					const due = Math.min(10, Math.floor((end - col) / MINUTE));
					total += due;
					expect({ id, n: ups.length }).toEqual({ id, n: due });
					ups.forEach((u, i) => {
						expect(u.updatedAt).toBe(iso(col + (i + 1) * MINUTE));
						if (i > 0) expect(common(u).likeCount).toBe(common(ups[i - 1]).likeCount + 7);
					});
					// still growing: exactly those collected within the last 10 minutes
					const stillGrowing = growing.some((g: Loose) => g.mentionId === id);
					expect({ id, stillGrowing }).toEqual({ id, stillGrowing: due < 10 });
				}
				expect(updatesOn(s)).toHaveLength(total);
			} finally {
				s.close();
			}
			await admin(other, 'POST', '/engagement', { viralShare: 0, viralCurve: { minutes: 3 } });
			await admin(other, 'POST', '/reset');
			expect(await admin(other, 'GET', '/engagement')).toEqual(startup);
		} finally {
			await other.stop();
		}
	});
});
