#!/usr/bin/env node
/**
 * The README's pictures: the n8n editor as a user meets this package, taken from the running demo
 * with headless Chromium (Debian's `chromium` package, driven by playwright-core; installed with
 * apt-get when /usr/bin/chromium is missing: test/support/n8n/chromium.js; the inbox pictures also
 * need Debian's `fonts-noto-color-emoji`, installed the same way).
 *
 *   npm run screenshots                 build, start the demo on free ports, shoot, stop it
 *   npm run screenshots -- --url http://127.0.0.1:5678 [--inbox http://127.0.0.1:4011]
 *                                       use a demo that is already running
 *   npm run screenshots -- --only inbox,ai-agent   only these pictures (names below, without
 *                                       .png; `inbox` is the four inbox-*.png)
 *
 * Writes .github/images/*.png (the README's pictures: outside the reach of `n8n-node build`, which
 * copies every other png/svg of the repository into dist/):
 *   node-panel.png         the nodes panel searched for "mentions": the SentiOne entry (actions and
 *                          the poll trigger) and the SentiOne Stream Trigger, the canvas subtitles behind
 *   search-filters.png     an operation: Search Recent with its filters, executed
 *   tier-refusal.png       a Basic key running Search Historical: the error in the output panel
 *   stream-trigger.png     the SentiOne Stream Trigger of the live Slack alert demo, "Fetch test event"
 *   credential.png         the credential, tested against the simulator
 *   executed-workflow.png  the weekly export demo, executed
 *   ai-agent.png           the AI agent demo with the SentiOne tools, asked in the chat
 *   inbox-spike.png        the spike alert demo's message in the local inbox (Slack's stand-in),
 *                          for the burst the demo stages a few minutes after its start
 *   inbox-viral.png        the viral alert demo's first message (the mention the demo makes go viral)
 *   inbox-digest.png       the digest demo's first message of a window it saw whole
 *   inbox-live-alert.png   the live alert demo's first message (one negative mention)
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const browser = require('../test/support/n8n/chromium');
const { aptInstall } = require('./n8n/install');
const { freePort } = require('./n8n/run');
const rest = require('./n8n/rest');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, '.github', 'images');
const LOGIN = { email: 'demo@example.com', password: 'Demo-pass-1234' };
const { VIEWPORT, closeToasts, dismissPopups } = browser;

function log(message) {
	process.stderr.write(`[screenshots] ${message}\n`);
}

/** Starts `gulp demo` in its own process group on free ports; resolves once it printed its banner. */
async function startDemo() {
	// the demo's usual ports when they are free, so the pictures show the URLs a user sees
	const port = async (usual) => ((await isFree(usual)) ? usual : await freePort());
	const ports = {
		SIMULATOR_PORT: await port(4010),
		INBOX_PORT: await port(4011),
		N8N_PORT: await port(5678),
		N8N_RUNNERS_BROKER_PORT: await port(5679),
	};
	// inside the repo's (git-ignored) .demo/, so the notes in the pictures show a short path
	const demoDir = path.join(ROOT, '.demo', 'screenshots');
	const child = spawn(
		process.execPath,
		[path.join(ROOT, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'demo'],
		{
			cwd: ROOT,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				DEMO_DIR: demoDir,
				...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
			},
		},
	);
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
		inbox: `http://127.0.0.1:${ports.INBOX_PORT}`,
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

/** The demo owner's session: its cookie for the browser, and the REST client (scripts/n8n/rest.js) on it. */
async function session(base) {
	const cookie = await rest.login(base, LOGIN);
	return { cookie, rest: rest.client(base, cookie).data };
}

/** A search a user builds in the editor: recent negative mentions with several filters. */
const SEARCH_WORKFLOW = {
	name: 'SentiOne: recent negative mentions',
	active: false,
	settings: { executionOrder: 'v1', timezone: 'UTC' },
	nodes: [
		{
			id: '5c1e7b1a-0000-4000-8000-000000000001',
			name: 'When clicking ‘Execute workflow’',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '5c1e7b1a-0000-4000-8000-000000000002',
			name: 'Search recent mentions',
			type: 'n8n-nodes-sentione.sentiOne',
			typeVersion: 1,
			position: [260, 0],
			credentials: {
				sentiOneApi: { id: 'sentioneDemoBasic', name: 'SentiOne (simulator, Basic key)' },
			},
			parameters: {
				resource: 'mention',
				operation: 'searchRecent',
				project: {
					__rl: true,
					value: '1001',
					mode: 'list',
					cachedResultName: 'Acme Mobile (1001)',
				},
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
	connections: {
		'When clicking ‘Execute workflow’': {
			main: [[{ node: 'Search recent mentions', type: 'main', index: 0 }]],
		},
	},
};

/** The tier refusal: a Basic key asked for Search Historical (Enterprise), as a user might try it. */
const TIER_WORKFLOW = {
	name: 'SentiOne: last year with a Basic key',
	active: false,
	settings: { executionOrder: 'v1', timezone: 'UTC' },
	nodes: [
		{
			id: '5c1e7b1a-0000-4000-8000-000000000011',
			name: 'When clicking ‘Execute workflow’',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '5c1e7b1a-0000-4000-8000-000000000012',
			name: "Last year's mentions",
			type: 'n8n-nodes-sentione.sentiOne',
			typeVersion: 1,
			position: [260, 0],
			credentials: {
				sentiOneApi: { id: 'sentioneDemoBasic', name: 'SentiOne (simulator, Basic key)' },
			},
			parameters: {
				resource: 'mention',
				operation: 'searchHistorical',
				project: {
					__rl: true,
					value: '1001',
					mode: 'list',
					cachedResultName: 'Acme Mobile (1001)',
				},
				returnAll: false,
				limit: 100,
				filters: { publishedInLast: { period: { amount: 365, unit: 'days' } } },
				options: {},
			},
		},
	],
	connections: {
		'When clicking ‘Execute workflow’': {
			main: [[{ node: "Last year's mentions", type: 'main', index: 0 }]],
		},
	},
};

async function main() {
	const urlFlag = process.argv.indexOf('--url');
	const onlyFlag = process.argv.indexOf('--only');
	const only = onlyFlag > 0 ? process.argv[onlyFlag + 1].split(',') : undefined;
	const want = (name) => !only || only.includes(name);
	browser.ensureChromium();
	// the inbox pictures show the Slack messages' emoji as Slack does
	if (want('inbox')) aptInstall(['fonts-noto-color-emoji']);
	const inboxFlag = process.argv.indexOf('--inbox');

	const demo =
		urlFlag > 0
			? {
					base: process.argv[urlFlag + 1].replace(/\/$/, ''),
					inbox: (inboxFlag > 0 ? process.argv[inboxFlag + 1] : 'http://127.0.0.1:4011').replace(
						/\/$/,
						'',
					),
					stop: async () => {},
				}
			: await startDemo();
	let chromium;
	try {
		const { cookie, rest } = await session(demo.base);
		const workflows = await rest('GET', '/workflows');
		const ensure = async (workflow) =>
			workflows.find((w) => w.name === workflow.name) ??
			(await rest('POST', '/workflows', workflow));
		const search = await ensure(SEARCH_WORKFLOW);
		const tier = await ensure(TIER_WORKFLOW);

		chromium = await browser.launch(demo.base, cookie);
		const { page } = chromium;
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
		const node = (nodeName) =>
			page
				.locator(
					`[data-test-id="canvas-node"][data-node-name="${nodeName}"] [data-test-id$="-node"]`,
				)
				.first();
		const executeWorkflow = async () => {
			await page.locator('[data-test-id="execute-workflow-button"]').click();
			await page.waitForFunction(() => !document.body.innerText.includes('Executing'), null, {
				timeout: 120_000,
			});
			await page.waitForTimeout(1500);
		};
		/** Opens a node's details and moves the divider left: the parameters narrower, the output wider. */
		const openNode = async (nodeName, { widen = 330 } = {}) => {
			await node(nodeName).dblclick();
			await page.waitForSelector('[data-test-id="ndv"] [data-test-id="output-panel"]', {
				timeout: 30_000,
			});
			await page.waitForTimeout(1000);
			const handle = page
				.locator('[data-test-id="ndv"] [data-test-id="panel-drag-button"]')
				.first();
			const box = widen ? await handle.boundingBox() : null;
			if (box) {
				await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
				await page.mouse.down();
				await page.mouse.move(box.x + box.width / 2 - widen, box.y + box.height / 2, { steps: 12 });
				await page.mouse.up();
			}
		};

		if (want('node-panel')) {
			// 1. The nodes panel, searched for "mentions": the SentiOne entry (with the action node's
			//    description) and the SentiOne Stream Trigger; behind it the canvas subtitle "Export mentions"
			await open('/workflow/sentioneExport01Demo');
			await page.click('[data-test-id="node-creator-plus-button"]');
			await page.keyboard.type('mentions');
			await page
				.locator(
					'[data-test-id="item-iterator-item"][data-keyboard-nav-id^="n8n-nodes-sentione.sentiOneStreamTrigger-"]',
				)
				.waitFor({ timeout: 30_000 });
			await page.mouse.move(200, 450);
			await shot('node-panel.png');
		}

		if (want('credential')) {
			// 2. The credential: API key (hidden) and Base URL, tested against the simulator
			await page.goto(`${demo.base}/home/credentials/sentioneDemoBasic`, {
				waitUntil: 'networkidle',
			});
			await page.waitForSelector('[data-test-id="credential-edit-dialog"], .el-dialog', {
				timeout: 60_000,
			});
			await page.waitForTimeout(1500);
			const retest = page.getByRole('button', { name: /^(Retry|Test)/ });
			if (await retest.count()) await retest.first().click();
			await page.waitForTimeout(2500);
			await shot('credential.png');
		}

		if (want('search-filters')) {
			// 3. Search Recent with its filters, executed: parameters and the simplified rows
			await open(`/workflow/${search.id}`);
			await executeWorkflow();
			await page.setViewportSize({ width: 1600, height: 1300 });
			await openNode('Search recent mentions');
			await shot('search-filters.png');
			await page.keyboard.press('Escape');
			await page.setViewportSize(VIEWPORT);
		}

		if (want('tier-refusal')) {
			// 4. A tier refusal: the Basic key running Search Historical, the error in the output panel
			await open(`/workflow/${tier.id}`);
			await executeWorkflow();
			await closeToasts(page);
			await openNode("Last year's mentions", { widen: 200 });
			await page.waitForSelector('[data-test-id="ndv"] [data-test-id="node-error-message"]', {
				timeout: 30_000,
			});
			await shot('tier-refusal.png');
			await page.keyboard.press('Escape');
		}

		if (want('stream-trigger')) {
			// 5. The SentiOne Stream Trigger of the live Slack alert demo: "Fetch test event" (the
			//    mentions of the last 5 minutes, over one live-stream connection), its events listed
			await page.setViewportSize({ width: 1600, height: 1000 });
			await open('/workflow/sentioneStream01Demo');
			await openNode('Negative mention, live', { widen: 0 });
			await page
				.locator(
					'[data-test-id="ndv"] [data-test-id="trigger-execute-button"], [data-test-id="ndv"] [data-test-id="node-execute-button"]',
				)
				.first()
				.click();
			await page.waitForSelector(
				'[data-test-id="ndv"] [data-test-id="output-panel"] table, [data-test-id="ndv"] [data-test-id="output-panel"] [data-test-id="run-data-schema-item"], [data-test-id="ndv"] [data-test-id="node-error-message"]',
				{ timeout: 120_000 },
			);
			await closeToasts(page);
			// and its two events, open: "New Mention" and "Engagement Update" (the tier in its description)
			await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-event"]').click();
			await page.getByText('Engagement Update', { exact: true }).waitFor({ timeout: 10_000 });
			await shot('stream-trigger.png');
			await page.keyboard.press('Escape');
			await page.keyboard.press('Escape');
			await page.setViewportSize(VIEWPORT);
		}

		if (want('executed-workflow')) {
			// 6. An executed workflow: the weekly export (demo variant) run from the editor
			await open('/workflow/sentioneExport01Demo');
			await executeWorkflow();
			await closeToasts(page);
			await shot('executed-workflow.png');
		}

		if (want('ai-agent')) {
			// 7. The AI agent with the SentiOne tool, asked in the chat
			await page.setViewportSize({ width: 1440, height: 1080 });
			await open('/workflow/sentioneAgent001Demo');
			await page.locator('[data-test-id="workflow-chat-button"]').click();
			const input = page.locator('[data-test-id="canvas-chat"] textarea').first();
			await input.waitFor({ timeout: 30_000 });
			await input.fill('What are people complaining about at Acme Mobile this week?');
			await input.press('Enter');
			await page.waitForFunction(() => document.body.innerText.includes('Frequent words'), null, {
				timeout: 120_000,
			});
			await closeToasts(page);
			await page.locator('[data-test-id="zoom-to-fit"]').click();
			await page.waitForTimeout(1200);
			await shot('ai-agent.png');
			await page.setViewportSize(VIEWPORT);
		}

		if (want('inbox')) {
			// 8. The alerts as they arrive in the local inbox (the demo's Slack): the first live alert
			//    (a negative mention of project 1001), the spike alert for the staged burst, the viral
			//    alert, and the first digest (every 10 minutes in the demo) of a window seen whole
			const arrived = async (channel, skip) => {
				const deadline = Date.now() + 25 * 60_000;
				for (;;) {
					const { slack } = await (await fetch(`${demo.inbox}/inbox.json`)).json();
					if (slack.some((m) => m.channel === channel && !(skip && m.text.includes(skip)))) return;
					if (Date.now() > deadline) throw new Error(`no message on ${channel} in the inbox`);
					await new Promise((resolve) => setTimeout(resolve, 5000));
				}
			};
			const message = async (channel, file, { skip, oldest = false } = {}) => {
				await arrived(channel, skip);
				await page.setViewportSize({ width: 1000, height: 1400 });
				await page.goto(demo.inbox, { waitUntil: 'load' });
				const cards = page.locator('.msg', { hasText: channel, hasNotText: skip });
				const card = oldest ? cards.last() : cards.first();
				await card.waitFor({ timeout: 10_000 });
				await card.screenshot({ path: path.join(OUT, file) });
				log(`.github/images/${file}`);
			};
			await message('#live-alerts', 'inbox-live-alert.png', { oldest: true });
			await message('#spike-alerts', 'inbox-spike.png');
			await message('#viral-alerts', 'inbox-viral.png', { oldest: true });
			await message('#daily-digest', 'inbox-digest.png', {
				skip: 'the trigger started in the middle of this window',
				oldest: true,
			});
			await page.setViewportSize(VIEWPORT);
		}
	} finally {
		await chromium?.close();
		await demo.stop();
	}
}

main().catch((error) => {
	log(error.stack ?? String(error));
	process.exitCode = 1;
});
