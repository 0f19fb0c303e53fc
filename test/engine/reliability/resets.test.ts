/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Threat: rate-limit values no hourly window can have — a reset in the year 3000 (in seconds), at
 * 1e15, given in milliseconds, in the past, zero, negative, not a number, several values at once,
 * a 429 message whose reset is absurd, a remaining count that is negative or huge, a limit of 0.
 * Whatever the server says, the nodes must neither resend in a storm (once a second) nor wait
 * for ever, never ask a timer for more than 2^31 − 1 ms, never fail with "Invalid time value",
 * and never stop polling for good.
 *
 * Everything runs on a virtual clock (`setClock`): a wait the node asks for moves the clock at
 * once, so the tests count requests and connections per virtual hour in seconds of real time.
 * Through: the transport's 429 waits, the pager's budget pre-check, the poll trigger (its saved
 * budget, poisoned or learned from answers), the stream trigger reconnecting after hourly 429s.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { route } from '../../../nodes/SentiOne/shared/contract';
import { paginate, type RateLimitChoice } from '../../../nodes/SentiOne/shared/pager';
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { readRateLimit, SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import type { ActiveStreamTrigger } from '../../support/triggers';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { failureOf, inNode, valueOf } from '../../support/inNode';
import type { Behaviour, HostileRequest } from '../../support/servers/hostileServer';
import {
	HostileServer,
	json,
	mention,
	pages,
	rateHeaders,
	sse,
	stream,
} from '../../support/servers/hostileServer';
import { sleep, waitFor } from '../../support/wait';
import { MINUTE, HOUR } from '../../support/time';
import { type ResultRow, writePart } from '../../support/results';
import { ENTERPRISE } from '../../support/keys';
import { watchCrashes } from '../../support/probes';

jest.setTimeout(90_000);

const MAX_TIMER = 2 ** 31 - 1;
/** 10:30 UTC: the next hourly window starts in 30 minutes */
const START = Date.UTC(2026, 10, 21, 10, 30, 0);

// --- a virtual clock, and every timer anyone asks for ----------------------------------------------

class VirtualClock {
	now = START;

	/** every wait the node asked the clock for */
	readonly slept: number[] = [];

	private restore: (() => void) | undefined;

	install(): void {
		this.restore = setClock({
			now: () => this.now,
			sleep: async (ms: number, signal?: AbortSignal) => {
				this.slept.push(ms);
				if (signal?.aborted) throw new Error('aborted');
				this.now += ms;
				// let the rest of the process run: a node that spins shows up as requests, not a hang
				await new Promise<void>((resolve) => setImmediate(resolve));
				if (signal?.aborted) throw new Error('aborted');
			},
		});
	}

	uninstall(): void {
		this.restore?.();
	}

	reset(): void {
		this.now = START;
		this.slept.length = 0;
	}
}

const clock = new VirtualClock();
let longestTimer = 0;
const overflowWarnings: string[] = [];
const realSetTimeout = globalThis.setTimeout;
const onWarning = (warning: Error) => {
	if (warning.name === 'TimeoutOverflowWarning') overflowWarnings.push(warning.message);
};

let server: HostileServer;
const rows: ResultRow[] = [];
const figures: Record<string, unknown> = {};
/** the most requests (or connections) one virtual hour saw, per place */
const perHour: Record<string, number> = {};
const crashes = watchCrashes();

beforeAll(async () => {
	process.on('warning', onWarning);
	const spy = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
		if (typeof ms === 'number' && Number.isFinite(ms)) longestTimer = Math.max(longestTimer, ms);
		return realSetTimeout(handler, ms, ...args);
	}) as unknown as typeof setTimeout;
	Object.assign(spy, realSetTimeout);
	globalThis.setTimeout = spy;
	clock.install();
	server = await HostileServer.start({ now: () => clock.now });
});

afterAll(async () => {
	globalThis.setTimeout = realSetTimeout;
	clock.uninstall();
	process.off('warning', onWarning);
	await server?.close();
	writePart({
		part: 'resets',
		title: 'Broken rate-limit values (resets, budgets)',
		command: 'npx jest test/engine/reliability/resets.test.ts',
		rows,
		figures: {
			...figures,
			mostRequestsPerVirtualHour: perHour,
			longestClockWaitMs: Math.max(0, ...allSleeps),
			longestTimerMs: longestTimer,
			timeoutOverflowWarnings: overflowWarnings.length,
		},
	});
});

