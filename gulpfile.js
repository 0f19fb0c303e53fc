/**
 * Orchestration nothing else does: the local SentiOne simulator with a live data set, and the
 * one-command demo. `n8n-node build` stays the only build.
 *
 *   npx gulp simulator   simulator on 127.0.0.1:4010 with mentions arriving live
 *   npx gulp demo        everything below; Ctrl+C stops everything it started
 *   npx gulp spike       stages a burst of negative mentions in the running demo's simulator
 *                        (--minutes 15, --per-minute 8, --negative 0.8, --project 1002, --in 0)
 *
 * The demo: the simulator (3 projects × 3,000 mentions; a new mention a minute per project on
 * average, on an office-hours daily pattern, the past day of it collected at start by moving the
 * simulator's clock a day forward; a burst of negative mentions of project
 * 1002 two minutes after the start; a mention of project 1001 going viral), a local inbox standing in for Slack, Google Sheets and the
 * chat model (scripts/demo-inbox.js), and a real n8n on 127.0.0.1 with this package installed as a
 * community package, the SentiOne credentials pointing at the simulator, the templates of examples/
 * imported as they are (the templates name no credential: the demo chooses one of its own for
 * their SentiOne nodes as it imports them) plus their runnable "Demo: …" variants (the live Slack
 * alert, the spike alert, the digest, the viral alert and the Sheets ones active), and an owner to
 * log in with.
 *
 * Ports: SIMULATOR_PORT (4010), INBOX_PORT (4011), N8N_PORT (5678). State lives in DEMO_DIR
 * (.demo/), fresh on each start unless --keep. --no-build skips `npm run build`.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { series } = require('gulp');

const { startInbox } = require('./scripts/demo-inbox');
const { catchUp, stageBurst, stageViral } = require('./scripts/demo-traffic');
const {
	ACTIVE_TEMPLATES,
	CHAT_MODEL_CREDENTIAL,
	DEMO_CREDENTIALS,
	DEMO_TRAFFIC,
	DIGEST_EVERY_MINUTES,
	SPIKE_PROJECT,
	demoWorkflow,
	templates,
	withDemoCredential,
} = require('./scripts/demo-workflows');
const { N8N_VERSION } = require('./scripts/n8n/lines');
const { ensureN8n, installPackage, newUserFolder } = require('./scripts/n8n/install');
const { n8nEnv, runN8n, startN8n } = require('./scripts/n8n/run');
const rest = require('./scripts/n8n/rest');

const ROOT = __dirname;
const DEMO_DIR = path.resolve(process.env.DEMO_DIR || path.join(ROOT, '.demo'));
const SIMULATOR_PORT = Number(process.env.SIMULATOR_PORT || 4010);
const INBOX_PORT = Number(process.env.INBOX_PORT || 4011);
const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const OWNER = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'User',
	password: 'Demo-pass-1234',
};
const LIVE_RATE = DEMO_TRAFFIC.ratePerMinute;
const MENTIONS = 3000;
const HOUR_MS = 3_600_000;
/** The demo's burst: it starts this long after the simulator, so n8n is up and watching. */
const DEMO_BURST_IN_MINUTES = 2;

/** What the demo started, newest last: `stop()` (async, graceful) and `kill()` (sync, last resort). */
const children = [];

async function stopAll() {
	for (const child of children.splice(0).reverse()) {
		try {
			await child.stop();
		} catch {}
	}
}

process.on('exit', () => {
	for (const child of children.splice(0)) {
		try {
			child.kill();
		} catch {}
	}
});

function waitForSignal() {
	return new Promise((resolve) => {
		const done = () => {
			process.stderr.write('\nstopping ...\n');
			resolve();
		};
		process.once('SIGINT', done);
		process.once('SIGTERM', done);
	});
}

/**
 * Starts the simulator with its clock a day back and frozen, then moves the clock to now: the
 * simulator collects that day minute by minute on the daily pattern (DEMO_TRAFFIC), so the recent
 * past looks like a real project's, then runs with real time.
 */
