/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The contract-variant matrix (issue 13): the action node and both triggers, through n8n's engine,
 * against every cell of cells.ts — a simulator that read a "not shown" part of the specification
 * differently. The same assertions run in every cell:
 * - output is exactly what was asked (the ground truth filtered by an independent reading of the
 *   filters), never more, never less, whatever the server applied;
 * - the user is told once when SentiOne did not do what was asked;
 * - no author in clear is ever passed on as anonymized;
 * - the poll trigger: 10 idle checks emit nothing and cost 10 requests; new mentions once each; a
 *   24-hour backfill emits each mention collected since its start exactly once;
 * - the stream trigger: live mentions once each, only the matching ones;
 * - announced operations work, or say they are not available on this API;
 * - a search over the hourly budget waits for the reset and completes.
 * The results are written to test/.results/matrix.json (rendered into docs/api-contract.md
 * by `npm run docs:matrix`, never by the test run).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { admin, type Loose, type Sim } from '../../support/simulator';
import { hintsOf, jsonOf, loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { CELLS, type Cell } from './cells';
import { RESULTS_DIR } from '../../support/paths';
import { NOW_MS, DAY } from '../../support/time';
import { sleep } from '../../support/wait';
import { type SimClock, useSimulator } from '../../support/simClock';
import { ENTERPRISE } from '../../support/keys';

const PROJECT = 1001;
const QUIET_PROJECT = 1002;

/** Filters the searches and the export send; every one can be checked on a mention. */
const FILTERS: IDataObject = {
	publishedAfter: '2026-06-01T00:00:00Z',
	publishedBefore: '2026-11-21T00:00:00Z',
	collectedAfter: '2026-06-02T00:00:00Z',
	sentiments: ['Negative', 'Neutral'],
	languages: 'en, pl',
	countries: 'US, PL, GB',
	sourceTypes: [
		'Facebook',
		'X',
		'Instagram',
		'Websites',
		'Forums',
		'Blogs',
		'Reddit',
		'Reviews',
		'Video',
	],
	mentionTypes: ['Post', 'Comment', 'Article'],
};

/** The same filters, read independently of the node: what "matches" means. */
function matches(m: Loose): boolean {
	const published = Date.parse(m.publishedAt as string);
	const collected = Date.parse(m.collectedAt as string);
	return (
		published >= Date.parse('2026-06-01T00:00:00Z') &&
		published < Date.parse('2026-11-21T00:00:00Z') &&
		collected >= Date.parse('2026-06-02T00:00:00Z') &&
		['Negative', 'Neutral'].includes(m.content?.sentiment) &&
		['en', 'pl'].includes(String(m.content?.language?.code ?? '').toLowerCase()) &&
		['US', 'PL', 'GB'].includes(String(m.location?.country?.code ?? '').toUpperCase()) &&
		(FILTERS.sourceTypes as string[]).includes(m.source?.type) &&
		(FILTERS.mentionTypes as string[]).includes(m.type)
	);
}

/** The trigger filters: no dates. */
const TRIGGER_FILTERS = { sentiments: ['Negative'], languages: 'en, pl' };
const triggerMatches = (m: Loose) =>
	m.content?.sentiment === 'Negative' &&
	['en', 'pl'].includes(String(m.content?.language?.code ?? '').toLowerCase());

async function truth(sim: Sim, projectId: number): Promise<Loose[]> {
	return (await admin<{ mentions: Loose[] }>(sim, 'GET', `/mentions?projectId=${projectId}&full=1`))
		.mentions;
}

const sorted = (ids: string[]) => ids.slice().sort();
const ids = (items: IDataObject[]) => items.map((m) => String(m.id));
const verificationHints = (hints: Array<{ message: string }>) =>
	hints.filter((h) => /did not apply every filter/.test(h.message));
const refusalHints = (hints: Array<{ message: string }>) =>
	hints.filter((h) => /refused the .* filter/.test(h.message));

/** Something shaped like SentiOne's hash (D-26 says SHA-256 hex; any digest-looking value passes). */
const looksHashed = (v: unknown) =>
	v === null || (typeof v === 'string' && /^[0-9a-f]{32,}$/i.test(v));

interface CellResult {
	cell: string;
	variant: string;
	decisions: string;
	checks: Record<string, string>;
}
const results: CellResult[] = [];

afterAll(() => {
	const dir = RESULTS_DIR;
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, 'matrix.json'),
		`${JSON.stringify({ finishedAt: new Date().toISOString(), cells: results }, null, 2)}\n`,
	);
});

