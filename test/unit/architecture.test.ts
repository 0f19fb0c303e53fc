/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The walls of ARCHITECTURE.md, checked on the source: every .ts file under nodes/, credentials/
 * and simulator/src/ is parsed with the TypeScript compiler (imports, re-exports, `import x =
 * require()`, `require()`, `import()`, and the calls that speak HTTP), and
 * - nodes/SentiOne/actions/** and nodes/SentiOne/trigger/** never import each other, and
 *   nodes/SentiOne/shared/** imports neither of them (nor the node files);
 * - nodes/ and credentials/ import nothing outside nodes/ and credentials/ (no simulator/, test/,
 *   bench/, scripts/ …), and simulator/src/ imports nothing from nodes/ or credentials/;
 * - only the transport (nodes/SentiOne/shared/transport.ts, or a folder
 *   nodes/SentiOne/shared/transport/) speaks HTTP: n8n's request helpers, fetch, or a Node
 *   network module;
 * - nodes/ has no import cycle;
 * - at run time nodes/ and credentials/ load only their own files, n8n-workflow and the Node
 *   built-ins n8n's community-node lint allows.
 * The rules go by folders and prefixes, so they hold when files move inside those folders. Each
 * failure names the file, the import or call (with its line) and the rule it breaks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import * as ts from 'typescript';
import { REPO_ROOT } from '../support/paths';

const ROOT = REPO_ROOT;
const SCANNED = ['nodes', 'credentials', join('simulator', 'src')];

/** The transport: the one place that speaks HTTP (a file transport.ts or a folder transport/). */
const TRANSPORT = /^nodes\/SentiOne\/shared\/transport(\.ts$|\/)/;
const ACTIONS = /^nodes\/SentiOne\/actions\//;
const TRIGGERS = /^nodes\/SentiOne\/trigger\//;
const SHARED = /^nodes\/SentiOne\/shared\//;
const PACKAGE_CODE = /^(nodes|credentials)\//;
const SIMULATOR = /^simulator\/src\//;

/** Modules a node may load at run time besides its own files (see the lint check below). */
const RUNTIME_PACKAGES = ['n8n-workflow'];
const RUNTIME_BUILTINS = ['crypto', 'node:crypto'];

/** Node modules that open connections, and HTTP clients from npm. */
const NETWORK_MODULES =
	/^(node:)?(http|https|http2|net|tls|dgram)$|^(undici|axios|node-fetch|got|ws|eventsource)(\/|$)/;
/** n8n's request helpers (IExecuteFunctions.helpers and the other contexts'). */
const N8N_HTTP_HELPERS = new Set([
	'httpRequest',
	'httpRequestWithAuthentication',
	'request',
	'requestWithAuthentication',
]);
/** Names only n8n's helpers use: flagged on any object, not only on `helpers`. */
const N8N_ONLY_NAMES = new Set([
	'httpRequest',
	'httpRequestWithAuthentication',
	'requestWithAuthentication',
]);
/** Globals that speak HTTP. */
const HTTP_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']);

interface Import {
	/** as written */
	specifier: string;
	/** repository path of the file it names (relative specifiers only) */
	target?: string;
	/** erased from the build (import type, export type, or only `type` specifiers) */
	typeOnly: boolean;
	line: number;
}

interface HttpUse {
	what: string;
	line: number;
}

interface SourceFacts {
	path: string;
	imports: Import[];
	http: HttpUse[];
}

const posix = (path: string) => path.split(sep).join('/');

function listTs(dir: string): string[] {
	const abs = join(ROOT, dir);
	if (!existsSync(abs)) return [];
	const out: string[] = [];
	for (const name of readdirSync(abs)) {
		const child = join(dir, name);
		if (statSync(join(ROOT, child)).isDirectory()) out.push(...listTs(child));
		else if (name.endsWith('.ts')) out.push(posix(child));
	}
	return out;
}

