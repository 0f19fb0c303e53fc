/**
 * The rules of Options → Mark Delivered When (trigger/stream/redeliveryPolicy.ts, pure): how an
 * execution's outcome reads for each choice, the retry schedule and its words, and the option as
 * the settings read it.
 */
import type { IRun } from 'n8n-workflow';
import {
	ManualExecutionCancelledError,
	SystemShutdownExecutionCancelledError,
	TimeoutExecutionCancelledError,
} from 'n8n-workflow';

import { SentiOneStreamTrigger } from '../../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import {
	REDELIVERY,
	retryDelay,
	retrySchedule,
	retryScheduleText,
	verdict,
} from '../../../../nodes/SentiOne/trigger/stream/redeliveryPolicy';
import { readStreamSettings } from '../../../../nodes/SentiOne/trigger/stream/streamSettings';
import { fakeRun, triggerContext } from '../../../support/fake/context';
import { projectParam } from '../../../support/triggers';
import { MINUTE } from '../../../support/time';

test('the schedule: 1, 2, 4, 8, 16 minutes, then every 30; 12 executions in all, 211 minutes of waits', () => {
	expect(retrySchedule().map((ms) => ms / MINUTE)).toEqual([
		1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30,
	]);
	expect(retrySchedule().reduce((a, b) => a + b, 0)).toBe(211 * MINUTE);
	expect(retryDelay(1)).toBe(MINUTE);
	expect(retryDelay(0)).toBe(MINUTE);
	expect(retryDelay(100)).toBe(30 * MINUTE);
	expect(retryScheduleText()).toBe(
		'1, 2, 4, 8 and 16 minutes after a failed execution, then every half hour, 12 executions in all (over about 3.5 hours)',
	);
	expect(REDELIVERY).toMatchObject({ maxAttempts: 12, maxPending: 500, noWordMs: 60 * MINUTE });
});

describe('how an outcome reads', () => {
	const run = (status: Parameters<typeof fakeRun>[0]) => ({ run: fakeRun(status) });
	const cases: Array<[string, Parameters<typeof verdict>[1], string, string]> = [
		['a run that succeeded', run('success'), 'delivered', 'delivered'],
		['a run that failed (an error in resultData)', run('error'), 'failed', 'delivered'],
		['a crashed run', run('crashed'), 'failed', 'delivered'],
		['a run waiting (Wait node): n8n resumes it', run('waiting'), 'delivered', 'delivered'],
		[
			'a run whose status says canceled',
			{ run: { ...fakeRun('success'), status: 'canceled' } as IRun },
			'failed',
			'delivered',
		],
		['nothing: n8n refused a duplicate key', { run: undefined }, 'unknown', 'unknown'],
		[
			'rejected: cancelled by the user',
			{ error: new ManualExecutionCancelledError('1') },
			'failed',
			'delivered',
		],
		[
			'rejected: timed out',
			{ error: new TimeoutExecutionCancelledError('1') },
			'failed',
			'delivered',
		],
		[
			'rejected: cancelled by a shutdown',
			{ error: new SystemShutdownExecutionCancelledError('1') },
			'failed',
			'delivered',
		],
		[
			'rejected: n8n could not create it',
			{ error: new Error('Connection terminated') },
			'failed',
			'failed',
		],
		['rejected with no error at all', { error: undefined }, 'failed', 'failed'],
	];
	test.each(cases)('%s', (_name, outcome, succeeded, finished) => {
		expect(verdict('executionSucceeded', outcome)).toBe(succeeded);
		expect(verdict('executionFinished', outcome)).toBe(finished);
	});
});

describe('the option as the settings read it', () => {
	const read = (options: object) =>
		readStreamSettings(
			triggerContext({
				nodeType: new SentiOneStreamTrigger(),
				parameters: { project: projectParam(1001), options },
			}),
		);

	test('absent or Emitted: no markDelivered in the settings (today’s behaviour); the others as chosen', () => {
		expect(read({})).not.toHaveProperty('markDelivered');
		expect(read({ markDelivered: 'emitted' })).not.toHaveProperty('markDelivered');
		expect(read({ markDelivered: 'executionFinished' }).markDelivered).toBe('executionFinished');
		expect(read({ markDelivered: 'executionSucceeded' }).markDelivered).toBe('executionSucceeded');
	});

	test('anything else is refused, naming the option', () => {
		expect(() => read({ markDelivered: 'acknowledged' })).toThrow(
			'Options → Mark Delivered When: "acknowledged" is not a choice. Expected one of: emitted, executionFinished, executionSucceeded.',
		);
	});

	test('the description states the schedule and the bound', () => {
		const options = new SentiOneStreamTrigger().description.properties.find(
			(p) => p.name === 'options',
		)?.options as Array<{ name: string; description?: string; options?: unknown[] }>;
		const field = options.find((o) => o.name === 'markDelivered');
		expect(field?.description).toContain('at most 500');
		expect(JSON.stringify(field?.options)).toContain(retryScheduleText());
	});
});
