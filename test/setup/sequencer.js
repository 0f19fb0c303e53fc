/**
 * The order test files start in (jest.config.js `testSequencer`). jest's own order (files that
 * failed last time, then the slowest it remembers, then the largest) within each group, and the
 * groups chosen so the long end-to-end files never start last:
 * - n8n already installed: the e2e files first (the longest), then the rest;
 * - n8n still to install (a fresh machine): every other tier first, while the install runs in
 *   the background (./dev starts it), then the e2e files, which wait for it.
 */
'use strict';

const Sequencer = require('@jest/test-sequencer').default;

const n8nHost = require('../../scripts/n8n-host.js');

const REAL_N8N = new Set(['e2e', 'n8n1', 'queue']);

class TierSequencer extends Sequencer {
	sort(tests) {
		const realN8n = (test) => REAL_N8N.has(test.context.config.displayName?.name);
		const e2e = super.sort(tests.filter(realN8n));
		const rest = super.sort(tests.filter((test) => !realN8n(test)));
		return n8nHost.isInstalled() ? [...e2e, ...rest] : [...rest, ...e2e];
	}
}

module.exports = TierSequencer;
