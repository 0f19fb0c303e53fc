/**
 * The field conditions of issue 21 item 7 at the level of their one mechanism each: the one JSON
 * reader keeps counts above 2^53 exact (json.ts, D-51), SentiOne's clock is read from the Date of
 * its answers (clock.ts ServerClock, D-50), a gap of the node's clock becomes SentiOne's collectedAt
 * range (reconnect.ts onServerClock), and a cursor meaning "the end" ends paging (pager.ts
 * isEndCursor). The engine tier runs each against the simulator (test/engine/reliability/).
 */
import { ServerClock } from '../../../nodes/SentiOne/shared/clock';
import { exactCount, readJson } from '../../../nodes/SentiOne/shared/json';
import { isEndCursor, sameWithin } from '../../../nodes/SentiOne/shared/pager';
import { mentionRow } from '../../../nodes/SentiOne/shared/simplify';
import { BOUNDS } from '../../../nodes/SentiOne/shared/bounds';
import { onServerClock } from '../../../nodes/SentiOne/trigger/stream/reconnect';
import { MINUTE, NOW_MS, SECOND } from '../../support/time';

describe('the one JSON reader (D-51)', () => {
	test('an integer above 2^53 keeps its number and gains the exact digits beside it', () => {
		const read = readJson(
			'{"likeCount": 9007199254740993, "shareCount": 12, "nested": {"viewCount": 18014398509481985}, "list": [9007199254740995]}',
		) as Record<string, unknown>;
		expect(read.likeCount).toBe(9007199254740992);
		expect(read.likeCountExact).toBe('9007199254740993');
		expect(read.shareCount).toBe(12);
		expect(read).not.toHaveProperty('shareCountExact');
		expect(read.nested).toEqual({
			viewCount: 18014398509481984,
			viewCountExact: '18014398509481985',
		});
		// a list entry has no name to put the digits beside: left as JSON.parse reads it
		expect(read.list).toEqual([9007199254740996]);
	});

	test('ordinary JSON, long strings of digits, big decimals: read exactly as JSON.parse reads them', () => {
		for (const text of [
			'{"a": 1, "b": [1, 2], "c": null}',
			'{"id": "12345678901234567890", "n": 9007199254740991}',
			'{"x": 1.2345678901234567e30, "y": 90071992547409930.5}',
			'[1, "two", {"three": 3}]',
		])
			expect(readJson(text)).toEqual(JSON.parse(text));
		expect(() => readJson('{"likeCount": 9007199254740993')).toThrow(SyntaxError);
	});

	test('Simplify: a count above 2^53 is its exact digits; the columns stay the same', () => {
		const mention = readJson(
			JSON.stringify({
				id: 'm1',
				engagementMetrics: { sourceMetrics: { common: { likeCount: 1, shareCount: 2 } } },
				author: { influenceMetrics: { followerCount: 3 } },
			})
				.replace('"likeCount":1', '"likeCount":9007199254740993')
				.replace('"followerCount":3', '"followerCount":9007199254741001'),
		) as Record<string, unknown>;
		const row = mentionRow(mention as never, true);
		expect(row.likeCount).toBe('9007199254740993');
		expect(row.authorFollowers).toBe('9007199254741001');
		expect(row.shareCount).toBe(2);
		expect(Object.keys(row)).toEqual(Object.keys(mentionRow({ id: 'x' }, true)));
		expect(exactCount({ likeCount: 5, likeCountExact: 'not digits' }, 'likeCount')).toBe(5);
		expect(exactCount(undefined, 'likeCount')).toBeNull();
	});
});

describe("SentiOne's clock from the Date of its answers (D-50)", () => {
	const date = (ms: number) => new Date(ms).toUTCString();

	test.each([
		['15 min behind', -15 * MINUTE],
		['2 min behind', -2 * MINUTE],
		['the same', 0],
		['2 min ahead', 2 * MINUTE],
		['15 min ahead', 15 * MINUTE],
	])('SentiOne %s: the offset is read within the second the header gives', (_name, skew) => {
		const server = new ServerClock();
		expect(server.offset).toBeUndefined();
		server.observe(date(NOW_MS + skew), NOW_MS);
		if (skew === 0) expect(server.offset).toBe(0);
		else expect(Math.abs((server.offset as number) - skew)).toBeLessThanOrEqual(SECOND);
	});

	test('one odd header does not move it; absent, unreadable or implausible headers are ignored', () => {
		const server = new ServerClock();
		for (let k = 0; k < 4; k++) server.observe(date(NOW_MS + 2 * MINUTE), NOW_MS);
		server.observe(date(NOW_MS + 40 * MINUTE), NOW_MS);
		expect(Math.abs((server.offset as number) - 2 * MINUTE)).toBeLessThanOrEqual(SECOND);
		const blank = new ServerClock();
		for (const header of [undefined, 42, 'yesterday', date(NOW_MS + 3 * 60 * MINUTE)])
			blank.observe(header, NOW_MS);
		expect(blank.offset).toBeUndefined();
		// within the precision of the header: none
		blank.observe(date(NOW_MS + 2 * SECOND), NOW_MS);
		expect(blank.offset).toBe(0);
	});

	test("a gap of the node's clock moves by the offset, or widens by the bound when none is known", () => {
		const gap = { from: NOW_MS - 10 * MINUTE, to: NOW_MS - 5 * MINUTE };
		expect(onServerClock(gap, 2 * MINUTE)).toEqual({
			from: gap.from + 2 * MINUTE,
			to: gap.to + 2 * MINUTE,
		});
		expect(onServerClock(gap, 0)).toEqual(gap);
		expect(onServerClock(gap, undefined)).toEqual({
			from: gap.from - BOUNDS.maxClockSkewMs,
			to: gap.to + BOUNDS.maxClockSkewMs,
		});
	});
});

test('a cursor of null, absent, empty or only whitespace means the end; anything else does not', () => {
	for (const end of [null, undefined, '', ' ', '  ', '\t\n']) expect(isEndCursor(end)).toBe(true);
	for (const more of ['abc', ' abc ', '0', 'null']) expect(isEndCursor(more)).toBe(false);
});

describe("a search computed again on SentiOne's clock starts over only when its dates moved (D-50)", () => {
	const body = (from: string) => ({
		filters: { publishedAt: { from }, source: { type: ['X'] } },
		sortType: 'PublishedAtDescending',
	});

	test('instants a moment apart (the time it took to compute them again) are the same request', () => {
		expect(
			sameWithin(body('2026-11-24T00:13:13.530Z'), body('2026-11-24T00:13:13.549Z'), 3000),
		).toBe(true);
		expect(
			sameWithin(body('2026-11-24T00:13:13.530Z'), body('2026-11-24T00:13:16.530Z'), 3000),
		).toBe(true);
	});

	test('instants further apart than the tolerance, or any other difference, are not', () => {
		expect(
			sameWithin(body('2026-11-24T00:13:13.530Z'), body('2026-11-24T00:13:16.531Z'), 3000),
		).toBe(false);
		expect(
			sameWithin(body('2026-11-24T00:13:13Z'), { ...body('2026-11-24T00:13:13Z'), x: 1 }, 3000),
		).toBe(false);
		expect(sameWithin({ q: 'acme' }, { q: 'acme*' }, 3000)).toBe(false);
		expect(sameWithin({ q: 'not a date' }, { q: 'not a date!' }, 3000)).toBe(false);
		expect(sameWithin([1, 2], [1, 2, 3], 3000)).toBe(false);
		expect(sameWithin({ a: null }, { a: {} }, 3000)).toBe(false);
	});
});
