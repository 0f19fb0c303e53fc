/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Bytes are not progress (shared/transport/bodyGuard.ts, streamBody.ts), as a class: a stream
 * (export or live, SSE or JSON lines, the engagement stream) fails once no complete event — a
 * mention, a heartbeat, an engagement update — arrived for its stall limit, whatever else arrives
 * meanwhile: bytes of an event that never completes, an endless line, comments, blank lines, events
 * of unknown kinds, unreadable events. A JSON answer is one event: it must arrive whole within the
 * stall limit, however its bytes trickle in (a trickle is not retried; an answer that never started
 * is, for a read). Every error names the limit and what had arrived. The fake SentiOne feeds the
 * bodies; the limits are small (0.3 s) and on real time, as the guard's are. The engine tier
 * measures the seconds to the error against a hostile server: test/engine/reliability/stalls.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { SentiOne } from '../../../../nodes/SentiOne/SentiOne.node';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import { errorDetails } from '../../../../nodes/SentiOne/shared/errors';
import { paginate } from '../../../../nodes/SentiOne/shared/pager';
import type { StreamFormat } from '../../../../nodes/SentiOne/shared/stream';
import type { TransportOptions } from '../../../../nodes/SentiOne/shared/transport';
import { SentiOneTransport } from '../../../../nodes/SentiOne/shared/transport';
import { FakeApi, FakeStream, page } from '../../../support/fake/api';
import { executeContext } from '../../../support/fake/context';
import { mention, mentions } from '../../../support/fake/mentions';

const EXPORT = PATHS.recentExport(1001);
const LIVE = PATHS.liveStream(1001);
const ENGAGEMENT = PATHS.engagementStream();
const SEARCH = PATHS.recentSearch(1001);
const PROJECTS = PATHS.listProjects();
const LIMIT_MS = 300;
const NDJSON = 'application/x-ndjson';

/** Timers feeding the fake bodies: cleared after each test. */
const feeders: Array<ReturnType<typeof setInterval>> = [];
afterEach(() => {
	for (const timer of feeders.splice(0)) clearInterval(timer);
});

/** Writes `head` at once, then `piece(i)` every `everyMs` ms until the body is closed. */
function feed(
	stream: FakeStream,
	head: string,
	piece: (i: number) => string,
	everyMs: number,
): FakeStream {
	if (head !== '') stream.send(head);
	let i = 0;
	const timer = setInterval(() => {
		if (stream.closed) clearInterval(timer);
		else stream.send(piece(i++));
	}, everyMs);
	feeders.push(timer);
	return stream;
}

const transportOn = (api: FakeApi, options: TransportOptions = {}) =>
	new SentiOneTransport(executeContext({ nodeType: new SentiOne(), api }), options);

const sseMention = (id: string) =>
	`event: mention\nid: ${id}\ndata: ${JSON.stringify(mention(id))}\n\n`;
const lineMention = (id: string) =>
	`${JSON.stringify({ event: 'mention', data: mention(id), id })}\n`;
const sseHeartbeat = () =>
	`event: heartbeat\ndata: ${JSON.stringify({ date: '2026-11-21T10:30:00.000Z' })}\n\n`;
const lineHeartbeat = () =>
	`${JSON.stringify({ event: 'heartbeat', data: { date: '2026-11-21T10:30:00.000Z' } })}\n`;

interface StreamRun {
	items: Record<string, number>;
	error?: Error & { description?: string };
	stream: FakeStream;
	requests: number;
}

/** Opens the stream at `path` (its body fed by `start`) with a stall limit of 0.3 s and reads it to its end. */
async function readStream(
	path: string,
	format: StreamFormat,
	start: (stream: FakeStream) => void,
	request: { endpoint?: 'engagementStream'; deadlineMs?: number; idleTimeoutMs?: number } = {},
): Promise<StreamRun> {
	const stream = new FakeStream();
	const api = new FakeApi().on('POST', path, {
		stream,
		headers: { 'content-type': format === 'sse' ? 'text/event-stream' : NDJSON },
	});
	const open = await transportOn(api).openStream({
		endpoint: request.endpoint ?? 'recentExport',
		path,
		group: 'export',
		tier: 'Basic',
		body: {},
		format,
		idleTimeoutMs: request.idleTimeoutMs ?? LIMIT_MS,
		deadlineMs: request.deadlineMs,
	});
	start(stream);
	const items: Record<string, number> = {};
	try {
		for await (const item of open.items) items[item.type] = (items[item.type] ?? 0) + 1;
	} catch (error) {
		return { items, error: error as Error, stream, requests: api.requests.length };
	} finally {
		open.close();
	}
	return { items, stream, requests: api.requests.length };
}

const stalled = (arrived: string, what = 'a mention') =>
	`The SentiOne stream went silent: no complete event (${what} or a heartbeat) for 0.3 s, the stall limit (bytes alone do not count); ${arrived} had arrived`;

