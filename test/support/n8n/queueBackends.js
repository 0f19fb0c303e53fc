/**
 * The queue tier's backends (test/support/n8n/cluster.ts is their one user): Redis and PostgreSQL
 * from Debian's packages, installed when missing (scripts/n8n/install.js `aptInstall`: as root,
 * one apt at a time; .ci/run starts it in the background early), run as private instances on
 * loopback ports; `queueEnv()` / `workerEnv()` give n8n's environment for them, `startWorker()`
 * runs `n8n worker`. Plain CommonJS.
 */
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { aptInstall } = require('../../../scripts/n8n/install');
const { freePort, startN8n } = require('../../../scripts/n8n/run');

/** The Debian packages of the queue tier (`apt:redis-server,postgresql` in .ci/run). */
const PACKAGES = ['redis-server', 'postgresql'];

function log(message) {
	process.stderr.write(`[queue] ${message}\n`);
}

function run(cmd, args, options) {
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
	return result;
}

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
	// when missing, both from Debian's packages (without recommends: no services of theirs are used)
	const seconds = missing.length > 0 ? aptInstall(PACKAGES, { recommends: false }) : 0;
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
	PACKAGES,
	ensureQueueBackends,
	startRedis,
	startPostgres,
	queueEnv,
	workerEnv,
	startWorker,
};
