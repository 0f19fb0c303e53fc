/**
 * The watermark and the ids behind it (trigger/poll/watermark.ts): which mentions are new, how far
 * the watermark moves, where a scan starts, how much of the late window is read again, and what is
 * forgotten (raising the floor). Pure: the clock is a parameter.
 */
import { BOUNDS } from '../../../../nodes/SentiOne/shared/bounds';
import { newState } from '../../../../nodes/SentiOne/trigger/poll/pollState';
import {
	MAX_REMEMBERED_IDS,
	MAX_REREAD,
	admit,
	boundaryIds,
	prune,
	rereadAllowance,
	scanFrom,
	wasSeen,
} from '../../../../nodes/SentiOne/trigger/poll/watermark';
import { MINUTE } from '../../../support/time';

const MIN = MINUTE;
/** a plausible instant (the state refuses dates outside 1990–2100) and the clock of these tests */
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const NOW = T0 + 60 * MIN;

describe('admit: which mentions are new, and the watermark', () => {
	test('admits each id once and moves the watermark to the newest collectedAt', () => {
		const state = newState(1, null);
		expect(
			admit(
				state,
				[
					{ id: 'a', collectedAt: T0 + 10 },
					{ id: 'b', collectedAt: T0 + 20 },
					{ id: 'a', collectedAt: T0 + 10 },
				],
				NOW,
			),
		).toEqual([0, 1]);
		expect(state.watermark).toBe(T0 + 20);
		expect(
			admit(
				state,
				[
					{ id: 'b', collectedAt: T0 + 20 },
					{ id: 'c', collectedAt: T0 + 20 },
				],
				NOW,
			),
		).toEqual([1]);
		expect(boundaryIds(state).sort()).toEqual(['b', 'c']);
	});

	test('a collectedAt far ahead of the clock moves the watermark only to the clock plus the allowance', () => {
		const state = newState(1, T0);
		expect(admit(state, [{ id: 'future', collectedAt: NOW + 365 * 24 * 60 * MIN }], NOW)).toEqual([
			0,
		]);
		expect(state.watermark).toBe(NOW + BOUNDS.futureAllowanceMs);
		// the mention is remembered, so it is never passed on twice
		expect(admit(state, [{ id: 'future', collectedAt: NOW + 365 * 24 * 60 * MIN }], NOW)).toEqual(
			[],
		);
		// remembered at its real collectedAt, so it stays remembered until the watermark passes it
		expect(state.seen).toEqual([['future', NOW + 365 * 24 * 60 * MIN]]);
	});

	test('a late mention (older than the watermark) is admitted but never moves the watermark back', () => {
		const state = newState(1, T0 + 50);
		expect(admit(state, [{ id: 'late', collectedAt: T0 + 10 }], NOW)).toEqual([0]);
		expect(state.watermark).toBe(T0 + 50);
		expect(wasSeen(state, 'late')).toBe(true);
		expect(wasSeen(state, 'other')).toBe(false);
	});

	test('an unfinished newest-first round holds the watermark; the round records the newest as its top', () => {
		const state = newState(1, T0);
		state.round = { body: '{}', key: 'k', cursor: 'c' };
		admit(state, [{ id: 'x', collectedAt: T0 + 500 }], NOW, true);
		expect(state.watermark).toBe(T0);
		expect(state.round.top).toBe(T0 + 500);
		admit(state, [{ id: 'y', collectedAt: T0 + 200 }], NOW, true);
		expect(state.round.top).toBe(T0 + 500);
		expect(state.watermark).toBe(T0);
	});

	test('a long id is remembered by its hash, so memory stays small', () => {
		const state = newState(1, null);
		const long = 'x'.repeat(100_000);
		expect(admit(state, [{ id: long, collectedAt: T0 }], NOW)).toEqual([0]);
		expect(state.seen[0][0]).toMatch(/^sha256:[0-9a-f]{64}$/);
		expect(admit(state, [{ id: long, collectedAt: T0 }], NOW)).toEqual([]);
		expect(wasSeen(state, long)).toBe(true);
	});
});

