/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * A stopped execution stops (shared/transport/cancel.ts), for every kind of wait the package has:
 * n8n aborts the execution's cancel signal (the fake context's AbortController here) while the node
 * waits — for an hourly rate-limit reset (transport), for the budget between pages (pager), to try a
 * read again after a temporary failure (transport backoff), for a page in flight, on an export
 * stream — and the run ends at once with "The execution was stopped …", sending nothing more. The
 * triggers have no execution signal: their close function aborts their own (reconnect waits, a
 * repair search in its backoff, a gap search, a catch-up export). Waits on the node's clock are
 * held by the fake clock (`holdFrom`) until the stop ends them; the real-time backoff is cut short.
 * The engine tier measures the same through n8n's WorkflowExecute: test/engine/reliability/stops.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOne } from '../../../../nodes/SentiOne/SentiOne.node';
import { SentiOneStreamTrigger } from '../../../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { paginate } from '../../../../nodes/SentiOne/shared/pager';
import { isStopped, SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { exportCollectedRange } from '../../../../nodes/SentiOne/trigger/common/exportRange';
import { searchCollected } from '../../../../nodes/SentiOne/trigger/stream/recoverySearch';
import { failAction, projectById } from '../../../support/fake/action';
import type { FakeAnswer } from '../../../support/fake/api';
import { FakeApi, FakeStream, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { executeContext, triggerContext, untilRecorded } from '../../../support/fake/context';
import { mentionAt, mentions, sse } from '../../../support/fake/mentions';
import { connections, LIVE, SEARCH, useStreamTrigger } from '../../../support/fake/streamTrigger';
import { MINUTE, NOW_MS, SECOND } from '../../../support/time';
import { sleep, waitFor } from '../../../support/wait';

const T = NOW_MS;
const RECENT = PATHS.recentSearch(1001);
const HISTORICAL = PATHS.historicalSearch(1001);
const EXPORT = PATHS.recentExport(1001);
const PROJECTS = PATHS.listProjects();

const streamTrigger = useStreamTrigger();
const clock = useFakeClock(T);

beforeEach(() => {
	// every wait on the node's clock of a minute or more is held until it is ended
	clock().holdFrom = MINUTE;
});

const search = (operation: 'searchRecent' | 'searchHistorical', extra: IDataObject = {}) => ({
	resource: 'mention',
	operation,
	project: projectById(1001),
	...extra,
});

const STOPPED = /^The execution was stopped /;

/**
 * Runs the action node with `parameters`, stops the execution (aborts its cancel signal) once
 * `ready` holds — or at once when the script aborts it itself — and returns the failure and how
 * many requests had been sent at the stop.
 */
async function stoppedRun(
	parameters: IDataObject | IDataObject[],
	api: FakeApi,
	ready: () => boolean,
	controller = new AbortController(),
	extra: { continueOnFail?: boolean } = {},
) {
	const running = failAction(parameters, { api, cancelSignal: controller.signal, ...extra });
	await waitFor(() => ready() || controller.signal.aborted, { what: 'the wait', stepMs: 2 });
	const sentAtStop = api.requests.length;
	controller.abort();
	const failure = await running;
	// nothing is sent after the stop, however long one waits
	await sleep(20);
	return { failure, sentAtStop };
}

describe('the action node: every wait ends at the stop, and nothing follows', () => {
	test('a wait for the hourly rate-limit reset (transport, On Rate Limit = Wait)', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, {
				status: 429,
				headers: rateLimitHeaders(30, 0, T + 30 * MINUTE),
				body: { message: 'Too many requests.' },
			})
			.on('POST', RECENT, { body: page(mentions(3)) });
		const { failure, sentAtStop } = await stoppedRun(
			search('searchRecent', { options: { onRateLimit: 'wait' } }),
			api,
			() => clock().holding === 1,
		);
		expect(failure.message).toBe(
			"The execution was stopped while it waited for SentiOne's hourly rate limit to reset",
		);
		expect(failure.description).toBe(
			'Nothing more was sent to SentiOne after the stop, and nothing of this run is returned.',
		);
		expect(failure.name).toBe('NodeOperationError');
		expect(isStopped(failure.error)).toBe(true);
		expect(clock().slept).toEqual([30 * MINUTE + SECOND]);
		expect(clock().holding).toBe(0);
		expect(sentAtStop).toBe(1);
		expect(api.requests).toHaveLength(1);
	});

	test('a wait for the budget between pages (pager, Return All, On Rate Limit = Wait)', async () => {
		const all = mentions(50);
		const api = new FakeApi()
			.once('POST', HISTORICAL, {
				headers: rateLimitHeaders(30, 0, T + 20 * MINUTE),
				body: page(all.slice(0, 25), 'p2'),
			})
			.on('POST', HISTORICAL, { body: page(all.slice(25)) });
		const { failure, sentAtStop } = await stoppedRun(
			search('searchHistorical', { returnAll: true, options: { onRateLimit: 'wait' } }),
			api,
			() => clock().holding === 1,
		);
		expect(failure.message).toBe(
			"The execution was stopped while it waited for SentiOne's search budget to reset, after 25 items (1 page)",
		);
		expect(clock().holding).toBe(0);
		expect(sentAtStop).toBe(1);
		expect(api.requests).toHaveLength(1);
	});

	test('a backoff before a read is asked again after a temporary failure (real time)', async () => {
		const controller = new AbortController();
		const api = new FakeApi()
			// the stop comes 100 ms into the first backoff (500 ms)
			.once('GET', PROJECTS, () => {
				setTimeout(() => controller.abort(), 100);
				return { status: 503, body: { message: 'Service unavailable' } };
			})
			.on('GET', PROJECTS, { body: page([{ id: 1, name: 'would have worked' }]) });
		const { failure, sentAtStop } = await stoppedRun(
			{ resource: 'project', operation: 'getAll', returnAll: true },
			api,
			() => false,
			controller,
		);
		expect(failure.message).toBe(
			'The execution was stopped while it waited to ask SentiOne again after a temporary failure',
		);
		// the second answer would have succeeded: the run failed because the backoff ended, not by chance
		await sleep(600);
		expect(sentAtStop).toBe(1);
		expect(api.requests).toHaveLength(1);
	});

	test('a page in flight (Return All): its request is abandoned, no later page is asked for', async () => {
		const controller = new AbortController();
		const all = mentions(50);
		const api = new FakeApi()
			.once('POST', RECENT, { body: page(all.slice(0, 25), 'p2') })
			.once('POST', RECENT, () => {
				controller.abort();
				return new Promise<FakeAnswer>(() => undefined);
			})
			.on('POST', RECENT, { body: page(all.slice(25)) });
		const { failure } = await stoppedRun(
			search('searchRecent', { returnAll: true }),
			api,
			() => false,
			controller,
		);
		expect(failure.message).toBe(
			'The execution was stopped while a request to SentiOne was under way',
		);
		expect(api.requests.map((r) => r.qs.cursor ?? null)).toEqual([null, 'p2']);
	});

	test('an export stream being read: the connection is dropped, nothing is returned', async () => {
		const stream = new FakeStream();
		const api = new FakeApi().on('POST', EXPORT, { stream });
		const controller = new AbortController();
		const running = failAction(
			{ resource: 'mention', operation: 'export', project: projectById(1001), returnAll: true },
			{ api, cancelSignal: controller.signal },
		);
		stream.send(sse.mention(mentionAt('m1', T)), sse.mention(mentionAt('m2', T)));
		await waitFor(() => api.requests.length === 1, { what: 'the export', stepMs: 2 });
		await sleep(20);
		controller.abort();
		const failure = await running;
		expect(failure.message).toBe('The execution was stopped while the stream was being read');
		expect(stream.closed).toBe(true);
		expect(api.requests).toHaveLength(1);
	});

	test('stopped before the node ran: nothing is sent at all', async () => {
		const controller = new AbortController();
		controller.abort();
		const api = new FakeApi().on('POST', RECENT, { body: page(mentions(3)) });
		const failure = await failAction(search('searchRecent'), {
			api,
			cancelSignal: controller.signal,
		});
		expect(failure.message).toBe('The execution was stopped before a request was sent');
		expect(api.requests).toEqual([]);
	});

	test('Continue On Fail: a stop is not an item error; the items after it do not run', async () => {
		const api = new FakeApi()
			.once('POST', RECENT, {
				status: 429,
				headers: rateLimitHeaders(30, 0, T + 30 * MINUTE),
				body: { message: 'Too many requests.' },
			})
			.on('POST', RECENT, { body: page(mentions(3)) });
		const options = { onRateLimit: 'wait' };
		const { failure } = await stoppedRun(
			[search('searchRecent', { options }), search('searchRecent', { options })],
			api,
			() => clock().holding === 1,
			new AbortController(),
			{ continueOnFail: true },
		);
		expect(failure.message).toMatch(STOPPED);
		expect(failure.itemIndex).toBe(0);
		expect(api.requests).toHaveLength(1);
	});
});

