/**
 * The blocks of docs/queue-mode.md: `queue-mode`, the figures of the queue-mode tier's two runs
 * (test/.results/queue-mode-throughput.json and queue-mode-restarts.json, written by
 * test/queue/throughput.test.ts and mainRestarts.test.ts in `npm run test:queue`), and `restart`, the
 * single-process restarts (test/.results/restart.json, written by test/e2e/restart.test.ts in
 * `npm test`).
 */
'use strict';

const { row } = require('./parts');

/** The two runs of the tier (each a file with a cluster of its own), in the order they are shown. */
const RUNS = ['throughput', 'restarts'];

/**
 * One figures object of the two runs: the bursts, the worker stop and the idle memory of the
 * throughput run, the restarts of the restarts run, the peak memory of both, and per run its
 * executions, live connections and setup (`runs`).
 */
function merge(byRun) {
	const present = RUNS.filter((r) => byRun[r]);
	if (present.length === 0) return undefined;
	const first = byRun[present[0]];
	const peak = {};
	for (const r of present)
		for (const [name, v] of Object.entries(byRun[r].memory?.peak ?? {}))
			peak[name] = Math.max(peak[name] ?? 0, v);
	return {
		...first,
		throughput: byRun.throughput?.throughput ?? [],
		workerStop: byRun.throughput?.workerStop,
		restarts: byRun.restarts?.restarts ?? [],
		memory: { idle: first.memory?.idle, peak },
		wallSeconds: Math.max(...present.map((r) => byRun[r].wallSeconds ?? 0)),
		runs: present.map((r) => ({ run: r, ...byRun[r] })),
	};
}

const lostDup = (t) => (t ? `${t.lost} / ${t.duplicated} (of ${t.expected})` : '—');
const mb = (v) => (v === undefined ? '—' : `${v} MB`);

