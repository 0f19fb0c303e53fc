// Shaped live collection (arrivals.ts): the rate per minute by hour of day in a time zone, bursts
// with their own sentiment, the sentiment mix, Poisson variation; every minute collected exactly
// once whatever the clock's steps; the expected counts per bucket; the admin endpoint and the CLI.
import {
	admin,
	adminCall,
	advanceClock,
	api,
	createProject,
	groundTruth,
	liveExpected,
	startSim,
	useSim,
	type ExpectedCounts,
	type Loose,
	type Sim,
} from '../../test/support/simulator';
import { until } from '../../test/support/wait';
import { DAY, HOUR, MINUTE, NOW_MS } from '../../test/support/time';

const iso = (ms: number) => new Date(ms).toISOString();

/** The named shape `office-hours` as the README gives it (hour 0 … 23). */
const OFFICE_HOURS = [
	0.2, 0.15, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1.4, 1.95, 2.2, 2.2, 1.8, 2.0, 2.2, 2.0, 1.6, 1.2, 0.9,
	0.7, 0.6, 0.5, 0.4, 0.3,
];
const BURST_AT = NOW_MS + 5 * HOUR; // 15:30 UTC
const FLAGS = [
	'--projects',
	'1',
	'--mentions',
	'50',
	'--limits',
	'off',
	'--live-rate',
	'3',
	'--live-daily',
	'office-hours',
	'--live-burst',
	`at=${iso(BURST_AT)},minutes=30,factor=6,negative=0.8,label=storm`,
];
const STARTUP_SHAPE = {
	ratePerMinute: 3,
	daily: 'office-hours',
	timeZone: 'UTC',
	sentiment: { Positive: 0.3, Negative: 0.25, Neutral: 0.4, Unspecified: 0.05 },
	variation: 'none',
	bursts: [
		{
			at: iso(BURST_AT),
			minutes: 30,
			factor: 6,
			projectId: null,
			// what 0.8 leaves is split 30 : 40 : 5 like the generator's own mix
			sentiment: {
				Positive: expect.closeTo(0.08, 9),
				Negative: 0.8,
				Neutral: expect.closeTo(0.4 * (0.2 / 0.75), 9),
				Unspecified: expect.closeTo(0.05 * (0.2 / 0.75), 9),
			},
			label: 'storm',
		},
	],
	engagementPerMinute: 0,
};

/**
 * With variation `none` a minute collects its expected count rounded up or down, so n minutes
 * differ from the expectation by at most a few: 4 standard deviations of n roundings, plus one.
 */
const roundingTolerance = (minutes: number) => 4 * Math.sqrt(minutes * 0.25) + 1;

let sim: Sim;
useSim(FLAGS, (started) => (sim = started), { reset: true });

