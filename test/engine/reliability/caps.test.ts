/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Threat: a server whose answers never run out, so a node that takes everything would grow until
 * the process dies or page forever:
 * - an export (Return All) that never ends → Options → Max Mentions per Run stops it (the peak
 *   memory of a 20,000-mention export is measured); Options → Max Size (MB) stops one whose data
 *   outgrows it, whatever the data is;
 * - a search that returns the same mentions (or nothing, or only entries that are not mentions)
 *   under ever-new cursors → paging stops after 3 pages without progress;
 * - a cursor longer than 4,096 characters → an error (the picker shows the page and stops);
 * - a live stream of ever-new, huge mention ids → the trigger's memory of ids stays bounded in
 *   bytes (DedupMemory: ids over 64 characters are remembered by their SHA-256).
 */
import type { IDataObject, ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { BOUNDS } from '../../../nodes/SentiOne/shared/bounds';
import { route } from '../../../nodes/SentiOne/shared/contract';
import { searchProjects } from '../../../nodes/SentiOne/shared/listSearch';
import { paginate } from '../../../nodes/SentiOne/shared/pager';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	DEFAULT_DEDUP_BYTES,
	DEFAULT_DEDUP_CAPACITY,
	DedupMemory,
} from '../../../nodes/SentiOne/trigger/stream/dedupMemory';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import { runWorkflow, withExecuteContext } from '../../support/engine';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import type { Behaviour, Page } from '../../support/servers/hostileServer';
import {
	HostileServer,
	useHostileServer,
	mention,
	ndjson,
	NDJSON,
	pages,
	sse,
	stream,
} from '../../support/servers/hostileServer';
import { waitFor } from '../../support/wait';
import { realNow } from '../../support/time';
import { type ResultRow, writePart } from '../../support/results';
import { type WorkflowJson } from '../../support/workflowJson';
import { ENTERPRISE } from '../../support/keys';
import { watchCrashes } from '../../support/probes';

jest.setTimeout(60_000);

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

let server: HostileServer;
const rows: ResultRow[] = [];
const figures: Record<string, unknown> = {};
const crashes = watchCrashes();

useHostileServer((started) => (server = started), {
	crashes,
	closed: () =>
		writePart({
			part: 'caps',
			title: 'Answers that never run out (caps)',
			command: 'npx jest test/engine/reliability/caps.test.ts',
			rows,
			figures,
		}),
});

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: server.base });
const nodeTypes = { 'n8n-nodes-sentione.sentiOne': new SentiOne() };
const project = (id = 1001) => ({ __rl: true, value: String(id), mode: 'id' });

interface Run {
	message?: string;
	description?: string;
	output: number;
	ms: number;
	heapPeak: number;
	rssPeak: number;
}

/** Runs a workflow through the engine, sampling memory above a baseline taken after a full GC. */
async function measured(workflow: WorkflowJson, cancelAfterMs?: number): Promise<Run> {
	gc();
	const base = process.memoryUsage();
	let heapPeak = 0;
	let rssPeak = 0;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		heapPeak = Math.max(heapPeak, now.heapUsed - base.heapUsed);
		rssPeak = Math.max(rssPeak, now.rss - base.rss);
	}, 10);
	const started = realNow();
	try {
		const result = await runWorkflow(workflow, {
			credentials: credentials(),
			nodeTypes,
			cancelAfterMs,
		});
		const error = result.nodeError(NODE) ?? result.error;
		return {
			message: error?.message,
			description: error?.description,
			output: error ? 0 : result.output(NODE).length,
			ms: realNow() - started,
			heapPeak,
			rssPeak,
		};
	} finally {
		clearInterval(sampler);
	}
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

// --- the export that never ends -----------------------------------------------------------------

const EXPORT = /\/mentions\/search\/stream$/;
const endlessMentions = (format: 'sse' | 'jsonLines'): Behaviour =>
	stream({
		frame: (i) =>
			format === 'sse'
				? sse.mention(mention(`endless-${i}`))
				: ndjson.mention(mention(`endless-${i}`)),
		contentType: format === 'sse' ? 'text/event-stream' : NDJSON,
	});

