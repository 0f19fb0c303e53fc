#!/usr/bin/env node
/**
 * The README's pictures: the n8n editor as a user meets this package, taken from the running demo
 * with headless Chromium (Debian's `chromium` package, driven by playwright-core).
 *
 *   npm run screenshots                 build, start the demo on free ports, shoot, stop it
 *   npm run screenshots -- --url http://127.0.0.1:5678   use a demo that is already running
 *
 * Writes .github/images/*.png (the README's pictures: outside the reach of `n8n-node build`, which
 * copies every other png/svg of the repository into dist/). Installs Chromium with apt-get when
 * /usr/bin/chromium is missing.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const host = require('./n8n-host');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, '.github', 'images');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const LOGIN = { emailOrLdapLoginId: 'demo@example.com', password: 'Demo-pass-1234' };
const VIEWPORT = { width: 1440, height: 900 };

function log(message) {
	process.stderr.write(`[screenshots] ${message}\n`);
}

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	log(`${CHROMIUM} is missing: installing Debian's chromium package ...`);
	const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
	const apt = (...args) => spawnSync(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	if (apt('install', '-y', 'chromium').status !== 0) {
		apt('update');
		if (apt('install', '-y', 'chromium').status !== 0) throw new Error('could not install chromium (apt-get install -y chromium)');
	}
	if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium installed, but ${CHROMIUM} is not there`);
}

/** Starts `gulp demo` in its own process group on free ports; resolves once it printed its banner. */
async function startDemo() {
	// the demo's usual ports when they are free, so the pictures show the URLs a user sees
	const port = async (usual) => ((await isFree(usual)) ? usual : await host.freePort());
	const ports = { SIMULATOR_PORT: await port(4010), INBOX_PORT: await port(4011), N8N_PORT: await port(5678), N8N_RUNNERS_BROKER_PORT: await port(5679) };
	// inside the repo's (git-ignored) .demo/, so the notes in the pictures show a short path
	const demoDir = path.join(ROOT, '.demo', 'screenshots');
	const child = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'demo'], {
		cwd: ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, DEMO_DIR: demoDir, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) },
	});
	let output = '';
	child.stdout.on('data', (d) => (output += d));
	child.stderr.on('data', (d) => (output += d));
	const deadline = Date.now() + 10 * 60_000;
	while (!output.includes('Ctrl+C stops')) {
		if (child.exitCode !== null) throw new Error(`the demo exited:\n${output}`);
		if (Date.now() > deadline) throw new Error(`the demo did not start:\n${output}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	log(`demo running on http://127.0.0.1:${ports.N8N_PORT}`);
	return {
		base: `http://127.0.0.1:${ports.N8N_PORT}`,
		stop: () =>
			new Promise((resolve) => {
				child.once('exit', () => {
					fs.rmSync(demoDir, { recursive: true, force: true });
					resolve();
				});
				process.kill(-child.pid, 'SIGINT');
			}),
	};
}

function isFree(port) {
	return new Promise((resolve) => {
		const server = require('node:net').createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function session(base) {
	const res = await fetch(`${base}/rest/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(LOGIN) });
	if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
	const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
	const rest = async (method, route, body) => {
		const r = await fetch(`${base}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', cookie, 'browser-id': 'screenshots' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await r.text();
		if (r.status !== 200) throw new Error(`${method} ${route} → ${r.status}: ${text.slice(0, 300)}`);
		return JSON.parse(text).data;
	};
	return { cookie, rest };
}

/** A search a user builds in the editor: recent negative mentions with several filters. */
const SEARCH_WORKFLOW = {
	name: 'SentiOne: recent negative mentions',
	active: false,
	settings: { executionOrder: 'v1', timezone: 'UTC' },
	nodes: [
		{ id: '5c1e7b1a-0000-4000-8000-000000000001', name: 'When clicking ‘Execute workflow’', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: '5c1e7b1a-0000-4000-8000-000000000002',
			name: 'Search recent mentions',
			type: 'n8n-nodes-sentione.sentiOne',
			typeVersion: 1,
			position: [260, 0],
			credentials: { sentiOneApi: { id: 'sentioneDemoBasic', name: 'SentiOne (simulator, Basic key)' } },
			parameters: {
				resource: 'mention',
				operation: 'searchRecent',
				project: { __rl: true, value: '1001', mode: 'list', cachedResultName: 'Acme Mobile (1001)' },
				returnAll: true,
				filters: {
					publishedInLast: { period: { amount: 3, unit: 'days' } },
					sentiments: ['Negative'],
					sourceTypes: ['Facebook', 'Forums', 'Reviews', 'X'],
					mentionTypes: ['Comment', 'Post'],
					query: '"customer service" OR delivery OR refund*',
					languages: 'en, en-gb, pl',
				},
				sortType: 'InfluenceScoreDescending',
				options: {},
			},
		},
	],
	connections: { 'When clicking ‘Execute workflow’': { main: [[{ node: 'Search recent mentions', type: 'main', index: 0 }]] } },
};

async function main() {
	const urlFlag = process.argv.indexOf('--url');
	ensureChromium();
	const { chromium } = require('playwright-core');
	const demo = urlFlag > 0 ? { base: process.argv[urlFlag + 1].replace(/\/$/, ''), stop: async () => {} } : await startDemo();
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-chromium-'));
	let context;
	try {
		const { cookie, rest } = await session(demo.base);
		const existing = (await rest('GET', '/workflows')).find((w) => w.name === SEARCH_WORKFLOW.name);
		const search = existing ?? (await rest('POST', '/workflows', SEARCH_WORKFLOW));

		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM,
			headless: true,
			viewport: VIEWPORT,
			args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
		});
		const [name, ...value] = cookie.split('=');
		await context.addCookies([{ name, value: value.join('='), domain: '127.0.0.1', path: '/' }]);
		const page = context.pages()[0] ?? (await context.newPage());
		fs.mkdirSync(OUT, { recursive: true });
		const shot = async (file, options = {}) => {
			await page.waitForTimeout(700);
			await page.screenshot({ path: path.join(OUT, file), ...options });
			log(`.github/images/${file}`);
		};
		const open = async (route) => {
			await page.goto(`${demo.base}${route}`, { waitUntil: 'networkidle' });
			await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 90_000 });
			await dismissPopups(page);
		};
		const node = (nodeName) => page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"] [data-test-id$="-node"]`).first();
		const executeWorkflow = async () => {
			await page.locator('[data-test-id="execute-workflow-button"]').click();
			await page.waitForFunction(() => !document.body.innerText.includes('Executing'), null, { timeout: 120_000 });
			await page.waitForTimeout(1500);
		};

		// 1. The nodes panel: search "SentiOne", open it: its actions by resource
		await open(`/workflow/${search.id}`);
		await page.click('[data-test-id="node-creator-plus-button"]');
		await page.keyboard.type('SentiOne');
		await page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^SentiOne$/ }).first().click();
		await shot('node-panel.png');

		// 2. The credential: API key (hidden) and Base URL, tested against the simulator
		await page.goto(`${demo.base}/home/credentials/sentioneDemoBasic`, { waitUntil: 'networkidle' });
		await page.waitForSelector('[data-test-id="credential-edit-dialog"], .el-dialog', { timeout: 60_000 });
		await page.waitForTimeout(1500);
		const retest = page.getByRole('button', { name: /^(Retry|Test)/ });
		if (await retest.count()) await retest.first().click();
		await page.waitForTimeout(2500);
		await shot('credential.png');

		// 3. Search Recent with its filters, executed: parameters and the simplified rows
		await open(`/workflow/${search.id}`);
		await executeWorkflow();
		await page.setViewportSize({ width: 1600, height: 1300 });
		await node('Search recent mentions').dblclick();
		await page.waitForSelector('[data-test-id="ndv"] [data-test-id="output-panel"]', { timeout: 30_000 });
		await page.waitForTimeout(1000);
		// the manual trigger has no input to show: move the parameters left, give the rows the room
		const handle = page.locator('[data-test-id="ndv"] [data-test-id="panel-drag-button"]').first();
		const box = await handle.boundingBox();
		if (box) {
			await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
			await page.mouse.down();
			await page.mouse.move(box.x + box.width / 2 - 330, box.y + box.height / 2, { steps: 12 });
			await page.mouse.up();
		}
		await shot('search-filters.png');
		await page.keyboard.press('Escape');
		await page.setViewportSize(VIEWPORT);

		// 4. An executed workflow: the weekly export (demo variant) run from the editor
		await open('/workflow/sentioneExport01Demo');
		await executeWorkflow();
		await closeToasts(page);
		await shot('executed-workflow.png');

		// 5. The AI agent with the SentiOne tool, asked in the chat
		await page.setViewportSize({ width: 1440, height: 1080 });
		await open('/workflow/sentioneAgent001Demo');
		await page.locator('[data-test-id="workflow-chat-button"]').click();
		const input = page.locator('[data-test-id="canvas-chat"] textarea').first();
		await input.waitFor({ timeout: 30_000 });
		await input.fill('What are people complaining about at Acme Mobile this week?');
		await input.press('Enter');
		await page.waitForFunction(() => document.body.innerText.includes('Frequent words'), null, { timeout: 120_000 });
		await closeToasts(page);
		await page.locator('[data-test-id="zoom-to-fit"]').click();
		await page.waitForTimeout(1200);
		await shot('ai-agent.png');
		await page.setViewportSize(VIEWPORT);
	} finally {
		await context?.close().catch(() => {});
		fs.rmSync(userDataDir, { recursive: true, force: true });
		await demo.stop();
	}
}

/** Closes n8n's notifications ("Workflow executed successfully"). */
async function closeToasts(page) {
	const close = page.locator('.el-notification .el-notification__closeBtn');
	for (let i = await close.count(); i > 0; i--) await close.nth(i - 1).click().catch(() => {});
	await page.waitForTimeout(600);
}

/** Closes what n8n pops up over the canvas (checklists, surveys, banners) so the picture is the editor. */
async function dismissPopups(page) {
	await page.waitForTimeout(1500);
	for (const selector of ['[data-test-id="production-checklist"] button[aria-label="Close"]', '[data-test-id="nps-survey-modal"] button[aria-label="Close"]', '[data-test-id="banner-stack"] [data-test-id="banner-close"]']) {
		const el = page.locator(selector);
		if ((await el.count()) && (await el.first().isVisible())) await el.first().click().catch(() => {});
	}
	const checklist = page.getByText('Production Checklist', { exact: true });
	if ((await checklist.count()) && (await checklist.first().isVisible())) {
		await checklist.first().locator('xpath=ancestor::div[.//button][1]').locator('button').first().click().catch(() => {});
	}
}

main().catch((error) => {
	log(error.stack ?? String(error));
	process.exitCode = 1;
});
