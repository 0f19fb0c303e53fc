/**
 * The block `matrix` of docs/api-contract.md ("The variant matrix"): the last matrix run
 * (test/.results/matrix.json, written by test/engine/matrix/matrix.test.ts), one row per cell.
 */
'use strict';

const { row, when } = require('./parts');

const CHECKS = [
	['search', 'Searches'],
	['export', 'Export'],
	['anonymization', 'Anonymization'],
	['pollIdle', 'Poll: idle, new'],
	['pollBackfill', 'Poll: 24 h backfill'],
	['stream', 'Stream trigger'],
	['routes', 'Announced routes'],
	['rateLimit', 'Budget wait'],
];

function matrix(ctx) {
	const results = ctx.results.json('matrix.json');
	if (!results) return undefined;
	const passed = (c) => CHECKS.every(([key]) => c.checks?.[key] !== undefined);
	const failed = results.cells.filter((c) => !passed(c));
	return [
		`Measured by \`npx jest test/engine/matrix\`, last run ${when(results.finishedAt)}: ${results.cells.length - failed.length} of ${results.cells.length} cells passed all ${CHECKS.length} checks${failed.length > 0 ? `; not listed: ${failed.map((c) => c.cell).join(', ')}` : ''}.`,
		'',
		row(['Cell', '`--variant`', 'Varies', ...CHECKS.map(([, title]) => title)]),
		`|---|---|---|${CHECKS.map(() => '---').join('|')}|`,
		...results.cells
			.filter(passed)
			.map((c) =>
				row([c.cell, `\`${c.variant}\``, c.decisions, ...CHECKS.map(([key]) => c.checks[key])]),
			),
	].join('\n');
}

module.exports = { BLOCKS: { matrix: { render: matrix, reads: 'matrix.json' } } };