async function startSimulator(extraArgs = []) {
	const args = [
		path.join(ROOT, 'simulator/src/cli.ts'),
		'--port',
		String(SIMULATOR_PORT),
		'--mentions',
		String(MENTIONS),
		'--now',
		new Date(Date.now() - DEMO_TRAFFIC.pastHours * HOUR_MS).toISOString(),
		'--clock',
		'frozen',
		'--live-rate',
		String(LIVE_RATE),
		'--live-daily',
		DEMO_TRAFFIC.daily,
		// no random engagement updates: each would be a viral alert for an already popular mention
		// (with its look-up); the demo stages one mention going viral instead
		'--engagement-rate',
		'0',
		'--heartbeat-ms',
		'15000',
		...extraArgs,
	];
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	children.push({
		name: 'simulator',
		kill: () => child.kill('SIGKILL'),
		stop: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
				setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
			}),
	});
	const sim = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (d) => {
			out += d;
			const m = /listening on (http:\/\/\S+)/.exec(out);
			if (m) resolve({ base: m[1], child });
		});
		child.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
	});
	await catchUp(sim.base);
	return sim;
}

const clock = (iso) => new Date(iso).toISOString().slice(11, 16);

async function simulator() {
	const sim = await startSimulator();
	console.log(`SentiOne simulator: ${sim.base}/api/public/v2`);
	console.log(
		'keys: SENTIONE-APIKEY-basic-demo (Basic), SENTIONE-APIKEY-enterprise-demo (Enterprise)',
	);
	console.log(
		`new mentions arrive at ${LIVE_RATE} a minute per project on average (${DEMO_TRAFFIC.daily} pattern, UTC); Ctrl+C stops it`,
	);
	await waitForSignal();
	await stopAll();
}

function build(done) {
	if (process.argv.includes('--no-build')) return done();
	const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	done(r.status === 0 ? undefined : new Error('build failed'));
}

function n8nInstall(done) {
	ensureN8n();
	done();
}

