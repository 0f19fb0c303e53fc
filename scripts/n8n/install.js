/**
 * Installing what the end-to-end tests and the demo run: a real n8n of each tested line, the
 * Node.js it runs on, and Debian packages (Chromium for the editor test, Redis and PostgreSQL for
 * the queue tier). Each install runs once across processes (`installOnce`: parallel jest workers,
 * CI steps, a background install ./dev started) and leaves a `.complete` marker only when whole.
 *
 * - `ensureN8n(target)` installs a line's n8n into `<cache>/n8n-<version>` (scripts/n8n/lines.js)
 *   with the line's Node.js; later calls return at once. The recipe works where only the npm
 *   registry is reachable: the committed lockfile of the version (scripts/n8n/locks/: the same tree
 *   everywhere) placed by scripts/unpack.js — the tree `npm install --ignore-scripts` makes from
 *   it (no install scripts: some optional native modules try to download binaries), in a fifth of
 *   npm's time — or, for a version without a lockfile yet, npm itself (with the overrides for
 *   packages the registry lacks or that come from outside it); then the two native modules n8n
 *   needs: isolated-vm (its prebuilt binary) and sqlite3, compiled from source with node-gyp —
 *   against the headers of the Node.js doing the build (`npm_config_nodedir`), never the user's
 *   npm settings or a header download. The sqlite3 compile (at -O1: about 40 s) runs beside the
 *   download of n8n, in a folder of its own, and its binary is copied in.
 * - `nodeBinary(major)` the Node.js of a major version (`npm install node@<major>`, the npm
 *   registry's Node.js builds, like scripts/node24.sh) when that is not the Node running this.
 * - `installPackage(userFolder)` installs this package into an n8n user folder exactly like a
 *   community-package install (`.n8n/nodes/node_modules/n8n-nodes-sentione`); `newUserFolder()`
 *   starts one from a copy of a database n8n has migrated (once per version: `userTemplate()`).
 * - `aptInstall(packages)` installs Debian packages (as root, or through sudo), one apt at a time.
 *
 *   node scripts/n8n/install.js n8n:2.x n8n:1.x apt:chromium apt:redis-server,postgresql
 *   node scripts/n8n/install.js --background n8n:2.x+n8n:1.x apt:chromium
 *
 * installs those now, one after the other, or (`--background`) starts each group that is not done
 * yet as a detached process (`a+b`: a, then b) logging to `<cache>/logs/` and returns at once:
 * ./dev and .ci/run start them before anything else, and whoever needs one (`ensureN8n`,
 * `ensureChromium` …) waits for it through the install's lock.
 * Plain CommonJS, Node built-ins only.
 */
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ROOT, PACKAGE_NAME, target, cacheBase, cacheRoot, n8nBin, log } = require('./lines');

function run(cmd, args, options) {
	const started = Date.now();
	const result = spawnSync(cmd, args, {
		stdio: ['ignore', 'pipe', 'pipe'],
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
		...options,
	});
	if (result.status !== 0) {
		throw new Error(
			`${cmd} ${args.join(' ')} failed (${result.status ?? result.signal ?? result.error}):\n${(result.stderr || '').slice(-4000)}\n${(result.stdout || '').slice(-2000)}`,
		);
	}
	return { ...result, seconds: Math.round((Date.now() - started) / 1000) };
}

const pause = (seconds) => spawnSync('sleep', [String(seconds)]);

/**
 * Runs `work` once per folder across processes: the first caller takes `<dir>/.installing` and
 * runs it; the others wait (up to 30 minutes) until `done()` holds or the holder is gone. Returns
 * whether this caller did the work.
 */
function installOnce(dir, done, work) {
	fs.mkdirSync(dir, { recursive: true });
	const lock = path.join(dir, '.installing');
	const waitUntil = Date.now() + 30 * 60 * 1000;
	for (;;) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch {
			let holder = 0;
			try {
				holder = Number(fs.readFileSync(lock, 'utf8'));
			} catch {
				continue; // released meanwhile
			}
			let alive = false;
			try {
				process.kill(holder, 0);
				alive = holder > 0;
			} catch {}
			if (!alive) {
				fs.rmSync(lock, { force: true });
				continue;
			}
			if (Date.now() > waitUntil)
				throw new Error(`timed out waiting for another install into ${dir}`);
			pause(2);
			if (done()) return false;
		}
	}
	try {
		if (done()) return false;
		work();
		return true;
	} finally {
		fs.rmSync(lock, { force: true });
	}
}

