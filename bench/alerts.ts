/**
 * Part 5 — spike accuracy (issue 22): 14 simulated days of one project's traffic with a daily
 * pattern and injected bursts (the simulator's live shape: `--live-daily`, `--live-burst`,
 * Poisson arrivals), through the code the triggers use, at the default Volume Spike settings:
 *
 * - **engine**: the Stream Trigger's alert wiring (trigger/stream/streamAlerts.ts over the engine of
 *   trigger/alerts/) fed with the simulator's ground truth — every mention at its collectedAt and a
 *   heartbeat every 15 s, as the live stream delivers them — with the node's clock set to each event;
 * - **stream**: the SentiOne Stream Trigger itself (`trigger()` in n8n-core's TriggerContext,
 *   test/support/triggers.ts) on the simulator's live stream; the simulator's clock and the node's
 *   move together in steps of 30 s (5 s around each burst's start), each step waiting until the
 *   trigger has taken every mention the step collected;
 * - **poll**: the SentiOne Trigger (n8n-core's PollContext) checked every 5 simulated minutes, with
 *   its default share of the search budget (12 requests an hour, 25 mentions a request): what it
 *   detects when the project is busier than it can read.
 *
 * Per burst: detected or not, the delay from its start to the alert, the alerts it drew; alerts
 * whose bucket overlaps no burst are false alarms, counted per simulated week of normal traffic.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { setClock } from '../nodes/SentiOne/shared/clock';
import { readAlertSettings } from '../nodes/SentiOne/trigger/alerts';
import { ALERT_DEFAULTS } from '../nodes/SentiOne/trigger/alerts/alertSettings';
import { POLL_DEFAULTS } from '../nodes/SentiOne/trigger/poll/pollSettings';
import { StreamAlerts } from '../nodes/SentiOne/trigger/stream/streamAlerts';
import type { StreamSettings } from '../nodes/SentiOne/trigger/stream/streamSettings';
import { BASIC } from '../test/support/keys';
import { admin, liveExpected, type Sim } from '../test/support/simulator';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
	type ActiveStreamTrigger,
} from '../test/support/triggers';
import { sleep } from '../test/support/wait';
import { DAY, HOUR, MINUTE } from '../test/support/time';
import { log, simulator } from './lib';

const WEEK = 7 * DAY;

/** One injected burst: the project's rate × factor during (at, at + minutes]. */
export interface BurstSpec {
	/** day of the run (0 = the first) and UTC time of day */
	day: number;
	at: string;
	minutes: number;
	factor: number;
}

export interface Scenario {
	start: string;
	days: number;
	/** the day's average, mentions a minute */
	ratePerMinute: number;
	daily: string;
	variation: 'poisson' | 'none';
	seed: number;
	/** the bursts the targets are about (3× or more) */
	bursts: BurstSpec[];
	/** smaller bursts, reported but outside the targets */
	smallBursts: BurstSpec[];
}

/** One injected sentiment shift: during (at, at + minutes] this share of the mentions is negative. */
export interface ShiftSpec {
	day: number;
	at: string;
	minutes: number;
	negative: number;
}

/**
 * The run: a project averaging 5 mentions a minute (300 an hour, where docs/alerts.md sends a user
 * to the Stream Trigger), office hours in UTC (0.1× the average at 02:00–05:00, 2.2× at 10:00),
 * Poisson arrivals. Ten bursts of 3× to 6× for 15 to 90 minutes at all times of day, four of them
 * at night; two smaller ones (2× and 2.5×) to show what happens below the targets. The first three
 * days have no burst: the default baseline (the same time on past days) needs three of them.
 */
export const SCENARIO: Scenario = {
	start: '2026-11-02T00:00:00.000Z',
	days: 14,
	ratePerMinute: 5,
	daily: 'office-hours',
	variation: 'poisson',
	seed: 22,
	bursts: [
		{ day: 3, at: '10:20', minutes: 30, factor: 3 },
		{ day: 4, at: '02:40', minutes: 60, factor: 4 },
		{ day: 5, at: '14:05', minutes: 15, factor: 6 },
		{ day: 6, at: '19:30', minutes: 45, factor: 3.5 },
		{ day: 7, at: '08:10', minutes: 90, factor: 3 },
		{ day: 8, at: '01:15', minutes: 30, factor: 5 },
		{ day: 9, at: '12:45', minutes: 20, factor: 4 },
		{ day: 10, at: '23:10', minutes: 60, factor: 3 },
		{ day: 11, at: '04:30', minutes: 15, factor: 6 },
		{ day: 12, at: '16:50', minutes: 45, factor: 5 },
	],
	smallBursts: [
		{ day: 6, at: '10:00', minutes: 60, factor: 2 },
		{ day: 11, at: '15:00', minutes: 30, factor: 2.5 },
	],
};

