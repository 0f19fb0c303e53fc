/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * What keeps a fresh clone's tree clean after the README's commands (issue 20): `npm install` writes
 * package-lock.json in package.json's own indentation and with its exact versions, so package.json
 * keeps npm's format (two spaces, as npm writes it) and pins every dev dependency exactly, and the
 * committed lockfile is in that same format. A tab-indented package.json (a formatter run over it)
 * made npm rewrite all 18,000 lines of the lockfile on a fresh clone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from '../support/paths';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

test.each(['package.json', 'package-lock.json'])(
	'%s is in the format npm writes (two-space JSON, one newline at the end)',
	(file) => {
		const text = read(file);
		expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
	},
);

test('every dev dependency is pinned to an exact version, the one the lockfile holds', () => {
	const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
	const lock = JSON.parse(read('package-lock.json')) as {
		packages: Record<string, { version?: string; devDependencies?: Record<string, string> }>;
	};
	for (const [name, range] of Object.entries(pkg.devDependencies)) {
		expect({ name, range }).toEqual({ name, range: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
		expect({ name, locked: lock.packages[`node_modules/${name}`]?.version }).toEqual({
			name,
			locked: range,
		});
	}
	expect(lock.packages[''].devDependencies).toEqual(pkg.devDependencies);
});