describe('the live shape: admin endpoint and CLI flags', () => {
	test('GET /live shows the startup shape; it can be POSTed back; reset restores it', async () => {
		expect(await admin(sim, 'GET', '/live')).toEqual(STARTUP_SHAPE);
		const changed = await admin(sim, 'POST', '/live', {
			ratePerMinute: 7,
			daily: Array.from({ length: 24 }, (_, h) => (h < 12 ? 0.5 : 1.5)),
			timeZone: 'Europe/Warsaw',
			sentiment: { Negative: 0.5 },
			variation: 'poisson',
			bursts: [],
		});
		expect(changed).toMatchObject({ ratePerMinute: 7, timeZone: 'Europe/Warsaw', bursts: [] });
		expect(changed.sentiment.Negative).toBe(0.5);
		expect(await admin(sim, 'POST', '/live', changed)).toEqual(changed);
		await admin(sim, 'POST', '/reset');
		expect(await admin(sim, 'GET', '/live')).toEqual(STARTUP_SHAPE);
	});

	test('a bad shape → 400 naming the field, and nothing changes', async () => {
		const cases: Array<[unknown, string]> = [
			[{ daily: [1, 2] }, 'daily must be 24 multipliers (hour 0 to 23) or one of flat'],
			[{ daily: 'tea-time' }, 'daily must be 24 multipliers'],
			[{ sentiment: { Negative: 0.8, Positive: 0.5 } }, 'sentiment: the shares add up to 1.3'],
			[{ sentiment: { Angry: 0.1 } }, 'sentiment.Angry is not a sentiment'],
			[{ timeZone: 'Mars/Olympus' }, 'timeZone: "Mars/Olympus" is not a time zone'],
			[{ variation: 'gauss' }, 'variation must be one of none, poisson'],
			[{ bursts: [{ at: 'noon', minutes: 5 }] }, 'bursts[0].at must be an ISO 8601 date-time'],
			[
				{
					bursts: [
						{ at: iso(NOW_MS), minutes: 5 },
						{ at: iso(NOW_MS), minutes: 0 },
					],
				},
				'bursts[1].minutes must be more than 0',
			],
			[
				{ bursts: [{ at: iso(NOW_MS), minutes: 5, factr: 2 }] },
				'bursts[0].factr is not a burst field',
			],
			[{ burst: [] }, 'burst is not a field of the live shape'],
			[{ ratePerMinute: -1, daily: 'flat' }, 'ratePerMinute must be a number >= 0'],
		];
		for (const [body, message] of cases) {
			const res = await adminCall(sim, 'POST', '/live', body);
			expect({ body, status: res.status, message: res.json.message }).toEqual({
				body,
				status: 400,
				message: expect.stringContaining(message),
			});
		}
		expect(await admin(sim, 'GET', '/live')).toEqual(STARTUP_SHAPE);
	});

	test('bad --live-* flags stop the CLI with a message naming the flag', async () => {
		await Promise.all([
			expect(startSim(['--live-daily', 'tea-time'])).rejects.toThrow(
				'simulator: --live-daily: daily must be 24 multipliers (hour 0 to 23) or one of flat, office-hours, evening.',
			),
			expect(startSim(['--live-burst', `at=${iso(NOW_MS)},minutes=0,factor=3`])).rejects.toThrow(
				'simulator: --live-burst: burst.minutes must be more than 0.',
			),
			expect(startSim(['--live-burst', 'at=noon,minutes=5'])).rejects.toThrow(
				'--live-burst: burst.at must be an ISO 8601 date-time.',
			),
			expect(startSim(['--live-sentiment', 'sad=0.3'])).rejects.toThrow(
				'--live-sentiment: "sad" is not a sentiment.',
			),
			expect(startSim(['--live-time-zone', 'Nowhere/Land'])).rejects.toThrow(
				'--live-time-zone: timeZone: "Nowhere/Land" is not a time zone',
			),
			expect(startSim(['--viral-curve', 'minutes=5,loveCount=3'])).rejects.toThrow(
				'--viral-curve: "loveCount" is not a field of a viral curve.',
			),
		]);
	});

	test('a clock move that would collect too many mentions at once → 400 naming advanceMs', async () => {
		await admin(sim, 'POST', '/live', { ratePerMinute: 5000 });
		const res = await adminCall(sim, 'POST', '/clock', { advanceMs: 365 * DAY });
		expect(res.status).toBe(400);
		expect(res.json.message).toMatch(/^advanceMs: collecting about \d+ mentions at once/);
		expect((await admin(sim, 'GET', '/health')).now).toBe(iso(NOW_MS));
	});
});

