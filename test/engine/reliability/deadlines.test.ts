/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Threat: a server that keeps a connection alive without ever finishing — a JSON page dripping a
 * byte at a time, a page whose headers come and then nothing, a stream of comments only, a stream
 * of one line that never ends (fast or dripping), a stream of unreadable lines, an event dripped
 * so slowly it never completes in time, a stream of heartbeats (or mentions) that never ends.
 *
 * - The transport (small limits so this runs in seconds): bytes are never progress. A JSON answer
 *   is one event: it ends at its stall limit however it trickles (not retried), or when it went
 *   silent (retried for reads); a stream ends at its stall limit when no complete event arrives
 *   (bytes, comments, unreadable lines and a line that never ends do not count), and at its
 *   deadline when it never ends.
 * - The stream trigger (Options → Stall Timeout 0.3 s): every connection that carries no complete
 *   event is judged stalled and reconnected; heartbeats (or mentions) keep one connection alive.
 * The export through the node (Timeout ≥ 1 minute) and a dripping page under the default
 * 3-minute deadline are in deadlines.soak.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import type { StreamFormat } from '../../../nodes/SentiOne/shared/stream';
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import type { ApiRequest, TransportOptions } from '../../../nodes/SentiOne/shared/transport';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import { paginate } from '../../../nodes/SentiOne/shared/pager';
import type { ActiveStreamTrigger } from '../../support/triggers';
import { activateStreamTrigger, projectParam, streamParameters } from '../../support/triggers';
import { failureOf, inNode, type CaughtError } from '../../support/inNode';
import type { Behaviour } from '../../support/servers/hostileServer';
import {
	drip,
	hang,
	HostileServer,
	useHostileServer,
	mention,
	ndjson,
	NDJSON,
	pages,
	silence,
	sse,
	SSE,
	stream,
} from '../../support/servers/hostileServer';
import { sleep, waitFor } from '../../support/wait';
import { realNow } from '../../support/time';
import { type ResultRow, writePart } from '../../support/results';
import { ENTERPRISE } from '../../support/keys';
import { watchCrashes } from '../../support/probes';

jest.setTimeout(60_000);

let server: HostileServer;
const rows: ResultRow[] = [];
const figures: Record<string, unknown> = {};
/** longest a dripping (or silent) server held one call, per place */
const held: Record<string, number> = {};
const crashes = watchCrashes();

useHostileServer((started) => (server = started), {
	crashes,
	closed: () =>
		writePart({
			part: 'deadlines',
			title: 'Servers that never finish (drips, silence, endless streams)',
			command: 'npx jest test/engine/reliability/deadlines.test.ts',
			rows,
			figures: { ...figures, longestHoldMs: held },
		}),
});

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: server.base });

function hold(where: string, ms: number): void {
	held[where] = Math.max(held[where] ?? 0, Math.round(ms));
}

// --- JSON answers ------------------------------------------------------------------------------

const getProjects: ApiRequest = {
	method: 'GET',
	path: PATHS.listProjects(),
	group: 'projects',
	tier: 'Basic',
	read: true,
};
const createProject: ApiRequest = {
	method: 'POST',
	path: PATHS.createProject(),
	group: 'projects',
	tier: 'Basic',
	read: false,
	body: { name: 'x', query: 'y' },
};
const BOUNDS: TransportOptions = {
	deadlineMs: 1000,
	idleTimeoutMs: 700,
	retry: { transientRetries: 2, transientBackoffMs: 10 },
};

async function requestFailure(
	request: ApiRequest,
	options: TransportOptions,
): Promise<CaughtError & { ms: number; sent: number }> {
	let sent = 0;
	const error = await failureOf(credentials(), async function () {
		const transport = new SentiOneTransport(this, options);
		try {
			return await transport.request(request);
		} finally {
			sent = transport.requestsSent;
		}
	});
	return { ...error, sent };
}

