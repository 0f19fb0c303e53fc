/**
 * Every error the package raises declares why it failed (shared/errors/failure.ts), the cause n8n
 * 2.x's poll scheduler backs off by: per status, body and rate-limit headers of SentiOne's answer
 * (httpErrors.ts), per failure without a usable answer (connectionErrors.ts), and for the errors
 * built outside the mapper (a refused parameter, the poll trigger's spent budget, its notices).
 * Times are checked to the millisecond against the node's (fake) clock.
 */
import { ACTIONABLE_CAUSES, NodeApiError, NodeOperationError, TIMED_CAUSES } from 'n8n-workflow';

import type { EndpointName } from '../../../../nodes/SentiOne/shared/contract';
import { ENDPOINTS, UNAUTHORIZED_TEXTS } from '../../../../nodes/SentiOne/shared/contract';
import type { RateLimitState, RequestInfo } from '../../../../nodes/SentiOne/shared/errors';
import {
	asNodeError,
	credentialProblem,
	declareFailure,
	failureOf,
	FAILURES,
	mapHttpError,
	mapNetworkError,
	redirectRefused,
	streamInterrupted,
	tierKnownRefused,
	unusableAnswer,
} from '../../../../nodes/SentiOne/shared/errors';
import { invalidParameter } from '../../../../nodes/SentiOne/shared/parameters';
import { SentiOneTrigger } from '../../../../nodes/SentiOne/SentiOneTrigger.node';
import { budgetError, noticeError } from '../../../../nodes/SentiOne/trigger/poll/notices';
import { failAction, projectById } from '../../../support/fake/action';
import { FakeApi, page, rateLimitHeaders } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';
import { actionNodeOf, pollContext } from '../../../support/fake/context';
import { mentionEvent, mentions, streamAnswer } from '../../../support/fake/mentions';
import { HOUR, MINUTE, SECOND } from '../../../support/time';

/** 10:30 UTC: the next hourly window starts at 11:00, the next month on December 1st. */
const NOW = Date.UTC(2026, 10, 21, 10, 30);
const TOP_OF_NEXT_HOUR = Date.UTC(2026, 10, 21, 11, 0);
const FIRST_OF_NEXT_MONTH = Date.UTC(2026, 11, 1);
const clock = useFakeClock(NOW);

const node = actionNodeOf('node-1');

/** The request of an endpoint of the contract's table, as the transport describes it to the mapper. */
function requestOf(endpoint: EndpointName, path: string): RequestInfo {
	const def = ENDPOINTS[endpoint];
	return { endpoint, method: def.method, path, group: def.group, tier: def.tier, zone: 'UTC' };
}

const SEARCH = requestOf('recentSearch', '/projects/1001/mentions/recent/search');
const HISTORICAL = requestOf('historicalSearch', '/projects/1001/mentions/search');
const LIVE = requestOf('liveStream', '/projects/1001/mentions/recent/search/stream/live');

function rateLimit(remaining: number, resetAt?: number): RateLimitState {
	return { group: 'search', limit: 30, remaining, resetAt, readAt: NOW };
}

function mapped(
	statusCode: number,
	body: unknown,
	options: { request?: RequestInfo; rateLimit?: RateLimitState; contentType?: string } = {},
) {
	return mapHttpError(node, options.request ?? SEARCH, {
		statusCode,
		body,
		contentType: options.contentType,
		rateLimit: options.rateLimit,
	});
}

const hourlyText = (resetIso?: string) =>
	`Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30.${resetIso ? ` Limits will reset at ${resetIso}.` : ''}`;

const CONFIGURATION = { cause: 'configuration-invalid' };
const CREDENTIAL = { cause: 'credential-invalid' };
const UNAVAILABLE = { cause: 'temporarily-unavailable' };