describe('counts per bucket follow the shape', () => {
	test('a day: each hour gets rate × the hour multiplier; the burst multiplies its half hour and brings its sentiment', async () => {
		await advanceClock(sim, DAY);
		const hours = await liveExpected(sim, {
			from: iso(NOW_MS),
			to: iso(NOW_MS + DAY),
			bucketMinutes: 60,
			projectId: 1001,
		});
		expect(hours.buckets).toHaveLength(24);
		expect(hours.bursts).toEqual([
			expect.objectContaining({
				label: 'storm',
				from: iso(BURST_AT),
				to: iso(BURST_AT + 30 * MINUTE),
				factor: 6,
			}),
		]);
		hours.buckets.forEach((b, i) => {
			const hour = new Date(Date.parse(b.from)).getUTCHours(); // the buckets start at :30
			const perMinute = (h: number) => 3 * OFFICE_HOURS[h % 24];
			let expected = 30 * perMinute(hour) + 30 * perMinute(hour + 1);
			const inBurst = Date.parse(b.from) === BURST_AT;
			if (inBurst) expected += 30 * perMinute(hour) * 5; // 15:30–16:00 at 6×
			expect({ i, expected: b.expected }).toEqual({ i, expected: expect.closeTo(expected, 6) });
			expect({ i, off: Math.abs(b.collected - b.expected) <= roundingTolerance(60) }).toEqual({
				i,
				off: true,
			});
			expect(b.bursts).toEqual(inBurst ? [0] : []);
		});
		// the peak hours collect many times the night hours
		const byHour = (h: number) => hours.buckets.find((b) => new Date(b.from).getUTCHours() === h)!;
		expect(byHour(10).collected).toBeGreaterThan(10 * byHour(3).collected);
		// sentiment: 80% negative inside the burst, the generator's 25% outside
		const quarters = await liveExpected(sim, {
			from: iso(BURST_AT - 2 * HOUR),
			to: iso(BURST_AT + 2 * HOUR),
			bucketMinutes: 15,
		});
		const share = (bs: ExpectedCounts['buckets']) =>
			bs.reduce((n, b) => n + b.sentiment.Negative, 0) / bs.reduce((n, b) => n + b.collected, 0);
		const inside = quarters.buckets.filter((b) => b.bursts.length);
		const outside = quarters.buckets.filter((b) => !b.bursts.length);
		expect(inside).toHaveLength(2);
		expect(share(inside)).toBeCloseTo(0.8, 1);
		expect(share(outside)).toBeCloseTo(0.25, 1);
		// the ground truth and search agree with the buckets
		const truth = await groundTruth(sim, 1001, iso(NOW_MS));
		expect(truth).toHaveLength(hours.collected);
		const { count } = await admin(sim, 'POST', '/count', {
			projectId: 1001,
			mode: 'historical',
			filters: { collectedAt: { from: iso(NOW_MS) } },
		});
		expect(count).toBe(hours.collected);
	});

	test('a sentiment mix gives a known negative share; the rest keeps the generator proportions', async () => {
		await admin(sim, 'POST', '/live', {
			ratePerMinute: 10,
			daily: 'flat',
			bursts: [],
			sentiment: { Negative: 0.5 },
		});
		await advanceClock(sim, 6 * HOUR);
		const r = await liveExpected(sim, {
			from: iso(NOW_MS),
			to: iso(NOW_MS + 6 * HOUR),
			bucketMinutes: 360,
		});
		const [b] = r.buckets;
		expect(b.expected).toBeCloseTo(3600, 6);
		expect(Math.abs(b.collected - 3600)).toBeLessThanOrEqual(roundingTolerance(360));
		expect(b.sentiment.Negative / b.collected).toBeCloseTo(0.5, 1);
		expect(b.sentiment.Positive / b.collected).toBeCloseTo(0.2, 1);
		expect(b.sentiment.Neutral / b.collected).toBeCloseTo(0.2667, 1);
		expect(b.sentiment.Unspecified / b.collected).toBeLessThan(0.06);
	});

	test('variation poisson: the day total stays near the expectation, buckets vary like Poisson counts', async () => {
		const spread = async (variation: string) => {
			await admin(sim, 'POST', '/reset');
			await admin(sim, 'POST', '/live', { ratePerMinute: 5, daily: 'flat', bursts: [], variation });
			await advanceClock(sim, 12 * HOUR);
			const r = await liveExpected(sim, {
				from: iso(NOW_MS),
				to: iso(NOW_MS + 12 * HOUR),
				bucketMinutes: 15,
			});
			const devs = r.buckets.map((b) => b.collected - b.expected);
			const sd = Math.sqrt(devs.reduce((n, d) => n + d * d, 0) / devs.length);
			return { total: r.collected, expected: r.expected, sd };
		};
		const none = await spread('none');
		const poisson = await spread('poisson');
		expect(none.expected).toBeCloseTo(3600, 6);
		expect(Math.abs(none.total - 3600)).toBeLessThanOrEqual(roundingTolerance(720));
		expect(none.sd).toBeLessThan(3); // rounding only: ≤ √(15 × 0.25) ≈ 1.9
		expect(Math.abs(poisson.total - 3600)).toBeLessThan(4 * Math.sqrt(3600));
		expect(poisson.sd).toBeGreaterThan(5); // Poisson: √75 ≈ 8.7
		expect(poisson.sd).toBeLessThan(13);
	});

	test('the daily pattern follows the hours of its time zone', async () => {
		// all of the day's mentions in the local hour 12 of Kolkata (UTC+5:30): 06:30–07:30 UTC
		const daily = Array.from({ length: 24 }, (_, h) => (h === 12 ? 24 : 0));
		await admin(sim, 'POST', '/live', {
			ratePerMinute: 1,
			daily,
			timeZone: 'Asia/Kolkata',
			bursts: [],
		});
		await advanceClock(sim, DAY);
		const mentions = (
			await admin(sim, 'GET', `/mentions?projectId=1001&collectedFrom=${iso(NOW_MS)}`)
		).mentions;
		expect(Math.abs(mentions.length - 1440)).toBeLessThanOrEqual(roundingTolerance(60));
		const start = Date.parse('2026-11-22T06:30:00.000Z');
		for (const m of mentions) {
			const t = Date.parse(m.collectedAt);
			expect({ at: m.collectedAt, inHour: t > start && t <= start + HOUR }).toEqual({
				at: m.collectedAt,
				inHour: true,
			});
		}
	});

	test('a burst for one project leaves the others alone; bursts under way at once multiply', async () => {
		const other = await createProject(sim, 'Burst target', 'acme');
		await admin(sim, 'POST', '/live', {
			ratePerMinute: 2,
			daily: 'flat',
			bursts: [
				{ at: iso(NOW_MS + HOUR), minutes: 60, factor: 10, projectId: other, label: 'launch' },
				{ at: iso(NOW_MS + HOUR), minutes: 30, factor: 2, projectId: other },
			],
		});
		await advanceClock(sim, 3 * HOUR);
		const q = { from: iso(NOW_MS), to: iso(NOW_MS + 3 * HOUR), bucketMinutes: 30 };
		const mine = await liveExpected(sim, { ...q, projectId: 1001 });
		const theirs = await liveExpected(sim, { ...q, projectId: other });
		expect(mine.bursts).toEqual([]);
		expect(mine.buckets.map((b) => b.expected)).toEqual([60, 60, 60, 60, 60, 60]);
		expect(theirs.buckets.map((b) => b.expected)).toEqual([60, 60, 1200, 600, 60, 60]);
		expect(theirs.bursts.map((b) => b.label)).toEqual(['launch', null]);
		for (const b of [...mine.buckets, ...theirs.buckets])
			expect(Math.abs(b.collected - b.expected)).toBeLessThanOrEqual(roundingTolerance(30));
		// all projects at once: the sum
		const all = await liveExpected(sim, q);
		expect(all.projectId).toBeNull();
		expect(all.collected).toBe(mine.collected + theirs.collected);
	});
});

