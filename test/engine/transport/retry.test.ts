/**
 * The retry policy of SentiOneTransport.request, counted in the simulator's request log: reads are
 * retried after 502/503/504 and broken connections up to `transientRetries`; a create is never
 * repeated; an hourly 429 is waited out only within `maxRateLimitWaitMs`.
 */
import { route } from '../../../nodes/SentiOne/shared/contract';
import type { ApiRequest, TransportOptions } from '../../../nodes/SentiOne/shared/transport';
import { SimClock } from '../../support/simClock';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	admin,
	type Sim,
	nextHourOf,
	requestLog,
	script,
	useRealTimeSim,
	type ScriptedResponse,
} from '../../support/simulator';
import { expectNoKeysIn, failureOf, inNode, valueOf } from '../../support/inNode';
import { credentials } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';
import { resetWaitBounds } from '../../support/time';

let sim: Sim;
useRealTimeSim(['--mentions', '50'], (started) => (sim = started));

const getProjects: ApiRequest = route('listProjects');
const createProject: ApiRequest = {
	...route('createProject'),
	body: { name: 'Never twice', query: 'twice' },
};
const FAST: TransportOptions = { retry: { transientRetries: 2, transientBackoffMs: 20 } };

function run(request: ApiRequest, options: TransportOptions = FAST) {
	return inNode(credentials(sim, ENTERPRISE), async function () {
		const t = new SentiOneTransport(this, options);
		try {
			const r = await t.request(request);
			return {
				statusCode: r.statusCode,
				attempts: r.attempts,
				waitedMs: r.waitedMs,
				sent: t.requestsSent,
			};
		} finally {
			// requestsSent is checked through the log below
		}
	});
}

function failing(request: ApiRequest, options: TransportOptions = FAST) {
	return failureOf(credentials(sim, ENTERPRISE), async function () {
		return await new SentiOneTransport(this, options).request(request);
	});
}

const statuses = async () => (await requestLog(sim)).map((e) => e.status);

