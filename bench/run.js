/**
 * Entry point of `npm run bench` (and of its child processes): Node runs the benchmark's
 * TypeScript, and the test harness it reuses, through TypeScript's own transpiler (a CommonJS
 * require hook; types are not checked here — `npm run typecheck` does that). Usage:
 *
 *   node bench/run.js [flags]            the whole benchmark (see bench/README.md)
 *   node bench/run.js --worker <name> …  one part in its own process (used by the benchmark)
 *   node bench/run.js --alerts [flags]   issue 22's alert figures (bench/alertsMain.ts)
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const compilerOptions = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	inlineSourceMap: true,
};

function compileTypeScript(module, filename) {
	const source = fs.readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
	module._compile(outputText, filename);
}

// `.ts` is tried first for an import without extension, as jest does: `./X.node` must find
// `X.node.ts`, not the node's codex file `X.node.json`.
const extensions = require.extensions;
const others = Object.entries(extensions).filter(([ext]) => ext !== '.ts');
for (const [ext] of others) delete extensions[ext];
extensions['.ts'] = compileTypeScript;
for (const [ext, loader] of others) extensions[ext] = loader;

const workerFlag = process.argv.indexOf('--worker');
if (workerFlag !== -1) {
	const name = process.argv[workerFlag + 1];
	require(path.join(__dirname, 'workers', `${name}.ts`));
} else if (process.argv.includes('--alerts')) {
	require(path.join(__dirname, 'alertsMain.ts'));
} else {
	require(path.join(__dirname, 'main.ts'));
}
