/**
 * Headless Chromium for the browser tests (test/e2e/editor.test.ts) and the README's pictures
 * (scripts/screenshots.js): Debian's `chromium` package, driven by playwright-core (a
 * devDependency; it downloads no browser of its own).
 *
 * - `ensureChromium()` installs the `chromium` package with apt-get when /usr/bin/chromium (or
 *   `$CHROMIUM`) is missing (scripts/n8n/install.js `aptInstall`: as root, or through sudo; one
 *   apt at a time, so it waits for the install ./dev starts in the background for the commands
 *   that run the editor test). About a minute on a fresh machine.
 * - `launch(cookie)` starts a browser with the flags that work in containers and CI, signs it in
 *   with an n8n session cookie (`n8n-auth=…`) and returns `{ context, page, close() }`.
 * - `dismissPopups(page)` / `closeToasts(page)` clear what n8n shows over the canvas.
 *
 * Plain CommonJS so the script and the jest suites can both require it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { aptInstall } = require('../../../scripts/n8n/install');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const VIEWPORT = { width: 1440, height: 900 };
const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return CHROMIUM;
	// one apt at a time: ./dev may have started this very install in the background
	aptInstall(['chromium']);
	if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium installed, but ${CHROMIUM} is not there`);
	return CHROMIUM;
}

/** A signed-in browser on `base` (the n8n URL): `cookie` is the session cookie, `name=value`. */
async function launch(base, cookie, { viewport = VIEWPORT } = {}) {
	ensureChromium();
	const { chromium } = require('playwright-core');
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-chromium-'));
	let context;
	try {
		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM,
			headless: true,
			viewport,
			args: ARGS,
		});
		const [name, ...value] = cookie.split('=');
		await context.addCookies([
			{ name, value: value.join('='), domain: new URL(base).hostname, path: '/' },
		]);
	} catch (error) {
		fs.rmSync(userDataDir, { recursive: true, force: true });
		throw error;
	}
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		close: async () => {
			await context.close().catch(() => {});
			fs.rmSync(userDataDir, { recursive: true, force: true });
		},
	};
}

/** Closes n8n's notifications ("Workflow executed successfully"). */
async function closeToasts(page) {
	const close = page.locator('.el-notification .el-notification__closeBtn');
	for (let i = await close.count(); i > 0; i--)
		await close
			.nth(i - 1)
			.click()
			.catch(() => {});
	await page.waitForTimeout(600);
}

/** Closes what n8n pops up over the canvas (checklists, surveys, banners) so the picture is the editor. */
async function dismissPopups(page, settleMs = 1500) {
	await page.waitForTimeout(settleMs);
	for (const selector of [
		'[data-test-id="production-checklist"] button[aria-label="Close"]',
		'[data-test-id="nps-survey-modal"] button[aria-label="Close"]',
		'[data-test-id="banner-stack"] [data-test-id="banner-close"]',
	]) {
		const el = page.locator(selector);
		if ((await el.count()) && (await el.first().isVisible()))
			await el
				.first()
				.click()
				.catch(() => {});
	}
	const checklist = page.getByText('Production Checklist', { exact: true });
	if ((await checklist.count()) && (await checklist.first().isVisible())) {
		await checklist
			.first()
			.locator('xpath=ancestor::div[.//button][1]')
			.locator('button')
			.first()
			.click()
			.catch(() => {});
	}
}

module.exports = { CHROMIUM, VIEWPORT, ensureChromium, launch, closeToasts, dismissPopups };
