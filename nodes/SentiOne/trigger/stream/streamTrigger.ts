/**
 * `trigger()` of the SentiOne Stream Trigger: reads the settings, opens the stream (which one and
 * how: streamTarget.ts; activation fails here when SentiOne refuses it for good; a spent stream
 * budget activates and connects after the reset) and hands n8n the function that closes it. An
 * active trigger keeps what it needs to resume after a restart of n8n in the node's static data
 * (streamState.ts).
 */
import { createHash } from 'crypto';
import type { IDataObject, IRun, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { invalidParameter } from '../../shared/parameters';
import { idKey } from '../../shared/text';
import { clock } from '../../shared/clock';
import { SentiOneTransport } from '../../shared/transport';
import { toItems } from '../../shared/items';
import { ALERT_STATE_KEY } from '../alerts';
import type { DeliveryAttempt } from './redeliveryPolicy';
import { StreamSession } from './streamSession';
import { readStreamSettings } from './streamSettings';
import { streamTarget } from './streamTarget';
import { loadStreamMemory, saveStreamMemory, streamMemoryTarget } from './streamState';

/**
 * The deduplication key of the execution that carries one mention (or engagement update, or
 * alert): the same for the same workflow, node, stream and id, so a mention passed on again after
 * a restart (streamState.ts, uncertain ids) is refused by n8n if its execution exists. 71
 * characters (n8n stores up to 255). `attempt` (Mark Delivered When, redelivery.ts): a retry after
 * a failed execution is another execution of the same item, so attempt 2, 3 … each have their own
 * key, while attempt 1 keeps the key the item has without retries.
 */
export function executionKey(
	workflowId: string,
	nodeId: string,
	target: string,
	id: string,
	attempt = 1,
): string {
	const retry = attempt > 1 ? `\nattempt ${attempt}` : '';
	return `sentione:${createHash('sha256')
		.update(`${workflowId}\n${nodeId}\n${target}\n${idKey(id)}${retry}`)
		.digest('hex')}`;
}

/**
 * The done promise handed to n8n with an emit (n8n-workflow's IDeferredPromise: a promise and the
 * functions that settle it), told to `attempt` once n8n settles it.
 */
function donePromiseFor(attempt: DeliveryAttempt) {
	let resolve: (run: IRun | PromiseLike<IRun>) => void = () => undefined;
	let reject: (error: Error) => void = () => undefined;
	const promise = new Promise<IRun>((resolveRun, rejectRun) => {
		resolve = resolveRun;
		reject = rejectRun;
	});
	// n8n 2.41 resolves it with undefined when it started no execution (a duplicate key)
	promise.then(
		(run: IRun | undefined) => attempt.settled({ run }),
		(error: unknown) => attempt.settled({ error }),
	);
	return { promise, resolve, reject };
}

/**
 * True when this n8n takes a deduplication key with each execution a trigger starts (n8n 2.41+
 * declares it as `emit`'s fourth parameter; older versions take three and ignore a fourth).
 */
function hostDeduplicates(emit: ITriggerFunctions['emit']): boolean {
	return typeof emit === 'function' && emit.length >= 4;
}

/**
 * True when the workflow runs on n8n 2.x's Engine 2.0 (its settings' `engineType: 'v2'`), which
 * refuses an emit with a done promise ("cannot run a trigger that waits for its execution to
 * finish yet"): Mark Delivered When other than Emitted cannot work there.
 */
function onEngineV2(ctx: ITriggerFunctions): boolean {
	const settings =
		typeof ctx.getWorkflowSettings === 'function' ? ctx.getWorkflowSettings() : undefined;
	return (settings as { engineType?: unknown } | undefined)?.engineType === 'v2';
}

export async function startStreamTrigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = readStreamSettings(this);
	const manual = this.getMode() === 'manual';
	if (settings.markDelivered && !manual && onEngineV2(this))
		throw invalidParameter(
			this.getNode(),
			'Options → Mark Delivered When',
			"this workflow runs on n8n's Engine 2.0 (workflow settings), which cannot yet start an execution a trigger waits for. Choose Emitted, or run the workflow on the standard engine.",
		);
	const transport = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
	const target = streamMemoryTarget(settings.event, settings.projectId);
	const deduplicates = !manual && hostDeduplicates(this.emit);
	const workflowId = String(this.getWorkflow().id ?? '');
	const nodeId = this.getNode().id;
	// In a test run n8n wires `emit` only once trigger() has returned: hold items until then.
	let returned: () => void = () => undefined;
	const ready = new Promise<void>((resolve) => {
		returned = resolve;
	}).then(async () => await sleep(0));
	const session = new StreamSession(
		this.getNode(),
		transport,
		settings,
		streamTarget(settings),
		{
			deduplicates,
			emit: (row: IDataObject, id?: string, attempt?: DeliveryAttempt) => {
				if (attempt) {
					// Mark Delivered When: n8n says through the done promise how the execution ended
					const done = donePromiseFor(attempt);
					if (deduplicates && id !== undefined) {
						this.emit(
							[toItems([row])],
							undefined,
							done,
							executionKey(workflowId, nodeId, target, id, attempt.number),
						);
					} else this.emit([toItems([row])], undefined, done);
				} else if (deduplicates && id !== undefined) {
					this.emit(
						[toItems([row])],
						undefined,
						undefined,
						executionKey(workflowId, nodeId, target, id),
					);
				} else this.emit([toItems([row])]);
			},
			fatal: (error: Error) => this.emitError(error),
			report: (error) => {
				if (!manual && typeof this.saveFailedExecution === 'function') {
					this.saveFailedExecution(
						error as Parameters<ITriggerFunctions['saveFailedExecution']>[0],
					);
				}
			},
			log: (message: string) => this.logger.info(message),
		},
		{
			manual,
			ready,
			memoryTarget: target,
			store: manual
				? undefined
				: {
						load: () => loadStreamMemory(this.getWorkflowStaticData('node'), target, clock.now()),
						save: (memory) => saveStreamMemory(this.getWorkflowStaticData('node'), memory),
					},
			alertStore: {
				load: () => this.getWorkflowStaticData('node')[ALERT_STATE_KEY],
				save: (state) => {
					this.getWorkflowStaticData('node')[ALERT_STATE_KEY] = state;
				},
			},
		},
	);
	await session.start();
	returned();
	return { closeFunction: async () => await session.close() };
}
