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
 *   npm registry's Node.js builds, like scripts/node24.sh). The recipe is the one that works on
 *   these machines (../shared/guides/toolchain.md): `--ignore-scripts` (some optional native
 *   modules try to download binaries), overrides for packages the registry lacks or that come
 *   from outside it, then a rebuild of the two native modules n8n needs.
 * - `installPackage(userFolder)` installs this package into an n8n user folder exactly like a
 *   community-package install (`.n8n/nodes/node_modules/n8n-nodes-sentione`), so node types are
 *   `n8n-nodes-sentione.<node>` as for any user.
 * - `n8nEnv()`, `runN8n()`, `startN8n()`, `setupOwner()` drive it headless on 127.0.0.1, with
 *   the target's n8n on the target's Node.js.
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
function target(which = process.env.SENTIONE_N8N_LINE || DEFAULT_LINE, runOn = process.env.SENTIONE_N8N_NODE) {
	if (typeof which === 'object') return which;
	if (!LINES[which]) throw new Error(`unknown n8n line "${which}" (SENTIONE_N8N_LINE): one of ${Object.keys(LINES).join(', ')}`);
	const line = LINES[which];
	const node = runOn ? Number(runOn) : line.node;
	if (!Number.isInteger(node) || node < 18) throw new Error(`SENTIONE_N8N_NODE must be a Node.js major version, not "${runOn}"`);
	return { line: which, version: line.version, node, installNode: line.node, overrides: line.overrides };
}

/** The version of the line this process runs by default (`$SENTIONE_N8N_LINE`, else 2.x). */
const N8N_VERSION = target().version;

function cacheBase() {
	return process.env.SENTIONE_N8N_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-sentione');
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
	const result = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
	if (result.status !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}):\n${(result.stderr || '').slice(-4000)}\n${(result.stdout || '').slice(-2000)}`);
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
			if (Date.now() > waitUntil) throw new Error(`timed out waiting for another install into ${dir}`);
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
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `node${major}-holder`, private: true }));
		const env = { ...process.env, npm_config_yes: 'true' };
		const install = run('npm', ['install', '--no-audit', '--no-fund', `node@${major}`], { cwd: dir, env });
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
function ensureN8n(which) {
	const t = target(which);
	const dir = cacheRoot(t);
	const marker = path.join(dir, '.complete');
	const node = nodeBinary(t.node);
	const done = () => fs.existsSync(marker) && fs.existsSync(n8nBin(dir));
	if (done()) return { dir, bin: n8nBin(dir), node, target: t, installed: false };
	const installNode = nodeBinary(t.installNode ?? t.node);
	const installed = installOnce(dir, done, () => {
		log(`installing n8n ${t.version} (Node.js ${t.installNode ?? t.node}) into ${dir} (first run only; a few minutes) ...`);
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify({ name: 'n8n-host', private: true, dependencies: { n8n: t.version }, overrides: t.overrides }, null, 2),
		);
		// npm itself runs on the line's Node.js, so the native modules are built for it
		const env = { ...process.env, PATH: pathWith(installNode), npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
		const install = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env });
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
	if (!fs.existsSync(path.join(dist, 'credentials'))) throw new Error('the package is not built: run npm run build');
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(target, 'package.json'));
	fs.cpSync(dist, path.join(target, 'dist'), { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	const current = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')) : { name: 'installed-nodes', private: true, dependencies: {} };
	current.dependencies = { ...(current.dependencies || {}), [PACKAGE_NAME]: require(path.join(ROOT, 'package.json')).version };
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
		const child = spawn(node, [bin, ...args], { env: { ...env, PATH: pathWith(node, env.PATH) }, stdio: ['ignore', out, 'pipe'] });
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
			reject(new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`));
		}, timeoutMs);
		child.on('exit', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: collect(), stderr });
		});
	});
}

/** Starts `n8n start` and resolves once it is ready; `stop()` ends it (and its task runner). */
async function startN8n(env, { timeoutMs = 120_000, target: which } = {}) {
	const { bin, node } = ensureN8n(which);
	const child = spawn(node, [bin, 'start'], { env: { ...env, PATH: pathWith(node, env.PATH) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
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
		if (child.exitCode !== null) throw new Error(`n8n exited early (${child.exitCode}):\n${output.slice(-4000)}`);
		if (await ready()) break;
		if (Date.now() > deadline) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {}
			throw new Error(`n8n was not ready after ${timeoutMs} ms:\n${output.slice(-4000)}`);
		}
		await new Promise((r) => setTimeout(r, 500));
	}
	const stop = () =>
		new Promise((resolve) => {
			if (child.exitCode !== null) return resolve();
			child.once('exit', () => resolve());
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				resolve();
			}
			setTimeout(() => {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {}
			}, 15_000).unref();
		});
	return { base, child, stop, output: () => output };
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

/**
 * The run data of an execution as n8n's REST API returns it (`flatted`-encoded text, the format
 * n8n stores), parsed with n8n's own copy of `flatted`.
 */
function parseExecutionData(data, which) {
	if (typeof data !== 'string') return data;
	const flatted = require(require.resolve('flatted', { paths: [path.join(ensureN8n(which).dir, 'node_modules', 'n8n')] }));
	return flatted.parse(data);
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
	installPackage,
	freePort,
	n8nEnv,
	runN8n,
	startN8n,
	setupOwner,
	parseExecutionData,
};

// `node scripts/n8n-host.js lines`: the tested lines as `n8n2=2.41.1`, `node2=24`, … lines (CI's
// cache keys, written to $GITHUB_OUTPUT)
if (require.main === module && process.argv[2] === 'lines') {
	for (const [name, line] of Object.entries(LINES)) {
		const key = name.replace(/\.x$/, '');
		process.stdout.write(`n8n${key}=${line.version}\nnode${key}=${line.node}\n`);
	}
}
