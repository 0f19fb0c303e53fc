/**
 * One jest configuration, one project per test tier (CONTRIBUTING.md has the table, with the
 * command and the measured time of each):
 *
 *   unit       test/unit/       pure code, and every operation and trigger step with a fake
 *                               transport and a fake n8n context (no simulator, no n8n)
 *   engine     test/engine/     the nodes in n8n-core's real engine against the simulator or a
 *                               hostile server of the test's own
 *   simulator  simulator/test/  the simulator as a black box (its own reading of the spec)
 *   package    test/package/    the built tarball, n8n's scanner, the example workflows
 *   e2e        test/e2e/        a real n8n 2.x with the package installed as a community package
 *   soak       test/soak/       the reliability soaks that take minutes
 *   queue      test/queue/      n8n in queue mode: main + two workers on Redis and PostgreSQL
 *   n8n1       test/e2e/        the end-to-end smoke set on the n8n 1.x line
 *
 * `npx jest` with no --selectProjects runs what `npm test` runs (unit, engine, simulator,
 * package, e2e); `npx jest <file>` runs one file in its tier. soak, queue and n8n1 run only when
 * selected (`npm run test:soak` …): n8n1 runs e2e's smoke file again on the other line.
 * @type {import('jest').Config}
 */
const DEFAULT_TIERS = ['unit', 'engine', 'simulator', 'package', 'e2e'];

const shared = {
	testEnvironment: 'node',
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.ts'],
	// records what every test file's nodes produce; the reporter proves no API key is in it. n8n's
	// log lines are recorded but not printed (SENTIONE_TEST_LOGS=1 prints them)
	setupFilesAfterEnv: ['<rootDir>/test/setup/secrets.ts'],
};

/** the tiers whose tests run a real n8n or last minutes: ten minutes a test (test/setup/longTests.ts) */
const long = {
	setupFilesAfterEnv: [...shared.setupFilesAfterEnv, '<rootDir>/test/setup/longTests.ts'],
};

const tier = (name, roots, extra = {}) => ({
	...shared,
	displayName: name,
	roots: roots.map((root) => `<rootDir>/${root}`),
	...extra,
});

const TIERS = [
	tier('unit', ['test/unit']),
	tier('engine', ['test/engine']),
	tier('simulator', ['simulator/test']),
	tier('package', ['test/package'], long),
	tier('e2e', ['test/e2e'], long),
	tier('soak', ['test/soak'], long),
	tier('queue', ['test/queue'], long),
	tier('n8n1', ['test/e2e'], {
		...long,
		testMatch: ['**/smoke.test.ts'],
		// the line test/support/n8n/host.ts runs on
		setupFiles: [...shared.setupFiles, '<rootDir>/test/setup/n8n1.ts'],
	}),
];

const selecting = process.argv.some((arg) => arg.startsWith('--selectProjects'));

module.exports = {
	projects: selecting ? TIERS : TIERS.filter((t) => DEFAULT_TIERS.includes(t.displayName)),
	// slowest first, so the long files do not start last; e2e after the rest, while n8n installs
	testSequencer: '<rootDir>/test/setup/sequencer.js',
	// the one n8n the end-to-end files that only need its REST API share (test/support/n8n/host.ts)
	globalSetup: '<rootDir>/test/setup/globalSetup.js',
	globalTeardown: '<rootDir>/test/setup/globalTeardown.js',
	reporters: [
		'default',
		'<rootDir>/test/setup/secretsReporter.js',
		// where the time went: a table at the end, test/.results/timings.json
		'<rootDir>/test/setup/timingsReporter.js',
	],
	testTimeout: 30_000,
};