function majorOf(version) {
	return Number(String(version).replace(/^v/, '').split('.')[0]);
}

/**
 * The Node.js binary of a major version: the one running this script when it is that major,
 * else `node@<major>` from the npm registry, installed once into `<cache>/node-<major>`.
 */
function nodeBinary(major) {
	if (majorOf(process.versions.node) === major) return process.execPath;
	const dir = path.join(cacheBase(), `node-${major}`);
	const bin = path.join(dir, 'node_modules', 'node', 'bin', 'node');
	const marker = path.join(dir, '.complete');
	const done = () => fs.existsSync(marker) && fs.existsSync(bin);
	if (done()) return bin;
	installOnce(dir, done, () => {
		log(`installing Node.js ${major} into ${dir} (npm install node@${major}) ...`);
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify({ name: `node${major}-holder`, private: true }),
		);
		const install = run('npm', ['install', '--no-audit', '--no-fund', `node@${major}`], {
			cwd: dir,
			env: { ...process.env, npm_config_yes: 'true' },
		});
		const version = run(bin, ['--version'], {}).stdout.trim();
		if (majorOf(version) !== major) throw new Error(`npm install node@${major} gave ${version}`);
		log(`Node.js ${version} installed in ${install.seconds} s`);
		fs.writeFileSync(marker, new Date().toISOString());
	});
	return bin;
}

/** PATH with a Node.js binary's folder first, so `node`/`npm` children run on that Node. */
function pathWith(nodeBin, envPath = process.env.PATH || '') {
	return `${path.dirname(nodeBin)}${path.delimiter}${envPath}`;
}

/**
 * The folder holding `include/node/` of a Node.js binary, when its headers are there and of its
 * own version: the npm registry's Node.js (`node_modules/node/bin/node`, headers in
 * `node_modules/node/node_modules/node-<platform>-<arch>/`), or an installed prefix (`/usr`).
 */
function nodeHeaders(nodeBin) {
	const major = majorOf(run(nodeBin, ['-p', 'process.versions.node']).stdout.trim());
	const real = fs.realpathSync(nodeBin);
	const candidates = [
		path.resolve(
			path.dirname(nodeBin),
			'..',
			'node_modules',
			`node-${process.platform}-${process.arch}`,
		),
		path.resolve(path.dirname(real), '..'),
	];
	for (const dir of candidates) {
		const header = path.join(dir, 'include', 'node', 'node_version.h');
		if (!fs.existsSync(header)) continue;
		const m = /#define NODE_MAJOR_VERSION (\d+)/.exec(fs.readFileSync(header, 'utf8'));
		if (m && Number(m[1]) === major) return dir;
	}
	return undefined;
}

/**
 * The environment npm runs in for an install with `nodeBin`: that Node.js first on PATH (so
 * native modules are built for it) and node-gyp pointed at its own headers, whatever the user's
 * npm settings say (a `nodedir` in ~/.npmrc for another Node, or none: node-gyp would download
 * headers from the internet).
 */
function buildEnv(nodeBin) {
	const env = {
		...process.env,
		PATH: pathWith(nodeBin),
		npm_config_yes: 'true',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		// node-gyp's make: both cores for the C++ files beside sqlite's one big C file
		JOBS: 'max',
	};
	const headers = nodeHeaders(nodeBin);
	if (headers) env.npm_config_nodedir = headers;
	else log(`no headers found beside ${nodeBin}: node-gyp uses its own settings`);
	return env;
}

/**
 * The committed npm lockfile of an n8n version's install (scripts/n8n/locks/): the exact tree the
 * tests run on. A new version gets one by copying `<cache>/n8n-<version>/package-lock.json` after
 * its first install (CONTRIBUTING.md → "Moving to a new n8n version").
 */
function lockFile(version) {
	return path.join(__dirname, 'locks', `n8n-${version}.package-lock.json`);
}

/** True when a line's n8n is installed in the cache (ensureN8n would return at once). */
function isInstalled(which) {
	const dir = cacheRoot(target(which));
	return fs.existsSync(path.join(dir, '.complete')) && fs.existsSync(n8nBin(dir));
}

