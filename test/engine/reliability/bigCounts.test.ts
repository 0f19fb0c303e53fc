/**
 * Counts a JavaScript number cannot hold (issue 21 item 7, D-51): the simulator's variant
 * `bigCounts=on` writes the counts of about one mention in eight as integers above 2^53, exact in
 * the JSON text, and its admin ground truth gives them as strings (`exactCounts`). Through n8n's
 * engine every such count must come out exact: beside the number as `<count>Exact` in searches,
 * exports (Server-Sent Events and JSON Lines) and the Stream Trigger, and as the exact digits in
 * Simplify's column; mentions whose counts are ordinary gain nothing.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { jsonOf, loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { BASIC, ENTERPRISE } from '../../support/keys';
import { type ResultRow, writePart } from '../../support/results';
import { useSimulator } from '../../support/simClock';
import { addMentions, admin, emptyProject, HEARTBEAT_MS, type Sim } from '../../support/simulator';
import { activateStreamTrigger, projectParam, streamParameters } from '../../support/triggers';

jest.setTimeout(120_000);

let sim: Sim;
/** mention id → (path of a count → its exact digits), for the mentions with counts above 2^53 */
const exact = new Map<string, Record<string, string>>();
const PROJECT = 1001;

useSimulator(
	[
		'--projects',
		'1',
		'--mentions',
		'120',
		'--heartbeat-ms',
		String(HEARTBEAT_MS),
		'--variant',
		'bigCounts=on',
	],
	(started) => (sim = started),
	{ reset: 'none' },
);
beforeAll(async () => {
	await admin(sim, 'POST', '/limits', { mode: 'off' });
	await readTruth(PROJECT);
});

async function readTruth(projectId: number): Promise<void> {
	const { mentions } = await admin<{
		mentions: Array<{ id: string; exactCounts?: Record<string, string> }>;
	}>(sim, 'GET', `/mentions?projectId=${projectId}`);
	for (const m of mentions) if (m.exactCounts) exact.set(m.id, m.exactCounts);
}

