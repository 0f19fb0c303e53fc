/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * SentiOneTransport.openStream end to end against the simulator: exports in both framings yield
 * exactly the ground truth, heartbeats (both forms) are recognised, a dropped or silent connection
 * ends in an error that says which, malformed events are counted and skipped, and closing a stream
 * gives its concurrency slot back.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import type { StreamItem } from '../../../nodes/SentiOne/shared/stream';
import type { OpenStream, StreamRequest } from '../../../nodes/SentiOne/shared/transport';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	admin,
	startSim,
	type Loose,
	type Sim,
	requestLog,
	resetSim,
} from '../../support/simulator';
import {
	describeError,
	expectNoKeysIn,
	inNode,
	valueOf,
	type CaughtError,
} from '../../support/inNode';
import { NOW } from '../../support/time';
import { waitFor } from '../../support/wait';
import { credentials } from '../../support/engine';
import { ENTERPRISE, BASIC } from '../../support/keys';

let sim: Sim;
const PROJECT = 1001;
const MENTIONS = 300;

beforeAll(async () => {
	// frozen clock at NOW; default heartbeat interval (15 s) unless a test sets the heartbeatMs fault
	sim = await startSim(['--projects', '2', '--mentions', String(MENTIONS)]);
});

afterAll(async () => {
	await sim?.stop();
});

beforeEach(async () => {
	await resetSim(sim);
	await admin(sim, 'POST', '/limits', { hourly: { export: 1000, live: 1000 } });
});

const historicalExport = (
	body: IDataObject,
	qs?: IDataObject,
	format: StreamRequest['format'] = 'sse',
): StreamRequest => ({
	path: PATHS.historicalExport(PROJECT),
	group: 'export',
	tier: 'Enterprise',
	body,
	qs,
	format,
});
const live = (format: StreamRequest['format'] = 'sse'): StreamRequest => ({
	path: PATHS.liveStream(PROJECT),
	group: 'live',
	tier: 'Basic',
	body: {},
	format,
});

interface Summary {
	format: string;
	statusCode: number;
	mentions: string[];
	heartbeats: Array<{ date: string; legacy: boolean }>;
	/** how many mentions had arrived when each heartbeat came */
	heartbeatAfter: number[];
	malformed: Array<{ event: string; id?: string; reason: string }>;
	other: number;
	stats: IDataObject;
	error?: CaughtError;
}

/** Reads a stream to its end (or `until` says stop, then closes it) and summarises what came. */
async function consume(stream: OpenStream, until?: (s: Summary) => boolean): Promise<Summary> {
	const s: Summary = {
		format: stream.format,
		statusCode: stream.statusCode,
		mentions: [],
		heartbeats: [],
		heartbeatAfter: [],
		malformed: [],
		other: 0,
		stats: {},
	};
	const add = (item: StreamItem) => {
		if (item.type === 'mention') s.mentions.push(item.id);
		else if (item.type === 'heartbeat') {
			s.heartbeats.push({ date: item.date, legacy: item.legacy });
			s.heartbeatAfter.push(s.mentions.length);
		} else if (item.type === 'malformed')
			s.malformed.push({ event: item.event, id: item.id, reason: item.reason });
		else s.other++;
	};
	try {
		for await (const item of stream.items) {
			add(item);
			if (until?.(s)) {
				stream.close();
				break;
			}
		}
	} catch (error) {
		s.error = describeError(error);
	}
	s.stats = { ...stream.stats } as unknown as IDataObject;
	return s;
}

function exportRun(
	request: StreamRequest,
	options: { idleTimeoutMs?: number } = {},
	until?: (s: Summary) => boolean,
) {
	return inNode(credentials(sim, ENTERPRISE), async function () {
		const transport = new SentiOneTransport(this, options);
		const stream = await transport.openStream(request);
		return await consume(stream, until);
	});
}

