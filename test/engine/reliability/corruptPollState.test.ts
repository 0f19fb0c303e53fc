/**
 * The poll trigger's saved state as hostile input. n8n keeps the state in the workflow's static
 * data: a database row anyone with access can edit, an old version can have written, a bug can
 * have mangled. Threat: a corrupt or implausible state makes the trigger pass a mention on again,
 * skip mentions without saying so, or fail identically on every poll forever.
 *
 * Each case builds a real state (activation and three checks against the simulator, nine mentions
 * passed on), collects two more mentions the trigger has not seen yet ("pending"), corrupts ONE
 * field of the saved state (or the whole of it), and then polls ten more times while mentions keep
 * arriving (quiet checks in between, so a notice has a check with nothing to pass on). Then:
 * - no mention is passed on twice (before and after the corruption together);
 * - every mention collected after the corruption is passed on; a pending one may be missing only
 *   when the repair notice said that mentions may have been missed (and only those collected before
 *   the check that said it, when the trigger had to start again);
 * - the repair is reported once, as the error of one check, and the next checks are quiet and
 *   normal; the trigger never fails on every poll; the state it leaves loads without repairs.
 *
 * The last tests are the same threat from the server: one mention whose collectedAt is an hour or a
 * year ahead (a server that sends it in every page that covers it, built on the simulator's
 * ground truth by test/support/servers/pageServer.ts), then ordinary mentions: every later mention is
 * still passed on, the future one exactly once.
 *
 * The simulator's clock is frozen and moved by the test (with the node's clock), so twenty minutes
 * of polling take a fraction of a second; its hourly limits are off (the budget is tested through
 * the state's own budget field).
 */
import type { IDataObject } from 'n8n-workflow';

import { loadState, STATE_KEY } from '../../../nodes/SentiOne/trigger/poll/pollState';
import { admin, createProject, type Sim, groundTruth } from '../../support/simulator';
import { PollHarness, type PollOutcome, pollParameters } from '../../support/triggers';
import { hostilePages } from '../../support/servers/pageServer';
import { MINUTE, HOUR } from '../../support/time';
import { type SimClock, useSimulator } from '../../support/simClock';
import { idsOf, tally } from '../../support/tally';
import { type ResultRow, writePart } from '../../support/results';
import { credentials } from '../../support/engine';
import { BASIC } from '../../support/keys';

jest.setTimeout(60_000);

const YEAR = 365 * 24 * HOUR;
const NODE_KEY = 'node:SentiOne';
/** The round key the trigger writes for these parameters (Search: recent, no filters, collectedAt scan). */
const ROUND_KEY = JSON.stringify({ source: 'recent', filters: {}, mode: 'collectedAt' });
const ROUND_BODY = JSON.stringify({
	filters: { collectedAt: { from: '2026-11-21T10:00:00.000Z' } },
	sortType: 'CollectedAtAscending',
});

let sim: Sim;
let clock: SimClock;

useSimulator(['--limits', 'off', '--projects', '1', '--mentions', '5'], (started, simClock) => {
	sim = started;
	clock = simClock;
});

interface StateView extends IDataObject {
	watermark: number;
	seen: Array<[string, number]>;
}

/**
 * How the trigger must tell about the corruption after it:
 * - repair: one check fails with the repair notice, exactly once;
 * - restart: the same, and the notice says it started again from the newest mention;
 * - budget: one check reports the spent budget, exactly once;
 * - quiet: a value the trigger may simply correct (a cache, a clamp): no error at all, or at most
 *   one repair notice.
 */
type Report = 'repair' | 'restart' | 'budget' | 'quiet';

interface Corruption {
	field: string;
	name: string;
	mutate: (state: StateView, now: number) => unknown;
	report: Report;
	/** a check of the simulator's request log after the run (the corruption really took effect) */
	logCheck?: (log: Array<{ query: Record<string, string>; status: number | null }>) => void;
}

const withField =
	(field: string, value: (state: StateView, now: number) => unknown) =>
	(state: StateView, now: number) => ({ ...state, [field]: value(state, now) });