/**
 * The optimization the test machines' sqlite3 is compiled at: -O1, after sqlite3's own -O3/-O2 on
 * the compiler's command line, so it wins. sqlite's one big C file is most of the compile: 41 s at
 * -O1 against 77 s at sqlite3's own flags on an idle 2-core machine (27 s at -O0), about 40 s of
 * CPU that a fresh `npm test` spends beside its tests instead. The databases n8n keeps in the tests
 * are a few megabytes; its queries stay well inside the tests' timings. This n8n is the tests' own,
 * never a user's.
 */
const SQLITE3_OPTIMIZE = {
	CFLAGS: `${process.env.CFLAGS ?? ''} -O1`.trim(),
	CXXFLAGS: `${process.env.CXXFLAGS ?? ''} -O1`.trim(),
};

/**
 * Starts compiling sqlite3 `version` in a folder of its own (npm install --ignore-scripts, then
 * npm rebuild: node-gyp), beside the install of n8n; `wait()` returns its build folder, or
 * undefined when it failed.
 */
function sqlite3Beside(version, env) {
	const dir = path.join(cacheBase(), `.sqlite3-${version}-${process.pid}`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'sqlite3-build', private: true }),
	);
	const status = path.join(dir, 'status');
	const out = fs.openSync(path.join(dir, 'build.log'), 'w');
	const started = Date.now();
	const child = spawn(
		'sh',
		[
			'-c',
			`npm install --ignore-scripts --no-audit --no-fund sqlite3@${version} && npm rebuild sqlite3; echo $? > status`,
		],
		{ cwd: dir, env: { ...env, ...SQLITE3_OPTIMIZE }, stdio: ['ignore', out, out] },
	);
	fs.closeSync(out);
	child.unref();
	return {
		dir,
		wait() {
			while (!fs.existsSync(status) || fs.readFileSync(status, 'utf8').trim() === '') pause(1);
			const ok = fs.readFileSync(status, 'utf8').trim() === '0';
			const build = path.join(dir, 'node_modules', 'sqlite3', 'build');
			// when it finished (it may have long before this wait)
			this.seconds = Math.round((fs.statSync(status).mtimeMs - started) / 1000);
			log(
				`sqlite3 ${version} ${ok ? 'compiled' : 'failed to compile'} beside the install in ${this.seconds} s`,
			);
			if (!ok) log(fs.readFileSync(path.join(dir, 'build.log'), 'utf8').slice(-2000));
			return ok && fs.existsSync(build) ? build : undefined;
		},
	};
}

/**
 * Installs a line's n8n once (2.x: 2.9 GB; on an idle 2-core machine about 45 s from its lockfile,
 * the sqlite3 compile being the longer half; 3 min with npm), with the line's Node.js; later calls
 * return at once.
 */