/** What a stream may carry forever without a complete event, per framing. */
const WITHOUT_EVENTS: Array<{
	name: string;
	format: StreamFormat;
	head?: string;
	piece: (i: number) => string;
	everyMs: number;
}> = [
	{
		name: 'a mention event dripped a byte at a time (SSE)',
		format: 'sse',
		piece: (i) => sseMention('slow')[i % 400],
		everyMs: 5,
	},
	{
		name: 'a mention line dripped a byte at a time (JSON lines)',
		format: 'jsonLines',
		piece: (i) => lineMention('slow')[i % 400],
		everyMs: 5,
	},
	{
		name: 'an SSE data line that never ends',
		format: 'sse',
		head: 'event: mention\ndata: {"id":"',
		piece: () => 'x'.repeat(4096),
		everyMs: 5,
	},
	{
		name: 'a JSON line that never ends',
		format: 'jsonLines',
		head: '{"event":"mention","data":{"id":"',
		piece: () => 'x'.repeat(4096),
		everyMs: 5,
	},
	{ name: 'SSE comments only', format: 'sse', piece: () => ': keep-alive\n\n', everyMs: 20 },
	{ name: 'blank JSON lines only', format: 'jsonLines', piece: () => '\n \n', everyMs: 20 },
	{
		name: 'SSE events of a kind SentiOne does not document',
		format: 'sse',
		piece: (i) => `event: progress\ndata: {"done":${i}}\n\n`,
		everyMs: 20,
	},
	{
		name: 'JSON lines of a kind SentiOne does not document',
		format: 'jsonLines',
		piece: (i) => `${JSON.stringify({ event: 'progress', data: { done: i } })}\n`,
		everyMs: 20,
	},
	{
		name: 'unreadable SSE mention events',
		format: 'sse',
		piece: (i) => `event: mention\nid: u${i}\ndata: {"id":"u${i}","content":\n\n`,
		everyMs: 20,
	},
	{
		name: 'unreadable JSON lines',
		format: 'jsonLines',
		piece: (i) => `not json ${i}\n`,
		everyMs: 20,
	},
];

describe('a stream without a complete event fails at its stall limit, whatever else arrives', () => {
	test.each(WITHOUT_EVENTS)('export: $name', async ({ format, head, piece, everyMs }) => {
		const run = await readStream(EXPORT, format, (s) => feed(s, head ?? '', piece, everyMs));
		expect(run.error?.message).toBe(stalled('0 mentions'));
		expect(errorDetails(run.error)?.streamInterrupted).toBe('stalled');
		expect(run.items.mention ?? 0).toBe(0);
		expect(run.stream.closed).toBe(true);
		expect(run.requests).toBe(1);
	});

	test.each(WITHOUT_EVENTS.filter((c) => c.format === 'sse'))(
		'live stream: $name',
		async ({ format, head, piece, everyMs }) => {
			const run = await readStream(LIVE, format, (s) => feed(s, head ?? '', piece, everyMs));
			expect(run.error?.message).toBe(stalled('0 mentions'));
			expect(run.stream.closed).toBe(true);
		},
	);

	test.each([
		{ format: 'sse' as const, event: sseMention },
		{ format: 'jsonLines' as const, event: lineMention },
	])(
		'two mentions, then bytes that never make an event ($format): the error says 2 mentions arrived',
		async ({ format, event }) => {
			const run = await readStream(EXPORT, format, (s) =>
				feed(s, `${event('m1')}${event('m2')}`, (i) => event('m3')[i % 100], 5),
			);
			expect(run.items.mention).toBe(2);
			expect(run.error?.message).toBe(stalled('2 mentions'));
		},
	);

	test('the engagement stream: three updates, then comments only — it names the updates', async () => {
		const update = (i: number) =>
			`event: engagementUpdate\nid: m${i}:t\ndata: ${JSON.stringify({ mentionId: `m${i}`, engagementMetrics: {}, updatedAt: '2026-11-21T10:30:00Z' })}\n\n`;
		const run = await readStream(
			ENGAGEMENT,
			'sse',
			(s) => feed(s, `${update(1)}${update(2)}${update(3)}`, () => ': keep-alive\n\n', 20),
			{ endpoint: 'engagementStream' },
		);
		expect(run.items.engagementUpdate).toBe(3);
		expect(run.error?.message).toBe(stalled('3 engagement updates', 'an engagement update'));
	});

	test.each([
		{ format: 'sse' as const, beat: sseHeartbeat },
		{ format: 'jsonLines' as const, beat: lineHeartbeat },
	])(
		'heartbeats are progress ($format): kept alive until the deadline, not stalled',
		async ({ format, beat }) => {
			// a stall limit of 1 s and a deadline of 3 s: reaching the deadline takes at least 3
			// heartbeats less than 1 s apart (a heartbeat every 50 ms leaves room for a loaded machine)
			const run = await readStream(EXPORT, format, (s) => feed(s, beat(), beat, 50), {
				deadlineMs: 3000,
				idleTimeoutMs: 1000,
			});
			expect(errorDetails(run.error)?.streamInterrupted).toBe('deadline');
			expect(run.items.heartbeat).toBeGreaterThanOrEqual(3);
		},
	);
});

