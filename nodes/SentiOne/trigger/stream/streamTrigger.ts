/**
 * `trigger()` of the SentiOne Stream Trigger: reads the settings, opens the stream (which one and
 * how: streamTarget.ts; activation fails here when SentiOne refuses it for good; a spent stream
 * budget activates and connects after the reset) and hands n8n the function that closes it. An
 * active trigger keeps what it needs to resume after a restart of n8n in the node's static data
 * (streamState.ts).
 */
import { createHash } from 'crypto';
import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { idKey } from '../../shared/text';
import { clock } from '../../shared/clock';
import { SentiOneTransport } from '../../shared/transport';
import { toItems } from '../../shared/items';
import { ALERT_STATE_KEY } from '../alerts';
import { StreamSession } from './streamSession';
import { readStreamSettings } from './streamSettings';
import { streamTarget } from './streamTarget';
import { loadStreamMemory, saveStreamMemory, streamMemoryTarget } from './streamState';

/**
 * The deduplication key of the execution that carries one mention (or engagement update): the
 * same for the same workflow, node, stream and id, so a mention passed on again after a restart
 * (streamState.ts, uncertain ids) is refused by n8n if its execution exists. 71 characters (n8n
 * stores up to 255).
 */
export function executionKey(
	workflowId: string,
	nodeId: string,
	target: string,
	id: string,
): string {
	return `sentione:${createHash('sha256')
		.update(`${workflowId}\n${nodeId}\n${target}\n${idKey(id)}`)
		.digest('hex')}`;
}

/**
 * True when this n8n takes a deduplication key with each execution a trigger starts (n8n 2.41+
 * declares it as `emit`'s fourth parameter; older versions take three and ignore a fourth).
 */
function hostDeduplicates(emit: ITriggerFunctions['emit']): boolean {
	return typeof emit === 'function' && emit.length >= 4;
}

export async function startStreamTrigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = readStreamSettings(this);
	const manual = this.getMode() === 'manual';
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
			emit: (row: IDataObject, id?: string) => {
				if (deduplicates && id !== undefined) {
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
