/**
 * The viral-mention rules (trigger/alerts/viral.ts) on their own: a threshold fires once per mention
 * and level, whatever repeats and out-of-order updates bring; Fast Growth measures the gain within
 * T minutes only; the state stays bounded, and a save and a reload (a restart) keeps the fired
 * rules, except those whose alert was not passed on yet.
 */
import type { ViralSettings } from '../../../../nodes/SentiOne/trigger/alerts/viral';
import {
	FIRED_KEEP_MS,
	MAX_FIRED,
	MAX_READINGS,
	MAX_SAVED_TRACKED,
	MAX_TRACKED,
	newViralState,
	observeUpdate,
	readViralState,
	saveViralState,
} from '../../../../nodes/SentiOne/trigger/alerts/viral';
import { DAY, MINUTE, NOW_MS } from '../../../support/time';

const T = NOW_MS;
const likes1000: ViralSettings = { thresholds: { likeCount: 1000 } };
const growth = (gain: number, minutes: number): ViralSettings => ({
	thresholds: {},
	growth: { metric: 'shareCount', gain, minutes },
});
const update = (mentionId: string, at: number, figures: Record<string, unknown>) => ({
	mentionId,
	at,
	figures,
});
/** JSON there and back, as n8n stores static data. */
const reloaded = (state: ReturnType<typeof newViralState>, unsaved?: Set<string>) =>
	readViralState(JSON.parse(JSON.stringify(saveViralState(state, unsaved))));

describe('thresholds', () => {
	test('fire once per mention and level, at the first reading that reaches it', () => {
		const state = newViralState();
		expect(observeUpdate(state, likes1000, update('m1', T, { likeCount: 999 }))).toEqual([]);
		const hits = observeUpdate(
			state,
			likes1000,
			update('m1', T + MINUTE, { likeCount: 1000, shareCount: 7 }),
		);
		expect(hits).toEqual([
			{
				key: 'm1|likeCount|>=1000',
				mentionId: 'm1',
				metric: 'likeCount',
				rule: 'crossed',
				level: 1000,
				value: 1000,
				figures: { likeCount: 1000, shareCount: 7 },
				at: T + MINUTE,
			},
		]);
		// later, higher, repeated and older readings never fire it again
		for (const [at, n] of [
			[T + 2 * MINUTE, 5000],
			[T + MINUTE, 1000],
			[T - MINUTE, 1200],
		])
			expect(observeUpdate(state, likes1000, update('m1', at, { likeCount: n }))).toEqual([]);
		// another mention has its own
		expect(observeUpdate(state, likes1000, update('m2', T, { likeCount: 1001 }))).toHaveLength(1);
	});

	test('each watched count is its own rule; a changed level is a new rule; 0 and unknown counts never fire', () => {
		const state = newViralState();
		const both: ViralSettings = { thresholds: { likeCount: 10, shareCount: 5, viewCount: 0 } };
		const hits = observeUpdate(
			state,
			both,
			update('m1', T, { likeCount: 10, shareCount: 5, viewCount: 10 ** 9, commentCount: null }),
		);
		expect(hits.map((h) => h.key)).toEqual(['m1|likeCount|>=10', 'm1|shareCount|>=5']);
		const raised: ViralSettings = { thresholds: { likeCount: 20 } };
		expect(observeUpdate(state, raised, update('m1', T + 1, { likeCount: 19 }))).toEqual([]);
		expect(
			observeUpdate(state, raised, update('m1', T + 2, { likeCount: 20 })).map((h) => h.key),
		).toEqual(['m1|likeCount|>=20']);
		for (const bad of [-5, NaN, Infinity, '5000', null, undefined, {}])
			expect(observeUpdate(state, likes1000, update('m3', T, { likeCount: bad }))).toEqual([]);
	});
});