/** Ground truth ids of the project in a sort order, from the simulator's admin summary. */
async function truth(sort: 'CollectedAtAscending' | 'PublishedAtAscending'): Promise<string[]> {
	const { mentions } = await admin<{
		mentions: Array<{ id: string; publishedAt: string; collectedAt: string }>;
	}>(sim, 'GET', `/mentions?projectId=${PROJECT}`);
	expect(mentions).toHaveLength(MENTIONS);
	const key = sort === 'CollectedAtAscending' ? 'collectedAt' : 'publishedAt';
	return [...mentions]
		.sort(
			(a, b) => Date.parse(a[key]) - Date.parse(b[key]) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
		)
		.map((m) => m.id);
}

const openStreams = async (group: 'export' | 'live') =>
	((await admin<Loose>(sim, 'GET', '/stats')).openStreams as Record<string, number>)[group];

describe('historical export', () => {
	test('SSE, limit 60: exactly the first 60 mentions of the sort, in order, then a normal end', async () => {
		const expected = (await truth('CollectedAtAscending')).slice(0, 60);
		const s = valueOf(
			await exportRun(historicalExport({ sortType: 'CollectedAtAscending' }, { limit: 60 })),
		);
		expect(s.error).toBeUndefined();
		expect(s.format).toBe('sse');
		expect(s.statusCode).toBe(200);
		expect(s.mentions).toEqual(expected);
		expect(s.malformed).toEqual([]);
		const log = await requestLog(sim);
		expect(log.map((e) => [e.method, e.status, e.accept, e.query])).toEqual([
			['POST', 200, 'text/event-stream', { limit: '60' }],
		]);
		expect(log[0].body).toEqual({ sortType: 'CollectedAtAscending' });
	});

	test('JSON lines, limit 40, another sort: exactly the ground truth', async () => {
		const expected = (await truth('PublishedAtAscending')).slice(0, 40);
		const s = valueOf(
			await exportRun(
				historicalExport({ sortType: 'PublishedAtAscending' }, { limit: 40 }, 'jsonLines'),
			),
		);
		expect(s.error).toBeUndefined();
		expect(s.format).toBe('jsonLines');
		expect(s.mentions).toEqual(expected);
		expect((await requestLog(sim))[0].accept).toBe('application/x-ndjson');
	});

	test('SSE without a limit: every mention of the project, then a normal end', async () => {
		const expected = await truth('CollectedAtAscending');
		const s = valueOf(await exportRun(historicalExport({ sortType: 'CollectedAtAscending' })));
		expect(s.error).toBeUndefined();
		expect(s.mentions).toEqual(expected);
		await waitFor(async () => (await openStreams('export')) === 0, 2000);
	});
});

describe('heartbeats', () => {
	test.each(['sse', 'jsonLines'] as const)(
		'object form (%s) recognised on a live stream',
		async (format) => {
			await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 40 } });
			const s = valueOf(
				await inNode(credentials(sim, BASIC), async function () {
					const stream = await new SentiOneTransport(this).openStream(live(format));
					return await consume(stream, (x) => x.heartbeats.length >= 3);
				}),
			);
			expect(s.error).toBeUndefined();
			expect(s.heartbeats.slice(0, 3)).toEqual(Array(3).fill({ date: NOW, legacy: false }));
			expect(s.malformed).toEqual([]);
			await waitFor(async () => (await openStreams('live')) === 0, 2000);
		},
	);

	test.each(['sse', 'jsonLines'] as const)(
		'legacy bare-string form (%s) recognised too',
		async (format) => {
			await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 40, legacyHeartbeat: true } });
			const s = valueOf(
				await inNode(credentials(sim, BASIC), async function () {
					const stream = await new SentiOneTransport(this).openStream(live(format));
					return await consume(stream, (x) => x.heartbeats.length >= 2);
				}),
			);
			expect(s.heartbeats.slice(0, 2)).toEqual(Array(2).fill({ date: NOW, legacy: true }));
			expect(s.malformed).toEqual([]);
		},
	);

	test('heartbeats between the mentions of a slow export do not disturb them', async () => {
		// written in 2 kB chunks, 1 ms apart: heartbeats (every 5 ms) fall between the 64 kB batches
		await admin(sim, 'POST', '/faults', { stream: { heartbeatMs: 5, chunkBytes: 2048 } });
		const expected = (await truth('CollectedAtAscending')).slice(0, 100);
		const s = valueOf(
			await exportRun(historicalExport({ sortType: 'CollectedAtAscending' }, { limit: 100 })),
		);
		expect(s.error).toBeUndefined();
		expect(s.mentions).toEqual(expected);
		expect(s.heartbeatAfter.some((n) => n > 0 && n < 100)).toBe(true);
		expect(s.heartbeats.every((h) => h.date === NOW && !h.legacy)).toBe(true);
		expect(s.malformed).toEqual([]);
	});
});