/** The repository path a relative specifier names: the file itself, with .ts, or the folder's index. */
function resolveRelative(from: string, specifier: string): string {
	const base = resolve(ROOT, dirname(from), specifier);
	const candidates = [
		base,
		`${base}.ts`,
		base.replace(/\.js$/, '.ts'),
		join(base, 'index.ts'),
		`${base}.json`,
	];
	const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
	return posix(relative(ROOT, found ?? base));
}

const isRelative = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');

function importOf(
	file: string,
	source: ts.SourceFile,
	node: ts.Node,
	specifier: string,
	typeOnly: boolean,
): Import {
	return {
		specifier,
		target: isRelative(specifier) ? resolveRelative(file, specifier) : undefined,
		typeOnly,
		line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
	};
}

/** The last name of an expression: `helpers` for `this.helpers` or `ctx.helpers`. */
function lastName(node: ts.Expression): string | undefined {
	if (ts.isIdentifier(node)) return node.text;
	if (ts.isPropertyAccessExpression(node)) return node.name.text;
	if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression))
		return node.argumentExpression.text;
	if (ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node))
		return lastName(node.expression);
	return undefined;
}

/** A global called or constructed directly (`fetch(…)`) or through globalThis (`globalThis.fetch(…)`). */
function globalName(node: ts.Expression): string | undefined {
	if (ts.isIdentifier(node)) return node.text;
	if (
		ts.isPropertyAccessExpression(node) &&
		ts.isIdentifier(node.expression) &&
		node.expression.text === 'globalThis'
	)
		return node.name.text;
	return undefined;
}

function factsOf(file: string): SourceFacts {
	return factsOfText(file, readFileSync(join(ROOT, file), 'utf8'));
}