/**
 * The sentiment-shift run: the same traffic (another seed), the negative share (about 25 %: the
 * simulator's own mix) raised for 1 to 3 hours five times, by 20 to 35 points — above the default
 * Shift of 15 points — and once by 10 points (below it: reported, outside the count). The volume
 * does not change during a shift. The Sentiment Shift defaults: Negative, 60-minute window, 15
 * points, up or down, at least 20 mentions.
 */
export const SHIFT_SCENARIO = {
	seed: 23,
	shifts: [
		{ day: 3, at: '11:00', minutes: 120, negative: 0.5 },
		{ day: 5, at: '20:30', minutes: 90, negative: 0.6 },
		{ day: 7, at: '03:00', minutes: 180, negative: 0.5 },
		{ day: 9, at: '14:15', minutes: 60, negative: 0.45 },
		{ day: 12, at: '08:40', minutes: 120, negative: 0.55 },
	] as ShiftSpec[],
	smallShifts: [{ day: 10, at: '16:00', minutes: 120, negative: 0.35 }] as ShiftSpec[],
};

export interface Burst extends BurstSpec {
	index: number;
	/** epoch ms of the start and end: the burst covers (from, to] */
	from: number;
	to: number;
	/** outside the targets (below 3×) */
	small: boolean;
	/** the rate the simulator expected at that time without the burst, per bucket (15 min) */
	normalPerBucket: number;
}

export interface AlertSeen {
	/** the node's clock when the alert was passed on */
	at: number;
	windowStart: number;
	windowEnd: number;
	count: number;
	complete: boolean;
	threshold: number;
	baseline: number;
	basis: string;
	/** index of the burst whose span its bucket overlaps, or -1: a false alarm */
	burst: number;
}

export interface BurstOutcome {
	index: number;
	day: number;
	at: string;
	minutes: number;
	factor: number;
	small: boolean;
	normalPerBucket: number;
	detected: boolean;
	/** from the burst's start to the first alert, ms */
	delayMs?: number;
	/** the first alert's count and threshold */
	count?: number;
	threshold?: number;
	complete?: boolean;
	alerts: number;
}

export interface LevelResult {
	level: 'engine' | 'stream' | 'poll';
	/** simulated span judged: [from, to) */
	from: number;
	to: number;
	mentions: number;
	/** evaluations of the engine (engine level: ticks; stream: clock steps; poll: checks) */
	evaluations: number;
	alerts: AlertSeen[];
	bursts: BurstOutcome[];
	falseAlarms: number;
	/** simulated days outside the bursts (and the bucket after each) */
	normalDays: number;
	falseAlarmsPerWeek: number;
	seconds: number;
	note: string;
	/** poll level: mentions it read, and the checks whose count was incomplete */
	read?: number;
	incompleteAlerts?: number;
}

export interface AlertResult {
	scenario: Scenario;
	settings: { bucketMinutes: number; ratio: number; deviations: number; minMentions: number };
	bursts: Burst[];
	levels: LevelResult[];
}

// ---------------------------------------------------------------- the scenario

const PROJECT = 1001;

export function burstsOfScenario(s: Scenario): Burst[] {
	const start = Date.parse(s.start);
	const all = [
		...s.bursts.map((b) => ({ ...b, small: false })),
		...s.smallBursts.map((b) => ({ ...b, small: true })),
	];
	return all.map((b, index) => {
		const [hh, mm] = b.at.split(':').map(Number);
		const from = start + b.day * DAY + hh * HOUR + mm * MINUTE;
		return { ...b, index, from, to: from + b.minutes * MINUTE, normalPerBucket: 0 };
	});
}