describe('declaring a failure', () => {
	test('sets a plain property after the error is built, so an n8n-workflow without the option (1.x) is unaffected', () => {
		const error = new NodeOperationError(node, 'something failed');
		expect(declareFailure(error, { cause: 'rate-limited', retryAfterMs: 5000 })).toBe(error);
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 5000 });
		expect(Object.getOwnPropertyDescriptor(error, 'failure')?.enumerable).toBe(true);
		// the words are untouched
		expect(error.message).toBe('something failed');
	});

	test('no failure leaves the error as it was; failureOf reads only a cause n8n could read', () => {
		const error = new NodeOperationError(node, 'notice');
		declareFailure(error, undefined);
		expect(failureOf(error)).toBeUndefined();
		expect(failureOf({ failure: { cause: 42 } })).toBeUndefined();
		expect(failureOf({ failure: 'quota' })).toBeUndefined();
		expect(failureOf(undefined)).toBeUndefined();
		expect(failureOf({ failure: { cause: 'node-defect' } })).toEqual({ cause: 'node-defect' });
	});

	test('a raw error wrapped for n8n keeps the failure it declared; a node error passes unchanged', () => {
		const raw = declareFailure(new Error('broken'), FAILURES.temporarilyUnavailable());
		expect(asNodeError(node, raw).failure).toEqual(UNAVAILABLE);
		expect(asNodeError(node, new Error('plain')).failure).toBeUndefined();
		const mappedError = mapped(503, { message: 'down' });
		expect(asNodeError(node, mappedError)).toBe(mappedError);
	});

	test('each declaration is a fresh object: changing one error’s failure changes no other', () => {
		const a = FAILURES.configurationInvalid();
		const b = FAILURES.configurationInvalid();
		expect(a).toEqual(b);
		expect(a).not.toBe(b);
	});
});

