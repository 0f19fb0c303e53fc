/**
 * The Volume Spike baseline (trigger/alerts/baseline.ts), Same Time on Past Days: a window that
 * does not start on a 5-minute slot is compared with the same minutes of past days — the slots at
 * its ends weighted by the share it covers — not with whole slots up to 5 minutes earlier, which
 * on a steep rise of the day (the morning) reads low and made the default settings alarm falsely
 * (bench/results.md, Alerts).
 */
import { baselineFor } from '../../../../nodes/SentiOne/trigger/alerts/baseline';
import {
	countMention,
	newHistory,
	seal,
	SLOT_MS,
} from '../../../../nodes/SentiOne/trigger/alerts/history';
import { DAY, MINUTE } from '../../../support/time';

/** 06:00 UTC on the day judged */
const SIX = Date.parse('2026-11-20T06:00:00Z');

/** Four past days: 10 mentions in each 5-minute slot before 06:00, 40 in each after it. */
function risingMornings() {
	const history = newHistory(SIX - 4 * DAY - 30 * MINUTE);
	for (let d = 1; d <= 4; d++) {
		const six = SIX - d * DAY;
		for (let slot = -4; slot < 4; slot++) {
			const from = six + slot * SLOT_MS;
			const count = slot < 0 ? 10 : 40;
			for (let i = 0; i < count; i++) countMention(history, from + i * 1000, 'Neutral');
		}
	}
	seal(history, SIX - 30 * MINUTE, []);
	return history;
}

test('a window across slot boundaries: the same minutes of past days, end slots pro rata', () => {
	// (05:57:30, 06:07:30]: half of 05:55–06:00 (5), 06:00–06:05 (40), half of 06:05–06:10 (20)
	const b = baselineFor(risingMornings(), SIX + 7.5 * MINUTE, 10 * MINUTE, 'sameTime');
	expect(b).toMatchObject({
		expected: 65,
		spread: 0,
		samples: 4,
		basis: 'the same time on 4 of the past 7 days',
	});
});

test('a window on slot boundaries: whole slots', () => {
	const b = baselineFor(risingMornings(), SIX + 5 * MINUTE, 10 * MINUTE, 'sameTime');
	expect(b).toMatchObject({ expected: 50, spread: 0, samples: 4 });
});

test('a window inside one slot: its share of that slot', () => {
	const b = baselineFor(risingMornings(), SIX + 4 * MINUTE, 2 * MINUTE, 'sameTime');
	expect(b?.expected).toBeCloseTo(16, 9);
});

test('a past day whose end slot was not seen whole does not count', () => {
	const history = risingMornings();
	// the day before: its 06:05–06:10 slot marked incomplete
	const h = history as unknown as { first: number; flags: number[] };
	h.flags[(SIX - DAY + 5 * MINUTE) / SLOT_MS - h.first] = 2;
	const b = baselineFor(history, SIX + 7.5 * MINUTE, 10 * MINUTE, 'sameTime');
	expect(b).toMatchObject({ expected: 65, samples: 3 });
});
