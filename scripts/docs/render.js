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
 *                                   docs:matrix, docs:queue-mode, docs:contributing)
 *
 * A block's name says where its figures come from:
 * - a part: test/.results/part-<name>.json, written by writePart (test/support/results.ts), shown
 *   as scripts/docs/parts.js renderPart shows any part (command, rows, figures). **A new part is
 *   its writePart call plus the two marker lines above, with its name, under a heading written by
 *   hand in the document it belongs to** — nothing to add here;
 * - a block a document's module lists in BLOCKS (reliability.js, triggers.js, requestCounts.js,
 *   matrix.js, queueMode.js, contributing.js): a summary, a table drawn from several parts, another results file.
 * A block whose figures are absent from test/.results/ keeps the figures it holds, dated by the
 * line that opens it: rendering after a partial run, or on a fresh clone, changes only what was
 * measured. A block that never held figures says it was not measured. Figures
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
	triggers: { file: 'docs/triggers.md', blocks: require('./triggers').BLOCKS },
	'request-counts': { file: 'docs/request-counts.md', blocks: require('./requestCounts').BLOCKS },
	matrix: { file: 'docs/api-contract.md', blocks: require('./matrix').BLOCKS },
	'queue-mode': { file: 'docs/queue-mode.md', blocks: require('./queueMode').BLOCKS },
	contributing: { file: 'CONTRIBUTING.md', blocks: require('./contributing').BLOCKS },
};

/**
 * The document rendered from `results`: `{ text, changed, measured, kept, notMeasured }`. A block
 * whose figures are absent keeps the figures it holds (markers.js); the bounds it quotes from the
 * code are read anew on every render.
 */
function renderDocument(name, results, root = ROOT) {
	const doc = DOCUMENTS[name];
	const path = join(root, doc.file);
	const before = readFileSync(path, 'utf8');
	const own = doc.blocks;
	const ctx = { results, names: blockNames(before, doc.file), text: before, doc };
	const filled = fillBlocks(
		before,
		(block, previous) =>
			block in own ? own[block].render(ctx, previous) : renderPart(results.part(block)),
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
		measured: filled.measured,
		kept: filled.kept,
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
	for (const name of names) {
		const { file } = DOCUMENTS[name];
		const out = renderDocument(name, results);
		if (out.changed) writeFileSync(join(ROOT, file), out.text);
		const said = [`${out.measured.length} block(s) rendered from ${relative(ROOT, results.dir)}/`];
		if (out.kept.length > 0) said.push(`kept as they were (no figures): ${out.kept.join(', ')}`);
		if (out.notMeasured.length > 0) said.push(`never measured: ${out.notMeasured.join(', ')}`);
		process.stdout.write(`${file}${out.changed ? '' : ' (unchanged)'}: ${said.join('; ')}\n`);
	}
	const orphans = partsWithoutBlock(results);
	if (orphans.length > 0)
		process.stderr.write(
			`no document has a block for ${orphans.map(partFile).join(', ')}: add <!-- figures:<name>:start --> and <!-- figures:<name>:end --> where it belongs\n`,
		);
	return 0;
}

module.exports = { DOCUMENTS, renderDocument, partsWithoutBlock };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
