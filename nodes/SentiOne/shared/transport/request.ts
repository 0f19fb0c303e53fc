/**
 * One API call with the retry policy (retry.ts): send it, read what the answer comes to, then
 * return it, wait for an hourly rate-limit reset when the caller allows it, back off and send a
 * read again after a transient failure, or throw the error the user sees.
 */
import type { IDataObject } from 'n8n-workflow';

import { attempt } from '../attempt';
import { JSON_MEDIA_TYPE } from '../contract';
import type { RateLimitState, RequestInfo } from '../errors';
import { credentialProblem, errorDetails, unusableAnswer } from '../errors';
import { clock, serverClock } from '../clock';
import { parseJsonOrText } from './bodyGuard';
import { isStopped } from './cancel';
import { headerValue } from './rateLimitHeaders';
import type { RetryPolicy } from './retry';
import {
	DEFAULT_RETRY,
	isCancelled,
	isTransientNetwork,
	rateLimitWait,
	TRANSIENT_STATUSES,
} from './retry';
import { failure, readBody, refuseRedirect, send } from './send';
import type { Session } from './session';
import { DEFAULTS } from './session';
import type { ApiRequest, ApiResult } from './types';

/** What one exchange with the server came to. */
type Answer<T> =
	/** a usable answer: the call is done */
	| { kind: 'done'; value: Pick<ApiResult<T>, 'body' | 'statusCode' | 'rateLimit'> }
	/** an hourly rate limit: the caller may allow a wait for its reset */
	| { kind: 'hourlyLimit'; error: Error; resetAt: number | undefined }
	/** may not happen again: a read backs off and asks again, anything else throws `error()` */
	| { kind: 'transient'; error: () => Error }
	/** asking again would change nothing */
	| { kind: 'final'; error: Error };

/** An answer's status and body, read whole. */
interface Reply {
	statusCode: number;
	rateLimit: RateLimitState | undefined;
	contentType: string | undefined;
	text: string;
}

/** What the call has spent so far. */
interface Tally {
	/** requests sent */
	attempts: number;
	/** time waited for rate-limit resets */
	waitedMs: number;
	rateLimitWaits: number;
	transientFailures: number;
}

/** One API call with the retry policy; resolves with the parsed JSON body. */
export async function request<T = IDataObject>(
	session: Session,
	req: ApiRequest,
): Promise<ApiResult<T>> {
	const policy: RetryPolicy = { ...DEFAULT_RETRY, ...session.options.retry, ...req.retry };
	const info = session.info(req);
	const refused = session.knownRefusal(info);
	if (refused) throw refused;
	const tally: Tally = { attempts: 0, waitedMs: 0, rateLimitWaits: 0, transientFailures: 0 };
	for (;;) {
		tally.attempts++;
		const answer = await exchange<T>(session, req, info, tally.attempts);
		switch (answer.kind) {
			case 'done':
				return { ...answer.value, attempts: tally.attempts, waitedMs: tally.waitedMs };
			case 'hourlyLimit':
				if (await waitedForReset(session, answer.resetAt, policy, tally, req)) continue;
				throw answer.error;
			case 'transient':
				// a read may be sent again after a transient failure, a few times
				if (req.read && tally.transientFailures < policy.transientRetries) {
					await backOff(session, policy, tally, req);
					continue;
				}
				throw answer.error();
			case 'final':
				throw answer.error;
		}
	}
}

/** Sends the request once and reads what the answer comes to (a redirect is refused here). */
async function exchange<T>(
	session: Session,
	req: ApiRequest,
	info: RequestInfo,
	attempts: number,
): Promise<Answer<T>> {
	const deadlineAt = Date.now() + (session.options.deadlineMs ?? DEFAULTS.deadlineMs);
	const { method, path, qs, body, signal } = req;
	const sent = await attempt(
		async () => await send(session, method, path, qs, body, JSON_MEDIA_TYPE, signal),
	);
	if (!sent.ok) return noAnswer(session, sent.error, info, attempts, signal);
	const { raw, abort } = sent.value;
	const statusCode = Number(raw.statusCode);
	const headers = raw.headers as IDataObject;
	if (statusCode >= 300 && statusCode < 400) await refuseRedirect(session, raw, info, abort);
	// SentiOne's clock, from the Date its headers carry (clock.ts, D-50)
	serverClock.observe(headerValue(headers, 'date'));
	const rateLimit = session.rateLimitOf(headers, req.group);
	const contentType = headerValue(headers, 'content-type');
	const read = await readBody(session, raw.body, info, abort, {
		deadlineAt,
		signal,
		arrived: req.arrived,
	});
	if ('broken' in read)
		return { kind: 'transient', error: () => unusableAnswer(session.node, info, read.broken) };
	const reply: Reply = { statusCode, rateLimit, contentType, text: read.text };
	if (statusCode >= 200 && statusCode < 300 && req.answerUnused)
		return { kind: 'done', value: { body: {} as T, statusCode, rateLimit } };
	return statusCode >= 200 && statusCode < 300
		? success<T>(session, info, reply)
		: refusal(session, info, reply);
}

