/**
 * Bytes are not progress (issue 21, class 2), in n8n's real execution contexts against a hostile
 * server of the test's own, with a stall limit of 1 s so every case ends in seconds (the nodes'
 * real limits — 120 s for an export, 60 s for a JSON answer — are measured through the nodes by
 * test/soak/deadlinesUnbounded.test.ts):
 * - export streams, SSE and JSON lines (the transport's openStream, as the export and a trigger's
 *   catch-up open them): bytes of an event that never completes, a line that never ends, comments
 *   or blank lines only, events of an unknown kind only, two mentions and then only bytes;
 * - the Stream Trigger's live stream and engagement stream (Options → Stall Timeout 1 s): the
 *   same servers; the connection is judged stalled at the limit and replaced;
 * - JSON answers (a search through the pager, the project list): one event, whole within the limit.
 * Each ends within the limit (plus one watchdog step) with an error naming the limit and what had
 * arrived; the seconds to that error are the figures.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { paginate } from '../../../nodes/SentiOne/shared/pager';
import type { StreamFormat } from '../../../nodes/SentiOne/shared/stream';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import { failureOf, inNode } from '../../support/inNode';
import { ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import type { Behaviour } from '../../support/servers/hostileServer';
import {
	drip,
	HostileServer,
	useHostileServer,
	mention,
	ndjson,
	NDJSON,
	pages,
	sse,
	stream,
} from '../../support/servers/hostileServer';
import type { ActiveStreamTrigger } from '../../support/triggers';
import { activateStreamTrigger, projectParam, streamParameters } from '../../support/triggers';
import { realNow } from '../../support/time';
import { sleep, waitFor } from '../../support/wait';

jest.setTimeout(60_000);

const LIMIT_MS = 1000;
/**
 * the limit, plus one watchdog step (a quarter of the limit) and room for a loaded machine (seconds
 * at a load of 15): far below the 30-s deadline the streams here are given, which a stream whose
 * bytes counted as progress would reach
 */
const WITHIN_MS = LIMIT_MS + 250 + 4750;

let server: HostileServer;
const rows: ResultRow[] = [];
/** the longest time to the stall error seen, per kind of stream or answer (seconds) */
const secondsToStallError: Record<string, number> = {};

useHostileServer((started) => (server = started), {
	closed: () =>
		writePart({
			part: 'stalls',
			title: 'Bytes are not progress: stalls',
			command: 'npx jest test/engine/reliability/stalls.test.ts',
			rows,
			figures: { stallLimitSeconds: LIMIT_MS / 1000, secondsToStallError },
		}),
});

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: server.base });

function note(kind: string, name: string, through: string, ms: number, outcome: string): void {
	secondsToStallError[kind] = Math.max(secondsToStallError[kind] ?? 0, Math.round(ms / 10) / 100);
	rows.push({
		fault: `${kind}: ${name}`,
		through,
		cases: 1,
		outcome: `${outcome} after ${(ms / 1000).toFixed(2)} s`,
	});
}

const endless = (head: string, piece: string) => (i: number) => (i === 0 ? head : piece);
const dripped = (text: string) => (i: number) => text[i % text.length];

interface StreamCase {
	name: string;
	format: StreamFormat;
	behaviour: Behaviour;
	/** mentions the server sends before it stops sending events */
	mentions: number;
}