describe('a JSON answer that trickles in: ended by its stall limit, never retried', () => {
	// a stall limit of 2 s: an answer whose first bytes a loaded machine delivers later than the
	// limit counts as one that sent nothing (retried), which is not this case
	const trickle: TransportOptions = { ...BOUNDS, idleTimeoutMs: 2000, deadlineMs: 10_000 };
	test.each([
		{ name: 'one byte every 20 ms (GET /projects)', everyMs: 20, request: getProjects },
		{ name: 'one byte every 150 ms (GET /projects)', everyMs: 150, request: getProjects },
		{
			name: 'one byte every 200 ms, well inside the stall limit (GET /projects)',
			everyMs: 200,
			request: getProjects,
		},
		{
			name: 'one byte every 50 ms on a write (POST /projects)',
			everyMs: 50,
			request: createProject,
		},
	])('$name', async ({ name, everyMs, request }) => {
		server.any(drip({ everyMs, prefix: '{"data":[' }));
		// a deadline well beyond the stall limit, so only the stall limit can end it
		const error = await requestFailure(request, trickle);
		expect(error.message).toMatch(
			/^SentiOne's answer could not be used: the answer did not arrive whole within 2 s, the stall limit \(\d+ (bytes|kB) had arrived; bytes trickling in do not extend the limit\)$/,
		);
		expect(error.ms).toBeGreaterThanOrEqual(1950);
		// the message says the stall limit ended it; before the 10-s deadline, whatever a loaded
		// machine adds
		expect(error.ms).toBeLessThan(10_000);
		expect(server.requests).toHaveLength(1);
		expect(error.sent).toBe(1);
		hold('JSON answer, transport (stall limit 2 s)', error.ms);
		rows.push({
			fault: `JSON answer dripping: ${name}`,
			through: 'transport',
			cases: 1,
			outcome: `stall limit (2 s) after ${(error.ms / 1000).toFixed(1)} s, 1 request (not retried)`,
		});
	});

	test('a deadline shorter than the stall limit ends a trickle first', async () => {
		server.any(drip({ everyMs: 20, prefix: '{"data":[' }));
		const error = await requestFailure(getProjects, { ...BOUNDS, idleTimeoutMs: 5000 });
		expect(error.message).toMatch(
			/^SentiOne's answer could not be used: the answer was still arriving after 1 s \(\d+ (bytes|kB) received\), far longer than one answer takes$/,
		);
		expect(error.ms).toBeGreaterThanOrEqual(950);
		// the message says the deadline ended it; before the 5-s stall limit, whatever a loaded
		// machine adds
		expect(error.ms).toBeLessThan(5000);
		expect(error.sent).toBe(1);
		hold('JSON answer, transport (deadline 1 s)', error.ms);
		rows.push({
			fault: 'JSON answer dripping, deadline 1 s under a stall limit of 5 s',
			through: 'transport',
			cases: 1,
			outcome: `deadline after ${(error.ms / 1000).toFixed(1)} s, 1 request (not retried)`,
		});
	});

	test('a second page that drips (Return All): the pager ends at the stall limit with nothing partial', async () => {
		server.route('POST', /\/mentions\/search$/, [
			pages(() => ({ data: [mention('p1-a'), mention('p1-b')], cursor: 'next-1' })),
			drip({ everyMs: 30, prefix: '{"data":[' }),
		]);
		const started = realNow();
		const error = await failureOf(credentials(), async function () {
			const transport = new SentiOneTransport(this, { ...BOUNDS, deadlineMs: 5000 });
			return await paginate(
				transport,
				{
					method: 'POST',
					path: PATHS.historicalSearch(1001),
					group: 'search',
					tier: 'Enterprise',
					read: true,
					body: {},
				},
				{ returnAll: true },
			);
		});
		const ms = realNow() - started;
		expect(error.message).toMatch(
			/the answer did not arrive whole within 0\.7 s, the stall limit .*; 2 items had arrived on 1 earlier page$/,
		);
		expect(server.requests.map((r) => r.query.cursor ?? null)).toEqual([null, 'next-1']);
		expect(ms).toBeLessThan(700 + 2500);
		hold('JSON answer, transport (stall limit 0.7 s)', ms);
		rows.push({
			fault: 'the second page of a Return All search drips',
			through: 'pager',
			cases: 1,
			outcome:
				'stall limit on page 2, an error naming the 2 items before it (nothing partial), 2 requests',
		});
	});
});