describe('prune: what is forgotten, and the floor', () => {
	test('a full memory forgets the oldest ids and raises the floor past them: a forgotten id can never come back', () => {
		const state = newState(1, null);
		admit(
			state,
			Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, collectedAt: T0 + 1000 + i })),
			NOW,
		);
		prune(state, 10 * MIN, 4);
		expect(state.seen.map(([id]) => id)).toEqual(['m6', 'm7', 'm8', 'm9']);
		expect(state.floor).toBe(T0 + 1005);
		expect(scanFrom(state, 10 * MIN)).toBe(T0 + 1006);
	});

	test('ids behind the late window are forgotten without moving the floor', () => {
		const state = newState(1, null);
		admit(
			state,
			[
				{ id: 'old', collectedAt: T0 },
				{ id: 'new', collectedAt: T0 + 20 * MIN },
			],
			NOW,
		);
		prune(state, 10 * MIN);
		expect(state.seen).toEqual([['new', T0 + 20 * MIN]]);
		expect(state.floor).toBeNull();
	});

	test('with no watermark yet only the count is bounded (the newest kept)', () => {
		const state = newState(1, null);
		state.seen = [
			['a', T0],
			['b', T0 + 1],
			['c', T0 + 2],
		];
		prune(state, 0, 2);
		expect(state.seen).toEqual([
			['b', T0 + 1],
			['c', T0 + 2],
		]);
		expect(state.floor).toBeNull();
	});

	test('capOnly (a loaded state) keeps ids behind the late window, bounding only their number', () => {
		const state = newState(1, T0 + 60 * MIN);
		state.seen = [
			['old', T0],
			['new', T0 + 60 * MIN],
		];
		prune(state, 0, MAX_REMEMBERED_IDS, true);
		expect(state.seen.map(([id]) => id)).toEqual(['old', 'new']);
		prune(state, 0);
		expect(state.seen.map(([id]) => id)).toEqual(['new']);
	});

	test('during a newest-first round the middle of the backlog is forgotten first, keeping both ends', () => {
		const state = newState(1, T0);
		state.round = { body: '{}', key: 'k', cursor: 'c', top: T0 + 60 * MIN };
		state.seen = [
			['at-watermark', T0],
			['middle-1', T0 + 10 * MIN],
			['middle-2', T0 + 20 * MIN],
			['near-top', T0 + 55 * MIN],
			['top', T0 + 60 * MIN],
		];
		prune(state, 10 * MIN, 3, true);
		expect(state.seen.map(([id]) => id)).toEqual(['at-watermark', 'near-top', 'top']);
		// nothing below the watermark was forgotten, so the floor stays
		expect(state.floor).toBeNull();
	});
});

describe('scanFrom and rereadAllowance: where a scan starts', () => {
	test('the late window is read again, but never more than 24 mentions already passed on (one request when nothing is new)', () => {
		const state = newState(1, null);
		admit(
			state,
			Array.from({ length: 60 }, (_, i) => ({ id: `m${i}`, collectedAt: T0 + i * 1000 })),
			NOW,
		);
		const from = scanFrom(state, 10 * MIN) as number;
		expect(state.seen.filter(([, at]) => at >= from)).toHaveLength(MAX_REREAD);
		// a group sharing the watermark instant is always read whole
		const group = newState(1, null);
		admit(
			group,
			Array.from({ length: 40 }, (_, i) => ({ id: `g${i}`, collectedAt: T0 + 5000 })),
			NOW,
		);
		expect(scanFrom(group, 10 * MIN)).toBe(T0 + 5000);
	});

	test('the re-read fits the pages a check needs anyway: none when the last check filled its page, the whole window while mentions arrive late', () => {
		const state = newState(1, T0);
		expect(rereadAllowance(state, NOW)).toBe(MAX_REREAD);
		state.lastNew = 15;
		expect(rereadAllowance(state, NOW)).toBe(9);
		state.lastNew = 25;
		expect(rereadAllowance(state, NOW)).toBe(0);
		state.lastNew = 40;
		expect(rereadAllowance(state, NOW)).toBe(9);
		state.lateAt = NOW - 60 * MIN;
		expect(rereadAllowance(state, NOW)).toBe(MAX_REREAD);
		state.lateAt = NOW - 25 * 60 * MIN;
		expect(rereadAllowance(state, NOW)).toBe(9);
	});

	test('no watermark: no lower bound, or just above the floor; never at or below the floor', () => {
		expect(scanFrom(newState(1, null), 10 * MIN)).toBeUndefined();
		expect(scanFrom(newState(1, null, T0), 10 * MIN)).toBe(T0 + 1);
		// the late window would reach below the floor: the floor wins
		expect(scanFrom(newState(1, T0 + MIN, T0), 10 * MIN)).toBe(T0 + 1);
		expect(scanFrom(newState(1, T0 + 20 * MIN, T0), 10 * MIN)).toBe(T0 + 10 * MIN);
	});

	test('a re-read of 0 still starts at the watermark instant (the boundary ids are read again)', () => {
		const state = newState(1, null);
		admit(
			state,
			[
				{ id: 'a', collectedAt: T0 },
				{ id: 'b', collectedAt: T0 + 1000 },
			],
			NOW,
		);
		expect(scanFrom(state, 10 * MIN, 0)).toBe(T0 + 1000);
		expect(scanFrom(state, 10 * MIN, 1)).toBe(T0 + 1);
	});
});
