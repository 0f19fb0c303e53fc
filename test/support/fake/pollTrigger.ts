/**
 * The SentiOne Trigger in the unit tier, as n8n keeps it between polls: its parameters, one static
 * data object, its fake SentiOne; `poll()` runs one check (feeding the secrets watch), `failure()`
 * the error the next check throws. The poll trigger's unit tests (test/unit/trigger/poll/) share it.
 */
import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { SentiOneTrigger } from '../../../nodes/SentiOne/SentiOneTrigger.node';
import type { PollSettings } from '../../../nodes/SentiOne/trigger/poll/pollSettings';
import type { PollState } from '../../../nodes/SentiOne/trigger/poll/pollState';
import { STATE_KEY } from '../../../nodes/SentiOne/trigger/poll/pollState';
import { FakeApi } from './api';
import { pollContext, runPoll } from './context';
import { MINUTE } from '../time';

export const pollNode = new SentiOneTrigger();

/**
 * Read poll settings, for the tests of the trigger's parts: new mentions of project 1001 by recent
 * search from now, simplified, at most 2 requests a check, a share of 12 an hour, Catch Up by
 * Export on, a late window of 10 minutes; `patch` changes any of them.
 */
export function pollSettings(patch: Partial<PollSettings> = {}): PollSettings {
	return {
		event: 'newMention',
		projectId: 1001,
		source: 'recent',
		filters: {},
		simplify: true,
		startFrom: 'now',
		backfillHours: 0,
		maxRequestsPerPoll: 2,
		requestsPerHour: 12,
		catchUp: true,
		lateWindowMs: 10 * MINUTE,
		...patch,
	};
}
const node = pollNode;

/** One SentiOne Trigger as n8n keeps it: its parameters, its static data, its fake SentiOne. */
export function pollTrigger(parameters: IDataObject = {}, pollBudgetMs?: number) {
	const api = new FakeApi();
	const staticData: IDataObject = {};
	const poll = async (mode: WorkflowExecuteMode = 'trigger') =>
		await runPoll(
			node,
			pollContext({
				nodeType: node,
				api,
				staticData,
				mode,
				pollBudgetMs,
				parameters,
			}),
		);
	return {
		api,
		staticData,
		poll,
		/** the error the next poll throws (fails the test when it returns instead) */
		failure: async (): Promise<Error & { description?: string; httpCode?: string }> => {
			const result = await poll().then(
				(items) => ({ items }),
				(error: Error) => ({ error }),
			);
			if (!('error' in result))
				throw new Error(`the poll returned ${JSON.stringify(result.items)} instead of failing`);
			return result.error;
		},
		state: () => staticData[STATE_KEY] as unknown as PollState,
	};
}

export type PollTrigger = ReturnType<typeof pollTrigger>;