/** A 429 as the API words it, with the reset `inMs` from now in the body and in the header. */
function hourly429(inMs: number): { respond: ScriptedResponse; resetAt: number } {
	const resetAt = Date.now() + inMs;
	return {
		resetAt,
		respond: {
			kind: 'json',
			status: 429,
			body: {
				message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 300. Limits will reset at ${new Date(resetAt).toISOString()}.`,
			},
			headers: {
				'x-rate-limit-limit': 300,
				'x-rate-limit-remaining': 0,
				'x-rate-limit-reset': Math.ceil(resetAt / 1000),
			},
		},
	};
}

describe('transient failures on a read', () => {
	test.each([502, 503, 504])(
		'%i: retried transientRetries (2) times, then mapped; 3 requests in the log',
		async (status) => {
			await script(
				sim,
				'^/projects$',
				{ kind: 'json', status, body: { message: 'Service temporarily unavailable.' } },
				10,
			);
			const error = await failing(getProjects);
			expect(error.message).toBe(
				`SentiOne had a server error (${status}): Service temporarily unavailable.`,
			);
			expect(error.description).toMatch(/Reads are retried automatically/);
			expect(await statuses()).toEqual([status, status, status]);
		},
	);

	test('an nginx 502 page is retried like a JSON 502, then described as an HTML page', async () => {
		await script(sim, '^/projects$', { kind: 'html', status: 502 }, 10);
		const error = await failing(getProjects, {
			retry: { transientRetries: 1, transientBackoffMs: 20 },
		});
		expect(error.message).toMatch(
			/^SentiOne had a server error \(502\): an HTML page \("<html><head><title>502 Bad Gateway/,
		);
		expect(await statuses()).toEqual([502, 502]);
	});

	test('one 503, then the answer: succeeds on the second attempt', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 503 });
		const result = valueOf(await run(getProjects));
		expect(result).toEqual({ statusCode: 200, attempts: 2, waitedMs: 0, sent: 2 });
		expect(await statuses()).toEqual([503, 200]);
	});

	test('the backoff doubles: two retries after 100 ms and 200 ms take about 300 ms', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 503 }, 2);
		const outcome = await run(getProjects, {
			retry: { transientRetries: 2, transientBackoffMs: 100 },
		});
		expect(valueOf(outcome).attempts).toBe(3);
		expect(outcome.ms).toBeGreaterThanOrEqual(290);
		expect(outcome.ms).toBeLessThan(3000);
	});

	test('transientRetries: 0 → a single request', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 503 }, 10);
		await failing(getProjects, { retry: { transientRetries: 0 } });
		expect(await statuses()).toEqual([503]);
	});

	test('500 is not transient: never retried', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 500 }, 10);
		await failing(getProjects);
		expect(await statuses()).toEqual([500]);
	});

	test('a connection destroyed without an answer: retried, then the node’s own network error; 3 requests in the log', async () => {
		await script(sim, '^/projects$', { kind: 'reset' }, 10);
		const error = await failing(getProjects);
		expect(error.constructorName).toBe('NodeApiError');
		// (n8n's NodeApiError replaces a message with its stock text when the error response carries a
		// known network `code`; the mapper must keep its own words and the attempt count)
		expect(error.message).toBe(
			'Could not reach SentiOne: the connection was reset by the server (after 3 attempts).',
		);
		expect(error.description).toBe(
			"GET /projects did not complete. Check the credential's Base URL and the network between n8n and SentiOne.",
		);
		const log = await requestLog(sim);
		expect(log.map((e) => [e.method, e.path, e.status])).toEqual(
			Array(3).fill(['GET', '/api/public/v2/projects', null]),
		);
	});

	test('a single attempt does not claim several', async () => {
		await script(sim, '^/projects$', { kind: 'reset' }, 10);
		const error = await failing(getProjects, { retry: { transientRetries: 0 } });
		expect(error.message).toBe('Could not reach SentiOne: the connection was reset by the server.');
		expect(await requestLog(sim)).toHaveLength(1);
	});
});

describe('a create is never repeated', () => {
	test.each<[string, ScriptedResponse, TransportOptions]>([
		['a 503', { kind: 'json', status: 503 }, FAST],
		['a 502 HTML page', { kind: 'html', status: 502 }, FAST],
		['a connection reset', { kind: 'reset' }, FAST],
		['a server that never answers (timeout)', { kind: 'hang' }, { ...FAST, timeoutMs: 800 }],
		['a truncated 201 answer', { kind: 'truncated-json', status: 201 }, FAST],
	])('POST /projects after %s: exactly one request', async (_what, respond, options) => {
		await script(sim, '^/projects$', respond, 10, 'POST');
		const error = await failing(createProject, options);
		expect(error.message.length).toBeGreaterThan(20);
		const log = await requestLog(sim);
		expect(log.map((e) => [e.method, e.path])).toEqual([['POST', '/api/public/v2/projects']]);
	});
});

describe('hourly 429 and maxRateLimitWaitMs', () => {
	test('waits until the reset (+1 s) when allowed, then succeeds', async () => {
		// a reset 6 s away: beyond the 5 s the first wait always takes (bounds.ts), so the reset decides
		const { respond, resetAt } = hourly429(6000);
		await script(sim, '^/projects$', respond);
		const runStartedAt = Date.now();
		const outcome = await inNode(credentials(sim, ENTERPRISE), async function () {
			const r = await new SentiOneTransport(this, {
				retry: { maxRateLimitWaitMs: 10_000 },
			}).request(getProjects);
			return {
				statusCode: r.statusCode,
				attempts: r.attempts,
				waitedMs: r.waitedMs,
				finishedAt: Date.now(),
			};
		});
		const result = valueOf(outcome);
		expect(result.statusCode).toBe(200);
		expect(result.attempts).toBe(2);
		// the retry went out only after the reset + 1 s, and not much later
		expect(result.finishedAt).toBeGreaterThanOrEqual(resetAt + 1000 - 20);
		expect(result.finishedAt).toBeLessThan(resetAt + 1000 + 2000);
		const bounds = resetWaitBounds({ resetAt, startedAt: runStartedAt, floorMs: 5000 });
		expect(result.waitedMs).toBeGreaterThanOrEqual(bounds.min);
		expect(result.waitedMs).toBeLessThanOrEqual(bounds.max);
		expect(outcome.ms).toBeGreaterThanOrEqual(result.waitedMs - 20);
		expect(await statuses()).toEqual([429, 200]);
	});

	test('a reset only a moment away is still waited for at least 5 s (no resend storm)', async () => {
		const { respond } = hourly429(200);
		await script(sim, '^/projects$', respond);
		const outcome = await inNode(credentials(sim, ENTERPRISE), async function () {
			const r = await new SentiOneTransport(this, {
				retry: { maxRateLimitWaitMs: 10_000 },
			}).request(getProjects);
			return { statusCode: r.statusCode, waitedMs: r.waitedMs };
		});
		expect(valueOf(outcome)).toEqual({ statusCode: 200, waitedMs: 5000 });
		expect(await statuses()).toEqual([429, 200]);
	});

	test('the simulator’s own 429 (budget 1): waited out to the top of the hour in virtual time, then the request succeeds', async () => {
		const top = await nextHourOf(sim);
		const clock = new SimClock(sim);
		await clock.setTo(top - 5_000);
		await admin(sim, 'POST', '/limits', { hourly: { projects: 1 } });
		clock.install();
		try {
			const result = valueOf(
				await inNode(credentials(sim, ENTERPRISE), async function () {
					const t = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 60_000 } });
					await t.request(getProjects);
					const r = await t.request(getProjects);
					return {
						statusCode: r.statusCode,
						attempts: r.attempts,
						waitedMs: r.waitedMs,
						rateLimit: r.rateLimit,
					};
				}),
			);
			expect(clock.slept).toEqual([6_000]);
			expect(result).toEqual({
				statusCode: 200,
				attempts: 2,
				waitedMs: 6_000,
				rateLimit: {
					group: 'projects',
					limit: 1,
					remaining: 0,
					resetAt: top + 3_600_000,
					readAt: expect.any(Number),
				},
			});
			expect(await statuses()).toEqual([200, 429, 200]);
		} finally {
			clock.uninstall();
		}
	});

	test('maxRateLimitWaitMs: 0 → fails at once', async () => {
		const { respond, resetAt } = hourly429(1500);
		await script(sim, '^/projects$', respond);
		const error = await failing(getProjects, { retry: { maxRateLimitWaitMs: 0 } });
		expect(error.ms).toBeLessThan(1000);
		expect(error.details).toEqual({ statusCode: 429, rateLimitKind: 'hourly', resetAt });
		expect(await statuses()).toEqual([429]);
	});

	test('a reset beyond the allowed wait → fails at once, no second request', async () => {
		const { respond } = hourly429(60_000);
		await script(sim, '^/projects$', respond);
		const error = await failing(getProjects, { retry: { maxRateLimitWaitMs: 5_000 } });
		expect(error.ms).toBeLessThan(1000);
		expect(error.message).toMatch(/at most 300 requests an hour/);
		expect(await statuses()).toEqual([429]);
	});

	test('the waits of successive 429s add up and stop at the allowed total', async () => {
		const { respond } = hourly429(500);
		await script(sim, '^/projects$', respond, 5);
		// the first wait (at least 5 s) fits 7 s; the second (the reset has passed: at least 20 s,
		// bounds.ts) would exceed it, so the second 429 is the answer
		const error = await failing(getProjects, { retry: { maxRateLimitWaitMs: 7_000 } });
		expect(error.ms).toBeGreaterThan(4900);
		expect(error.ms).toBeLessThan(8000);
		expect(await statuses()).toEqual([429, 429]);
	});

	test('a concurrency 429 is never waited for', async () => {
		await script(sim, '^/projects$', {
			kind: 'json',
			status: 429,
			body: {
				message:
					'Maximum number of concurrent connections for this endpoint is 2. Close an open stream and try again.',
			},
		});
		const error = await failing(getProjects, { retry: { maxRateLimitWaitMs: 60_000 } });
		expect(error.ms).toBeLessThan(1000);
		expect(error.details?.rateLimitKind).toBe('concurrent');
		expect(await statuses()).toEqual([429]);
	});

	test('the per-request policy overrides the transport’s', async () => {
		// a reset 3 s ahead (a loaded machine may take seconds to send the request: a reset already
		// past is taken as the next hour's); the wait is at least the first spacing, 5 s
		const { respond } = hourly429(3000);
		await script(sim, '^/projects$', respond);
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const t = new SentiOneTransport(this, { retry: { maxRateLimitWaitMs: 0 } });
				const r = await t.request({ ...getProjects, retry: { maxRateLimitWaitMs: 10_000 } });
				return { attempts: r.attempts, waited: r.waitedMs > 0 };
			}),
		);
		expect(result).toEqual({ attempts: 2, waited: true });
	});
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(10);
});