const allSleeps: number[] = [];

beforeEach(() => {
	clock.reset();
	server.reset();
});

afterEach(async () => {
	allSleeps.push(...clock.slept);
	expect(crashes).toEqual([]);
	for (const ms of clock.slept) {
		expect(Number.isFinite(ms)).toBe(true);
		expect(ms).toBeGreaterThanOrEqual(0);
		expect(ms).toBeLessThanOrEqual(65 * MINUTE + 1000);
	}
	server.dropConnections();
	await waitFor(() => server.open === 0, { what: 'no response left open', timeoutMs: 5000 });
});

afterAll(() => {
	expect(longestTimer).toBeLessThanOrEqual(MAX_TIMER);
	expect(overflowWarnings).toEqual([]);
});

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: server.base });

/** The largest number of instants that fall into one span of an hour. */
function mostInAnHour(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	let best = 0;
	let first = 0;
	for (let last = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= HOUR) first++;
		best = Math.max(best, last - first + 1);
	}
	return best;
}

function smallestGap(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	let gap = Infinity;
	for (let k = 1; k < sorted.length; k++) gap = Math.min(gap, sorted[k] - sorted[k - 1]);
	return gap;
}

function note(place: string, n: number): void {
	perHour[place] = Math.max(perHour[place] ?? 0, n);
}

// --- the broken values ----------------------------------------------------------------------------

interface ResetCase {
	name: string;
	/** the x-rate-limit-reset header for a request at virtual time `at` (undefined: none) */
	reset: (at: number) => string | number | string[] | undefined;
	/** the 429 message */
	message?: (at: number) => string;
	/** true when the value is plausible (a reset the node may honour) */
	plausible?: boolean;
}

const absurdMessage = () => 'Rate limit exceeded. Limits will reset at 3000-01-01T00:00:00Z.';
const seconds = (ms: number) => Math.floor(ms / 1000);

const resetCases: ResetCase[] = [
	{ name: 'year 3000, in seconds', reset: () => 32503680000, message: absurdMessage },
	{ name: '1e15 (digits)', reset: () => '1000000000000000' },
	{ name: '1e15 (exponent notation)', reset: () => '1e15' },
	{ name: '23 digits', reset: () => '99999999999999999999999' },
	{ name: 'in milliseconds, 10 minutes ahead', reset: (at) => at + 10 * MINUTE, plausible: true },
	{ name: 'a day in the past', reset: (at) => seconds(at) - 86_400 },
	{ name: 'zero', reset: () => 0 },
	{ name: 'negative', reset: () => -32503680000 },
	{ name: 'garbage text', reset: () => 'soon' },
	{ name: 'an HTTP date', reset: () => 'Wed, 01 Jan 3000 00:00:00 GMT' },
	{
		name: 'two headers at once',
		reset: (at) => [String(seconds(at) + 600), String(seconds(at) + 1200)],
	},
	{
		name: 'none, and a 429 message with a reset in the year 3000',
		reset: () => undefined,
		message: absurdMessage,
	},
	{
		name: 'none, and a 429 message with a reset in 2099',
		reset: () => undefined,
		message: () => 'Rate limit exceeded. Limits will reset at 2099-12-31T23:59:59Z.',
	},
	{
		name: 'none, and a 429 message with a reset in 1970',
		reset: () => undefined,
		message: () => 'Rate limit exceeded. Limits will reset at 1970-01-01T00:00:00Z.',
	},
	{
		name: 'none, and a 429 message with an impossible date',
		reset: () => undefined,
		message: () => 'Rate limit exceeded. Limits will reset at 2026-02-30T25:61:00Z.',
	},
	{
		name: 'always 1 s ahead (plausible, never honoured)',
		reset: (at) => seconds(at) + 1,
		plausible: true,
	},
	{
		name: 'the message says 1 s ahead, the header the year 3000',
		reset: () => 32503680000,
		message: (at) =>
			`Rate limit exceeded. Limits will reset at ${new Date(at + 1000).toISOString()}.`,
		plausible: true,
	},
];