const exportWorkflow = (options: IDataObject, simplify = false) =>
	withParameters(loadWorkflow('mention-export'), {
		project: project(),
		exportScope: 'historical',
		returnAll: true,
		filters: {},
		simplify,
		options,
	});

describe('an export that never ends (Return All)', () => {
	test.each([
		{
			name: '20,000 mentions (SSE, full mentions)',
			cap: 20_000,
			format: 'sse' as const,
			simplify: false,
		},
		{
			name: '5,000 mentions (JSON lines, full mentions)',
			cap: 5_000,
			format: 'jsonLines' as const,
			simplify: false,
		},
		{
			name: '20,000 mentions (JSON lines, simplified rows)',
			cap: 20_000,
			format: 'jsonLines' as const,
			simplify: true,
		},
	])(
		'Max Mentions per Run = $name: stopped there, nothing partial, memory bounded',
		async ({ name, cap, format, simplify }) => {
			server.route('POST', EXPORT, endlessMentions(format));
			const run = await measured(
				exportWorkflow({ maxMentions: cap, streamFormat: format }, simplify),
			);
			expect(run.message).toBe(
				`The export stopped at ${cap.toLocaleString('en-US')} mentions (Options → Max Mentions per Run)`,
			);
			expect(run.description).toMatch(
				/Nothing is returned, so a partial export is never taken for the whole\. Set a Limit, narrow the filters, or raise Max Mentions per Run\./,
			);
			expect(run.output).toBe(0);
			expect(server.requests).toHaveLength(1);
			// the connection is closed at the cap (the server stops writing)
			await waitFor(() => server.open === 0, {
				what: 'the export connection closed',
				timeoutMs: 3000,
			});
			const sent = server.bytesSent;
			// the heap holds the rows (about 1.2 kB of JSON each) and little else: nowhere near the stream's size growing without end
			expect(run.heapPeak).toBeLessThan(cap * 12_000 + 64e6);
			figures[`endless export, cap ${name}`] = {
				heapPeakMb: mb(run.heapPeak),
				rssPeakMb: mb(run.rssPeak),
				streamMbSent: mb(sent),
				seconds: Math.round(run.ms / 100) / 10,
				heapBytesPerMention: Math.round(run.heapPeak / cap),
			};
			rows.push({
				fault: `endless export, Max Mentions per Run ${name}`,
				through: 'action node (Mention → Export)',
				cases: 1,
				outcome: `stopped at ${cap.toLocaleString('en-US')} with an error naming the option; peak heap +${mb(run.heapPeak)} MB, ${(run.ms / 1000).toFixed(1)} s`,
			});
		},
	);

	test.each([
		{
			name: '1 MB, endless mentions (SSE)',
			sizeMb: 1,
			behaviour: endlessMentions('sse'),
			format: 'sse',
		},
		{
			name: '3 MB, endless mentions (JSON lines)',
			sizeMb: 3,
			behaviour: endlessMentions('jsonLines'),
			format: 'jsonLines',
		},
		{
			name: '1 MB, endless heartbeats (SSE)',
			sizeMb: 1,
			behaviour: stream({ frame: () => sse.heartbeat() }),
			format: 'sse',
		},
	])(
		'Max Size (MB) = $name: stopped there with an error naming the option',
		async ({ name, sizeMb, behaviour, format }) => {
			server.route('POST', EXPORT, behaviour);
			const run = await measured(exportWorkflow({ maxSizeMb: sizeMb, streamFormat: format }));
			expect(run.message).toMatch(
				new RegExp(
					`^The export stopped at ${sizeMb} MB of stream data \\(Options → Max Size \\(MB\\)\\) after \\d+ mentions$`,
				),
			);
			expect(run.description).toMatch(/raise Max Size \(MB\)\.$/);
			expect(run.output).toBe(0);
			await waitFor(() => server.open === 0, {
				what: 'the export connection closed',
				timeoutMs: 3000,
			});
			// it stops within one event of the cap, so the server wrote about the cap and the socket buffers
			expect(server.bytesSent).toBeLessThan(sizeMb * 1e6 + 16e6);
			figures[`Max Size ${name}: MB the server wrote`] = mb(server.bytesSent);
			rows.push({
				fault: `endless export, Max Size (MB) ${name}`,
				through: 'action node (Mention → Export)',
				cases: 1,
				outcome: `stopped with an error naming the option after ${(run.ms / 1000).toFixed(1)} s (${mb(server.bytesSent)} MB sent)`,
			});
		},
	);

	/**
	 * Data that is never an event — a line that never ends, comments only — is counted by the
	 * reader as bytes all the same, but Max Size is checked only when an event arrives, so these
	 * stop at the 120 s idle guard or the Timeout, however much has been read by then. The engine
	 * cancels the run after 8 s here (the workflow timeout of n8n), to keep the test short.
	 */
	test.each([
		{
			name: 'a JSON line that never ends (≈ 12 MB/s)',
			format: 'jsonLines',
			behaviour: stream({
				frame: (i) => (i === 0 ? '{"event":"mention","data":{"id":"' : 'x'.repeat(64 * 1024)),
				everyMs: 5,
				contentType: NDJSON,
			}),
		},
		{
			name: 'SSE comments only (≈ 12 MB/s)',
			format: 'sse',
			behaviour: stream({ frame: () => `: ${'c'.repeat(64 * 1024)}\n\n`, everyMs: 5 }),
		},
	])(
		'Max Size (MB) = 1 against $name: stopped at 1 MB with an error naming the option',
		async ({ name, format, behaviour }) => {
			server.route('POST', EXPORT, behaviour);
			const run = await measured(exportWorkflow({ maxSizeMb: 1, streamFormat: format }), 8000);
			const sent = server.bytesSent;
			figures[`Max Size 1 MB against ${name}: MB read before the run ended`] = mb(sent);
			figures[`Max Size 1 MB against ${name}: seconds`] = Math.round(run.ms / 100) / 10;
			rows.push({
				fault: `endless export, Max Size (MB) 1 against ${name}`,
				through: 'action node (Mention → Export)',
				cases: 1,
				outcome: /Max Size/.test(run.message ?? '')
					? `stopped at the cap (${mb(sent)} MB sent)`
					: `BUG: not stopped by Max Size; ${mb(sent)} MB read in ${(run.ms / 1000).toFixed(1)} s, then ${run.message ?? 'no error'}`,
			});
			expect(run.message).toMatch(
				/^The export stopped at 1 MB of stream data \(Options → Max Size \(MB\)\)/,
			);
			expect(sent).toBeLessThan(1e6 + 16e6);
		},
	);
});

