/**
 * Places every package of a committed npm lockfile (v2 or v3) at its path under a folder: the tree
 * `npm install` makes from that lockfile, without npm's work per file. ./dev installs the dev
 * dependencies with it on a fresh clone (1,262 packages: about 13 s, against npm's 60 to 90 s),
 * and scripts/n8n/install.js each tested n8n line (n8n 2.x: 2,363 packages, 2.9 GB, about 30 s and
 * 55 CPU-seconds on an idle 2-core machine against npm's 3 minutes and 195 CPU-seconds); a fresh
 * test run spends the difference on its tests. Where it cannot (tar is not GNU tar, the registry
 * is out of reach, a download is not the lockfile's), it fails, and its caller runs npm instead.
 *
 * What npm 11 does with a lockfile, and so this:
 * - every entry but the root, links (`link`) and packages inside another's tarball (`inBundle`) is
 *   placed at its key (`node_modules/a/node_modules/b`), except one whose `os`, `cpu` or `libc` does
 *   not match this machine (npm skips those, optional or not);
 * - its tarball comes from `resolved`, else from the registry npm is set to use
 *   (`npmNetwork()`: npm's registry, certificate authorities, proxy and strict-ssl settings):
 *   `<name>/-/<name without scope>-<version>.tgz`, `name` being the entry's own for an alias. It
 *   is checked against the entry's `integrity` (the strongest hash given) as it streams; a mismatch
 *   fails the whole unpack;
 * - the tarball's top folder, whatever its name, is stripped (tar --strip-components=1);
 * - what npm's extraction changes (pacote): link entries (symbolic or hard) are not extracted;
 *   a `.gitignore` becomes `.npmignore` unless the folder has one (then it is dropped); files are
 *   at least rw-r--r-- and never group- or world-writable, folders rwxr-xr-x (umask 022); the
 *   files a package names as its bins are executable;
 * - each `bin` is linked into `.bin` of the node_modules folder holding the package
 *   (`../<package>/<file>`, the first package in lockfile order winning a name);
 * - `node_modules/.package-lock.json` lists the entries placed (npm's hidden lockfile, which tells
 *   npm later that the tree is whole);
 * - install scripts: with `--scripts`, `npm rebuild` runs those of the packages that have them
 *   (`hasInstallScript`), as `npm install` would; without, none run (`npm install
 *   --ignore-scripts`: scripts/n8n/install.js rebuilds the native modules n8n needs itself).
 * The extraction is the system's tar, whose verbose listing tells what to adjust; the folder's
 * node_modules is removed first, so a failed unpack leaves nothing that looks whole. The trees it
 * made from the committed lockfiles (the dev dependencies, both n8n lines) were compared with
 * npm's file by file — path, size, mode, link — and were the same but for what a native build
 * writes (CONTRIBUTING.md → "Moving to a new n8n version" says how to compare).
 *
 *   node scripts/unpack.js [--scripts] [--concurrency=16] <lockfile> <folder>
 *
 * Plain CommonJS, Node built-ins only (it runs before the dev dependencies are installed).
 */
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';
const NM = 'node_modules/';
/** tries per tarball, and the pause before each retry */
const RETRY_PAUSES_MS = [1_000, 4_000];
/** one tarball's download, however slow the registry */
const TARBALL_TIMEOUT_MS = 180_000;

/** Whether this machine's `tar` is GNU tar (the options used here are GNU's). */
function gnuTar() {
	const version = spawnSync('tar', ['--version'], { encoding: 'utf8' });
	return version.status === 0 && /GNU tar/.test(version.stdout);
}

/** npm's rule for `os`/`cpu`/`libc` lists: a match, or only negations none of which match. */
function allows(list, value) {
	if (list === undefined) return true;
	const entries = typeof list === 'string' ? [list] : list;
	if (entries.length === 1 && entries[0] === 'any') return true;
	let negations = 0;
	let match = false;
	for (const entry of entries) {
		if (entry.startsWith('!')) {
			negations++;
			if (entry.slice(1) === value) return false;
		} else if (entry === value) match = true;
	}
	return match || negations === entries.length;
}