describe('a JSON answer that goes silent: ended by its stall limit, retried for reads only', () => {
	// a stall limit of 1.5 s: bytes a loaded machine delivers later than half the limit read as
	// bytes still trickling in (not retried), which is not this case
	const idle: TransportOptions = {
		deadlineMs: 10_000,
		idleTimeoutMs: 1500,
		retry: { transientRetries: 2, transientBackoffMs: 10 },
	};
	test.each([
		{ name: 'headers, then silence (read)', behaviour: silence(), request: getProjects, sent: 3 },
		{
			name: 'a few bytes, then silence (read)',
			behaviour: drip({ everyMs: 60_000, prefix: '{"data":[{"id"' }),
			request: getProjects,
			sent: 3,
		},
		{
			name: 'one byte every 2 s, slower than the guard (read)',
			behaviour: drip({ everyMs: 2000, prefix: '{' }),
			request: getProjects,
			sent: 3,
		},
		{
			name: 'headers, then silence (write: never repeated)',
			behaviour: silence(),
			request: createProject,
			sent: 1,
		},
		{
			name: 'one byte every 2 s (write: never repeated)',
			behaviour: drip({ everyMs: 2000, prefix: '{' }),
			request: createProject,
			sent: 1,
		},
	])('$name', async ({ name, behaviour, request, sent }) => {
		server.any(behaviour);
		const error = await requestFailure(request, idle);
		expect(error.message).toMatch(
			/^SentiOne's answer could not be used: the server (sent nothing of the answer for 1\.5 s, the stall limit|stopped sending the answer: it was not whole within 1\.5 s, the stall limit \(\d+ bytes? had arrived, then nothing for [\d.]+ s\))$/,
		);
		expect(error.sent).toBe(sent);
		expect(server.requests).toHaveLength(sent);
		expect(error.ms).toBeGreaterThanOrEqual(sent * 1450);
		expect(error.ms).toBeLessThan(sent * (1500 + 400) + 2500);
		hold('JSON answer, transport (stall limit 1.5 s, per attempt)', error.ms / sent);
		rows.push({
			fault: `JSON answer silent: ${name}`,
			through: 'transport',
			cases: 1,
			outcome: `stall limit, ${sent} request${sent === 1 ? '' : 's'} in ${(error.ms / 1000).toFixed(1)} s`,
		});
	});

	test.each([
		{ name: 'a read', request: getProjects, sent: 2 },
		{ name: 'a write', request: createProject, sent: 1 },
	])('no headers at all ($name): ended by the answer timeout', async ({ request, sent }) => {
		server.any(hang());
		const error = await requestFailure(request, {
			timeoutMs: 500,
			retry: { transientRetries: 1, transientBackoffMs: 10 },
		});
		expect(error.message).toBe(
			`Could not reach SentiOne: the server did not answer in time${sent > 1 ? ` (after ${sent} attempts)` : ''}.`,
		);
		expect(server.requests).toHaveLength(sent);
		expect(error.ms).toBeLessThan(sent * 500 + 1500);
		rows.push({
			fault: `no headers at all (${String(request.method)}, ${request.read ? 'read' : 'write'})`,
			through: 'transport',
			cases: 1,
			outcome: `answer timeout, ${sent} request${sent === 1 ? '' : 's'}`,
		});
	});
});

// --- streams -----------------------------------------------------------------------------------

interface StreamOutcome {
	error?: CaughtError;
	ms: number;
	items: Record<string, number>;
	heapDelta: number;
}

