/**
 * Every computed instant is checked before it is sent (issue 21, class 3), one case per node through
 * n8n's real engine and expressions, against a hostile server of the test's own that would answer
 * anything: an absurd amount given by an expression to a field the node computes a date or a window
 * from is refused with an error naming the field, and the server receives nothing. Before this,
 * "Published in the Last" with `{{ 1e308 }}` reached SentiOne as `"from": "an invalid instant"`.
 * The unit tier covers every field and amount: test/unit/shared/computedInstants.test.ts.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import { runWorkflow } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import { HostileServer, json, useHostileServer } from '../../support/servers/hostileServer';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';

let server: HostileServer;
const rows: ResultRow[] = [];
/** requests the server received over the whole file */
let received = 0;

useHostileServer(
	(started) => {
		server = started;
		// whatever the node would send, the server would take it: a request is the failure
		server.any(json(200, { data: [] }));
	},
	{
		settleAfterEach: false,
		closed: () =>
			writePart({
				part: 'instants',
				title: 'Every computed instant is checked before it is sent',
				command: 'npx jest test/engine/reliability/instants.test.ts',
				rows,
				figures: { refused: rows.length, requestsReceived: received },
			}),
	},
);

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: server.base });

function note(through: string, field: string, expression: string, message: string): void {
	rows.push({
		fault: `${field} = ${expression}`,
		through,
		cases: 1,
		outcome: `refused before any request (0 sent): "${message.slice(0, 140)}${message.length > 140 ? '…' : ''}"`,
	});
}

beforeEach(() => {
	server.requests.length = 0;
});

afterEach(() => {
	received += server.requests.length;
});

test('the action node: Published in the Last = {{ 1e308 }} hours on Search Historical', async () => {
	const result = await runWorkflow(
		withParameters(loadWorkflow('mention-search-historical'), {
			project: { __rl: true, value: '1001', mode: 'id' },
			filters: { publishedInLast: { period: { amount: '={{ 1e308 }}', unit: 'hours' } } },
		}),
		{ credentials: credentials(), nodeTypes: { 'n8n-nodes-sentione.sentiOne': new SentiOne() } },
	);
	const message = result.nodeError(NODE)?.message ?? '';
	expect(message).toMatch(
		/^Filters → Published in the Last: 1e\+308 hours back from now \(\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC\) reaches a start that cannot be sent: it is not a finite instant\. Give a period that starts in 1990 or later\.$/,
	);
	expect(message).not.toMatch(/invalid instant/);
	expect(server.requests).toEqual([]);
	note(
		'action node (Mention → Search Historical)',
		'Published in the Last',
		'{{ 1e308 }} hours',
		message,
	);
});

test('the poll trigger: Backfill (Hours) = {{ 1e15 }}', async () => {
	const polled = await new PollHarness(
		pollParameters(1001, {
			startFrom: 'backfill',
			backfillHours: '={{ 1e15 }}',
		} as INodeParameters),
		credentials(),
	).poll('activate');
	const message = polled.error?.message ?? '';
	expect(message).toBe(
		'Backfill (Hours): "1000000000000000" is not valid. Expected a whole number from 1 to 168.',
	);
	expect(server.requests).toEqual([]);
	note('SentiOne Trigger', 'Backfill (Hours)', '{{ 1e15 }}', message);
});

test('the Stream Trigger: Backfill at Start (Minutes) = {{ 0 / 0 }} (NaN)', async () => {
	const error = await activateStreamTrigger(
		streamParameters({ project: projectParam(1001) } as INodeParameters, {
			backfillMinutes: '={{ 0 / 0 }}',
		}),
		credentials(),
	).then(
		async (trigger) => {
			await trigger.close();
			return undefined;
		},
		(caught: unknown) => caught as Error,
	);
	const message = error?.message ?? '';
	expect(message).toMatch(
		/^Options → Backfill at Start \(Minutes\): "NaN" is not valid\. Expected a whole number from 0 to 5\.$/,
	);
	expect(server.requests).toEqual([]);
	note('SentiOne Stream Trigger', 'Options → Backfill at Start (Minutes)', '{{ 0 / 0 }}', message);
});
