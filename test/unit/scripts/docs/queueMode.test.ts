/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The queue-mode figures of docs/queue-mode.md (scripts/docs/queueMode.js): the tier's two runs,
 * each a file with a cluster of its own, become one block — the bursts and the worker stop of the
 * throughput run, the restarts of the other, the peak memory of both, who ran what per run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BLOCKS, merge } from '../../../../scripts/docs/queueMode';
import { Results } from '../../../../scripts/docs/parts';

const tally = (expected: number) => ({ expected, delivered: expected, lost: 0, duplicated: 0 });
const run = (name: string, extra: Record<string, unknown>): Record<string, unknown> => ({
	runAt: '2026-11-27T08:00:00.000Z',
	machine: { cpus: 2, loadAverageAtStart: [1.5] },
	config: { part: name, burst: 200, concurrency: 5 },
	setup: { mainStartSeconds: name === 'throughput' ? 14 : 16, workerStartSeconds: [6] },
	memory: {
		idle: { main: name === 'throughput' ? 300 : 310 },
		peak: { main: name === 'throughput' ? 420 : 390, redis: 8 },
	},
	throughput: [],
	restarts: [],
	executions: {
		total: name === 'throughput' ? 1001 : 140,
		wholeRun: { slack: tally(5), sheets: tally(9), live: tally(5), burst: tally(3) },
	},
	liveConnectionsPerKey: { basic: name === 'throughput' ? 1 : 4, enterprise: 1, refused: [] },
	wallSeconds: name === 'throughput' ? 250 : 430,
	...extra,
});

const throughput = run('throughput', {
	throughput: [
		{
			workers: 1,
			mentions: 200,
			succeeded: 200,
			seconds: 20,
			executionsPerMinute: 600,
			perWorker: { 'worker A': 200 },
		},
	],
	workerStop: { stoppedWorker: 'worker A', executions: 190 },
});
const restarts = run('restarts', {
	restarts: [
		{
			name: 'about 10 s down',
			outageSeconds: 18,
			mentionsCollected: { project1001: 14, project1002: 19 },
		},
	],
});

test('each part comes from the run that measured it; peak memory is the larger of the two', () => {
	const merged = merge({ throughput, restarts })!;
	expect(merged.throughput).toEqual(throughput.throughput);
	expect(merged.workerStop).toEqual(throughput.workerStop);
	expect(merged.restarts).toEqual(restarts.restarts);
	expect(merged.memory).toEqual({ idle: { main: 300 }, peak: { main: 420, redis: 8 } });
	expect(merged.wallSeconds).toBe(430);
	expect((merged.runs as Array<{ run: string }>).map((r) => r.run)).toEqual([
		'throughput',
		'restarts',
	]);
	expect(merge({})).toBeUndefined();
});

test('the block shows both runs side by side, and one run alone when only one left its figures', () => {
	const dir = mkdtempSync(join(tmpdir(), 'docs-queue-'));
	try {
		const block = () => BLOCKS['queue-mode'].render({ results: new Results(dir) });
		expect(block()).toBeUndefined();
		writeFileSync(join(dir, 'queue-mode-restarts.json'), JSON.stringify(restarts));
		const alone = block()!;
		expect(alone).toContain('| about 10 s down |');
		expect(alone).toContain('The restarts run: 140 executions');
		expect(alone).not.toContain('The throughput run');
		writeFileSync(join(dir, 'queue-mode-throughput.json'), JSON.stringify(throughput));
		const both = block()!;
		expect(both).toMatch(/the throughput run 4 min and the restarts run 7 min, side by side/);
		expect(both.indexOf('The throughput run: 1001 executions')).toBeLessThan(
			both.indexOf('The restarts run: 140 executions'),
		);
		expect(both).toContain('worker A got SIGTERM');
		expect(both).toContain('| main | 300 MB | 420 MB |');
		expect(both).toContain('main did not restart in this run');
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