// --- pages that never run out ---------------------------------------------------------------------

const SEARCH_RECENT = /\/mentions\/recent\/search$/;
const SEARCH_HISTORICAL = /\/mentions\/search$/;
const PROJECTS = /^\/projects$/;
const TAGS = /\/tags$/;

const samePage = Array.from({ length: 25 }, (_, k) => mention(`same-${k}`));
const projectsPage = Array.from({ length: 20 }, (_, k) => ({ id: 5000 + k, name: `Project ${k}` }));

interface PagingCase {
	name: string;
	route: RegExp;
	page: (n: number) => Page;
	workflow: () => WorkflowJson;
	through: string;
	message: RegExp;
	requests: number;
}

const searchRecent = () =>
	withParameters(loadWorkflow('mention-search-recent'), {
		project: project(),
		returnAll: true,
		filters: {},
	});
const searchHistorical = () =>
	withParameters(loadWorkflow('mention-search-historical'), {
		project: project(),
		returnAll: true,
		filters: {},
	});
const projectsAll = () => loadWorkflow('project-get-many');
const tagsAll = () => withParameters(loadWorkflow('tag-get-many'), { project: project() });

const noProgress = (kind: 'empty pages' | 'only items it had already returned', after: number) =>
	new RegExp(
		`^SentiOne returned 3 pages in a row with nothing new \\(${kind}\\) under ever-new cursors, after ${after} pages; paging stopped so as not to loop\\.$`,
	);

