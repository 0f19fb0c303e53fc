/**
 * A key without the tier an operation needs (issue 17.2): the headline names the operation and the
 * tier it needs — never "refused the API key", which reads like a wrong key — an alternative only
 * where one exists, and once SentiOne has refused a tier in a run, later operations needing it fail
 * at once without a request. One case for every Enterprise-only operation on a Basic key.
 */
import type { IDataObject } from 'n8n-workflow';

import { clearLog, requestLog } from '../../support/simulator';
import {
	PollHarness,
	activateStreamTrigger,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import type { Sim } from '../../support/simulator';
import { useSimulator } from '../../support/simClock';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';

let sim: Sim;
useSimulator(['--mentions', '30', '--heartbeat-ms', '200'], (s) => (sim = s), { reset: 'log' });

const HEADLINE = (operation: string) =>
	`${operation} needs SentiOne's Enterprise tier, and this API key does not have it (401)`;

const cases: Array<{
	operation: string;
	fixture: string;
	parameters?: IDataObject;
	inputItems?: IDataObject[];
	alternative?: RegExp;
}> = [
	{
		operation: 'Mention → Search Historical',
		fixture: 'mention-search-historical',
		alternative: /Mention → Search Recent covers the mentions published in the last 7 days/,
	},
	{
		operation: 'Mention → Export (all time)',
		fixture: 'mention-export',
		parameters: { exportScope: 'historical' },
		alternative: /Export with Mentions From: Last 7 Days/,
	},
	{ operation: 'Tag → Get Many', fixture: 'tag-get-many' },
	{ operation: 'Tag → Add', fixture: 'tag-add', inputItems: [{ mentionId: 'm1' }] },
	{ operation: 'Tag → Remove', fixture: 'tag-remove', inputItems: [{ mentionId: 'm1' }] },
];

test.each(cases)(
	'$operation on a Basic key: names the operation and the tier',
	async ({ operation, fixture, parameters, inputItems, alternative }) => {
		const result = await run(sim, withParameters(loadWorkflow(fixture), parameters ?? {}), {
			key: BASIC,
			inputItems,
		});
		const error = result.nodeError(NODE);
		expect(error?.message).toBe(HEADLINE(operation));
		expect(error?.httpCode).toBe('401');
		if (alternative) expect(error?.description).toMatch(alternative);
		else {
			expect(error?.description).toMatch(
				new RegExp(
					`^No operation of the Basic tier does what ${operation.replace(/[→()]/g, '.')} does\\.`,
				),
			);
			// never an alternative that does not apply (tags have none)
			expect(error?.description).not.toMatch(/recent search|Search Recent/i);
		}
	},
);

test('once SentiOne refused the tier, later items needing it fail at once, without a request', async () => {
	await clearLog(sim);
	const workflow = withParameters(
		loadWorkflow('tag-get-many'),
		{},
		{ onError: 'continueRegularOutput' },
	);
	const result = await run(sim, workflow, { key: BASIC, inputItems: [{}, {}, {}] });
	const errors = result.output(NODE).map((item) => item.json.error);
	expect(errors).toEqual([
		HEADLINE('Tag → Get Many'),
		HEADLINE('Tag → Get Many'),
		HEADLINE('Tag → Get Many'),
	]);
	expect(await requestLog(sim)).toHaveLength(1);
});

test('the Poll Trigger on historical search and the Stream Trigger on engagement updates name the tier too', async () => {
	const poll = await new PollHarness(
		pollParameters(1001, { source: 'historical' }),
		credentials(sim, BASIC),
	).poll('activate');
	expect(poll.error?.message).toBe(HEADLINE('Mention → Search Historical'));
	await expect(
		activateStreamTrigger(streamParameters({ event: 'engagementUpdate' }), credentials(sim, BASIC)),
	).rejects.toThrow(HEADLINE('SentiOne Stream Trigger → Engagement Update'));
	const live = await activateStreamTrigger(
		streamParameters({ project: projectParam(1001) }),
		credentials(sim, ENTERPRISE),
	);
	await live.close();
});

test('a key without any API tier: the operation needs API access', async () => {
	const result = await run(sim, loadWorkflow('mention-search-recent'), { key: NOACCESS });
	expect(result.nodeError(NODE)?.message).toBe(
		"Mention → Search Recent needs API access (SentiOne's Basic tier), and this API key has none (401)",
	);
	expect(result.nodeError(NODE)?.description).toMatch(
		/^SentiOne recognises the key but its account has no API tier/,
	);
});
