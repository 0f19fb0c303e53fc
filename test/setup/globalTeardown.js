/**
 * After the last test file (jest.config.js `globalTeardown`): removes the run's folder (the
 * workers' n8n user folders), stops the n8n the end-to-end files shared (test/support/n8n/host.ts
 * `sharedN8n`), if one started, and removes its folders.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const alive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

module.exports = async function globalTeardown() {
	const run = process.env.SENTIONE_TEST_RUN_DIR;
	if (run) fs.rmSync(run, { recursive: true, force: true });
	const dir = process.env.SENTIONE_SHARED_N8N;
	if (!dir || !fs.existsSync(dir)) return;
	for (const file of fs.readdirSync(dir).filter((f) => /^n8n-.*\.json$/.test(f))) {
		const { pid, userFolder } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		try {
			process.kill(-pid, 'SIGTERM'); // n8n and its task runner: its own process group
		} catch {}
		const deadline = Date.now() + 15_000;
		while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {}
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	fs.rmSync(dir, { recursive: true, force: true });
};
