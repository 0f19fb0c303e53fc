/**
 * Cursors that mean "the end" (issue 21 item 7): a server whose last page says `"cursor": ""` or
 * `"cursor": "  "` (simulator variant `lastCursor=blank|whitespace`) refuses such a cursor sent back
 * (400 `cursor is invalid.`). Every list the node pages through stops there, with everything the
 * server had and no request more: both searches (Return All), Project → Get Many, Tag → Get Many,
 * and a poll trigger working off a backlog over several checks (its saved round). The default
 * (`null`) runs the same assertions as the baseline.
 */
import type { IDataObject } from 'n8n-workflow';

import { jsonOf, loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import { type SimClock, useSimulator } from '../../support/simClock';
import {
	addMentions,
	admin,
	emptyProject,
	groundTruth,
	type LoggedRequest,
	projectWithMentions,
	requestLog,
	type Sim,
	tagFirstMention,
} from '../../support/simulator';
import { idsOf, tally } from '../../support/tally';
import { MINUTE } from '../../support/time';
import { PollHarness, pollParameters } from '../../support/triggers';

jest.setTimeout(120_000);

let sim: Sim;
let clock: SimClock;
/** 60 mentions: pages of 25, 25, 10 */
let mentionProject: number;
/** a mention carrying 130 tags: pages of 100 and 30 */
const TAGS = 130;
let tagProject: number;

useSimulator(
	['--projects', '45', '--mentions', '3'],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
beforeAll(async () => {
	await admin(sim, 'POST', '/limits', {
		hourly: { search: 100_000, projects: 100_000, tags: 100_000 },
	});
	mentionProject = await projectWithMentions(sim, 60);
	tagProject = 1001;
	await tagFirstMention(sim, tagProject, TAGS);
});

const VARIANTS = ['null', 'blank', 'whitespace'] as const;

interface Case {
	operation: string;
	variant: string;
	rows: number;
	expected: number;
	requests: number;
	refused: number;
}
const cases: Case[] = [];

/**
 * What a list holds, read under the default variant (`null` on the last page), then the variant
 * of the test back.
 */
async function underDefault(
	fixture: string,
	key: string,
	parameters: IDataObject,
	id: (row: IDataObject) => string,
): Promise<string[]> {
	const { lastCursor } = await admin<{ lastCursor: string }>(sim, 'GET', '/variant');
	await admin(sim, 'POST', '/variant', { lastCursor: 'null' });
	try {
		const result = await run(
			sim,
			withParameters(loadWorkflow(fixture), { ...parameters, returnAll: true }),
			{ key },
		);
		return jsonOf(result).map(id);
	} finally {
		await admin(sim, 'POST', '/variant', { lastCursor });
	}
}

const refusedIn = (log: LoggedRequest[]) => log.filter((r) => r.status === 400).length;

const operations: Array<{
	name: string;
	key: string;
	workflow: () => ReturnType<typeof loadWorkflow>;
	truth: () => Promise<string[]>;
	id: (row: IDataObject) => string;
	group: string;
	pageSize: number;
}> = [
	{
		name: 'Search Recent',
		key: BASIC,
		workflow: () =>
			withParameters(loadWorkflow('mention-search-recent'), {
				project: { __rl: true, value: String(mentionProject), mode: 'id' },
				returnAll: true,
				filters: {},
				sortType: 'CollectedAtAscending',
				options: {},
			}),
		truth: async () => await groundTruth(sim, mentionProject),
		id: (row) => String(row.id),
		group: 'search',
		pageSize: 25,
	},
	{
		name: 'Search Historical',
		key: ENTERPRISE,
		workflow: () =>
			withParameters(loadWorkflow('mention-search-historical'), {
				project: { __rl: true, value: String(mentionProject), mode: 'id' },
				returnAll: true,
				filters: {},
				sortType: 'CollectedAtAscending',
				options: {},
			}),
		truth: async () => await groundTruth(sim, mentionProject),
		id: (row) => String(row.id),
		group: 'search',
		pageSize: 25,
	},
	{
		name: 'Project → Get Many',
		key: BASIC,
		workflow: () => withParameters(loadWorkflow('project-get-many'), { returnAll: true }),
		truth: async () => await underDefault('project-get-many', BASIC, {}, (r) => String(r.id)),
		id: (row) => String(row.id),
		group: 'projects',
		pageSize: 20,
	},
	{
		name: 'Tag → Get Many',
		key: ENTERPRISE,
		workflow: () =>
			withParameters(loadWorkflow('tag-get-many'), {
				project: { __rl: true, value: String(tagProject), mode: 'id' },
				returnAll: true,
			}),
		truth: async () =>
			await underDefault(
				'tag-get-many',
				ENTERPRISE,
				{ project: { __rl: true, value: String(tagProject), mode: 'id' } },
				(r) => String(r.name),
			),
		id: (row) => String(row.name),
		group: 'tags',
		pageSize: 100,
	},
];

describe.each(VARIANTS)('lastCursor=%s', (variant) => {
	beforeEach(async () => {
		await admin(sim, 'POST', '/variant', { lastCursor: variant });
		await admin(sim, 'DELETE', '/requests');
	});
	afterAll(async () => {
		await admin(sim, 'DELETE', '/variant');
	});

	test.each(operations.map((o) => [o.name, o] as const))(
		'%s, Return All: every item once, no cursor sent back after the last page',
		async (_name, operation) => {
			const result = await run(sim, operation.workflow(), { key: operation.key });
			expect(result.nodeError(NODE)).toBeUndefined();
			const rows = jsonOf(result);
			const log = (await requestLog(sim)).filter((r) => r.group === operation.group);
			expect(refusedIn(log)).toBe(0);
			const ids = rows.map(operation.id);
			expect(new Set(ids).size).toBe(ids.length);
			if (operation.group === 'tags')
				expect(ids.filter((n) => n.startsWith('tag-'))).toHaveLength(TAGS);
			const truth = await operation.truth();
			expect(ids.sort()).toEqual(truth.sort());
			expect(ids.length).toBeGreaterThan(operation.pageSize);
			// the pages the items take, not one more (N items: ceil(N / page size) requests, D-20)
			expect(log).toHaveLength(Math.ceil(rows.length / operation.pageSize));
			cases.push({
				operation: operation.name,
				variant,
				rows: rows.length,
				expected: truth.length,
				requests: log.length,
				refused: refusedIn(log),
			});
		},
	);

	test('a poll trigger working off a backlog one page a check, then 5 more: each once, never a 400', async () => {
		const projectId = await emptyProject(sim, `end cursor ${variant}`);
		const harness = new PollHarness(
			pollParameters(projectId, { options: { maxRequestsPerPoll: 1, lateWindowMinutes: 0 } }),
			credentials(sim, BASIC),
		);
		await harness.poll('activate');
		await clock.advance(MINUTE);
		await addMentions(sim, projectId, 60);
		await clock.advance(MINUTE);
		const errors: string[] = [];
		let checks = 0;
		for (; checks < 10; checks++) {
			const outcome = await harness.poll();
			if (outcome.error) errors.push(outcome.error.message);
			if (outcome.items === null && checks > 0) break;
			await clock.advance(MINUTE);
		}
		// more arrive later: the next checks go on from where the last one ended
		await addMentions(sim, projectId, 5);
		await clock.advance(MINUTE);
		for (let more = 0; more < 3; more++) {
			const outcome = await harness.poll();
			if (outcome.error) errors.push(outcome.error.message);
			await clock.advance(MINUTE);
		}
		expect(errors).toEqual([]);
		const t = tally(idsOf(harness.allItems()), await groundTruth(sim, projectId));
		expect(t.expected).toBe(65);
		expect(t.lost).toEqual([]);
		expect(t.duplicated).toEqual([]);
		const log = (await requestLog(sim)).filter((r) => r.group === 'search');
		expect(refusedIn(log)).toBe(0);
		// a round it saves goes on from a real cursor, never from one that means the end
		const round = (harness.staticData().sentiOneMentions as IDataObject | undefined)?.round as
			| IDataObject
			| undefined;
		if (round) expect(String(round.cursor).trim()).not.toBe('');
		cases.push({
			operation: 'SentiOne Trigger (poll), backlog of 60 over checks of one page, then 5 more',
			variant,
			rows: t.emitted,
			expected: t.expected,
			requests: log.length,
			refused: refusedIn(log),
		});
	});
});

afterAll(() => {
	const rows: ResultRow[] = (['blank', 'whitespace'] as const).map((variant) => {
		const mine = cases.filter((c) => c.variant === variant);
		return {
			fault: `last page's cursor ${variant === 'blank' ? '""' : '"  "'} (lastCursor=${variant})`,
			through: 'Search Recent, Search Historical, Project → Get Many, Tag → Get Many, poll trigger',
			cases: mine.length,
			items: mine.reduce((n, c) => n + c.expected, 0),
			lost: mine.reduce((n, c) => n + Math.max(0, c.expected - c.rows), 0),
			duplicated: 0,
			outcome: `paging ends at the last page: ${mine.reduce((n, c) => n + c.requests, 0)} requests, ${mine.reduce((n, c) => n + c.refused, 0)} refused (400)`,
		};
	});
	writePart({
		part: 'end-cursors',
		title: 'Cursors that mean "the end"',
		command: 'npx jest test/engine/reliability/endCursors.test.ts',
		rows,
		notes: [
			'The simulator refuses a blank or whitespace cursor sent back (400), as a server writing the end that way would; the node reads such a cursor, like null or an absent one, as the end (pager.ts isEndCursor).',
		],
		figures: { cases },
	});
});
