/**
 * The one marker convention of the generated documents. A document is written by hand; only its
 * figures are generated, each set between two marker lines:
 *
 *   <!-- figures:<name>:start -->
 *   …generated: replaced on every render…
 *   <!-- figures:<name>:end -->
 *
 * `<name>` is a part (test/.results/part-<name>.json, written by writePart) or a block a
 * document's renderer knows (scripts/docs/render.js lists them). fillBlocks replaces what lies
 * between the two markers of each block and leaves every other byte of the document as it was.
 *
 * A block whose figures are absent from test/.results/ (that folder is not tracked: a fresh clone,
 * or a run of other tiers, lacks them) keeps the figures it holds: each says when and by which
 * command it was measured, so rendering after a partial run, or with no new results, changes
 * nothing it did not measure. A block that never held figures gets one line saying it was not
 * measured.
 */
'use strict';

const MARKER = /<!-- figures:([^\s:>]+):(start|end) -->/g;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;

const startMarker = (name) => `<!-- figures:${name}:start -->`;
const endMarker = (name) => `<!-- figures:${name}:end -->`;

/** The first words of the line a block gets when it never held figures. */
const NOT_MEASURED = 'Not measured yet';

/** The line a block without figures gets: what was not measured, and what would measure it. */
function notMeasured(how) {
	return `_${NOT_MEASURED}${how ? ` (${how})` : ''}._`;
}

/**
 * The blocks of a document, in order: `{ name, from, to }`, where `from`…`to` is the generated
 * text between the end of the start marker and the beginning of the end marker. Throws, naming the
 * document and the marker, on a malformed name, a start without its end (or the other way round),
 * a block opened inside another, or a name used twice.
 */
function findBlocks(text, doc = 'the document') {
	const blocks = [];
	const seen = new Set();
	let open;
	for (const match of text.matchAll(MARKER)) {
		const [marker, name, edge] = match;
		const line = text.slice(0, match.index).split('\n').length;
		const where = `${doc}, line ${line}: ${marker}`;
		if (!NAME.test(name))
			throw new Error(`${where}: a block name is lower case letters, digits, ".", "_" and "-"`);
		if (edge === 'start') {
			if (open) throw new Error(`${where} opens a block inside "${open.name}", not yet ended`);
			if (seen.has(name)) throw new Error(`${where}: a second block named "${name}"`);
			seen.add(name);
			open = { name, from: match.index + marker.length };
		} else {
			if (!open || open.name !== name)
				throw new Error(
					`${where} ends a block that is not open${open ? ` ("${open.name}" is)` : ''}`,
				);
			blocks.push({ name, from: open.from, to: match.index });
			open = undefined;
		}
	}
	if (open) throw new Error(`${doc}: ${startMarker(open.name)} has no ${endMarker(open.name)}`);
	return blocks;
}

/** The names of a document's blocks, in order. */
function blockNames(text, doc) {
	return findBlocks(text, doc).map((block) => block.name);
}

/** What a block holds between its markers, without the line breaks around it. */
const bodyOf = (text, block) =>
	text
		.slice(block.from, block.to)
		.replace(/^\r?\n/, '')
		.replace(/\s+$/, '');

/** Whether a block's body holds figures (not nothing, not the not-measured line). */
const holdsFigures = (body) => body !== '' && !body.startsWith(`_${NOT_MEASURED}`);

/**
 * Fills every block of `text`. `render(name, previous)` returns the block's generated markdown, or
 * undefined when its figures are absent; `previous` is what the block holds now (figures, the
 * not-measured line, or ''). A block rendered as undefined keeps the figures it holds (`kept`); one
 * that holds none gets the not-measured line, with `how(name)` (what would measure it) in
 * brackets. `required` lists the blocks the caller renders and expects to find: those absent from
 * the document are returned in `missing`, for the caller to report. Everything outside the blocks
 * is kept byte for byte.
 *
 * @returns {{ text: string, measured: string[], kept: string[], notMeasured: string[], missing: string[] }}
 */
function fillBlocks(text, render, { doc, how = () => undefined, required = [] } = {}) {
	const blocks = findBlocks(text, doc);
	const measured = [];
	const kept = [];
	const unmeasured = [];
	let out = '';
	let at = 0;
	for (const block of blocks) {
		const previous = bodyOf(text, block);
		const body = render(block.name, previous);
		let generated;
		if (body !== undefined) {
			measured.push(block.name);
			generated = body.replace(/\s+$/, '');
		} else if (holdsFigures(previous)) {
			kept.push(block.name);
			generated = previous;
		} else {
			unmeasured.push(block.name);
			generated = notMeasured(how(block.name));
		}
		out += `${text.slice(at, block.from)}\n${generated}\n`;
		at = block.to;
	}
	out += text.slice(at);
	const names = new Set(blocks.map((block) => block.name));
	return {
		text: out,
		measured,
		kept,
		notMeasured: unmeasured,
		missing: required.filter((name) => !names.has(name)),
	};
}

/**
 * The text of the last markdown heading above a block's start marker (`## Caps` → "Caps"), or
 * undefined: the name a block's figures go by in a summary, written by hand with its prose.
 */
function headingOf(text, name) {
	const at = text.indexOf(startMarker(name));
	if (at < 0) return undefined;
	const headings = [...text.slice(0, at).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)];
	return headings.length > 0 ? headings[headings.length - 1][1] : undefined;
}

module.exports = {
	NOT_MEASURED,
	blockNames,
	endMarker,
	fillBlocks,
	findBlocks,
	headingOf,
	holdsFigures,
	notMeasured,
	startMarker,
};