describe('fast growth', () => {
	test('fires when the count gains the amount within the window, measured from its lowest reading there', () => {
		const state = newViralState();
		const rule = growth(100, 30);
		const shares = [0, 20, 40, 60, 80, 99];
		shares.forEach((n, k) =>
			expect(
				observeUpdate(state, rule, update('m1', T + k * 5 * MINUTE, { shareCount: n })),
			).toEqual([]),
		);
		// 25 minutes after 0 shares: 100 gained → fires, from 0, in 25 minutes
		const [hit] = observeUpdate(state, rule, update('m1', T + 25 * MINUTE, { shareCount: 100 }));
		expect(hit).toMatchObject({
			key: 'm1|shareCount|+100/30m',
			rule: 'gained',
			level: 100,
			value: 100,
			from: 0,
			minutes: 25,
		});
		expect(observeUpdate(state, rule, update('m1', T + 26 * MINUTE, { shareCount: 500 }))).toEqual(
			[],
		);
	});

	test('a gain spread over more than the window does not fire; one reading alone never does', () => {
		const state = newViralState();
		const rule = growth(100, 30);
		expect(observeUpdate(state, rule, update('m1', T, { shareCount: 5000 }))).toEqual([]);
		// 0 → 60 → 120 at 20-minute steps: never 100 within 30 minutes
		for (const [k, n] of [
			[0, 0],
			[20, 60],
			[40, 120],
			[60, 180],
		])
			expect(observeUpdate(state, rule, update('m2', T + k * MINUTE, { shareCount: n }))).toEqual(
				[],
			);
		// the count of another metric does not count
		expect(
			observeUpdate(state, rule, update('m2', T + 61 * MINUTE, { likeCount: 10 ** 6 })),
		).toEqual([]);
	});

	test('a shuffled backfill: an older update arriving late keeps the newer readings and fires nothing twice', () => {
		const state = newViralState();
		const rule = growth(100, 60);
		const at = (m: number) => T + m * MINUTE;
		const shuffled: Array<[number, number]> = [
			[10, 50],
			[0, 0],
			[30, 150],
			[20, 100],
			[5, 20],
		];
		const fired = shuffled.flatMap(([m, n]) =>
			observeUpdate(state, rule, update('m1', at(m), { shareCount: n })),
		);
		// 150 at minute 30 (from 0 at minute 0) and 100 at minute 20 belong to one rule: fired once
		expect(fired).toHaveLength(1);
		expect(state.series.get('m1')!.map((r) => r[0])).toEqual([0, 5, 10, 20, 30].map((m) => at(m)));
		// the backfill again, in another order
		for (const [m, n] of shuffled.reverse())
			expect(observeUpdate(state, rule, update('m1', at(m), { shareCount: n }))).toEqual([]);
	});

	test('readings are thinned over the window (at most MAX_READINGS) without losing the start of it', () => {
		const state = newViralState();
		const rule = growth(1000, 60);
		for (let m = 0; m <= 60; m++)
			observeUpdate(state, rule, update('m1', T + m * MINUTE, { shareCount: m * 10 }));
		const readings = state.series.get('m1')!;
		expect(readings.length).toBeLessThanOrEqual(MAX_READINGS);
		expect(readings[0][0]).toBe(T);
		expect(readings[readings.length - 1][0]).toBe(T + 60 * MINUTE);
		// 60 minutes of 10 a minute = 600 gained: below 1000, nothing fired; at 1000 in the window it fires
		const [hit] = observeUpdate(state, rule, update('m1', T + 61 * MINUTE, { shareCount: 1600 }));
		expect(hit).toMatchObject({ from: expect.any(Number), rule: 'gained' });
		// the lowest reading of the window (10 at minute 1) to within one thinning step
		expect(hit.from! - 10).toBeLessThanOrEqual((10 * 60) / (MAX_READINGS - 1));
	});
});

