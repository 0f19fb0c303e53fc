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
 * between the two markers of each block and leaves every other byte of the document as it was. A
 * block whose figures are missing gets one line saying it was not measured in the last run, never
 * the numbers of an older one.
 */
'use strict';

const MARKER = /<!-- figures:([^\s:>]+):(start|end) -->/g;
const NAME = /^[a-z0-9][a-z0-9._-]*$/;

const startMarker = (name) => `<!-- figures:${name}:start -->`;
const endMarker = (name) => `<!-- figures:${name}:end -->`;

/** The first words of the line a block gets when its figures are missing. */
const NOT_MEASURED = 'Not measured in the last run';

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

/**
 * Fills every block of `text`. `render(name)` returns the block's generated markdown, or
 * undefined when its figures are missing: the block then gets the not-measured line, with
 * `how(name)` (what would measure it) in brackets. `required` lists the blocks the caller renders
 * and expects to find: those absent from the document are returned in `missing`, for the caller to
 * report. Everything outside the blocks is kept byte for byte.
 *
 * @returns {{ text: string, measured: string[], notMeasured: string[], missing: string[] }}
 */
function fillBlocks(text, render, { doc, how = () => undefined, required = [] } = {}) {
	const blocks = findBlocks(text, doc);
	const measured = [];
	const unmeasured = [];
	let out = '';
	let at = 0;
	for (const block of blocks) {
		const body = render(block.name);
		if (body === undefined) unmeasured.push(block.name);
		else measured.push(block.name);
		const generated = body === undefined ? notMeasured(how(block.name)) : body.replace(/\n+$/, '');
		out += `${text.slice(at, block.from)}\n${generated}\n`;
		at = block.to;
	}
	out += text.slice(at);
	const names = new Set(blocks.map((block) => block.name));
	return {
		text: out,
		measured,
		notMeasured: unmeasured,
		missing: required.filter((name) => !names.has(name)),
	};
}

module.exports = {
	NOT_MEASURED,
	blockNames,
	endMarker,
	fillBlocks,
	findBlocks,
	notMeasured,
	startMarker,
};
