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
 * - `n8nEnv()`, `runN8n()`, `startN8n()`, `setupOwner()`, `login()` drive it headless on 127.0.0.1.
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

/**
 * Starts a long-running n8n command and resolves once it is ready; `stop()` ends it (and its task
 * runner). `command`: `start` (main, ready when /healthz/readiness of N8N_PORT answers 200) or
 * `worker` (queue mode: ready when `readyUrl`, the worker's health server, answers 200; without
 * it, when the log says the worker is ready). `args` are appended (`--concurrency=N`).
 */
async function startN8n(env, { timeoutMs = 120_000, command = 'start', args = [], readyUrl } = {}) {
	const { bin } = ensureN8n();
	const child = spawn(process.execPath, [bin, command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	const probe = readyUrl ?? (command === 'start' ? `${base}/healthz/readiness` : undefined);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`n8n ${command} exited early (${child.exitCode}):\n${output.slice(-4000)}`);
		if (probe) {
			try {
				const res = await fetch(probe);
				if (res.status === 200) break;
			} catch {}
		} else if (/n8n worker is now ready/i.test(output)) break;
		if (Date.now() > deadline) {
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {}
			throw new Error(`n8n ${command} was not ready after ${timeoutMs} ms:\n${output.slice(-4000)}`);
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
function parseExecutionData(data) {
	if (typeof data !== 'string') return data;
	const flatted = require(require.resolve('flatted', { paths: [path.join(ensureN8n().dir, 'node_modules', 'n8n')] }));
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
			throw new Error(`queue mode needs ${missing.join(' and ')}: run \`apt-get install -y redis-server postgresql\` as root first`);
		}
		log(`installing ${missing.join(' and ')} from Debian's packages (apt-get) ...`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		seconds += run('apt-get', ['update'], { env, timeout: 10 * 60_000 }).seconds;
		seconds += run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql'], { env, timeout: 20 * 60_000 }).seconds;
		log(`apt-get took ${seconds} s`);
	}
	const pgBin = postgresBin();
	if (!pgBin || !onPath('redis-server')) throw new Error('redis-server or PostgreSQL is still missing after apt-get install');
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
		if (!isAlive() || Date.now() > deadline) throw new Error(`nothing answered on 127.0.0.1:${port}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** A private Redis on a loopback port: no persistence, its own temp folder; `stop()` ends it and removes the folder. */
async function startRedis({ port } = {}) {
	const p = port ?? (await freePort());
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-redis-'));
	const child = spawn(
		'redis-server',
		['--port', String(p), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--logfile', ''],
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
	return { host: '127.0.0.1', port: p, pid: child.pid, child, stop, stopSync, output: () => output };
}

/**
 * A private PostgreSQL: `initdb` and `pg_ctl` (run as the `postgres` user) in a temp folder, on a
 * loopback port, with a database and a user (password authentication over TCP). `query(sql)`
 * runs psql as that user and returns the rows (tab-separated fields); `stop()` stops the server
 * and removes the folder.
 */
async function startPostgres({ port, database = 'n8n', user = 'n8n', password = 'n8n-queue-test' } = {}) {
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
	const as = (cmd, args, options) => (asRoot ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], { cwd: dir, ...options }) : run(cmd, args, { cwd: dir, ...options }));
	const stopServer = (mode = 'fast') => {
		if (!fs.existsSync(path.join(data, 'postmaster.pid'))) return;
		try {
			as(path.join(pgBin, 'pg_ctl'), ['-D', data, 'stop', '-m', mode, '-w', '-t', '60']);
		} catch (error) {
			log(`pg_ctl stop failed: ${error.message.slice(0, 500)}`);
		}
	};
	try {
		as(path.join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--auth-local=trust', '--auth-host=scram-sha-256']);
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
		const superuser = (sql) => run('psql', ['-h', dir, '-p', String(p), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql]);
		superuser(`CREATE ROLE ${user} LOGIN PASSWORD '${password.replace(/'/g, "''")}'`);
		superuser(`CREATE DATABASE ${database} OWNER ${user}`);
	} catch (error) {
		stopServer();
		fs.rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	const pgEnv = { ...process.env, PGPASSWORD: password };
	const query = (sql) =>
		run('psql', ['-h', '127.0.0.1', '-p', String(p), '-U', user, '-d', database, '-v', 'ON_ERROR_STOP=1', '-At', '-F', '\t', '-c', sql], { env: pgEnv })
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
	return { host: '127.0.0.1', port: p, database, user, password, dir, query, postmasterPid, stop, stopSync, log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '') };
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
	return { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' };
}

/** Starts `n8n worker --concurrency=N` (env from n8nEnv + queueEnv + workerEnv) and resolves once its health server is ready. */
async function startWorker(env, { concurrency = 10, timeoutMs } = {}) {
	const readyUrl = `http://127.0.0.1:${env.QUEUE_HEALTH_CHECK_PORT}/healthz/readiness`;
	return await startN8n(env, { command: 'worker', args: [`--concurrency=${concurrency}`], readyUrl, timeoutMs });
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
	login,
	parseExecutionData,
	ensureQueueBackends,
	startRedis,
	startPostgres,
	queueEnv,
	workerEnv,
	startWorker,
};