describe('SentiOne answered: the cause per status, body and headers', () => {
	test.each([
		[400, { message: 'filters.publishedAt.from must be an ISO 8601 date.' }],
		[406, { message: 'Not acceptable.' }],
		[415, { message: 'Content-Type must be application/json.' }],
		[422, { message: 'Invalid request', requestFieldErrors: { sortType: ['not supported'] } }],
		[403, '<html><body>Forbidden</body></html>'],
		[409, { message: 'Conflict' }],
		[418, { message: "I'm a teapot" }],
	])(
		'%i: the request or the server addressed must change: configuration-invalid',
		(status, body) => {
			expect(mapped(status, body).failure).toEqual(CONFIGURATION);
		},
	);

	test('403: named for what it is, with where to look (the project, a proxy), not as an unexpected status', () => {
		const error = mapped(403, { message: 'Forbidden.' });
		expect(error.message).toBe('SentiOne refused access (403): Forbidden.');
		expect(error.description).toMatch(/answers a key or tier problem with 401/);
		expect(error.description).toMatch(/may not see this project or mention \(check the ID\)/);
		expect(error.description).toMatch(/proxy or firewall/);
		expect(error.description).toMatch(/on POST \/projects\/1001\//);
	});

	test.each([500, 501, 502, 503, 504, 599])(
		'%i: a server error may pass: temporarily-unavailable, with no time to wait for',
		(status) => {
			expect(mapped(status, { message: 'Internal error' }).failure).toEqual(UNAVAILABLE);
		},
	);

	test('408: a request timeout may pass too: temporarily-unavailable', () => {
		expect(mapped(408, { message: 'Request Timeout' }).failure).toEqual(UNAVAILABLE);
	});

	test.each([
		['a key SentiOne does not recognise', UNAUTHORIZED_TEXTS.notRecognised],
		['a key that is not shaped like a key', UNAUTHORIZED_TEXTS.badShape],
		['no key at all', 'API key is missing.'],
		['a 401 in words the node does not know', 'Go away.'],
	])('401, %s: credential-invalid', (_what, message) => {
		const error = mapped(401, { message });
		expect(error.message).toMatch(/^SentiOne refused the API key \(401\)/);
		expect(error.failure).toEqual(CREDENTIAL);
	});

	test('401 for a tier the key lacks: the configuration (the operation, or the key’s tier) must change', () => {
		const refused = mapped(
			401,
			{ message: UNAUTHORIZED_TEXTS.lacksTier('Enterprise') },
			{
				request: HISTORICAL,
			},
		);
		expect(refused.message).toMatch(/needs SentiOne's Enterprise tier/);
		expect(refused.failure).toEqual(CONFIGURATION);
		// the same refusal without a row of the table (the transport's own tests send such requests)
		const unnamed: RequestInfo = { ...HISTORICAL, endpoint: undefined };
		expect(
			mapped(401, { message: UNAUTHORIZED_TEXTS.lacksTier('Enterprise') }, { request: unnamed })
				.failure,
		).toEqual(CONFIGURATION);
		// a later operation of the run refused without a request
		expect(tierKnownRefused(node, HISTORICAL)?.failure).toEqual(CONFIGURATION);
	});

	test.each([
		[404, { message: 'Project 1001 not found.' }, SEARCH],
		[404, { message: 'Mention m-1 not found in project 1001.' }, SEARCH],
		[404, { message: 'Not found.' }, LIVE],
		[404, { message: 'Not Found' }, SEARCH],
		[405, { message: 'Method not allowed.' }, requestOf('createProject', '/projects')],
	])(
		'%i %j: a project, mention or route that is not there: configuration-invalid',
		(status, body, request) => {
			expect(mapped(status, body, { request }).failure).toEqual(CONFIGURATION);
		},
	);

	describe('429', () => {
		test('the hourly budget in SentiOne’s words: quota-exhausted until the reset the message states', () => {
			const resetAt = NOW + 20 * MINUTE;
			const error = mapped(
				429,
				{ message: hourlyText(new Date(resetAt).toISOString()) },
				{
					rateLimit: rateLimit(0, NOW + 25 * MINUTE),
				},
			);
			expect(error.failure).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: resetAt });
		});

		test('the hourly budget, its reset only in the headers: quota-exhausted until that reset', () => {
			const resetAt = NOW + 25 * MINUTE;
			const error = mapped(429, { message: hourlyText() }, { rateLimit: rateLimit(0, resetAt) });
			expect(error.failure).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: resetAt });
		});

		test('the hourly budget with no usable reset: quota-exhausted until the top of the next hour (D-07)', () => {
			expect(mapped(429, { message: hourlyText() }).failure).toEqual({
				cause: 'quota-exhausted',
				resetsAtEpochMs: TOP_OF_NEXT_HOUR,
			});
			// a reset far beyond an hourly window is not believed either
			const far = new Date(NOW + 5 * HOUR).toISOString();
			expect(mapped(429, { message: hourlyText(far) }).failure).toEqual({
				cause: 'quota-exhausted',
				resetsAtEpochMs: TOP_OF_NEXT_HOUR,
			});
		});

		test('a 429 in other words with no request left (the headers): still the hourly budget', () => {
			const resetAt = NOW + 10 * MINUTE;
			const error = mapped(429, 'Too Many Requests', { rateLimit: rateLimit(0, resetAt) });
			expect(error.failure).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: resetAt });
		});

		test('a 429 that states no budget (a proxy, a throttle): rate-limited, the wait the reset known', () => {
			const resetAt = NOW + 90 * SECOND;
			expect(
				mapped(429, 'Too Many Requests', { rateLimit: rateLimit(3, resetAt) }).failure,
			).toEqual({ cause: 'rate-limited', retryAfterMs: 90 * SECOND });
			expect(mapped(429, 'Too Many Requests').failure).toEqual({ cause: 'rate-limited' });
		});

		test('too many open streams: rate-limited, no time to wait for (a connection frees when another closes)', () => {
			const error = mapped(
				429,
				{
					message:
						'Maximum number of concurrent connections for this endpoint is 2. Close an open stream and try again.',
				},
				{ request: LIVE, rateLimit: { ...rateLimit(4, NOW + 30 * MINUTE), group: 'live' } },
			);
			expect(error.message).toMatch(/^Too many open live stream connections \(429\)/);
			expect(error.failure).toEqual({ cause: 'rate-limited' });
		});

		test('the monthly mentions cap: quota-exhausted until the reset it states, weeks ahead (D-09)', () => {
			const resetAt = FIRST_OF_NEXT_MONTH;
			const error = mapped(429, {
				message: `Monthly mentions cap of 10000 has been exceeded. The cap resets at ${new Date(resetAt).toISOString()}.`,
			});
			expect(error.failure).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: resetAt });
		});

		test('the monthly mentions cap without a reset: the 1st of next month, 00:00 UTC', () => {
			const error = mapped(429, { message: 'Monthly mentions cap of 10000 has been exceeded.' });
			expect(error.failure).toEqual({
				cause: 'quota-exhausted',
				resetsAtEpochMs: FIRST_OF_NEXT_MONTH,
			});
			clock().now = Date.UTC(2026, 11, 31, 23, 59);
			expect(
				mapped(429, { message: 'Monthly mentions cap of 10000 has been exceeded.' }).failure,
			).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: Date.UTC(2027, 0, 1) });
		});
	});

	test('every status from 400 to 599, any body: a cause n8n knows, never node-defect', () => {
		const known = new Set<string>([...TIMED_CAUSES, ...ACTIONABLE_CAUSES]);
		const bodies: unknown[] = [undefined, '', '<html>oops</html>', { message: 'Nope' }, { x: 1 }];
		for (let status = 400; status <= 599; status++) {
			for (const body of bodies) {
				const cause = failureOf(mapped(status, body))?.cause;
				expect([status, known.has(String(cause))]).toEqual([status, true]);
				expect(cause).not.toBe('node-defect');
			}
		}
	});
});

