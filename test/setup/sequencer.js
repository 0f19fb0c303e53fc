/**
 * The order test files start in (jest.config.js `testSequencer`). jest's own order (files that
 * failed last time, then the slowest it remembers, then the largest) within each group, and the
 * groups chosen so the long end-to-end files never start last:
 * - n8n already installed: the files that run a real n8n first (the longest), then the rest;
 * - n8n still to install (a fresh machine): the long end-to-end files of `EARLY` first (each waits
 *   for the install, started in the background by ./dev, on a worker of its own and starts the
 *   moment it is done), then every other tier, then the other files that run a real n8n.
 * A fresh clone has no timings of jest's own (they are kept per absolute path), so within a group
 * the files known to take longest (`LONGEST`, measured seconds) start first, longest first.
 */
'use strict';

const path = require('node:path');

const Sequencer = require('@jest/test-sequencer').default;

const { isInstalled } = require('../../scripts/n8n/install.js');

const REAL_N8N = new Set(['e2e', 'n8n1', 'queue']);
const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Seconds each took on 2 cores beside the other tiers (the rest take less); the end-to-end files
 * as in a fresh clone's `./dev npm test` (27 November), where the ones after `EARLY` start
 * together once the other tiers are done: the longest first, so the run does not end on one.
 */
const LONGEST = {
	'test/e2e/smoke.test.ts': 175,
	'test/e2e/templates.test.ts': 155,
	'test/e2e/budget.test.ts': 153,
	'test/e2e/demo.test.ts': 143,
	'test/e2e/backoff.test.ts': 134,
	'test/e2e/digestRestart.test.ts': 120,
	'test/e2e/triggers.test.ts': 120,
	'test/e2e/restart.test.ts': 90,
	'test/e2e/editor.test.ts': 84,
	'test/e2e/delivery.test.ts': 69,
	// the queue tier: the longest of its three files first, beside the other two one after the other
	'test/queue/mainRestarts.test.ts': 420,
	'test/queue/throughput.test.ts': 260,
	'test/queue/digestRestart.test.ts': 150,
	'test/engine/reliability/hostileServers.test.ts': 60,
	'test/engine/trigger/stream.test.ts': 50,
	'test/engine/reliability/deadlines.test.ts': 40,
};

/**
 * The end-to-end files that start at once on a fresh machine, each on a worker of its own that waits
 * for the install without using the CPU (npm test runs 6 workers on 2 cores: the other 3 keep both
 * cores busy with the tiers that need no n8n meanwhile; 4 workers with one file waiting measured
 * 11 min 46 s in a fresh .ci/run, 6 with three 9 min 44 s on a fresh clone). Long, and more
 * waiting than computing — checks 15 s apart, n8n stopped and started again — so the other tiers'
 * load beside them does not matter (unlike budget.test.ts's clock running ×30). Tried and not
 * kept: seven early (smoke, budget, templates and backoff too) on 10 workers: a fresh clone 19 s
 * faster, but `npm test` inside a fresh .ci/run 49 s slower (12 min 11 s) with the 1-min load at
 * 16 to 25, beside n8n 1.x's install.
 */
const EARLY = [
	'test/e2e/triggers.test.ts',
	'test/e2e/digestRestart.test.ts',
	'test/e2e/restart.test.ts',
];

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
		// n8n still installing: the EARLY files take a worker each at once (they wait for the install
		// without using the CPU, and start the moment n8n is there, beside the other tiers); the
		// others after every other tier
		const early = e2e.filter((test) => EARLY.includes(relativePath(test)));
		return [...early, ...rest, ...e2e.filter((test) => !early.includes(test))];
	}
}

module.exports = TierSequencer;
