/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: not shipped in the package */
/**
 * scripts/unpack.js places a committed lockfile's packages as `npm install` (--ignore-scripts or not)
 * would. The rules are checked one by one, then a whole unpack of tarballs made here (modes, links,
 * ignore files, bins, nesting, a package of another platform) from a registry of the test's own,
 * which also fails, slows and lies. (The real trees: its output for both n8n lockfiles was compared
 * file by file, size and mode, with npm's — CONTRIBUTING.md → "Where a fresh machine's time goes".)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readlinkSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Job {
	key: string;
	url: string;
	hash: { algorithm: string; digest: string };
}
interface Machine {
	platform: string;
	arch: string;
	libc?: string;
}
type Entry = Record<string, unknown>;
interface Lock {
	name?: string;
	version?: string;
	packages: Record<string, Entry>;
}

// plain CommonJS scripts, run by node before the dev dependencies are installed
/* eslint-disable @typescript-eslint/no-require-imports */
const unpackJs = require('../../../scripts/unpack.js') as {
	gnuTar(): boolean;
	npmNetwork(env: NodeJS.ProcessEnv): Record<string, string>;
	allows(list: string | string[] | undefined, value: string | undefined): boolean;
	plan(lock: Lock, options?: { at?: Machine; registry?: string }): Job[];
	quotedName(line: string): string | undefined;
	adjustment(line: string): Record<string, unknown> | undefined;
	unpack(
		lock: Lock | string,
		root: string,
		options?: {
			registry?: string;
			concurrency?: number;
			at?: Machine;
			retryPausesMs?: number[];
			scripts?: boolean;
		},
	): Promise<{ packages: number; bytes: number }>;
};
/* eslint-enable @typescript-eslint/no-require-imports */
const { allows, plan, quotedName, adjustment, unpack, npmNetwork } = unpackJs;

const LINUX: Machine = { platform: 'linux', arch: 'x64', libc: 'glibc' };
const SHA = 'sha512-AAAA';

describe('which entries are placed, from where', () => {
	test("npm's os/cpu/libc rule: a match, or only negations none of which match", () => {
		expect(allows(undefined, 'linux')).toBe(true);
		expect(allows(['linux', 'darwin'], 'linux')).toBe(true);
		expect(allows(['darwin'], 'linux')).toBe(false);
		expect(allows('linux', 'linux')).toBe(true);
		expect(allows(['!win32'], 'linux')).toBe(true);
		expect(allows(['!linux'], 'linux')).toBe(false);
		expect(allows(['!win32', 'darwin'], 'linux')).toBe(false);
		expect(allows(['any'], 'linux')).toBe(true);
	});

	test('skips the root, links, bundled packages and other platforms; keeps lockfile order', () => {
		const jobs = plan(
			{
				packages: {
					'': { name: 'host' },
					'node_modules/a': { version: '1.0.0', integrity: SHA },
					'node_modules/a/node_modules/b': { version: '2.0.0', integrity: SHA, inBundle: true },
					'node_modules/linked': { resolved: '../x', link: true },
					'node_modules/mac-only': { version: '1.0.0', integrity: SHA, os: ['darwin'] },
					'node_modules/arm-only': { version: '1.0.0', integrity: SHA, cpu: ['arm64'] },
					'node_modules/musl-only': {
						version: '1.0.0',
						integrity: SHA,
						os: ['linux'],
						libc: ['musl'],
					},
					'node_modules/glibc-x64': {
						version: '1.0.0',
						integrity: SHA,
						os: ['linux'],
						cpu: ['x64'],
						libc: ['glibc'],
						extraneous: true,
					},
				},
			},
			{ at: LINUX },
		);
		expect(jobs.map((j) => j.key)).toEqual(['node_modules/a', 'node_modules/glibc-x64']);
	});

	test('tarball addresses: plain, scoped, nested, aliased, resolved, on another registry', () => {
		const jobs = plan(
			{
				packages: {
					'node_modules/a': { version: '1.0.0', integrity: SHA },
					'node_modules/@s/b': { version: '2.0.0', integrity: SHA },
					'node_modules/a/node_modules/@s/b': { version: '3.0.0', integrity: SHA },
					'node_modules/old-cjs': { name: 'new-esm', version: '4.0.0', integrity: SHA },
					'node_modules/r': { version: '5.0.0', integrity: SHA, resolved: 'https://x.test/r.tgz' },
					'node_modules/n': {
						version: '6.0.0',
						integrity: SHA,
						resolved: 'https://registry.npmjs.org/n/-/n-6.0.0.tgz',
					},
				},
			},
			{ at: LINUX, registry: 'https://mirror.test/npm' },
		);
		expect(jobs.map((j) => j.url)).toEqual([
			'https://mirror.test/npm/a/-/a-1.0.0.tgz',
			'https://mirror.test/npm/@s/b/-/b-2.0.0.tgz',
			'https://mirror.test/npm/@s/b/-/b-3.0.0.tgz',
			'https://mirror.test/npm/new-esm/-/new-esm-4.0.0.tgz',
			'https://x.test/r.tgz',
			// npm's own registry in `resolved` means the registry set (npm's replace-registry-host)
			'https://mirror.test/npm/n/-/n-6.0.0.tgz',
		]);
	});

	test('checks against the strongest hash given', () => {
		const [job] = plan(
			{ packages: { 'node_modules/a': { version: '1.0.0', integrity: 'sha1-OLD sha512-NEW' } } },
			{ at: LINUX },
		);
		expect(job.hash).toEqual({ algorithm: 'sha512', digest: 'NEW' });
	});

	test.each([
		[
			'an entry without integrity',
			{ 'node_modules/a': { version: '1.0.0' } },
			/"node_modules\/a" has no integrity/,
		],
		[
			'a key outside node_modules',
			{ 'lib/a': { version: '1.0.0', integrity: SHA } },
			/"lib\/a" is not a path under node_modules/,
		],
		[
			'a key that climbs out',
			{ 'node_modules/../../etc': { version: '1.0.0', integrity: SHA } },
			/is not a path under node_modules/,
		],
	])('refuses %s, naming it', (_what, packages, message) => {
		expect(() => plan({ packages }, { at: LINUX })).toThrow(message);
	});

	test('refuses what is not a lockfile of version 2 or 3', () => {
		expect(() => plan({} as Lock)).toThrow(/not an npm lockfile of version 2 or 3/);
	});
});

