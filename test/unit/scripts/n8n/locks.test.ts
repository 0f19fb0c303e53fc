/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * Each tested n8n line installs from a committed lockfile (scripts/n8n/install.js `lockFile`):
 * the lockfile of exactly its version, with its overrides, so a machine installs the tree the
 * tests last passed on. A version bumped in scripts/n8n/lines.js without its lockfile fails here
 * (CONTRIBUTING.md → "Moving to a new n8n version").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

// plain CommonJS scripts, run by node before the dev dependencies are installed
/* eslint-disable @typescript-eslint/no-require-imports */
const { LINES } = require('../../../../scripts/n8n/lines.js') as {
	LINES: Record<string, { version: string; overrides?: Record<string, string> }>;
};
const { lockFile } = require('../../../../scripts/n8n/install.js') as {
	lockFile(version: string): string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

interface Lock {
	name: string;
	lockfileVersion: number;
	packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
}

describe.each(Object.entries(LINES))('n8n line %s', (_line, { version, overrides = {} }) => {
	const file = lockFile(version);

	test('has its committed lockfile', () => {
		expect(existsSync(file)).toBe(true);
	});

	test('of its version, with its overrides, and every package pinned with its integrity', () => {
		const lock = JSON.parse(readFileSync(file, 'utf8')) as Lock;
		expect(lock.lockfileVersion).toBe(3);
		expect(lock.packages[''].dependencies).toEqual({ n8n: version });
		expect(lock.packages['node_modules/n8n'].version).toBe(version);
		for (const [name, pinned] of Object.entries(overrides))
			expect({ name, version: lock.packages[`node_modules/${name}`]?.version }).toEqual({
				name,
				version: pinned,
			});
		const unpinned = Object.entries(lock.packages)
			.filter(
				([key, p]) => key !== '' && !('link' in p) && !(p as { integrity?: string }).integrity,
			)
			.map(([key]) => key);
		expect(unpinned).toEqual([]);
	});
});

test('no lockfile of a version no line tests any more', () => {
	const versions = new Set(Object.values(LINES).map((l) => l.version));
	const dir = dirname(lockFile('0'));
	const stale = readdirSync(dir)
		.map((f) => /^n8n-(.+)\.package-lock\.json$/.exec(basename(f))?.[1] ?? f)
		.filter((v) => !versions.has(v));
	expect(stale).toEqual([]);
});
