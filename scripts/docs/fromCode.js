/**
 * The constants of the shipped code that the documents quote (bounds, defaults, caps), read from
 * the TypeScript source itself, never copied by hand: the modules are compiled as they are loaded
 * by TypeScript's own transpiler (a CommonJS require hook for this process only; types are not
 * checked here, `npm run typecheck` does that). The source rather than dist/, so a render needs no
 * build and never quotes an older build.
 *
 * A document quotes a constant only through `code()`: a constant renamed or moved fails the render
 * with its name, instead of leaving a stale figure.
 */
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** Where each quoted constant is exported from, relative to the repository. */
const SOURCES = {
	BOUNDS: 'nodes/SentiOne/shared/bounds.ts',
	DEFAULTS: 'nodes/SentiOne/shared/transport/session.ts',
	DEFAULT_RETRY: 'nodes/SentiOne/shared/transport/retry.ts',
	DEFAULT_MAX_ITEMS: 'nodes/SentiOne/shared/pager.ts',
	DEFAULT_DEDUP_CAPACITY: 'nodes/SentiOne/trigger/stream/dedupMemory.ts',
	DEFAULT_DEDUP_BYTES: 'nodes/SentiOne/trigger/stream/dedupMemory.ts',
	EXPORT_CAPS: 'nodes/SentiOne/actions/mention/export.operation.ts',
	STREAM_DEFAULTS: 'nodes/SentiOne/trigger/stream/streamSettings.ts',
};

function compileTypeScript(module, filename) {
	const ts = require('typescript');
	const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
		},
	});
	module._compile(outputText, filename);
}

/** `.ts` first, as jest resolves: `./X.node` must find `X.node.ts`, not a codex `X.node.json`. */
function loadTypeScript() {
	const loaders = require.extensions;
	if (loaders['.ts'] === compileTypeScript) return;
	const others = Object.entries(loaders).filter(([ext]) => ext !== '.ts');
	for (const [ext] of others) delete loaders[ext];
	loaders['.ts'] = compileTypeScript;
	for (const [ext, loader] of others) loaders[ext] = loader;
}

/**
 * A constant of the shipped code, by its exported name and an optional path inside it
 * (`code('BOUNDS', 'maxCursorChars')`). Throws when the source no longer exports it.
 */
function code(name, ...path) {
	const file = SOURCES[name];
	if (!file)
		throw new Error(`scripts/docs/fromCode.js: no source known for ${name} (add it to SOURCES)`);
	loadTypeScript();
	let value = require(join(ROOT, file))[name];
	for (const key of path) value = value?.[key];
	if (value === undefined)
		throw new Error(
			`${file} no longer exports ${[name, ...path].join('.')}: update the document that quotes it`,
		);
	return value;
}

module.exports = { SOURCES, code };