const STREAM_CASES: StreamCase[] = [
	{
		name: 'a mention event dripped a byte every 10 ms',
		format: 'sse',
		behaviour: stream({ frame: dripped(sse.mention(mention('slow'))), everyMs: 10 }),
		mentions: 0,
	},
	{
		name: 'a mention line dripped a byte every 10 ms',
		format: 'jsonLines',
		behaviour: stream({
			frame: dripped(ndjson.mention(mention('slow'))),
			everyMs: 10,
			contentType: NDJSON,
		}),
		mentions: 0,
	},
	{
		name: 'a data line that never ends',
		format: 'sse',
		behaviour: stream({
			frame: endless('event: mention\ndata: {"id":"', 'x'.repeat(8192)),
			everyMs: 5,
		}),
		mentions: 0,
	},
	{
		name: 'a JSON line that never ends',
		format: 'jsonLines',
		behaviour: stream({
			frame: endless('{"event":"mention","data":{"id":"', 'x'.repeat(8192)),
			everyMs: 5,
			contentType: NDJSON,
		}),
		mentions: 0,
	},
	{
		name: 'comments only, every 50 ms',
		format: 'sse',
		behaviour: stream({ frame: () => sse.comment(), everyMs: 50 }),
		mentions: 0,
	},
	{
		name: 'blank lines only, every 50 ms',
		format: 'jsonLines',
		behaviour: stream({ frame: () => '\n', everyMs: 50, contentType: NDJSON }),
		mentions: 0,
	},
	{
		name: 'events of an unknown kind only, every 50 ms',
		format: 'sse',
		behaviour: stream({ frame: (i) => `event: progress\ndata: {"n":${i}}\n\n`, everyMs: 50 }),
		mentions: 0,
	},
	{
		name: 'two mentions, then bytes that never make an event',
		format: 'jsonLines',
		behaviour: stream({
			frame: (i) => (i < 2 ? ndjson.mention(mention(`first-${i}`)) : ' '),
			everyMs: 20,
			contentType: NDJSON,
		}),
		mentions: 2,
	},
];

describe('export streams (the transport, stall limit 1 s)', () => {
	test.each(STREAM_CASES)('$name ($format)', async ({ name, format, behaviour, mentions }) => {
		server.any(behaviour);
		const started = realNow();
		const outcome = await inNode(credentials(), async function () {
			const open = await new SentiOneTransport(this).openStream({
				endpoint: 'historicalExport',
				path: PATHS.historicalExport(1001),
				group: 'export',
				tier: 'Enterprise',
				body: {},
				format,
				idleTimeoutMs: LIMIT_MS,
				deadlineMs: 30_000,
			});
			let seen = 0;
			try {
				for await (const item of open.items) if (item.type === 'mention') seen++;
			} finally {
				open.close();
			}
			return seen;
		});
		const ms = realNow() - started;
		expect(outcome.ok).toBe(false);
		const message = outcome.ok ? '' : outcome.error.message;
		expect(message).toBe(
			`The SentiOne stream went silent: no complete event (a mention or a heartbeat) for 1 s, the stall limit (bytes alone do not count); ${mentions} mention${mentions === 1 ? '' : 's'} had arrived`,
		);
		expect(ms).toBeGreaterThanOrEqual(LIMIT_MS - 50);
		expect(ms).toBeLessThan(WITHIN_MS + 500);
		expect(server.requests).toHaveLength(1);
		note(
			`export stream (${format === 'sse' ? 'SSE' : 'JSON lines'})`,
			name,
			'transport (openStream)',
			ms,
			`stalled, ${mentions} mention${mentions === 1 ? '' : 's'} named`,
		);
	});
});

