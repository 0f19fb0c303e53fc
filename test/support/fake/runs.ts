/**
 * What n8n hands back for an emit's execution, as plain data: the done promise's shape, how a
 * test ends an execution, and the run n8n resolves the promise with. No jest globals here: the
 * engine harness (test/support/triggers.ts) and the benchmarks (bench/) use it outside a test too.
 */
import type { IRun } from 'n8n-workflow';

/** An emit's done promise, as n8n-workflow's IDeferredPromise<IRun> has it. */
export interface DonePromise {
	promise: Promise<IRun>;
	resolve(run: IRun | undefined): void;
	reject(error: Error): void;
}

/**
 * How a test ends an emit's execution: a run with this status ('error' carries the error n8n
 * puts in `data.resultData.error`), `refused` (n8n started no execution: its deduplication key
 * existed; the done promise resolves with nothing), or a rejection (a cancelled execution, one
 * n8n could not create).
 */
export type EmitOutcome =
	| 'success'
	| 'error'
	| 'crashed'
	| 'waiting'
	| 'refused'
	| { reject: Error };

/** The run n8n resolves a done promise with, as n8n 2.x builds it (only what a trigger reads is filled). */
export function fakeRun(status: Exclude<EmitOutcome, 'refused' | { reject: Error }>): IRun {
	const failed = status === 'error' || status === 'crashed';
	return {
		data: {
			resultData: {
				runData: {},
				...(failed
					? {
							error: { name: 'NodeApiError', message: 'Service unavailable - try again later' },
							lastNodeExecuted: 'Alert the team in Slack',
						}
					: {}),
			},
		},
		finished: status === 'success',
		mode: 'trigger',
		startedAt: new Date(0),
		stoppedAt: new Date(0),
		storedAt: 'db',
		status,
	} as unknown as IRun;
}