function at(value: unknown, path: string[]): unknown {
	let current = value;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

interface Check {
	mentions: number;
	big: number;
	counts: number;
	wrong: string[];
}

/** Every exact count of the ground truth is beside its number; no mention gains one it should not. */
function checkRaw(rows: IDataObject[]): Check {
	const check: Check = { mentions: rows.length, big: 0, counts: 0, wrong: [] };
	for (const row of rows) {
		const truth = exact.get(String(row.id));
		const text = JSON.stringify(row);
		if (!truth) {
			if (/Exact"/.test(text)) check.wrong.push(`${String(row.id)}: an Exact it should not have`);
			continue;
		}
		check.big++;
		for (const [path, digits] of Object.entries(truth)) {
			check.counts++;
			const parts = path.split('.');
			const name = parts.pop() as string;
			const holder = at(row, parts);
			const got = at(holder, [`${name}Exact`]);
			if (got !== digits) check.wrong.push(`${String(row.id)} ${path}: ${String(got)} ≠ ${digits}`);
			if (at(holder, [name]) !== Number(digits))
				check.wrong.push(`${String(row.id)} ${path}: the number changed`);
		}
	}
	return check;
}

/** Simplify: the column of each such count is its exact digits. */
function checkSimplified(rows: IDataObject[]): Check {
	const column: Record<string, string> = {
		'engagementMetrics.sourceMetrics.common.likeCount': 'likeCount',
		'engagementMetrics.sourceMetrics.common.shareCount': 'shareCount',
		'engagementMetrics.sourceMetrics.common.commentCount': 'commentCount',
		'engagementMetrics.sourceMetrics.common.viewCount': 'viewCount',
		'author.influenceMetrics.followerCount': 'authorFollowers',
	};
	const check: Check = { mentions: rows.length, big: 0, counts: 0, wrong: [] };
	for (const row of rows) {
		const truth = exact.get(String(row.id));
		if (!truth) continue;
		check.big++;
		for (const [path, digits] of Object.entries(truth)) {
			if (!(path in column)) continue;
			check.counts++;
			if (row[column[path]] !== digits)
				check.wrong.push(`${String(row.id)} ${column[path]}: ${String(row[column[path]])}`);
		}
	}
	return check;
}

const results: Array<{ through: string } & Check> = [];

const search = (simplify: boolean) =>
	withParameters(loadWorkflow('mention-search-historical'), {
		project: { __rl: true, value: String(PROJECT), mode: 'id' },
		returnAll: true,
		filters: {},
		simplify,
		options: {},
	});

test('Search Historical, Return All: every count above 2^53 exact beside its number', async () => {
	const rows = jsonOf(await run(sim, search(false), { key: ENTERPRISE }));
	const check = checkRaw(rows);
	expect(check.wrong).toEqual([]);
	expect(check.big).toBeGreaterThan(0);
	results.push({ through: 'Search Historical', ...check });
});

test('Search Historical with Simplify: the columns hold the exact digits', async () => {
	const rows = jsonOf(await run(sim, search(true), { key: ENTERPRISE }));
	const check = checkSimplified(rows);
	expect(check.wrong).toEqual([]);
	expect(check.counts).toBeGreaterThan(0);
	results.push({ through: 'Search Historical, Simplify', ...check });
});

test.each(['sse', 'jsonLines'])('Export (%s): every count exact', async (streamFormat) => {
	const workflow = withParameters(loadWorkflow('mention-export'), {
		project: { __rl: true, value: String(PROJECT), mode: 'id' },
		exportScope: 'historical',
		returnAll: true,
		filters: {},
		simplify: false,
		options: { streamFormat },
	});
	const result = await run(sim, workflow, { key: ENTERPRISE });
	expect(result.nodeError(NODE)).toBeUndefined();
	const rows = jsonOf(result);
	const check = checkRaw(rows);
	expect(check.wrong).toEqual([]);
	expect(check.big).toBeGreaterThan(0);
	results.push({ through: `Export (${streamFormat})`, ...check });
});

test('Stream Trigger: live mentions keep their exact counts', async () => {
	const projectId = await emptyProject(sim, 'big counts live');
	const trigger = await activateStreamTrigger(
		streamParameters({ project: projectParam(projectId) }) as INodeParameters,
		{ apiKey: BASIC, baseUrl: sim.base },
	);
	try {
		await addMentions(sim, projectId, 40);
		await trigger.until(() => trigger.items().length >= 40);
		await readTruth(projectId);
		const check = checkRaw(trigger.items());
		expect(check.wrong).toEqual([]);
		expect(check.big).toBeGreaterThan(0);
		expect(trigger.errors).toEqual([]);
		results.push({ through: 'Stream Trigger (live)', ...check });
	} finally {
		await trigger.close();
	}
});

afterAll(() => {
	const rows: ResultRow[] = [
		{
			fault: 'counts above 2^53 (bigCounts=on)',
			through: results.map((r) => r.through).join(', '),
			cases: results.length,
			items: results.reduce((n, r) => n + r.counts, 0),
			lost: results.reduce((n, r) => n + r.wrong.length, 0),
			duplicated: 0,
			outcome: `every such count exact (beside the number as <count>Exact; Simplify's column holds the digits), in ${results.reduce((n, r) => n + r.big, 0)} mentions of ${results.reduce((n, r) => n + r.mentions, 0)}`,
		},
	];
	writePart({
		part: 'big-counts',
		title: 'Counts above 2^53',
		command: 'npx jest test/engine/reliability/bigCounts.test.ts',
		rows,
		notes: [
			'"Items" counts the counts above 2^53 checked against the simulator\'s ground truth (exactCounts); "Lost" counts those not exact (D-51).',
		],
		figures: { results },
	});
});
