/**
 * The order test files start in (jest.config.js `testSequencer`). jest's own order (files that
 * failed last time, then the slowest it remembers, then the largest) within each group, and the
 * groups chosen so the long end-to-end files never start last:
 * - n8n already installed: the files that run a real n8n first (the longest), then the rest;
 * - n8n still to install (a fresh machine): one long end-to-end file first (`EARLY`: it waits for
 *   the install, started in the background by ./dev, on one worker and starts the moment it is
 *   done), then every other tier, then the other files that run a real n8n.
 * A fresh clone has no timings of jest's own (they are kept per absolute path), so within a group
 * the files known to take longest (`LONGEST`, measured seconds) start first, longest first.
 */
'use strict';

const path = require('node:path');

const Sequencer = require('@jest/test-sequencer').default;

const { isInstalled } = require('../../scripts/n8n/install.js');

const REAL_N8N = new Set(['e2e', 'n8n1', 'queue']);
const ROOT = path.resolve(__dirname, '..', '..');

/** Seconds each took on 2 cores with 4 workers (the rest take less). */
const LONGEST = {
	'test/e2e/demo.test.ts': 120,
	'test/e2e/digestRestart.test.ts': 120,
	'test/e2e/budget.test.ts': 150,
	'test/e2e/triggers.test.ts': 120,
	'test/e2e/smoke.test.ts': 100,
	'test/e2e/restart.test.ts': 90,
	'test/e2e/editor.test.ts': 50,
	'test/engine/reliability/hostileServers.test.ts': 60,
	'test/engine/trigger/stream.test.ts': 50,
	'test/engine/reliability/deadlines.test.ts': 40,
};

/**
 * The end-to-end file that starts at once on a fresh machine: long, and more waiting than
 * computing, its checks 15 s apart, so the other tiers' load beside it does not matter (unlike
 * budget.test.ts's clock running ×30).
 */
const EARLY = 'test/e2e/triggers.test.ts';

const relativePath = (test) => path.relative(ROOT, test.path).split(path.sep).join('/');

class TierSequencer extends Sequencer {
	sort(tests) {
		const realN8n = (test) => REAL_N8N.has(test.context.config.displayName?.name);
		const known = (test) => LONGEST[relativePath(test)] ?? 0;
		// a stable sort: jest's order among the files the table does not name
		const order = (group) => super.sort(group).sort((a, b) => known(b) - known(a));
		const e2e = order(tests.filter(realN8n));
		const rest = order(tests.filter((test) => !realN8n(test)));
		if (isInstalled()) return [...e2e, ...rest];
		// n8n still installing: EARLY takes one worker at once (it waits for the install without
		// using the CPU, and starts the moment n8n is there, beside the other tiers); the others
		// after every other tier
		const early = e2e.filter((test) => relativePath(test) === EARLY);
		return [...early, ...rest, ...e2e.filter((test) => !early.includes(test))];
	}
}

module.exports = TierSequencer;
