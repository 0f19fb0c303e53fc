/**
 * Running a real n8n headless on 127.0.0.1, the way a user runs it, with the target line's n8n on
 * the target line's Node.js (scripts/n8n/lines.js): `n8nEnv()` its environment, `runN8n()` a CLI
 * command to completion, `startN8n()` a long-running `n8n start` or `n8n worker` until it is
 * ready. The REST API of a running n8n: scripts/n8n/rest.js. Plain CommonJS so the gulpfile and
 * the jest suites share it.
 */
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { ensureN8n, pathWith } = require('./install');
const { status } = require('./rest');

/**
 * Calls `fn` once `ms` of real time have passed, on the monotonic clock (checked every second): a
 * deadline for real work (n8n starting, a CLI command, a shutdown) that a sped-up wall clock
 * (test/support/n8n/timeLapse.js, which also shortens timers) must not shorten. `clearInterval`
 * cancels it.
 */
function afterRealMs(ms, fn) {
	const until = performance.now() + ms;
	const timer = setInterval(() => {
		if (performance.now() < until) return;
		clearInterval(timer);
		fn();
	}, 1000);
	return timer;
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
		const timer = afterRealMs(timeoutMs, () => {
			child.kill('SIGKILL');
			const stdout = collect();
			reject(
				new Error(
					`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stderr.slice(-2000)}\n${stdout.slice(-2000)}`,
				),
			);
		});
		child.on('exit', (code) => {
			clearInterval(timer);
			resolve({ code, stdout: collect(), stderr });
		});
	});
}

/**
 * Starts a long-running n8n command and resolves once it is ready; `stop()` ends it (and its task
 * runner). `command`: `start` (main: ready when its health check answers 200 and its REST API is
 * mounted) or `worker` (queue mode: ready when `readyUrl`, the worker's health server, answers 200;
 * without it, when the log says the worker is ready). `args` are appended (`--concurrency=N`).
 * `target` picks the tested n8n line (its n8n on its Node.js). With `logFile`, its output goes to
 * that file instead of a pipe, so it can outlive the process that started it.
 */
async function startN8n(
	env,
	{ timeoutMs = 120_000, command = 'start', args = [], readyUrl, target: which, logFile } = {},
) {
	const { bin, node } = ensureN8n(which);
	const out = logFile ? fs.openSync(logFile, 'a') : 'pipe';
	const child = spawn(node, [bin, command, ...args], {
		env: { ...env, PATH: pathWith(node, env.PATH) },
		stdio: ['ignore', out, out],
		detached: true,
	});
	let piped = '';
	if (logFile) {
		fs.closeSync(out);
		// it may outlive this process: this process does not wait for it to exit
		child.unref();
	} else {
		child.stdout.on('data', (d) => (piped += d));
		child.stderr.on('data', (d) => (piped += d));
	}
	const read = () => (logFile ? fs.readFileSync(logFile, 'utf8') : piped);
	let output = '';
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	const probe = readyUrl ?? (command === 'start' ? `${base}/healthz/readiness` : undefined);
	// real time: n8n's start is work, whatever its clock says
	const deadline = performance.now() + timeoutMs;
	// ready: the health check says so and the REST API is mounted (n8n 1.x answers the health
	// check before its REST routes exist: a POST /rest/owner/setup right then gets a 404)
	const ready = async () =>
		(await status(`${base}/healthz/readiness`)) === 200 &&
		![0, 404].includes(await status(`${base}/rest/settings`));
	for (;;) {
		output = read();
		if (child.exitCode !== null)
			throw new Error(`n8n ${command} exited early (${child.exitCode}):\n${output.slice(-4000)}`);
		if (command === 'start') {
			if (await ready()) break;
		} else if (probe) {
			if ((await status(probe)) === 200) break;
		} else if (/n8n worker is now ready/i.test(output)) break;
		if (performance.now() > deadline) {
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
			afterRealMs(graceMs, () => {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {}
			}).unref();
		});
	return { base, child, pid: child.pid, stop, output: read };
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

module.exports = { freePort, n8nEnv, runN8n, startN8n, parseExecutionData };