describe('broken streams', () => {
	test('dropAfterBytes: the items before the break, then an error marked "dropped"', async () => {
		await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 40_000 } });
		const all = await truth('CollectedAtAscending');
		const s = valueOf(await exportRun(historicalExport({ sortType: 'CollectedAtAscending' })));
		expect(s.error).toBeDefined();
		expect(s.error!.constructorName).toBe('NodeOperationError');
		expect(s.error!.details).toEqual({ streamInterrupted: 'dropped' });
		expect(s.error!.message).toMatch(/^The SentiOne stream broke off before its end: /);
		expect(s.error!.description).toMatch(/Mentions received before the break were kept/);
		expect(s.mentions.length).toBeGreaterThan(5);
		expect(s.mentions.length).toBeLessThan(MENTIONS);
		expect(s.mentions).toEqual(all.slice(0, s.mentions.length));
		// the event cut in half is not invented
		expect(s.malformed.length).toBeLessThanOrEqual(1);
	});

	test('stallAfterEvents with a small idleTimeoutMs: the items before the silence, then an error marked "stalled"', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 5 } });
		const all = await truth('CollectedAtAscending');
		const outcome = await exportRun(historicalExport({ sortType: 'CollectedAtAscending' }), {
			idleTimeoutMs: 800,
		});
		const s = valueOf(outcome);
		expect(s.mentions).toEqual(all.slice(0, 5));
		expect(s.error!.details).toEqual({ streamInterrupted: 'stalled' });
		expect(s.error!.message).toBe(
			'The SentiOne stream went silent: no complete event (a mention or a heartbeat) for 0.8 s, the stall limit (bytes alone do not count); 5 mentions had arrived',
		);
		expect(outcome.ms).toBeGreaterThanOrEqual(700);
		expect(outcome.ms).toBeLessThan(5000);
	});

	test('the per-stream idleTimeoutMs overrides the transport’s', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 2 } });
		const outcome = await inNode(credentials(sim, ENTERPRISE), async function () {
			const stream = await new SentiOneTransport(this, { idleTimeoutMs: 60_000 }).openStream({
				...historicalExport({}),
				idleTimeoutMs: 600,
			});
			return await consume(stream);
		});
		expect(valueOf(outcome).error?.details).toEqual({ streamInterrupted: 'stalled' });
		expect(outcome.ms).toBeLessThan(5000);
	});

	test('malformed events come out as `malformed` items (one per bad event) and the stream goes on to its end', async () => {
		await admin(sim, 'POST', '/faults', { stream: { malformedEvery: 10 } });
		const first50 = (await truth('CollectedAtAscending')).slice(0, 50);
		const s = valueOf(
			await exportRun(historicalExport({ sortType: 'CollectedAtAscending' }, { limit: 50 })),
		);
		expect(s.error).toBeUndefined();
		expect(s.malformed).toHaveLength(5);
		expect(s.malformed.every((m) => /JSON|json|parse/.test(m.reason))).toBe(true);
		expect(s.mentions).toEqual(first50.filter((_, i) => (i + 1) % 10 !== 0));
		expect(s.malformed.map((m) => [m.event, m.id])).toEqual(
			first50.filter((_, i) => (i + 1) % 10 === 0).map((id) => ['mention', id]),
		);
	});

	// Regression test (found by this suite, fixed in shared/transport/).
	test('OpenStream.stats counts the events read (malformed included)', async () => {
		await admin(sim, 'POST', '/faults', { stream: { malformedEvery: 10 } });
		const s = valueOf(
			await exportRun(historicalExport({ sortType: 'CollectedAtAscending' }, { limit: 50 })),
		);
		expect(s.mentions).toHaveLength(45);
		expect(s.stats).toMatchObject({ malformed: 5, mentions: 45, events: 50 });
	});

	test('unknown event kinds are passed over as "other", the mentions stay complete', async () => {
		await admin(sim, 'POST', '/faults', { stream: { unknownEventEvery: 7 } });
		const s = valueOf(
			await exportRun(
				historicalExport({ sortType: 'CollectedAtAscending' }, { limit: 30 }, 'jsonLines'),
			),
		);
		expect(s.mentions).toEqual((await truth('CollectedAtAscending')).slice(0, 30));
		expect(s.other).toBe(4);
	});
});

