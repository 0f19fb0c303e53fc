/**
 * Every computed instant is checked before it is sent (shared/time.ts `toIso`, the one constructor
 * of request dates, and the checks before it), as a class: each field from which a node computes a
 * date or a window — Published in the Last (amount and unit) of the searches and the export, the
 * poll trigger's Backfill (Hours) and Late Mention Window (Minutes), the Stream Trigger's Backfill at
 * Start (Minutes) and Stall Timeout (Seconds) — given absurd amounts as an expression could give
 * them (1e308, 1e15, -1, NaN, Infinity, fractions where a whole number is needed, a period reaching
 * before 1990): refused with an error naming the field, and not one request sent (the fake SentiOne
 * records none). A sensible value still reaches SentiOne as the instant it means. The engine tier
 * runs one case per node through n8n's expressions: test/engine/reliability/instants.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOneTrigger } from '../../../nodes/SentiOne/SentiOneTrigger.node';
import { failAction, projectById, runAction } from '../../support/fake/action';
import { FakeApi, page } from '../../support/fake/api';
import { useFakeClock } from '../../support/fake/clock';
import { pollContext, runPoll, runTrigger, triggerContext } from '../../support/fake/context';
import { streamNode } from '../../support/fake/streamTrigger';
import { projectParam } from '../../support/triggers';
import { HOUR, NOW_MS } from '../../support/time';

useFakeClock(NOW_MS);

/** What an expression may give a number field. */
const ABSURD: Array<[string, number | string]> = [
	['1e308', 1e308],
	['1e15', 1e15],
	['-1', -1],
	['NaN', NaN],
	['Infinity', Infinity],
	['-Infinity', -Infinity],
	['the text "1e400"', '1e400'],
	['the text "soon"', 'soon'],
];
const FRACTION: Array<[string, number | string]> = [['a fraction (2.5)', 2.5]];

const period = (amount: unknown, unit: unknown = 'hours') => ({
	publishedInLast: { period: { amount, unit } },
});

const actions: Array<{ name: string; parameters: IDataObject }> = [
	{ name: 'Search Recent', parameters: { resource: 'mention', operation: 'searchRecent' } },
	{ name: 'Search Historical', parameters: { resource: 'mention', operation: 'searchHistorical' } },
	{
		name: 'Export (recent)',
		parameters: { resource: 'mention', operation: 'export', exportScope: 'recent' },
	},
	{
		name: 'Export (all time)',
		parameters: { resource: 'mention', operation: 'export', exportScope: 'historical' },
	},
];

/** A SentiOne that would answer anything: a request reaching it is the failure. */
const anything = () =>
	new FakeApi().on('POST', /search$/, { body: page([]) }).on('POST', /stream$/, { body: '' });

describe('the action node: Filters → Published in the Last', () => {
	const amounts: Array<[string, number | string]> = [
		...ABSURD,
		['below its minimum (0.5)', 0.5],
		['a million hours (back to 1912)', 1e6],
	];
	test.each(actions.flatMap((a) => amounts.map(([label, amount]) => ({ ...a, label, amount }))))(
		'$name, amount $label: refused naming the field, nothing sent',
		async ({ parameters, amount }) => {
			const api = anything();
			const failure = await failAction(
				{ ...parameters, project: projectById(1001), filters: period(amount) },
				{ api },
			);
			expect(failure.message).toMatch(/^Filters → Published in the Last/);
			expect(failure.message).not.toMatch(/invalid instant|Invalid time/);
			expect(api.requests).toEqual([]);
		},
	);

	test.each(actions)('$name, a unit no one offers ("weeks"): refused, nothing sent', async (a) => {
		const api = anything();
		const failure = await failAction(
			{ ...a.parameters, project: projectById(1001), filters: period(2, 'weeks') },
			{ api },
		);
		expect(failure.message).toMatch(/^Filters → Published in the Last → Unit/);
		expect(api.requests).toEqual([]);
	});

	test('a period that starts before 1990 names the start it would send and the rule', async () => {
		const api = anything();
		const far = await failAction(
			{
				resource: 'mention',
				operation: 'searchHistorical',
				project: projectById(1001),
				filters: period(20_000, 'days'),
			},
			{ api },
		);
		expect(far.message).toBe(
			'Filters → Published in the Last: 20000 days back from now (2026-11-21 10:30 UTC) reaches a start that cannot be sent: 1972-02-18 is outside the years 1990 to 2100. Give a period that starts in 1990 or later.',
		);
		expect(api.requests).toEqual([]);
	});

	test('a sensible period still reaches SentiOne as the instant it means', async () => {
		const api = anything();
		await runAction(
			{
				resource: 'mention',
				operation: 'searchHistorical',
				project: projectById(1001),
				filters: period(30, 'hours'),
			},
			{ api },
		);
		expect(api.requests).toHaveLength(1);
		expect(api.requests[0].body).toMatchObject({
			filters: { publishedAt: { from: new Date(NOW_MS - 30 * HOUR).toISOString() } },
		});
	});
});

describe('the poll trigger: Backfill (Hours) and Late Mention Window (Minutes)', () => {
	const node = new SentiOneTrigger();
	const poll = async (parameters: IDataObject) => {
		const api = anything();
		const ctx = pollContext({
			nodeType: node,
			api,
			parameters: { project: projectParam(1001), ...parameters },
		});
		const error = await runPoll(node, ctx).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		return { error, api };
	};

	test.each([...ABSURD, ...FRACTION, ['more than 7 days (169)', 169] as [string, number]])(
		'Backfill (Hours) %s: refused naming the field, nothing sent',
		async (_, hours) => {
			const { error, api } = await poll({ startFrom: 'backfill', backfillHours: hours });
			expect(error?.message).toMatch(/^Backfill \(Hours\)/);
			expect(api.requests).toEqual([]);
		},
	);

	test.each([...ABSURD, ...FRACTION])(
		'Late Mention Window (Minutes) %s: refused naming the field, nothing sent',
		async (_, minutes) => {
			const { error, api } = await poll({ options: { lateWindowMinutes: minutes } });
			expect(error?.message).toMatch(/^Options → Late Mention Window \(Minutes\)/);
			expect(api.requests).toEqual([]);
		},
	);
});

describe('the Stream Trigger: Backfill at Start (Minutes) and Stall Timeout (Seconds)', () => {
	const activate = async (options: IDataObject) => {
		const api = new FakeApi();
		const ctx = triggerContext({
			nodeType: streamNode,
			api,
			parameters: { project: projectParam(1001), options },
		});
		const error = await runTrigger(streamNode, ctx).then(
			async (response) => {
				await response.closeFunction?.();
				return undefined;
			},
			(caught: unknown) => caught as Error,
		);
		return { error, api };
	};

	test.each([...ABSURD, ...FRACTION, ['more than 5 (6)', 6] as [string, number]])(
		'Backfill at Start (Minutes) %s: activation refused naming the field, nothing sent',
		async (_, minutes) => {
			const { error, api } = await activate({ backfillMinutes: minutes });
			expect(error?.message).toMatch(/^Options → Backfill at Start \(Minutes\)/);
			expect(api.requests).toEqual([]);
		},
	);

	test.each([...ABSURD, ['below its minimum (0.05)', 0.05] as [string, number]])(
		'Stall Timeout (Seconds) %s: activation refused naming the field, nothing sent',
		async (_, seconds) => {
			const { error, api } = await activate({ stallTimeout: seconds });
			expect(error?.message).toMatch(/^Options → Stall Timeout \(Seconds\)/);
			expect(api.requests).toEqual([]);
		},
	);
});
