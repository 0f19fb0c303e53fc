/**
 * The poll trigger's saved state (trigger/poll/pollState.ts): it survives n8n's JSON round trip,
 * belongs to one project, and is read like input — every field checked, what is readable kept, the
 * rest repaired conservatively and each repair listed in words. Notices are queued each kind once.
 */
import type { IDataObject } from 'n8n-workflow';

import { BOUNDS } from '../../../../nodes/SentiOne/shared/bounds';
import {
	STATE_KEY,
	addNotice,
	loadState,
	newState,
	saveState,
	waitingSeed,
} from '../../../../nodes/SentiOne/trigger/poll/pollState';
import { admit } from '../../../../nodes/SentiOne/trigger/poll/watermark';
import { HOUR, MINUTE } from '../../../support/time';

const MIN = MINUTE;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const NOW = T0 + 60 * MIN;

/** static data holding `raw` as the saved state */
const saved = (raw: unknown): IDataObject => ({ [STATE_KEY]: raw as IDataObject });

/** a state as this version saves it, with `extra` over it */
const good = (extra: IDataObject = {}): IDataObject => ({
	v: 2,
	projectId: 7,
	watermark: T0 + 30 * MIN,
	seen: [
		['a', T0 + 25 * MIN],
		['b', T0 + 30 * MIN],
	],
	floor: null,
	...extra,
});

describe('saving and loading', () => {
	test('state survives a JSON round trip and is ignored for another project', () => {
		const data: IDataObject = {};
		const state = newState(7, T0 + 123, T0 + 100);
		admit(state, [{ id: 'x', collectedAt: T0 + 123 }], NOW);
		state.round = { body: '{}', key: 'k', cursor: 'c' };
		saveState(data, state);
		const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
		expect(loadState(copy, 7, NOW)).toEqual({ state, repairs: [] });
		expect(loadState(copy, 8, NOW)).toEqual({ repairs: [] });
	});

	test('nothing saved: no state and nothing to repair (a first activation)', () => {
		expect(loadState({}, 7, NOW)).toEqual({ repairs: [] });
	});

	test('saving writes a copy: changing the state afterwards does not change what n8n keeps', () => {
		const data: IDataObject = {};
		const state = newState(7, T0);
		saveState(data, state);
		state.watermark = T0 + 1;
		state.seen.push(['late', T0]);
		expect(data[STATE_KEY]).toEqual({ v: 2, projectId: 7, watermark: T0, seen: [], floor: null });
	});

	test('a state of the previous version (v 1) is read as it is, without a repair', () => {
		const loaded = loadState(saved(good({ v: 1 })), 7, NOW);
		expect(loaded.repairs).toEqual([]);
		expect(loaded.state).toMatchObject({ v: 2, projectId: 7, watermark: T0 + 30 * MIN });
		expect(loaded.state?.seen).toEqual([
			['a', T0 + 25 * MIN],
			['b', T0 + 30 * MIN],
		]);
	});

	test('every optional field that is readable and plausible is kept', () => {
		const raw = good({
			round: { body: '{"filters":{}}', key: 'k', cursor: 'next', top: T0 + 40 * MIN },
			budget: { limit: 30, remaining: 0, resetAt: NOW + 20 * MIN, reported: NOW + 20 * MIN },
			mode: 'descending',
			lastNew: 3,
			tail: 2,
			lateAt: T0,
			unsent: ['language', 'language', 'bogus'],
			spent: { hour: NOW, count: 4 },
			checkedAt: NOW - MIN,
			lastCost: 2,
			behindChecks: 3,
			told: ['collectedAt'],
			pending: ['a notice'],
		});
		const { state, repairs } = loadState(saved(raw), 7, NOW);
		expect(repairs).toEqual([]);
		expect(state).toEqual({
			v: 2,
			projectId: 7,
			watermark: T0 + 30 * MIN,
			seen: [
				['a', T0 + 25 * MIN],
				['b', T0 + 30 * MIN],
			],
			floor: null,
			round: { body: '{"filters":{}}', key: 'k', cursor: 'next', top: T0 + 40 * MIN },
			budget: { limit: 30, remaining: 0, resetAt: NOW + 20 * MIN, reported: NOW + 20 * MIN },
			mode: 'descending',
			lastNew: 3,
			tail: 2,
			lateAt: T0,
			unsent: ['language'],
			spent: { hour: NOW, count: 4 },
			checkedAt: NOW - MIN,
			lastCost: 2,
			behindChecks: 3,
			told: ['collectedAt'],
			pending: ['a notice'],
		});
	});
});