function simFlags(s: Scenario, bursts: Burst[], negative?: number[]): string[] {
	return [
		'--now',
		s.start,
		'--clock',
		'frozen',
		'--projects',
		'1',
		'--mentions',
		'0',
		'--limits',
		'off',
		'--seed',
		String(s.seed),
		'--live-rate',
		String(s.ratePerMinute),
		'--live-daily',
		s.daily,
		'--live-variation',
		s.variation,
		...bursts.flatMap((b) => [
			'--live-burst',
			`at=${new Date(b.from).toISOString()},minutes=${b.minutes},factor=${b.factor},label=burst${b.index + 1}${negative ? `,negative=${negative[b.index]}` : ''}`,
		]),
	];
}

const BENCH_NODE = { name: 'SentiOne', type: 'bench', typeVersion: 1 } as unknown as INode;

/** The default Volume Spike settings, read as the node reads them. */
function defaultSpikeSettings(now: number) {
	const settings = readAlertSettings(
		'volumeSpike',
		(_name, fallback) => fallback,
		BENCH_NODE,
		'UTC',
		now,
	);
	if (settings.event !== 'volumeSpike') throw new Error('not a spike');
	return settings;
}

/** The default Sentiment Shift settings, read as the node reads them. */
function defaultShiftSettings(now: number) {
	const settings = readAlertSettings(
		'sentimentShift',
		(_name, fallback) => fallback,
		BENCH_NODE,
		'UTC',
		now,
	);
	if (settings.event !== 'sentimentShift') throw new Error('not a shift');
	return settings;
}

/** The shifts of SHIFT_SCENARIO as bursts of factor 1 (the simulator's bursts carry a sentiment mix). */
export function shiftScenario(): { scenario: Scenario; bursts: Burst[]; negative: number[] } {
	const all = [
		...SHIFT_SCENARIO.shifts.map((x) => ({ ...x, small: false })),
		...SHIFT_SCENARIO.smallShifts.map((x) => ({ ...x, small: true })),
	];
	const scenario: Scenario = {
		...SCENARIO,
		seed: SHIFT_SCENARIO.seed,
		bursts: all.filter((x) => !x.small).map((x) => ({ ...x, factor: 1 })),
		smallBursts: all.filter((x) => x.small).map((x) => ({ ...x, factor: 1 })),
	};
	return { scenario, bursts: burstsOfScenario(scenario), negative: all.map((x) => x.negative) };
}

/** Attributes the alerts to bursts and counts what each level got. */
function judge(
	level: string,
	bursts: Burst[],
	bucketMs: number,
	from: number,
	to: number,
	raw: Array<Omit<AlertSeen, 'burst'>>,
): Pick<LevelResult, 'alerts' | 'bursts' | 'falseAlarms' | 'normalDays' | 'falseAlarmsPerWeek'> {
	const alerts: AlertSeen[] = raw.map((a) => ({
		...a,
		burst: bursts.find((b) => a.windowEnd > b.from && a.windowStart < b.to + bucketMs)?.index ?? -1,
	}));
	const outcomes: BurstOutcome[] = bursts.map((b) => {
		const mine = alerts.filter((a) => a.burst === b.index);
		const first = mine[0];
		return {
			index: b.index,
			day: b.day,
			at: b.at,
			minutes: b.minutes,
			factor: b.factor,
			small: b.small,
			normalPerBucket: b.normalPerBucket,
			detected: first !== undefined,
			delayMs: first ? first.at - b.from : undefined,
			count: first?.count,
			threshold: first?.threshold,
			complete: first?.complete,
			alerts: mine.length,
		};
	});
	// normal traffic: the span judged minus each burst and the bucket after it (its count still holds the burst)
	let burstMs = 0;
	for (const b of bursts)
		burstMs += Math.max(0, Math.min(b.to + bucketMs, to) - Math.max(b.from, from));
	const normalMs = to - from - burstMs;
	const falseAlarms = alerts.filter((a) => a.burst === -1).length;
	log(
		`alerts (${level}): ${outcomes.filter((o) => !o.small && o.detected).length}/${outcomes.filter((o) => !o.small).length} bursts of 3× or more detected, ${falseAlarms} false alarm(s), ${alerts.length} alert(s)`,
	);
	return {
		alerts,
		bursts: outcomes,
		falseAlarms,
		normalDays: normalMs / DAY,
		falseAlarmsPerWeek: falseAlarms / (normalMs / WEEK),
	};
}