function render(f) {
	const out = [];
	const m = f.machine ?? {};
	out.push(
		`Last run: ${f.runAt?.slice(0, 16).replace('T', ' ')} UTC, ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, Node ${m.node}, n8n ${m.n8n}, Redis ${m.redis}, PostgreSQL ${m.postgres}; load average ${m.loadAverageAtStart?.[0]} at the start, ${m.loadAverageAtEnd?.[0]} at the end (the machine is shared). The tier took ${Math.round((f.wallSeconds ?? 0) / 60)} min${f.setup?.n8nInstallSeconds ? ', the n8n install included' : ''}: ${(f.runs ?? []).map((r) => `the ${r.run} run ${Math.round((r.wallSeconds ?? 0) / 60)} min`).join(' and ')}, side by side, each with a cluster of its own.`,
	);
	out.push('');
	out.push('### Executions per minute');
	out.push('');
	out.push(
		`A burst of ${f.config?.burst} mentions collected at once on the project the *Burst* workflow streams (SentiOne Stream Trigger → HTTP Request): one execution each, timed from the injection until the last execution finished (\`stoppedAt\` in Postgres). Each worker runs \`--concurrency=${f.config?.concurrency}\`.`,
	);
	out.push('');
	out.push(
		row([
			'Workers',
			'Executions',
			'Succeeded',
			'Time',
			'Executions per minute',
			'Main had enqueued them all after',
			'Ran on',
			'Load average',
		]).replace(/^/, ''),
	);
	out.push('|---|---|---|---|---|---|---|---|');
	for (const t of f.throughput ?? []) {
		out.push(
			row([
				t.workers,
				t.mentions,
				t.succeeded,
				`${t.seconds} s`,
				t.executionsPerMinute,
				`${t.enqueuedWithinSeconds} s`,
				Object.entries(t.perWorker ?? {})
					.map(([w, n]) => `${w}: ${n}`)
					.join(', '),
				t.loadAverage?.[0],
			]),
		);
	}
	out.push('');
	out.push('### Memory (resident, RSS)');
	out.push('');
	out.push(
		'Idle: after setup, all four workflows active, nothing running. Peak: the largest of the samples taken every second during the whole run (bursts, restarts).',
	);
	out.push('');
	out.push('| Process | Idle | Peak |');
	out.push('|---|---|---|');
	const names = [
		...new Set([...Object.keys(f.memory?.idle ?? {}), ...Object.keys(f.memory?.peak ?? {})]),
	];
	for (const name of names)
		out.push(row([name, mb(f.memory?.idle?.[name]), mb(f.memory?.peak?.[name])]));
	out.push('');
	out.push('### Restarts of main');
	out.push('');
	out.push(
		'Live collection ran (12 mentions a minute per project) before, during and after each restart, and 3 negative mentions of project 1001 and 3 of project 1002 were collected while main was down. Lost / duplicated compare what reached the Slack channel or the sheet with every mention the simulator collected in the phase (`GET /__admin/mentions`).',
	);
	out.push('');
	out.push(
		row([
			'Restart',
			'Main down (stop → ready)',
			'Collected (1001 / 1002)',
			'Slack alert (poll): lost / dup',
			'Sheets rows (poll): lost / dup',
			'Live alert (stream): lost / dup',
			'Burst (stream): lost / dup',
			'Live connections (Basic / Enterprise key)',
			'Gap searches',
		]),
	);
	out.push('|---|---|---|---|---|---|---|---|---|');
	for (const r of f.restarts ?? []) {
		out.push(
			row([
				r.name,
				`${r.outageSeconds} s real${r.clockAdvanceSeconds ? ` + ${Math.round(r.clockAdvanceSeconds / 60)} min simulated` : ''} (stop ${r.stopSeconds} s, start ${r.startSeconds} s)`,
				`${r.mentionsCollected?.project1001} / ${r.mentionsCollected?.project1002}`,
				lostDup(r.poll?.slack),
				lostDup(r.poll?.sheets),
				lostDup(r.stream?.live),
				lostDup(r.stream?.burst),
				`${r.liveConnections?.basic} / ${r.liveConnections?.enterprise} (backfillMinutes ${[...new Set((r.liveConnections?.backfillMinutes ?? []).map((b) => b.split(':')[1]))].join(', ')})`,
				r.gapSearchRequests,
			]),
		);
	}
	out.push('');
	const w = f.workerStop;
	if (w) {
		out.push('### A worker stops');
		out.push('');
		out.push(
			`${w.stoppedWorker} got SIGTERM while 4 mentions a second flowed into the *Burst* workflow (30 s), 60 more had just arrived at once and live collection ran: ${w.runningWhenStopped ? `it finished the ${w.runningWhenStopped} executions it was running` : 'no execution was running on it at that instant'} and exited after ${w.drainSeconds} s. Of the ${w.executions} executions of the phase, ${w.ranOnA} ran on worker A and ${w.ranOnB} on worker B; all ${w.afterTheStop} created after worker A had exited ran on worker B (${w.afterTheStopOnB}). Not succeeded: ${w.notSucceeded?.length ?? 0}${w.strandedByN8n?.length ? `, and ${w.strandedByN8n.length} stranded by the stop that n8n failed itself (${w.strandedByN8n.join(', ')}: never started, "failed to be processed too many times"; the mentions they carried are counted as lost below)` : ''}. Burst ${lostDup(w.burst)}, Slack alert ${lostDup(w.poll?.slack)}, Sheets rows ${lostDup(w.poll?.sheets)}, Live alert ${lostDup(w.live)} (lost / duplicated). Worker A started again in ${w.workerRestartSeconds} s.`,
		);
		out.push('');
	}
	out.push('### Who ran what');
	out.push('');
	for (const r of f.runs ?? []) {
		const e = r.executions;
		const label = `The ${r.run} run: `;
		if (e) {
			out.push(
				`${label}${e.total} executions in the whole run (${Object.entries(e.byWorkflow ?? {})
					.map(([k, n]) => `${k} ${n}`)
					.join(
						', ',
					)}): main enqueued ${e.enqueuedByMain} ("Enqueued execution N"); workers started ${Object.entries(
					e.byWorker ?? {},
				)
					.map(([k, n]) => `${k} ${n}`)
					.join(
						', ',
					)} ("Worker started execution N"); on no worker: ${e.notOnAWorker?.length ?? '—'}; on two: ${e.startedTwice?.length ?? '—'}; not succeeded: ${e.notSucceeded?.length ?? '—'}${e.strandedByN8n?.length ? ` (and ${e.strandedByN8n.length} stranded by the worker stop and failed by n8n)` : ''}.`,
			);
			if (e.wholeRun) {
				out.push('');
				out.push(
					`Over the whole run (lost / duplicated of expected): Slack alert ${lostDup(e.wholeRun.slack)}, Sheets rows ${lostDup(e.wholeRun.sheets)}, Live alert ${lostDup(e.wholeRun.live)}, Burst ${lostDup(e.wholeRun.burst)}.`,
				);
			}
			out.push('');
		}
		const c = r.liveConnectionsPerKey;
		if (c) {
			out.push(
				`Live-stream connections over the whole run: ${c.basic} with the Basic key, ${c.enterprise} with the Enterprise key (${r.run === 'throughput' ? 'main did not restart in this run' : 'the initial one plus one per restart of main'}); refused: ${c.refused?.length ?? 0}.`,
			);
			out.push('');
		}
		const s = r.setup ?? {};
		out.push(
			`${label}setup: ${s.n8nInstallSeconds ? `n8n installed into an empty cache ${s.n8nInstallSeconds} s; ` : 'n8n from the cache; '}apt-get ${s.aptPackages?.length ? `${s.aptSeconds} s (${s.aptPackages.join(', ')})` : 'not needed'}; Redis, PostgreSQL and three user folders ${s.backendsAndUserFoldersSeconds} s; main ready ${s.mainStartSeconds} s; credentials and workflows created and published on it ${s.importAndPublishSeconds} s (its REST API, as the editor does); workers ready ${(s.workerStartSeconds ?? []).map((v) => `${v} s`).join(', ')}.`,
		);
		out.push('');
	}
	out.pop();
	return out.join('\n');
}