describe('a corrupt state is repaired, and each repair said', () => {
	test('not an object: no state, and the repair says where the trigger had got to is unknown', () => {
		for (const raw of ['garbage', 42, null, [1, 2]]) {
			expect(loadState(saved(raw), 7, NOW)).toEqual({
				repairs: ['the saved state is not an object, so where the trigger had got to is unknown'],
			});
		}
	});

	test('an unreadable project is taken as this one; an unknown version is said', () => {
		const { state, repairs } = loadState(saved(good({ projectId: 'seven', v: 99 })), 7, NOW);
		expect(state?.projectId).toBe(7);
		expect(repairs).toEqual([
			'the project of the saved state was unreadable; it was taken as this project',
			'the state version (99) was unknown',
		]);
	});

	test('unreadable remembered ids are dropped and counted; ids without a readable time are kept at the watermark', () => {
		const { state, repairs } = loadState(
			saved(good({ seen: [['a', T0 + 25 * MIN], ['', T0], 'x', ['b', 'noon'], ['c', -5]] })),
			7,
			NOW,
		);
		expect(state?.seen).toEqual([
			['a', T0 + 25 * MIN],
			['b', T0 + 30 * MIN],
			['c', T0 + 30 * MIN],
		]);
		expect(repairs).toEqual([
			'2 remembered ids were unreadable and dropped',
			'2 remembered ids had an unreadable time and are kept at the watermark',
		]);
	});

	test('a watermark ahead of the clock is moved back to the clock plus the allowance', () => {
		const ahead = NOW + 365 * 24 * HOUR;
		const { state, repairs } = loadState(saved(good({ watermark: ahead })), 7, NOW);
		expect(state?.watermark).toBe(NOW + BOUNDS.futureAllowanceMs);
		expect(repairs).toEqual([
			`the watermark (${new Date(ahead).toISOString()}) was ahead of the clock; it was moved back to ${new Date(NOW + BOUNDS.futureAllowanceMs).toISOString()}`,
		]);
	});

	test('an unreadable watermark is taken from the newest id remembered', () => {
		const { state, repairs } = loadState(saved(good({ watermark: 'soon' })), 7, NOW);
		expect(state?.watermark).toBe(T0 + 30 * MIN);
		expect(repairs).toEqual([
			`the watermark was unreadable; it was taken from the newest mention remembered (${new Date(T0 + 30 * MIN).toISOString()})`,
		]);
	});

	test('an unreadable watermark with nothing else to go by: no state, and the repair says so', () => {
		const loaded = loadState(saved(good({ watermark: 'soon', seen: [] })), 7, NOW);
		expect(loaded.state).toBeUndefined();
		expect(loaded.repairs).toEqual([
			'the watermark ("soon") was unreadable and nothing else tells where the trigger had got to',
		]);
	});

	test('a floor above the watermark is lowered to it; an unreadable floor rises to the oldest id remembered', () => {
		const above = loadState(saved(good({ floor: T0 + 50 * MIN })), 7, NOW);
		expect(above.state?.floor).toBe(T0 + 30 * MIN);
		expect(above.repairs).toEqual([
			`the floor (${new Date(T0 + 50 * MIN).toISOString()}) was ahead of the watermark; it was lowered to it`,
		]);
		const unreadable = loadState(saved(good({ floor: 'low' })), 7, NOW);
		expect(unreadable.state?.floor).toBe(T0 + 25 * MIN);
		expect(unreadable.repairs).toEqual([
			'the floor (below which ids may have been forgotten) was unreadable; it was raised to the oldest id remembered',
		]);
	});

	test('an unreadable id list raises the floor to the watermark, so nothing passed on can come back', () => {
		const { state, repairs } = loadState(saved(good({ seen: 'lost' })), 7, NOW);
		expect(state?.seen).toEqual([]);
		expect(state?.floor).toBe(T0 + 30 * MIN);
		expect(repairs).toEqual(['the list of mentions already passed on was unreadable']);
	});

	test('a bad backlog round is dropped (the next check starts again from the watermark)', () => {
		const bad = [
			'x',
			{ body: 'not json', key: 'k', cursor: 'c' },
			{ body: '{}', key: 'k', cursor: '' },
			{ body: '{}', key: 'k', cursor: 'c'.repeat(BOUNDS.maxCursorChars + 1) },
			{ body: '{"filters":[]}', key: 'k', cursor: 'c' },
			{ body: '{}', key: 'k', cursor: 'c', top: 'later' },
		];
		for (const round of bad) {
			const { state, repairs } = loadState(saved(good({ round })), 7, NOW);
			expect(state?.round).toBeUndefined();
			expect(repairs).toEqual([
				'the unfinished backlog round was unreadable; the next check starts again from the watermark',
			]);
		}
	});

	test('an unreadable mode is said and the collectedAt filter used again', () => {
		const { state, repairs } = loadState(saved(good({ mode: 'sideways' })), 7, NOW);
		expect(state?.mode).toBeUndefined();
		expect(repairs).toEqual([
			'how the trigger finds new mentions was unreadable; it uses the collectedAt filter again (and checks it)',
		]);
	});

	test('the budget is re-checked against the clock: an implausible reset drops it and the count it dates', () => {
		const { state } = loadState(
			saved(good({ budget: { limit: 30, remaining: 0, resetAt: NOW + 5 * HOUR, reported: 1 } })),
			7,
			NOW,
		);
		expect(state?.budget).toEqual({ limit: 30 });
		const none = loadState(saved(good({ budget: { limit: -1, remaining: 'x' } })), 7, NOW);
		expect(none.state?.budget).toBeUndefined();
	});

	test('bookkeeping that would silence the trigger is dropped: a check time ahead of the clock, a cost beyond 100', () => {
		const { state, repairs } = loadState(
			saved(
				good({
					checkedAt: NOW + MIN,
					lastCost: 1e9,
					spent: { hour: NOW, count: 1e9 },
					behindChecks: 0,
					lateAt: NOW + HOUR,
					lastNew: -1,
				}),
			),
			7,
			NOW,
		);
		expect(repairs).toEqual([]);
		for (const field of ['checkedAt', 'lastCost', 'spent', 'behindChecks', 'lateAt', 'lastNew'])
			expect(state).not.toHaveProperty(field);
	});

	test('notices kept in the state are bounded: only short texts, the last 10 pending and 50 kinds told', () => {
		const { state } = loadState(
			saved(
				good({
					pending: [...Array.from({ length: 12 }, (_, i) => `n${i}`), 'x'.repeat(1001), 7],
					told: Array.from({ length: 60 }, (_, i) => `k${i}`),
				}),
			),
			7,
			NOW,
		);
		expect(state?.pending).toEqual(Array.from({ length: 10 }, (_, i) => `n${i + 2}`));
		expect(state?.told).toHaveLength(50);
		expect(state?.told?.[0]).toBe('k10');
	});
});

