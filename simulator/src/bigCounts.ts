// The variant `bigCounts=on`: the spec types the engagement and influence counts int64, so a server
// may write counts above 2^53, which a JavaScript number cannot hold. About one mention in eight
// (chosen by its id, so the same ones everywhere) then has every non-null count of
// `engagementMetrics.sourceMetrics.common` (likeCount, shareCount, commentCount, viewCount) and
// `author.influenceMetrics` (followerCount, fanCount) written as 2^53 + 1 + 2v, where v is the
// count the store holds: an odd integer in [2^53, 2^54), so no double equals it. The JSON text is
// written here, digit by digit; the admin ground truth shows the same values as strings.

import { deriveSeed } from './prng.ts';
import type { EngagementMetrics, Mention } from './types.ts';

const TWO_53 = 2n ** 53n;

const COMMON_COUNTS = ['likeCount', 'shareCount', 'commentCount', 'viewCount'] as const;
const INFLUENCE_COUNTS = ['followerCount', 'fanCount'] as const;
const COUNT_KEYS = new Set<string>([...COMMON_COUNTS, ...INFLUENCE_COUNTS]);

/** Whether the variant writes this mention's counts above 2^53 (about one mention in eight). */
export function isBigMention(id: string): boolean {
	return (deriveSeed(53, id) & 7) === 0;
}

/** The exact count the variant writes for a count v of the store: 2^53 + 1 + 2v. */
export function bigCountText(v: number): string {
	return (TWO_53 + 1n + 2n * BigInt(Math.trunc(v))).toString();
}

/** The sort key of such a count: 2^53 + 2v (a double; same order, above every ordinary count). */
export function bigSortKey(v: number): number {
	return 2 ** 53 + 2 * v;
}

const MARK = '\u0001big:';
const MARKED = /"\\u0001big:(\d+)"/g;

/** JSON.stringify, with the count keys of the given holder objects written as big integers. */
function stringifyBig(value: unknown, holders: ReadonlySet<unknown>): string {
	const text = JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
		if (typeof v === 'number' && COUNT_KEYS.has(key) && holders.has(this)) {
			return MARK + bigCountText(v);
		}
		return v;
	});
	return text.replace(MARKED, '$1');
}

/** A mention as the variant writes it (for a big mention). */
export function bigMentionJson(m: Mention): string {
	return stringifyBig(
		m,
		new Set([m.engagementMetrics?.sourceMetrics?.common, m.author?.influenceMetrics]),
	);
}

/** An engagement update (D-28) of a big mention as the variant writes it. */
export function bigUpdateJson(u: { engagementMetrics: EngagementMetrics }): string {
	return stringifyBig(u, new Set([u.engagementMetrics?.sourceMetrics?.common]));
}

/** Admin ground truth: every count the variant writes above 2^53, by its path, as a string. */
export function exactCounts(m: Mention): Record<string, string> {
	const out: Record<string, string> = {};
	const common = m.engagementMetrics?.sourceMetrics?.common;
	for (const k of COMMON_COUNTS) {
		const v = common?.[k];
		if (typeof v === 'number') out[`engagementMetrics.sourceMetrics.common.${k}`] = bigCountText(v);
	}
	const infl = m.author?.influenceMetrics;
	for (const k of INFLUENCE_COUNTS) {
		const v = infl?.[k];
		if (typeof v === 'number') out[`author.influenceMetrics.${k}`] = bigCountText(v);
	}
	return out;
}
