/**
 * A real n8n, the way a user runs it, for the demo and the end-to-end tests.
 *
 * - `ensureN8n()` installs the pinned n8n once into a cache folder (reused by later runs; a
 *   `.complete` marker is written only after a whole install). The recipe is the one that works on
 *   these machines (../shared/guides/toolchain.md): Node 24, `--ignore-scripts` (some optional
 *   native modules try to download binaries), an override for a package the registry lacks, then a
 *   rebuild of the two native modules n8n needs.
 * - `installPackage(userFolder)` installs this package into an n8n user folder exactly like a
 *   community-package install (`.n8n/nodes/node_modules/n8n-nodes-sentione`), so node types are
 *   `n8n-nodes-sentione.<node>` as for any user.
 * - `n8nEnv()`, `runN8n()`, `startN8n()`, `setupOwner()` drive it headless on 127.0.0.1.
 *
 * Plain CommonJS so the gulpfile and the jest suites can both require it.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const N8N_VERSION = '2.41.1';
const ROOT = path.resolve(__dirname, '..');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;

function cacheRoot() {
	const base = process.env.SENTIONE_N8N_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'n8n-nodes-sentione');
	return path.join(base, `n8n-${N8N_VERSION}`);
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

/** Installs n8n once (about 5 min cold, 2.9 GB); later calls return at once. */
function ensureN8n() {
	const dir = cacheRoot();
	const marker = path.join(dir, '.complete');
	if (fs.existsSync(marker) && fs.existsSync(n8nBin(dir))) return { dir, bin: n8nBin(dir), installed: false };
	if (Number(process.versions.node.split('.')[0]) < 24) throw new Error('n8n 2.x needs Node 24: run through ./dev');
	fs.mkdirSync(dir, { recursive: true });
	const lock = path.join(dir, '.installing');
	// a parallel installer (another test worker) holds the lock: wait for it
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
			if (Date.now() > waitUntil) throw new Error('timed out waiting for another n8n install');
			spawnSync('sleep', ['2']);
			if (fs.existsSync(marker)) return { dir, bin: n8nBin(dir), installed: false };
		}
	}
	try {
		log(`installing n8n ${N8N_VERSION} into ${dir} (first run only; a few minutes) ...`);
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{ name: 'n8n-host', private: true, dependencies: { n8n: N8N_VERSION }, overrides: { linkedom: '0.18.14' } },
				null,
				2,
			),
		);
		const env = { ...process.env, npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
		const install = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env });
		log(`npm install took ${install.seconds} s; rebuilding isolated-vm and sqlite3 ...`);
		const rebuild = run('npm', ['rebuild', 'isolated-vm', 'sqlite3'], { cwd: dir, env });
		log(`rebuild took ${rebuild.seconds} s`);
		fs.writeFileSync(marker, new Date().toISOString());
	} finally {
		fs.rmSync(lock, { force: true });
	}
	return { dir, bin: n8nBin(dir), installed: true };
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
function runN8n(args, env, { timeoutMs = 120_000 } = {}) {
	const { bin } = ensureN8n();
	const outFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-cli-')), 'stdout');
	const out = fs.openSync(outFile, 'w');
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', out, 'pipe'] });
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
async function startN8n(env, { timeoutMs = 120_000 } = {}) {
	const { bin } = ensureN8n();
	const child = spawn(process.execPath, [bin, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`n8n exited early (${child.exitCode}):\n${output.slice(-4000)}`);
		try {
			const res = await fetch(`${base}/healthz/readiness`);
			if (res.status === 200) break;
		} catch {}
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
function parseExecutionData(data) {
	if (typeof data !== 'string') return data;
	const flatted = require(require.resolve('flatted', { paths: [path.join(ensureN8n().dir, 'node_modules', 'n8n')] }));
	return flatted.parse(data);
}

module.exports = {
	N8N_VERSION,
	PACKAGE_NAME,
	cacheRoot,
	ensureN8n,
	installPackage,
	freePort,
	n8nEnv,
	runN8n,
	startN8n,
	setupOwner,
	parseExecutionData,
};