function ensureN8n(which) {
	const t = target(which);
	const dir = cacheRoot(t);
	const marker = path.join(dir, '.complete');
	const node = nodeBinary(t.node);
	const done = () => fs.existsSync(marker) && fs.existsSync(n8nBin(dir));
	if (done()) return { dir, bin: n8nBin(dir), node, target: t, installed: false };
	const installed = installOnce(dir, done, () => {
		const installNode = nodeBinary(t.installNode ?? t.node);
		log(
			`installing n8n ${t.version} (Node.js ${t.installNode ?? t.node}) into ${dir} (first run only; a minute or two) ...`,
		);
		const started = Date.now();
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{
					name: 'n8n-host',
					private: true,
					dependencies: { n8n: t.version },
					overrides: t.overrides,
				},
				null,
				2,
			),
		);
		// the tree the tests last passed on, when committed: the same packages on every machine, and
		// no resolution of n8n's ~2,400 packages (about a fifth of the install)
		const lock = lockFile(t.version);
		const locked = fs.existsSync(lock) ? JSON.parse(fs.readFileSync(lock, 'utf8')) : undefined;
		if (locked) {
			fs.copyFileSync(lock, path.join(dir, 'package-lock.json'));
			log(`with the committed lockfile ${path.relative(ROOT, lock)}`);
		}
		// npm itself runs on the line's Node.js, so the native modules are built for it
		const env = buildEnv(installNode);
		const steps = {};
		let sqlite3;
		try {
			// the lockfile's sqlite3 (the one npm is about to install), else the one n8n names
			const version =
				locked?.packages?.['node_modules/sqlite3']?.version ??
				run('npm', ['view', `n8n@${t.version}`, 'dependencies.sqlite3'], { env }).stdout.trim();
			if (/^\d+\.\d+\.\d+$/.test(version)) sqlite3 = { version, ...sqlite3Beside(version, env) };
		} catch (error) {
			log(`sqlite3 is compiled after the install (${error.message.split('\n')[0]})`);
		}
		try {
			// the committed lockfile's tree, placed by scripts/unpack.js (npm's tree, in a fifth of its
			// time: its header says how); npm resolves a version without one, and takes over where the
			// unpack fails (tar is not GNU tar, a network npm's settings reach and Node's do not …)
			let unpacked = Boolean(locked);
			let install;
			if (unpacked) {
				try {
					install = run(installNode, [path.join(ROOT, 'scripts', 'unpack.js'), lock, dir], { env });
				} catch (error) {
					log(
						`the unpack of the lockfile failed, npm installs instead: ${error.message.split('\n').slice(1).join(' ').trim()}`,
					);
					unpacked = false;
				}
			}
			install ??= run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
				cwd: dir,
				env,
			});
			log(`${unpacked ? 'unpack of the lockfile' : 'npm install'} took ${install.seconds} s`);
			steps[unpacked ? 'unpack' : 'npmInstall'] = install.seconds;
			const installedSqlite = path.join(dir, 'node_modules', 'sqlite3');
			const built = sqlite3?.wait();
			let rebuild = ['isolated-vm', 'sqlite3'];
			if (
				built &&
				require(path.join(installedSqlite, 'package.json')).version === sqlite3.version
			) {
				fs.cpSync(built, path.join(installedSqlite, 'build'), { recursive: true });
				rebuild = ['isolated-vm'];
			}
			const r = run('npm', ['rebuild', ...rebuild], { cwd: dir, env });
			log(`npm rebuild ${rebuild.join(' ')} took ${r.seconds} s`);
			steps.sqlite3Beside = sqlite3?.seconds;
			steps.rebuild = { modules: rebuild, seconds: r.seconds };
			// both native modules load in the Node.js n8n runs on
			run(node, ['-e', `require(${JSON.stringify(installedSqlite)}); require('isolated-vm')`], {
				cwd: path.join(dir, 'node_modules', 'n8n'),
			});
		} finally {
			if (sqlite3) fs.rmSync(sqlite3.dir, { recursive: true, force: true });
		}
		const total = Math.round((Date.now() - started) / 1000);
		log(`n8n ${t.version} installed in ${total} s`);
		// how long it took (test/setup/timingsReporter.js reports it)
		fs.writeFileSync(
			marker,
			JSON.stringify({ at: new Date().toISOString(), version: t.version, seconds: total, steps }),
		);
	});
	return { dir, bin: n8nBin(dir), node, target: t, installed };
}

/**
 * A user folder whose database n8n has migrated already (`<cache>/n8n-<version>/user-template/
 * folder`), made once per n8n version: a CLI command or `n8n start` on an empty user folder runs
 * every migration first (4 to 7 s); a copy of this one skips them. `newUserFolder(dir)` makes one.
 */
function userTemplate(which) {
	const t = target(which);
	const { node, bin } = ensureN8n(t);
	const dir = path.join(cacheRoot(t), 'user-template');
	const folder = path.join(dir, 'folder');
	const marker = path.join(dir, '.complete');
	installOnce(
		dir,
		() => fs.existsSync(marker),
		() => {
			fs.rmSync(folder, { recursive: true, force: true });
			fs.mkdirSync(folder, { recursive: true });
			const env = {
				...process.env,
				N8N_USER_FOLDER: folder,
				DB_TYPE: 'sqlite',
				NODE_ENV: 'production',
				N8N_DIAGNOSTICS_ENABLED: 'false',
				PATH: pathWith(node),
			};
			run(node, [bin, 'list:workflow'], { env });
			if (!fs.existsSync(path.join(folder, '.n8n', 'database.sqlite')))
				throw new Error(`n8n list:workflow made no database in ${folder}`);
			fs.writeFileSync(marker, new Date().toISOString());
		},
	);
	return folder;
}

