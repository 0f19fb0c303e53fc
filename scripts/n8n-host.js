/**
 * A real n8n, the way a user runs it, for the demo and the end-to-end tests.
 *
 * - `LINES` are the n8n lines the package is tested on: the n8n version pinned for each and the
 *   Node.js major it runs on. `target()` picks one: a line's name, or by default
 *   `$SENTIONE_N8N_LINE` (`2.x` when unset), so one test file runs on any line;
 *   `$SENTIONE_N8N_NODE` tries the line on another Node.js major.
 * - `ensureN8n(target)` installs a line's n8n once into a cache folder (reused by later runs; a
 *   `.complete` marker is written only after a whole install), and `nodeBinary(major)` the Node.js
 *   it runs on when that is not the Node running this script (`npm install node@<major>`, the
 *   npm registry's Node.js builds, like scripts/node24.sh). The recipe works where only the npm
 *   registry is reachable: `--ignore-scripts` (some optional native modules try to download
 *   binaries), overrides for packages the registry lacks or that come from outside it, then a
 *   rebuild of the two native modules n8n needs.
 * - `installPackage(userFolder)` installs this package into an n8n user folder exactly like a
 *   community-package install (`.n8n/nodes/node_modules/n8n-nodes-sentione`), so node types are
 *   `n8n-nodes-sentione.<node>` as for any user.
 * - `n8nEnv()`, `runN8n()`, `startN8n()`, `setupOwner()`, `login()` drive it headless on 127.0.0.1,
 *   with the target's n8n on the target's Node.js.
 * - Queue mode (main + workers): `ensureQueueBackends()` installs Redis and PostgreSQL from Debian's
 *   packages when missing, `startRedis()` / `startPostgres()` run private instances on loopback
 *   ports, `queueEnv()` / `workerEnv()` give the environment, `startWorker()` runs `n8n worker`.
 *
 * Plain CommonJS so the gulpfile and the jest suites can both require it.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
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
const ROOT = path.resolve(__dirname, '..');
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
	process.stderr.write(`[n8n-host] ${message}\n`);
}

function run(cmd, args, options) {
	const started = Date.now();
	const result = spawnSync(cmd, args, {
		stdio: ['ignore', 'pipe', 'pipe'],
		encoding: 'utf8',
		...options,
	});
	if (result.status !== 0) {
		throw new Error(
			`${cmd} ${args.join(' ')} failed (${result.status}):\n${(result.stderr || '').slice(-4000)}\n${(result.stdout || '').slice(-2000)}`,
		);
	}
	return { ...result, seconds: Math.round((Date.now() - started) / 1000) };
}

/**
 * Runs `work` once per folder across processes (parallel jest workers, two CI steps): the first
 * caller takes `<dir>/.installing` and runs it; the others wait until `done()` holds.
 */