const round = (fields: IDataObject) =>
	withField('round', () => ({ body: ROUND_BODY, key: ROUND_KEY, cursor: 'c', ...fields }));
const budget = (value: (now: number) => unknown) => withField('budget', (_s, now) => value(now));

const CORRUPTIONS: Corruption[] = [
	// the watermark
	{
		field: 'watermark',
		name: 'a string',
		mutate: withField('watermark', () => 'yesterday'),
		report: 'repair',
	},
	{
		field: 'watermark',
		name: 'NaN (in memory, before n8n saves it)',
		mutate: withField('watermark', () => NaN),
		report: 'repair',
	},
	{
		field: 'watermark',
		name: 'negative',
		mutate: withField('watermark', () => -1),
		report: 'repair',
	},
	{
		field: 'watermark',
		name: 'an hour ahead',
		mutate: withField('watermark', (_s, now) => now + HOUR),
		report: 'repair',
	},
	{
		field: 'watermark',
		name: 'a year ahead',
		mutate: withField('watermark', (_s, now) => now + YEAR),
		report: 'repair',
	},
	{
		field: 'watermark',
		name: '1e20',
		mutate: withField('watermark', () => 1e20),
		report: 'repair',
	},
	// the version
	{
		field: 'version',
		name: 'an unknown version (99)',
		mutate: withField('v', () => 99),
		report: 'repair',
	},
	{
		field: 'version',
		name: 'the version as text ("2")',
		mutate: withField('v', () => '2'),
		report: 'repair',
	},
	{
		field: 'version',
		name: 'no version',
		mutate: (s) => Object.fromEntries(Object.entries(s).filter(([key]) => key !== 'v')),
		report: 'repair',
	},
	// the ids passed on
	{
		field: 'seen',
		name: 'not a list (text)',
		mutate: withField('seen', () => 'a,b,c'),
		report: 'repair',
	},
	{
		field: 'seen',
		name: 'not a list (an object)',
		mutate: withField('seen', (s) => Object.fromEntries(s.seen)),
		report: 'repair',
	},
	{
		field: 'seen',
		name: 'a list with some bad entries (null, a number, a text, [id], [1, 2], ["", t])',
		mutate: withField('seen', (s, now) => [
			...s.seen,
			null,
			5,
			'an-id',
			['only-an-id'],
			[1, 2],
			['', now],
		]),
		report: 'repair',
	},
	{
		field: 'seen',
		name: 'entries with bad times (text, NaN, negative, 1e20)',
		mutate: withField('seen', (s) =>
			s.seen.map(([id, at], i) =>
				i % 2 === 1 ? [id, ['garbage', NaN, -1, 1e20][(i >> 1) % 4]] : [id, at],
			),
		),
		report: 'repair',
	},
	{
		field: 'seen',
		name: 'entries dated a year ahead',
		mutate: withField('seen', (s) => s.seen.map(([id, at]) => [id, at + YEAR])),
		report: 'quiet',
	},
	// the floor
	{ field: 'floor', name: 'a string', mutate: withField('floor', () => 'low'), report: 'repair' },
	{ field: 'floor', name: 'NaN', mutate: withField('floor', () => NaN), report: 'repair' },
	{ field: 'floor', name: 'negative', mutate: withField('floor', () => -1), report: 'repair' },
	{
		field: 'floor',
		name: 'an hour ahead',
		mutate: withField('floor', (_s, now) => now + HOUR),
		report: 'repair',
	},
	{
		field: 'floor',
		name: 'a year ahead',
		mutate: withField('floor', (_s, now) => now + YEAR),
		report: 'repair',
	},
	// the unfinished round
	{
		field: 'round',
		name: 'a cursor the server does not know',
		mutate: round({ cursor: 'not-a-cursor' }),
		report: 'quiet',
		logCheck: (log) =>
			expect(log.some((r) => r.query.cursor === 'not-a-cursor' && r.status === 400)).toBe(true),
	},
	{
		field: 'round',
		name: 'a cursor that is not text (42)',
		mutate: round({ cursor: 42 }),
		report: 'repair',
	},
	{
		field: 'round',
		name: 'a 1 MB cursor',
		mutate: round({ cursor: 'c'.repeat(1 << 20) }),
		report: 'repair',
	},
	{
		field: 'round',
		name: 'a body that is not JSON',
		mutate: round({ body: '{"filters":' }),
		report: 'repair',
	},
	{
		field: 'round',
		name: 'a body that is JSON null',
		mutate: round({ body: 'null' }),
		report: 'repair',
	},
	{
		field: 'round',
		name: 'a body that is a JSON list',
		mutate: round({ body: '[]' }),
		report: 'quiet',
	},
	{
		field: 'round',
		name: 'not an object',
		mutate: withField('round', () => 'page 2'),
		report: 'repair',
	},
	// the budget last seen
	{
		field: 'budget',
		name: 'remaining 0, reset a year ahead',
		mutate: budget((now) => ({ limit: 30, remaining: 0, resetAt: now + YEAR })),
		report: 'quiet',
	},
	{
		field: 'budget',
		name: 'remaining 0, reset in Unix seconds instead of ms',
		mutate: budget((now) => ({
			limit: 30,
			remaining: 0,
			resetAt: Math.floor((now + 30 * MINUTE) / 1000),
		})),
		report: 'quiet',
	},
	{
		field: 'budget',
		name: 'remaining 0, reset 2 hours in the past',
		mutate: budget((now) => ({ limit: 30, remaining: 0, resetAt: now - 2 * HOUR })),
		report: 'quiet',
	},
	{
		field: 'budget',
		name: 'every field a string',
		mutate: budget(() => ({ limit: 'many', remaining: '0', resetAt: 'soon', reported: 'yes' })),
		report: 'quiet',
	},
	{ field: 'budget', name: 'not an object', mutate: budget(() => 'spent'), report: 'quiet' },
	{
		field: 'budget',
		name: 'remaining 0, a plausible reset 3 minutes ahead (in ms)',
		mutate: budget((now) => ({ limit: 30, remaining: 0, resetAt: now + 3 * MINUTE })),
		report: 'budget',
	},
	// how new mentions are found
	{
		field: 'mode',
		name: 'garbage ("sideways")',
		mutate: withField('mode', () => 'sideways'),
		report: 'repair',
	},
	{ field: 'mode', name: 'a number', mutate: withField('mode', () => 42), report: 'repair' },
	// the project
	{
		field: 'project',
		name: 'the project ID as text',
		mutate: withField('projectId', (s) => String(s.projectId)),
		report: 'repair',
	},
	// the bookkeeping
	{
		field: 'bookkeeping',
		name: 'lastNew, lateAt, told and pending unreadable',
		mutate: (s) => ({
			...s,
			lastNew: -7,
			lateAt: 'late',
			told: 5,
			pending: [1, { text: 'x' }, null],
		}),
		report: 'quiet',
	},
	// the whole state
	{ field: 'whole state', name: 'a string', mutate: () => 'corrupt', report: 'restart' },
	{ field: 'whole state', name: 'a number', mutate: () => 42, report: 'restart' },
	{ field: 'whole state', name: 'an array', mutate: (s) => [s], report: 'restart' },
	{ field: 'whole state', name: 'an empty object', mutate: () => ({}), report: 'restart' },
	{ field: 'whole state', name: 'null', mutate: () => null, report: 'restart' },
];

