/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * The secrets watch checks itself: test/setup/secrets.ts (in every test file, through jest's
 * setupFilesAfterEnv) really records node outputs, node errors with their cause, polls, trigger
 * emits, n8n log lines (also when they are not printed) and console output; the scanner finds a
 * key however it is wrapped and does not mistake the bare prefix or "[redacted API key]" for one;
 * and the end-of-run check (test/setup/secretsReporter.js) fails on a leak, on an empty spool and
 * on a test file that wrote nothing. The real check of the whole suite runs when every file has
 * finished.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LoggerProxy, NodeApiError } from 'n8n-workflow';

import { startRunningSim, type Sim } from '../../support/simulator';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { findLeaks, simulatorKeys } from '../../setup/secretScan';
import { secretsWatch, serialize } from '../../setup/secrets';
import SecretsReporter from '../../setup/secretsReporter';
import { REPO_ROOT } from '../../support/paths';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';

let sim: Sim;

beforeAll(async () => {
	sim = await startRunningSim({ projects: 1, mentions: 20, heartbeatMs: 200 });
});
afterAll(async () => {
	await sim.stop();
});

test('the recorder sees node outputs, node errors, polls, trigger emits, n8n log lines and console output', async () => {
	const watch = secretsWatch();
	const before = { ...watch.counts };
	const delta = (kind: keyof typeof before) => (watch.counts[kind] ?? 0) - (before[kind] ?? 0);

	const ok = await run(sim, withParameters(loadWorkflow('project-get-many'), { returnAll: true }), {
		key: ENTERPRISE,
	});
	expect(ok.output(NODE).length).toBeGreaterThan(0);
	const failed = await run(
		sim,
		withParameters(loadWorkflow('mention-search-historical'), {
			project: { __rl: true, value: '1001', mode: 'id' },
		}),
		{ key: NOACCESS },
	);
	expect(failed.nodeError(NODE)?.message).toMatch(/401/);
	const poll = await new PollHarness(pollParameters(1001), credentials(sim, BASIC)).poll(
		'activate',
	);
	expect(poll.error).toBeUndefined();
	const trigger = await activateStreamTrigger(
		streamParameters({ project: projectParam(1001) }, { backfillMinutes: 5 }),
		credentials(sim, BASIC),
	);
	await fetch(`${sim.base}/__admin/mentions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ projectId: 1001, count: 1 }),
	});
	await trigger.until(() => trigger.items().length > 0, 10_000);
	await trigger.close();

	expect(delta('run')).toBeGreaterThanOrEqual(2);
	expect(delta('poll')).toBeGreaterThanOrEqual(1);
	expect(delta('emit')).toBeGreaterThanOrEqual(1);
	expect(delta('log')).toBeGreaterThanOrEqual(1); // "SentiOne stream closed: …"
	// eslint-disable-next-line no-console -- the console is watched too
	console.log('secrets self-test: a line on the console');
	expect(delta('console')).toBeGreaterThanOrEqual(1);
	// the node error is recorded with its message and description
	expect(
		watch.recent.some(
			(r) =>
				r.kind === 'run' &&
				r.text.includes("needs SentiOne's Enterprise tier") &&
				r.text.includes('"description"'),
		),
	).toBe(true);
	// the keys handed to the credential are searched for verbatim
	for (const key of [BASIC, ENTERPRISE, NOACCESS]) expect(watch.secrets.has(key)).toBe(true);
	expect(watch.leaks).toEqual([]);
});

test("n8n's log lines are recorded whether or not they are printed (SENTIONE_TEST_LOGS=1 prints them)", async () => {
	const line = 'secrets self-test: an n8n log line';
	LoggerProxy.warn(line);
	await new Promise((resolve) => setImmediate(resolve));
	// the call (with its metadata) and the line n8n's logger writes, printed or not
	const kinds = secretsWatch()
		.recent.filter((r) => r.text.includes(line))
		.map((r) => r.kind)
		.sort();
	expect(kinds).toEqual(['log', 'stdout']);
});

test('the scanner finds a key however it is wrapped, and only keys', () => {
	const secrets = new Set([...simulatorKeys(REPO_ROOT), 'SENTIONE-APIKEY-from-a-test-0042']);
	expect(secrets.size).toBeGreaterThanOrEqual(4);
	const cause = new Error(
		`request failed with headers {"X-API-KEY":"${'SENTIONE-APIKEY-from-a-test-0042'}"}`,
	);
	const error = new NodeApiError(
		{ id: '1', name: 'SentiOne', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
		{ message: 'outer' },
		{ message: 'outer', description: 'nothing here' },
	);
	(error as { cause?: unknown }).cause = cause;
	// an error's cause is part of what is scanned
	expect(findLeaks(serialize(error), secrets).length).toBeGreaterThan(0);
	expect(
		findLeaks(serialize({ deep: [{ deeper: { key: BASIC } }] }), secrets).length,
	).toBeGreaterThan(0);
	expect(findLeaks(`a log line with ACME-APIKEY-x9 in it`, secrets)).toHaveLength(1);
	expect(
		findLeaks(Buffer.from(`X-API-KEY: ${ENTERPRISE}`).toString('utf8'), secrets).length,
	).toBeGreaterThan(0);
	// not keys: the prefix in guidance texts, the redaction marker, other words with APIKEY
	for (const text of [
		'a prefix such as SENTIONE-APIKEY- followed by the key body',
		'API key has an invalid format: it must start with the prefix SENTIONE-APIKEY-.',
		'"SENTIONE-APIKEY-"',
		'the key [redacted API key] was refused',
		'APIKEY is a word',
	]) {
		expect(findLeaks(text, secrets)).toEqual([]);
	}
	// a bare prefix handed to the credential (an ill-shaped key in a test) is no secret to search for
	expect(
		findLeaks('a prefix such as SENTIONE-APIKEY- followed by the key body', [
			'SENTIONE-APIKEY-',
			' SENTIONE-APIKEY- ',
		]),
	).toEqual([]);
	// a report shows the prefix and the length, never the key (so it is no leak itself)
	const [leak] = findLeaks(`x ${BASIC} y`, secrets);
	expect(leak.what).not.toContain(BASIC);
	expect(findLeaks(`${leak.what} ${leak.excerpt}`, secrets)).toEqual([]);
});

describe('the end-of-run check', () => {
	let dir: string;
	const saved = {
		spool: process.env.SENTIONE_SECRETS_SPOOL,
		run: process.env.SENTIONE_TEST_RUN_ID,
	};

	afterEach(() => {
		// the reporter points the environment at its own spool: give this file its real one back
		process.env.SENTIONE_SECRETS_SPOOL = saved.spool;
		process.env.SENTIONE_TEST_RUN_ID = saved.run;
		rmSync(dir, { recursive: true, force: true });
	});

	function reporterWith(files: Record<string, string[]>, ran: string[]): SecretsReporter {
		const reporter = new SecretsReporter({}, { results: false, quiet: true });
		reporter.onRunStart();
		dir = String(process.env.SENTIONE_SECRETS_SPOOL);
		mkdirSync(dir, { recursive: true });
		for (const [file, lines] of Object.entries(files))
			writeFileSync(join(dir, `${file.replace(/\W/g, '_')}.jsonl`), `${lines.join('\n')}\n`);
		for (const path of ran)
			reporter.onTestResult(undefined, {
				testFilePath: join(REPO_ROOT, path),
				numPassingTests: 1,
				numFailingTests: 0,
				failureMessage: null,
				console: [],
			});
		return reporter;
	}

	const header = (file: string, secrets: string[] = []) =>
		JSON.stringify({ k: 'header', file, records: 1, secrets });
	const record = (text: string) => JSON.stringify({ k: 'run', t: text });
	const key = 'LEAKY-APIKEY-planted-by-the-self-test';

	test('passes a clean spool', () => {
		const reporter = reporterWith(
			{ 'test/a.test.ts': [header('test/a.test.ts'), record('all fine')] },
			['test/a.test.ts'],
		);
		reporter.onRunComplete();
		expect(reporter.getLastError()).toBeUndefined();
	});

	test('fails on a key a test used (verbatim) and on the key shape', () => {
		const reporter = reporterWith(
			{
				'test/a.test.ts': [
					header('test/a.test.ts', ['used-key-without-the-shape-1234']),
					record('echo: used-key-without-the-shape-1234'),
					record(`and ${key.replace('planted', 'other')}`),
				],
			},
			['test/a.test.ts'],
		);
		reporter.onRunComplete();
		expect(reporter.getLastError()?.message).toMatch(/an API key appeared 2 time\(s\)/);
	});

	test('fails on an empty spool, and on a test file that wrote nothing', () => {
		const empty = reporterWith({}, ['test/a.test.ts']);
		empty.onRunComplete();
		expect(empty.getLastError()?.message).toMatch(/the secrets spool is empty/);
		rmSync(dir, { recursive: true, force: true });
		const silent = reporterWith({ 'test/a.test.ts': [header('test/a.test.ts'), record('fine')] }, [
			'test/a.test.ts',
			'test/b.test.ts',
		]);
		silent.onRunComplete();
		expect(silent.getLastError()?.message).toMatch(
			/1 test file\(s\) ran tests but wrote nothing to the secrets spool .*test\/b\.test\.ts/,
		);
	});
});

void mkdtempSync;
void tmpdir;
