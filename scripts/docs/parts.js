/**
 * What the test runs left in test/.results/ (ignored by git) and how one part is shown. A part is
 * the file test/support/results.ts writePart wrote (part-<name>.json: rows, figures, the command
 * that measures it); the other files are written by their own tiers (matrix.json, queue-mode-*.json,
 * restart.json, secrets*.json).
 */
'use strict';

const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const RESULTS_DIR = join(__dirname, '..', '..', 'test', '.results');

/** The figures of the last runs, read once. */
class Results {
	constructor(dir = RESULTS_DIR) {
		this.dir = dir;
		this.files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
		this.cache = new Map();
	}

	/** A results file parsed, or undefined when it is absent or unreadable. */
	json(file) {
		if (!this.cache.has(file)) {
			let value;
			try {
				value = this.files.includes(file)
					? JSON.parse(readFileSync(join(this.dir, file), 'utf8'))
					: undefined;
			} catch {
				value = undefined;
			}
			this.cache.set(file, value);
		}
		return this.cache.get(file);
	}

	has(file) {
		return this.json(file) !== undefined;
	}

	/** The part writePart wrote under that name, or undefined. */
	part(name) {
		return this.json(partFile(name));
	}

	/** The names of every part present. */
	partNames() {
		return this.files
			.map((file) => /^part-(.+)\.json$/.exec(file)?.[1])
			.filter((name) => name !== undefined);
	}
}

const partFile = (name) => `part-${name}.json`;

/** A table cell: '—' for nothing, pipes escaped, one line, no HTML. */
const cell = (value) =>
	value === undefined || value === null || value === ''
		? '—'
		: String(value)
				.replace(/\|/g, '\\|')
				.replace(/\n/g, ' ')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;');

const row = (values) => `| ${values.map(cell).join(' | ')} |`;

/** An ISO instant as `2026-11-24 02:50 UTC`. */
const when = (iso) =>
	typeof iso === 'string' && iso.length >= 16
		? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
		: 'an unknown date';

/** A count with thousands separators (1,000). */
const count = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const sum = (rows, key) => {
	const values = rows.map((r) => r[key]).filter((v) => typeof v === 'number');
	return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
};

/** The line each generated part block starts with: how to measure it again, and when it was. */
const measuredBy = (part) => `Measured by \`${part.command}\`, last run ${when(part.finishedAt)}.`;

const RESULT_COLUMNS = [
	'Fault',
	'Through',
	'Cases tried',
	'Items',
	'Lost',
	'Duplicated',
	'Outcome',
];

/** A part's rows as a table. */
function rowsTable(rows) {
	return [
		row(RESULT_COLUMNS),
		`|${RESULT_COLUMNS.map(() => '---').join('|')}|`,
		...rows.map((r) =>
			row([r.fault, r.through, r.cases, r.items, r.lost, r.duplicated, r.outcome]),
		),
	].join('\n');
}

/**
 * The block of a part, as every part without a renderer of its own is shown: the command and the
 * date, the rows, the sentences with figures the test wrote (`notes`), and the raw figures.
 */
function renderPart(part) {
	if (!part) return undefined;
	const out = [measuredBy(part), ''];
	if ((part.rows ?? []).length > 0) out.push(rowsTable(part.rows), '');
	for (const note of part.notes ?? []) out.push(`- ${note}`);
	if ((part.notes ?? []).length > 0) out.push('');
	if (part.figures && Object.keys(part.figures).length > 0) {
		out.push(
			'<details><summary>Raw figures</summary>',
			'',
			'```json',
			JSON.stringify(part.figures, null, 2),
			'```',
			'',
			'</details>',
		);
	}
	return out.join('\n');
}

module.exports = {
	RESULTS_DIR,
	Results,
	cell,
	count,
	measuredBy,
	partFile,
	renderPart,
	row,
	rowsTable,
	sum,
	when,
};