function alertOf(item: IDataObject, at: number): Omit<AlertSeen, 'burst'> | undefined {
	if (item.kind === 'sentimentShift')
		return {
			at,
			windowStart: Date.parse(String(item.windowStart)),
			windowEnd: Date.parse(String(item.windowEnd)),
			count: Number(item.share),
			complete: true,
			threshold: Number(item.shiftPoints),
			baseline: Number(item.usualShare),
			basis: String(item.baselineBasis),
		};
	if (item.kind !== 'volumeSpike') return undefined;
	return {
		at,
		windowStart: Date.parse(String(item.windowStart)),
		windowEnd: Date.parse(String(item.windowEnd)),
		count: Number(item.count),
		complete: item.complete === true,
		threshold: Number(item.threshold),
		baseline: Number(item.baseline),
		basis: String(item.baselineBasis),
	};
}

// ---------------------------------------------------------------- level 1: the engine

export interface Summary {
	id: string;
	collectedAt: string;
	sentiment: string;
	sourceType: string;
	type: string;
}

/** The live stream's heartbeat interval (D-29: the simulator's default). */
const HEARTBEAT_MS = 15_000;

/** The simulator's ground truth: every mention of the 14 days, and each burst's normal rate. */
export async function groundTruthOf(
	s: Scenario,
	bursts: Burst[],
	negative?: number[],
): Promise<Summary[]> {
	const from = Date.parse(s.start);
	const to = from + s.days * DAY;
	const sim = await simulator(simFlags(s, bursts, negative));
	try {
		for (let day = 0; day < s.days; day++) await admin(sim, 'POST', '/clock', { advanceMs: DAY });
		// the rate each burst stands on: the simulator's expectation of the bucket before it
		for (const b of bursts) {
			const e = await liveExpected(sim, {
				from: new Date(b.from - 15 * MINUTE).toISOString(),
				to: new Date(b.from).toISOString(),
				bucketMinutes: 15,
				projectId: PROJECT,
			});
			b.normalPerBucket = e.expected;
		}
		return (
			await admin<{ mentions: Summary[] }>(sim, 'GET', `/mentions?projectId=${PROJECT}`)
		).mentions.filter((m) => Date.parse(m.collectedAt) > from && Date.parse(m.collectedAt) <= to);
	} finally {
		await sim.stop();
	}
}

export function engineLevel(
	s: Scenario,
	bursts: Burst[],
	mentions: Summary[],
	event: 'volumeSpike' | 'sentimentShift' = 'volumeSpike',
): LevelResult {
	const t0 = Date.now();
	const from = Date.parse(s.start);
	const to = from + s.days * DAY;
	let now = from;
	const restore = setClock({ now: () => now, sleep: async () => undefined });
	const raw: Array<Omit<AlertSeen, 'burst'>> = [];
	const settings =
		event === 'volumeSpike' ? defaultSpikeSettings(from) : defaultShiftSettings(from);
	const spanMs = settings.event === 'volumeSpike' ? settings.bucketMs : settings.windowMs;
	let evaluations = 0;
	try {
		const alerts = new StreamAlerts(
			{
				projectId: PROJECT,
				filters: {},
				alert: settings,
			} as unknown as StreamSettings & { alert: typeof settings },
			'UTC',
			undefined,
			(item) => {
				const a = alertOf(item, now);
				if (a) raw.push(a);
			},
			now,
		);
		alerts.connectedAt(now, now, 0);
		const tick = () => {
			alerts.tick();
			evaluations++;
		};
		let beat = from + HEARTBEAT_MS;
		for (const m of mentions) {
			const at = Date.parse(m.collectedAt);
			while (beat < at) {
				now = beat;
				tick();
				beat += HEARTBEAT_MS;
			}
			now = at;
			alerts.observe({
				id: m.id,
				collectedAt: m.collectedAt,
				type: m.type,
				source: { type: m.sourceType },
				content: { sentiment: m.sentiment },
			});
			tick();
		}
		while (beat < to) {
			now = beat;
			tick();
			beat += HEARTBEAT_MS;
		}
	} finally {
		restore();
	}
	return {
		level: 'engine',
		from,
		to,
		mentions: mentions.length,
		evaluations,
		...judge(
			event === 'volumeSpike' ? 'engine' : 'engine, sentiment shift',
			bursts,
			spanMs,
			from,
			to,
			raw,
		),
		seconds: Math.round((Date.now() - t0) / 1000),
		note: `the simulator's ground truth through the Stream Trigger's alert wiring (streamAlerts.ts): each mention at its collectedAt and a heartbeat every ${HEARTBEAT_MS / 1000} s`,
	};
}

