/**
 * The SentiOne Trigger's alert events (trigger/poll/pollAlerts.ts) through `poll()` with a fake
 * SentiOne and a fake clock: the mentions each check reads go to the alert engine, a digest comes
 * once its window has been read to the end (or, not seen whole in time, says "at least"), bad
 * alert fields are refused before any request, and "Fetch test event" gives an item of the
 * alert's shape.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { ALERT_STATE_KEY } from '../../../../nodes/SentiOne/trigger/alerts';
import { page } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { pollContext, runPoll } from '../../../support/fake/context';
import { mentionAt } from '../../../support/fake/mentions';
import { pollNode, pollTrigger } from '../../../support/fake/pollTrigger';
import { MINUTE, NOW_MS } from '../../../support/time';
import { projectParam } from '../../../support/triggers';

const SEARCH = PATHS.recentSearch(1001);
const T = NOW_MS; // 2026-11-21 10:30 UTC
const clock = useFakeClock(T);
const project = projectParam(1001);
const at = (hh: number, mm: number) => Date.UTC(2026, 10, 21, hh, mm);

const hourlyDigest = {
	project,
	event: 'digest',
	digestWindow: 'hours',
	digestEvery: 1,
	options: { requestsPerHour: 0, lateWindowMinutes: 0 },
};

function checkAt(t: ReturnType<typeof pollTrigger>, ms: number, mentions: IDataObject[]) {
	clock().now = ms;
	t.api.once('POST', SEARCH, { body: page(mentions) });
	return t.poll();
}

test('an hourly digest: the window activation fell in says "at least"; the next is whole, each mention counted once', async () => {
	const t = pollTrigger(hourlyDigest);
	// activation at 10:30 notes the newest mention, passes nothing on
	expect(await checkAt(t, T, [mentionAt('m0', at(10, 29))])).toBeNull();
	expect(
		await checkAt(t, at(10, 45), [
			mentionAt('m1', at(10, 40)),
			mentionAt('m2', at(10, 44), { content: { sentiment: 'Negative', text: 'Broken again' } }),
		]),
	).toBeNull();
	// 11:05: the 10:00 window was read to its end, but its first half was never seen (and nothing
	// can fill the time before the activation): "at least", at once
	const [[first]] = (await checkAt(t, at(11, 5), [mentionAt('m3', at(11, 1))]))!;
	expect(first.json).toMatchObject({
		kind: 'digest',
		windowStart: '2026-11-21T10:00:00.000Z',
		windowEnd: '2026-11-21T11:00:00.000Z',
		total: 2,
		complete: false,
		totalText: 'at least 2',
		bySentiment: { Positive: 1, Negative: 1 },
	});
	expect((first.json.negativeMentions as IDataObject[]).map((m) => m.id)).toEqual(['m2']);
	// 12:01: the 11:00 window, seen whole
	const [[second]] = (await checkAt(t, at(12, 1), []))!;
	expect(second.json).toMatchObject({ total: 1, complete: true, totalText: '1' });
	expect(second.json.summary).toMatch(
		/^Digest for Sat 21 Nov 2026 11:00–12:00 \(UTC\): 1 mention, 0 negative \(0%\)\./,
	);
	// once: nothing more until the next window ends
	expect(await checkAt(t, at(12, 30), [])).toBeNull();
	// the engine's state lives next to the watermark
	expect(Object.keys(t.staticData)).toEqual(expect.arrayContaining([ALERT_STATE_KEY]));
});

test('a restart between checks (the static data reloaded) counts nothing twice', async () => {
	const t = pollTrigger(hourlyDigest);
	await checkAt(t, T, []);
	await checkAt(t, at(10, 50), [mentionAt('a', at(10, 45))]);
	const restarted = pollTrigger(hourlyDigest);
	Object.assign(restarted.staticData, JSON.parse(JSON.stringify(t.staticData)));
	// 11:20: the window (incomplete: activation fell in it) is due; both mentions, once
	const [[item]] = (await checkAt(restarted, at(11, 20), [mentionAt('b', at(10, 55))]))!;
	expect(item.json).toMatchObject({ total: 2, complete: false });
	expect(await checkAt(restarted, at(11, 21), [])).toBeNull();
});

test('a daily time that does not exist on a DST day is refused before any request, naming the field', async () => {
	const api = pollTrigger().api;
	const ctx = pollContext({
		nodeType: pollNode,
		api,
		timezone: 'Europe/Warsaw',
		parameters: { project, event: 'digest', digestWindow: 'daily', digestAt: '02:30' },
	});
	await expect(runPoll(pollNode, ctx)).rejects.toThrow(
		'At (HH:MM): 02:30 does not exist in Europe/Warsaw on 2027-03-28: the clocks jump over it (daylight saving time).',
	);
	expect(api.requests).toEqual([]);
});

test.each([
	[
		{ digestWindow: 'minutes', digestEvery: 0 },
		/^Every: "0" is not valid\. Expected a whole number from 1 to 1440\./,
	],
	[
		{ digestWindow: 'hours', digestEvery: 25 },
		/^Every: "25" is not valid\. Expected a whole number from 1 to 24\./,
	],
	[{ digestWindow: 'daily', digestAt: '9am' }, /^At \(HH:MM\): "9am" is not a time of day/],
	[{ event: 'volumeSpike', spikeBucketMinutes: -15 }, /^Bucket \(Minutes\): "-15" is not valid/],
	[
		{ event: 'volumeSpike', spikeRatio: 1 },
		/^Spike Ratio: "1" is not valid\. Expected a number from 1\.1 to 100\./,
	],
	[
		{ event: 'sentimentShift', shiftPoints: 150 },
		/^Shift \(Percentage Points\): "150" is not valid/,
	],
])('bad alert fields are refused before any request: %j', async (fields, words) => {
	const t = pollTrigger({ ...hourlyDigest, ...fields });
	await expect(t.poll()).rejects.toThrow(words);
	expect(t.api.requests).toEqual([]);
});

test('"Fetch test event": one request, an item of the alert\'s shape marked as a test, state untouched', async () => {
	const t = pollTrigger({ ...hourlyDigest, event: 'volumeSpike' });
	t.api.once('POST', SEARCH, {
		body: page([mentionAt('m2', T - MINUTE), mentionAt('m1', T - 2 * MINUTE)]),
	});
	const [[item]] = (await t.poll('manual'))!;
	expect(item.json).toMatchObject({ kind: 'volumeSpike', test: true, count: 2 });
	expect(item.json.summary).toMatch(
		/^Test event, built from the 2 newest matching mentions: Volume spike/,
	);
	expect(t.api.requests).toHaveLength(1);
	expect(t.staticData).toEqual({});
});