/** A request that got no answer: a broken connection may not happen again; a stop, a cancel, a credential problem … will. */
function noAnswer(
	session: Session,
	error: unknown,
	info: RequestInfo,
	attempts: number,
	signal: AbortSignal | undefined,
): Answer<never> {
	const transient =
		!session.stopped(signal) &&
		!isStopped(error) &&
		!isCancelled(error) &&
		!credentialProblem(session.node, error) &&
		isTransientNetwork(error);
	const mapped = () => failure(session, error, info, attempts, signal);
	return transient ? { kind: 'transient', error: mapped } : { kind: 'final', error: mapped() };
}

/** A 2xx: its JSON object (an empty body is `{}`); a JSON answer cut short behaves like a broken connection. */
function success<T>(session: Session, info: RequestInfo, reply: Reply): Answer<T> {
	const { statusCode, rateLimit, contentType, text } = reply;
	const parsed = parseJsonOrText(text);
	if (text.trim() === '') return { kind: 'done', value: { body: {} as T, statusCode, rateLimit } };
	const body = parsed.value;
	if (parsed.json && body !== null && typeof body === 'object')
		return { kind: 'done', value: { body: body as T, statusCode, rateLimit } };
	const json = /json/i.test(contentType ?? '');
	const error = () =>
		unusableAnswer(
			session.node,
			info,
			`status ${statusCode} came with ${parsed.json ? 'JSON that is not an object' : 'a body that is not JSON'}${json ? ' (truncated?)' : ''}`,
		);
	return json ? { kind: 'transient', error } : { kind: 'final', error: error() };
}

/** Any other status: the error it maps to; an hourly 429 and 502/503/504 may pass. */
function refusal(session: Session, info: RequestInfo, reply: Reply): Answer<never> {
	const { statusCode, rateLimit, contentType, text } = reply;
	const body = parseJsonOrText(text).value;
	const error = session.refusal(info, statusCode, body, contentType, rateLimit);
	const details = errorDetails(error);
	if (statusCode === 429 && details?.rateLimitKind === 'hourly')
		return { kind: 'hourlyLimit', error, resetAt: details.resetAt };
	if (TRANSIENT_STATUSES.has(statusCode)) return { kind: 'transient', error: () => error };
	return { kind: 'final', error };
}

/** Waits for an hourly reset if the policy allows a wait that long in all; false: it does not. A stop ends the wait and throws. */
async function waitedForReset(
	session: Session,
	resetAt: number | undefined,
	policy: RetryPolicy,
	tally: Tally,
	req: ApiRequest,
): Promise<boolean> {
	if (!(policy.maxRateLimitWaitMs > 0)) return false;
	// bounded whatever the server says: a reset far ahead, in the past, or missing (retry.ts)
	const wait = rateLimitWait(resetAt, clock.now(), tally.rateLimitWaits);
	if (!(tally.waitedMs + wait <= policy.maxRateLimitWaitMs)) return false;
	await session.wait(wait, "while it waited for SentiOne's hourly rate limit to reset", {
		signal: req.signal,
		itemIndex: req.itemIndex,
	});
	tally.waitedMs += wait;
	tally.rateLimitWaits++;
	return true;
}

/** The pause before a read is sent again: doubles with every transient failure (real time). A stop ends it and throws. */
async function backOff(
	session: Session,
	policy: RetryPolicy,
	tally: Tally,
	req: ApiRequest,
): Promise<void> {
	const delay = policy.transientBackoffMs * 2 ** tally.transientFailures;
	tally.transientFailures++;
	await session.wait(delay, 'while it waited to ask SentiOne again after a temporary failure', {
		signal: req.signal,
		itemIndex: req.itemIndex,
		on: 'real',
	});
}