async function readStream(
	format: StreamFormat,
	options: { idleTimeoutMs: number; deadlineMs?: number; maxEventBytes?: number },
): Promise<StreamOutcome> {
	const items: Record<string, number> = {};
	let heapPeak = 0;
	const heapBefore = process.memoryUsage().heapUsed;
	const sampler = setInterval(
		() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore)),
		25,
	);
	const started = realNow();
	let error: CaughtError | undefined;
	try {
		const outcome = await inNode(credentials(), async function () {
			const transport = new SentiOneTransport(this);
			const open = await transport.openStream({
				endpoint: 'historicalExport',
				path: PATHS.historicalExport(1001),
				group: 'export',
				tier: 'Enterprise',
				body: {},
				format,
				...options,
			});
			try {
				for await (const item of open.items) items[item.type] = (items[item.type] ?? 0) + 1;
			} finally {
				open.close();
			}
			return items;
		});
		// undefined: the stream ended without an error
		error = outcome.ok ? undefined : outcome.error;
	} finally {
		clearInterval(sampler);
	}
	return { error, ms: realNow() - started, items, heapDelta: heapPeak };
}

const endlessLine = (prefix: string, chunk: number) => (i: number) =>
	i === 0 ? prefix : 'x'.repeat(chunk);
const dripped = (text: string) => (i: number) => text[i % text.length];

interface StreamCase {
	name: string;
	format: StreamFormat;
	behaviour: Behaviour;
	maxEventBytes?: number;
}

/** No complete event ever arrives: judged stalled at the stall limit (0.5 s). */
const stalls: StreamCase[] = [
	{
		name: 'headers, then silence',
		format: 'sse',
		behaviour: silence(200, { 'content-type': SSE }),
	},
	{
		name: 'SSE comments only, every 50 ms',
		format: 'sse',
		behaviour: stream({ frame: () => sse.comment(), everyMs: 50 }),
	},
	{
		name: 'SSE `retry:` and `id:` lines only (no data), every 50 ms',
		format: 'sse',
		behaviour: stream({ frame: (i) => (i % 2 ? 'retry: 1000\n\n' : `id: ${i}\n\n`), everyMs: 50 }),
	},
	{
		name: 'an SSE data line that never ends (12 MB/s)',
		format: 'sse',
		behaviour: stream({
			frame: endlessLine('event: mention\ndata: {"id":"', 64 * 1024),
			everyMs: 5,
		}),
		maxEventBytes: 1024 * 1024,
	},
	{
		name: 'a JSON line that never ends (12 MB/s)',
		format: 'jsonLines',
		behaviour: stream({
			frame: endlessLine('{"event":"mention","data":{"id":"', 64 * 1024),
			everyMs: 5,
			contentType: NDJSON,
		}),
		maxEventBytes: 1024 * 1024,
	},
	{
		name: 'a JSON line that never ends, one byte every 20 ms',
		format: 'jsonLines',
		behaviour: stream({
			frame: endlessLine('{"event":"heartbeat","data":', 1),
			everyMs: 20,
			contentType: NDJSON,
		}),
	},
	{
		name: 'a mention event dripped one byte every 10 ms (SSE)',
		format: 'sse',
		behaviour: stream({ frame: dripped(sse.mention(mention('slow-1'))), everyMs: 10 }),
	},
	{
		name: 'a mention line dripped one byte every 10 ms (JSON lines)',
		format: 'jsonLines',
		behaviour: stream({
			frame: dripped(ndjson.mention(mention('slow-2'))),
			everyMs: 10,
			contentType: NDJSON,
		}),
	},
	{
		name: 'unreadable JSON lines only, every 50 ms',
		format: 'jsonLines',
		behaviour: stream({ frame: (i) => `not json ${i}\n`, everyMs: 50, contentType: NDJSON }),
	},
];

describe('a stream without a complete event: judged stalled at its stall limit', () => {
	test.each(stalls)('$name', async ({ name, format, behaviour, maxEventBytes }) => {
		server.any(behaviour);
		const outcome = await readStream(format, {
			idleTimeoutMs: 500,
			deadlineMs: 30_000,
			maxEventBytes,
		});
		expect(outcome.error?.message).toBe(
			'The SentiOne stream went silent: no complete event (a mention or a heartbeat) for 0.5 s, the stall limit (bytes alone do not count); 0 mentions had arrived',
		);
		expect(outcome.error?.details?.streamInterrupted).toBe('stalled');
		expect(outcome.items.mention ?? 0).toBe(0);
		expect(outcome.ms).toBeGreaterThanOrEqual(480);
		expect(outcome.ms).toBeLessThan(500 + 1500);
		if (maxEventBytes) expect(outcome.heapDelta).toBeLessThan(64 * 1024 * 1024);
		hold('stream without a complete event, transport (stall limit 0.5 s)', outcome.ms);
		if (maxEventBytes)
			figures[`heapPeakDeltaMb: ${name}`] = Math.round(outcome.heapDelta / 1e5) / 10;
		if (maxEventBytes) figures[`bytesSentMb: ${name}`] = Math.round(server.bytesSent / 1e5) / 10;
		rows.push({
			fault: `stream: ${name}`,
			through: 'transport (openStream)',
			cases: 1,
			outcome: `stalled after ${(outcome.ms / 1000).toFixed(1)} s, connection closed`,
		});
	});
});