describe('bounds and saved state', () => {
	test('followed mentions are bounded: the least recently updated are forgotten', () => {
		const state = newViralState();
		const rule = growth(10, 60);
		for (let k = 0; k < MAX_TRACKED + 50; k++)
			observeUpdate(state, rule, update(`m${k}`, T + k, { shareCount: 1 }));
		expect(state.series.size).toBe(MAX_TRACKED);
		expect(state.series.has('m0')).toBe(false);
		expect(state.series.has(`m${MAX_TRACKED + 49}`)).toBe(true);
		// numeric ids keep the order of their updates too
		observeUpdate(state, rule, update('7', T + 10 ** 6, { shareCount: 1 }));
		expect([...state.series.keys()].pop()).toBe('7');
	});

	test('a mention without a reading in the window is forgotten; thresholds alone keep no readings', () => {
		const state = newViralState();
		observeUpdate(state, growth(10, 60), update('old', T, { shareCount: 1 }));
		observeUpdate(state, growth(10, 60), update('new', T + 2 * 60 * MINUTE, { shareCount: 1 }));
		expect([...state.series.keys()]).toEqual(['new']);
		const only = newViralState();
		observeUpdate(only, likes1000, update('m1', T, { likeCount: 1 }));
		expect(only.series.size).toBe(0);
	});

	test('fired keys are kept 31 days, at most MAX_FIRED', () => {
		const state = newViralState();
		const low: ViralSettings = { thresholds: { likeCount: 1 } };
		observeUpdate(state, low, update('early', T, { likeCount: 1 }));
		observeUpdate(state, low, update('late', T + FIRED_KEEP_MS - 1, { likeCount: 1 }));
		expect(state.fired.has('early|likeCount|>=1')).toBe(true);
		observeUpdate(state, low, update('later', T + FIRED_KEEP_MS + DAY, { likeCount: 1 }));
		expect(state.fired.has('early|likeCount|>=1')).toBe(false);
		expect(state.fired.has('late|likeCount|>=1')).toBe(true);
		for (let k = 0; k < MAX_FIRED + 10; k++)
			observeUpdate(state, low, update(`n${k}`, T + FIRED_KEEP_MS + DAY + k, { likeCount: 1 }));
		expect(state.fired.size).toBe(MAX_FIRED);
	});

	test('a reload (restart) keeps the fired rules and the readings: nothing fires twice, growth goes on', () => {
		const state = newViralState();
		const rule: ViralSettings = { thresholds: { likeCount: 100 }, growth: growth(50, 30).growth };
		observeUpdate(state, rule, update('m1', T, { likeCount: 100, shareCount: 0 }));
		const restarted = reloaded(state);
		expect(observeUpdate(restarted, rule, update('m1', T, { likeCount: 100 }))).toEqual([]);
		const hits = observeUpdate(
			restarted,
			rule,
			update('m1', T + 10 * MINUTE, { likeCount: 150, shareCount: 60 }),
		);
		expect(hits.map((h) => h.key)).toEqual(['m1|shareCount|+50/30m']);
	});

	test('a rule whose alert was not passed on yet is not saved: after a restart it fires again', () => {
		const state = newViralState();
		const [hit] = observeUpdate(state, likes1000, update('m1', T, { likeCount: 2000 }));
		const restarted = reloaded(state, new Set([hit.key]));
		expect(observeUpdate(restarted, likes1000, update('m1', T, { likeCount: 2000 }))).toHaveLength(
			1,
		);
	});

	test('a saved state keeps the readings of the most recently updated mentions only', () => {
		const state = newViralState();
		for (let k = 0; k < MAX_SAVED_TRACKED + 5; k++)
			observeUpdate(state, growth(10, 60), update(`m${k}`, T + k, { shareCount: 1 }));
		const saved = saveViralState(state);
		expect(saved.series).toHaveLength(MAX_SAVED_TRACKED);
		expect(saved.series[0][0]).toBe('m5');
	});

	test('a saved state that cannot be read is dropped entry by entry', () => {
		expect(readViralState('junk')).toEqual(newViralState());
		expect(readViralState(null)).toEqual(newViralState());
		const state = readViralState({
			series: [
				['ok', [[T, 1, null, 2, 3]]],
				['short', [[T, 1]]],
				['negative', [[T, -1, 0, 0, 0]]],
				['', [[T, 1, 1, 1, 1]]],
				'not a pair',
			],
			fired: [
				['a|likeCount|>=1', T],
				['b', 'yesterday'],
				['x'.repeat(3000), T],
			],
		});
		expect([...state.series.keys()]).toEqual(['ok']);
		expect([...state.fired.keys()]).toEqual(['a|likeCount|>=1']);
	});
});