async function demo() {
	const keep = process.argv.includes('--keep');
	if (!keep) fs.rmSync(DEMO_DIR, { recursive: true, force: true });
	const userFolder = path.join(DEMO_DIR, 'n8n');
	const filesDir = path.join(DEMO_DIR, 'files');
	// a fresh demo (no database yet) starts from one n8n has migrated already
	const fresh = !fs.existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
	if (fresh) newUserFolder(userFolder);
	fs.mkdirSync(filesDir, { recursive: true });
	installPackage(userFolder);
	try {
		const inbox = await startInbox({ port: INBOX_PORT, filesDir, timeZone: 'UTC' });
		children.push({ name: 'inbox', stop: () => inbox.stop(), kill: () => {} });
		const sim = await startSimulator();
		const { burst } = await stageBurst(sim.base, {
			projectId: SPIKE_PROJECT.id,
			inMinutes: DEMO_BURST_IN_MINUTES,
		});
		// a mention of project 1001 that takes off: the viral demo's rules fire within minutes
		const viral = await stageViral(sim.base, { projectId: 1001 });
		const env = n8nEnv(userFolder, N8N_PORT, {
			N8N_RUNNERS_BROKER_PORT: process.env.N8N_RUNNERS_BROKER_PORT || String(N8N_PORT + 1),
			// the weekly export writes its CSV files here (n8n's default is ~/.n8n-files)
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
		});
		const all = templates().map(({ file, workflow }) => ({
			file,
			workflow: withDemoCredential(file, workflow),
		}));
		const variants = all.map(({ file, workflow }) => ({
			file,
			workflow: demoWorkflow(file, workflow, inbox.base, filesDir),
		}));
		if (fresh) {
			process.stderr.write('demo: importing credentials and workflows into n8n ...\n');
			const credentialsFile = path.join(DEMO_DIR, 'credentials.json');
			fs.writeFileSync(
				credentialsFile,
				JSON.stringify([
					...DEMO_CREDENTIALS.map((c) => ({
						id: c.id,
						name: c.name,
						type: 'sentiOneApi',
						data: { apiKey: c.key, baseUrl: sim.base },
					})),
					{
						...CHAT_MODEL_CREDENTIAL,
						type: 'openAiApi',
						data: { apiKey: 'demo-not-a-secret', url: `${inbox.base}/v1` },
					},
				]),
			);
			const imported = await runN8n(['import:credentials', `--input=${credentialsFile}`], env);
			if (imported.code !== 0) throw new Error(`credential import failed:\n${imported.stderr}`);
			fs.rmSync(credentialsFile);
			const workflowsDir = path.join(DEMO_DIR, 'workflows');
			fs.mkdirSync(workflowsDir, { recursive: true });
			for (const { workflow } of [...all, ...variants]) {
				fs.writeFileSync(
					path.join(workflowsDir, `${workflow.id}.json`),
					JSON.stringify(workflow, null, 2),
				);
			}
			const r = await runN8n(['import:workflow', '--separate', `--input=${workflowsDir}`], env);
			if (r.code !== 0) throw new Error(`workflow import failed:\n${r.stderr}`);
		}
		const n8n = await startN8n(env);
		children.push({
			name: 'n8n',
			stop: () => n8n.stop(),
			kill: () => process.kill(-n8n.child.pid, 'SIGKILL'),
		});
		if (fresh) {
			const owner = rest.client(n8n.base, await rest.setupOwner(n8n.base, OWNER));
			for (const { file, workflow } of variants) {
				if (!ACTIVE_TEMPLATES.includes(file)) continue;
				const activated = await owner.activate(workflow.id);
				if (activated.status !== 200)
					throw new Error(`activating ${workflow.name}: ${JSON.stringify(activated.json)}`);
			}
		}
		const line = (label, value) => console.log(`  ${label.padEnd(30)} ${value}`);
		console.log('');
		console.log('The SentiOne demo is running.');
		line('n8n with n8n-nodes-sentione:', `${n8n.base}   (n8n ${N8N_VERSION})`);
		line('  log in as', `${OWNER.email} / ${OWNER.password}`);
		line('SentiOne simulator:', `${sim.base}/api/public/v2`);
		line(
			'',
			`3 projects × ${MENTIONS} mentions; ${LIVE_RATE} new mention a minute per project on average (${DEMO_TRAFFIC.daily}, UTC)`,
		);
		line(
			'',
			`a burst of negative mentions of ${SPIKE_PROJECT.name} (${SPIKE_PROJECT.id}): ${clock(burst.at)}–${clock(Date.parse(burst.at) + burst.minutes * 60_000)} UTC, ×${burst.factor}`,
		);
		line(
			'',
			`a mention of Acme Mobile (1001) going viral: +${viral.growth.perMinute.shareCount} shares a minute for ${viral.growth.minutes} minutes`,
		);
		line('Local inbox:', `${inbox.base}   (stands in for Slack, Google Sheets and the chat model)`);
		console.log(
			'  Credentials "SentiOne (simulator, …)" point at the simulator. Workflows: the templates of',
		);
		console.log(
			'  examples/ (their SentiOne nodes on these credentials), and their "Demo: …" variants that post',
		);
		console.log(
			'  to the local inbox. Active: the live Slack alert (each negative mention of project',
		);
		console.log(
			`  1001 within seconds), the spike alert and the digest (every ${DIGEST_EVERY_MINUTES} minutes) of project ${SPIKE_PROJECT.id},`,
		);
		console.log(
			'  the viral alert (Acme Mobile) and Google Sheets. The spike alert comes a few minutes into the burst.',
		);
		console.log(
			'  Another burst, by hand: ./dev npx gulp spike   (options: --minutes, --per-minute,',
		);
		console.log('  --negative, --project, --in; or POST /__admin/live, simulator/README.md)');
		console.log('Ctrl+C stops n8n, the simulator and the inbox.');
		await waitForSignal();
	} finally {
		await stopAll();
	}
}

/** `gulp spike [--minutes 15] [--per-minute 8] [--negative 0.8] [--project 1002] [--in 0]` */
async function spike() {
	const option = (name, fallback) => {
		const i = process.argv.indexOf(`--${name}`);
		if (i < 0) return fallback;
		const value = Number(process.argv[i + 1]);
		if (!Number.isFinite(value)) throw new Error(`--${name} needs a number`);
		return value;
	};
	const base = `http://127.0.0.1:${SIMULATOR_PORT}`;
	const { burst, usualPerMinute } = await stageBurst(base, {
		projectId: option('project', SPIKE_PROJECT.id),
		inMinutes: option('in', 0),
		minutes: option('minutes', 15),
		perMinute: option('per-minute', 8),
		negative: option('negative', 0.8),
	});
	const end = Date.parse(burst.at) + burst.minutes * 60_000;
	console.log(
		`burst staged: project ${burst.projectId}, ${clock(burst.at)}–${clock(end)} UTC, ×${burst.factor} its usual ${usualPerMinute.toFixed(1)} mentions a minute, ${Math.round((burst.sentiment?.Negative ?? 0) * 100)}% negative`,
	);
	console.log(
		`the spike demo (project ${SPIKE_PROJECT.id}) alerts a few minutes into a burst of its project (it checks every 5 minutes)`,
	);
}

exports.simulator = simulator;
exports.spike = spike;
exports.demo = series(build, n8nInstall, demo);
exports.default = exports.demo;
