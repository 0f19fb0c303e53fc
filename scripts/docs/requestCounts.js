/**
 * The block `request-counts` of docs/request-counts.md: the search requests a Return All or a
 * Limit cost, as the pagination tests of test/engine/actions/search.test.ts measured them (part
 * `request-counts`), one table across and one down.
 */
'use strict';

const { count, measuredBy, row } = require('./parts');

function requestCounts(ctx) {
	const part = ctx.results.part('request-counts');
	if (!part) return undefined;
	const { returnAll = [], limit = [], historical = [] } = part.figures ?? {};
	const byMentions = [...returnAll].sort((a, b) => a.mentions - b.mentions);
	const byLimit = [...limit].sort((a, b) => a.limit - b.limit);
	const out = [measuredBy(part), ''];
	if (byMentions.length > 0) {
		out.push(
			'Search Recent, Return All:',
			'',
			row(['Mentions (N)', ...byMentions.map((c) => count(c.mentions))]),
			`|---|${byMentions.map(() => '---').join('|')}|`,
			row(['Search requests', ...byMentions.map((c) => c.requests)]),
			'',
		);
	}
	if (byLimit.length > 0) {
		const of = [...new Set(byLimit.map((c) => count(c.of)))].join(' or ');
		out.push(
			`Search Recent with a Limit, on a project of ${of} mentions:`,
			'',
			row(['Limit', 'Search requests']),
			'|---|---|',
			...byLimit.map((c) => row([count(c.limit), c.requests])),
			'',
		);
	}
	for (const c of historical)
		out.push(
			`Search Historical, Return All of ${count(c.mentions)} mentions over a date range: ${c.requests} search requests.`,
		);
	return out.join('\n');
}

module.exports = {
	BLOCKS: {
		'request-counts': {
			render: requestCounts,
			reads: 'part-request-counts.json',
			how: 'test/.results/part-request-counts.json is written by test/engine/actions/search.test.ts',
		},
	},
};
