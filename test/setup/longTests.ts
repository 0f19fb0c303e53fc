// The tiers whose tests run a real n8n or last minutes (jest.config.js): ten minutes a test unless
// the test says otherwise. (jest reads `testTimeout` only from the root of the configuration.)
jest.setTimeout(10 * 60_000);
