/**
 * The Stream Trigger's parameters (trigger/stream/streamSettings.ts), read as n8n hands them over:
 * the defaults, what each field becomes, every bad value refused naming the field (and activation
 * then sends nothing), and the request each stream connection is opened with.
 */
import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { SentiOneStreamTrigger } from '../../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import {
	MAX_GAP_REQUESTS,
	MAX_STALL_TIMEOUT_SECONDS,
	readStreamSettings,
	STREAM_DEFAULTS,
} from '../../../../nodes/SentiOne/trigger/stream/streamSettings';
import { streamTarget } from '../../../../nodes/SentiOne/trigger/stream/streamTarget';
import { FakeApi } from '../../../support/fake/api';
import { runTrigger, triggerContext } from '../../../support/fake/context';
import { projectParam } from '../../../support/triggers';

const node = new SentiOneStreamTrigger();
const project = projectParam(1001);
const read = (parameters: IDataObject, mode: WorkflowExecuteMode = 'trigger') =>
	readStreamSettings(
		triggerContext({ nodeType: node, mode, parameters: { project, ...parameters } }),
	);

test('the defaults: new mentions of the project, SSE, no backfill, gaps filled, the documented stall timeout', () => {
	expect(read({})).toEqual({
		event: 'newMention',
		projectId: 1001,
		filters: {},
		simplify: true,
		anonymization: undefined,
		notAnonymized: 'fail',
		format: 'sse',
		startBackfillMinutes: 0,
		fillGaps: true,
		maxGapRequests: STREAM_DEFAULTS.maxGapRequests,
		stallTimeoutMs: STREAM_DEFAULTS.stallTimeoutSeconds * 1000,
	});
	expect(STREAM_DEFAULTS).toEqual({
		stallTimeoutSeconds: 45,
		maxGapRequests: 6,
		manualBackfillMinutes: 5,
	});
});

test('each field as set; a test event always asks for the 5-minute backfill', () => {
	const options = {
		anonymization: 'author',
		notAnonymized: 'remove',
		streamFormat: 'jsonLines',
		backfillMinutes: 2,
		fillGaps: false,
		maxGapRequests: 3,
		stallTimeout: 0.5,
	};
	const settings = read({ filters: { query: 'acme' }, simplify: false, options });
	expect(settings).toEqual({
		event: 'newMention',
		projectId: 1001,
		filters: { content: { query: 'acme' } },
		simplify: false,
		anonymization: 'author',
		notAnonymized: 'remove',
		format: 'jsonLines',
		startBackfillMinutes: 2,
		fillGaps: false,
		maxGapRequests: 3,
		stallTimeoutMs: 500,
	});
	expect(read({ options }, 'manual').startBackfillMinutes).toBe(5);
});

test('engagement updates have no project, filters or gap search', () => {
	expect(
		read({ event: 'engagementUpdate', project: undefined, options: { backfillMinutes: 1 } }),
	).toEqual({
		event: 'engagementUpdate',
		filters: {},
		simplify: true,
		notAnonymized: 'fail',
		format: 'sse',
		startBackfillMinutes: 1,
		fillGaps: false,
		maxGapRequests: 0,
		stallTimeoutMs: 45_000,
	});
});

test.each([
	[
		{ event: 'everything' },
		/^Event: "everything" is not a choice\. Expected one of: newMention, digest, volumeSpike, sentimentShift, engagementUpdate, viralMention\.$/,
	],
	[{ project: { __rl: true, mode: 'id', value: '0' } }, /^Project: "0" is not a project ID/],
	[
		{ options: { backfillMinutes: 6 } },
		/^Options → Backfill at Start \(Minutes\): "6" is not valid\. Expected a whole number from 0 to 5\.$/,
	],
	[
		{ options: { stallTimeout: 0.05 } },
		/^Options → Stall Timeout \(Seconds\): "0\.05" is not valid\. Expected a number from 0\.1 to 600\.$/,
	],
	[
		{ options: { stallTimeout: MAX_STALL_TIMEOUT_SECONDS + 1 } },
		/^Options → Stall Timeout \(Seconds\): "601" is not valid/,
	],
	[
		{ options: { maxGapRequests: MAX_GAP_REQUESTS + 1 } },
		/^Options → Max Search Requests per Gap: "31" is not valid\. Expected a whole number from 1 to 30\.$/,
	],
	[{ options: { maxGapRequests: 0 } }, /^Options → Max Search Requests per Gap: "0" is not valid/],
	[
		{ options: { fillGaps: 'sometimes' } },
		/^Options → Fill Gaps with Search: "sometimes" is not valid\. Expected true or false\.$/,
	],
	[
		{ options: { anonymization: 'everyone' } },
		/^Options → Anonymization: "everyone" is not a level/,
	],
	[
		{ options: { notAnonymized: 'ignore' } },
		/^Options → If Not Anonymized: "ignore" is not a choice/,
	],
	[{ options: { streamFormat: 'xml' } }, /^Options → Stream Format: "xml" is not a stream format/],
	[{ filters: { sentiments: ['Happy'] } }, /Sentiments/],
])(
	'a bad value is refused naming the field, and activation opens nothing: %j',
	async (parameters, words) => {
		expect(() => read(parameters)).toThrow(words);
		const api = new FakeApi();
		const ctx = triggerContext({ nodeType: node, api, parameters: { project, ...parameters } });
		await expect(runTrigger(node, ctx)).rejects.toThrow(words);
		expect(api.requests).toHaveLength(0);
		expect(ctx.staticData).toEqual({});
	},
);

describe('the request of a connection', () => {
	const signal = new AbortController().signal;

	test('new mentions: POST to the live stream with the filters, the backfill and the anonymization asked for', () => {
		const settings = read({
			filters: { query: 'acme' },
			options: { anonymization: 'all', stallTimeout: 2 },
		});
		const target = streamTarget(settings);
		expect(target.endpoint).toBe('liveStream');
		expect(target.request(3, signal)).toEqual({
			endpoint: 'liveStream',
			method: 'POST',
			path: PATHS.liveStream(1001),
			group: 'live',
			tier: 'Basic',
			read: true,
			qs: { backfillMinutes: 3, anonymization: 'all' },
			body: { filters: { content: { query: 'acme' } } },
			signal,
			format: 'sse',
			idleTimeoutMs: 2000,
		});
		// no backfill asked: none sent; other filters (a refused one left out) when given
		expect(target.request(0, signal, {})).toMatchObject({
			qs: { anonymization: 'all' },
			body: { filters: {} },
		});
	});

	test('engagement updates: the engagement stream, an empty body', () => {
		const target = streamTarget(read({ event: 'engagementUpdate' }));
		expect(target.endpoint).toBe('engagementStream');
		expect(target.request(2, signal)).toMatchObject({
			method: 'POST',
			path: PATHS.engagementStream(),
			group: 'engagement',
			tier: 'Enterprise',
			qs: { backfillMinutes: 2 },
			body: {},
		});
		expect(target.request(0, signal).qs).toBeUndefined();
	});
});