/** Complete events keep coming forever: the stream lives until its deadline (1 s). */
const endless: StreamCase[] = [
	{
		name: 'heartbeats only, every 100 ms (SSE)',
		format: 'sse',
		behaviour: stream({ frame: () => sse.heartbeat(), everyMs: 100 }),
	},
	{
		name: 'heartbeats only, every 100 ms (JSON lines)',
		format: 'jsonLines',
		behaviour: stream({ frame: () => ndjson.heartbeat(), everyMs: 100, contentType: NDJSON }),
	},
	{
		name: 'legacy heartbeats (a bare timestamp), every 100 ms',
		format: 'sse',
		behaviour: stream({
			frame: () => `event: heartbeat\ndata: ${new Date().toISOString()}\n\n`,
			everyMs: 100,
		}),
	},
	{
		name: 'mentions forever, one every 20 ms',
		format: 'sse',
		behaviour: stream({ frame: (i) => sse.mention(mention(`endless-${i}`)), everyMs: 20 }),
	},
];

describe('a stream that never ends: ended by its deadline', () => {
	test.each(endless)('$name', async ({ name, format, behaviour }) => {
		server.any(behaviour);
		const outcome = await readStream(format, { idleTimeoutMs: 500, deadlineMs: 1000 });
		expect(outcome.error?.message).toBe(
			'The SentiOne stream took too long: the stream was still open after 1 s, the longest allowed',
		);
		expect(outcome.error?.details?.streamInterrupted).toBe('deadline');
		expect(outcome.ms).toBeGreaterThanOrEqual(950);
		expect(outcome.ms).toBeLessThan(1000 + 1500);
		hold('endless stream, transport (deadline 1 s)', outcome.ms);
		rows.push({
			fault: `stream: ${name}`,
			through: 'transport (openStream)',
			cases: 1,
			outcome: `deadline after ${(outcome.ms / 1000).toFixed(1)} s (${Object.entries(outcome.items)
				.map(([k, v]) => `${v} ${k}`)
				.join(', ')})`,
		});
	});

	test('no headers at all on a stream: ended by the answer timeout', async () => {
		server.any(hang());
		const started = realNow();
		const error = await failureOf(credentials(), async function () {
			const transport = new SentiOneTransport(this, { timeoutMs: 500 });
			return await transport.openStream({
				path: PATHS.historicalExport(1001),
				group: 'export',
				tier: 'Enterprise',
				body: {},
				format: 'sse',
			});
		});
		expect(error.message).toBe('Could not reach SentiOne: the server did not answer in time.');
		expect(realNow() - started).toBeLessThan(500 + 1500);
		rows.push({
			fault: 'stream: no headers at all',
			through: 'transport (openStream)',
			cases: 1,
			outcome: 'answer timeout, 1 request',
		});
	});
});

// --- the stream trigger --------------------------------------------------------------------------