describe('the Stream Trigger (Options → Stall Timeout 1 s): judged stalled, replaced', () => {
	const LIVE = /\/mentions\/recent\/search\/stream\/live$/;
	const ENGAGEMENT = /\/mentions\/engagement\/updates\/stream\/live$/;
	let restore: () => void;
	const opened: ActiveStreamTrigger[] = [];

	beforeAll(() => {
		// reconnect waits pass at once: a connection is held only as long as it takes to be judged dead
		restore = setClock({
			sleep: async (_ms: number, signal?: AbortSignal) => {
				if (signal?.aborted) throw new Error('aborted');
				await sleep(1);
			},
		});
	});

	afterAll(() => restore?.());

	afterEach(async () => {
		for (const trigger of opened.splice(0)) await trigger.close();
	});

	const update = (i: number) =>
		`event: engagementUpdate\nid: m${i}:t\ndata: ${JSON.stringify({ mentionId: `m${i}`, engagementMetrics: {}, updatedAt: '2026-11-21T10:30:00Z' })}\n\n`;

	test.each([
		{
			kind: 'live stream',
			name: 'a mention event dripped a byte every 10 ms',
			route: LIVE,
			behaviour: stream({ frame: dripped(sse.mention(mention('slow'))), everyMs: 10 }),
			event: 'newMention',
			items: 0,
		},
		{
			kind: 'live stream',
			name: 'two mentions, then comments only',
			route: LIVE,
			behaviour: stream({
				frame: (i) => (i < 2 ? sse.mention(mention(`live-${i}`)) : sse.comment()),
				everyMs: 50,
			}),
			event: 'newMention',
			items: 2,
		},
		{
			kind: 'engagement stream',
			name: 'three updates, then events of an unknown kind only',
			route: ENGAGEMENT,
			behaviour: stream({
				frame: (i) => (i < 3 ? update(i) : `event: progress\ndata: {"n":${i}}\n\n`),
				everyMs: 50,
			}),
			event: 'engagementUpdate',
			items: 3,
		},
	])('$kind: $name', async ({ kind, name, route, behaviour, event, items }) => {
		server.route('POST', route, behaviour);
		const trigger = await activateStreamTrigger(
			streamParameters(
				(event === 'newMention'
					? { project: projectParam(1001) }
					: { event: 'engagementUpdate' }) as INodeParameters,
				{ stallTimeout: LIMIT_MS / 1000, fillGaps: false } as IDataObject,
			),
			credentials(),
		);
		opened.push(trigger);
		await waitFor(() => server.on(route).length >= 2, {
			what: 'the connection replaced',
			timeoutMs: 10_000,
		});
		const [first, second] = server.on(route);
		await trigger.close();
		const held = second.realAt - first.realAt;
		expect(trigger.errors).toEqual([]);
		expect(trigger.items().length).toBeGreaterThanOrEqual(items);
		expect(held).toBeGreaterThanOrEqual(LIMIT_MS - 50);
		expect(held).toBeLessThan(WITHIN_MS + 50 * items + 500);
		note(kind, name, 'SentiOne Stream Trigger', held, 'judged stalled and replaced');
	});
});

describe('JSON answers (stall limit 1 s): one event, whole within the limit', () => {
	const search = {
		method: 'POST' as const,
		path: PATHS.recentSearch(1001),
		group: 'search' as const,
		tier: 'Basic' as const,
		read: true,
		body: {},
	};
	const projects = {
		method: 'GET' as const,
		path: PATHS.listProjects(),
		group: 'projects' as const,
		tier: 'Basic' as const,
		read: true,
	};

	test.each([
		{
			kind: 'JSON answer (search)',
			name: 'a page trickling a byte every 20 ms',
			behaviour: drip({ everyMs: 20, prefix: '{"data":[' }),
			request: search,
			arrived: '0 items had arrived',
		},
		{
			kind: 'JSON answer (search)',
			name: 'the second page trickling (Return All)',
			behaviour: [
				pages(() => ({ data: [mention('p1-a'), mention('p1-b')], cursor: 'next' })),
				drip({ everyMs: 20, prefix: '{"data":[' }),
			],
			request: search,
			arrived: '2 items had arrived on 1 earlier page',
		},
		{
			kind: 'JSON answer (project list)',
			name: 'the list trickling a byte every 20 ms',
			behaviour: drip({ everyMs: 20, prefix: '{"data":[{"id":1,"name":"' }),
			request: projects,
			arrived: '0 items had arrived',
		},
	])('$kind: $name', async ({ kind, name, behaviour, request, arrived }) => {
		server.any(behaviour);
		const started = realNow();
		const error = await failureOf(credentials(), async function () {
			return await paginate(new SentiOneTransport(this, { idleTimeoutMs: LIMIT_MS }), request, {
				returnAll: true,
			});
		});
		const ms = realNow() - started;
		expect(error.message).toMatch(
			new RegExp(
				`^SentiOne's answer could not be used: the answer did not arrive whole within 1 s, the stall limit \\(\\d+ (bytes|kB) had arrived; bytes trickling in do not extend the limit\\); ${arrived}$`,
			),
		);
		const sent = server.requests.length;
		expect(sent).toBe(arrived.startsWith('0') ? 1 : 2);
		note(
			kind,
			name,
			'transport and pager',
			ms,
			`refused, not retried (${sent} request${sent === 1 ? '' : 's'})`,
		);
	});
});