// ---------------------------------------------------------------- level 2: the Stream Trigger

/** Counts the mentions the Stream Trigger hands to its alerts (one per mention it takes). */
let observed = 0;
const originalObserve = StreamAlerts.prototype.observe;
function countObserved(): () => void {
	StreamAlerts.prototype.observe = function (this: StreamAlerts, mention: IDataObject) {
		observed++;
		originalObserve.call(this, mention);
	};
	return () => {
		StreamAlerts.prototype.observe = originalObserve;
	};
}

async function streamLevel(s: Scenario, bursts: Burst[], days: number): Promise<LevelResult> {
	const t0 = Date.now();
	const from = Date.parse(s.start);
	const to = from + days * DAY;
	const sim = await simulator([...simFlags(s, bursts), '--heartbeat-ms', '1000']);
	let now = from;
	const restore = setClock({ now: () => now, sleep: async () => undefined });
	const uncount = countObserved();
	observed = 0;
	const raw: Array<Omit<AlertSeen, 'burst'>> = [];
	const spike = defaultSpikeSettings(from);
	let trigger: ActiveStreamTrigger | undefined;
	let steps = 0;
	try {
		trigger = await activateStreamTrigger(
			streamParameters(
				{ project: projectParam(PROJECT), event: 'volumeSpike' },
				{ stallTimeout: 600 },
			),
			{ apiKey: BASIC, baseUrl: sim.base },
		);
		const t = trigger;
		let seen = 0;
		const take = () => {
			for (; seen < t.emitted.length; seen++)
				for (const item of t.emitted[seen]) {
					const a = alertOf(item, now);
					if (a) raw.push(a);
				}
		};
		const collected = async () =>
			Number(
				(await admin<{ mentionsPerProject: Record<string, number> }>(sim, 'GET', '/stats'))
					.mentionsPerProject[String(PROJECT)] ?? 0,
			);
		const base = await collected();
		const fine = (at: number) =>
			bursts.some((b) => at >= b.from - MINUTE && at < b.from + spike.bucketMs + MINUTE);
		let lastReport = Date.now();
		while (now < to) {
			const step = fine(now) ? 5000 : 60_000;
			// the node's clock first: what the step collects arrives after it (the live stream's delay)
			now += step;
			await admin(sim, 'POST', '/clock', { advanceMs: step });
			steps++;
			const want = (await collected()) - base;
			const deadline = Date.now() + 30_000;
			while (observed < want) {
				if (Date.now() > deadline)
					throw new Error(
						`the Stream Trigger took ${observed} of ${want} mentions at ${new Date(now).toISOString()}`,
					);
				await sleep(1);
			}
			take();
			if (t.errors.length > 0 || t.failures.length > 0)
				throw new Error(
					`the Stream Trigger reported: ${[...t.errors, ...t.failures].map((e) => e.message).join('; ')}`,
				);
			if (Date.now() - lastReport > 30_000) {
				lastReport = Date.now();
				log(
					`alerts (stream): ${new Date(now).toISOString().slice(0, 16)}, ${observed} mentions, ${raw.length} alert(s)`,
				);
			}
		}
		// a last heartbeat at the end, so the final step's mentions are judged too
		await sleep(1200);
		take();
	} finally {
		await trigger?.close();
		uncount();
		restore();
		await sim.stop();
	}
	return {
		level: 'stream',
		from,
		to,
		mentions: observed,
		evaluations: steps,
		...judge('stream', bursts, spike.bucketMs, from, to, raw),
		seconds: Math.round((Date.now() - t0) / 1000),
		note: `the SentiOne Stream Trigger (n8n-core TriggerContext) on the simulator's live stream; its clock and the simulator's moved together in ${steps.toLocaleString('en-US')} steps (60 s; 5 s from a minute before each burst to a bucket after its start), each step waiting until the trigger had taken every mention collected`,
	};
}