describe("what tar's listing asks to adjust", () => {
	test('a common file needs nothing', () => {
		expect(adjustment('-rw-r--r-- 0/0 12 2020-01-01 00:00 "lib/index.js"')).toBeUndefined();
		expect(adjustment('-rwxr-xr-x 0/0 12 2020-01-01 00:00 "bin/cli"')).toBeUndefined();
		expect(adjustment('drwxr-xr-x 0/0 0 2020-01-01 00:00 "lib/"')).toBeUndefined();
	});

	test('modes become at least rw-r--r--, never group- or world-writable, folders rwxr-xr-x', () => {
		expect(adjustment('-rw------- 0/0 1 2020-01-01 00:00 "a"')).toEqual({ name: 'a', mode: 0o644 });
		expect(adjustment('-rwxrwxrwx 0/0 1 2020-01-01 00:00 "b"')).toEqual({ name: 'b', mode: 0o755 });
		expect(adjustment('-rwx------ 0/0 1 2020-01-01 00:00 "c"')).toEqual({ name: 'c', mode: 0o744 });
		expect(adjustment('-rw-rw-r-- 0/0 1 2020-01-01 00:00 "d"')).toEqual({ name: 'd', mode: 0o644 });
		expect(adjustment('drwx------ 0/0 0 2020-01-01 00:00 "e/"')).toEqual({
			name: 'e/',
			mode: 0o755,
		});
	});

	test('links are removed, .gitignore files named', () => {
		expect(adjustment('lrwxrwxrwx 0/0 0 2020-01-01 00:00 "l" -> "a"')).toEqual({ remove: 'l' });
		expect(adjustment('hrw-r--r-- 0/0 0 2020-01-01 00:00 "h" link to "a"')).toEqual({
			remove: 'h',
		});
		expect(adjustment('-rw-r--r-- 0/0 1 2020-01-01 00:00 "x/.gitignore"')).toEqual({
			ignoreFile: 'x/.gitignore',
		});
		expect(adjustment('-rw-r--r-- 0/0 1 2020-01-01 00:00 "not.gitignore"')).toBeUndefined();
	});

	test('C-quoted names: escapes, octal bytes (UTF-8), quotes', () => {
		expect(quotedName('-rw 0/0 "a b\\\\c\\"d\\ne"')).toBe('a b\\c"d\ne');
		expect(quotedName('-rw 0/0 "caf\\303\\251.txt"')).toBe('café.txt');
		expect(quotedName('no quotes')).toBeUndefined();
	});
});