describe('the stream trigger with Stall Timeout 0.3 s', () => {
	const LIVE = /\/mentions\/recent\/search\/stream\/live$/;
	let restore: () => void;
	const waits: number[] = [];
	const opened: ActiveStreamTrigger[] = [];

	beforeAll(() => {
		// reconnect waits on the node's clock resolve at once (recorded): connections are then
		// spaced only by how long each one takes to be judged dead
		restore = setClock({
			sleep: async (ms: number, signal?: AbortSignal) => {
				waits.push(ms);
				if (signal?.aborted) throw new Error('aborted');
				await sleep(1);
			},
		});
	});

	afterAll(() => restore?.());

	afterEach(async () => {
		for (const trigger of opened.splice(0)) await trigger.close();
		waits.length = 0;
	});

	async function activate(format: StreamFormat): Promise<ActiveStreamTrigger> {
		const trigger = await activateStreamTrigger(
			streamParameters(
				{ project: projectParam(1001) } as INodeParameters,
				{ stallTimeout: 0.3, fillGaps: false, streamFormat: format } as IDataObject,
			),
			credentials(),
		);
		opened.push(trigger);
		return trigger;
	}

	const OBSERVE_MS = 1500;

	test.each(stalls)('$name → judged stalled, reconnected', async ({ name, format, behaviour }) => {
		server.route('POST', LIVE, behaviour);
		const trigger = await activate(format);
		await waitFor(() => server.on(LIVE).length >= 3, {
			what: 'three connections',
			timeoutMs: OBSERVE_MS + 2000,
		});
		const connections = server.on(LIVE);
		await trigger.close();
		expect(trigger.errors).toEqual([]);
		expect(trigger.items()).toEqual([]);
		const gaps = connections.slice(1).map((c, k) => c.realAt - connections[k].realAt);
		// each connection was held about the stall timeout, never much more
		for (const gap of gaps) {
			expect(gap).toBeGreaterThanOrEqual(280);
			expect(gap).toBeLessThan(300 + 1000);
		}
		hold('stream trigger connection without a complete event (stall 0.3 s)', Math.max(...gaps));
		rows.push({
			fault: `live stream: ${name}`,
			through: 'SentiOne Stream Trigger',
			cases: 1,
			items: 0,
			lost: 0,
			duplicated: 0,
			outcome: `stalled and reconnected (${connections.length} connections, each held ≤ ${(Math.max(...gaps) / 1000).toFixed(2)} s)`,
		});
	});

	test.each([
		{
			name: 'heartbeats every 100 ms (SSE)',
			format: 'sse' as StreamFormat,
			behaviour: stream({ frame: () => sse.heartbeat(), everyMs: 100 }),
		},
		{
			name: 'heartbeats every 100 ms (JSON lines)',
			format: 'jsonLines' as StreamFormat,
			behaviour: stream({ frame: () => ndjson.heartbeat(), everyMs: 100, contentType: NDJSON }),
		},
		{
			name: 'legacy heartbeats every 100 ms',
			format: 'sse' as StreamFormat,
			behaviour: stream({
				frame: () => `event: heartbeat\ndata: ${new Date().toISOString()}\n\n`,
				everyMs: 100,
			}),
		},
		{
			name: 'a mention every 100 ms',
			format: 'sse' as StreamFormat,
			behaviour: stream({ frame: (i) => sse.mention(mention(`alive-${i}`)), everyMs: 100 }),
		},
	])('$name → kept alive: one connection', async ({ name, format, behaviour }) => {
		server.route('POST', LIVE, behaviour);
		const trigger = await activate(format);
		await sleep(OBSERVE_MS);
		const connections = server.on(LIVE).length;
		const items = trigger.items().length;
		await trigger.close();
		expect(trigger.errors).toEqual([]);
		expect(connections).toBe(1);
		if (/mention/.test(name)) expect(items).toBeGreaterThanOrEqual(10);
		rows.push({
			fault: `live stream: ${name}`,
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome: `alive for ${OBSERVE_MS / 1000} s on 1 connection${items > 0 ? ` (${items} mentions passed on)` : ''}`,
		});
	});

	test('the reconnect waits asked for after stalls follow the backoff (never 0, never past 60 s)', async () => {
		server.route('POST', LIVE, stream({ frame: () => sse.comment(), everyMs: 50 }));
		await activate('sse');
		await waitFor(() => server.on(LIVE).length >= 5, { what: 'five connections', timeoutMs: 6000 });
		expect(waits.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
		figures.streamTriggerBackoffAfterStallsMs = waits.slice(0, 6);
	});
});