function machine() {
	const glibc =
		process.platform === 'linux' && process.report.getReport().header.glibcVersionRuntime;
	return {
		platform: process.platform,
		arch: process.arch,
		libc: process.platform !== 'linux' ? undefined : glibc ? 'glibc' : 'musl',
	};
}

/** The package name an entry holds: its own `name` (an alias), else the last one in its key. */
function nameOf(key, entry) {
	return entry.name ?? key.slice(key.lastIndexOf(NM) + NM.length);
}

/** The strongest hash of an SRI `integrity` (several may be given, space-separated). */
function strongest(integrity) {
	const order = ['sha512', 'sha384', 'sha256', 'sha1'];
	const hashes = String(integrity ?? '')
		.split(/\s+/)
		.map((h) => /^(sha\d+)-(.+)$/.exec(h))
		.filter((m) => m && order.includes(m[1]))
		.sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]));
	return hashes.length ? { algorithm: hashes[0][1], digest: hashes[0][2] } : undefined;
}

/**
 * What an unpack of `lock` places on `at` (a machine: platform, arch, libc): one job per package,
 * in lockfile order: its key, tarball address, expected hash and bins.
 */
function plan(lock, { at = machine(), registry = DEFAULT_REGISTRY } = {}) {
	if (!lock || typeof lock.packages !== 'object')
		throw new Error('not an npm lockfile of version 2 or 3: it has no "packages"');
	const base = registry.endsWith('/') ? registry : `${registry}/`;
	const jobs = [];
	for (const [key, entry] of Object.entries(lock.packages)) {
		if (key === '' || entry.link || entry.inBundle) continue;
		if (!key.startsWith(NM) || key.split('/').some((part) => part === '..' || part === ''))
			throw new Error(`lockfile entry "${key}" is not a path under node_modules/`);
		if (
			!allows(entry.os, at.platform) ||
			!allows(entry.cpu, at.arch) ||
			(entry.libc !== undefined && !allows(entry.libc, at.libc))
		)
			continue;
		const hash = strongest(entry.integrity);
		if (!hash) throw new Error(`lockfile entry "${key}" has no integrity to check it against`);
		const name = nameOf(key, entry);
		// a `resolved` on npm's own registry goes to the one set instead, as npm's default
		// replace-registry-host=npmjs does
		const url = entry.resolved
			? entry.resolved.replace(/^https:\/\/registry\.npmjs\.org\//, base)
			: `${base}${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
		jobs.push({ key, url, hash, bin: entry.bin ?? {}, entry });
	}
	return jobs;
}

/** The first C-quoted string of a line of tar's listing (--quoting-style=c), unquoted. */
function quotedName(line) {
	const start = line.indexOf('"');
	if (start < 0) return undefined;
	const bytes = [];
	const simple = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, '"': 34, '?': 63 };
	for (let i = start + 1; i < line.length; i++) {
		const c = line[i];
		if (c === '"') return Buffer.from(bytes).toString('utf8');
		if (c !== '\\') {
			bytes.push(...Buffer.from(c, 'utf8'));
			continue;
		}
		const next = line[++i];
		if (/[0-7]/.test(next)) {
			const octal = /^[0-7]{1,3}/.exec(line.slice(i))[0];
			bytes.push(parseInt(octal, 8));
			i += octal.length - 1;
		} else bytes.push(simple[next] ?? next.charCodeAt(0));
	}
	return undefined;
}

/** npm's mode for an extracted file: at least rw-r--r--, never group- or world-writable. */
const npmFileMode = (mode) => (mode | 0o644) & ~0o022;

/**
 * What a line of tar's verbose listing asks of the folder after extraction, as npm's extraction
 * would have it: undefined for nothing, else `{ remove }`, `{ ignoreFile }` or `{ name, mode }`,
 * with the entry's path (already without its top folder: --show-transformed-names). The common
 * line, a file of rw-r--r-- or rwxr-xr-x, is answered without reading its name.
 */
function adjustment(line) {
	const type = line[0];
	const perms = line.slice(1, 10);
	if (type === '-') {
		if (line.endsWith('.gitignore"')) {
			const file = quotedName(line);
			return path.posix.basename(file ?? '') === '.gitignore' ? { ignoreFile: file } : undefined;
		}
		// at least rw-r--r--, never group- or world-writable (the execute bits kept)
		if (/^rw.r-.r-.$/.test(perms)) return undefined;
		let mode = 0;
		for (let i = 0; i < 9; i++) if (!'-ST'.includes(perms[i])) mode |= 1 << (8 - i);
		return { name: quotedName(line), mode: npmFileMode(mode) };
	}
	if (type === 'h' || type === 'l') return { remove: quotedName(line) };
	if (type === 'd' && perms !== 'rwxr-xr-x') return { name: quotedName(line), mode: 0o755 };
	return undefined;
}

/** Streams `url` into tar in `dir`, checking its hash; resolves to the adjustments tar listed. */
async function extract(url, hash, dir) {
	const response = await fetch(url, { signal: AbortSignal.timeout(TARBALL_TIMEOUT_MS) }).catch(
		(error) => {
			// undici says "fetch failed"; why is in its cause (a refused TLS certificate, a DNS error …)
			const why = error.cause?.code ?? error.cause?.message ?? error.name;
			throw new Error(`GET ${url}: ${error.message}${why ? ` (${why})` : ''}`, { cause: error });
		},
	);
	if (!response.ok) {
		const error = new Error(`GET ${url}: HTTP ${response.status}`);
		error.retry = response.status >= 500 || response.status === 429;
		throw error;
	}
	const tar = spawn(
		'tar',
		[
			'-xzvvf',
			'-',
			'--strip-components=1',
			'--show-transformed-names',
			'--quoting-style=c',
			'--no-same-owner',
			'--numeric-owner',
			'--no-same-permissions',
			'-C',
			dir,
		],
		{ stdio: ['pipe', 'pipe', 'pipe'] },
	);
	const adjustments = [];
	let pending = '';
	let stderr = '';
	tar.stdout.setEncoding('utf8');
	tar.stdout.on('data', (text) => {
		const lines = (pending + text).split('\n');
		pending = lines.pop();
		for (const line of lines) {
			const a = adjustment(line);
			if (a) adjustments.push(a);
		}
	});
	tar.stderr.on('data', (text) => (stderr += text));
	const closed = new Promise((resolve, reject) => {
		tar.on('error', reject);
		tar.on('close', resolve);
	});
	// awaited below, unless the download fails first (then tar's end is not this tarball's news)
	closed.catch(() => {});
	// tar exiting early (a broken archive) must not leave the download hanging on a full pipe
	tar.stdin.on('error', () => {});
	const hasher = crypto.createHash(hash.algorithm);
	let bytes = 0;
	try {
		for await (const chunk of response.body) {
			hasher.update(chunk);
			bytes += chunk.length;
			if (!tar.stdin.write(chunk) && tar.exitCode === null)
				await new Promise((resolve) => {
					const go = () => {
						tar.stdin.off('drain', go);
						tar.off('close', go);
						resolve();
					};
					tar.stdin.on('drain', go);
					tar.on('close', go);
				});
		}
	} finally {
		tar.stdin.end();
	}
	const code = await closed;
	if (pending) {
		const a = adjustment(pending);
		if (a) adjustments.push(a);
	}
	const digest = hasher.digest('base64');
	if (digest !== hash.digest) {
		const error = new Error(
			`${url}: ${hash.algorithm} ${digest} is not the lockfile's ${hash.digest} (a changed or corrupted download)`,
		);
		error.retry = false;
		throw error;
	}
	if (code !== 0)
		throw new Error(`tar could not extract ${url} (exit ${code}): ${stderr.trim().slice(-500)}`);
	return { adjustments, bytes };
}