interface CaseResult {
	c: Corruption;
	/** mentions collected after the corruption, plus the pending ones */
	items: number;
	lost: string[];
	duplicated: string[];
	excused: number;
	errors: string[];
	/** index of each check after the corruption that failed */
	failedChecks: number[];
	checks: number;
	finalRepairs: string[];
	ok?: boolean;
}

const results: CaseResult[] = [];

async function injectAt(projectId: number, at: number): Promise<string> {
	const r = await admin<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
		projectId,
		count: 1,
		collectedAt: new Date(at).toISOString(),
	});
	return r.mentions[0].id;
}

const sorted = (ids: string[]) => ids.slice().sort();

/** Checks after the corruption: which of them collect two mentions first (the others are quiet). */
const SCHEDULE = [true, true, true, true, true, true, false, false, true, false];

async function corruptAndContinue(c: Corruption): Promise<CaseResult> {
	const projectId = await createProject(sim, `State ${c.field}`, 'acme');
	const params = pollParameters(projectId);
	const creds = credentials(sim, BASIC);
	let harness = new PollHarness(params, creds);
	const emitted: string[] = [];

	// a real state: activation, then three checks passing on three mentions each
	await clock.advance(1000);
	const activation = await harness.poll('activate');
	expect(activation.error).toBeUndefined();
	const before: string[] = [];
	for (let i = 0; i < 3; i++) {
		await clock.advance(MINUTE);
		for (const ago of [30_000, 20_000, 10_000])
			before.push(await injectAt(projectId, clock.now - ago));
		const outcome = await harness.poll();
		expect(outcome.error).toBeUndefined();
		emitted.push(...idsOf(outcome.items ?? []));
	}
	expect(sorted(emitted)).toEqual(sorted(before));

	// collected since the last good check, not passed on yet
	await clock.advance(MINUTE);
	const pending = [
		await injectAt(projectId, clock.now - 20_000),
		await injectAt(projectId, clock.now - 10_000),
	];

	// one field corrupted in the saved static data (an object, not a JSON copy: NaN stays NaN)
	const data = JSON.parse(JSON.stringify(harness.workflow.staticData)) as IDataObject;
	delete data.__dataChanged;
	const nodeData = data[NODE_KEY] as IDataObject;
	nodeData[STATE_KEY] = c.mutate(nodeData[STATE_KEY] as StateView, clock.now) as IDataObject;
	harness = new PollHarness(params, creds, data);

	const after: string[][] = [];
	const outcomes: PollOutcome[] = [];
	for (const collects of SCHEDULE) {
		await clock.advance(MINUTE);
		const batch: string[] = [];
		if (collects)
			for (const ago of [20_000, 10_000]) batch.push(await injectAt(projectId, clock.now - ago));
		after.push(batch);
		const outcome = await harness.poll();
		outcomes.push(outcome);
		emitted.push(...idsOf(outcome.items ?? []));
	}

	const errors = outcomes.filter((o) => o.error).map((o) => o.error!.message);
	const failedChecks = outcomes.map((o, i) => (o.error ? i : -1)).filter((i) => i >= 0);
	// what a notice allows to be missing: the pending mentions when it says mentions may have been
	// missed; everything collected before the check that says the trigger started again
	const restartAt = outcomes.findIndex((o) =>
		/started again from the newest matching mention/.test(o.error?.message ?? ''),
	);
	const saysMissed = errors.some((m) => /may have been missed|may not have been passed on/.test(m));
	const excused = new Set<string>([
		...(saysMissed ? pending : []),
		...(restartAt >= 0 ? after.slice(0, restartAt + 1).flat() : []),
	]);
	const expected = [...pending, ...after.flat()];
	// the simulator's ground truth is exactly what the test collected
	const truth = await groundTruth(sim, projectId);
	expect(sorted(truth)).toEqual(sorted([...before, ...expected]));
	const t = tally(emitted, truth);
	const lost = t.lost.filter((id) => !excused.has(id));
	const finalRepairs = loadState(harness.staticData(), projectId, clock.now).repairs;
	const result: CaseResult = {
		c,
		items: expected.length,
		lost,
		duplicated: t.duplicated,
		excused: t.lost.length - lost.length,
		errors,
		failedChecks,
		checks: outcomes.length,
		finalRepairs,
	};
	results.push(result);
	return result;
}

