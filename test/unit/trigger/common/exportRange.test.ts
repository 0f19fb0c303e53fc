/**
 * Catching up by export (trigger/common/exportRange.ts) with a fake SentiOne: one request for the
 * whole range, the range widened on the wire and exact in the result, the filters applied again,
 * and an export that stops early or is capped reported as incomplete.
 */
import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { exportCollectedRange } from '../../../../nodes/SentiOne/trigger/common/exportRange';
import { FakeApi } from '../../../support/fake/api';
import { pollContext } from '../../../support/fake/context';
import {
	heartbeatEvent,
	mention,
	mentionEvent,
	streamAnswer,
} from '../../../support/fake/mentions';

const FROM = Date.parse('2026-11-21T08:00:00.000Z');
const TO = Date.parse('2026-11-21T10:00:00.000Z');
const at = (iso: string) => ({ collectedAt: iso });

function setUp(answer: Parameters<FakeApi['on']>[2]) {
	const api = new FakeApi().on('POST', '/projects/1001/mentions/search/stream', answer);
	const ctx = pollContext({ nodeType: new SentiOneTrigger(), api, parameters: {} });
	return { api, transport: new SentiOneTransport(ctx), node: ctx.getNode() };
}

const request = {
	projectId: 1001,
	scope: 'historical' as const,
	filters: { content: { sentiment: ['Negative'] } },
	from: FROM,
	to: TO,
	format: 'sse' as const,
};

test('one export: the range widened by a second on the wire, exact and filtered in the result', async () => {
	const { api, transport, node } = setUp(
		streamAnswer('sse', [
			mentionEvent(
				mention('before', {
					...at('2026-11-21T07:59:59.600Z'),
					content: { sentiment: 'Negative' },
				}),
			),
			mentionEvent(
				mention('first', { ...at('2026-11-21T08:00:00.000Z'), content: { sentiment: 'Negative' } }),
			),
			mentionEvent(
				mention('positive', {
					...at('2026-11-21T08:30:00.000Z'),
					content: { sentiment: 'Positive' },
				}),
			),
			heartbeatEvent(),
			mentionEvent(
				mention('first', { ...at('2026-11-21T08:00:00.000Z'), content: { sentiment: 'Negative' } }),
			),
			mentionEvent(
				mention('last', { ...at('2026-11-21T09:59:59.999Z'), content: { sentiment: 'Negative' } }),
			),
			mentionEvent(
				mention('at-end', {
					...at('2026-11-21T10:00:00.000Z'),
					content: { sentiment: 'Negative' },
				}),
			),
		]),
	);
	const result = await exportCollectedRange(transport, node, request);
	expect(result.mentions.map((m) => m.id)).toEqual(['first', 'last']);
	expect(result).toMatchObject({ complete: true, requests: 1 });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0].body).toEqual({
		filters: {
			content: { sentiment: ['Negative'] },
			collectedAt: { from: '2026-11-21T07:59:59.000Z', to: '2026-11-21T10:00:01.000Z' },
		},
		sortType: 'CollectedAtAscending',
	});
	expect(api.requests[0].headers.Accept).toBe('text/event-stream');
});

test('a stream that breaks off is incomplete, with what arrived and why', async () => {
	const { transport, node } = setUp(
		streamAnswer(
			'sse',
			[
				mentionEvent(
					mention('a', { ...at('2026-11-21T08:10:00.000Z'), content: { sentiment: 'Negative' } }),
				),
			],
			{
				breakOff: new Error('socket hang up'),
			},
		),
	);
	const result = await exportCollectedRange(transport, node, request);
	expect(result.complete).toBe(false);
	expect(result.mentions.map((m) => m.id)).toEqual(['a']);
	expect(result.why).toMatch(/broke off after 1 mentions/);
});

test('a refusal of the export (another tier, no such route) is an error for the caller', async () => {
	const { transport, node } = setUp({
		status: 401,
		body: { message: 'API key does not have permission' },
	});
	await expect(exportCollectedRange(transport, node, request)).rejects.toThrow();
});
