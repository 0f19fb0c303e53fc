/**
 * What the poll trigger tells the user besides mentions (trigger/poll/notices.ts): the spent search
 * budget (with its reset, in the workflow's time zone), notices reported as one error, and the
 * words of each notice.
 */
import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import {
	behindNotice,
	budgetError,
	descendingNotice,
	noIdNotice,
	noticeError,
	repairNotice,
} from '../../../../nodes/SentiOne/trigger/poll/notices';
import type { PollSettings } from '../../../../nodes/SentiOne/trigger/poll/pollSettings';
import { useFakeClock } from '../../../support/fake/clock';
import { pollContext } from '../../../support/fake/context';
import { pollSettings } from '../../../support/fake/pollTrigger';
import { MINUTE } from '../../../support/time';

const clock = useFakeClock(Date.UTC(2026, 10, 21, 10, 30));
const ctx = (timezone = 'UTC') => pollContext({ nodeType: new SentiOneTrigger(), timezone });

const settings = (maxRequestsPerPoll: number): PollSettings =>
	pollSettings({ maxRequestsPerPoll, lateWindowMs: 0 });

describe('the spent search budget', () => {
	test('names the limit and the reset in the workflow’s time zone, says nothing is lost, with HTTP code 429', () => {
		const resetAt = clock().now + 30 * MINUTE;
		const error = budgetError(ctx('Europe/Warsaw'), { limit: 30, remaining: 0, resetAt }, true);
		expect(error.message).toBe(
			"SentiOne's search budget is used up (429): at most 30 requests an hour for this API key. It resets at 2026-11-21 12:00 Europe/Warsaw (in 30 min).",
		);
		expect(error.description).toMatch(/^The watermark was kept, so nothing is lost/);
		expect(error.description).toMatch(/reported once per hourly window\.$/);
		expect(error.httpCode).toBe('429');
	});

	test('a check that knew the budget was spent says it sent nothing; an unknown limit is the documented 30', () => {
		const error = budgetError(ctx(), { remaining: 0 }, false);
		expect(error.message).toBe(
			"SentiOne's search budget is used up (429): at most 30 requests an hour for this API key.",
		);
		expect(error.description).toMatch(/^No request was sent this time\. The watermark was kept/);
	});
});

describe('notices', () => {
	test('are reported as one error: the first is the message, the rest go in the description', () => {
		const one = noticeError(ctx(), ['Only this.']);
		expect(one.message).toBe('Only this.');
		expect(one.description).toBe(
			'This is reported once; the trigger goes on. No mention was held back for this notice.',
		);
		const two = noticeError(ctx(), ['First.', 'Second.', 'Third.']);
		expect(two.message).toBe('First.');
		expect(two.description).toBe(
			'Second. Third. This is reported once; the trigger goes on. No mention was held back for this notice.',
		);
	});

	test('a repair lists what was repaired and what it may have cost', () => {
		expect(repairNotice(['a', 'b'], true)).toBe(
			"The trigger's saved state was repaired: a; b. It started again from the newest matching mention, so mentions collected between its last good check and now may not have been passed on.",
		);
		expect(repairNotice(['a'], false)).toBe(
			"The trigger's saved state was repaired: a. Nothing is passed on twice; a mention collected in a part of the state that could not be read may have been missed.",
		);
	});

	test('falling behind names the options to raise: the share and the cap, or the cap alone without a share', () => {
		expect(behindNotice(settings(2), 12)).toMatch(
			/^The trigger is falling behind: .*\(Options → Search Requests per Hour: 12, at most 2 per check; each brings up to 25 mentions\)/,
		);
		expect(behindNotice(settings(3), 0)).toMatch(/\(Options → Max Requests per Poll: 3; each/);
		expect(behindNotice(settings(2), 12)).toMatch(/Search Requests per Hour at most 30/);
	});

	test('the switch to newest-first says why, and what it costs', () => {
		const text = descendingNotice('it refused the filter');
		expect(text).toMatch(
			/^SentiOne did not apply the collectedAt filter \(it refused the filter\)\./,
		);
		expect(text).toMatch(/CollectedAtDescending/);
		expect(text).toMatch(/Nothing is passed on twice/);
	});

	test('mentions without an id are counted, in the right number', () => {
		expect(noIdNotice(1)).toBe(
			'SentiOne returned 1 mention without a usable id; it was not passed on, because the trigger could not tell it apart from mentions already passed on.',
		);
		expect(noIdNotice(3)).toBe(
			'SentiOne returned 3 mentions without a usable id; they were not passed on, because the trigger could not tell them apart from mentions already passed on.',
		);
	});
});
