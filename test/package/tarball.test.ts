/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: not shipped in the package */
/**
 * What `npm pack` puts in the tarball (`npm pack --dry-run --json`, after the build `npm test`
 * runs first): exactly what an n8n install of the package needs, nothing else.
 *
 * - the compiled nodes and credential (`dist/**\/*.js`), the codex file of each node
 *   (`*.node.json`: categories and documentation links in the nodes panel), the icons, README.md,
 *   LICENSE.md and package.json (npm adds the last three itself);
 * - no `.d.ts`: n8n loads the `.js` files only and nothing imports this package as a library, so
 *   declarations would be dead weight (`declaration: false` in tsconfig.json);
 * - no source maps: they point at `nodes/**\/*.ts`, which is not in the package, and n8n does not
 *   run Node with `--enable-source-maps`, so they would map no user's stack trace (`sourceMap: false`);
 * - no build leftovers: no `tsconfig.tsbuildinfo` (`incremental: false`: `n8n-node build` wipes dist/
 *   before every build, so there is nothing to be incremental about, and a build-info file kept
 *   outside dist/ makes the second build emit no JavaScript at all), no `dist/package.json` (tsconfig
 *   no longer includes package.json), no README pictures (they live in .github/images, which
 *   `n8n-node build`'s copy of every `**\/*.{png,svg}` does not reach).
 *
 * The build writes nothing that is not shipped, so the end-to-end tier, which installs dist/ and
 * package.json into a real n8n (scripts/n8n/install.js), installs exactly the published file set.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../support/paths';

const ROOT = REPO_ROOT;

interface PackEntry {
	path: string;
	size: number;
}
interface Pack {
	filename: string;
	size: number;
	unpackedSize: number;
	entryCount: number;
	files: PackEntry[];
}

let pack: Pack;
let packed: string[];

/** Every file under a folder of the repository, as paths relative to the root with `/`. */
function walk(dir: string): string[] {
	const abs = join(ROOT, dir);
	if (!existsSync(abs)) return [];
	return readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
		const rel = `${dir}/${e.name}`;
		return e.isDirectory() ? walk(rel) : [rel];
	});
}

beforeAll(() => {
	if (!existsSync(join(ROOT, 'dist', 'credentials')))
		throw new Error('dist/ is not built: run `npm run build` (npm test builds first)');
	const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (r.status !== 0) throw new Error(`npm pack --dry-run failed (${r.status}): ${r.stderr}`);
	pack = (JSON.parse(r.stdout) as Pack[])[0];
	packed = pack.files.map((f) => f.path).sort();
});

test('the tarball holds exactly the compiled nodes and credential, their codex files, the icons, README, LICENSE and package.json', () => {
	const leftovers = packed.filter(
		(p) =>
			/\.(map|d\.ts|tsbuildinfo|png|ts)$/.test(p) ||
			p === 'dist/package.json' ||
			!/^(dist\/|[^/]+$)/.test(p),
	);
	expect(leftovers).toEqual([]);

	const sources = [...walk('nodes'), ...walk('credentials')];
	const expected = [
		...sources
			.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
			.map((p) => `dist/${p.replace(/\.ts$/, '.js')}`),
		...sources.filter((p) => p.endsWith('.node.json')).map((p) => `dist/${p}`),
		...[...walk('icons'), ...sources].filter((p) => /\.(svg|png)$/.test(p)).map((p) => `dist/${p}`),
		'LICENSE.md',
		'README.md',
		'package.json',
	].sort();
	expect(packed).toEqual(expected);
	// every node has its codex file next to it
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	for (const node of pkg.n8n.nodes) expect(packed).toContain(node.replace(/\.js$/, '.json'));
});

test('the entries package.json gives n8n are in the tarball', () => {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	expect(pkg.n8n.nodes).toHaveLength(3);
	expect(pkg.n8n.credentials).toHaveLength(1);
	for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(packed).toContain(entry);
});

test('the build writes nothing that is not shipped (the end-to-end tier installs dist/, so it installs the tarball)', () => {
	expect(walk('dist').sort()).toEqual(packed.filter((p) => p.startsWith('dist/')));
});