/** `name` inside `dir`, or undefined for an empty, absolute or escaping name (tar skips those). */
function inside(dir, name) {
	if (!name || path.isAbsolute(name) || name.split('/').includes('..')) return undefined;
	return path.join(dir, name);
}

/** Makes `dir` look as npm's extraction leaves it (see the header), from tar's listing. */
function adjust(dir, adjustments) {
	for (const a of adjustments) {
		if (a.remove !== undefined) {
			const link = inside(dir, a.remove);
			if (link) fs.rmSync(link, { force: true });
		} else if (a.ignoreFile !== undefined) {
			const file = inside(dir, a.ignoreFile);
			if (!file || !fs.existsSync(file)) continue;
			const npmignore = path.join(path.dirname(file), '.npmignore');
			if (fs.existsSync(npmignore)) fs.rmSync(file);
			else {
				fs.renameSync(file, npmignore);
				fs.chmodSync(npmignore, npmFileMode(fs.statSync(npmignore).mode & 0o777));
			}
		} else {
			const entry = inside(dir, a.name);
			if (entry && fs.existsSync(entry)) fs.chmodSync(entry, a.mode);
		}
	}
}

/**
 * Links each job's bins into its node_modules folder's .bin (lockfile order: the first wins a
 * name) and makes every bin file executable (npm's extraction does, linked or not).
 */
