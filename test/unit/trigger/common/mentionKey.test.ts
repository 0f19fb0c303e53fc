/**
 * How both triggers know a mention (trigger/common/mentionKey.ts): its id (text or a finite number,
 * not empty, not absurdly long) and its collectedAt (a plausible instant with a zone).
 */
import { idAndCollectedAt } from '../../../../nodes/SentiOne/trigger/common/mentionKey';

const AT = '2026-11-21T10:30:00.000Z';

test('a text id, or a number as its digits, with the collectedAt as epoch ms', () => {
	expect(idAndCollectedAt({ id: 'm1', collectedAt: AT })).toEqual({
		id: 'm1',
		collectedAt: Date.parse(AT),
	});
	expect(idAndCollectedAt({ id: 42, collectedAt: '2026-11-21T11:30:00+01:00' })).toEqual({
		id: '42',
		collectedAt: Date.parse(AT),
	});
});

test('no usable id: missing, empty, not text or a finite number, or longer than 1,024 characters', () => {
	for (const id of [undefined, null, '', NaN, Infinity, { id: 1 }, ['m1'], true, 'x'.repeat(1025)])
		expect(idAndCollectedAt({ id, collectedAt: AT } as never).id).toBeUndefined();
	expect(idAndCollectedAt({ id: 'x'.repeat(1024) }).id).toHaveLength(1024);
});

test('no usable collectedAt: missing, not a date, without a zone, or outside 1990–2100', () => {
	for (const collectedAt of [
		undefined,
		'yesterday',
		'2026-11-21T10:30:00',
		'1970-01-01T00:00:00Z',
		1_700_000_000_000,
	])
		expect(idAndCollectedAt({ id: 'm1', collectedAt } as never)).toEqual({
			id: 'm1',
			collectedAt: undefined,
		});
});