const pagingCases: PagingCase[] = [
	{
		name: 'the same 25 mentions under ever-new cursors',
		route: SEARCH_RECENT,
		page: (n) => ({ data: samePage, cursor: `c${n}` }),
		workflow: searchRecent,
		through: 'Mention → Search Recent',
		message: noProgress('only items it had already returned', 4),
		requests: 4,
	},
	{
		name: 'the same ids with new content under ever-new cursors',
		route: SEARCH_HISTORICAL,
		page: (n) => ({
			data: samePage.map((m) => ({ ...m, content: { text: `edit ${n}` } })),
			cursor: `c${n}`,
		}),
		workflow: searchHistorical,
		through: 'Mention → Search Historical',
		message: noProgress('only items it had already returned', 4),
		requests: 4,
	},
	{
		name: 'the same 20 projects under ever-new cursors',
		route: PROJECTS,
		page: (n) => ({ data: projectsPage, cursor: `p${n}` }),
		workflow: projectsAll,
		through: 'Project → Get Many',
		message: noProgress('only items it had already returned', 4),
		requests: 4,
	},
	{
		name: 'the same tags under ever-new cursors',
		route: TAGS,
		page: (n) => ({ data: [{ name: 'vip' }, { name: 'complaint' }], cursor: `t${n}` }),
		workflow: tagsAll,
		through: 'Tag → Get Many',
		message: noProgress('only items it had already returned', 4),
		requests: 4,
	},
	{
		name: 'empty pages under ever-new cursors',
		route: SEARCH_RECENT,
		page: (n) => ({ data: [], cursor: `e${n}` }),
		workflow: searchRecent,
		through: 'Mention → Search Recent',
		message: noProgress('empty pages', 3),
		requests: 3,
	},
	{
		name: 'one real page, then empty pages under ever-new cursors',
		route: SEARCH_HISTORICAL,
		page: (n) => ({ data: n === 1 ? samePage : [], cursor: `e${n}` }),
		workflow: searchHistorical,
		through: 'Mention → Search Historical',
		message: noProgress('empty pages', 4),
		requests: 4,
	},
	{
		name: 'empty project pages under ever-new cursors',
		route: PROJECTS,
		page: (n) => ({ data: [], cursor: `e${n}` }),
		workflow: projectsAll,
		through: 'Project → Get Many',
		message: noProgress('empty pages', 3),
		requests: 3,
	},
	{
		name: 'pages of entries that are not mentions (null, numbers, text, lists) under ever-new cursors',
		route: SEARCH_RECENT,
		page: (n) => ({ data: [null, n, 'mention', [], true], cursor: `x${n}` }),
		workflow: searchRecent,
		through: 'Mention → Search Recent',
		message:
			/^SentiOne returned 3 pages in a row with nothing new \(.*\) under ever-new cursors, after 3 pages; paging stopped so as not to loop\.$/,
		requests: 3,
	},
];