const rateLimited =
	(c: ResetCase, group = 'search'): Behaviour =>
	(req: HostileRequest, res, server) =>
		json(
			429,
			{ message: c.message?.(req.at) ?? 'Rate limit exceeded.' },
			rateHeaders({ limit: group === 'live' ? 5 : 30, remaining: 0, reset: c.reset(req.at) }),
		)(req, res, server);

const BAD_WORDS = /Invalid|NaN|undefined|3000|2099|1970|Infinity|\(in -/;

// --- readRateLimit: the one parser ------------------------------------------------------------------

describe('the rate-limit headers, read as one typed value', () => {
	test.each([
		{
			name: 'year 3000 in seconds',
			headers: { 'x-rate-limit-reset': '32503680000' },
			expected: { resetAt: undefined },
		},
		{
			name: '1e15',
			headers: { 'x-rate-limit-reset': '1000000000000000' },
			expected: { resetAt: undefined },
		},
		{
			name: 'milliseconds, 10 min ahead',
			headers: { 'x-rate-limit-reset': String(START + 10 * MINUTE) },
			expected: { resetAt: START + 10 * MINUTE },
		},
		{
			name: 'seconds, 10 min ahead',
			headers: { 'x-rate-limit-reset': String(seconds(START) + 600) },
			expected: { resetAt: START + 10 * MINUTE },
		},
		{
			name: 'a day behind',
			headers: { 'x-rate-limit-reset': String(seconds(START) - 86_400) },
			expected: { resetAt: undefined },
		},
		{ name: 'zero', headers: { 'x-rate-limit-reset': '0' }, expected: { resetAt: undefined } },
		{ name: 'negative', headers: { 'x-rate-limit-reset': '-5' }, expected: { resetAt: undefined } },
		{
			name: 'garbage',
			headers: { 'x-rate-limit-reset': 'soon' },
			expected: { resetAt: undefined },
		},
		{
			name: 'several values',
			headers: { 'x-rate-limit-reset': `${seconds(START) + 600}, ${seconds(START) + 1200}` },
			expected: { resetAt: undefined },
		},
		{
			name: 'an array',
			headers: { 'x-rate-limit-reset': [String(seconds(START) + 600), 'x'] },
			expected: { resetAt: START + 10 * MINUTE },
		},
		{
			name: 'remaining negative',
			headers: { 'x-rate-limit-remaining': '-7', 'x-rate-limit-limit': '30' },
			expected: { remaining: 0, limit: 30 },
		},
		{
			name: 'remaining huge',
			headers: { 'x-rate-limit-remaining': '99999999999', 'x-rate-limit-limit': '30' },
			expected: { remaining: undefined, limit: 30 },
		},
		{
			name: 'remaining above the limit',
			headers: { 'x-rate-limit-remaining': '500', 'x-rate-limit-limit': '30' },
			expected: { remaining: 30, limit: 30 },
		},
		{
			name: 'limit 0',
			headers: { 'x-rate-limit-limit': '0', 'x-rate-limit-remaining': '0' },
			expected: { limit: undefined, remaining: 0 },
		},
		{
			name: 'limit negative, remaining fractional',
			headers: { 'x-rate-limit-limit': '-30', 'x-rate-limit-remaining': '2.5' },
			expected: { limit: undefined, remaining: undefined },
		},
	])('$name', ({ headers, expected }) => {
		// undefined: nothing readable at all (the same as no headers)
		const read = readRateLimit(headers as IDataObject, 'search', START);
		for (const [key, value] of Object.entries(expected))
			expect(read?.[key as keyof typeof read]).toBe(value);
		if (read?.resetAt !== undefined) {
			expect(read.resetAt).toBeGreaterThanOrEqual(START - 5 * MINUTE);
			expect(read.resetAt).toBeLessThanOrEqual(START + 65 * MINUTE);
		}
	});
});

// --- the transport's 429 waits --------------------------------------------------------------------

describe('the transport waiting for the reset (Max Wait 24 h): a handful of resends an hour, never once a second', () => {
	test.each(resetCases)('reset $name', async (c) => {
		server.any(rateLimited(c));
		const error = await failureOf(credentials(), async function () {
			const transport = new SentiOneTransport(this, { retry: { transientRetries: 0 } });
			return await transport.request({
				...route('recentSearch', 1001),
				body: {},
				retry: { maxRateLimitWaitMs: 24 * HOUR },
			});
		});
		const times = server.requests.map((r) => r.at);
		const most = mostInAnHour(times);
		note('transport, 429 waits', most);
		expect(error.message).toMatch(
			/^SentiOne's search budget is used up \(429\): at most 30 requests an hour for this key\. /,
		);
		expect(error.message).not.toMatch(BAD_WORDS);
		if (!c.plausible)
			expect(error.message).toMatch(
				/SentiOne gave no usable reset time; hourly budgets reset at the top of each hour\.$/,
			);
		expect(most).toBeLessThanOrEqual(8);
		expect(smallestGap(times)).toBeGreaterThanOrEqual(5000);
		// it gave up within the 24 h it was allowed, having waited the whole time
		expect(clock.now - START).toBeLessThanOrEqual(24 * HOUR);
		expect(server.requests.length).toBeGreaterThanOrEqual(20);
		expect(server.requests.length).toBeLessThanOrEqual(24 + 8);
		rows.push({
			fault: `429, reset ${c.name}`,
			through: 'transport (waiting up to 24 h)',
			cases: 1,
			outcome: `${server.requests.length} requests in ${((clock.now - START) / HOUR).toFixed(1)} virtual h, at most ${most} in an hour, none closer than ${Math.round(smallestGap(times) / 1000)} s; then a clear 429 error`,
		});
	});
});

// --- the pager's pre-check --------------------------------------------------------------------------

const SEARCH = /\/mentions\/recent\/search$/;

async function pageAll(choice: RateLimitChoice, maxWaitMs = 0) {
	return await inNode(credentials(), async function () {
		const transport = new SentiOneTransport(this, { retry: { transientRetries: 0 } });
		const result = await paginate(
			transport,
			{
				...route('recentSearch', 1001),
				body: {},
			},
			{ returnAll: true, onRateLimit: choice, maxWaitMs },
		);
		return {
			items: result.items.length,
			stopped: result.stopped?.message,
			waitedMs: result.waitedMs,
			complete: result.complete,
		};
	});
}

describe("the pager's budget pre-check acts only on a plausible reset", () => {
	const lastPage = { data: [mention('p2')], cursor: null };
	test.each([
		{
			name: 'remaining 0, reset in the year 3000',
			headers: () => rateHeaders({ limit: 30, remaining: 0, reset: 32503680000 }),
			waits: 0,
		},
		{
			name: 'remaining 0, reset 1e15',
			headers: () => rateHeaders({ limit: 30, remaining: 0, reset: '1000000000000000' }),
			waits: 0,
		},
		{
			name: 'remaining 0, reset garbage',
			headers: () => rateHeaders({ limit: 30, remaining: 0, reset: 'later' }),
			waits: 0,
		},
		{
			name: 'remaining 0, reset a day ago',
			headers: (at: number) =>
				rateHeaders({ limit: 30, remaining: 0, reset: seconds(at) - 86_400 }),
			waits: 0,
		},
		{
			name: 'remaining huge, reset 20 min ahead',
			headers: (at: number) =>
				rateHeaders({ limit: 30, remaining: '99999999999', reset: seconds(at) + 1200 }),
			waits: 0,
		},
		{
			name: 'remaining 0, reset 20 min ahead in milliseconds (plausible: waited for)',
			headers: (at: number) => rateHeaders({ limit: 30, remaining: 0, reset: at + 20 * MINUTE }),
			waits: 1,
		},
		{
			name: 'remaining negative, reset 20 min ahead (read as 0: waited for)',
			headers: (at: number) => rateHeaders({ limit: 30, remaining: -5, reset: seconds(at) + 1200 }),
			waits: 1,
		},
		{
			name: 'limit 0, remaining 0, reset 20 min ahead (waited for)',
			headers: (at: number) => rateHeaders({ limit: 0, remaining: 0, reset: seconds(at) + 1200 }),
			waits: 1,
		},
	])(
		'page 1 says $name: page 2 is fetched after $waits wait(s), no 429 spent',
		async ({ name, headers, waits }) => {
			server.route(
				'POST',
				SEARCH,
				pages((n, req) =>
					n === 1 ? { data: [mention('p1')], cursor: 'next', headers: headers(req.at) } : lastPage,
				),
			);
			const result = valueOf(await pageAll('wait', 2 * HOUR));
			expect(result).toMatchObject({ items: 2, complete: true });
			expect(server.requests).toHaveLength(2);
			expect(clock.slept).toHaveLength(waits);
			if (waits > 0) expect(clock.slept[0]).toBe(20 * MINUTE + 1000);
			expect(server.requests[1].at - server.requests[0].at).toBe(
				waits > 0 ? 20 * MINUTE + 1000 : 0,
			);
			rows.push({
				fault: `a page saying ${name}`,
				through: 'pager (pre-check)',
				cases: 1,
				outcome: waits
					? 'waited until the reset (20 min), no request wasted on a 429'
					: 'not waited for: the next page fetched at once',
			});
		},
	);

	test.each([
		{
			choice: 'fail' as const,
			outcome:
				/^SentiOne's search budget is used up \(429\): at most 30 requests an hour for this key\. SentiOne gave no usable reset time/,
		},
		{ choice: 'stop' as const, outcome: undefined },
	])(
		'a 429 with absurd resets on page 2, "$choice": one request, a clear outcome without a date',
		async ({ choice, outcome }) => {
			server.route('POST', SEARCH, [
				pages(() => ({ data: [mention('p1')], cursor: 'next' })),
				rateLimited(resetCases[0]),
			]);
			const run = await pageAll(choice);
			expect(server.requests).toHaveLength(2);
			if (outcome) {
				expect(run.ok).toBe(false);
				expect(run.error?.message).toMatch(outcome);
				expect(run.error?.message).not.toMatch(BAD_WORDS);
			} else {
				const result = valueOf(run);
				expect(result.stopped).toBe(
					'Stopped after 1 item (1 page): the hourly budget is used up. The items fetched so far are returned; run again after the reset for the rest.',
				);
			}
			rows.push({
				fault: `429 with a reset in the year 3000 (header and message), On Rate Limit "${choice}"`,
				through: 'pager',
				cases: 1,
				outcome: outcome ? 'a clear 429 error, no date' : '1 item returned with a notice, no date',
			});
		},
	);

	test('pages that all say "remaining 0, reset in the year 3000" for a day: fetched normally, never waited for', async () => {
		server.route(
			'POST',
			SEARCH,
			pages((n) => ({
				data: [mention(`p${n}`)],
				cursor: n < 40 ? `c${n}` : null,
				headers: rateHeaders({ limit: 30, remaining: 0, reset: 32503680000 }),
			})),
		);
		const result = valueOf(await pageAll('wait', 24 * HOUR));
		expect(result.items).toBe(40);
		expect(clock.slept).toEqual([]);
	});
});

// --- the poll trigger ------------------------------------------------------------------------------

const EMPTY = { data: [], cursor: null };
const STATE_KEY = 'sentiOneMentions';

function savedState(budget: unknown): IDataObject {
	return {
		[`node:SentiOne`]: {
			[STATE_KEY]: {
				v: 2,
				projectId: 1001,
				watermark: START - MINUTE,
				seen: [],
				floor: null,
				budget,
			},
		},
	};
}

describe('the poll trigger: a saved budget is re-checked, a poisoned one dropped', () => {
	const poisoned = [
		{
			name: 'remaining 0, reset in the year 3000 (ms)',
			budget: { limit: 30, remaining: 0, resetAt: 32503680000000 },
		},
		{
			name: 'remaining 0, reset in the year 3000 (seconds)',
			budget: { limit: 30, remaining: 0, resetAt: 32503680000 },
		},
		{ name: 'remaining 0, reset 1e300', budget: { limit: 30, remaining: 0, resetAt: 1e300 } },
		{ name: 'remaining 0, reset −1', budget: { limit: 30, remaining: 0, resetAt: -1 } },
		{ name: 'remaining 0, reset "soon"', budget: { limit: 30, remaining: 0, resetAt: 'soon' } },
		{
			name: 'remaining 0, reset in 10 years',
			budget: {
				limit: 30,
				remaining: 0,
				resetAt: START + 3650 * 24 * HOUR,
				reported: START + 3650 * 24 * HOUR,
			},
		},
		{
			name: 'remaining 0, reset a year ago',
			budget: { limit: 30, remaining: 0, resetAt: START - 365 * 24 * HOUR },
		},
		{
			name: 'remaining −5, reset 10 min ahead',
			budget: { limit: 30, remaining: -5, resetAt: START + 10 * MINUTE },
		},
		{ name: 'limit 0, remaining 0, no reset', budget: { limit: 0, remaining: 0 } },
		{ name: 'a budget that is a string', budget: 'exhausted' },
	];

	test.each(poisoned)('saved budget: $name → polls go on, one request each', async ({ budget }) => {
		server.route(
			'POST',
			SEARCH,
			pages(() => EMPTY),
		);
		const harness = new PollHarness(pollParameters(1001), credentials(), savedState(budget));
		const outcomes = [];
		for (let k = 0; k < 12; k++) {
			outcomes.push(await harness.poll());
			clock.now += 5 * MINUTE;
		}
		for (const o of outcomes)
			expect(o.error?.message ?? '').not.toMatch(/Invalid time value|Invalid Date|NaN/);
		// every poll sent its one request: none was stopped by the poisoned budget
		expect(server.requests).toHaveLength(12);
		const saved = (harness.staticData()[STATE_KEY] as IDataObject).budget as
			| IDataObject
			| undefined;
		expect(
			saved?.resetAt === undefined || (saved.resetAt as number) <= clock.now + 65 * MINUTE,
		).toBe(true);
		rows.push({
			fault: `saved budget poisoned: ${JSON.stringify(budget).slice(0, 80)}`,
			through: 'SentiOne Trigger (saved state)',
			cases: 1,
			outcome: `dropped on load: 12 polls in a virtual hour, 12 requests, no "Invalid time value"`,
		});
	});

	test('a plausible saved budget (remaining 0, reset in 20 min) is honoured: reported once, no request until the reset', async () => {
		server.route(
			'POST',
			SEARCH,
			pages(() => EMPTY),
		);
		const harness = new PollHarness(
			pollParameters(1001),
			credentials(),
			savedState({ limit: 30, remaining: 0, resetAt: START + 20 * MINUTE }),
		);
		const messages: Array<string | null> = [];
		for (let k = 0; k < 12; k++) {
			const o = await harness.poll();
			messages.push(o.error?.message ?? null);
			clock.now += 5 * MINUTE;
		}
		expect(messages[0]).toMatch(
			/^SentiOne's search budget is used up \(429\): at most 30 requests an hour for this API key\. It resets at 2026-11-21 10:50 UTC \(in 20 min\)\.$/,
		);
		expect(messages.slice(1).every((m) => m === null)).toBe(true);
		// polls at 10:30 … 10:45 wait; from 10:50 on every poll sends its request
		expect(server.requests.map((r) => new Date(r.at).toISOString().slice(11, 16))).toEqual([
			'10:50',
			'10:55',
			'11:00',
			'11:05',
			'11:10',
			'11:15',
			'11:20',
			'11:25',
		]);
		rows.push({
			fault: 'saved budget plausible: remaining 0, reset in 20 min',
			through: 'SentiOne Trigger (saved state)',
			cases: 1,
			outcome: 'reported once, no request until the reset, then every poll',
		});
	});

	test.each([resetCases[0], resetCases[2], resetCases[5], resetCases[8], resetCases[11]])(
		'every poll answered 429 with reset $name: one request an hour, reported once an hour, never stopped for good',
		async (c) => {
			server.route('POST', SEARCH, rateLimited(c));
			const harness = new PollHarness(pollParameters(1001), credentials(), savedState(undefined));
			const errors: string[] = [];
			for (let k = 0; k < 24; k++) {
				const o = await harness.poll();
				if (o.error) errors.push(o.error.message);
				clock.now += 5 * MINUTE;
			}
			// an unusable reset counts as the top of the next hour (D-07): the polls in between wait quietly
			expect(server.requests.length).toBeGreaterThanOrEqual(2);
			expect(mostInAnHour(server.requests.map((r) => r.at))).toBeLessThanOrEqual(2);
			note(
				'poll trigger, 429 with a broken reset (a poll every 5 min)',
				mostInAnHour(server.requests.map((r) => r.at)),
			);
			for (const message of errors) {
				expect(message).toMatch(
					/^SentiOne's search budget is used up \(429\): at most 30 requests an hour for this API key\. It resets at \d{4}-\d\d-\d\d \d\d:00 UTC \(in \d+ min\)\.$/,
				);
			}
			expect(errors).toHaveLength(server.requests.length);
			const saved = (harness.staticData()[STATE_KEY] as IDataObject).budget as IDataObject;
			expect((saved.resetAt as number) % HOUR).toBe(0);
			rows.push({
				fault: `every poll answered 429, reset ${c.name}`,
				through: 'SentiOne Trigger',
				cases: 1,
				outcome: `${server.requests.length} requests in 2 virtual h (24 polls): the unusable reset counts as the next top of the hour; each refusal reported once`,
			});
		},
	);

	test.each([resetCases[0], resetCases[6]])(
		'answers saying "remaining 0" with reset $name: the next poll is not blocked',
		async (c) => {
			server.route(
				'POST',
				SEARCH,
				pages((_n, req) => ({
					...EMPTY,
					headers: rateHeaders({
						limit: 30,
						remaining: 0,
						reset: c.reset(req.at) as string | number,
					}),
				})),
			);
			const harness = new PollHarness(pollParameters(1001), credentials(), savedState(undefined));
			for (let k = 0; k < 6; k++) {
				expect((await harness.poll()).error).toBeUndefined();
				clock.now += 5 * MINUTE;
			}
			expect(server.requests).toHaveLength(6);
			rows.push({
				fault: `200 answers with remaining 0, reset ${c.name}`,
				through: 'SentiOne Trigger',
				cases: 1,
				outcome: 'the budget kept without a reset: every poll sends its request',
			});
		},
	);
});

// --- the stream trigger ----------------------------------------------------------------------------

const LIVE = /\/stream\/live$/;

describe('the stream trigger reconnecting after hourly 429s with a broken reset: a handful of connections an hour', () => {
	const opened: ActiveStreamTrigger[] = [];
	afterEach(async () => {
		for (const trigger of opened.splice(0)) await trigger.close();
	});

	async function reconnects(first: Behaviour, then: Behaviour, hours: number) {
		server.route('POST', LIVE, [first, then]);
		const trigger = await activateStreamTrigger(
			streamParameters(
				{ project: projectParam(1001) } as INodeParameters,
				{ stallTimeout: 30, fillGaps: false } as IDataObject,
			),
			credentials(),
		);
		opened.push(trigger);
		// a trigger that spun would open hundreds of connections before the virtual hours pass
		await waitFor(() => clock.now - START >= hours * HOUR || server.on(LIVE).length > 500, {
			what: `${hours} virtual hours`,
			timeoutMs: 50_000, // real time; a loaded CI machine runs the virtual hours slower
		});
		await trigger.close();
		await sleep(20);
		const times = server.on(LIVE).map((r) => r.at);
		return { trigger, times, most: mostInAnHour(times), gap: smallestGap(times.slice(1)) };
	}

	/** the first connection opens, sends a heartbeat and ends; every later one is refused */
	const endsAtOnce = stream({ frame: (i) => (i === 0 ? sse.heartbeat() : null) });

	test.each(resetCases)('reset $name', async (c) => {
		const {
			trigger,
			times: all,
			most,
			gap,
		} = await reconnects(endsAtOnce, rateLimited(c, 'live'), 6);
		// the trigger may run on past the 6 virtual hours before the test notices: count those only
		const times = all.filter((t) => t < START + 6 * HOUR);
		note('stream trigger, reconnects after hourly 429s', most);
		expect(trigger.errors).toEqual([]);
		expect(most).toBeLessThanOrEqual(8);
		expect(gap).toBeGreaterThanOrEqual(5000);
		// it keeps trying (never stops for good): at least one attempt in every virtual hour
		expect(times.length).toBeGreaterThanOrEqual(6);
		for (const failure of trigger.failures)
			expect(failure.message).not.toMatch(/Invalid time value|NaN/);
		rows.push({
			fault: `live stream, 429s with reset ${c.name}`,
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome: `${times.length} connections in 6 virtual h, at most ${most} in an hour, none closer than ${Math.round(gap / 1000)} s after the first refusal; never fatal`,
		});
	});

	test("the hour's last connection outlives its reset, then ends: the next one opens at once, not an hour later", async () => {
		const resetAt = START + 30 * MINUTE;
		// remaining 0 with a reset 30 minutes ahead; heartbeats while the clock passes the reset
		const lastOfHour = stream({
			everyMs: 10,
			headers: rateHeaders({ limit: 5, remaining: 0, reset: Math.floor(resetAt / 1000) }),
			frame: (i) => {
				if (i === 3) clock.now = resetAt + MINUTE;
				return i < 6 ? sse.heartbeat() : null;
			},
		});
		const holds = stream({ everyMs: 50, frame: () => sse.heartbeat() });
		server.route('POST', LIVE, [lastOfHour, holds]);
		const trigger = await activateStreamTrigger(
			streamParameters(
				{ project: projectParam(1001) } as INodeParameters,
				{ stallTimeout: 30, fillGaps: false } as IDataObject,
			),
			credentials(),
		);
		opened.push(trigger);
		await waitFor(() => server.on(LIVE).length >= 2, {
			what: 'the second connection',
			timeoutMs: 10_000,
		});
		const [, second] = server.on(LIVE).map((r) => r.at);
		// the headers spoke of the window that has ended: plain backoff (≤ 1 s), no budget wait
		expect(second - (resetAt + MINUTE)).toBeLessThan(5_000);
		expect(trigger.errors).toEqual([]);
		expect(trigger.failures).toEqual([]);
		rows.push({
			fault: 'live stream: remaining 0 with a reset ahead, connection outlives the reset',
			through: 'SentiOne Stream Trigger',
			cases: 1,
			outcome: `reconnected ${Math.round((second - resetAt - MINUTE) / 1000)} s after it ended (the stated count belonged to the window that had ended)`,
		});
	});

	const stated =
		(reset: () => number | string, remaining = 0) =>
		() =>
			rateHeaders({ limit: 5, remaining, reset: reset() });
	test.each([
		{ name: 'remaining 0, reset in the year 3000', headers: stated(() => 32503680000) },
		{ name: 'remaining −1, reset garbage', headers: stated(() => 'later', -1) },
		{
			// the reset passes while each connection lives: every answer's window "has ended" by the
			// time it drops, so the stated 0 never makes the trigger wait, and only the backoff bounds it
			name: 'remaining 0, a reset always a second ahead',
			headers: stated(() => Math.floor(clock.now / 1000) + 1),
		},
		{
			name: 'remaining 0, a reset always a minute behind',
			headers: stated(() => Math.floor(clock.now / 1000) - 60),
		},
	])(
		'connections accepted but ended at once, answers saying $name: bounded by the reconnect backoff',
		async ({ name, headers }) => {
			// each connection: a heartbeat, 2 s of virtual time, then the end (frames 50 ms apart, so
			// the node has read the headers before the clock moves)
			const accepted: Behaviour = (req, res, srv) =>
				stream({
					everyMs: 50,
					frame: (i) => {
						if (i === 0) return sse.heartbeat();
						clock.now += 2000;
						return null;
					},
					headers: headers(),
				})(req, res, srv);
			const { trigger, times: all, most } = await reconnects(accepted, accepted, 3);
			const times = all.filter((t) => t < START + 3 * HOUR);
			note(
				/always a second ahead/.test(name)
					? 'stream trigger, accepted connections ending at once (remaining 0, reset passing each time)'
					: 'stream trigger, accepted connections ending at once (remaining 0, broken reset)',
				most,
			);
			expect(trigger.errors).toEqual([]);
			// the backoff after connections that end at once: 0.5 s doubling to 60 s, so at most ≈ 70 an hour
			expect(most).toBeLessThanOrEqual(75);
			figures[
				`stream trigger, accepted connections ending at once (${name}): most per virtual hour`
			] = most;
			rows.push({
				fault: `live stream accepted then ended at once, ${name}`,
				through: 'SentiOne Stream Trigger',
				cases: 1,
				outcome: `${times.length} connections in 3 virtual h, at most ${most} in an hour (reconnect backoff, 60 s at most)`,
			});
		},
	);
});