describe('no usable answer', () => {
	test.each([
		['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'],
		['ECONNRESET', 'socket hang up'],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND api.example'],
		['ETIMEDOUT', 'timeout'],
		['EAI_AGAIN', 'getaddrinfo EAI_AGAIN'],
		['CERT_HAS_EXPIRED', 'certificate has expired'],
		['', 'something else'],
	])('no answer (%s): temporarily-unavailable', (code, message) => {
		const error = mapNetworkError(node, SEARCH, { code, message }, 3);
		expect(error.failure).toEqual(UNAVAILABLE);
	});

	test('a Base URL with https:// in front of a plain-http server: configuration-invalid (it will not pass)', () => {
		for (const cause of [
			{ code: 'EPROTO', message: 'write EPROTO' },
			{ code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' },
		]) {
			const error = mapNetworkError(node, SEARCH, cause, 1);
			expect(error.message).toMatch(/does not speak https/);
			expect(error.failure).toEqual(CONFIGURATION);
		}
	});

	test('an answer that cannot be used (not JSON, cut short, too large, stalled): temporarily-unavailable', () => {
		expect(
			unusableAnswer(node, SEARCH, 'status 200 came with a body that is not JSON').failure,
		).toEqual(UNAVAILABLE);
	});

	test('a stream that broke off, went silent or ran past its deadline: temporarily-unavailable', () => {
		for (const reason of ['dropped', 'stalled', 'deadline'] as const) {
			expect(streamInterrupted(node, reason, 'no complete event for 45 s').failure).toEqual(
				UNAVAILABLE,
			);
		}
	});

	test('a stream that brought more than its cap: configuration-invalid (the same export brings as much again)', () => {
		expect(streamInterrupted(node, 'oversize', '3 MB arrived').failure).toEqual(CONFIGURATION);
	});

	test('a redirect the node does not follow: configuration-invalid (the Base URL)', () => {
		const error = redirectRefused(
			node,
			SEARCH,
			301,
			'https://elsewhere.example/x',
			'https://api.sentione.com/api/public/v2',
		);
		expect(error.failure).toEqual(CONFIGURATION);
	});

	test('the credential’s own refusal before sending (no key, a key of the wrong shape, a bad Base URL): credential-invalid', () => {
		for (const text of [
			'SentiOne credential: the API key is missing. Paste the key …',
			'SentiOne credential: the API key does not have the shape of a SentiOne key …',
			'SentiOne credential: the Base URL is not a web address.',
		]) {
			expect(credentialProblem(node, new Error(text))?.failure).toEqual(CREDENTIAL);
		}
	});
});

describe('errors built outside the mapper', () => {
	const ctx = () => pollContext({ nodeType: new SentiOneTrigger(), timezone: 'UTC' });

	test('a parameter refused before sending: configuration-invalid', () => {
		expect(invalidParameter(node, 'Limit', '"0" is not valid.', 0).failure).toEqual(CONFIGURATION);
	});

	test('the poll trigger’s spent search budget: quota-exhausted until the reset it names', () => {
		const resetAt = NOW + 17 * MINUTE;
		const error = budgetError(ctx(), { limit: 30, remaining: 0, resetAt }, true);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.failure).toEqual({ cause: 'quota-exhausted', resetsAtEpochMs: resetAt });
		// no reset known: the top of the next hour, as the trigger itself waits (D-07)
		expect(budgetError(ctx(), { remaining: 0 }, false).failure).toEqual({
			cause: 'quota-exhausted',
			resetsAtEpochMs: TOP_OF_NEXT_HOUR,
		});
	});

	test('a notice reported as an error is no failure: it declares no cause', () => {
		expect(noticeError(ctx(), ['SentiOne did not apply a filter.']).failure).toBeUndefined();
	});
});

