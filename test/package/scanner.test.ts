/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: not shipped in the package */
/**
 * n8n's community-package scanner (`@n8n/scan-community-package`, the gate a verified node must
 * pass) on this package, before it is published: its two lint legs, run by
 * scripts/scan-package.mjs with the scanner's own `analyzePackage` and config (see there):
 * the sources (`package.json`, `{nodes,credentials}/**`) and the unpacked `npm pack` tarball
 * (`**\/*.js`, `package.json`). Both must pass. Its third leg, the npm provenance of the published
 * version and the GitHub commit it attests, only works after a release (CONTRIBUTING.md, "Releasing").
 *
 * The scanner ignores inline `eslint-disable` comments and passes a leg that matched no file, so
 * the test also checks which files each leg saw, and that the scanner does fail on a planted
 * violation (a control run on copies).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths';

const ROOT = REPO_ROOT;

interface Leg {
	dir: string;
	files: string[];
	passed: boolean;
	message?: string;
	details?: string;
}
interface Scan {
	passed: boolean;
	source?: Leg;
	tarball?: Leg;
}

function scan(args: string[]): Scan {
	const r = spawnSync(
		process.execPath,
		[join(ROOT, 'scripts', 'scan-package.mjs'), '--json', ...args],
		{ cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
	);
	if (r.status !== 0 && r.status !== 1)
		throw new Error(`scan-package.mjs failed (${r.status}): ${r.stderr}`);
	return JSON.parse(r.stdout) as Scan;
}

let work: string;
beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'sentione-scan-test-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('both lint legs of the scanner pass: the sources and the npm pack tarball', () => {
	const result = scan([]);
	const report = [
		result.source?.details,
		result.tarball?.details,
		result.source?.message,
		result.tarball?.message,
	]
		.filter(Boolean)
		.join('\n');
	expect(report).toBe('');
	expect(result.passed).toBe(true);

	// the source leg saw the package.json and every source of the nodes and the credential
	const sources = result.source!.files;
	expect(sources).toContain('package.json');
	expect(sources).toContain('credentials/SentiOneApi.credentials.ts');
	for (const node of ['SentiOne', 'SentiOneTrigger', 'SentiOneStreamTrigger']) {
		expect(sources).toContain(`nodes/SentiOne/${node}.node.ts`);
		expect(sources).toContain(`nodes/SentiOne/${node}.node.json`);
	}
	expect(sources.filter((f) => f.endsWith('.ts')).length).toBeGreaterThanOrEqual(40);

	// the tarball leg saw the compiled modules and the published package.json
	const shipped = result.tarball!.files;
	expect(shipped).toContain('package.json');
	expect(shipped).toContain('dist/nodes/SentiOne/SentiOne.node.js');
	expect(shipped.filter((f) => f.endsWith('.js')).length).toBe(
		sources.filter((f) => f.endsWith('.ts')).length,
	);
}, 120_000);

test('control: the scanner fails a planted violation in each leg, inline eslint-disable or not', () => {
	// a source checkout: the sources, the icons they name, package.json
	const source = join(work, 'source');
	for (const dir of ['nodes', 'credentials', 'icons'])
		cpSync(join(ROOT, dir), join(source, dir), { recursive: true });
	cpSync(join(ROOT, 'package.json'), join(source, 'package.json'));
	appendFileSync(
		join(source, 'nodes', 'SentiOne', 'SentiOne.node.ts'),
		'\n// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals\nexport const planted = () => setTimeout(() => undefined, 1);\n',
	);
	// an unpacked package: package.json and dist/ (the build ships exactly dist/, see package.test.ts)
	const tarball = join(work, 'package');
	cpSync(join(ROOT, 'dist'), join(tarball, 'dist'), { recursive: true });
	cpSync(join(ROOT, 'package.json'), join(tarball, 'package.json'));
	const shared = join(tarball, 'dist', 'nodes', 'SentiOne', 'shared');
	const victim = readdirSync(shared).find((f) => f.endsWith('.js'))!;
	appendFileSync(join(shared, victim), '\nconsole.log(process.env.HOME);\n');
	writeFileSync(
		join(tarball, 'dist', 'planted.js'),
		'require("fs").readFileSync("/etc/passwd");\n',
	);

	const result = scan(['--source-dir', source, '--tarball-dir', tarball]);
	expect(result.passed).toBe(false);
	expect(result.source!.passed).toBe(false);
	expect(result.source!.details).toMatch(/SentiOne\.node\.ts[\s\S]*no-restricted-globals/);
	expect(result.tarball!.passed).toBe(false);
	expect(result.tarball!.details).toContain(victim);
	expect(result.tarball!.details).toMatch(/no-console/);
	expect(result.tarball!.details).toMatch(/planted\.js[\s\S]*no-restricted-imports/);
}, 120_000);