test('every shipped module is loaded from an entry point, and every module an entry point loads is shipped', () => {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const reached = new Set<string>();
	const missing: string[] = [];
	const queue = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	while (queue.length > 0) {
		const file = queue.pop()!;
		if (reached.has(file)) continue;
		reached.add(file);
		const code = readFileSync(join(ROOT, file), 'utf8');
		for (const [, spec] of code.matchAll(/require\("([^"]+)"\)/g)) {
			if (!spec.startsWith('.')) {
				// the only package a community node may load at run time is n8n's own; of Node.js, only
				// what n8n's lint and scanner allow (crypto: the SHA-256 of over-long ids)
				expect(['n8n-workflow', 'crypto']).toContain(spec);
				continue;
			}
			const target = relative(ROOT, resolve(ROOT, dirname(file), spec))
				.split('\\')
				.join('/');
			const candidates = [target, `${target}.js`, `${target}/index.js`];
			const found = candidates.find((c) => packed.includes(c));
			if (found) {
				if (found.endsWith('.js')) queue.push(found);
			} else {
				missing.push(`${file} → ${spec}`);
			}
		}
	}
	expect(missing).toEqual([]);
	// only a module of types (actions/node.type.ts, shared/transport/types.ts, …) may be left
	// unreached: it compiles to an empty module that nothing loads
	const unreached = packed.filter((p) => p.endsWith('.js') && !reached.has(p));
	for (const file of unreached) {
		expect({
			file,
			code: readFileSync(join(ROOT, file), 'utf8').trim(),
		}).toEqual({
			file,
			code: '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });',
		});
	}
	expect(unreached.length).toBeLessThan(packed.filter((p) => p.endsWith('.js')).length / 4);
});

test('every icon a node or the credential names (file:…) is in the tarball', () => {
	const icons = new Set<string>();
	for (const file of packed.filter((p) => p.endsWith('.js'))) {
		for (const [, ref] of readFileSync(join(ROOT, file), 'utf8').matchAll(
			/['"]file:([^'"]+)['"]/g,
		)) {
			icons.add(
				relative(ROOT, resolve(ROOT, dirname(file), ref))
					.split('\\')
					.join('/'),
			);
		}
	}
	expect(icons.size).toBeGreaterThanOrEqual(2); // light and dark
	for (const icon of icons) expect(packed).toContain(icon);
});

test('package.json points npm, the provenance check and the scanner at one GitHub repository', () => {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		homepage: string;
		repository: { type: string; url: string };
		bugs: { url: string };
		engines: { node: string };
	};
	// npm compares repository.url with the repository in the provenance statement; n8n's scanner
	// downloads the attested commit from it
	const repo = /^https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(pkg.repository.url)?.[1];
	expect(pkg.repository.type).toBe('git');
	expect(repo).toBeDefined();
	expect(pkg.homepage).toBe(`https://github.com/${repo}#readme`);
	expect(pkg.bugs.url).toBe(`https://github.com/${repo}/issues`);
	const changelogLinks = [
		...readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8').matchAll(/^\[[^\]]+\]: (\S+)$/gm),
	].map((m) => m[1]);
	expect(changelogLinks.length).toBeGreaterThan(0);
	for (const link of changelogLinks)
		expect(link.startsWith(`https://github.com/${repo}/`)).toBe(true);
	// the oldest Node.js of a tested n8n line (scripts/n8n/lines.js LINES)
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { LINES } = require('../../scripts/n8n/lines.js') as {
		LINES: Record<string, { node: number }>;
	};
	expect(pkg.engines.node).toBe(`>=${Math.min(...Object.values(LINES).map((l) => l.node))}`);
});

test('the tarball stays small (the figures of the build it packed are printed)', () => {
	const distBytes = walk('dist').reduce((sum, p) => sum + statSync(join(ROOT, p)).size, 0);
	process.stdout.write(
		`npm pack: ${pack.entryCount} files, ${pack.size} bytes packed, ${pack.unpackedSize} bytes unpacked (dist/: ${distBytes} bytes)\n`,
	);
	expect(pack.entryCount).toBe(packed.length);
	// room for the nodes to grow, none for a picture or source maps (they alone would double it)
	expect(pack.size).toBeLessThan(150_000);
	expect(pack.unpackedSize).toBeLessThan(600_000);
});