function linkBins(root, jobs) {
	const taken = new Set();
	for (const job of jobs) {
		const parent = job.key.slice(0, job.key.lastIndexOf(NM) + NM.length - 1);
		const own = job.key.slice(parent.length + 1);
		for (const [name, file] of Object.entries(job.bin)) {
			const target = path.join(root, job.key, path.normalize(file));
			if (!inside(path.join(root, job.key), path.posix.normalize(file)) || !fs.existsSync(target))
				continue;
			fs.chmodSync(target, fs.statSync(target).mode | 0o111);
			const bin = path.posix.join(parent, '.bin', name);
			if (name.includes('/') || taken.has(bin)) continue;
			taken.add(bin);
			fs.mkdirSync(path.join(root, parent, '.bin'), { recursive: true });
			fs.rmSync(path.join(root, bin), { force: true });
			fs.symlinkSync(path.posix.join('..', own, path.posix.normalize(file)), path.join(root, bin));
		}
	}
}

/**
 * What a download outside npm needs to reach the registry the way npm does, from npm's own
 * settings (the user's and the global npmrc, the environment): the registry (a mirror, say), the
 * certificate authorities (`cafile`: a machine whose TLS goes through a proxy of its own trusts
 * that proxy's CA there), a proxy, and `strict-ssl`; as environment variables for a Node.js
 * process (Node reads the CA and proxy ones when it starts: the CLI below starts itself again
 * with them).
 */
function npmNetwork(env = process.env) {
	const keys = ['registry', 'cafile', 'https-proxy', 'proxy', 'noproxy', 'strict-ssl'];
	const got = spawnSync('npm', ['config', 'get', ...keys], { env, encoding: 'utf8' });
	if (got.status !== 0) return {};
	const settings = Object.fromEntries(
		got.stdout
			.split('\n')
			.map((line) => /^([\w-]+)=(.*)$/.exec(line.trim()))
			.filter((m) => m && m[2] !== '' && m[2] !== 'null' && m[2] !== 'undefined')
			.map((m) => [m[1], m[2]]),
	);
	const out = {};
	if (settings.registry) out.npm_config_registry = settings.registry;
	if (settings.cafile && !env.NODE_EXTRA_CA_CERTS) out.NODE_EXTRA_CA_CERTS = settings.cafile;
	const proxy = settings['https-proxy'] ?? settings.proxy;
	if (proxy) {
		out.HTTPS_PROXY = out.HTTP_PROXY = proxy;
		if (settings.noproxy) out.NO_PROXY = settings.noproxy;
		out.NODE_USE_ENV_PROXY = '1';
	}
	if (settings['strict-ssl'] === 'false') out.NODE_TLS_REJECT_UNAUTHORIZED = '0';
	return out;
}

/**
 * Unpacks `lock` (an object, or a lockfile's path) into `root`; resolves to a summary.
 * `registry` defaults to npm's setting in the environment, else registry.npmjs.org; `scripts` runs
 * the install scripts (see the header); `retryPausesMs` are the pauses before each new try of a
 * tarball (1 s, then 4 s).
 */
