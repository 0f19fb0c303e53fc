/**
 * The SentiOne Stream Trigger in the unit tier: its context for project 1001 on a FakeApi, activated
 * through `trigger()` and closed after each test (useStreamTrigger), the paths it calls, and what it
 * passed on. The trigger's unit tests (test/unit/trigger/stream/) share it.
 */
import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { SentiOneStreamTrigger } from '../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import { executionKey } from '../../../nodes/SentiOne/trigger/stream/streamTrigger';
import { idsOf } from '../tally';
import { projectParam } from '../triggers';
import type { FakeAnswer } from './api';
import { FakeApi } from './api';
import type { TriggerRecord } from './context';
import { emittedRows, triggerContext, useActivations } from './context';

export const streamNode = new SentiOneStreamTrigger();
/** the live stream and the recent search of project 1001 */
export const LIVE = PATHS.liveStream(1001);
export const SEARCH = PATHS.recentSearch(1001);

export interface StreamSetup {
	/** parameters over the project (1001) */
	parameters?: IDataObject;
	mode?: WorkflowExecuteMode;
	emitArity?: 3 | 4;
	staticData?: IDataObject;
	/** the workflow's settings (Engine 2.0: `{ engineType: 'v2' }`) */
	workflowSettings?: IDataObject;
}

/** The Stream Trigger's context on `api`, for project 1001. */
export function streamContext(api: FakeApi, o: StreamSetup = {}) {
	return triggerContext({
		nodeType: streamNode,
		api,
		mode: o.mode,
		emitArity: o.emitArity,
		staticData: o.staticData,
		workflowSettings: o.workflowSettings,
		parameters: { project: projectParam(1001), ...(o.parameters ?? {}) },
	});
}

/**
 * The deduplication key the trigger gives the execution of `id` (the fake context's workflow and
 * node); `attempt`: its retry after failed executions (Mark Delivered When).
 */
export function keyOf(id: string, target = 'newMention:1001', attempt = 1): string {
	return executionKey('fake-workflow-id', 'fake-node-id', target, id, attempt);
}

/** The ids of the items the trigger passed on, in order. */
export function emittedIds(ctx: { recorded: TriggerRecord }): string[] {
	return idsOf(emittedRows(ctx));
}

/** The stream connections the trigger asked for. */
export function connections(api: FakeApi): FakeApi['requests'] {
	return api.sent(LIVE);
}

/**
 * For the tests of a file (call it before useFakeClock, so triggers close first): `activate` runs
 * trigger() on a context, `started` on a fresh FakeApi whose live stream answers `answers` in order
 * (and the recent search `search`). Every trigger is closed after its test.
 */
export function useStreamTrigger() {
	const activateAny = useActivations();
	const activate = async (ctx: ReturnType<typeof streamContext>) =>
		await activateAny(streamNode, ctx);
	const started = async (answers: FakeAnswer[], o: StreamSetup = {}, search: FakeAnswer[] = []) => {
		const api = new FakeApi();
		for (const answer of answers) api.once('POST', LIVE, answer);
		for (const answer of search) api.once('POST', SEARCH, answer);
		const ctx = streamContext(api, o);
		const trigger = await activate(ctx);
		return { api, ctx, trigger };
	};
	return { activate, started };
}