describe('a whole unpack, from a registry of the test’s own', () => {
	const work = mkdtempSync(join(tmpdir(), 'unpack-test-'));
	const tarballs = new Map<string, Buffer>();
	const requests: string[] = [];
	let failNext = new Map<string, number>();
	let server: Server;
	let registry: string;

	/** a tarball of `files` (relative path → content, or a mode/link spec) under `top/` */
	function pack(name: string, build: (dir: string) => void, top = 'package'): Buffer {
		const stage = join(work, `stage-${name.replace(/\W/g, '_')}`);
		rmSync(stage, { recursive: true, force: true });
		mkdirSync(join(stage, top), { recursive: true });
		build(join(stage, top));
		const file = join(work, `${name.replace(/\W/g, '_')}.tgz`);
		// in name order: index.js before its hard link z-hard.js
		execFileSync('tar', ['--sort=name', '-czf', file, '-C', stage, top]);
		return readFileSync(file);
	}
	const sri = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

	let lock: Lock;

	beforeAll(async () => {
		const a = pack('a', (dir) => {
			writeFileSync(join(dir, 'package.json'), '{"name":"a","bin":{"a-cli":"./bin/cli.js"}}');
			writeFileSync(join(dir, 'index.js'), 'module.exports = 1;\n');
			chmodSync(join(dir, 'index.js'), 0o600);
			mkdirSync(join(dir, 'bin'));
			writeFileSync(join(dir, 'bin', 'cli.js'), '#!/usr/bin/env node\n');
			writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
			mkdirSync(join(dir, 'sub'));
			writeFileSync(join(dir, 'sub', '.gitignore'), 'x\n');
			writeFileSync(join(dir, 'sub', '.npmignore'), 'y\n');
			writeFileSync(join(dir, 'group-writable.txt'), 'g\n');
			chmodSync(join(dir, 'group-writable.txt'), 0o664);
			mkdirSync(join(dir, 'private'));
			writeFileSync(join(dir, 'private', 'file name é.txt'), 'p\n');
			chmodSync(join(dir, 'private'), 0o700);
			symlinkSync('index.js', join(dir, 'link.js'));
			linkSync(join(dir, 'index.js'), join(dir, 'z-hard.js'));
		});
		// a top folder that is not "package", nested under a
		const b = pack('@s/b', (dir) => writeFileSync(join(dir, 'b.js'), 'b\n'), 'b-3.0.0');
		// a bin name a has already, and an install script
		const c = pack('c', (dir) => {
			writeFileSync(join(dir, 'c.js'), 'c\n');
			writeFileSync(join(dir, 'c-cli.js'), '#!/usr/bin/env node\n');
			writeFileSync(
				join(dir, 'package.json'),
				JSON.stringify({
					name: 'c',
					version: '2.0.0',
					bin: { 'a-cli': 'c-cli.js' },
					scripts: { install: "node -e \"require('fs').writeFileSync('installed.txt', 'yes')\"" },
				}),
			);
		});
		tarballs.set('/a/-/a-1.0.0.tgz', a);
		tarballs.set('/@s/b/-/b-3.0.0.tgz', b);
		tarballs.set('/c/-/c-2.0.0.tgz', c);
		lock = {
			name: 'host',
			version: '1.2.3',
			packages: {
				'': { name: 'host', dependencies: { a: '1.0.0' } },
				'node_modules/a': { version: '1.0.0', integrity: sri(a), bin: { 'a-cli': 'bin/cli.js' } },
				'node_modules/a/node_modules/@s/b': { version: '3.0.0', integrity: sri(b) },
				'node_modules/c': {
					version: '2.0.0',
					integrity: sri(c),
					bin: { 'a-cli': 'c-cli.js' },
					hasInstallScript: true,
				},
				'node_modules/mac-only': {
					version: '1.0.0',
					integrity: SHA,
					os: ['darwin'],
					optional: true,
				},
			},
		};
		server = createServer((req, res) => {
			const url = req.url ?? '';
			requests.push(url);
			const failures = failNext.get(url) ?? 0;
			if (failures > 0) {
				failNext.set(url, failures - 1);
				res.writeHead(503).end();
				return;
			}
			const body = tarballs.get(url);
			if (!body) {
				res.writeHead(404).end();
				return;
			}
			res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	});

	afterAll(async () => {
		await new Promise((resolve) => server.close(resolve));
		rmSync(work, { recursive: true, force: true });
	});

	beforeEach(() => {
		requests.length = 0;
		failNext = new Map();
	});

	const mode = (file: string) => statSync(file).mode & 0o777;

	test('places each package as npm would', async () => {
		expect(unpackJs.gnuTar()).toBe(true);
		const root = join(work, 'tree');
		const summary = await unpack(lock, root, { registry, concurrency: 2, at: LINUX });
		expect(summary.packages).toBe(3);
		expect([...requests].sort()).toEqual([
			'/@s/b/-/b-3.0.0.tgz',
			'/a/-/a-1.0.0.tgz',
			'/c/-/c-2.0.0.tgz',
		]);

		const a = join(root, 'node_modules', 'a');
		expect(readFileSync(join(a, 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
		expect(mode(join(a, 'index.js'))).toBe(0o644);
		expect(mode(join(a, 'group-writable.txt'))).toBe(0o644);
		expect(mode(join(a, 'private'))).toBe(0o755);
		expect(readFileSync(join(a, 'private', 'file name é.txt'), 'utf8')).toBe('p\n');
		// link entries are not extracted; the hard link's first name is
		expect(existsSync(join(a, 'link.js'))).toBe(false);
		expect(existsSync(join(a, 'z-hard.js'))).toBe(false);
		// .gitignore → .npmignore, unless there is one
		expect(existsSync(join(a, '.gitignore'))).toBe(false);
		expect(readFileSync(join(a, '.npmignore'), 'utf8')).toBe('node_modules\n');
		expect(existsSync(join(a, 'sub', '.gitignore'))).toBe(false);
		expect(readFileSync(join(a, 'sub', '.npmignore'), 'utf8')).toBe('y\n');
		// the bin, linked and executable; a later package's bin of the same name executable, not linked
		expect(readlinkSync(join(root, 'node_modules', '.bin', 'a-cli'))).toBe('../a/bin/cli.js');
		expect(mode(join(a, 'bin', 'cli.js'))).toBe(0o755);
		expect(mode(join(root, 'node_modules', 'c', 'c-cli.js'))).toBe(0o755);
		// no install script ran
		expect(existsSync(join(root, 'node_modules', 'c', 'installed.txt'))).toBe(false);
		// nested, from a tarball whose top folder is not "package"
		expect(readFileSync(join(a, 'node_modules', '@s', 'b', 'b.js'), 'utf8')).toBe('b\n');
		expect(existsSync(join(root, 'node_modules', 'mac-only'))).toBe(false);
		// npm's hidden lockfile: what was placed
		const hidden = JSON.parse(
			readFileSync(join(root, 'node_modules', '.package-lock.json'), 'utf8'),
		) as Lock;
		expect(hidden.version).toBe('1.2.3');
		expect(Object.keys(hidden.packages)).toEqual([
			'node_modules/a',
			'node_modules/a/node_modules/@s/b',
			'node_modules/c',
		]);
	});

	test('with scripts, the install scripts run (npm rebuild), as npm install runs them', async () => {
		const root = join(work, 'scripted');
		mkdirSync(root, { recursive: true });
		writeFileSync(join(root, 'package.json'), '{"name":"host","version":"1.2.3","private":true}');
		await unpack(lock, root, { registry, at: LINUX, scripts: true });
		expect(readFileSync(join(root, 'node_modules', 'c', 'installed.txt'), 'utf8')).toBe('yes');
	});

	test('a registry that fails for a moment is asked again', async () => {
		failNext.set('/c/-/c-2.0.0.tgz', 1);
		const root = join(work, 'retried');
		await unpack(lock, root, { registry, at: LINUX });
		expect(requests.filter((r) => r === '/c/-/c-2.0.0.tgz')).toHaveLength(2);
		expect(readFileSync(join(root, 'node_modules', 'c', 'c.js'), 'utf8')).toBe('c\n');
	});

	test('a package asked again keeps the packages placed inside it meanwhile', async () => {
		failNext.set('/a/-/a-1.0.0.tgz', 1);
		const root = join(work, 'retried-parent');
		await unpack(lock, root, { registry, at: LINUX, concurrency: 3, retryPausesMs: [300] });
		expect(requests.filter((r) => r === '/a/-/a-1.0.0.tgz')).toHaveLength(2);
		expect(readFileSync(join(root, 'node_modules', 'a', 'index.js'), 'utf8')).toBe(
			'module.exports = 1;\n',
		);
		expect(
			readFileSync(join(root, 'node_modules', 'a', 'node_modules', '@s', 'b', 'b.js'), 'utf8'),
		).toBe('b\n');
	});

	test('a package the registry does not have fails the unpack, naming it', async () => {
		const root = join(work, 'missing');
		const missing: Lock = {
			packages: { ...lock.packages, 'node_modules/d': { version: '1.0.0', integrity: SHA } },
		};
		await expect(unpack(missing, root, { registry, at: LINUX })).rejects.toThrow(
			/unpacking node_modules\/d: GET .*\/d\/-\/d-1\.0\.0\.tgz: HTTP 404/,
		);
		expect(requests.filter((r) => r.startsWith('/d/'))).toHaveLength(1);
		expect(existsSync(join(root, 'node_modules', '.package-lock.json'))).toBe(false);
	});

	test('a tarball that is not the one the lockfile names fails the unpack', async () => {
		const root = join(work, 'tampered');
		const tampered: Lock = {
			packages: {
				...lock.packages,
				'node_modules/c': { version: '2.0.0', integrity: sri(Buffer.from('another tarball')) },
			},
		};
		await expect(unpack(tampered, root, { registry, at: LINUX })).rejects.toThrow(
			/unpacking node_modules\/c: .* is not the lockfile's .*\(a changed or corrupted download\)/,
		);
		expect(existsSync(join(root, 'node_modules', '.package-lock.json'))).toBe(false);
	});

	test('a registry that cannot be reached fails the unpack with the reason, after three tries', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const started = Date.now();
		await expect(
			unpack(lock, join(work, 'unreachable'), {
				registry: `http://127.0.0.1:${port}/`,
				at: LINUX,
				retryPausesMs: [50, 50],
			}),
		).rejects.toThrow(
			/unpacking node_modules\/\S+: GET http:\/\/127\.0\.0\.1:\d+\/\S+: fetch failed \(ECONNREFUSED\)/,
		);
		expect(Date.now() - started).toBeGreaterThanOrEqual(100);
	});

	test('what an earlier unpack left is replaced, not merged', async () => {
		const root = join(work, 'again');
		mkdirSync(join(root, 'node_modules', 'stale'), { recursive: true });
		await unpack(lock, root, { registry, at: LINUX });
		expect(existsSync(join(root, 'node_modules', 'stale'))).toBe(false);
	});
});

describe("the unpack reaches the registry as npm's settings say", () => {
	const without = (env: NodeJS.ProcessEnv, ...names: string[]) =>
		Object.fromEntries(Object.entries(env).filter(([k]) => !names.includes(k)));

	test('a mirror, a certificate authority, a proxy and strict-ssl off become Node.js settings', () => {
		const env = {
			...without(process.env, 'NODE_EXTRA_CA_CERTS'),
			npm_config_registry: 'https://mirror.test/npm/',
			npm_config_cafile: '/etc/test-ca.pem',
			npm_config_https_proxy: 'http://proxy.test:3128',
			npm_config_noproxy: 'localhost,127.0.0.1',
			npm_config_strict_ssl: 'false',
		};
		const caFile = env.npm_config_cafile;
		expect(npmNetwork(env)).toEqual({
			npm_config_registry: 'https://mirror.test/npm/',
			NODE_EXTRA_CA_CERTS: caFile,
			HTTPS_PROXY: 'http://proxy.test:3128',
			HTTP_PROXY: 'http://proxy.test:3128',
			NO_PROXY: 'localhost,127.0.0.1',
			NODE_USE_ENV_PROXY: '1',
			NODE_TLS_REJECT_UNAUTHORIZED: '0',
		});
	});

	test('certificate authorities Node.js is already given are kept', () => {
		const env = {
			...process.env,
			NODE_EXTRA_CA_CERTS: '/etc/mine.pem',
			npm_config_cafile: '/etc/test-ca.pem',
		};
		expect(npmNetwork(env).NODE_EXTRA_CA_CERTS).toBeUndefined();
	});
});
