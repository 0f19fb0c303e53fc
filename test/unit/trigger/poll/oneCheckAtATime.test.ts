/**
 * One check at a time (trigger/poll/oneCheckAtATime.ts): n8n starts a poll on each tick without
 * waiting for the one before, so a check that outlasts the interval would run beside the next and
 * pass the same mentions on twice. Through `new SentiOneTrigger().poll` with the fake poll context.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { STALE_CHECK_MS } from '../../../../nodes/SentiOne/trigger/poll/oneCheckAtATime';
import { page, type FakeAnswer } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { mentionAt } from '../../../support/fake/mentions';
import { pollTrigger } from '../../../support/fake/pollTrigger';
import { idsOf } from '../../../support/tally';
import { MINUTE, NOW_MS } from '../../../support/time';
import { projectParam } from '../../../support/triggers';
import { waitFor } from '../../../support/wait';

const SEARCH = PATHS.recentSearch(1001);
const T = NOW_MS;
const clock = useFakeClock(T);
/** between two ticks: past the spacing of the trigger's share of the search budget */
const TICK = 15 * MINUTE;

const ids = (output: INodeExecutionData[][] | null) =>
	idsOf((output?.[0] ?? []).map((i) => i.json));

/** An answer the test releases when it chooses (a slow SentiOne). */
function gated(answer: FakeAnswer) {
	let release: () => void = () => undefined;
	const released = new Promise<void>((resolve) => (release = resolve));
	return {
		release,
		respond: async () => {
			await released;
			return answer;
		},
	};
}

async function activated() {
	const t = pollTrigger({ project: projectParam(1001) });
	t.api.once('POST', SEARCH, { body: page([mentionAt('m1', T - 1000)]) });
	expect(await t.poll()).toBeNull();
	return t;
}

test('a tick while the check before it still runs sends nothing and passes nothing on; the next tick after it checks', async () => {
	const t = await activated();
	clock().advance(TICK);
	const slow = gated({ body: page([mentionAt('m2', T + MINUTE)]) });
	t.api.once('POST', SEARCH, slow.respond);
	const first = t.poll();
	// the next tick comes while the first check waits for SentiOne
	await waitFor(() => t.api.requests.length === 2, { what: 'the slow check under way' });
	clock().advance(TICK);
	expect(await t.poll()).toBeNull();
	expect(t.api.requests).toHaveLength(2);
	slow.release();
	expect(ids(await first)).toEqual(['m2']);
	// the first tick after the slow check ended checks again, from where it stood
	clock().advance(TICK);
	t.api.once('POST', SEARCH, { body: page([mentionAt('m2', T + MINUTE)]) });
	expect(await t.poll()).toBeNull();
	expect(t.api.requests).toHaveLength(3);
});

test('a failed check does not hold the next tick back', async () => {
	const t = await activated();
	clock().advance(TICK);
	t.api.once('POST', SEARCH, { status: 400, body: { message: 'Bad request.' } });
	await expect(t.poll()).rejects.toThrow(/malformed \(400\)/);
	const sent = t.api.requests.length;
	clock().advance(TICK);
	t.api.once('POST', SEARCH, { body: page([mentionAt('m2', T + MINUTE)]) });
	expect(ids(await t.poll())).toEqual(['m2']);
	expect(t.api.requests.length).toBe(sent + 1);
});

test(`a check running longer than ${STALE_CHECK_MS / 3_600_000} h no longer holds the next tick back`, async () => {
	const t = await activated();
	clock().advance(TICK);
	const stuck = gated({ body: page([]) });
	t.api.once('POST', SEARCH, stuck.respond);
	const first = t.poll();
	await waitFor(() => t.api.requests.length === 2, { what: 'the slow check under way' });
	clock().advance(STALE_CHECK_MS);
	t.api.once('POST', SEARCH, { body: page([mentionAt('m2', T + MINUTE)]) });
	expect(ids(await t.poll())).toEqual(['m2']);
	stuck.release();
	await first;
});

test('a test run ("Fetch test event") is never held back by a running check', async () => {
	const t = await activated();
	clock().advance(TICK);
	const slow = gated({ body: page([]) });
	t.api.once('POST', SEARCH, slow.respond);
	const first = t.poll();
	await waitFor(() => t.api.requests.length === 2, { what: 'the slow check under way' });
	t.api.once('POST', SEARCH, { body: page([mentionAt('m9', T)]) });
	expect(ids(await t.poll('manual'))).toEqual(['m9']);
	slow.release();
	await first;
});
