/**
 * The poll trigger beyond its ceiling (trigger/poll/catchUp.ts): when a check counts as falling
 * behind (more to read, mentions arriving faster than its share carries, over a span that tells a
 * rate), when a check catches up, and — through `poll()` with a fake SentiOne — the catch-up
 * export passing the backlog on once, and an export SentiOne refuses leaving the searches to it,
 * said once.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import {
	CATCH_UP_SPACING_MS,
	catchUpDue,
	ceilingPerHour,
	fallingBehind,
} from '../../../../nodes/SentiOne/trigger/poll/catchUp';
import type { PollSettings } from '../../../../nodes/SentiOne/trigger/poll/pollSettings';
import { newState, STATE_KEY } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import { page } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { mentionAt, mentionEvent, streamAnswer } from '../../../support/fake/mentions';
import { pollSettings, pollTrigger } from '../../../support/fake/pollTrigger';
import { idsOf } from '../../../support/tally';
import { HOUR, MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { projectParam } from '../../../support/triggers';

const T = NOW_MS;
const clock = useFakeClock(T);
const SEARCH = PATHS.recentSearch(1001);
const EXPORT = PATHS.recentExport(1001);

const settings = (patch: Partial<PollSettings> = {}): PollSettings =>
	pollSettings({ simplify: false, lateWindowMs: 0, ...patch });

/** `count` mentions collected `stepMs` apart from `from`. */
const arriving = (count: number, from: number, stepMs: number, prefix = 'b') =>
	Array.from({ length: count }, (_, i) => mentionAt(`${prefix}${i}`, from + i * stepMs));

describe('falling behind', () => {
	test('the ceiling is the share × a page (the whole budget without a share)', () => {
		expect(ceilingPerHour(settings())).toBe(300);
		expect(ceilingPerHour(settings({ requestsPerHour: 20 }))).toBe(500);
		expect(ceilingPerHour(settings({ requestsPerHour: 0 }))).toBe(750);
	});

	test('more to read while 50 mentions came in a minute (3,000 an hour): behind, with the backlog at that rate', () => {
		const state = newState(1001, T - 4 * MINUTE);
		const read = arriving(50, T - 5 * MINUTE, 1.2 * SECOND);
		const behind = fallingBehind(settings(), state, read, true, T);
		expect(behind?.ratePerHour).toBe(3000);
		expect(behind?.backlog).toBe(200);
		expect(behind?.since).toBe(T - 4 * MINUTE);
	});

	test('not behind: nothing more to read, a rate under the ceiling, a burst at one instant, no share, no watermark', () => {
		const state = newState(1001, T - 4 * MINUTE);
		const fast = arriving(50, T - 5 * MINUTE, 1.2 * SECOND);
		expect(fallingBehind(settings(), state, fast, false, T)).toBeUndefined();
		// 50 over 20 minutes: 150 an hour
		expect(
			fallingBehind(settings(), state, arriving(50, T - 30 * MINUTE, 24 * SECOND), true, T),
		).toBeUndefined();
		// a backlog collected within seconds tells no rate
		expect(fallingBehind(settings(), state, arriving(50, T, 100), true, T)).toBeUndefined();
		expect(fallingBehind(settings({ requestsPerHour: 0 }), state, fast, true, T)).toBeUndefined();
		expect(fallingBehind(settings(), newState(1001, null), fast, true, T)).toBeUndefined();
	});

	test('a catch-up is due when behind, allowed, not refused for good, and not sooner than the spacing or a 429’s reset', () => {
		const state = newState(1001, T - HOUR);
		expect(catchUpDue(settings(), state, T)).toBe(false);
		state.behind = T - MINUTE;
		expect(catchUpDue(settings(), state, T)).toBe(true);
		expect(catchUpDue(settings({ catchUp: false }), state, T)).toBe(false);
		state.catchUp = { at: T - CATCH_UP_SPACING_MS + MINUTE };
		expect(catchUpDue(settings(), state, T)).toBe(false);
		expect(catchUpDue(settings(), state, T + MINUTE)).toBe(true);
		state.catchUp = { waitUntil: T + 10 * MINUTE };
		expect(catchUpDue(settings(), state, T)).toBe(false);
		expect(catchUpDue(settings(), state, T + 10 * MINUTE)).toBe(true);
		state.catchUp = { off: 1 };
		expect(catchUpDue(settings(), state, T + HOUR)).toBe(false);
	});
});

