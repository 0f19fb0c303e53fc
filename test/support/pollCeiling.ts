/**
 * The poll trigger beyond its ceiling (issue 21): one SentiOne Trigger on its defaults, polled on
 * n8n's default schedule (every minute), while the simulator collects `ratePerHour` mentions an
 * hour for its project (the live shape, POST /__admin/live), for `hours` simulated hours (the
 * node's clock and the simulator's move together); then, arrivals stopped, up to `drainHours`
 * more. Measured: the lag (how long the oldest mention not yet passed on has waited) at the end
 * of each hour, the longest delay from collection to being passed on, the requests by kind, the
 * "falling behind" notice and when it came, and — against the simulator's ground truth — lost and
 * duplicated mentions. Used by test/engine/trigger/ceiling.test.ts and bench/workers/pollCeiling.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { PollHarness, pollOnDefaults } from './triggers';
import { admin, emptyProject, resetSim, type Loose, type Sim } from './simulator';
import type { SimClock } from './simClock';
import { BASIC } from './keys';
import { MINUTE } from './time';
import { STATE_KEY } from '../../nodes/SentiOne/trigger/poll/pollState';

export interface CeilingOptions {
	ratePerHour: number;
	/** Options → Catch Up by Export (on by default) */
	catchUp: boolean;
	hours: number;
	/** after the arrivals stop: poll on until nothing waits, at most this long */
	drainHours: number;
}

export interface CeilingRun extends CeilingOptions {
	arrived: number;
	emitted: number;
	/** minutes the oldest mention not yet passed on had waited, at the end of each hour */
	lagMinutesAtHour: number[];
	/** longest minutes from a mention's collection to the check that passed it on (during the hours) */
	maxDelayMinutes: number;
	/** mentions still waiting when the drain ended (not lost: collected at or after the last passed on) */
	waitingAtEnd: number;
	lost: number;
	duplicated: number;
	/** mentions passed on that the project never collected */
	unexpected: number;
	searches: number;
	exports: number;
	/** the first poll (minutes after activation) that ended with more to read */
	firstBehindMinute?: number;
	/** the poll (minutes after activation) that said "falling behind" */
	noticeMinute?: number;
	/** checks that sent a request between those two polls */
	checksBetween?: number;
	notice?: string;
	/** any other error the trigger raised */
	errors: string[];
}

interface Truth {
	id: string;
	collectedAt: number;
}

async function truth(sim: Sim, projectId: number): Promise<Truth[]> {
	const r = await admin<{ mentions: Array<{ id: string; collectedAt: string }> }>(
		sim,
		'GET',
		`/mentions?projectId=${projectId}`,
	);
	return r.mentions.map((m) => ({ id: m.id, collectedAt: Date.parse(m.collectedAt) }));
}

/** Runs one scenario on a simulator reset to its startup state (the clock at its start). */
export async function runCeiling(
	sim: Sim,
	clock: SimClock,
	o: CeilingOptions,
): Promise<CeilingRun> {
	await resetSim(sim, clock);
	await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
	// start at the top of an hour, so each hour is one window of the search budget
	await clock.toNextHour();
	const projectId = await emptyProject(sim, `ceiling ${o.ratePerHour}`);
	const trigger = new PollHarness(pollOnDefaults(projectId, o.catchUp ? {} : { catchUp: false }), {
		apiKey: BASIC,
		baseUrl: sim.base,
	});
	const errors: string[] = [];
	const first = await trigger.poll('activate');
	if (first.error) errors.push(first.error.message);
	await admin(sim, 'DELETE', '/requests');
	await admin(sim, 'POST', '/live', { ratePerMinute: o.ratePerHour / 60 });
	const passedAt = new Map<string, number>();
	const emittedIds: string[] = [];
	const lagMinutesAtHour: number[] = [];
	let maxDelay = 0;
	let firstBehindMinute: number | undefined;
	let noticeMinute: number | undefined;
	let notice: string | undefined;
	const requestsSoFar = async () =>
		(await admin<{ requests: Loose[] }>(sim, 'GET', '/requests')).requests.length;
	const checkAt: number[] = [];
	let lastCount = 0;

	const poll = async (minute: number, during: boolean) => {
		const outcome = await trigger.poll('update');
		const count = await requestsSoFar();
		if (count > lastCount) checkAt.push(minute);
		lastCount = count;
		for (const item of outcome.items ?? []) {
			const id = String((item as IDataObject).id);
			emittedIds.push(id);
			if (!passedAt.has(id)) passedAt.set(id, clock.now);
			const at = Date.parse(String((item as IDataObject).collectedAt));
			if (during) maxDelay = Math.max(maxDelay, clock.now - at);
		}
		if (outcome.error) {
			if (/falling behind/.test(outcome.error.message)) {
				if (noticeMinute === undefined) {
					noticeMinute = minute;
					notice = `${outcome.error.message}`;
				}
			} else errors.push(outcome.error.message);
		}
		const state = trigger.staticData()[STATE_KEY] as IDataObject | undefined;
		if (firstBehindMinute === undefined && state?.round !== undefined) firstBehindMinute = minute;
	};
	const waitingSince = async (): Promise<number | undefined> => {
		const waiting = (await truth(sim, projectId)).filter((m) => !passedAt.has(m.id));
		return waiting.length === 0 ? undefined : Math.min(...waiting.map((m) => m.collectedAt));
	};

	let minute = 0;
	for (let hour = 0; hour < o.hours; hour++) {
		for (let m = 0; m < 60; m++) {
			await clock.advance(MINUTE);
			minute++;
			await poll(minute, true);
		}
		const since = await waitingSince();
		lagMinutesAtHour.push(since === undefined ? 0 : Math.round((clock.now - since) / MINUTE));
	}
	await admin(sim, 'POST', '/live', { ratePerMinute: 0 });
	for (let m = 0; m < o.drainHours * 60 && (await waitingSince()) !== undefined; m++) {
		await clock.advance(MINUTE);
		minute++;
		await poll(minute, false);
	}
	const all = await truth(sim, projectId);
	const state = trigger.staticData()[STATE_KEY] as IDataObject;
	const watermark = typeof state?.watermark === 'number' ? state.watermark : -Infinity;
	const counts = new Map<string, number>();
	for (const id of emittedIds) counts.set(id, (counts.get(id) ?? 0) + 1);
	const known = new Set(all.map((m) => m.id));
	const waiting = all.filter((m) => !counts.has(m.id));
	const { requests } = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	const checksBetween =
		firstBehindMinute !== undefined && noticeMinute !== undefined
			? checkAt.filter((at) => at > firstBehindMinute! && at < noticeMinute!).length
			: undefined;
	return {
		...o,
		arrived: all.length,
		emitted: emittedIds.length,
		lagMinutesAtHour,
		maxDelayMinutes: Math.round(maxDelay / MINUTE),
		// a mention not passed on below the watermark would be lost; at or above it, it waits (the
		// next scan reads the watermark's instant again)
		waitingAtEnd: waiting.filter((m) => m.collectedAt >= watermark).length,
		lost: waiting.filter((m) => m.collectedAt < watermark).length,
		duplicated: [...counts.values()].filter((n) => n > 1).length,
		unexpected: [...counts.keys()].filter((id) => !known.has(id)).length,
		searches: requests.filter((r) => r.group === 'search').length,
		exports: requests.filter((r) => r.group === 'export').length,
		firstBehindMinute,
		noticeMinute,
		checksBetween,
		notice,
		errors,
	};
}
