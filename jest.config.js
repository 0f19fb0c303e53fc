/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/simulator/test'],
	testMatch: ['**/*.test.ts'],
	// the long soaks of the reliability suite run with `npm run test:reliability` (jest.soak.config.js),
	// the queue-mode tier with `jest -c jest.queue.config.js` (.ci/run)
	testPathIgnorePatterns: ['/node_modules/', '\\.soak\\.test\\.ts$', '/test/e2e/queue/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	// records what every test file's nodes produce; the reporter proves no API key is in it. n8n's
	// log lines are recorded but not printed (SENTIONE_TEST_LOGS=1 prints them)
	setupFilesAfterEnv: ['<rootDir>/test/setup/secrets.ts'],
	reporters: ['default', '<rootDir>/test/setup/secretsReporter.js'],
	testTimeout: 30000,
};
