/**
 * paginate() against the simulator: Return All and Limit cost exactly the pages they need
 * (ceil(N/25), 1 for N = 0), the items are the simulator's ground truth in order, a repeated cursor
 * is an error (never a loop), and the rate-limit choice (wait | stop | fail) is honoured when the
 * hourly budget runs out part-way.
 */
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../nodes/SentiOne/shared/contract';
import type { PaginateOptions } from '../../../nodes/SentiOne/shared/pager';
import { paginate } from '../../../nodes/SentiOne/shared/pager';
import type { ApiRequest } from '../../../nodes/SentiOne/shared/transport';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	addMentions,
	admin,
	api,
	createProject,
	type Loose,
	type Sim,
	nextHourOf,
	requestLog,
	script,
	startRealTimeSim,
} from '../../support/simulator';
import { SimClock } from '../../support/simClock';
import { expectNoKeysIn, failureOf, inNode, valueOf } from '../../support/inNode';
import { N8N_DEFAULT_ZONE, shownAt, shownAtPattern } from '../../support/shownTime';
import { credentials } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';
import { resetWaitBounds } from '../../support/time';

let sim: Sim;
/** project id by number of mentions */
const projectWith: Record<number, number> = {};
const SIZES = [0, 1, 25, 26, 100, 1000];
const BODY = { sortType: 'CollectedAtAscending' };

beforeAll(async () => {
	sim = await startRealTimeSim(['--projects', '1', '--mentions', '10']);
	for (const n of SIZES) {
		const id = await createProject(sim, `Pager ${n}`, `pager${n}`);
		if (n > 0) await addMentions(sim, id, n);
		projectWith[n] = id;
	}
});

afterAll(async () => {
	await sim?.stop();
});

beforeEach(async () => {
	await admin(sim, 'DELETE', '/faults');
	await admin(sim, 'POST', '/limits', {
		resetWindows: true,
		hourly: { search: 10_000, projects: 10_000 },
	});
	await admin(sim, 'DELETE', '/requests');
});

const search = (projectId: number): ApiRequest => ({
	method: 'POST',
	path: PATHS.historicalSearch(projectId),
	group: 'search',
	tier: 'Enterprise',
	body: BODY,
	read: true,
});

/** Ids in search order (CollectedAtAscending: collectedAt, then id) from the simulator's ground truth. */
async function groundTruth(projectId: number): Promise<string[]> {
	const { count } = await admin<{ count: number }>(sim, 'POST', '/count', {
		projectId,
		mode: 'historical',
	});
	const { mentions } = await admin<{ mentions: Array<{ id: string }> }>(
		sim,
		'GET',
		`/mentions?projectId=${projectId}`,
	);
	expect(mentions).toHaveLength(count);
	return mentions.map((m) => m.id);
}

interface PagerRun {
	ids: string[];
	requests: number;
	pages: number;
	complete: boolean;
	stopped?: { resetAt?: number; message: string };
	waitedMs: number;
	sent: number;
}

function pagerRun(request: ApiRequest, options: PaginateOptions) {
	return inNode(credentials(sim, ENTERPRISE), async function () {
		const transport = new SentiOneTransport(this, { retry: { transientBackoffMs: 10 } });
		const r = await paginate<IDataObject>(transport, request, options);
		return {
			ids: r.items.map((m) => String(m.id)),
			requests: r.requests,
			pages: r.pages,
			complete: r.complete,
			stopped: r.stopped,
			waitedMs: r.waitedMs,
			sent: transport.requestsSent,
		} as PagerRun;
	});
}

const searchLog = async (projectId: number) =>
	(await requestLog(sim)).filter(
		(e) => e.path === `/api/public/v2/projects/${projectId}/mentions/search`,
	);