describe('a JSON answer is one event: whole within the stall limit, or an error', () => {
	const limits: TransportOptions = {
		idleTimeoutMs: LIMIT_MS,
		retry: { transientRetries: 2, transientBackoffMs: 10 },
	};

	/** A JSON answer fed by `start`, read by `run` on a transport with a 0.3 s stall limit. */
	async function answer(
		method: string,
		path: string,
		start: (stream: FakeStream) => void,
		run: (transport: SentiOneTransport) => Promise<unknown>,
	) {
		const api = new FakeApi().on(method, path, () => {
			const stream = new FakeStream();
			start(stream);
			return { stream, headers: { 'content-type': 'application/json' } };
		});
		const error = await run(transportOn(api, limits)).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		return { error, requests: api.requests.length };
	}

	/** the project list as the node reads it: through the pager */
	const projects = async (transport: SentiOneTransport) =>
		await paginate(
			transport,
			{ method: 'GET', path: PROJECTS, group: 'projects', tier: 'Basic', read: true },
			{ returnAll: true },
		);

	test('the project list trickling a byte every 20 ms: refused at the limit, not asked again', async () => {
		const { error, requests } = await answer(
			'GET',
			PROJECTS,
			(s) => feed(s, '{"data":[', () => ' ', 20),
			projects,
		);
		expect(error?.message).toMatch(
			/^SentiOne's answer could not be used: the answer did not arrive whole within 0\.3 s, the stall limit \(\d+ bytes had arrived; bytes trickling in do not extend the limit\); 0 items had arrived$/,
		);
		expect(requests).toBe(1);
	});

	test('a search answer trickling (an endless string): refused at the limit, not asked again', async () => {
		const { error, requests } = await answer(
			'POST',
			SEARCH,
			(s) => feed(s, '{"data":[{"id":"', () => 'x'.repeat(512), 10),
			async (transport) =>
				await paginate(
					transport,
					{ method: 'POST', path: SEARCH, group: 'search', tier: 'Basic', read: true, body: {} },
					{ returnAll: true },
				),
		);
		expect(error?.message).toMatch(
			/^SentiOne's answer could not be used: the answer did not arrive whole within 0\.3 s, the stall limit \(\d+ kB had arrived; bytes trickling in do not extend the limit\); 0 items had arrived$/,
		);
		expect(requests).toBe(1);
	});

	test('the second page of a search trickles: the error names the items of the first', async () => {
		const api = new FakeApi()
			.once('POST', SEARCH, { body: page(mentions(25), 'p2') })
			.on('POST', SEARCH, () => {
				const stream = feed(new FakeStream(), '{"data":[', () => ' ', 20);
				return { stream, headers: { 'content-type': 'application/json' } };
			});
		const error = await paginate(
			transportOn(api, limits),
			{ method: 'POST', path: SEARCH, group: 'search', tier: 'Basic', read: true, body: {} },
			{ returnAll: true },
		).then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		expect(error?.message).toMatch(
			/the answer did not arrive whole within 0\.3 s, the stall limit .*; 25 items had arrived on 1 earlier page$/,
		);
		expect(api.requests).toHaveLength(2);
	});

	test('headers, then nothing at all: a read is asked again (a silent connection), then refused', async () => {
		const { error, requests } = await answer('GET', PROJECTS, () => undefined, projects);
		expect(error?.message).toBe(
			"SentiOne's answer could not be used: the server sent nothing of the answer for 0.3 s, the stall limit; 0 items had arrived",
		);
		expect(requests).toBe(3);
	});

	test('part of it, then silence: a read is asked again; a write never is', async () => {
		const partThenSilence = (s: FakeStream) => s.send('{"data":[{"id":1,');
		const read = await answer('GET', PROJECTS, partThenSilence, projects);
		expect(read.error?.message).toMatch(
			/^SentiOne's answer could not be used: the server stopped sending the answer: it was not whole within 0\.3 s, the stall limit \(17 bytes had arrived, then nothing for [\d.]+ s\); 0 items had arrived$/,
		);
		expect(read.requests).toBe(3);
		const write = await answer('POST', PROJECTS, partThenSilence, async (transport) =>
			transport.request({
				method: 'POST',
				path: PROJECTS,
				group: 'projects',
				tier: 'Basic',
				read: false,
				body: { name: 'x', query: 'y' } as IDataObject,
			}),
		);
		expect(write.error?.message).toMatch(/the server stopped sending the answer/);
		expect(write.requests).toBe(1);
	});
});