describe('pages with nothing new under ever-new cursors: at most 3 pages without progress', () => {
	test.each(pagingCases)(
		'$through: $name',
		async ({ name, route, page, workflow, through, message, requests }) => {
			server.route('*', route, pages(page));
			const run = await measured(workflow());
			expect(run.message).toMatch(message);
			expect(run.output).toBe(0);
			expect(server.requests).toHaveLength(requests);
			// each cursor went back once
			expect(server.requests.slice(1).map((r) => r.query.cursor)).toEqual(
				Array.from({ length: requests - 1 }, (_, k) => page(k + 1).cursor),
			);
			rows.push({
				fault: name,
				through: `action node (${through})`,
				cases: 1,
				outcome: `stopped after ${requests} requests with an error; nothing partial returned`,
			});
		},
	);

	const recent = () =>
		Array.from({ length: 25 }, (_, k) =>
			mention(`recent-${k}`, new Date(Date.now() - 10 * 60_000).toISOString()),
		);
	test.each([
		{
			name: 'the same 25 mentions under ever-new cursors',
			page: (n: number) => ({ data: recent(), cursor: `c${n}` }),
			requests: 4,
		},
		{
			name: 'empty pages under ever-new cursors',
			page: (n: number) => ({ data: [], cursor: `e${n}` }),
			requests: 3,
		},
	])(
		'the poll trigger (Max Requests per Poll 30, Backfill): $name',
		async ({ name, page, requests }) => {
			server.route('POST', SEARCH_RECENT, pages(page));
			const harness = new PollHarness(
				pollParameters(1001, {
					startFrom: 'backfill',
					backfillHours: 1,
					options: { maxRequestsPerPoll: 30 },
				} as INodeParameters),
				credentials(),
			);
			const polled = await harness.poll('activate');
			expect(polled.error?.message).toMatch(/^SentiOne returned 3 pages in a row with nothing new/);
			expect(server.requests).toHaveLength(requests);
			expect(harness.allItems()).toEqual([]);
			rows.push({
				fault: name,
				through: 'SentiOne Trigger',
				cases: 1,
				outcome: `stopped after ${server.requests.length} requests with an error; the watermark kept`,
			});
		},
	);
});

describe("pages of fresh mentions that never run out: the pager's item cap", () => {
	test.each([
		{ maxItems: 1000, hint: 'Raise Max Items, or set a Limit.' },
		{ maxItems: 5000, hint: undefined },
	])(
		'at most $maxItems items: an error naming the cap after maxItems / 25 + 1 requests',
		async ({ maxItems, hint }) => {
			server.route(
				'POST',
				SEARCH_RECENT,
				pages((n) => ({
					data: Array.from({ length: 25 }, (_, k) => mention(`fresh-${n}-${k}`)),
					cursor: `f${n}`,
				})),
			);
			const outcome = await withExecuteContext(credentials(), async function () {
				const transport = new SentiOneTransport(this, { retry: { transientRetries: 0 } });
				try {
					await paginate(
						transport,
						{
							...route('recentSearch', 1001),
							body: {},
						},
						{ returnAll: true, maxItems, maxItemsHint: hint },
					);
					return { message: undefined, description: undefined };
				} catch (error) {
					return {
						message: (error as Error).message,
						description: (error as { description?: string }).description,
					};
				}
			});
			expect(outcome.message).toBe(
				`Stopped at ${maxItems.toLocaleString('en-US')} items, the most one run holds.`,
			);
			expect(outcome.description).toBe(
				`${hint ?? 'Set a Limit, or narrow the filters.'} Nothing is returned, so a partial result is never taken for the whole.`,
			);
			expect(server.requests).toHaveLength(maxItems / 25 + 1);
			rows.push({
				fault: `a search whose fresh pages never run out (item cap ${maxItems.toLocaleString('en-US')})`,
				through: 'pager',
				cases: 1,
				outcome: `stopped after ${server.requests.length} requests with an error naming the cap`,
			});
		},
	);
});

// --- cursors too long to send back ----------------------------------------------------------------