/**
 * Makes `userFolder` an n8n user folder with a migrated SQLite database (a copy of
 * `userTemplate`'s database files, the write-ahead log included; not its settings file, so each
 * folder gets an encryption key of its own, or the one `N8N_ENCRYPTION_KEY` gives).
 */
function newUserFolder(userFolder, which) {
	const from = path.join(userTemplate(which), '.n8n');
	const to = path.join(userFolder, '.n8n');
	fs.mkdirSync(to, { recursive: true });
	for (const file of fs.readdirSync(from).filter((f) => f.startsWith('database.sqlite')))
		fs.copyFileSync(path.join(from, file), path.join(to, file));
	return userFolder;
}

/** Every file under `dir`: its path, size and modification time (what a build changes). */
function filesOf(dir) {
	const out = [];
	const walk = (d) => {
		for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
			const p = path.join(d, entry.name);
			if (entry.isDirectory()) walk(p);
			else {
				const st = fs.statSync(p);
				out.push(`${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`);
			}
		}
	};
	walk(dir);
	return out.sort().join('\n');
}

/**
 * Copies the built package (package.json + dist) into the user folder as a community package.
 * A copy is kept only when dist/ did not change while it was taken (another process may be
 * rebuilding it: .ci/run runs two tiers side by side, and each builds before its tests); else it
 * waits a moment and copies again.
 */
