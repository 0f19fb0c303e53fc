/**
 * The queue-mode tier (test/e2e/queue): n8n main + two workers on Redis and PostgreSQL, restarts
 * of main, a worker stop, executions per minute. Not part of `npm test` (it installs Debian
 * packages as root and runs about 10 minutes); `.ci/run` runs it:
 *   ./dev npm run build && ./dev npx jest -c jest.queue.config.js
 * then `./dev npm run docs:queue-mode` renders its figures into docs/queue-mode.md.
 * Same setup as the default run (jest.config.js), with the secrets watch; the reporter writes no
 * reliability figures for this run.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/e2e/queue'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 10 * 60_000,
	reporters: ['default', ['<rootDir>/test/setup/secretsReporter.js', { results: false }]],
};