function expectReported(result: CaseResult): void {
	const { c, errors } = result;
	if (c.report === 'quiet') {
		expect(errors.length).toBeLessThanOrEqual(1);
		for (const message of errors)
			expect(message).toMatch(/^The trigger's saved state was repaired: /);
		return;
	}
	expect(errors).toHaveLength(1);
	if (c.report === 'budget') expect(errors[0]).toMatch(/search budget is used up/);
	else expect(errors[0]).toMatch(/^The trigger's saved state was repaired: /);
	if (c.report === 'restart')
		expect(errors[0]).toMatch(/started again from the newest matching mention/);
}

describe.each([...new Set(CORRUPTIONS.map((c) => c.field))])(
	'saved state: %s corrupted',
	(field) => {
		test.each(CORRUPTIONS.filter((c) => c.field === field).map((c) => [c.name, c] as const))(
			'%s → nothing twice, nothing skipped silently, reported once',
			async (_name, c) => {
				const result = await corruptAndContinue(c);
				// no mention passed on twice
				expect(result.duplicated).toEqual([]);
				// every mention collected after the corruption arrives (missing pending ones only when told)
				expect(result.lost).toEqual([]);
				// reported once, as the error of one check
				expectReported(result);
				// never failing on every poll: the last checks are normal
				expect(result.failedChecks.filter((i) => i >= SCHEDULE.length - 3)).toEqual([]);
				// the state it leaves is sound
				expect(result.finalRepairs).toEqual([]);
				if (c.logCheck)
					c.logCheck(
						await admin<{
							requests: Array<{ query: Record<string, string>; status: number | null }>;
						}>(sim, 'GET', '/requests').then((r) => r.requests),
					);
				result.ok = true;
			},
		);
	},
);

// --- the same threat from the server: a collectedAt in the future ------------------------------

interface FutureResult {
	ahead: string;
	ordinary: number;
	lost: number;
	duplicated: number;
	futureTimes: number;
	checks: number;
	failedChecks: number;
	ok?: boolean;
}

const futureResults: FutureResult[] = [];

describe('a mention whose collectedAt is in the future, sent by the server in every page that covers it', () => {
	test.each([
		['an hour', HOUR, 75],
		['a year', YEAR, 30],
	] as const)(
		'%s ahead, then ordinary mentions: every later mention passed on, the future one exactly once',
		async (ahead, offset, checks) => {
			const projectId = await createProject(sim, 'Future collectedAt', 'acme');
			let future: IDataObject | undefined;
			const server = hostilePages(sim, projectId, () => (future ? [future] : []));
			try {
				const harness = new PollHarness(pollParameters(projectId), credentials(sim, BASIC));
				await clock.advance(1000);
				expect((await harness.poll('activate')).error).toBeUndefined();
				const ordinary: string[] = [];
				const emitted: string[] = [];
				let failed = 0;
				for (let k = 0; k < checks; k++) {
					await clock.advance(MINUTE);
					ordinary.push(
						await injectAt(projectId, clock.now - 30_000),
						await injectAt(projectId, clock.now - 10_000),
					);
					if (k === 1) {
						// a copy of a real mention of the project, collected `offset` after the server's now
						const truth = await admin<{ mentions: IDataObject[] }>(
							sim,
							'GET',
							`/mentions?projectId=${projectId}&full=1`,
						);
						future = {
							...truth.mentions[0],
							id: `future-${ahead.replace(/\W/g, '')}`,
							collectedAt: new Date(clock.now + offset).toISOString(),
						};
					}
					const outcome = await harness.poll();
					if (outcome.error) failed++;
					emitted.push(...idsOf(outcome.items ?? []));
				}
				const truth = await groundTruth(sim, projectId);
				expect(sorted(truth)).toEqual(sorted(ordinary));
				const t = tally(emitted, [...truth, String(future!.id)]);
				const result: FutureResult = {
					ahead,
					ordinary: ordinary.length,
					lost: t.lost.length,
					duplicated: t.duplicated.length,
					futureTimes: emitted.filter((id) => id === future!.id).length,
					checks,
					failedChecks: failed,
				};
				futureResults.push(result);
				expect(server.pages).toBeGreaterThanOrEqual(checks);
				expect(t.lost).toEqual([]);
				expect(result.futureTimes).toBe(1);
				expect(t.duplicated).toEqual([]);
				expect(failed).toBe(0);
				result.ok = true;
			} finally {
				server.uninstall();
			}
		},
	);
});

afterAll(() => {
	const rows: ResultRow[] = [];
	for (const field of [...new Set(results.map((r) => r.c.field))]) {
		const list = results.filter((r) => r.c.field === field);
		const bugs = list.filter((r) => !r.ok);
		const reported = list.filter((r) => r.errors.length === 1).length;
		const describe = (r: CaseResult) => {
			const what: string[] = [];
			if (r.duplicated.length > 0) what.push(`${r.duplicated.length} passed on twice`);
			if (r.lost.length > 0)
				what.push(`${r.lost.length} of ${r.items} never passed on, without a notice saying so`);
			if (r.failedChecks.length > 1)
				what.push(
					`${r.failedChecks.length} of ${r.checks} checks failed (${r.errors[r.errors.length - 1].slice(0, 80)})`,
				);
			else if (r.c.report !== 'quiet' && r.errors.length === 0) what.push('never reported');
			else if (
				r.errors.length === 1 &&
				r.c.report !== 'budget' &&
				!/^The trigger's saved state was repaired/.test(r.errors[0])
			)
				what.push(`reported as "${r.errors[0].slice(0, 80)}…"`);
			if (r.finalRepairs.length > 0) what.push('left a state that still needs repair');
			return `${r.c.name}: ${what.join(', ') || 'failed'}`;
		};
		rows.push({
			fault: `saved state: ${field} corrupted (${list.map((r) => r.c.name).join('; ')})`,
			through: 'SentiOne Trigger (poll), static data corrupted between two checks',
			cases: list.length,
			items: list.reduce((n, r) => n + r.items, 0),
			lost: list.reduce((n, r) => n + r.lost.length, 0),
			duplicated: list.reduce((n, r) => n + r.duplicated.length, 0),
			outcome:
				bugs.length > 0
					? `BUG: ${bugs.map(describe).join('; ')}`
					: `repaired; ${reported} reported once as the error of one check, the others corrected quietly; the next checks normal${list.some((r) => r.excused > 0) ? `; ${list.reduce((n, r) => n + r.excused, 0)} mentions collected before the repair missed, as its notice said` : ''}`,
		});
	}
	for (const r of futureResults) {
		rows.push({
			fault: `a mention whose collectedAt is ${r.ahead} ahead, in every page that covers it, then ordinary mentions`,
			through: 'SentiOne Trigger (poll), hostile pages on the simulator',
			cases: r.checks,
			items: r.ordinary + 1,
			lost: r.lost,
			duplicated: r.duplicated,
			outcome: r.ok
				? 'the watermark is clamped to now + 5 min: every later mention passed on, the future one once'
				: `BUG: the future mention was passed on ${r.futureTimes} times over ${r.checks} checks${r.lost > 0 ? `, ${r.lost} mentions lost` : ''}${r.failedChecks > 0 ? `, ${r.failedChecks} checks failed` : ''}`,
		});
	}
	writePart({
		part: 'poll-state',
		title: 'SentiOne Trigger: a corrupt saved state',
		command: 'npx jest test/engine/reliability/corruptPollState.test.ts',
		rows,
		figures: {
			cases: results.length + futureResults.length,
			passed: results.filter((r) => r.ok).length + futureResults.filter((r) => r.ok).length,
			checksAfterCorruption: results.reduce((n, r) => n + r.checks, 0),
			mentionsAfterCorruption: results.reduce((n, r) => n + r.items, 0),
			lost: results.reduce((n, r) => n + r.lost.length, 0),
			duplicated: results.reduce((n, r) => n + r.duplicated.length, 0),
			excusedByNotice: results.reduce((n, r) => n + r.excused, 0),
			reportedOnce: results.filter((r) => r.errors.length === 1).length,
			future: futureResults.map(({ ahead, futureTimes, lost, duplicated }) => ({
				ahead,
				futureTimes,
				lost,
				duplicated,
			})),
		},
	});
});