function factsOfText(file: string, text: string): SourceFacts {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
	const imports: Import[] = [];
	const http: HttpUse[] = [];
	const lineOf = (node: ts.Node) =>
		source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
			const clause = node.importClause;
			const named = clause?.namedBindings;
			const typeOnly =
				clause !== undefined &&
				(clause.isTypeOnly ||
					(clause.name === undefined &&
						named !== undefined &&
						ts.isNamedImports(named) &&
						named.elements.length > 0 &&
						named.elements.every((e) => e.isTypeOnly)));
			imports.push(importOf(file, source, node, node.moduleSpecifier.text, typeOnly));
		} else if (
			ts.isExportDeclaration(node) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			const clause = node.exportClause;
			const typeOnly =
				node.isTypeOnly ||
				(clause !== undefined &&
					ts.isNamedExports(clause) &&
					clause.elements.length > 0 &&
					clause.elements.every((e) => e.isTypeOnly));
			imports.push(importOf(file, source, node, node.moduleSpecifier.text, typeOnly));
		} else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference) &&
			ts.isStringLiteral(node.moduleReference.expression)
		) {
			imports.push(
				importOf(file, source, node, node.moduleReference.expression.text, node.isTypeOnly),
			);
		} else if (ts.isCallExpression(node)) {
			const [first] = node.arguments;
			const callee = node.expression;
			if (
				(callee.kind === ts.SyntaxKind.ImportKeyword ||
					(ts.isIdentifier(callee) && callee.text === 'require')) &&
				first &&
				ts.isStringLiteralLike(first)
			) {
				imports.push(importOf(file, source, node, first.text, false));
			}
			const name = globalName(callee);
			if (name && HTTP_GLOBALS.has(name))
				http.push({ what: `calls ${name}()`, line: lineOf(node) });
		} else if (ts.isNewExpression(node)) {
			const name = globalName(node.expression);
			if (name && HTTP_GLOBALS.has(name))
				http.push({ what: `creates a ${name}`, line: lineOf(node) });
		}
		// n8n's helpers: `x.helpers.request(…)`, `x.httpRequest…` on any object, `helpers['request']`
		if (
			ts.isPropertyAccessExpression(node) ||
			(ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression))
		) {
			const name = ts.isPropertyAccessExpression(node)
				? node.name.text
				: (node.argumentExpression as ts.StringLiteral).text;
			if (
				N8N_ONLY_NAMES.has(name) ||
				(N8N_HTTP_HELPERS.has(name) && lastName(node.expression) === 'helpers')
			) {
				http.push({ what: `uses n8n's helper ${name}`, line: lineOf(node) });
			}
		}
		// `const { httpRequest } = this.helpers`
		if (
			ts.isVariableDeclaration(node) &&
			ts.isObjectBindingPattern(node.name) &&
			node.initializer
		) {
			const fromHelpers = lastName(node.initializer) === 'helpers';
			for (const element of node.name.elements) {
				const key =
					element.propertyName && ts.isIdentifier(element.propertyName)
						? element.propertyName.text
						: ts.isIdentifier(element.name)
							? element.name.text
							: '';
				if (N8N_ONLY_NAMES.has(key) || (fromHelpers && N8N_HTTP_HELPERS.has(key)))
					http.push({ what: `takes n8n's helper ${key}`, line: lineOf(element) });
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	for (const i of imports) {
		if (NETWORK_MODULES.test(i.specifier) && !i.typeOnly)
			http.push({ what: `imports '${i.specifier}'`, line: i.line });
	}
	http.sort((a, b) => a.line - b.line);
	return { path: file, imports, http };
}

const FILES = SCANNED.flatMap(listTs).map(factsOf);
const at = (file: SourceFacts, i: { line: number }) => `${file.path}:${i.line}`;
const shown = (i: Import) =>
	i.target && i.target !== i.specifier ? `${i.target} ('${i.specifier}')` : `'${i.specifier}'`;

/** Every import cycle among `files` (relative imports, types included), each as a path a → … → a. */
function cycles(files: SourceFacts[]): string[][] {
	const inside = new Set(files.map((f) => f.path));
	const graph = new Map(
		files.map((f) => [
			f.path,
			[...new Set(f.imports.map((i) => i.target).filter((t): t is string => !!t && inside.has(t)))],
		]),
	);
	const found = new Map<string, string[]>();
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const walk = (node: string) => {
		state.set(node, 'open');
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === 'open') {
				const cycle = [...stack.slice(stack.indexOf(next)), next];
				// one entry per cycle, whichever file it was entered from
				const key = [...cycle.slice(0, -1)].sort().join('|');
				if (!found.has(key)) found.set(key, cycle);
			} else if (!state.has(next)) {
				walk(next);
			}
		}
		stack.pop();
		state.set(node, 'done');
	};
	for (const node of [...graph.keys()].sort()) if (!state.has(node)) walk(node);
	return [...found.values()];
}

test('the scan sees the package, the credential and the simulator', () => {
	const paths = FILES.map((f) => f.path);
	expect(paths).toEqual(
		expect.arrayContaining([
			'nodes/SentiOne/SentiOne.node.ts',
			'credentials/SentiOneApi.credentials.ts',
			'nodes/SentiOne/shared/contract/index.ts',
			'nodes/SentiOne/shared/contract/endpoints.ts',
		]),
	);
	expect(paths.filter((p) => ACTIONS.test(p)).length).toBeGreaterThan(0);
	expect(paths.filter((p) => TRIGGERS.test(p)).length).toBeGreaterThan(0);
	expect(paths.filter((p) => TRANSPORT.test(p)).length).toBeGreaterThan(0);
	expect(paths.filter((p) => SIMULATOR.test(p)).length).toBeGreaterThan(0);
	// the transport's own requests are seen (so "nobody else" is not vacuous)
	expect(FILES.filter((f) => TRANSPORT.test(f.path)).flatMap((f) => f.http).length).toBeGreaterThan(
		0,
	);
});

