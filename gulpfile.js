/**
 * Orchestration nothing else does: the local SentiOne simulator with a live data set, and the
 * one-command demo (simulator + a real n8n with this package installed, credentials pointing at
 * the simulator, the example workflows imported). `n8n-node build` stays the only build.
 *
 *   npx gulp simulator   simulator on 127.0.0.1:4010 with mentions arriving live
 *   npx gulp demo        everything; Ctrl+C stops everything it started
 *
 * Ports: SIMULATOR_PORT (4010), N8N_PORT (5678). The demo keeps its state in .demo/ and starts
 * fresh each time (pass --keep to reuse it).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { series } = require('gulp');

const host = require('./scripts/n8n-host');

const ROOT = __dirname;
const DEMO_DIR = path.join(ROOT, '.demo');
const SIMULATOR_PORT = Number(process.env.SIMULATOR_PORT || 4010);
const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const OWNER = { email: 'demo@example.com', firstName: 'Demo', lastName: 'User', password: 'Demo-pass-1234' };

/** Credentials the example workflows reference by id. */
const DEMO_CREDENTIALS = [
	{ id: 'sentioneDemoEnterprise', name: 'SentiOne (simulator, Enterprise key)', key: 'SENTIONE-APIKEY-enterprise-demo' },
	{ id: 'sentioneDemoBasic', name: 'SentiOne (simulator, Basic key)', key: 'SENTIONE-APIKEY-basic-demo' },
];

const children = [];

function stopAll() {
	for (const stop of children.splice(0).reverse()) {
		try {
			stop();
		} catch {}
	}
}

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

function startSimulator(extraArgs = []) {
	const args = [
		path.join(ROOT, 'simulator/src/cli.ts'),
		'--port',
		String(SIMULATOR_PORT),
		'--mentions',
		'3000',
		'--live-rate',
		'4',
		'--engagement-rate',
		'20',
		'--heartbeat-ms',
		'15000',
		...extraArgs,
	];
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	children.push(() => child.kill('SIGTERM'));
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (d) => {
			out += d;
			const m = /listening on (http:\/\/\S+)/.exec(out);
			if (m) resolve({ base: m[1], child });
		});
		child.on('exit', (code) => reject(new Error(`simulator exited (${code})`)));
	});
}

async function simulator() {
	const sim = await startSimulator();
	console.log(`SentiOne simulator: ${sim.base}/api/public/v2`);
	console.log('keys: SENTIONE-APIKEY-basic-demo (Basic), SENTIONE-APIKEY-enterprise-demo (Enterprise)');
	console.log('new mentions arrive every ~15 s per project; Ctrl+C stops it');
	await waitForSignal();
	stopAll();
}

function build(done) {
	const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	done(r.status === 0 ? undefined : new Error('build failed'));
}

function n8nInstall(done) {
	host.ensureN8n();
	done();
}

/** Example workflows, with every SentiOne credential reference pointing at a demo credential. */
function exampleWorkflows() {
	const dir = path.join(ROOT, 'examples');
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

async function demo() {
	const keep = process.argv.includes('--keep');
	if (!keep) fs.rmSync(DEMO_DIR, { recursive: true, force: true });
	const userFolder = path.join(DEMO_DIR, 'n8n');
	fs.mkdirSync(userFolder, { recursive: true });
	host.installPackage(userFolder);
	const sim = await startSimulator();
	const env = host.n8nEnv(userFolder, N8N_PORT);
	const fresh = !fs.existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
	if (fresh) {
		const credentialsFile = path.join(DEMO_DIR, 'credentials.json');
		fs.writeFileSync(
			credentialsFile,
			JSON.stringify(
				DEMO_CREDENTIALS.map((c) => ({
					id: c.id,
					name: c.name,
					type: 'sentiOneApi',
					data: { apiKey: c.key, baseUrl: sim.base },
				})),
			),
		);
		const imported = await host.runN8n(['import:credentials', `--input=${credentialsFile}`], env);
		if (imported.code !== 0) throw new Error(`credential import failed:\n${imported.stderr}`);
		for (const workflow of exampleWorkflows()) {
			const file = path.join(DEMO_DIR, `workflow-${workflow.id}.json`);
			fs.writeFileSync(file, JSON.stringify(workflow));
			const r = await host.runN8n(['import:workflow', `--input=${file}`], env);
			if (r.code !== 0) throw new Error(`workflow import failed (${workflow.name}):\n${r.stderr}`);
		}
	}
	const n8n = await host.startN8n(env);
	children.push(() => n8n.stop());
	if (fresh) await host.setupOwner(n8n.base, OWNER);
	console.log('');
	console.log(`n8n with n8n-nodes-sentione: ${n8n.base}`);
	console.log(`  log in as ${OWNER.email} / ${OWNER.password}`);
	console.log(`SentiOne simulator:          ${sim.base}/api/public/v2 (mentions arrive live)`);
	console.log('  credentials "SentiOne (simulator, …)" already point at it; the example workflows are imported');
	console.log('Ctrl+C stops n8n and the simulator.');
	await waitForSignal();
	stopAll();
}

process.on('exit', stopAll);

exports.simulator = simulator;
exports.demo = series(build, n8nInstall, demo);
exports.default = exports.demo;
