/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The measured times of CONTRIBUTING.md (scripts/docs/contributing.js): a timings file of the
 * timings reporter becomes its block — the command, the date, the machine and its load, each step
 * and tier — and a run that left no file keeps what its block holds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BLOCKS, took } from '../../../../scripts/docs/contributing';
import { Results } from '../../../../scripts/docs/parts';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'docs-timings-'));
	mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const render = (block: string) =>
	BLOCKS[block].render({ results: new Results(dir), names: [], text: '', doc: {} }, '');

test('a duration reads as seconds under a minute, minutes and seconds above', () => {
	expect(took(8.24)).toBe('8.2 s');
	expect(took(59.96)).toBe('60 s');
	expect(took(75.4)).toBe('1 min 15 s');
	expect(took(605)).toBe('10 min 05 s');
	expect(took(undefined)).toBe('—');
});

test("npm test's timings: the command, the machine, each step and each tier", () => {
	writeFileSync(
		join(dir, 'timings.json'),
		JSON.stringify({
			runAt: '2026-11-26T22:40:00.000Z',
			machine: { cores: 2, loadMean: 3.5, loadMax: 6 },
			totalSeconds: 600.4,
			jestSeconds: 590,
			maxWorkers: 4,
			before: [{ step: 'build (n8n-node build) and jest starting', seconds: 6.8 }],
			installs: [],
			tiers: [
				{
					tier: 'unit',
					files: 60,
					from: 0.7,
					to: 40.2,
					fileSeconds: 70,
					slowest: [{ file: 'test/unit/architecture.test.ts', seconds: 9.1 }],
				},
			],
		}),
	);
	const out = render('timings-suite');
	expect(out).toContain(
		'Measured by `./dev npm test`, last run 2026-11-26 22:40 UTC (2 cores, 1-min load average during the run: mean 3.5, max 6; 4 jest workers): **10 min 00 s** in all, jest 9 min 50 s.',
	);
	expect(out).toContain('| build (n8n-node build) and jest starting | — | 6.8 s | — | — |');
	expect(out).toContain(
		'| tier unit | 60 | 0.7 s → 40.2 s | 1 min 10 s | test/unit/architecture.test.ts (9.1 s) |',
	);
});

test('a run that installed n8n says so: a fresh machine', () => {
	writeFileSync(
		join(dir, 'timings-soak.json'),
		JSON.stringify({
			runAt: '2026-11-27T02:29:00.000Z',
			machine: { cores: 2, loadMean: 8.5, loadMax: 12.6 },
			totalSeconds: 583.9,
			jestSeconds: 497.4,
			maxWorkers: 6,
			before: [
				{ step: './dev: Node 24, background installs started, dev dependencies', seconds: 78 },
			],
			installs: [{ n8n: '2.41.1', seconds: 227, readySecondsAfterJestStart: 147.4 }],
			tiers: [],
		}),
	);
	const out = render('timings-soak');
	expect(out).toContain(
		'(2 cores, 1-min load average during the run: mean 8.5, max 12.6; 6 jest workers; n8n installed during the run, as on a fresh machine): **9 min 44 s** in all',
	);
	expect(out).toContain(
		'| n8n 2.41.1 installed (background) | — | 3 min 47 s; ready 2 min 27 s after jest started | — | — |',
	);
});

test('a run that left no timings renders nothing (its block keeps what it holds)', () => {
	expect(render('timings-unit')).toBeUndefined();
	expect(render('timings-ci')).toBeUndefined();
});