describe('what pacing, catching up and a refused first check keep', () => {
	test('the key seen, falling behind, the catch-up and the urgent flag are kept when plausible, dropped when not', () => {
		const key = { resetAt: T0 + 90 * MIN, limit: 30, remaining: 12, mine: 4, at: NOW - MIN };
		const kept = loadState(
			saved(
				good({
					key: { ...key, othersBefore: 14.5 },
					behind: NOW - 2 * MIN,
					catchUp: { at: NOW - 5 * MIN, waitUntil: NOW + 10 * MIN, off: 1 },
					urgent: true,
				}),
			),
			7,
			NOW,
		);
		expect(kept.repairs).toEqual([]);
		expect(kept.state).toMatchObject({
			key: { ...key, othersBefore: 14.5 },
			behind: NOW - 2 * MIN,
			catchUp: { at: NOW - 5 * MIN, waitUntil: NOW + 10 * MIN, off: 1 },
			urgent: true,
		});
		const poisoned = loadState(
			saved(
				good({
					key: { ...key, at: NOW + HOUR, othersBefore: 1e9 },
					behind: 'yesterday',
					catchUp: { at: NOW + 365 * 24 * HOUR, waitUntil: 1e15, off: 'yes' },
					urgent: 'very',
				}),
			),
			7,
			NOW,
		).state;
		// a time ahead of the clock could silence the trigger or hold the catch-up back: dropped
		expect(poisoned?.key).toBeUndefined();
		expect(poisoned?.behind).toBeUndefined();
		expect(poisoned?.catchUp).toBeUndefined();
		expect(poisoned?.urgent).toBeUndefined();
		expect(
			loadState(saved(good({ key: { ...key, remaining: 1e9, mine: -1 } })), 7, NOW).state?.key,
		).toBeUndefined();
	});

	test('a first check refused by a 429 keeps its reset and its repairs, for this project only', () => {
		const staticData: IDataObject = {};
		waitingSeed(staticData, 7, { resetAt: NOW + 20 * MIN, limit: 30 }, ['the state was lost']);
		expect(loadState(staticData, 7, NOW)).toEqual({
			repairs: ['the state was lost'],
			seedWait: { resetAt: NOW + 20 * MIN, limit: 30 },
		});
		expect(loadState(staticData, 8, NOW)).toEqual({ repairs: [] });
		// an implausible reset is not waited for: the first check runs again
		waitingSeed(staticData, 7, { resetAt: NOW + 500 * 24 * HOUR }, []);
		expect(loadState(staticData, 7, NOW)).toEqual({ repairs: [] });
	});
});

describe('notices', () => {
	test('each kind is queued once in the state’s life; repairs (kind "") every time', () => {
		const state = newState(1, T0);
		addNotice(state, 'collectedAt', 'first');
		addNotice(state, 'collectedAt', 'again');
		addNotice(state, '', 'repair 1');
		addNotice(state, '', 'repair 2');
		expect(state.pending).toEqual(['first', 'repair 1', 'repair 2']);
		expect(state.told).toEqual(['collectedAt']);
		// reported and cleared, the kind is still told: not queued again
		delete state.pending;
		addNotice(state, 'collectedAt', 'a third time');
		expect(state.pending).toBeUndefined();
	});

	test('at most 10 notices wait, each at most 1,000 characters', () => {
		const state = newState(1, T0);
		for (let i = 0; i < 12; i++) addNotice(state, '', `${i}`);
		addNotice(state, '', 'y'.repeat(5000));
		expect(state.pending).toHaveLength(10);
		expect(state.pending?.[0]).toBe('3');
		expect(state.pending?.[9]).toHaveLength(1000);
	});
});
