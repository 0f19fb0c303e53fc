/**
 * The alert engine (trigger/alerts/engine.ts) on its own: digests count each mention once in the
 * window of its collectedAt and close once seen whole (or say "at least"), state survives a save
 * and a reload, spikes and sentiment shifts alert once per episode against their baseline.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	alertOptions,
	alertProperties,
} from '../../../../nodes/SentiOne/trigger/alerts/alertDescription';
import type { AlertSettings } from '../../../../nodes/SentiOne/trigger/alerts/alertSettings';
import { ALERT_DEFAULTS } from '../../../../nodes/SentiOne/trigger/alerts/alertSettings';
import { AlertEngine } from '../../../../nodes/SentiOne/trigger/alerts/engine';
import { factsOf } from '../../../../nodes/SentiOne/trigger/alerts/facts';
import { seededRandom } from '../../../support/random';
import { HOUR, MINUTE } from '../../../support/time';

const T0 = Date.parse('2026-11-20T00:00:00Z');

let n = 0;
function mention(at: number, extra: IDataObject = {}): IDataObject {
	n++;
	return {
		id: `m${n}`,
		collectedAt: new Date(at).toISOString(),
		publishedAt: new Date(at - MINUTE).toISOString(),
		type: 'Post',
		source: { type: 'X', mentionUrl: `https://x.example/${n}` },
		author: { name: `Author ${n}`, influenceMetrics: { followerCount: n * 10 } },
		content: { text: `text ${n}`, sentiment: 'Neutral', language: { code: 'en' } },
		engagementMetrics: { sourceMetrics: { common: { likeCount: 1 } } },
		...extra,
	};
}
const facts = (m: IDataObject) => factsOf(m)!;

const hourly: AlertSettings = {
	event: 'digest',
	window: { kind: 'minutes', every: 60 },
	sendEmpty: false,
	top: 2,
	negative: 2,
};
const options = {
	zone: 'Europe/Warsaw',
	scope: 'test',
	graceMs: MINUTE,
	maxDelayMs: 15 * MINUTE,
	windowName: 'Hourly digest',
};

describe('digest', () => {
	test('counts the window of each collectedAt once, closes after the grace, lists by reach', () => {
		const engine = new AlertEngine(hourly, options, undefined, T0);
		const at = T0 + 10 * MINUTE;
		engine.observe(facts(mention(at)), at);
		engine.observe(
			facts(
				mention(at + MINUTE, {
					content: { sentiment: 'Negative', text: 'bad', language: { code: 'pl' } },
				}),
			),
			at,
		);
		engine.observe(
			facts(
				mention(at + 2 * MINUTE, {
					author: { name: 'Big', influenceMetrics: { followerCount: 1e6 } },
				}),
			),
			at,
		);
		engine.cover(T0 + HOUR + 30_000);
		expect(engine.due(T0 + HOUR + 30_000)).toEqual([]); // within the grace
		engine.cover(T0 + HOUR + MINUTE);
		const [item] = engine.due(T0 + HOUR + MINUTE);
		expect(item).toMatchObject({
			kind: 'digest',
			total: 3,
			complete: true,
			bySentiment: { Neutral: 2, Negative: 1 },
			byLanguage: { en: 2, pl: 1 },
			bySourceType: { X: 3 },
			windowStart: '2026-11-20T00:00:00.000Z',
			windowEnd: '2026-11-20T01:00:00.000Z',
		});
		expect((item.topMentions as IDataObject[]).map((m) => m.authorName)).toEqual([
			'Big',
			expect.any(String),
		]);
		expect((item.negativeMentions as IDataObject[]).map((m) => m.text)).toEqual(['bad']);
		expect(item.summary).toMatch(
			/^Hourly digest for Fri 20 Nov 2026 01:00–02:00 \(Europe\/Warsaw\): 3 mentions, 1 negative \(33%\)\. Most from X 3\. Most reached: Big on X \(1,000,000 followers\)/,
		);
		// once: nothing more for that window
		expect(engine.due(T0 + HOUR + 2 * MINUTE)).toEqual([]);
	});

	test('an empty window is sent only with Send Empty Digests, and says so', () => {
		const quiet = new AlertEngine(hourly, options, undefined, T0);
		quiet.cover(T0 + HOUR + MINUTE);
		expect(quiet.due(T0 + HOUR + MINUTE)).toEqual([]);
		const told = new AlertEngine({ ...hourly, sendEmpty: true }, options, undefined, T0);
		told.cover(T0 + HOUR + MINUTE);
		const [item] = told.due(T0 + HOUR + MINUTE);
		expect(item).toMatchObject({ total: 0, empty: true, complete: true });
		expect(item.summary).toMatch(/nothing to report — no matching mentions\./);
	});

	test('saved mid-window and reloaded (a restart): every mention counted once', () => {
		const first = new AlertEngine(hourly, options, undefined, T0);
		first.observe(facts(mention(T0 + 5 * MINUTE)), T0 + 5 * MINUTE);
		first.cover(T0 + 6 * MINUTE);
		const saved = JSON.parse(JSON.stringify(first.snapshot()));
		const second = new AlertEngine(hourly, options, saved, T0 + 30 * MINUTE);
		second.observe(facts(mention(T0 + 40 * MINUTE)), T0 + 40 * MINUTE);
		second.cover(T0 + HOUR + MINUTE);
		expect(second.due(T0 + HOUR + MINUTE)).toMatchObject([{ total: 2, complete: true }]);
		// another scope (other settings) starts afresh: none of the saved counts, only the half window seen
		const other = new AlertEngine(hourly, { ...options, scope: 'other' }, saved, T0 + 30 * MINUTE);
		other.cover(T0 + HOUR + MINUTE);
		expect(other.due(T0 + HOUR + MINUTE)).toMatchObject([{ total: 0, complete: false }]);
	});

	test('not seen whole in time: "at least", and what is read later is reported once, in the next digest', () => {
		const engine = new AlertEngine(hourly, options, undefined, T0);
		engine.observe(facts(mention(T0 + 5 * MINUTE)), T0 + 5 * MINUTE);
		engine.cover(T0 + 20 * MINUTE); // the trigger fell behind
		expect(engine.due(T0 + HOUR + 10 * MINUTE)).toEqual([]); // still waiting
		const [late] = engine.due(T0 + HOUR + 16 * MINUTE);
		expect(late).toMatchObject({ total: 1, complete: false, totalText: 'at least 1' });
		expect(late.summary).toMatch(/at least 1 mentions/);
		engine.observe(facts(mention(T0 + 30 * MINUTE)), T0 + HOUR + 20 * MINUTE); // read late
		engine.observe(facts(mention(T0 + HOUR + 30 * MINUTE)), T0 + HOUR + 40 * MINUTE);
		engine.cover(T0 + 2 * HOUR + MINUTE);
		const [next] = engine.due(T0 + 2 * HOUR + MINUTE);
		expect(next).toMatchObject({ total: 1, complete: true, lateFromEarlierWindows: 1 });
		expect(next.summary).toMatch(/Plus 1 mention of earlier windows read late\./);
	});

	test('a fresh start mid-window: its first digest says "at least" once read to its end, without waiting for what nothing can fill', () => {
		const engine = new AlertEngine(hourly, options, undefined, T0 + 20 * MINUTE);
		engine.observe(facts(mention(T0 + 30 * MINUTE)), T0 + 30 * MINUTE);
		engine.cover(T0 + 50 * MINUTE);
		expect(engine.due(T0 + HOUR + MINUTE)).toEqual([]); // not read to its end yet
		engine.cover(T0 + HOUR + MINUTE);
		const [first] = engine.due(T0 + HOUR + MINUTE);
		expect(first).toMatchObject({ total: 1, complete: false, totalText: 'at least 1' });
		expect(first.incompleteBecause).toBe('the trigger started in the middle of this window');
		// a hole that a gap fill may still close is waited for, up to the delay
		engine.hole(T0 + HOUR + 10 * MINUTE, T0 + HOUR + 20 * MINUTE, 'an outage');
		engine.cover(T0 + 2 * HOUR + MINUTE);
		expect(engine.due(T0 + 2 * HOUR + MINUTE)).toEqual([]);
		expect(engine.due(T0 + 2 * HOUR + 16 * MINUTE)).toMatchObject([{ complete: false }]);
	});

	test('a hole the trigger could not fill makes the window incomplete; a fill restores it', () => {
		const holed = new AlertEngine(hourly, options, undefined, T0);
		holed.hole(T0 + 10 * MINUTE, T0 + 20 * MINUTE);
		holed.cover(T0 + 2 * HOUR);
		expect(holed.due(T0 + HOUR + 16 * MINUTE)).toMatchObject([{ complete: false }]);
		const filled = new AlertEngine(hourly, options, undefined, T0);
		filled.hole(T0 + 10 * MINUTE, T0 + 20 * MINUTE);
		filled.fill(T0 + 10 * MINUTE, T0 + 20 * MINUTE);
		filled.cover(T0 + 2 * HOUR);
		expect(filled.due(T0 + HOUR + MINUTE)).toEqual([]); // complete and empty: nothing to send
	});
});

describe('spike', () => {
	const spike: AlertSettings = {
		event: 'volumeSpike',
		bucketMs: 15 * MINUTE,
		baseline: 'trailing24h',
		ratio: 2.5,
		deviations: 3,
		minMentions: 10,
		notifyEnd: true,
		sampleSize: 2,
	};

	/** Feeds `perMinute` mentions a minute from `from` to `to`, judging every minute; returns the items. */
	function run(
		engine: AlertEngine,
		from: number,
		to: number,
		perMinute: (t: number) => number,
		rnd: () => number,
	) {
		const items: IDataObject[] = [];
		for (let t = from; t < to; t += MINUTE) {
			const k = perMinute(t);
			const count = Math.floor(k) + (rnd() < k - Math.floor(k) ? 1 : 0);
			for (let i = 0; i < count; i++)
				engine.observe(facts(mention(t + rnd() * MINUTE)), t + MINUTE);
			engine.cover(t + MINUTE);
			items.push(...engine.due(t + MINUTE));
		}
		return items;
	}

	test('a 4× burst alerts once with its numbers and a sample; the end is told once', () => {
		const rnd = seededRandom(7);
		const engine = new AlertEngine(spike, options, undefined, T0);
		expect(run(engine, T0, T0 + 26 * HOUR, () => 2, rnd)).toEqual([]); // normal: 2 a minute
		const burstAt = T0 + 26 * HOUR;
		const items = run(
			engine,
			burstAt,
			burstAt + 2 * HOUR,
			(t) => (t < burstAt + 40 * MINUTE ? 8 : 2),
			rnd,
		);
		expect(items.map((i) => i.kind)).toEqual(['volumeSpike', 'volumeSpikeEnded']);
		const [alert] = items;
		expect(alert.count as number).toBeGreaterThanOrEqual(alert.threshold as number);
		expect(Date.parse(alert.windowEnd as string) - burstAt).toBeLessThanOrEqual(15 * MINUTE);
		expect(alert).toMatchObject({ complete: true, baselineBasis: 'the trailing 24 hours' });
		expect(alert.baseline as number).toBeGreaterThan(25);
		expect(alert.baseline as number).toBeLessThan(35);
		expect((alert.sample as IDataObject[]).length).toBe(2);
		expect(alert.summary).toMatch(
			/^Volume spike: \d+ mentions in the 15 minutes to \d\d:\d\d \(Europe\/Warsaw\), \d\.\d× the usual \d+ for the trailing 24 hours\./,
		);
	});

	test('no history yet: no alert (warming up), whatever the count', () => {
		const rnd = seededRandom(3);
		const engine = new AlertEngine(spike, options, undefined, T0);
		expect(run(engine, T0, T0 + 2 * HOUR, () => 20, rnd)).toEqual([]);
	});

	test('a lower bound above the threshold alerts; an unseen span never enters the baseline', () => {
		const rnd = seededRandom(5);
		const engine = new AlertEngine(spike, options, undefined, T0);
		run(engine, T0, T0 + 25 * HOUR, () => 2, rnd);
		const at = T0 + 25 * HOUR;
		engine.hole(at, at + 15 * MINUTE);
		for (let i = 0; i < 120; i++)
			engine.observe(facts(mention(at + 5 * MINUTE + i * 1000)), at + 10 * MINUTE);
		engine.cover(at + 10 * MINUTE);
		const [alert] = engine.due(at + 10 * MINUTE);
		expect(alert).toMatchObject({ kind: 'volumeSpike', complete: false });
		expect(alert.countText).toMatch(/^at least /);
	});
});

