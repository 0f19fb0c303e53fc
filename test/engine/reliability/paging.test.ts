/**
 * Paging under faults: a fault on a seededRandom page in the middle of a Return All, through the action
 * node in n8n's engine. A 429 that the node could not foresee (scripted, with the simulator's own
 * words and headers) either is waited out and the Return All resumes with the same cursor (no
 * duplicate, no gap), or stops with exactly the pages fetched and the reset time, or fails naming
 * the reset — as the user chose. A dropped connection, a cut JSON answer, a 502 page or a 503 on a
 * page is retried and the Return All completes with exactly the ground truth; three in a row fail
 * with a clear error and return nothing partial. The fault is armed right before the chosen request
 * leaves (RequestHook), so its position is exact.
 */
import type { IDataObject } from 'n8n-workflow';

import { admin, type Sim, projectWithMentions, tagFirstMention } from '../../support/simulator';
import { hintsOf, jsonOf, loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { RequestHook } from '../../support/probes';
import { type SimClock, useSimulator } from '../../support/simClock';
import { type ResultRow, writePart } from '../../support/results';
import { between, seededRandom } from '../../support/random';
import { type WorkflowJson } from '../../support/workflowJson';
import { ENTERPRISE } from '../../support/keys';

jest.setTimeout(120_000);

let sim: Sim;
let clock: SimClock;
const hook = new RequestHook();
const next = seededRandom(424242);

/** 110 mentions: 5 pages of 25 */
let mentionProject: number;
/** 250 tags: 3 pages of 100 */
let tagProject: number;
const truth: Record<string, string[]> = {};

useSimulator(
	['--projects', '45', '--mentions', '5'],
	(started, itsClock) => {
		sim = started;
		clock = itsClock;
	},
	{ reset: 'none' },
);
beforeAll(async () => {
	await admin(sim, 'POST', '/limits', {
		mode: 'spec',
		hourly: { search: 100_000, projects: 100_000, tags: 100_000 },
	});
	mentionProject = await projectWithMentions(sim, 110);
	tagProject = 1001;
	await tagFirstMention(sim, tagProject, 250);
	truth.mentions = (
		await admin<{ mentions: Array<{ id: string }> }>(
			sim,
			'GET',
			`/mentions?projectId=${mentionProject}`,
		)
	).mentions.map((m) => m.id);
	hook.install();
	// the project and tag lists without faults: what every faulty run must return
	hook.reset();
	truth.projects = jsonOf(await run(sim, operations.projects.workflow(), { key: ENTERPRISE })).map(
		(p) => String(p.id),
	);
	truth.tags = jsonOf(await run(sim, operations.tags.workflow(), { key: ENTERPRISE })).map((t) =>
		String(t.name),
	);
});
afterAll(async () => {
	hook.uninstall();
});

interface Operation {
	name: string;
	pageSize: number;
	pages: number;
	/** the id of a returned row */
	key: (row: IDataObject) => string;
	truth: () => string[];
	workflow: (options?: IDataObject) => WorkflowJson;
	/** whether the operation offers On Rate Limit (wait / stop / fail) */
	rateLimitChoice: boolean;
}

const search =
	(fixture: string) =>
	(options: IDataObject = {}) =>
		withParameters(loadWorkflow(fixture), {
			project: { __rl: true, value: String(mentionProject), mode: 'id' },
			returnAll: true,
			filters: {},
			sortType: 'CollectedAtAscending',
			simplify: true,
			options,
		});

const operations: Record<string, Operation> = {
	recent: {
		name: 'Search Recent',
		pageSize: 25,
		pages: 5,
		key: (r) => String(r.id),
		truth: () => truth.mentions,
		workflow: search('mention-search-recent'),
		rateLimitChoice: true,
	},
	historical: {
		name: 'Search Historical',
		pageSize: 25,
		pages: 5,
		key: (r) => String(r.id),
		truth: () => truth.mentions,
		workflow: search('mention-search-historical'),
		rateLimitChoice: true,
	},
	projects: {
		name: 'Project Get Many',
		pageSize: 20,
		pages: 3,
		key: (r) => String(r.id),
		truth: () => truth.projects,
		workflow: () => withParameters(loadWorkflow('project-get-many'), { returnAll: true }),
		rateLimitChoice: false,
	},
	tags: {
		name: 'Tag Get Many',
		pageSize: 100,
		pages: 3,
		key: (r) => String(r.name),
		truth: () => truth.tags,
		workflow: () =>
			withParameters(loadWorkflow('tag-get-many'), {
				project: { __rl: true, value: String(tagProject), mode: 'id' },
				returnAll: true,
			}),
		rateLimitChoice: false,
	},
};

type Fault =
	| '429 wait'
	| '429 stop'
	| '429 fail'
	| 'connection dropped'
	| 'connection dropped twice'
	| 'truncated JSON'
	| '502 HTML page'
	| '503'
	| 'connection dropped 3 times';

interface Case {
	operation: string;
	fault: Fault;
	/** the request (page) that meets the fault, 2 … last */
	page: number;
}

const SEARCH_FAULTS: Fault[] = [
	'429 wait',
	'429 stop',
	'429 fail',
	'connection dropped',
	'connection dropped twice',
	'truncated JSON',
	'502 HTML page',
	'503',
];
const LIST_FAULTS: Fault[] = ['429 fail', 'connection dropped', 'truncated JSON', '503'];

const cases: Case[] = [
	...['recent', 'historical'].flatMap((operation) =>
		SEARCH_FAULTS.map((fault) => ({
			operation,
			fault,
			page: between(next, 2, operations[operation].pages),
		})),
	),
	...['projects', 'tags'].flatMap((operation) =>
		LIST_FAULTS.map((fault) => ({
			operation,
			fault,
			page: between(next, 2, operations[operation].pages),
		})),
	),
	{ operation: 'recent', fault: 'connection dropped 3 times', page: between(next, 2, 5) },
	{ operation: 'tags', fault: 'connection dropped 3 times', page: 2 },
];

/** The scripted answer of a fault (the simulator's own words and headers for a 429). */
async function arm(fault: Fault): Promise<void> {
	const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
	const t = Date.parse(now);
	const reset = t - (t % 3_600_000) + 3_600_000;
	const respond: Record<Fault, { times: number; respond: IDataObject }> = {
		'429 wait': rateLimited(reset),
		'429 stop': rateLimited(reset),
		'429 fail': rateLimited(reset),
		'connection dropped': { times: 1, respond: { kind: 'reset' } },
		'connection dropped twice': { times: 2, respond: { kind: 'reset' } },
		'connection dropped 3 times': { times: 3, respond: { kind: 'reset' } },
		'truncated JSON': { times: 1, respond: { kind: 'truncated-json' } },
		'502 HTML page': { times: 1, respond: { kind: 'html', status: 502 } },
		'503': {
			times: 1,
			respond: { kind: 'json', status: 503, body: { message: 'Service unavailable.' } },
		},
	};
	await admin(sim, 'POST', '/faults', { script: [{ match: {}, ...respond[fault] }] });
}

function rateLimited(reset: number): { times: number; respond: IDataObject } {
	return {
		times: 1,
		respond: {
			kind: 'json',
			status: 429,
			body: {
				message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at ${new Date(reset).toISOString()}.`,
			},
			headers: {
				'x-rate-limit-limit': '30',
				'x-rate-limit-remaining': '0',
				'x-rate-limit-reset': String(reset / 1000),
			},
		},
	};
}

const results: Array<
	Case & { outcome: string; returned: number; lost: number; duplicated: number; requests: number }
> = [];

test.each(cases)(
	'$operation: $fault on page $page of a Return All',
	async ({ operation, fault, page }) => {
		const op = operations[operation];
		const expected = op.truth();
		await admin(sim, 'DELETE', '/faults');
		hook.reset(async (request) => {
			if (request.n === page) await arm(fault);
		});
		const choice = fault.startsWith('429 ') ? fault.slice(4) : undefined;
		const workflow = op.workflow(
			choice && op.rateLimitChoice
				? { onRateLimit: choice, ...(choice === 'wait' ? { maxWaitMinutes: 60 } : {}) }
				: {},
		);
		const result = await run(sim, workflow, { key: ENTERPRISE });
		const error = result.nodeError(NODE);
		const rows = error ? [] : result.output(NODE).map((item) => op.key(item.json));
		const returned = new Set(rows);
		const lost = expected.filter((id) => !returned.has(id)).length;
		const duplicated = rows.length - returned.size;
		let outcome: string;

		if (fault === '429 stop') {
			// exactly the pages before the 429, and a notice naming the reset
			expect(error).toBeUndefined();
			expect(rows).toEqual(expected.slice(0, (page - 1) * op.pageSize));
			const notice = hintsOf(result)
				.map((h) => h.message)
				.join(' ');
			expect(notice).toMatch(
				/Stopped after \d+ items? \(\d+ pages?\): the hourly budget is used up until \d{4}-\d{2}-\d{2} \d{2}:00 UTC \(in \d+ min\)/,
			);
			outcome = `stopped with the ${rows.length} items of the ${page - 1} pages before it and the reset time`;
		} else if (fault === '429 fail' || fault === 'connection dropped 3 times') {
			expect(error).toBeDefined();
			expect(result.output(NODE)).toEqual([]);
			if (fault === '429 fail') {
				expect(error!.message).toMatch(
					/budget is used up \(429\).*It resets at \d{4}-\d{2}-\d{2} \d{2}:00 UTC \(in \d+ min\)/,
				);
				outcome = 'failed naming the budget and the reset; nothing partial returned';
			} else {
				expect(error!.message).toMatch(
					/Could not reach SentiOne: .*\(after 3 attempts\)|connection/,
				);
				outcome = 'failed after 3 attempts with a network error; nothing partial returned';
			}
		} else {
			// waited out or retried: the same cursor again, exactly the ground truth, in order
			expect(error).toBeUndefined();
			expect(rows).toEqual(expected);
			outcome =
				fault === '429 wait'
					? `waited for the reset (${Math.round(clock.slept.reduce((a, b) => a + b, 0) / 60_000)} min, virtual), resumed`
					: 'retried, resumed';
		}
		results.push({
			operation: op.name,
			fault,
			page,
			outcome,
			returned: rows.length,
			lost: fault === '429 stop' ? 0 : error ? 0 : lost,
			duplicated,
			requests: hook.count,
		});
		expect(duplicated).toBe(0);
		clock.slept = [];
	},
);

afterAll(() => {
	const rows: ResultRow[] = [];
	const group = (
		fault: string,
		match: (r: (typeof results)[number]) => boolean,
		outcome: string,
	) => {
		const list = results.filter(match);
		if (list.length === 0) return;
		rows.push({
			fault,
			through: [...new Set(list.map((r) => r.operation))].join(', '),
			cases: list.length,
			items: list.reduce((n, r) => n + r.returned, 0),
			lost: list.reduce((n, r) => n + r.lost, 0),
			duplicated: list.reduce((n, r) => n + r.duplicated, 0),
			outcome,
		});
	};
	group(
		'429 mid Return All, On Rate Limit = Wait',
		(r) => r.fault === '429 wait',
		'waited for the reset, resumed with the same cursor: exactly the ground truth',
	);
	group(
		'429 mid Return All, On Rate Limit = Stop',
		(r) => r.fault === '429 stop',
		'the items of the pages before the 429, with a notice naming the reset time',
	);
	group(
		'429 mid Return All, On Rate Limit = Fail (the only choice of the list operations)',
		(r) => r.fault === '429 fail',
		'an error naming the budget and the reset; nothing partial',
	);
	group(
		'connection dropped (once or twice) mid Return All',
		(r) => r.fault.startsWith('connection dropped') && r.fault !== 'connection dropped 3 times',
		'retried, resumed with the same cursor: exactly the ground truth',
	);
	group(
		'connection dropped 3 times on one page',
		(r) => r.fault === 'connection dropped 3 times',
		'an error after 3 attempts; nothing partial',
	);
	group(
		'JSON answer cut short, 502 HTML page, 503 mid Return All',
		(r) => ['truncated JSON', '502 HTML page', '503'].includes(r.fault),
		'retried, resumed: exactly the ground truth',
	);
	writePart({
		part: 'paging',
		title: 'Paging under faults (action node)',
		command: 'npx jest test/engine/reliability/paging.test.ts',
		rows,
		figures: {
			cases: results.map(
				(r) =>
					`${r.operation}: ${r.fault} on page ${r.page} → ${r.returned} rows, ${r.requests} requests`,
			),
		},
	});
});