test('actions and triggers never import each other', () => {
	const broken: string[] = [];
	for (const file of FILES) {
		for (const i of file.imports) {
			if (!i.target) continue;
			if (ACTIONS.test(file.path) && TRIGGERS.test(i.target))
				broken.push(`${at(file, i)} imports ${shown(i)}: an action imports a trigger module`);
			if (TRIGGERS.test(file.path) && ACTIONS.test(i.target))
				broken.push(`${at(file, i)} imports ${shown(i)}: a trigger imports an action module`);
		}
	}
	expect(broken).toEqual([]);
});

test('shared/ is common ground: it imports nothing from actions/, trigger/ or the node files', () => {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => SHARED.test(f.path))) {
		for (const i of file.imports) {
			if (i.target?.startsWith('nodes/') && !SHARED.test(i.target))
				broken.push(`${at(file, i)} imports ${shown(i)}: shared/ depends on nothing above it`);
		}
	}
	expect(broken).toEqual([]);
});

test('nodes/ and credentials/ import nothing outside them (no simulator/, test/, bench/ …)', () => {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => PACKAGE_CODE.test(f.path))) {
		for (const i of file.imports) {
			if (i.target && !PACKAGE_CODE.test(i.target))
				broken.push(
					`${at(file, i)} imports ${shown(i)}: the package's code imports from outside nodes/ and credentials/`,
				);
		}
	}
	expect(broken).toEqual([]);
});

test('simulator/src imports nothing from nodes/ or credentials/', () => {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => SIMULATOR.test(f.path))) {
		for (const i of file.imports) {
			if (i.target && PACKAGE_CODE.test(i.target))
				broken.push(
					`${at(file, i)} imports ${shown(i)}: the simulator imports the package (it must stay an independent reading of the API)`,
				);
		}
	}
	expect(broken).toEqual([]);
});

test('only the transport speaks HTTP (n8n request helpers, fetch, Node network modules)', () => {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => PACKAGE_CODE.test(f.path) && !TRANSPORT.test(f.path))) {
		for (const use of file.http)
			broken.push(`${at(file, use)} ${use.what}: only nodes/SentiOne/shared/transport speaks HTTP`);
	}
	expect(broken).toEqual([]);
});

test('nodes/ has no import cycle', () => {
	const found = cycles(FILES.filter((f) => f.path.startsWith('nodes/')));
	expect(found.map((cycle) => `import cycle: ${cycle.join(' → ')}`)).toEqual([]);
});

test('at run time nodes/ and credentials/ load only their own files, n8n-workflow and the built-ins n8n allows', () => {
	const broken: string[] = [];
	for (const file of FILES.filter((f) => PACKAGE_CODE.test(f.path))) {
		for (const i of file.imports) {
			if (i.typeOnly || isRelative(i.specifier)) continue;
			if (RUNTIME_PACKAGES.includes(i.specifier) || RUNTIME_BUILTINS.includes(i.specifier))
				continue;
			broken.push(
				`${at(file, i)} loads '${i.specifier}' at run time: a node may load only its own files, ${[...RUNTIME_PACKAGES, ...RUNTIME_BUILTINS].join(', ')} (\`import type\` for a type)`,
			);
		}
	}
	expect(broken).toEqual([]);
});

test('the benchmarks load no jest-only module at run time (they run outside jest: bench/run.js)', () => {
	// test/setup/ registers jest hooks (afterAll …) as it loads: a bench reaching it fails at once
	const seen = new Set<string>();
	const reached: string[] = [];
	const walk = (path: string, via: string[]) => {
		if (seen.has(path) || !path.endsWith('.ts') || !existsSync(join(ROOT, path))) return;
		seen.add(path);
		if (path.startsWith('test/setup/')) reached.push([...via, path].join(' → '));
		for (const i of factsOf(path).imports)
			if (i.target && !i.typeOnly) walk(i.target, [...via, path]);
	};
	for (const file of listTs('bench')) walk(file, []);
	expect(seen.size).toBeGreaterThan(10);
	expect(reached).toEqual([]);
});

