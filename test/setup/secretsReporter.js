/**
 * The end-of-run secrets check (a jest reporter, so it runs in the main process once every test
 * file has finished, whatever the number of workers).
 *
 * - onRunStart: creates the run's spool directory and hands it to the workers through
 *   $SENTIONE_SECRETS_SPOOL (workers start after this and inherit the environment);
 * - every test file's recorder (test/setup/secrets.ts) writes what its nodes produced there;
 * - onRunComplete: scans every spool file, the failure messages and the console output jest
 *   captured, for every key the simulator knows, every key a test handed to the credential and
 *   the key shape. It fails the run (getLastError) when a key is found, when the spool holds no
 *   test file's header, or when a test file that ran tests wrote nothing (the recorder did not run
 *   for it).
 * - After a whole run of its tiers it writes its figures to test/.results/ (ignored by git):
 *   secrets.json for `npm test`'s tiers, secrets-<tiers>.json for others (secrets-soak.json); a run
 *   filtered by path or name writes nothing. It never touches a tracked file: `npm run
 *   docs:reliability` (scripts/docs/reliability.js) renders docs/reliability.md from the figures.
 */
'use strict';

const {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');

const { findLeaks, simulatorKeys } = require('./secretScan');
const { selectedTiers } = require('./selectedTiers');

const REPO = join(__dirname, '..', '..');
const RESULTS = join(REPO, 'test', '.results');

class SecretsReporter {
	/**
	 * @param globalConfig jest's
	 * @param options `{ results: false }` writes no figures (the self-test), `{ quiet: true }` prints
	 *   nothing
	 */
	constructor(globalConfig, options = {}) {
		this.globalConfig = globalConfig;
		this.options = options ?? {};
		this.files = [];
		this.error = undefined;
		this.ownedDir = undefined;
	}

	onRunStart() {
		this.files = [];
		this.error = undefined;
		if (this.ownedDir) rmSync(this.ownedDir, { recursive: true, force: true });
		this.ownedDir = mkdtempSync(join(tmpdir(), 'sentione-secrets-'));
		process.env.SENTIONE_SECRETS_SPOOL = this.ownedDir;
		process.env.SENTIONE_TEST_RUN_ID = `${new Date().toISOString()}#${process.pid}`;
	}

	onTestResult(_test, result) {
		const executed = (result.numPassingTests ?? 0) + (result.numFailingTests ?? 0);
		this.files.push({
			path: relative(REPO, result.testFilePath),
			executed,
			execError: Boolean(result.testExecError),
			failureMessage: result.failureMessage ?? '',
			console: (result.console ?? []).map((entry) => String(entry.message ?? '')),
		});
	}

	/** Whether the run covered the whole suite (no path or name filter). */
	wholeSuite() {
		const g = this.globalConfig ?? {};
		const patterns = g.testPathPatterns;
		const pathFiltered = Array.isArray(patterns)
			? patterns.length > 0
			: Boolean(patterns && (patterns.patterns?.length > 0 || patterns.isSet?.()));
		return (
			!pathFiltered &&
			!g.testNamePattern &&
			!g.onlyChanged &&
			!g.findRelatedTests &&
			!g.onlyFailures
		);
	}

	onRunComplete() {
		const dir = this.ownedDir;
		const problems = [];
		const secrets = new Set(simulatorKeys(REPO));
		const spooled = new Map();
		let records = 0;
		let chars = 0;
		let spoolFiles = 0;
		const kinds = {};
		const leaks = [];
		const scan = (source, text) => {
			for (const leak of findLeaks(text, secrets, 2))
				leaks.push(`${source}: ${leak.what}: ${leak.excerpt}`);
		};
		const names = dir && existsSync(dir) ? readdirSync(dir) : [];
		const fileOf = new Map();
		// pass 1: the headers (which file wrote what, and the keys each file handed to the credential)
		for (const name of names) {
			for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
				if (!line.startsWith('{"k":"header"')) continue;
				const header = JSON.parse(line);
				for (const key of header.secrets ?? []) secrets.add(key);
				if (header.file) {
					spooled.set(header.file, (spooled.get(header.file) ?? 0) + (header.records ?? 0));
					fileOf.set(name, header.file);
				}
			}
		}
		// pass 2: every record, for every key known by now
		for (const name of names) {
			spoolFiles++;
			for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
				if (line === '' || line.startsWith('{"k":"header"')) continue;
				let entry;
				try {
					entry = JSON.parse(line);
				} catch {
					entry = { k: 'unparsable', t: line };
				}
				const text = typeof entry.t === 'string' ? entry.t : JSON.stringify(entry.t);
				records++;
				chars += text.length;
				kinds[entry.k] = (kinds[entry.k] ?? 0) + 1;
				scan(`${fileOf.get(name) ?? name} (${entry.k})`, text);
			}
		}
		for (const file of this.files) {
			if (file.failureMessage) scan(`${file.path} (failure message)`, file.failureMessage);
			for (const message of file.console) scan(`${file.path} (console)`, message);
		}
		if (leaks.length > 0)
			problems.push(
				`an API key appeared ${leaks.length} time(s):\n  ${leaks.slice(0, 20).join('\n  ')}`,
			);

		const ran = this.files.filter((f) => f.executed > 0 && !f.execError);
		// the recorder writes a header for every test file, with or without records (a file of pure
		// unit tests makes none): no header at all means it did not run
		if (ran.length > 0 && spooled.size === 0)
			problems.push(
				`the secrets spool is empty (${spoolFiles} spool file(s) in ${dir}): the recorder did not run`,
			);
		const silent = ran.filter((f) => !spooled.has(f.path));
		if (silent.length > 0) {
			problems.push(
				`${silent.length} test file(s) ran tests but wrote nothing to the secrets spool (is test/setup/secrets.ts in setupFilesAfterEnv?): ${silent.map((f) => f.path).join(', ')}`,
			);
		}

		const summary = {
			runId: process.env.SENTIONE_TEST_RUN_ID,
			finishedAt: new Date().toISOString(),
			wholeSuite: this.wholeSuite(),
			testFiles: ran.length,
			testFilesWithRecords: [...spooled.values()].filter((n) => n > 0).length,
			records,
			characters: chars,
			kinds,
			keysSearched: secrets.size,
			leaks: leaks.length,
			problems: problems.length,
		};
		// figures only for a whole run of one or more tiers: secrets.json for `npm test`'s tiers,
		// secrets-<tiers>.json for others (soak: secrets-soak.json); a filtered run writes nothing
		if (this.options.results !== false && summary.wholeSuite) {
			try {
				const scope = selectedTiers();
				summary.scope = scope;
				mkdirSync(RESULTS, { recursive: true });
				writeFileSync(
					join(RESULTS, scope === 'suite' ? 'secrets.json' : `secrets-${scope}.json`),
					`${JSON.stringify(summary, null, 2)}\n`,
				);
			} catch (error) {
				process.stderr.write(
					`secrets reporter: could not write the reliability figures: ${error.message}\n`,
				);
			}
		}

		const tag = `secrets check: ${ran.length} test file(s), ${records} record(s), ${Math.round(chars / 1024)} KiB scanned for ${secrets.size} key(s) and the key shape`;
		if (problems.length > 0) {
			this.error = new Error(`${tag}: FAILED\n- ${problems.join('\n- ')}`);
			if (!this.options.quiet)
				process.stderr.write(`\n\n*** ${this.error.message}\n(spool kept in ${dir})\n\n`);
		} else {
			if (!this.options.quiet) process.stderr.write(`\n${tag}: no API key found.\n`);
			if (dir) rmSync(dir, { recursive: true, force: true });
			this.ownedDir = undefined;
		}
	}

	getLastError() {
		return this.error;
	}
}

module.exports = SecretsReporter;