describe('through the action node (the pager and the export)', () => {
	const SEARCH_PATH = '/projects/1001/mentions/recent/search';
	const EXPORT_PATH = '/projects/1001/mentions/recent/search/stream';
	const search = { resource: 'mention', operation: 'searchRecent', project: projectById(1001) };
	const exportAll = (options: Record<string, unknown> = {}) => ({
		resource: 'mention',
		operation: 'export',
		project: projectById(1001),
		returnAll: true,
		options,
	});

	test('a budget the headers said was spent, no request sent for the next page: quota-exhausted until their reset', async () => {
		const resetAt = NOW + 30 * MINUTE;
		const api = new FakeApi().on('POST', SEARCH_PATH, {
			headers: rateLimitHeaders(30, 0, resetAt),
			body: page(mentions(25), 'p2'),
		});
		const failure = await failAction({ ...search, returnAll: true }, { api });
		expect(failure.message).toMatch(/^SentiOne's search budget is used up \(30 requests an hour\)/);
		expect(api.requests).toHaveLength(1);
		expect(failure.error).toHaveProperty('failure', {
			cause: 'quota-exhausted',
			resetsAtEpochMs: resetAt,
		});
	});

	test('a server paging in circles: temporarily-unavailable', async () => {
		let n = 0;
		const api = new FakeApi().on('POST', SEARCH_PATH, () => ({ body: page([], `empty-${++n}`) }));
		const failure = await failAction({ ...search, returnAll: true }, { api });
		expect(failure.message).toMatch(/^SentiOne returned 3 pages in a row with nothing new/);
		expect(failure.error).toHaveProperty('failure', UNAVAILABLE);
	});

	test('an export that broke off: temporarily-unavailable, the cause of the break', async () => {
		const api = new FakeApi().on(
			'POST',
			EXPORT_PATH,
			streamAnswer('sse', mentions(2).map(mentionEvent), {
				breakOff: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
			}),
		);
		const failure = await failAction(exportAll(), { api });
		expect(failure.message).toMatch(/^The export stream broke off after 2 mentions/);
		expect(failure.error).toHaveProperty('failure', UNAVAILABLE);
	});

	test('an export past Max Mentions per Run or Max Size: configuration-invalid (the same export stops again)', async () => {
		const many = new FakeApi().on(
			'POST',
			EXPORT_PATH,
			streamAnswer('sse', mentions(5).map(mentionEvent)),
		);
		const count = await failAction(exportAll({ maxMentions: 3 }), { api: many });
		expect(count.message).toBe('The export stopped at 3 mentions (Options → Max Mentions per Run)');
		expect(count.error).toHaveProperty('failure', CONFIGURATION);
		const big = new FakeApi().on(
			'POST',
			EXPORT_PATH,
			streamAnswer(
				'sse',
				mentions(12, { content: { text: 'x'.repeat(100_000) } }).map(mentionEvent),
				{ chunkSize: 64 * 1024 },
			),
		);
		const size = await failAction(exportAll({ maxSizeMb: 1 }), { api: big });
		expect(size.message).toMatch(/^The export stopped at 1 MB of stream data/);
		expect(size.error).toHaveProperty('failure', CONFIGURATION);
	});

	test('a refused parameter: configuration-invalid, nothing sent', async () => {
		const api = new FakeApi();
		const failure = await failAction({ ...search, limit: 0 }, { api });
		expect(failure.message).toMatch(/^Limit: "0" is not valid/);
		expect(failure.error).toHaveProperty('failure', CONFIGURATION);
		expect(api.requests).toHaveLength(0);
	});
});
