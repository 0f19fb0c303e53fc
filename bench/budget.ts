/**
 * Part 1 — budget efficiency: API requests the nodes spend divided by the least any client could
 * spend (the floor), counted in the simulator's request log. The nodes run through n8n-core's real
 * engine (test/harness): the action node in WorkflowExecute, the poll trigger in a real
 * PollContext, the stream trigger in a real TriggerContext.
 *
 * - Return All of N mentions (Search Historical and Search Recent): floor ceil(N/25), at least 1.
 * - Export (Return All) of N mentions: floor 1.
 * - An idle poll (nothing new since the last check): floor 1.
 * - A stream trigger without faults while mentions arrive: floor 1 connection.
 *
 * Request counts do not depend on latency, so this part runs with none (limits off: 10,000
 * mentions are 400 search requests, beyond the 30 an hour).
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
} from '../test/support/triggers';
import { jsonOf, loadWorkflow, run, withParameters } from '../test/support/actions';
import {
	admin,
	type Sim,
	clearLog,
	projectWithMentions,
	requestLog,
} from '../test/support/simulator';
import { sleep } from '../test/support/wait';
import { log, simulator } from './lib';
import { SimClock } from '../test/support/simClock';
import { BASIC, ENTERPRISE } from '../test/support/keys';

export interface BudgetRow {
	case: string;
	n?: number;
	floor: number;
	/** requests (or connections) per run */
	used: number[];
	/** mentions returned per run (checked against N) */
	returned?: number[];
	note?: string;
}

export interface BudgetResult {
	rows: BudgetRow[];
}

/** Return All of a project's mentions, raw output; Export reads them from the historical export stream */
function searchParameters(
	operation: 'searchHistorical' | 'searchRecent' | 'export',
	projectId: number,
): INodeParameters {
	return {
		resource: 'mention',
		operation,
		project: projectParam(projectId),
		...(operation === 'export' ? { exportScope: 'historical' } : {}),
		returnAll: true,
		filters: {},
		sortType: 'PublishedAtDescending',
		simplify: false,
		options: {},
	} as INodeParameters;
}

async function apiRequests(sim: Sim, group: string): Promise<number> {
	return (await requestLog(sim)).filter((r) => r.group === group).length;
}

async function connections(sim: Sim, group: string): Promise<number> {
	return (await requestLog(sim)).filter((r) => r.group === group && r.status === 200).length;
}

export async function measureBudget(options: {
	runs: number;
	sizes: number[];
}): Promise<BudgetResult> {
	const rows: BudgetRow[] = [];
	// frozen at the harness's NOW; the node's clock is pinned to it (SimClock), as in the action tests
	const sim = await simulator([
		'--limits',
		'off',
		'--projects',
		'1',
		'--mentions',
		'50',
		'--heartbeat-ms',
		'1000',
	]);
	const clock = new SimClock(sim);
	clock.install();
	try {
		const searchWorkflow = loadWorkflow('mention-search-historical');
		for (const n of options.sizes) {
			log(`budget: project with ${n} mentions`);
			const projectId = await projectWithMentions(sim, n);
			for (const operation of ['searchHistorical', 'searchRecent'] as const) {
				const row: BudgetRow = {
					case: `${operation === 'searchHistorical' ? 'Search Historical' : 'Search Recent'}, Return All`,
					n,
					floor: Math.max(1, Math.ceil(n / 25)),
					used: [],
					returned: [],
				};
				for (let r = 0; r < options.runs; r++) {
					await clearLog(sim);
					const result = await run(
						sim,
						withParameters(searchWorkflow, searchParameters(operation, projectId), {
							replace: true,
						}),
						{
							key: ENTERPRISE,
						},
					);
					row.returned!.push(jsonOf(result).length);
					row.used.push(await apiRequests(sim, 'search'));
				}
				rows.push(row);
			}
			if (n === options.sizes[options.sizes.length - 1]) {
				const row: BudgetRow = { case: 'Export, Return All', n, floor: 1, used: [], returned: [] };
				for (let r = 0; r < options.runs; r++) {
					await clearLog(sim);
					const result = await run(
						sim,
						withParameters(searchWorkflow, searchParameters('export', projectId), {
							replace: true,
						}),
						{
							key: ENTERPRISE,
						},
					);
					row.returned!.push(jsonOf(result).length);
					row.used.push(await apiRequests(sim, 'export'));
				}
				rows.push(row);
			}
		}

		// idle poll: activation notes the watermark (1 request), a few mentions arrive and are
		// emitted, then a check with nothing new
		log('budget: idle poll');
		const idle: BudgetRow = {
			case: 'Poll trigger, idle check (nothing new)',
			floor: 1,
			used: [],
			note: 'after activation and one check that emitted 3 mentions',
		};
		for (let r = 0; r < options.runs; r++) {
			const projectId = await projectWithMentions(sim, 30);
			const harness = new PollHarness(pollParameters(projectId), {
				apiKey: BASIC,
				baseUrl: sim.base,
			});
			const activation = await harness.poll('activate');
			if (activation.error) throw activation.error;
			await clock.advance(60_000);
			await admin(sim, 'POST', '/mentions', { projectId, count: 3 });
			const busy = await harness.poll();
			if (busy.error) throw busy.error;
			if ((busy.items ?? []).length !== 3)
				throw new Error(`poll emitted ${(busy.items ?? []).length} mentions, expected 3`);
			await clock.advance(60_000);
			await clearLog(sim);
			const quiet = await harness.poll();
			if (quiet.error) throw quiet.error;
			if (quiet.items !== null) throw new Error('the idle poll emitted something');
			idle.used.push(await apiRequests(sim, 'search'));
		}
		rows.push(idle);

		// a stream without faults: 50 mentions arrive over ~2.5 s on one connection
		log('budget: fault-free stream');
		const stream: BudgetRow = {
			case: 'Stream trigger, no faults',
			floor: 1,
			used: [],
			returned: [],
			note: '50 mentions arriving over about 2.5 s; heartbeats every second',
		};
		for (let r = 0; r < options.runs; r++) {
			const projectId = await projectWithMentions(sim, 0);
			await clearLog(sim);
			const trigger = await activateStreamTrigger(
				{
					event: 'newMention',
					project: projectParam(projectId),
					filters: {},
					simplify: false,
					options: {},
				} as INodeParameters,
				{ apiKey: BASIC, baseUrl: sim.base },
			);
			try {
				for (let i = 0; i < 10; i++) {
					await admin(sim, 'POST', '/mentions', { projectId, count: 5 });
					await sleep(250);
				}
				await trigger.until(() => trigger.items().length >= 50, 10_000);
				await sleep(300);
			} finally {
				await trigger.close();
			}
			stream.returned!.push(trigger.items().length);
			stream.used.push(await connections(sim, 'live'));
		}
		rows.push(stream);
	} finally {
		clock.uninstall();
		await sim.stop();
	}
	return { rows };
}
