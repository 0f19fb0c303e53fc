/**
 * The reliability soaks that take minutes (`npm run test:reliability`): the 100-drop live stream
 * and servers that never answer, bounded only by the node's own timeouts. Same setup as the
 * default run (jest.config.js), with the secrets watch.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/reliability'],
	testMatch: ['**/*.soak.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600000,
	// the soak run's secrets figures go to their own file, test/reliability/.results/secrets-soak.json
	// (`npm run docs:reliability` renders both runs' into docs/reliability.md)
	reporters: ['default', ['<rootDir>/test/setup/secretsReporter.js', { scope: 'soak' }]],
};