function installPackage(userFolder) {
	const dist = path.join(ROOT, 'dist');
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const into = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	// real time (the monotonic clock), whatever the wall clock says (test/support/n8n/timeLapse.js)
	const deadline = performance.now() + 120_000;
	const built = performance.now() + 30_000;
	for (;;) {
		if (!fs.existsSync(path.join(dist, 'credentials'))) {
			if (performance.now() > built) throw new Error('the package is not built: run npm run build');
			pause(1);
			continue;
		}
		try {
			const before = filesOf(dist);
			fs.rmSync(into, { recursive: true, force: true });
			fs.mkdirSync(into, { recursive: true });
			fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(into, 'package.json'));
			fs.cpSync(dist, path.join(into, 'dist'), { recursive: true });
			if (filesOf(dist) === before) break;
		} catch (error) {
			// a file went away under the copy: a rebuild
			if (performance.now() > deadline) throw error;
		}
		if (performance.now() > deadline) throw new Error('dist/ kept changing while it was copied');
		pause(1);
	}
	const manifest = path.join(nodesDir, 'package.json');
	const current = fs.existsSync(manifest)
		? JSON.parse(fs.readFileSync(manifest, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	current.dependencies = {
		...(current.dependencies || {}),
		[PACKAGE_NAME]: require(path.join(ROOT, 'package.json')).version,
	};
	fs.writeFileSync(manifest, JSON.stringify(current, null, 2));
	return into;
}

// ---------------------------------------------------------------- Debian packages

const isRoot = () => typeof process.getuid !== 'function' || process.getuid() === 0;

/** Whether apt can be run here without a question: as root, or through password-less sudo. */
function canApt() {
	if (isRoot()) return true;
	return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

function aptInstalled(packages) {
	return packages.every(
		(p) =>
			spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' }).stdout ===
			'install ok installed',
	);
}

/**
 * Installs Debian packages (`apt-get install -y`; `apt-get update` first when that fails, as on a
 * fresh machine without package lists), as root or through sudo. One apt at a time across this
 * project's processes (the lock `<cache>/apt/.installing`), and apt itself waits for another
 * apt's lock. Returns the seconds spent (0 when all were there).
 */
function aptInstall(packages, { recommends = true } = {}) {
	if (aptInstalled(packages)) return 0;
	if (!canApt())
		throw new Error(
			`${packages.join(' and ')} missing: run \`apt-get install -y ${packages.join(' ')}\` as root first`,
		);
	const started = Date.now();
	installOnce(
		path.join(cacheBase(), 'apt'),
		() => aptInstalled(packages),
		() => {
			log(`installing ${packages.join(', ')} from Debian's packages (apt-get) ...`);
			const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
			const apt = (...args) => {
				const argv = ['-o', 'DPkg::Lock::Timeout=600', ...args];
				const [cmd, all] = isRoot() ? ['apt-get', argv] : ['sudo', ['-E', 'apt-get', ...argv]];
				return spawnSync(cmd, all, {
					stdio: ['ignore', 'inherit', 'inherit'],
					env,
					timeout: 20 * 60_000,
				}).status;
			};
			const install = [
				'install',
				'-y',
				...(recommends ? [] : ['--no-install-recommends']),
				...packages,
			];
			if (apt(...install) !== 0) {
				if (apt('update') !== 0) throw new Error('apt-get update failed');
				if (apt(...install) !== 0)
					throw new Error(`could not install ${packages.join(' ')} (apt-get install)`);
			}
			log(`${packages.join(', ')} installed in ${Math.round((Date.now() - started) / 1000)} s`);
		},
	);
	if (!aptInstalled(packages))
		throw new Error(`${packages.join(', ')} still missing after apt-get`);
	return Math.round((Date.now() - started) / 1000);
}

// ---------------------------------------------------------------- jobs, in the background

/**
 * The install jobs by name: `n8n:<line>` and `apt:<package>[,<package>…]` (the queue tier's
 * packages install without recommends, like test/support/n8n/queueBackends.js asks for them).
 */
function job(name) {
	const [kind, arg] = name.split(':');
	if (kind === 'n8n')
		return { done: () => isInstalled(arg), run: () => ensureN8n(arg), needs: 'n8n' };
	if (kind === 'apt') {
		const packages = arg.split(',');
		return {
			done: () => aptInstalled(packages),
			run: () => aptInstall(packages, { recommends: packages.includes('chromium') }),
			possible: canApt,
		};
	}
	throw new Error(`unknown install job "${name}": n8n:<line> or apt:<package,…>`);
}

/**
 * Starts each group of jobs that is not done as one detached process (log:
 * `<cache>/logs/<group>.log`); a group `a+b` runs its jobs one after the other, groups run side by
 * side.
 */
function background(groups) {
	const logs = path.join(cacheBase(), 'logs');
	fs.mkdirSync(logs, { recursive: true });
	for (const group of groups) {
		const names = group.split('+').filter((name) => {
			const j = job(name);
			if (j.done()) return false;
			if (j.possible && !j.possible()) {
				log(
					`${name}: not installed in the background (needs root); the test that needs it says how`,
				);
				return false;
			}
			return true;
		});
		if (names.length === 0) continue;
		const file = path.join(logs, `${names.join('+').replace(/[^\w.+-]+/g, '_')}.log`);
		const out = fs.openSync(file, 'a');
		const child = spawn(process.execPath, [__filename, ...names], {
			detached: true,
			stdio: ['ignore', out, out],
			env: process.env,
		});
		fs.closeSync(out);
		child.unref();
		// apt's installs at a lower priority: the tests that run meanwhile, some of them
		// timing-sensitive, keep the CPU they ask for. n8n's at the usual one: on a fresh machine the
		// end-to-end files wait for it, and they are the run's longest path (at priority 5 beside
		// jest's six workers, the sqlite3 compile took 125 s of a 131-s install, against 41 s idle)
		if (!names.some((name) => name.startsWith('n8n:'))) {
			try {
				os.setPriority(child.pid, 5);
			} catch {
				// not allowed here: the install runs at the usual priority
			}
		}
		log(`${names.join(', then ')}: installing in the background (log: ${file})`);
	}
}

module.exports = {
	installOnce,
	lockFile,
	nodeBinary,
	nodeHeaders,
	buildEnv,
	pathWith,
	isInstalled,
	ensureN8n,
	installPackage,
	userTemplate,
	newUserFolder,
	aptInstall,
	aptInstalled,
	background,
};

if (require.main === module) {
	const args = process.argv.slice(2);
	const names = args.filter((a) => a !== '--background');
	if (args.includes('--background')) background(names);
	else {
		const started = Date.now();
		for (const name of names) {
			const t = Date.now();
			job(name).run();
			log(`${name}: ready (${Math.round((Date.now() - t) / 1000)} s)`);
		}
		if (names.length > 1) log(`all ready in ${Math.round((Date.now() - started) / 1000)} s`);
	}
}