describe('closing a stream gives the connection back', () => {
	test('close() in the middle of an export: the simulator shows no open stream shortly after', async () => {
		const outcome = await inNode(credentials(sim, ENTERPRISE), async function () {
			const stream = await new SentiOneTransport(this).openStream(historicalExport({}));
			const summary = await consume(stream, (x) => x.mentions.length >= 3);
			const after: StreamItem[] = [];
			for await (const item of stream.items) after.push(item);
			return {
				mentions: summary.mentions.length,
				error: summary.error,
				itemsAfterClose: after.length,
			};
		});
		expect(valueOf(outcome)).toEqual({ mentions: 3, itemsAfterClose: 0 });
		await waitFor(async () => (await openStreams('export')) === 0, 2000);
	});

	test('close() before reading anything', async () => {
		valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const stream = await new SentiOneTransport(this).openStream(historicalExport({}));
				stream.close();
				stream.close();
				return true;
			}),
		);
		await waitFor(async () => (await openStreams('export')) === 0, 2000);
	});

	test('the concurrency slots are reusable after close: 4 opens in a row with a limit of 2', async () => {
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this);
				let opened = 0;
				for (let i = 0; i < 4; i++) {
					const stream = await t.openStream(historicalExport({}));
					await consume(stream, (x) => x.mentions.length >= 1);
					opened++;
					// the close travels to the server asynchronously
					await new Promise((resolve) => setTimeout(resolve, 100));
				}
				return opened;
			}),
		);
		expect(result).toBe(4);
	});

	// Regression test (found by this suite, fixed in shared/transport/).
	test('close() on a quiet live stream releases its slot at once (not at the next heartbeat)', async () => {
		valueOf(
			await inNode(credentials(sim, BASIC), async function () {
				const stream = await new SentiOneTransport(this).openStream(live());
				await new Promise((resolve) => setTimeout(resolve, 200));
				stream.close();
				return true;
			}),
		);
		await waitFor(async () => (await openStreams('live')) === 0, 2000);
	});

	test('a stream judged stalled releases its slot', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 2 } });
		const s = valueOf(await exportRun(historicalExport({}), { idleTimeoutMs: 500 }));
		expect(s.error?.details).toEqual({ streamInterrupted: 'stalled' });
		await waitFor(async () => (await openStreams('export')) === 0, 1500);
	});
});

test('errors before the stream starts are mapped like any request (401 for a Basic key on the historical export)', async () => {
	const outcome = await inNode(credentials(sim, BASIC), async function () {
		return await new SentiOneTransport(this).openStream(historicalExport({}));
	});
	expect(outcome.ok).toBe(false);
	expect(outcome.error?.message).toMatch(
		/^SentiOne refused the API key \(401\): your API key does not have the Enterprise tier/,
	);
	expect(await openStreams('export')).toBe(0);
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(10);
});