function installOnce(dir, done, work) {
	fs.mkdirSync(dir, { recursive: true });
	const lock = path.join(dir, '.installing');
	const waitUntil = Date.now() + 20 * 60 * 1000;
	for (;;) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch {
			const holder = Number(fs.readFileSync(lock, 'utf8'));
			let alive = false;
			try {
				process.kill(holder, 0);
				alive = true;
			} catch {}
			if (!alive) {
				fs.rmSync(lock, { force: true });
				continue;
			}
			if (Date.now() > waitUntil)
				throw new Error(`timed out waiting for another install into ${dir}`);
			spawnSync('sleep', ['2']);
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
		const env = { ...process.env, npm_config_yes: 'true' };
		const install = run('npm', ['install', '--no-audit', '--no-fund', `node@${major}`], {
			cwd: dir,
			env,
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
 * Installs a line's n8n once (2.x: about 5 min cold, 2.9 GB; 1.x: about 4 min, 1.8 GB), with the
 * line's Node.js; later calls return at once.
 */
/** True when a line's n8n is installed in the cache (ensureN8n would return at once). */
function isInstalled(which) {
	const dir = cacheRoot(target(which));
	return fs.existsSync(path.join(dir, '.complete')) && fs.existsSync(n8nBin(dir));
}

function ensureN8n(which) {
	const t = target(which);
	const dir = cacheRoot(t);
	const marker = path.join(dir, '.complete');
	const node = nodeBinary(t.node);
	const done = () => fs.existsSync(marker) && fs.existsSync(n8nBin(dir));
	if (done()) return { dir, bin: n8nBin(dir), node, target: t, installed: false };
	const installNode = nodeBinary(t.installNode ?? t.node);
	const installed = installOnce(dir, done, () => {
		log(
			`installing n8n ${t.version} (Node.js ${t.installNode ?? t.node}) into ${dir} (first run only; a few minutes) ...`,
		);
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
		// npm itself runs on the line's Node.js, so the native modules are built for it
		const env = {
			...process.env,
			PATH: pathWith(installNode),
			npm_config_yes: 'true',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
		};
		const install = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], {
			cwd: dir,
			env,
		});
		log(`npm install took ${install.seconds} s; rebuilding isolated-vm and sqlite3 ...`);
		const rebuild = run('npm', ['rebuild', 'isolated-vm', 'sqlite3'], { cwd: dir, env });
		log(`rebuild took ${rebuild.seconds} s`);
		fs.writeFileSync(marker, new Date().toISOString());
	});
	return { dir, bin: n8nBin(dir), node, target: t, installed };
}

/** Copies the built package (package.json + dist) into the user folder as a community package. */
function installPackage(userFolder) {
	const dist = path.join(ROOT, 'dist');
	if (!fs.existsSync(path.join(dist, 'credentials')))
		throw new Error('the package is not built: run npm run build');
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(target, 'package.json'));
	fs.cpSync(dist, path.join(target, 'dist'), { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	const current = fs.existsSync(manifest)
		? JSON.parse(fs.readFileSync(manifest, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	current.dependencies = {
		...(current.dependencies || {}),
		[PACKAGE_NAME]: require(path.join(ROOT, 'package.json')).version,
	};
	fs.writeFileSync(manifest, JSON.stringify(current, null, 2));
	return target;
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Environment for a headless n8n on loopback with its own user folder. */
function n8nEnv(userFolder, port, extra = {}) {
	return {
		...process.env,
		// jest sets NODE_ENV=test, under which n8n exits at start without a word
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_RUNNERS_ENABLED: 'true',
		N8N_RUNNERS_BROKER_PORT: String(extra.N8N_RUNNERS_BROKER_PORT || port + 1),
		N8N_SECURE_COOKIE: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'warn',
		GENERIC_TIMEZONE: 'UTC',
		...extra,
	};
}

/**
 * Runs an n8n CLI command to completion; resolves with its output. Its stdout goes to a file, not a
 * pipe: the CLI ends with process.exit(), which cuts off a pipe still being written (a big
 * `execute --rawOutput` lost its end), while writes to a file are synchronous.
 */
function runN8n(args, env, { timeoutMs = 120_000, target: which } = {}) {
	const { bin, node } = ensureN8n(which);
	const outFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-cli-')), 'stdout');
	const out = fs.openSync(outFile, 'w');
	return new Promise((resolve, reject) => {
		const child = spawn(node, [bin, ...args], {
			env: { ...env, PATH: pathWith(node, env.PATH) },
			stdio: ['ignore', out, 'pipe'],
		});
		fs.closeSync(out);
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		const collect = () => {
			const stdout = fs.readFileSync(outFile, 'utf8');
			fs.rmSync(path.dirname(outFile), { recursive: true, force: true });
			return stdout;
		};
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			const stdout = collect();
			reject(
				new Error(
					`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`,
				),
			);
		}, timeoutMs);
		child.on('exit', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: collect(), stderr });
		});
	});
}

/**
 * Starts a long-running n8n command and resolves once it is ready; `stop()` ends it (and its task
 * runner). `command`: `start` (main: ready when its health check answers 200 and its REST API is
 * mounted) or `worker` (queue mode: ready when `readyUrl`, the worker's health server, answers 200;
 * without it, when the log says the worker is ready). `args` are appended (`--concurrency=N`).
 * `target` picks the tested n8n line (its n8n on its Node.js).
 */
async function startN8n(
	env,
	{ timeoutMs = 120_000, command = 'start', args = [], readyUrl, target: which } = {},
) {
	const { bin, node } = ensureN8n(which);
	const child = spawn(node, [bin, command, ...args], {
		env: { ...env, PATH: pathWith(node, env.PATH) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	const probe = readyUrl ?? (command === 'start' ? `${base}/healthz/readiness` : undefined);
	const deadline = Date.now() + timeoutMs;
	// ready: the health check says so and the REST API is mounted (n8n 1.x answers the health
	// check before its REST routes exist: a POST /rest/owner/setup right then gets a 404)
	const ready = async () => {
		try {
			if ((await fetch(`${base}/healthz/readiness`)).status !== 200) return false;
			return (await fetch(`${base}/rest/settings`)).status !== 404;
		} catch {
			return false;
		}
	};
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`n8n ${command} exited early (${child.exitCode}):\n${output.slice(-4000)}`);
		if (command === 'start') {
			if (await ready()) break;
		} else if (probe) {
			try {
				const res = await fetch(probe);
				if (res.status === 200) break;
			} catch {}
		} else if (/n8n worker is now ready/i.test(output)) break;
		if (Date.now() > deadline) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {}
			throw new Error(
				`n8n ${command} was not ready after ${timeoutMs} ms:\n${output.slice(-4000)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	/** SIGTERM (n8n shuts down gracefully: a worker finishes its running executions first); SIGKILL after `graceMs`. */
	const stop = ({ signal = 'SIGTERM', graceMs = 15_000 } = {}) =>
		new Promise((resolve) => {
			if (child.exitCode !== null || child.signalCode !== null) return resolve();
			child.once('exit', () => resolve());
			try {
				process.kill(-child.pid, signal);
			} catch {
				resolve();
			}
			setTimeout(() => {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {}
			}, graceMs).unref();
		});
	return { base, child, pid: child.pid, stop, output: () => output };
}

/** Creates the instance owner (first start) so the editor opens with a known login. */
async function setupOwner(base, owner) {
	const res = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (res.status !== 200) throw new Error(`owner setup failed: ${res.status} ${await res.text()}`);
	return res.headers.get('set-cookie');
}

/** Signs in as an existing user (the owner on a later start); resolves with the session cookie header. */
async function login(base, { email, password }) {
	const res = await fetch(`${base}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
	return res.headers.get('set-cookie');
}

/**
 * The run data of an execution as n8n's REST API returns it (`flatted`-encoded text, the format
 * n8n stores), parsed with n8n's own copy of `flatted`.
 */
function parseExecutionData(data, which) {
	if (typeof data !== 'string') return data;
	const flatted = require(
		require.resolve('flatted', { paths: [path.join(ensureN8n(which).dir, 'node_modules', 'n8n')] }),
	);
	return flatted.parse(data);
}

// ---------------------------------------------------------------- queue mode (main + workers)

/** The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`), if any. */
function postgresBin() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

function onPath(name) {
	return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}

/**
 * Redis and PostgreSQL for n8n's queue mode, from Debian's packages: installs them
 * (`apt-get update && apt-get install -y redis-server postgresql`, as root) when missing. The
 * packages' own services are not used (`startRedis`/`startPostgres` start private instances).
 */
function ensureQueueBackends() {
	const missing = [];
	if (!onPath('redis-server')) missing.push('redis-server');
	if (!postgresBin() || !onPath('psql')) missing.push('postgresql');
	let seconds = 0;
	if (missing.length > 0) {
		if (typeof process.getuid === 'function' && process.getuid() !== 0) {
			throw new Error(
				`queue mode needs ${missing.join(' and ')}: run \`apt-get install -y redis-server postgresql\` as root first`,
			);
		}
		log(`installing ${missing.join(' and ')} from Debian's packages (apt-get) ...`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		seconds += run('apt-get', ['update'], { env, timeout: 10 * 60_000 }).seconds;
		seconds += run(
			'apt-get',
			['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql'],
			{ env, timeout: 20 * 60_000 },
		).seconds;
		log(`apt-get took ${seconds} s`);
	}
	const pgBin = postgresBin();
	if (!pgBin || !onPath('redis-server'))
		throw new Error('redis-server or PostgreSQL is still missing after apt-get install');
	return { pgBin, installed: missing, seconds };
}

/** Resolves once something answers on 127.0.0.1:port (or rejects after timeoutMs). */
async function waitForPort(port, timeoutMs, isAlive = () => true) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const open = await new Promise((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
		});
		if (open) return;
		if (!isAlive() || Date.now() > deadline)
			throw new Error(`nothing answered on 127.0.0.1:${port}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** A private Redis on a loopback port: no persistence, its own temp folder; `stop()` ends it and removes the folder. */
async function startRedis({ port } = {}) {
	const p = port ?? (await freePort());
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-redis-'));
	const child = spawn(
		'redis-server',
		[
			'--port',
			String(p),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
			'--logfile',
			'',
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	try {
		await waitForPort(p, 20_000, () => child.exitCode === null);
	} catch (error) {
		child.kill('SIGKILL');
		fs.rmSync(dir, { recursive: true, force: true });
		throw new Error(`redis-server did not start: ${error.message}\n${output.slice(-2000)}`);
	}
	const stop = () =>
		new Promise((resolve) => {
			const done = () => {
				fs.rmSync(dir, { recursive: true, force: true });
				resolve();
			};
			if (child.exitCode !== null || child.signalCode !== null) return done();
			child.once('exit', done);
			child.kill('SIGTERM');
			setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
		});
	/** for a process 'exit' handler: kills at once, synchronously */
	const stopSync = () => {
		if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		fs.rmSync(dir, { recursive: true, force: true });
	};
	return {
		host: '127.0.0.1',
		port: p,
		pid: child.pid,
		child,
		stop,
		stopSync,
		output: () => output,
	};
}

/**
 * A private PostgreSQL: `initdb` and `pg_ctl` (run as the `postgres` user) in a temp folder, on a
 * loopback port, with a database and a user (password authentication over TCP). `query(sql)`
 * runs psql as that user and returns the rows (tab-separated fields); `stop()` stops the server
 * and removes the folder.
 */
async function startPostgres({
	port,
	database = 'n8n',
	user = 'n8n',
	password = 'n8n-queue-test',
} = {}) {
	const { pgBin } = ensureQueueBackends();
	const p = port ?? (await freePort());
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-pg-'));
	const data = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	const uid = Number(run('id', ['-u', 'postgres']).stdout.trim());
	const gid = Number(run('id', ['-g', 'postgres']).stdout.trim());
	const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (asRoot) fs.chownSync(dir, uid, gid);
	// initdb refuses to run as root: the server runs as the `postgres` user, as Debian's own does
	const as = (cmd, args, options) =>
		asRoot
			? run('runuser', ['-u', 'postgres', '--', cmd, ...args], { cwd: dir, ...options })
			: run(cmd, args, { cwd: dir, ...options });
	const stopServer = (mode = 'fast') => {
		if (!fs.existsSync(path.join(data, 'postmaster.pid'))) return;
		try {
			as(path.join(pgBin, 'pg_ctl'), ['-D', data, 'stop', '-m', mode, '-w', '-t', '60']);
		} catch (error) {
			log(`pg_ctl stop failed: ${error.message.slice(0, 500)}`);
		}
	};
	try {
		as(path.join(pgBin, 'initdb'), [
			'-D',
			data,
			'-U',
			'postgres',
			'-E',
			'UTF8',
			'--locale=C',
			'--auth-local=trust',
			'--auth-host=scram-sha-256',
		]);
		as(path.join(pgBin, 'pg_ctl'), [
			'-D',
			data,
			'-l',
			logFile,
			'-w',
			'-t',
			'60',
			'-o',
			`-p ${p} -k ${dir} -c listen_addresses=127.0.0.1`,
			'start',
		]);
		const superuser = (sql) =>
			run('psql', [
				'-h',
				dir,
				'-p',
				String(p),
				'-U',
				'postgres',
				'-d',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-At',
				'-c',
				sql,
			]);
		superuser(`CREATE ROLE ${user} LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
		superuser(`CREATE DATABASE ${database} OWNER ${user}`);
	} catch (error) {
		stopServer();
		fs.rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	const pgEnv = { ...process.env, PGPASSWORD: password };
	const query = (sql) =>
		run(
			'psql',
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(p),
				'-U',
				user,
				'-d',
				database,
				'-v',
				'ON_ERROR_STOP=1',
				'-At',
				'-F',
				'\t',
				'-c',
				sql,
			],
			{ env: pgEnv },
		)
			.stdout.split('\n')
			.filter((line) => line !== '')
			.map((line) => line.split('\t'));
	const postmasterPid = () => {
		try {
			return Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
		} catch {
			return undefined;
		}
	};
	const stop = async () => {
		stopServer();
		fs.rmSync(dir, { recursive: true, force: true });
	};
	/** for a process 'exit' handler: stops at once (pg_ctl -m immediate), synchronously */
	const stopSync = () => {
		stopServer('immediate');
		fs.rmSync(dir, { recursive: true, force: true });
	};
	return {
		host: '127.0.0.1',
		port: p,
		database,
		user,
		password,
		dir,
		query,
		postmasterPid,
		stop,
		stopSync,
		log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
	};
}

/**
 * The environment every n8n instance of a queue-mode setup shares: queue mode, the Redis queue,
 * the Postgres database and the one encryption key (n8nEnv's extra).
 */
function queueEnv({ redis, postgres, encryptionKey }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
	};
}

/** What a worker adds to queueEnv: its health server on a loopback port (GET /healthz/readiness). */
function workerEnv(healthPort) {
	return {
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	};
}

/** Starts `n8n worker --concurrency=N` (env from n8nEnv + queueEnv + workerEnv) and resolves once its health server is ready. */
async function startWorker(env, { concurrency = 10, timeoutMs } = {}) {
	const readyUrl = `http://127.0.0.1:${env.QUEUE_HEALTH_CHECK_PORT}/healthz/readiness`;
	return await startN8n(env, {
		command: 'worker',
		args: [`--concurrency=${concurrency}`],
		readyUrl,
		timeoutMs,
	});
}

module.exports = {
	LINES,
	target,
	N8N_VERSION,
	PACKAGE_NAME,
	cacheBase,
	cacheRoot,
	nodeBinary,
	ensureN8n,
	isInstalled,
	installPackage,
	freePort,
	n8nEnv,
	runN8n,
	startN8n,
	setupOwner,
	login,
	parseExecutionData,
	ensureQueueBackends,
	startRedis,
	startPostgres,
	queueEnv,
	workerEnv,
	startWorker,
};

// `node scripts/n8n-host.js lines`: the tested lines as `n8n2=2.41.1`, `node2=24`, … lines (CI's
// cache keys, written to $GITHUB_OUTPUT)
if (require.main === module && process.argv[2] === 'lines') {
	for (const [name, line] of Object.entries(LINES)) {
		const key = name.replace(/\.x$/, '');
		process.stdout.write(`n8n${key}=${line.version}\nnode${key}=${line.node}\n`);
	}
}