describe('Return All', () => {
	test.each(SIZES)('N = %i: every mention in order, ceil(N/25) requests (1 for 0)', async (n) => {
		const projectId = projectWith[n];
		const truth = await groundTruth(projectId);
		expect(truth).toHaveLength(n);
		const result = valueOf(await pagerRun(search(projectId), { returnAll: true }));
		const expectedRequests = Math.max(1, Math.ceil(n / 25));
		expect(result.ids).toEqual(truth);
		expect(new Set(result.ids).size).toBe(n);
		expect(result.requests).toBe(expectedRequests);
		expect(result.pages).toBe(expectedRequests);
		expect(result.sent).toBe(expectedRequests);
		expect(result.complete).toBe(true);
		const log = await searchLog(projectId);
		expect(log).toHaveLength(expectedRequests);
		expect(log.every((e) => e.status === 200)).toBe(true);
		// the first page has no cursor; every later one sends the previous page's cursor and the same body
		expect(log[0].query.cursor).toBeUndefined();
		expect(
			log.slice(1).every((e) => typeof e.query.cursor === 'string' && e.query.cursor !== ''),
		).toBe(true);
		expect(new Set(log.slice(1).map((e) => e.query.cursor)).size).toBe(log.length - 1);
		expect(log.every((e) => JSON.stringify(e.body) === JSON.stringify(BODY))).toBe(true);
	});

	test('the project list (20 per page) pages the same way', async () => {
		for (let i = 0; i < 14; i++) await createProject(sim, `Filler ${i}`, `filler${i}`);
		await admin(sim, 'DELETE', '/requests');
		const result = valueOf(
			await pagerRun(
				{ method: 'GET', path: PATHS.listProjects(), group: 'projects', tier: 'Basic', read: true },
				{ returnAll: true },
			),
		);
		// 1 generated + 6 pager projects + 14 fillers = 21 → 2 pages
		expect(result.ids).toHaveLength(21);
		expect(new Set(result.ids).size).toBe(21);
		expect(result.requests).toBe(2);
		expect((await requestLog(sim)).map((e) => [e.method, e.status])).toEqual([
			['GET', 200],
			['GET', 200],
		]);
	});
});

describe('Limit', () => {
	test.each([
		[30, 1000, 2],
		[25, 1000, 1],
		[26, 1000, 2],
		[1, 1000, 1],
		[50, 1000, 2],
		[1000, 26, 2],
	])('limit %i on %i mentions: the first items, %i request(s)', async (limit, n, requests) => {
		const projectId = projectWith[n];
		const truth = await groundTruth(projectId);
		const result = valueOf(await pagerRun(search(projectId), { returnAll: false, limit }));
		expect(result.ids).toEqual(truth.slice(0, Math.min(limit, n)));
		expect(result.requests).toBe(requests);
		expect(result.complete).toBe(true);
		expect(await searchLog(projectId)).toHaveLength(requests);
	});
});

test('a repeated cursor is an error after the page that repeated it, never a loop', async () => {
	await admin(sim, 'POST', '/faults', { repeatCursor: true });
	const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
		return await paginate(new SentiOneTransport(this), search(projectWith[1000]), {
			returnAll: true,
		});
	});
	expect(error.constructorName).toBe('NodeOperationError');
	expect(error.message).toBe(
		'SentiOne returned a page cursor it had already returned (after 2 pages and 50 items); paging stopped to avoid a loop.',
	);
	expect(error.description).toMatch(/fault of the server/);
	expect(await searchLog(projectWith[1000])).toHaveLength(2);
});

test('a page without a data list is unusable', async () => {
	await script(sim, '/mentions/search$', {
		kind: 'json',
		status: 200,
		body: { items: [], cursor: null },
	});
	const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
		return await paginate(new SentiOneTransport(this), search(projectWith[100]), {
			returnAll: true,
		});
	});
	expect(error.message).toBe('SentiOne\'s answer could not be used: the page has no "data" list');
});

describe('the hourly budget runs out part-way (100 mentions = 4 pages, budget 2)', () => {
	const projectId = () => projectWith[100];

	beforeEach(async () => {
		await admin(sim, 'POST', '/limits', { hourly: { search: 2 } });
	});

	test('stop: returns the items fetched, with a notice and the reset; no doomed request', async () => {
		const reset = await nextHourOf(sim);
		const truth = await groundTruth(projectId());
		const result = valueOf(
			await pagerRun(search(projectId()), { returnAll: true, onRateLimit: 'stop' }),
		);
		expect(result.ids).toEqual(truth.slice(0, 50));
		expect(result.complete).toBe(false);
		expect(result.requests).toBe(2);
		expect(result.stopped?.resetAt).toBe(reset);
		expect(result.stopped?.message).toBe(
			`Stopped after 50 items (2 pages): the hourly budget is used up until ${shownAt(reset, N8N_DEFAULT_ZONE)} (in ${Math.round((reset - Date.now()) / 60000)} min). The items fetched so far are returned; run again after the reset for the rest.`,
		);
		expect((await searchLog(projectId())).map((e) => e.status)).toEqual([200, 200]);
	});

	test('fail: throws before sending the doomed request', async () => {
		const reset = await nextHourOf(sim);
		const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
			return await paginate(new SentiOneTransport(this), search(projectId()), {
				returnAll: true,
				onRateLimit: 'fail',
			});
		});
		expect(error.constructorName).toBe('NodeOperationError');
		expect(error.message).toMatch(
			new RegExp(
				`^SentiOne's search budget is used up \\(2 requests an hour\\); it resets at ${shownAtPattern(reset, N8N_DEFAULT_ZONE)}`,
			),
		);
		expect(error.description).toMatch(
			/^No request was sent, so no budget was wasted\. 50 item\(s\) had been fetched; nothing is returned\./,
		);
		expect((await searchLog(projectId())).map((e) => e.status)).toEqual([200, 200]);
	});

	test('fail is the default choice', async () => {
		const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
			return await paginate(new SentiOneTransport(this), search(projectId()), { returnAll: true });
		});
		expect(error.message).toMatch(/budget is used up \(2 requests an hour\)/);
		expect(await searchLog(projectId())).toHaveLength(2);
	});

	test('wait, with a reset beyond the longest wait allowed: throws before sending, says why', async () => {
		const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
			return await paginate(new SentiOneTransport(this), search(projectId()), {
				returnAll: true,
				onRateLimit: 'wait',
				maxWaitMs: 5_000,
			});
		});
		expect(error.ms).toBeLessThan(2000);
		expect(error.description).toMatch(
			/^Waiting for the reset would exceed the longest wait you allowed\. 50 item\(s\) had been fetched/,
		);
		expect(await searchLog(projectId())).toHaveLength(2);
	});

	test('a Limit inside the budget never meets the limit', async () => {
		const result = valueOf(
			await pagerRun(search(projectId()), { returnAll: false, limit: 50, onRateLimit: 'fail' }),
		);
		expect(result.ids).toHaveLength(50);
		expect(result.complete).toBe(true);
	});
});