test("the built-ins allowed here are ones n8n's community-node lint allows", () => {
	// the plugin `n8n-node lint` runs (the node-cli's own copy)
	const plugin = require.resolve('@n8n/eslint-plugin-community-nodes', {
		paths: [join(ROOT, 'node_modules', '@n8n', 'node-cli')],
	});
	const rule = join(dirname(plugin), 'rules', 'no-restricted-imports.js');
	const allowed = /const allowedModules = \[([^\]]*)\]/.exec(readFileSync(rule, 'utf8'))?.[1] ?? '';
	const modules = [...allowed.matchAll(/'([^']+)'/g)].map((m) => m[1]);
	expect(modules).toEqual(expect.arrayContaining([...RUNTIME_PACKAGES, ...RUNTIME_BUILTINS]));
});

describe('control: the checks catch what they look for', () => {
	const fixture = factsOfText;

	test('imports of every form, type-only ones told apart', () => {
		const facts = fixture(
			'nodes/SentiOne/actions/x.ts',
			[
				"import type { A } from '../trigger/a';",
				"import { type B, type C } from '../trigger/b';",
				"import { D, type E } from '../trigger/c';",
				"export * from '../shared/contract';",
				"export { h } from '../../../simulator/src/nowhere';",
				"import f = require('lodash');",
				"const g = require('node:http');",
				"void import('../../../test/support/engine');",
			].join('\n'),
		);
		expect(facts.imports.map((i) => [i.specifier, i.target, i.typeOnly, i.line])).toEqual([
			['../trigger/a', 'nodes/SentiOne/trigger/a', true, 1],
			['../trigger/b', 'nodes/SentiOne/trigger/b', true, 2],
			['../trigger/c', 'nodes/SentiOne/trigger/c', false, 3],
			['../shared/contract', 'nodes/SentiOne/shared/contract/index.ts', false, 4],
			['../../../simulator/src/nowhere', 'simulator/src/nowhere', false, 5],
			['lodash', undefined, false, 6],
			['node:http', undefined, false, 7],
			['../../../test/support/engine', 'test/support/engine.ts', false, 8],
		]);
	});

	test('every way of speaking HTTP', () => {
		const facts = fixture(
			'nodes/SentiOne/actions/y.ts',
			[
				'await this.helpers.httpRequest(options);',
				"await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'sentiOneApi', options);",
				'await this.helpers.request(options);',
				"await this.helpers['requestWithAuthentication'](options);",
				'const { request } = this.helpers;',
				'await fetch(url);',
				'await globalThis.fetch(url);',
				'new WebSocket(url);',
				"import { get } from 'node:https';",
				'await transport.request(options);',
			].join('\n'),
		);
		expect(facts.http.map((h) => `${h.line} ${h.what}`)).toEqual([
			"1 uses n8n's helper httpRequest",
			"2 uses n8n's helper httpRequestWithAuthentication",
			"3 uses n8n's helper request",
			"4 uses n8n's helper requestWithAuthentication",
			"5 takes n8n's helper request",
			'6 calls fetch()',
			'7 calls fetch()',
			'8 creates a WebSocket',
			"9 imports 'node:https'",
		]);
	});

	test('a cycle is reported as its path', () => {
		const a = {
			path: 'nodes/a.ts',
			imports: [{ specifier: './b', target: 'nodes/b.ts', typeOnly: false, line: 1 }],
			http: [],
		};
		const b = {
			path: 'nodes/b.ts',
			imports: [{ specifier: './c', target: 'nodes/c.ts', typeOnly: true, line: 1 }],
			http: [],
		};
		const c = {
			path: 'nodes/c.ts',
			imports: [{ specifier: './a', target: 'nodes/a.ts', typeOnly: false, line: 1 }],
			http: [],
		};
		const d = {
			path: 'nodes/d.ts',
			imports: [{ specifier: './a', target: 'nodes/a.ts', typeOnly: false, line: 1 }],
			http: [],
		};
		expect(cycles([a, b, c, d])).toEqual([
			['nodes/a.ts', 'nodes/b.ts', 'nodes/c.ts', 'nodes/a.ts'],
		]);
	});
});