// ---------------------------------------------------------------- level 3: the poll trigger

async function pollLevel(s: Scenario, bursts: Burst[], days: number): Promise<LevelResult> {
	const t0 = Date.now();
	const from = Date.parse(s.start);
	const to = from + days * DAY;
	const sim: Sim = await simulator(simFlags(s, bursts));
	let now = from;
	const restore = setClock({
		now: () => now,
		sleep: async (ms: number) => {
			now += ms;
			await admin(sim, 'POST', '/clock', { advanceMs: ms });
		},
	});
	const raw: Array<Omit<AlertSeen, 'burst'>> = [];
	const spike = defaultSpikeSettings(from);
	const interval = 5 * MINUTE;
	let checks = 0;
	let read = 0;
	try {
		const harness = new PollHarness(
			pollParameters(PROJECT, {
				event: 'volumeSpike',
				// its default share of the key's search budget (the test helper turns it off)
				options: { requestsPerHour: POLL_DEFAULTS.requestsPerHour },
			}),
			{ apiKey: BASIC, baseUrl: sim.base },
		);
		const activation = await harness.poll('activate');
		if (activation.error) throw activation.error;
		let lastReport = Date.now();
		while (now + interval <= to) {
			now += interval;
			await admin(sim, 'POST', '/clock', { advanceMs: interval });
			const outcome = await harness.poll();
			checks++;
			if (outcome.error && !/falling behind/.test(outcome.error.message)) throw outcome.error;
			for (const item of outcome.items ?? []) {
				const a = alertOf(item, now);
				if (a) raw.push(a);
			}
			if (Date.now() - lastReport > 30_000) {
				lastReport = Date.now();
				log(
					`alerts (poll): ${new Date(now).toISOString().slice(0, 16)}, ${checks} checks, ${raw.length} alert(s)`,
				);
			}
		}
		// mentions the simulator returned, per key tier
		const returned = (
			await admin<{ mentionsReturned?: Record<string, number> }>(sim, 'GET', '/stats')
		).mentionsReturned;
		read = Object.values(returned ?? {}).reduce((a, b) => a + Number(b), 0);
	} finally {
		restore();
		await sim.stop();
	}
	const judged = judge('poll', bursts, spike.bucketMs, from, to, raw);
	return {
		level: 'poll',
		from,
		to,
		mentions: 0,
		evaluations: checks,
		...judged,
		read,
		incompleteAlerts: judged.alerts.filter((a) => !a.complete).length,
		seconds: Math.round((Date.now() - t0) / 1000),
		note: `the SentiOne Trigger (n8n-core PollContext) checked every 5 simulated minutes with its default share (${POLL_DEFAULTS.requestsPerHour} search requests an hour, late mention window ${POLL_DEFAULTS.lateWindowMinutes} min)`,
	};
}

// ---------------------------------------------------------------- the part

export async function measureAlerts(options: {
	levels: Array<LevelResult['level']>;
	/** simulated days of the stream and poll levels (the engine level always runs the whole scenario) */
	triggerDays?: number;
}): Promise<AlertResult> {
	const s = SCENARIO;
	const bursts = burstsOfScenario(s);
	const spike = defaultSpikeSettings(Date.parse(s.start));
	const levels: LevelResult[] = [];
	// the engine level first: it also reads each burst's normal rate from the simulator
	const truth = await groundTruthOf(s, bursts);
	levels.push(engineLevel(s, bursts, truth));
	const days = options.triggerDays ?? s.days;
	if (options.levels.includes('stream')) levels.push(await streamLevel(s, bursts, days));
	if (options.levels.includes('poll')) levels.push(await pollLevel(s, bursts, days));
	for (const level of levels) {
		for (const o of level.bursts) o.normalPerBucket = bursts[o.index].normalPerBucket;
	}
	return {
		scenario: s,
		settings: {
			bucketMinutes: spike.bucketMs / MINUTE,
			ratio: spike.ratio,
			deviations: spike.deviations,
			minMentions: spike.minMentions,
		},
		bursts,
		levels,
	};
}

export { ALERT_DEFAULTS };