describe('clock jumps: every minute collected exactly once', () => {
	test('one jump and many uneven steps collect exactly the same mentions, none twice, none skipped', async () => {
		// half a day (with the burst): one jump, and 100 steps of 7 min 13.5 s
		const SPAN = 12 * HOUR;
		const stepped = await startSim(FLAGS);
		try {
			await advanceClock(sim, SPAN);
			// 7 min 13.5 s at a time, then the rest
			let moved = 0;
			for (const step = 433_500; moved + step < SPAN; moved += step)
				await advanceClock(stepped, step);
			expect((await advanceClock(stepped, SPAN - moved)) === iso(NOW_MS + SPAN)).toBe(true);
			const read = async (s: Sim) =>
				(await admin(s, 'GET', `/mentions?projectId=1001&full=1&collectedFrom=${iso(NOW_MS)}`))
					.mentions;
			const once = await read(sim);
			const steps = await read(stepped);
			expect(once.length).toBeGreaterThan(1500);
			expect(new Set(once.map((m: Loose) => m.id)).size).toBe(once.length);
			// the same mentions, field for field (ids, instants, texts, sentiments, metrics)
			expect({ equal: JSON.stringify(steps) === JSON.stringify(once) }).toEqual({ equal: true });
			for (const m of once) expect(Date.parse(m.collectedAt)).toBeGreaterThan(NOW_MS);
			// and the one jump collected what the shape expects, hour by hour (bucket test above)
			const q = { from: iso(NOW_MS), to: iso(NOW_MS + SPAN), bucketMinutes: 60 };
			expect((await liveExpected(stepped, q)).buckets).toEqual(
				(await liveExpected(sim, q)).buckets,
			);
		} finally {
			await stepped.stop();
		}
	});

	test('a running clock collects each minute as time passes it', async () => {
		const running = await startSim(['--projects', '1', '--mentions', '10', '--live-rate', '1200'], {
			clock: 'running',
		});
		try {
			const first = await until(async () => {
				const m = (
					await admin(running, 'GET', `/mentions?projectId=1001&collectedFrom=${iso(NOW_MS)}`)
				).mentions;
				return m.length >= 5 && m;
			});
			const { now } = await admin(running, 'GET', '/health');
			for (const m of first) expect(Date.parse(m.collectedAt)).toBeLessThanOrEqual(Date.parse(now));
			const later = await until(async () => {
				const m = (
					await admin(running, 'GET', `/mentions?projectId=1001&collectedFrom=${iso(NOW_MS)}`)
				).mentions;
				return m.length > first.length + 5 && m;
			});
			// what came first is still there, unchanged
			expect(later.slice(0, first.length)).toEqual(first);
			expect((await api(running, 'GET', '/projects')).status).toBe(200);
		} finally {
			await running.stop();
		}
	});
});
