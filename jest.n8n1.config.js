/**
 * The n8n 1.x tier (`npm run test:n8n1`): the end-to-end smoke set (test/e2e/smoke.test.ts) in a
 * real n8n of the maintained 1.x line on its own Node.js (scripts/n8n-host.js `LINES['1.x']`:
 * n8n 1.123.81 on Node 22, both installed once into the n8n cache). `npm test` runs the same set,
 * with the rest of the end-to-end tier, on the 2.x line.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

// the line test/e2e/host.ts runs on; jest's workers inherit this process's environment
process.env.SENTIONE_N8N_LINE = '1.x';

module.exports = {
	...base,
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/smoke.test.ts'],
	// the secrets watch as in every run; no figures written (docs/reliability.md shows the default suite's)
	reporters: ['default', ['<rootDir>/test/setup/secretsReporter.js', { results: false }]],
};
