/**
 * Which tiers a jest run selected, for the reporters that name their figures by it
 * (secretsReporter.js, timingsReporter.js). Plain CommonJS so a reporter can load it without a
 * transform.
 */
'use strict';

/** npm test's tiers. */
const SUITE = ['e2e', 'engine', 'package', 'simulator', 'unit'];

/**
 * The tiers this run selected (`--selectProjects`): 'suite' for npm test's, else their names
 * joined by '+'. `namesOnly` keeps only words a tier can be named (a path given after
 * --selectProjects is not one).
 */
function selectedTiers({ namesOnly = false } = {}) {
	const args = process.argv.slice(2);
	const at = args.findIndex((arg) => arg.startsWith('--selectProjects'));
	if (at < 0) return 'suite';
	const inline = args[at].includes('=') ? args[at].split('=')[1].split(',') : [];
	const following = [];
	for (const arg of args.slice(at + 1)) {
		if (arg.startsWith('-')) break;
		following.push(arg);
	}
	const tiers = [...inline, ...following]
		.filter((t) => (namesOnly ? /^[\w-]+$/.test(t) : Boolean(t)))
		.sort();
	return tiers.join(',') === SUITE.join(',') ? 'suite' : tiers.join('+');
}

module.exports = { SUITE, selectedTiers };
