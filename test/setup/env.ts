/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
// n8n-core's InstanceSettings writes an encryption-key config under N8N_USER_FOLDER on first use:
// give every test worker its own folder instead of the user's home, inside the run's folder
// (test/setup/globalSetup.js), which the run's teardown removes. One a worker, not one a file:
// this runs before every file, and a folder a file left nowhere to be removed piled up in /tmp.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	const run =
		process.env.SENTIONE_TEST_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'sentione-n8n-test-'));
	const folder = join(run, `n8n-worker-${process.env.JEST_WORKER_ID ?? process.pid}`);
	mkdirSync(folder, { recursive: true });
	process.env.N8N_USER_FOLDER = folder;
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