describe('sentiment shift', () => {
	const shift: AlertSettings = {
		event: 'sentimentShift',
		sentiment: 'Negative',
		windowMs: HOUR,
		points: 15,
		direction: 'up',
		minMentions: 20,
		notifyEnd: false,
		sampleSize: 1,
	};

	test('negative share from about 20% to 60% alerts once, with the shares in words', () => {
		const rnd = seededRandom(11);
		const engine = new AlertEngine(shift, options, undefined, T0);
		const items: IDataObject[] = [];
		const feed = (from: number, to: number, negShare: number) => {
			for (let t = from; t < to; t += MINUTE) {
				for (let i = 0; i < 2; i++) {
					const sentiment = rnd() < negShare ? 'Negative' : 'Neutral';
					engine.observe(
						facts(mention(t + rnd() * MINUTE, { content: { sentiment, text: 'x' } })),
						t + MINUTE,
					);
				}
				engine.cover(t + MINUTE);
				items.push(...engine.due(t + MINUTE));
			}
		};
		feed(T0, T0 + 12 * HOUR, 0.2);
		expect(items).toEqual([]);
		feed(T0 + 12 * HOUR, T0 + 15 * HOUR, 0.6);
		expect(items.map((i) => i.kind)).toEqual(['sentimentShift']);
		expect(items[0].shiftPoints as number).toBeGreaterThanOrEqual(15);
		expect(items[0].summary).toMatch(
			/^Negative share up: \d+% of \d+ mentions in the 1 hour to \d\d:\d\d \(Europe\/Warsaw\) were negative, usually \d+% \(\+\d+ points, over the past \d+ hours seen\)\./,
		);
	});
});

describe('the fields', () => {
	test('every default the editor shows is the one the settings reader falls back to', () => {
		const fields = [...alertProperties('stream'), ...alertOptions('stream')];
		const expected: Record<string, unknown> = {
			...Object.fromEntries(
				Object.entries(ALERT_DEFAULTS).filter(([, v]) => typeof v !== 'object'),
			),
			...Object.fromEntries(
				Object.entries(ALERT_DEFAULTS.viral).map(([k, v]) => [`viral_${k}`, v]),
			),
		};
		for (const field of fields) {
			if (field.name in expected)
				expect([field.name, field.default]).toEqual([field.name, expected[field.name]]);
		}
		const named = fields.map((f) => f.name);
		const viralOffered = named.includes('viralGrowthGain');
		for (const name of Object.keys(expected))
			if (viralOffered || !/^viral/.test(name)) expect(named).toContain(name);
	});
});
