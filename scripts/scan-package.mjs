#!/usr/bin/env node
/**
 * The lint legs of n8n's community-package scanner (`@n8n/scan-community-package`, pinned in
 * devDependencies), run locally before publishing. The published scanner (`npx
 * @n8n/scan-community-package n8n-nodes-sentione`) first checks the npm provenance of the published
 * version and downloads the attested GitHub commit, which only works after a release
 * (CONTRIBUTING.md, "Releasing"). Then it runs exactly these two ESLint legs with its own config (the
 * community-nodes rules, `no-console`, n8n-nodes-base's rule sets; inline `eslint-disable` comments
 * ignored), imported here from the same package:
 *
 * 1. source: `package.json` and `{nodes,credentials}/**\/*.{js,ts,json}` of the repository;
 * 2. tarball: `**\/*.js` and `package.json` of the unpacked `npm pack` tarball.
 *
 * Usage (after `npm run build`):
 *   node scripts/scan-package.mjs            both legs; packs the package itself; exit 1 on a finding
 *   node scripts/scan-package.mjs --json     the same, the result as JSON on stdout
 *   node scripts/scan-package.mjs [--source-dir DIR] [--tarball-dir DIR] [--json]
 *                                            only the leg(s) named, on the folders given (a source
 *                                            checkout; an unpacked package)
 *
 * The scanner creates a temporary folder when it is imported; TMPDIR points into this run's own
 * folder, removed at the end, so nothing is left behind.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The tarball leg's patterns, as in the scanner's analyzePackageByName (not exported there). */
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const flag = (name) =>
	args.includes(name) ? resolve(args[args.indexOf(name) + 1] ?? '') : undefined;
const given = { source: flag('--source-dir'), tarball: flag('--tarball-dir') };
const both = !given.source && !given.tarball;

// eslint-plugin-n8n-nodes-base switches to its own test mode under NODE_ENV=test (jest sets it) and
// then reports correct file names as wrong; the scanner never runs that way
delete process.env.NODE_ENV;

const work = mkdtempSync(join(tmpdir(), 'sentione-scan-'));
process.env.TMPDIR = join(work, 'tmp');
mkdirSync(process.env.TMPDIR);

function run(cmd, cmdArgs, cwd) {
	const r = spawnSync(cmd, cmdArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	if (r.status !== 0)
		throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status}): ${r.stderr}`);
	return r.stdout;
}

/** `npm pack` into the work folder, unpacked the way the scanner unpacks a download. */
function packAndUnpack() {
	const packed = JSON.parse(
		run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT),
	);
	const unpacked = join(work, 'package');
	mkdirSync(unpacked);
	run(
		'tar',
		['-xzf', join(work, packed[0].filename), '-C', unpacked, '--strip-components=1'],
		work,
	);
	return unpacked;
}

try {
	const scanner = import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(scanner);
	// the scanner's own fast-glob, with its options, tells how many files a leg saw (it passes a leg
	// that matched no file at all)
	const glob = createRequire(scanner)('fast-glob');
	const leg = async (dir, patterns) => {
		const files = glob
			.sync(patterns, { cwd: dir, ignore: ['node_modules/**', '**/package-lock.json'] })
			.sort();
		const result = await analyzePackage(dir, patterns);
		return {
			dir,
			patterns,
			files,
			passed: result.passed,
			message: result.message,
			details: result.details,
		};
	};
	const result = {};
	if (both || given.source) result.source = await leg(given.source ?? ROOT, SOURCE_FILE_PATTERNS);
	if (both || given.tarball)
		result.tarball = await leg(given.tarball ?? packAndUnpack(), TARBALL_FILE_PATTERNS);
	const passed = Object.values(result).every((r) => r.passed && r.files.length > 0);
	if (asJson) {
		process.stdout.write(`${JSON.stringify({ passed, ...result }, null, 1)}\n`);
	} else {
		for (const [name, r] of Object.entries(result)) {
			process.stdout.write(
				`${r.passed ? 'passed' : 'FAILED'}  ${name} leg: ${r.files.length} files (${r.patterns.join(', ')})\n`,
			);
			if (r.details) process.stdout.write(`${r.details}\n`);
			else if (!r.passed && r.message) process.stdout.write(`${r.message}\n`);
		}
	}
	process.exitCode = passed ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
