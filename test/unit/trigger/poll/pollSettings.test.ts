/**
 * The poll trigger's parameters (trigger/poll/pollSettings.ts), read as n8n hands them over (the
 * node description's defaults filled in): the defaults, what each field becomes, and every bad
 * value refused with an error naming the field — before any request (the whole poll is checked too).
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import {
	MAX_BACKFILL_HOURS,
	POLL_DEFAULTS,
	readPollSettings,
} from '../../../../nodes/SentiOne/trigger/poll/pollSettings';
import { FakeApi } from '../../../support/fake/api';
import { pollContext, runPoll } from '../../../support/fake/context';
import { projectParam } from '../../../support/triggers';

const node = new SentiOneTrigger();
const project = projectParam(1001);
const read = (parameters: IDataObject) =>
	readPollSettings(pollContext({ nodeType: node, parameters: { project, ...parameters } }));

test('the defaults: recent search, start from now, simplified, the documented share and window', () => {
	expect(read({})).toEqual({
		event: 'newMention',
		alert: undefined,
		projectId: 1001,
		source: 'recent',
		filters: {},
		simplify: true,
		startFrom: 'now',
		backfillHours: 0,
		maxRequestsPerPoll: POLL_DEFAULTS.maxRequestsPerPoll,
		requestsPerHour: POLL_DEFAULTS.requestsPerHour,
		catchUp: true,
		lateWindowMs: POLL_DEFAULTS.lateWindowMinutes * 60_000,
	});
	expect(POLL_DEFAULTS).toEqual({
		maxRequestsPerPoll: 2,
		requestsPerHour: 12,
		lateWindowMinutes: 10,
		backfillHours: 24,
	});
});

test('each field as set: historical search, backfill hours, options, filters in the API’s shape', () => {
	expect(
		read({
			source: 'historical',
			startFrom: 'backfill',
			backfillHours: 6,
			simplify: false,
			filters: { query: 'acme', mentionTypes: ['Post'] },
			options: { maxRequestsPerPoll: 5, requestsPerHour: 0, lateWindowMinutes: 0 },
		}),
	).toEqual({
		event: 'newMention',
		alert: undefined,
		projectId: 1001,
		source: 'historical',
		filters: { content: { query: 'acme' }, type: ['Post'] },
		simplify: false,
		startFrom: 'backfill',
		backfillHours: 6,
		maxRequestsPerPoll: 5,
		requestsPerHour: 0,
		catchUp: true,
		lateWindowMs: 0,
	});
	// backfill left at its default
	expect(read({ startFrom: 'backfill' }).backfillHours).toBe(24);
});

test.each([
	[{ project: { __rl: true, mode: 'id', value: '' } }, /^Project: no project is selected/],
	[{ project: { __rl: true, mode: 'id', value: 'abc' } }, /^Project: "abc" is not a project ID/],
	[
		{ source: 'everything' },
		/^Search: "everything" is not a choice\. Expected one of: recent, historical\.$/,
	],
	[{ startFrom: 'yesterday' }, /^Start From: "yesterday" is not a choice/],
	[
		{ startFrom: 'backfill', backfillHours: MAX_BACKFILL_HOURS + 1 },
		/^Backfill \(Hours\): "169" is not valid\. Expected a whole number from 1 to 168\.$/,
	],
	[{ startFrom: 'backfill', backfillHours: 0 }, /^Backfill \(Hours\): "0" is not valid/],
	[{ simplify: 'maybe' }, /^Simplify: "maybe" is not valid\. Expected true or false\.$/],
	[
		{ options: { maxRequestsPerPoll: 0 } },
		/^Options → Max Requests per Poll: "0" is not valid\. Expected a whole number from 1 to 30\.$/,
	],
	[
		{ options: { requestsPerHour: 31 } },
		/^Options → Search Requests per Hour: "31" is not valid\. Expected a whole number from 0 to 30\.$/,
	],
	[
		{ options: { requestsPerHour: 2.5 } },
		/^Options → Search Requests per Hour: "2\.5" is not valid/,
	],
	[
		{ options: { lateWindowMinutes: 1441 } },
		/^Options → Late Mention Window \(Minutes\): "1441" is not valid\. Expected a whole number from 0 to 1440\.$/,
	],
	[{ filters: { query: 'acme AND (' } }, /Content Query/],
	[{ filters: { mentionTypes: ['Tweet'] } }, /Mention Types/],
])(
	'a bad value is refused naming the field, and the poll sends nothing: %j',
	async (parameters, words) => {
		expect(() => read(parameters)).toThrow(words);
		const api = new FakeApi();
		const ctx = pollContext({ nodeType: node, api, parameters: { project, ...parameters } });
		await expect(runPoll(node, ctx)).rejects.toThrow(words);
		expect(api.requests).toHaveLength(0);
		expect(ctx.staticData).toEqual({});
	},
);