describe('through poll()', () => {
	const ids = (output: Awaited<ReturnType<ReturnType<typeof pollTrigger>['poll']>>) =>
		idsOf((output?.[0] ?? []).map((i) => i.json));

	/** An active trigger that has just fallen behind: 250 arrived in 5 minutes, it read 50. */
	async function behind(parameters: IDataObject = {}) {
		const t = pollTrigger({ project: projectParam(1001), simplify: false, ...parameters });
		t.api.once('POST', SEARCH, { body: page([mentionAt('seed', T - SECOND)]) });
		expect(await t.poll()).toBeNull();
		clock().advance(5 * MINUTE);
		const first = arriving(50, T, 1.2 * SECOND, 'a');
		t.api
			.once('POST', SEARCH, { body: page(first.slice(0, 25), 'c1') })
			.once('POST', SEARCH, { body: page(first.slice(25), 'c2') });
		expect(ids(await t.poll())).toHaveLength(50);
		return t;
	}

	test('told by the very next check, without a request; the next due check reads the backlog with one export, each mention once', async () => {
		const t = await behind();
		expect(t.state().behind).toBe(T + 5 * MINUTE);
		clock().advance(MINUTE);
		const sent = t.api.requests.length;
		const told = await t.failure();
		expect(told.message).toMatch(
			/^The trigger is falling behind: mentions arrive at about 3,000 an hour, more than its requests carry .*about 300 an hour\)\. About \d+ are waiting/,
		);
		expect(t.api.requests).toHaveLength(sent);
		// the next due check (two requests spent: two spacings) exports from the watermark to now
		clock().advance(9 * MINUTE);
		const backlog = [
			...arriving(50, T, 1.2 * SECOND, 'a').slice(45),
			...arriving(300, T + MINUTE, 2 * SECOND),
		];
		t.api.once('POST', EXPORT, streamAnswer('sse', backlog.map(mentionEvent)));
		const output = await t.poll();
		expect(t.api.requests).toHaveLength(sent + 1);
		expect(t.api.requests[sent]).toMatchObject({ method: 'POST', path: EXPORT });
		// the five already passed on are not passed on again
		expect(ids(output)).toEqual(arriving(300, T + MINUTE, 2 * SECOND).map((m) => m.id));
		expect(t.state()).toMatchObject({ catchUp: { at: T + 15 * MINUTE } });
		expect(t.state().behind).toBeUndefined();
		expect(t.state().round).toBeUndefined();
		// the share counts searches only: the export spent none of it
		expect(t.state().spent?.count).toBe(3);
	});

	test('an export SentiOne does not offer (404): said once, never tried again, the check searches as usual', async () => {
		const t = await behind();
		clock().advance(MINUTE);
		await t.failure();
		clock().advance(9 * MINUTE);
		t.api
			.once('POST', EXPORT, { status: 404, body: { message: 'Not found.' } })
			.once('POST', SEARCH, { body: page(arriving(5, T + MINUTE, SECOND, 'n')) });
		expect(ids(await t.poll())).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
		expect(t.state().catchUp).toMatchObject({ off: 1 });
		expect(t.state().pending).toEqual([
			expect.stringMatching(
				/^The trigger could not catch up by export: SentiOne refused the export/,
			),
		]);
		expect((t.staticData[STATE_KEY] as IDataObject).catchUp).toMatchObject({ off: 1 });
	});
});