describe.each(CELLS)('$name', (cell: Cell) => {
	let sim: Sim;
	let clock: SimClock;
	const record: CellResult = {
		cell: cell.name,
		variant: cell.variant || '(none)',
		decisions: cell.decisions,
		checks: {},
	};
	results.push(record);

	useSimulator(
		[
			'--projects',
			'2',
			'--mentions',
			'400',
			'--limits',
			'off',
			'--heartbeat-ms',
			'200',
			...(cell.variant ? ['--variant', cell.variant] : []),
		],
		(started, itsClock) => {
			sim = started;
			clock = itsClock;
		},
		{ reset: 'none' },
	);

	test('searches return exactly the matching mentions, and say so once when SentiOne did not filter', async () => {
		const expected = (await truth(sim, PROJECT)).filter(matches).map((m) => String(m.id));
		expect(expected.length).toBeGreaterThan(5);
		const workflow = withParameters(loadWorkflow('mention-search-historical'), {
			returnAll: true,
			filters: FILTERS,
			simplify: false,
		});
		// two input items: the notice is still told once per execution
		const result = await run(sim, workflow, { key: ENTERPRISE, inputItems: [{}, {}] });
		const out = jsonOf(result);
		expect(sorted(ids(out))).toEqual(sorted([...expected, ...expected]));
		const hints = hintsOf(result);
		expect(verificationHints(hints)).toHaveLength(cell.ignoresFilters ? 1 : 0);
		expect(refusalHints(hints)).toHaveLength(cell.refusesFilters ? 1 : 0);
		// a Limit counts only matching mentions
		const limited = jsonOf(
			await run(sim, withParameters(workflow, { returnAll: false, limit: 7 }), { key: ENTERPRISE }),
		);
		expect(limited).toHaveLength(7);
		expect(limited.every((m) => matches(m as Loose))).toBe(true);
		record.checks.search = `${expected.length} of 400 match; output exact${cell.ignoresFilters ? ', one notice' : ''}${cell.refusesFilters ? ', refused filters applied locally, one notice' : ''}`;
	});

	test('the export streams exactly the matching mentions', async () => {
		const expected = (await truth(sim, PROJECT)).filter(matches).map((m) => String(m.id));
		const workflow = withParameters(loadWorkflow('mention-export'), {
			exportScope: 'historical',
			returnAll: true,
			filters: FILTERS,
			simplify: false,
		});
		const result = await run(sim, workflow, { key: ENTERPRISE });
		expect(sorted(ids(jsonOf(result)))).toEqual(sorted(expected));
		expect(verificationHints(hintsOf(result))).toHaveLength(cell.ignoresFilters ? 1 : 0);
		expect(refusalHints(hintsOf(result))).toHaveLength(cell.refusesFilters ? 1 : 0);
		record.checks.export = 'output exact';
	});

	test('no author in clear is ever passed on as anonymized', async () => {
		const base = withParameters(loadWorkflow('mention-export'), {
			exportScope: 'historical',
			returnAll: false,
			limit: 30,
			filters: {},
			simplify: false,
		});
		const asked = await run(sim, withParameters(base, { options: { anonymization: 'author' } }), {
			key: ENTERPRISE,
		});
		if (cell.anonymizes) {
			const out = jsonOf(asked);
			expect(out).toHaveLength(30);
			for (const m of out) {
				expect(looksHashed((m.author as Loose)?.name)).toBe(true);
				expect(looksHashed((m.author as Loose)?.id)).toBe(true);
			}
		} else {
			expect(asked.nodeError(NODE)?.message).toMatch(
				/^Anonymization \(Author\) was asked for, but SentiOne sent mention \S+ with author\.name/,
			);
		}
		// with Remove Identifying Fields chosen: nothing identifying either way
		const removed = jsonOf(
			await run(
				sim,
				withParameters(base, { options: { anonymization: 'author', notAnonymized: 'remove' } }),
				{ key: ENTERPRISE },
			),
		);
		expect(removed).toHaveLength(30);
		for (const m of removed) {
			expect(looksHashed((m.author as Loose)?.name)).toBe(true);
			expect((m.author as Loose)?.avatar ?? null).toBeNull();
		}
		record.checks.anonymization = cell.anonymizes
			? 'hashed by SentiOne'
			: 'error by default; fields removed when chosen';
	});

	test('poll trigger: 10 idle checks emit nothing and cost 10 requests; new mentions pass once each', async () => {
		const harness = new PollHarness(pollParameters(QUIET_PROJECT, { filters: TRIGGER_FILTERS }), {
			apiKey: ENTERPRISE,
			baseUrl: sim.base,
		});
		await harness.poll('activate');
		await admin(sim, 'DELETE', '/requests');
		const idle: number[] = [];
		for (let i = 0; i < 10; i++) {
			await clock.advance(60_000);
			const outcome = await harness.poll();
			expect(outcome.items).toBeNull();
			idle.push(i);
		}
		const searches = (await admin<{ requests: Loose[] }>(sim, 'GET', '/requests')).requests.filter(
			(r) => /\/mentions\/recent\/search$/.test(r.path as string),
		);
		expect(searches).toHaveLength(10);
		// new mentions, half of them matching, some at one instant
		await clock.advance(60_000);
		const injected = [
			...(
				await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
					projectId: QUIET_PROJECT,
					count: 6,
					overrides: { content: { sentiment: 'Negative', language: { code: 'en' } } },
				})
			).mentions,
			...(
				await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
					projectId: QUIET_PROJECT,
					count: 6,
					overrides: { content: { sentiment: 'Positive', language: { code: 'en' } } },
				})
			).mentions,
		];
		const emitted: string[] = [];
		for (let i = 0; i < 4; i++) {
			await clock.advance(60_000);
			const outcome = await harness.poll();
			emitted.push(...ids(outcome.items ?? []));
		}
		expect(sorted(emitted)).toEqual(
			sorted(injected.filter(triggerMatches).map((m) => String(m.id))),
		);
		record.checks.pollIdle = '10 checks, 10 requests, 0 emitted; new mentions once each';
	});

	test('poll trigger: a 24-hour backfill emits each matching mention collected since its start exactly once', async () => {
		const start = clock.now - DAY;
		const wanted = (m: Loose) => ['Negative', 'Neutral'].includes(m.content?.sentiment);
		const expected = (await truth(sim, PROJECT))
			.filter(
				(m) =>
					Date.parse(m.collectedAt as string) >= start &&
					Date.parse(m.publishedAt as string) >= clock.now - 7 * DAY,
			)
			.filter(wanted)
			.map((m) => String(m.id));
		expect(expected.length).toBeGreaterThan(10);
		const harness = new PollHarness(
			pollParameters(PROJECT, {
				filters: { sentiments: ['Negative', 'Neutral'] },
				startFrom: 'backfill',
				backfillHours: 24,
				options: { maxRequestsPerPoll: 1 },
			}),
			{ apiKey: ENTERPRISE, baseUrl: sim.base },
		);
		const emitted: string[] = [];
		for (let i = 0; i < 30; i++) {
			const outcome = await harness.poll(i === 0 ? 'activate' : 'update');
			emitted.push(...ids(outcome.items ?? []));
			await clock.advance(60_000);
		}
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(sorted(emitted)).toEqual(sorted(expected));
		record.checks.pollBackfill = `${expected.length} expected, each once`;
	});

	test('stream trigger: live mentions once each, only the matching ones, anonymized or refused', async () => {
		const trigger = await activateStreamTrigger(
			streamParameters({
				project: projectParam(QUIET_PROJECT),
				filters: TRIGGER_FILTERS,
			}) as INodeParameters,
			{ apiKey: ENTERPRISE, baseUrl: sim.base },
		);
		try {
			const injected = [
				...(
					await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
						projectId: QUIET_PROJECT,
						count: 4,
						overrides: { content: { sentiment: 'Negative', language: { code: 'pl' } } },
					})
				).mentions,
				...(
					await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
						projectId: QUIET_PROJECT,
						count: 4,
						overrides: { content: { sentiment: 'Neutral', language: { code: 'pl' } } },
					})
				).mentions,
			];
			const wanted = injected.filter(triggerMatches).map((m) => String(m.id));
			await trigger.until(() => trigger.items().length >= wanted.length, 10_000);
			await sleep(400);
			expect(sorted(ids(trigger.items()))).toEqual(sorted(wanted));
			expect(trigger.errors).toEqual([]);
		} finally {
			await trigger.close();
		}
		const anonymous = await activateStreamTrigger(
			streamParameters(
				{ project: projectParam(QUIET_PROJECT), filters: {} },
				{ anonymization: 'author' },
			) as INodeParameters,
			{ apiKey: ENTERPRISE, baseUrl: sim.base },
		);
		try {
			await admin(sim, 'POST', '/mentions', { projectId: QUIET_PROJECT, count: 2 });
			await anonymous.until(
				() => anonymous.items().length >= 2 || anonymous.errors.length > 0,
				10_000,
			);
			if (cell.anonymizes) {
				for (const m of anonymous.items())
					expect(looksHashed((m.author as Loose)?.name)).toBe(true);
			} else {
				expect(anonymous.items()).toEqual([]);
				expect(anonymous.errors[0]?.message).toMatch(/^Anonymization \(Author\) was asked for/);
			}
		} finally {
			await anonymous.close();
		}
		record.checks.stream = 'once each, only matching';
	});

	test('announced operations work, or say they are not available on this SentiOne API', async () => {
		const create = await run(sim, loadWorkflow('project-create'), { key: ENTERPRISE });
		const add = await run(sim, loadWorkflow('tag-add'), {
			key: ENTERPRISE,
			inputItems: [{ mentionId: String((await truth(sim, PROJECT))[0].id) }],
		});
		const recentExport = await run(
			sim,
			withParameters(loadWorkflow('mention-export'), {
				exportScope: 'recent',
				returnAll: false,
				limit: 5,
				filters: {},
			}),
			{ key: ENTERPRISE },
		);
		if (cell.routesAbsent) {
			expect(create.nodeError(NODE)?.message).toMatch(
				/^Project → Create is not available on this SentiOne API \(40[45]\)/,
			);
			expect(add.nodeError(NODE)?.message).toMatch(
				/^Tag → Add is not available on this SentiOne API \(404\)/,
			);
			expect(recentExport.nodeError(NODE)?.message).toMatch(
				/^Mention → Export \(last 7 days\) is not available on this SentiOne API \(404\)/,
			);
		} else {
			expect(jsonOf(create)[0]).toMatchObject({ name: 'Nordic Tea House' });
			expect(jsonOf(add)[0].tags).toEqual(expect.arrayContaining(['complaint', 'vip']));
			expect(jsonOf(recentExport)).toHaveLength(5);
		}
		// a wrong project on a confirmed route is a wrong project, in every cell
		const missing = await run(
			sim,
			withParameters(loadWorkflow('mention-search-historical'), { project: projectParam(999_999) }),
			{
				key: ENTERPRISE,
			},
		);
		expect(missing.nodeError(NODE)?.message).toMatch(
			/^SentiOne could not find what the request names \(404\)/,
		);
		record.checks.routes = cell.routesAbsent ? 'not available, named' : 'work';
	});

	test('a search over the hourly budget waits for the reset and completes', async () => {
		await admin(sim, 'POST', '/limits', {
			mode: 'spec',
			hourly: { search: 6 },
			resetWindows: true,
		});
		try {
			// all 400 mentions: 16 pages against 6 requests an hour (two waits, aligned or rolling windows)
			const expected = (await truth(sim, PROJECT)).map((m) => String(m.id));
			const workflow = withParameters(loadWorkflow('mention-search-historical'), {
				returnAll: true,
				filters: {},
				simplify: false,
				options: { onRateLimit: 'wait', maxWaitMinutes: 180 },
			});
			const before = clock.now;
			const out = jsonOf(await run(sim, workflow, { key: ENTERPRISE }));
			expect(sorted(ids(out))).toEqual(sorted(expected));
			// waited in virtual time for two resets
			expect(clock.now - before).toBeGreaterThan(3_600_000);
			record.checks.rateLimit = `waited ${Math.round((clock.now - before) / 60_000)} min (virtual), complete`;
		} finally {
			await admin(sim, 'POST', '/limits', { mode: 'off' });
		}
	});
});

test('the matrix covers the four required cells', () => {
	for (const name of [
		'the decisions',
		'announced filters ignored',
		'announced routes absent',
		'anonymization ignored',
	]) {
		expect(CELLS.map((c) => c.name)).toContain(name);
	}
	expect(NOW_MS).toBeGreaterThan(0);
});