function renderRestarts(f) {
	const out = [
		`Last run: ${f.runAt?.slice(0, 16).replace('T', ' ')} UTC, n8n ${f.n8n}, single process (SQLite), the live Slack template active. Counts are of every negative mention collected since activation (cumulative over the outages), compared with what reached Slack.`,
		'',
		row([
			'Outage',
			'Down',
			'Collected',
			'In Slack',
			'Lost',
			'Duplicated',
			'Live connections',
			'Backfill asked',
		]),
		row(['---', '---', '---', '---', '---', '---', '---', '---']),
	];
	for (const r of f.rows ?? [])
		out.push(
			row([
				r.outage,
				`${r.downSeconds} s`,
				r.collected,
				r.delivered,
				r.lost,
				r.duplicated,
				r.connections,
				`${r.backfillMinutes} min`,
			]),
		);
	return out.join('\n');
}

module.exports = {
	merge,
	render,
	renderRestarts,
	BLOCKS: {
		'queue-mode': {
			render: (ctx) => {
				const figures = merge(
					Object.fromEntries(RUNS.map((r) => [r, ctx.results.json(`queue-mode-${r}.json`)])),
				);
				return figures && render(figures);
			},
			reads: (file) => RUNS.some((r) => file === `queue-mode-${r}.json`),
			how: 'test/.results/queue-mode-throughput.json and queue-mode-restarts.json are written by `npm run test:queue`',
		},
		restart: {
			render: (ctx) => {
				const figures = ctx.results.json('restart.json');
				return figures && renderRestarts(figures);
			},
			reads: 'restart.json',
			how: 'test/.results/restart.json is written by test/e2e/restart.test.ts',
		},
	},
};
