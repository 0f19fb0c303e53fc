/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
// n8n-core's InstanceSettings writes an encryption-key config under N8N_USER_FOLDER on first use:
// give every test worker its own throw-away folder instead of the user's home.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'sentione-n8n-test-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