describe(`a cursor longer than ${BOUNDS.maxCursorChars.toLocaleString('en-US')} characters`, () => {
	test.each([
		{
			length: 4097,
			route: SEARCH_RECENT,
			workflow: searchRecent,
			through: 'Mention → Search Recent',
		},
		{ length: 10_000, route: PROJECTS, workflow: projectsAll, through: 'Project → Get Many' },
		{
			length: 1_000_000,
			route: SEARCH_HISTORICAL,
			workflow: searchHistorical,
			through: 'Mention → Search Historical',
		},
		{ length: 50_000, route: TAGS, workflow: tagsAll, through: 'Tag → Get Many' },
	])(
		'$through, a $length-character cursor: an error, never sent back',
		async ({ length, route, workflow, through }) => {
			server.route(
				'*',
				route,
				pages(() => ({
					data: route === PROJECTS ? projectsPage : samePage,
					cursor: 'k'.repeat(length),
				})),
			);
			const run = await measured(workflow());
			expect(run.message).toBe(
				`SentiOne's answer could not be used: the page cursor is ${length.toLocaleString('en-US')} characters long, too long to send back`,
			);
			expect(run.output).toBe(0);
			expect(server.requests).toHaveLength(1);
			rows.push({
				fault: `a ${length.toLocaleString('en-US')}-character cursor`,
				through: `action node (${through})`,
				cases: 1,
				outcome: 'an error after 1 request; the cursor never sent back',
			});
		},
	);

	test('a cursor of exactly 4,096 characters is still sent back', async () => {
		server.route(
			'POST',
			SEARCH_RECENT,
			pages((n) => ({
				data: n === 1 ? samePage : [mention('last')],
				cursor: n === 1 ? 'k'.repeat(4096) : null,
			})),
		);
		const run = await measured(searchRecent());
		expect(run.message).toBeUndefined();
		expect(run.output).toBe(26);
		expect(server.requests[1].query.cursor).toHaveLength(4096);
	});

	test.each([4097, 100_000])(
		'the project picker, a %i-character cursor: the page is shown, no further page offered',
		async (length) => {
			server.route(
				'GET',
				PROJECTS,
				pages(() => ({ data: projectsPage, cursor: 'k'.repeat(length) })),
			);
			const found = await withExecuteContext(credentials(), async function () {
				return await searchProjects.call(this as unknown as ILoadOptionsFunctions, '', undefined);
			});
			expect(found.results).toHaveLength(20);
			expect(found.paginationToken).toBeUndefined();
			rows.push({
				fault: `a ${length.toLocaleString('en-US')}-character cursor`,
				through: 'project picker (list search)',
				cases: 1,
				outcome: 'the page shown, no next page offered',
			});
		},
	);

	test.each([4097, 20_000])(
		'the poll trigger, a %i-character cursor: an error, the cursor not saved',
		async (length) => {
			server.route(
				'POST',
				SEARCH_RECENT,
				pages(() => ({ data: samePage, cursor: 'k'.repeat(length) })),
			);
			const harness = new PollHarness(pollParameters(1001), credentials());
			const polled = await harness.poll('activate');
			expect(polled.error?.message).toBe(
				`SentiOne's answer could not be used: the page cursor is ${length.toLocaleString('en-US')} characters long, too long to send back`,
			);
			expect(JSON.stringify(harness.staticData()).length).toBeLessThan(4096);
			rows.push({
				fault: `a ${length.toLocaleString('en-US')}-character cursor`,
				through: 'SentiOne Trigger',
				cases: 1,
				outcome: 'an error; nothing of it saved',
			});
		},
	);
});

// --- ever-new huge ids on the live stream ---------------------------------------------------------