describe('the pager between pages', () => {
	test('a stop while a page is being read: the next page is never asked for', async () => {
		const controller = new AbortController();
		const all = mentions(75);
		const api = new FakeApi()
			.once('POST', RECENT, { body: page(all.slice(0, 25), 'p2') })
			.on('POST', RECENT, { body: page(all.slice(25), null) });
		const ctx = executeContext({ nodeType: new SentiOne(), api, cancelSignal: controller.signal });
		const transport = new SentiOneTransport(ctx);
		let seen = 0;
		const error = await paginate(
			transport,
			{
				method: 'POST',
				path: RECENT,
				group: 'search',
				tier: 'Basic',
				read: true,
				body: {},
			},
			{
				returnAll: true,
				keep: () => {
					// the user stops the run while the first page is being gone through
					if (++seen === 10) controller.abort();
					return true;
				},
			},
		).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		expect(error?.message).toBe('The execution was stopped before a request was sent');
		expect(api.requests).toHaveLength(1);
		expect(transport.requestsSent).toBe(1);
	});
});

describe('the triggers: close() aborts their own signal, and their waits end the same way', () => {
	const triggerContextOn = (api: FakeApi) =>
		triggerContext({ nodeType: new SentiOneStreamTrigger(), api });
	const triggerTransport = (api: FakeApi) =>
		new SentiOneTransport(triggerContextOn(api), { retry: { maxRateLimitWaitMs: 0 } });

	test('a reconnect wait (backoff on the node clock) ends at close, no connection follows', async () => {
		clock().holdFrom = 1;
		const stream = new FakeStream();
		const { api, ctx, trigger } = await streamTrigger.started([{ stream }]);
		stream.drop();
		await waitFor(() => clock().holding === 1, { what: 'the reconnect wait', stepMs: 2 });
		await trigger.close();
		expect(clock().holding).toBe(0);
		await sleep(30);
		expect(connections(api)).toHaveLength(1);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a repair search in its backoff ends at close, no request follows', async () => {
		const stream = new FakeStream();
		const { api, ctx, trigger } = await streamTrigger.started(
			[{ stream }],
			{ parameters: { options: {} } },
			[{ status: 503, body: { message: 'Service unavailable' } }],
		);
		stream.send(sse.mention(mentionAt('m1', T)), sse.malformedMention('m2'));
		await untilRecorded(ctx, (r) => r.emitted.length === 1);
		clock().advance(5 * SECOND);
		stream.send(sse.heartbeat(T + 5 * SECOND));
		await waitFor(() => api.sent(SEARCH).length === 1, { what: 'the repair search', stepMs: 2 });
		// the search answered 503: the transport backs off 500 ms (real time) before asking again
		await sleep(50);
		await trigger.close();
		await sleep(600);
		expect(api.sent(SEARCH)).toHaveLength(1);
		expect(api.sent(LIVE)).toHaveLength(1);
		expect(ctx.recorded.errors).toEqual([]);
	});

	test('a gap search: the caller’s signal ends its backoff; nothing more is sent', async () => {
		const controller = new AbortController();
		const api = new FakeApi().on('POST', RECENT, () => {
			setTimeout(() => controller.abort(), 100);
			return { status: 503, body: { message: 'Service unavailable' } };
		});
		const error = await searchCollected({
			transport: triggerTransport(api),
			projectId: 1001,
			filters: {},
			range: { from: T - 10 * MINUTE, to: T - 5 * MINUTE },
			maxRequests: 6,
			signal: controller.signal,
		}).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		expect(error?.message).toBe('The request to SentiOne was cancelled.');
		expect(isStopped(error)).toBe(true);
		await sleep(600);
		expect(api.requests).toHaveLength(1);
	});

	test('a catch-up export being read: the caller’s signal drops the stream', async () => {
		const controller = new AbortController();
		const stream = new FakeStream();
		const api = new FakeApi().on('POST', EXPORT, { stream });
		const ctx = triggerContextOn(api);
		const transport = new SentiOneTransport(ctx, { retry: { maxRateLimitWaitMs: 0 } });
		const running = exportCollectedRange(transport, ctx.getNode(), {
			projectId: 1001,
			scope: 'recent',
			filters: {},
			from: T - 10 * MINUTE,
			to: T,
			format: 'sse',
			signal: controller.signal,
		}).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		stream.send(sse.mention(mentionAt('m1', T - MINUTE)));
		await waitFor(() => api.requests.length === 1, { what: 'the export', stepMs: 2 });
		await sleep(20);
		controller.abort();
		const error = await running;
		expect(error?.message).toBe('The request to SentiOne was cancelled.');
		expect(stream.closed).toBe(true);
		expect(api.requests).toHaveLength(1);
	});
});
