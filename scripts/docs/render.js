#!/usr/bin/env node
/**
 * Renders the figures of the last test runs into the documents. One way for every generated
 * figure: a document is markdown written by hand; its figures sit between marker lines
 *
 *   <!-- figures:<name>:start -->
 *   <!-- figures:<name>:end -->
 *
 * and this command replaces what lies between them, nothing else (scripts/docs/markers.js). A test
 * run only writes test/.results/ (ignored by git); this command, and nothing else, rewrites the
 * tracked documents:
 *
 *   npm run docs                    every document whose figures are present
 *   npm run docs:reliability        one of them (also docs:triggers, docs:request-counts,
 *                                   docs:matrix, docs:queue-mode)
 *
 * A block's name says where its figures come from:
 * - a part: test/.results/part-<name>.json, written by writePart (test/support/results.ts), shown
 *   as scripts/docs/parts.js renderPart shows any part (command, rows, figures). **A new part is
 *   its writePart call plus the two marker lines above, with its name, under a heading written by
 *   hand in the document it belongs to** — nothing to add here;
 * - a block a document's module lists in BLOCKS (reliability.js, requestCounts.js, matrix.js,
 *   queueMode.js): a summary, a table drawn from several parts, another results file.
 * A block whose figures are missing gets the line "Not measured in the last run", never the
 * numbers of an older run. A document none of whose figures are present is left as it is. Figures
 * the documents quote from the code (bounds, defaults) are read from the constants themselves
 * (scripts/docs/fromCode.js), never copied by hand.
 */
'use strict';

const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const { blockNames, fillBlocks } = require('./markers');
const { Results, partFile, renderPart } = require('./parts');

const ROOT = join(__dirname, '..', '..');

/** Every generated document: its file and the blocks it renders beyond parts. */
const DOCUMENTS = {
	reliability: { file: 'docs/reliability.md', blocks: require('./reliability').BLOCKS },
	triggers: { file: 'docs/triggers.md', blocks: {} },
	'request-counts': { file: 'docs/request-counts.md', blocks: require('./requestCounts').BLOCKS },
	matrix: { file: 'docs/api-contract.md', blocks: require('./matrix').BLOCKS },
	'queue-mode': { file: 'docs/queue-mode.md', blocks: require('./queueMode').BLOCKS },
};

/** Whether a block of its own reads that results file. */
const reads = (block, file) =>
	typeof block.reads === 'function' ? block.reads(file) : block.reads === file;

/**
 * The document rendered from `results`: `{ text, changed, rendered, measured, notMeasured }`;
 * `rendered` is false when none of its figures are present (the text is then the file's own).
 */
function renderDocument(name, results, root = ROOT) {
	const doc = DOCUMENTS[name];
	const path = join(root, doc.file);
	const before = readFileSync(path, 'utf8');
	const names = blockNames(before, doc.file);
	const own = doc.blocks;
	const present = results.files.some(
		(file) =>
			names.some((n) => !(n in own) && file === partFile(n)) ||
			Object.values(own).some((block) => reads(block, file)),
	);
	if (!present)
		return { text: before, changed: false, rendered: false, measured: [], notMeasured: names };
	const ctx = { results, names, doc };
	const filled = fillBlocks(
		before,
		(block) => (block in own ? own[block].render(ctx) : renderPart(results.part(block))),
		{
			doc: doc.file,
			required: Object.keys(own),
			how: (block) =>
				own[block]?.how ??
				(block in own
					? undefined
					: `no test/.results/${partFile(block)}: run the test that writes it, then \`npm run docs\``),
		},
	);
	if (filled.missing.length > 0)
		throw new Error(
			`${doc.file} lacks the blocks ${filled.missing.map((b) => `<!-- figures:${b}:start -->`).join(', ')} (with their end markers)`,
		);
	return {
		text: filled.text,
		changed: filled.text !== before,
		rendered: true,
		measured: filled.measured,
		notMeasured: filled.notMeasured,
	};
}

/** Parts present in the results that no document has a block for. */
function partsWithoutBlock(results, root = ROOT) {
	const all = new Set(
		Object.values(DOCUMENTS).flatMap((doc) =>
			blockNames(readFileSync(join(root, doc.file), 'utf8'), doc.file),
		),
	);
	return results.partNames().filter((name) => !all.has(name));
}

function main(args) {
	const unknown = args.filter((a) => !(a in DOCUMENTS));
	if (unknown.length > 0) {
		process.stderr.write(
			`unknown document(s) ${unknown.join(', ')}; known: ${Object.keys(DOCUMENTS).join(', ')}\n`,
		);
		return 2;
	}
	const results = new Results();
	const names = args.length > 0 ? args : Object.keys(DOCUMENTS);
	let rendered = 0;
	for (const name of names) {
		const { file } = DOCUMENTS[name];
		const out = renderDocument(name, results);
		if (!out.rendered) {
			process.stdout.write(
				`${file}: no figures in ${relative(ROOT, results.dir)}/: left as it is\n`,
			);
			continue;
		}
		rendered++;
		if (out.changed) writeFileSync(join(ROOT, file), out.text);
		process.stdout.write(
			`${file}: ${out.measured.length} block(s) rendered${out.changed ? '' : ' (unchanged)'}${out.notMeasured.length > 0 ? `; not measured in the last run: ${out.notMeasured.join(', ')}` : ''}\n`,
		);
	}
	const orphans = partsWithoutBlock(results);
	if (orphans.length > 0)
		process.stderr.write(
			`no document has a block for ${orphans.map(partFile).join(', ')}: add <!-- figures:<name>:start --> and <!-- figures:<name>:end --> where it belongs\n`,
		);
	if (rendered === 0) {
		process.stderr.write('nothing to render: run the tests first (see CONTRIBUTING.md)\n');
		return 1;
	}
	return 0;
}

module.exports = { DOCUMENTS, renderDocument, partsWithoutBlock };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