describe('a 429 the pager could not foresee (another workflow spent the budget)', () => {
	/** Page 1 comes from a scripted copy of the real first page whose headers still show budget left. */
	async function firstPageWithStaleBudget(
		projectId: number,
		headers: Record<string, string | number>,
	): Promise<Loose> {
		const page1 = await api(sim, 'POST', PATHS.historicalSearch(projectId), { body: BODY });
		expect(page1.status).toBe(200);
		await script(sim, `^/projects/${projectId}/mentions/search$`, {
			kind: 'json',
			status: 200,
			body: page1.json,
			headers,
		});
		await admin(sim, 'DELETE', '/requests');
		return page1.json;
	}

	test('stop: the 429 on page 2 returns page 1 with the reset from the answer', async () => {
		const projectId = projectWith[100];
		await firstPageWithStaleBudget(projectId, { 'x-rate-limit-remaining': 5 });
		// the one real request above used the budget up
		await admin(sim, 'POST', '/limits', { hourly: { search: 1 } });
		const reset = await nextHourOf(sim);
		const truth = await groundTruth(projectId);
		const result = valueOf(
			await pagerRun(search(projectId), { returnAll: true, onRateLimit: 'stop' }),
		);
		expect(result.ids).toEqual(truth.slice(0, 25));
		expect(result.requests).toBe(2);
		expect(result.stopped?.resetAt).toBe(reset);
		expect(result.stopped?.message).toMatch(
			/^Stopped after 25 items \(1 page\): the hourly budget is used up until /,
		);
		expect((await searchLog(projectId)).map((e) => e.status)).toEqual([200, 429]);
	});

	test('fail: the mapped 429 passes through the pager unchanged', async () => {
		const projectId = projectWith[100];
		await firstPageWithStaleBudget(projectId, { 'x-rate-limit-remaining': 5 });
		await admin(sim, 'POST', '/limits', { hourly: { search: 1 } });
		const error = await failureOf(credentials(sim, ENTERPRISE), async function () {
			return await paginate(new SentiOneTransport(this), search(projectId), {
				returnAll: true,
				onRateLimit: 'fail',
			});
		});
		expect(error.constructorName).toBe('NodeApiError');
		expect(error.message).toMatch(
			/^SentiOne's search budget is used up \(429\): at most 1 request an hour for this key\./,
		);
		expect(error.details?.rateLimitKind).toBe('hourly');
	});

	test('wait: a 429 whose reset is seconds away is waited out inside maxWaitMs, then paging completes', async () => {
		const projectId = projectWith[100];
		await firstPageWithStaleBudget(projectId, { 'x-rate-limit-remaining': 5 });
		// 6 s away: beyond the 5 s every first 429 wait takes at least (bounds.ts)
		const resetAt = Date.now() + 6000;
		await script(sim, `^/projects/${projectId}/mentions/search$`, {
			kind: 'json',
			status: 429,
			body: {
				message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at ${new Date(resetAt).toISOString()}.`,
			},
			headers: { 'x-rate-limit-remaining': 0, 'x-rate-limit-reset': Math.ceil(resetAt / 1000) },
		});
		const truth = await groundTruth(projectId);
		const runStartedAt = Date.now();
		const outcome = await pagerRun(search(projectId), {
			returnAll: true,
			onRateLimit: 'wait',
			maxWaitMs: 30_000,
		});
		const result = valueOf(outcome);
		expect(result.ids).toEqual(truth);
		expect(result.complete).toBe(true);
		expect(result.requests).toBe(5);
		const bounds = resetWaitBounds({ resetAt, startedAt: runStartedAt, floorMs: 5000 });
		expect(result.waitedMs).toBeGreaterThanOrEqual(bounds.min);
		expect(result.waitedMs).toBeLessThanOrEqual(bounds.max);
		expect(outcome.ms).toBeGreaterThanOrEqual(result.waitedMs);
		expect((await searchLog(projectId)).map((e) => e.status)).toEqual([200, 429, 200, 200, 200]);
	});
});

test('wait: a page whose headers say the budget is gone and resets in seconds → the pager waits, then goes on', async () => {
	const projectId = projectWith[100];
	const page1 = await api(sim, 'POST', PATHS.historicalSearch(projectId), { body: BODY });
	const resetAt = Math.ceil((Date.now() + 6000) / 1000) * 1000;
	await script(sim, `^/projects/${projectId}/mentions/search$`, {
		kind: 'json',
		status: 200,
		body: page1.json,
		headers: {
			'x-rate-limit-limit': 30,
			'x-rate-limit-remaining': 0,
			'x-rate-limit-reset': resetAt / 1000,
		},
	});
	await admin(sim, 'DELETE', '/requests');
	const truth = await groundTruth(projectId);
	const runStartedAt = Date.now();
	const outcome = await inNode(credentials(sim, ENTERPRISE), async function () {
		const r = await paginate<IDataObject>(new SentiOneTransport(this), search(projectId), {
			returnAll: true,
			onRateLimit: 'wait',
			maxWaitMs: 30_000,
		});
		return {
			ids: r.items.map((m) => String(m.id)),
			requests: r.requests,
			waitedMs: r.waitedMs,
			finishedAt: Date.now(),
		};
	});
	const result = valueOf(outcome);
	expect(result.ids).toEqual(truth);
	expect(result.requests).toBe(4);
	// page 2 went out only after the reset + 1 s
	expect(result.finishedAt).toBeGreaterThanOrEqual(resetAt + 1000 - 20);
	expect(result.finishedAt).toBeLessThan(resetAt + 1000 + 2000);
	// no 429 was provoked: the wait happened before the request
	const log = await searchLog(projectId);
	expect(log.map((e) => e.status)).toEqual([200, 200, 200, 200]);
	// the wait the pager reports: from page 1's answer to the reset + 1 s
	const bounds = resetWaitBounds({ resetAt, startedAt: runStartedAt });
	expect(result.waitedMs).toBeGreaterThanOrEqual(bounds.min);
	expect(result.waitedMs).toBeLessThanOrEqual(bounds.max);
});

test('wait, against the simulator’s own hourly window: the pager waits for the top of the hour, the budget is back, paging completes', async () => {
	// The node reads time through `clock` (clock.ts); point it at the simulator's frozen clock and
	// let its sleep advance that clock, so the real window (reset at the top of the hour) is waited
	// out in virtual time: 10 s before the top of the hour, budget 2, 4 pages.
	const projectId = projectWith[100];
	const { now: before } = await admin<{ now: string }>(sim, 'GET', '/health');
	const top = await nextHourOf(sim);
	const clock = new SimClock(sim);
	await clock.setTo(top - 10_000);
	await admin(sim, 'POST', '/limits', { resetWindows: true, hourly: { search: 2 } });
	clock.install();
	try {
		const truth = await groundTruth(projectId);
		const started = Date.now();
		const result = valueOf(
			await pagerRun(search(projectId), {
				returnAll: true,
				onRateLimit: 'wait',
				maxWaitMs: 60_000,
			}),
		);
		expect(Date.now() - started).toBeLessThan(5000);
		expect(result.ids).toEqual(truth);
		expect(result.complete).toBe(true);
		expect(result.requests).toBe(4);
		// one wait, from the pager's budget check: until the reset + 1 s
		expect(clock.slept).toEqual([11_000]);
		expect(result.waitedMs).toBe(11_000);
		const log = await searchLog(projectId);
		expect(log.map((e) => e.status)).toEqual([200, 200, 200, 200]);
		expect(log.map((e) => e.counted)).toEqual([true, true, true, true]);
	} finally {
		clock.uninstall();
		await admin(sim, 'POST', '/clock', { now: before });
	}
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(10);
});