describe("ever-new huge mention ids: the trigger's memory stays bounded in bytes", () => {
	test.each([
		{ name: '100 kB ids (SSE)', idChars: 100_000, count: 300, format: 'sse' as const },
		{ name: '1 MB ids (JSON lines)', idChars: 1_000_000, count: 40, format: 'jsonLines' as const },
		{
			name: '65-character ids, just over the hashing threshold (SSE)',
			idChars: 65,
			count: 3000,
			format: 'sse' as const,
		},
	])(
		'$name, each sent twice: passed on once, remembered by their hash',
		async ({ idChars, count, format }) => {
			const spy = jest.spyOn(DedupMemory.prototype, 'add');
			try {
				const id = (k: number) => `${String(k).padStart(6, '0')}${'i'.repeat(idChars - 6)}`;
				// every mention twice in a row: the second is a repeat the memory must catch
				server.route(
					'POST',
					/\/stream\/live$/,
					stream({
						frame: (i) => {
							if (i >= count * 2) return format === 'sse' ? sse.heartbeat() : ndjson.heartbeat();
							const m = { ...mention(id(Math.floor(i / 2))), content: { text: 'x' } };
							return format === 'sse' ? sse.mention(m) : ndjson.mention(m);
						},
						everyMs: 0,
						contentType: format === 'sse' ? 'text/event-stream' : NDJSON,
					}),
				);
				const trigger = await activateStreamTrigger(
					streamParameters(
						{ project: projectParam(1001), simplify: true } as INodeParameters,
						{ stallTimeout: 30, fillGaps: false, streamFormat: format } as IDataObject,
					),
					credentials(),
				);
				try {
					await trigger.until(() => trigger.items().length >= count, 30_000);
					await waitFor(() => spy.mock.calls.length >= count * 2, {
						what: 'every repeat read',
						timeoutMs: 10_000,
					});
				} finally {
					await trigger.close();
				}
				const memory = spy.mock.contexts.find((c) => c instanceof DedupMemory) as DedupMemory;
				expect(trigger.items()).toHaveLength(count);
				expect(new Set(trigger.items().map((m) => String(m.id).slice(0, 6))).size).toBe(count);
				expect(memory.size).toBe(Math.min(count, DEFAULT_DEDUP_CAPACITY));
				// 71 characters (sha256: and 64 hex) for any id over 64 characters: 190 bytes an id
				expect(memory.sizeBytes).toBe(count * (71 * 2 + 48));
				expect(memory.sizeBytes).toBeLessThanOrEqual(DEFAULT_DEDUP_BYTES);
				figures[
					`dedup memory after ${count} ids of ${idChars.toLocaleString('en-US')} characters`
				] = { bytes: memory.sizeBytes, idsMb: mb(count * idChars) };
				rows.push({
					fault: `ever-new ${idChars.toLocaleString('en-US')}-character ids, each sent twice`,
					through: 'SentiOne Stream Trigger',
					cases: 1,
					items: count,
					lost: 0,
					duplicated: 0,
					outcome: `memory of ids ${memory.sizeBytes.toLocaleString('en-US')} bytes for ${mb(count * idChars)} MB of ids`,
				});
			} finally {
				spy.mockRestore();
			}
		},
	);

	test.each([
		{
			name: '50,000 ids of 10 kB (default bounds)',
			ids: 50_000,
			chars: 10_000,
			capacity: undefined,
			maxBytes: undefined,
		},
		{
			name: '200,000 ids of 64 characters, a 1 MB byte bound',
			ids: 200_000,
			chars: 64,
			capacity: 1_000_000,
			maxBytes: 1024 * 1024,
		},
		{
			name: '100,000 ids of 1–64 characters, a 256 kB byte bound',
			ids: 100_000,
			chars: -1,
			capacity: 1_000_000,
			maxBytes: 256 * 1024,
		},
	])(
		'DedupMemory, $name: bounded in count and bytes, the heap too',
		({ ids, chars, capacity, maxBytes }) => {
			gc();
			const before = process.memoryUsage().heapUsed;
			const memory = new DedupMemory(capacity, maxBytes);
			for (let k = 0; k < ids; k++) {
				const size = chars > 0 ? chars : 1 + (k % 64);
				const text = String(k);
				memory.add(text.length >= size ? text : `${text}${'z'.repeat(size - text.length)}`);
			}
			gc();
			const heap = process.memoryUsage().heapUsed - before;
			const bound = maxBytes ?? DEFAULT_DEDUP_BYTES;
			expect(memory.sizeBytes).toBeLessThanOrEqual(bound);
			expect(memory.size).toBeLessThanOrEqual(capacity ?? DEFAULT_DEDUP_CAPACITY);
			expect(memory.forgotten).toBe(ids - memory.size);
			// the Set's real cost stays within a few times the accounted bytes
			expect(heap).toBeLessThan(bound * 4 + 8e6);
			figures[`DedupMemory, ${ids.toLocaleString('en-US')} ids: accounted / heap bytes`] = {
				accounted: memory.sizeBytes,
				heapDelta: heap,
				kept: memory.size,
			};
			rows.push({
				fault: `ever-new ids into the dedup memory: ${ids.toLocaleString('en-US')}`,
				through: 'DedupMemory',
				cases: 1,
				outcome: `${memory.size.toLocaleString('en-US')} kept, ${mb(memory.sizeBytes)} MB accounted, heap +${mb(heap)} MB`,
			});
		},
	);
});
