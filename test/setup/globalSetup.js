/**
 * Before any test file (jest.config.js `globalSetup`): the run's folder (`$SENTIONE_TEST_RUN_DIR`:
 * each worker's n8n user folder, test/setup/env.ts), and a folder for the n8n the end-to-end files
 * share in this run (test/support/n8n/host.ts `sharedN8n`), named in `$SENTIONE_SHARED_N8N` for
 * jest's workers. Nothing starts here: the first file that needs that n8n starts it, so a run
 * without end-to-end files pays nothing. test/setup/globalTeardown.js stops it.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function globalSetup() {
	// the run's own folder: each worker's n8n user folder (test/setup/env.ts); the teardown removes it
	process.env.SENTIONE_TEST_RUN_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-test-run-'));
	process.env.SENTIONE_SHARED_N8N = fs.mkdtempSync(path.join(os.tmpdir(), 'sentione-shared-'));
	// jest's own process: when it is gone without its teardown (Ctrl+C), the shared n8n stops too
	process.env.SENTIONE_SHARED_N8N_JEST = String(process.pid);
};