async function unpack(lockOrPath, root, options = {}) {
	const started = Date.now();
	const lock =
		typeof lockOrPath === 'string' ? JSON.parse(fs.readFileSync(lockOrPath, 'utf8')) : lockOrPath;
	const registry = options.registry ?? process.env.npm_config_registry ?? DEFAULT_REGISTRY;
	if (!gnuTar()) throw new Error("this machine's tar is not GNU tar (its options are GNU's)");
	const jobs = plan(lock, { at: options.at, registry });
	const concurrency = Math.max(1, options.concurrency ?? 16);
	const pauses = options.retryPausesMs ?? RETRY_PAUSES_MS;
	const previousUmask = process.umask(0o022);
	fs.rmSync(path.join(root, 'node_modules'), { recursive: true, force: true });
	let next = 0;
	let bytes = 0;
	let failed;
	const worker = async () => {
		while (!failed && next < jobs.length) {
			const job = jobs[next++];
			const dir = path.join(root, job.key);
			for (let attempt = 0; ; attempt++) {
				try {
					// not emptied before a new try: what a failed try left is this same tarball's (the next
					// try writes it again), and the packages nested in it may be placed already
					fs.mkdirSync(dir, { recursive: true });
					const result = await extract(job.url, job.hash, dir);
					adjust(dir, result.adjustments);
					bytes += result.bytes;
					break;
				} catch (error) {
					if (error.retry === false || attempt >= pauses.length || failed) {
						failed ??= new Error(`unpacking ${job.key}: ${error.message}`, { cause: error });
						return;
					}
					await new Promise((resolve) => setTimeout(resolve, pauses[attempt]));
				}
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: concurrency }, worker));
		if (failed) throw failed;
		linkBins(root, jobs);
		if (options.scripts) {
			const names = [
				...new Set(jobs.filter((j) => j.entry.hasInstallScript).map((j) => nameOf(j.key, {}))),
			];
			if (names.length) {
				const rebuilt = spawnSync('npm', ['rebuild', ...names], { cwd: root, encoding: 'utf8' });
				if (rebuilt.status !== 0)
					throw new Error(
						`npm rebuild ${names.join(' ')} failed: ${(rebuilt.stderr || rebuilt.stdout).trim().slice(-1500)}`,
					);
			}
		}
		const hidden = {
			name: lock.name,
			version: lock.version,
			lockfileVersion: 3,
			requires: true,
			packages: Object.fromEntries(jobs.map((job) => [job.key, job.entry])),
		};
		fs.writeFileSync(
			path.join(root, 'node_modules', '.package-lock.json'),
			`${JSON.stringify(hidden, null, 2)}\n`,
		);
	} finally {
		process.umask(previousUmask);
	}
	return { packages: jobs.length, bytes, seconds: (Date.now() - started) / 1000 };
}

module.exports = { gnuTar, allows, plan, quotedName, adjustment, npmNetwork, unpack };

if (require.main === module) {
	const args = process.argv.slice(2);
	const [lockPath, root] = args.filter((a) => !a.startsWith('--'));
	const concurrency = Number(
		/^--concurrency=(\d+)$/.exec(args.find((a) => a.startsWith('--concurrency=')) ?? '')?.[1] ?? 16,
	);
	if (!lockPath || !root) {
		console.error(
			'usage: node scripts/unpack.js [--scripts] [--concurrency=16] <lockfile> <folder>',
		);
		process.exit(2);
	}
	if (process.env.SENTIONE_UNPACK_NETWORK !== '1') {
		// again, with npm's network settings in the environment Node.js reads when it starts
		const env = { ...process.env, ...npmNetwork(), SENTIONE_UNPACK_NETWORK: '1' };
		const child = spawnSync(process.execPath, [__filename, ...args], { stdio: 'inherit', env });
		process.exit(child.status ?? 1);
	}
	unpack(lockPath, root, { concurrency, scripts: args.includes('--scripts') }).then(
		(summary) => console.log(JSON.stringify(summary)),
		(error) => {
			console.error(error.message);
			process.exit(1);
		},
	);
}
