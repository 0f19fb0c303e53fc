#!/usr/bin/env node
/**
 * Renders the last matrix run (test/.results/matrix.json, written by matrix.test.ts) into
 * the "The variant matrix" section of docs/api-contract.md, between its two marker comments.
 * Run it by hand after the matrix suite: `npm run docs:matrix` (a test run never rewrites the
 * tracked document).
 */
'use strict';

const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const doc = join(root, 'docs', 'api-contract.md');
const START = '<!-- matrix:start -->';
const END = '<!-- matrix:end -->';

const results = JSON.parse(readFileSync(join(__dirname, '.results', 'matrix.json'), 'utf8'));
const cell = (v) => String(v ?? '—').replace(/\|/g, '\\|');
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
const lines = [
	START,
	'',
	`Last run: ${results.finishedAt} (\`npx jest test/matrix\`, then \`npm run docs:matrix\`). Every cell ran the same 8 assertions through n8n's engine against the simulator started with the cell's \`--variant\`; a cell is listed only when all of them passed.`,
	'',
	`| Cell | \`--variant\` | Varies | ${CHECKS.map(([, title]) => title).join(' | ')} |`,
	`|---|---|---|${CHECKS.map(() => '---').join('|')}|`,
	...results.cells
		.filter((c) => Object.keys(c.checks).length === CHECKS.length)
		.map(
			(c) =>
				`| ${cell(c.cell)} | \`${cell(c.variant)}\` | ${cell(c.decisions)} | ${CHECKS.map(([key]) => cell(c.checks[key])).join(' | ')} |`,
		),
	'',
	END,
];
const text = readFileSync(doc, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < 0) throw new Error(`docs/api-contract.md has no ${START} … ${END} section`);
writeFileSync(doc, `${text.slice(0, from)}${lines.join('\n')}${text.slice(to + END.length)}`);
process.stdout.write(`rendered ${results.cells.length} cells into docs/api-contract.md\n`);
