/**
 * The n8n lines the package is tested on, and where each is installed.
 *
 * - `LINES`: the n8n version pinned for each line and the Node.js major it runs on. `target()`
 *   picks one: a line's name, or by default `$SENTIONE_N8N_LINE` (`2.x` when unset), so one test
 *   file runs on any line; `$SENTIONE_N8N_NODE` tries the line on another Node.js major.
 * - `cacheBase()`: `$SENTIONE_N8N_CACHE`, else `~/.cache/n8n-nodes-sentione`; `cacheRoot(t)` the
 *   folder of one line's n8n in it.
 *
 * `node scripts/n8n/lines.js` prints the lines as `n8n2=2.41.1`, `node2=24`, … (CI's cache keys,
 * written to $GITHUB_OUTPUT). Plain CommonJS, Node built-ins only: ./dev runs scripts/n8n/ before
 * the dev dependencies are installed.
 */
'use strict';

const os = require('node:os');
const path = require('node:path');

/**
 * The tested lines (README → Compatibility). n8n 2.41 needs Node 24. n8n 1.123 declares Node
 * 20.19 to 24, but its expression engine (isolated-vm 6) needs 22 or newer: tested on 22.
 * Overrides: linkedom 0.18.15 needs `cssomnom`, missing from the registry here; n8n 1.x's
 * spreadsheet library comes from cdn.sheetjs.com, outside the registry, so the registry's last
 * xlsx stands in (no test uses the Spreadsheet File node).
 */
const LINES = {
	'2.x': { version: '2.41.1', node: 24, overrides: { linkedom: '0.18.14' } },
	'1.x': { version: '1.123.81', node: 22, overrides: { xlsx: '0.18.5' } },
};
const DEFAULT_LINE = '2.x';
const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;

/**
 * A line to run: `{ line, version, node, installNode, overrides }`, by name or the one
 * `$SENTIONE_N8N_LINE` names. n8n is installed with the line's Node.js (`installNode`) and runs on
 * `node`: the same, unless `$SENTIONE_N8N_NODE` names another major to try the line on (n8n's
 * native modules are N-API or carry prebuilt binaries for several Node ABIs, so one install serves).
 */
function target(
	which = process.env.SENTIONE_N8N_LINE || DEFAULT_LINE,
	runOn = process.env.SENTIONE_N8N_NODE,
) {
	if (typeof which === 'object') return which;
	if (!LINES[which])
		throw new Error(
			`unknown n8n line "${which}" (SENTIONE_N8N_LINE): one of ${Object.keys(LINES).join(', ')}`,
		);
	const line = LINES[which];
	const node = runOn ? Number(runOn) : line.node;
	if (!Number.isInteger(node) || node < 18)
		throw new Error(`SENTIONE_N8N_NODE must be a Node.js major version, not "${runOn}"`);
	return {
		line: which,
		version: line.version,
		node,
		installNode: line.node,
		overrides: line.overrides,
	};
}

/** The version of the line this process runs by default (`$SENTIONE_N8N_LINE`, else 2.x). */
const N8N_VERSION = target().version;

function cacheBase() {
	return (
		process.env.SENTIONE_N8N_CACHE ||
		path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-sentione')
	);
}

/** Where a line's n8n is installed: `<cache>/n8n-<version>`. */
function cacheRoot(t = target()) {
	return path.join(cacheBase(), `n8n-${target(t).version}`);
}

function n8nBin(dir = cacheRoot()) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

function log(message) {
	process.stderr.write(`[n8n] ${message}\n`);
}

module.exports = {
	LINES,
	DEFAULT_LINE,
	ROOT,
	PACKAGE_NAME,
	N8N_VERSION,
	target,
	cacheBase,
	cacheRoot,
	n8nBin,
	log,
};

if (require.main === module) {
	for (const [name, line] of Object.entries(LINES)) {
		const key = name.replace(/\.x$/, '');
		process.stdout.write(`n8n${key}=${line.version}\nnode${key}=${line.node}\n`);
	}
}
