/**
 * When and how the Stream Trigger reconnects (trigger/stream/reconnect.ts, pure): the backoff, the
 * stream budget (wait for the reset, spread the last connections over the hour), what a reconnect
 * must recover (backfill minutes, a gap for the search), and which failures retrying cannot fix.
 */
import type { INode } from 'n8n-workflow';

import { mapHttpError, streamInterrupted } from '../../../../nodes/SentiOne/shared/errors';
import { PATHS } from '../../../../nodes/SentiOne/shared/contract';
import {
	backoffDelay,
	failureKind,
	reconnectWait,
	recoveryPlan,
	RECONNECT,
} from '../../../../nodes/SentiOne/trigger/stream/reconnect';
import { MINUTE } from '../../../support/time';

const MIN = MINUTE;
const node = { name: 'SentiOne Stream Trigger' } as INode;

/** What the error mapper makes of the live stream's answer with this status and message. */
const refusal = (statusCode: number, message = 'No.') =>
	mapHttpError(
		node,
		{
			endpoint: 'liveStream',
			method: 'POST',
			path: PATHS.liveStream(1001),
			group: 'live',
			tier: 'Basic',
			zone: 'UTC',
		},
		{ statusCode, body: { message } },
	);

test('backoff doubles from 0.5 s to at most 60 s', () => {
	expect([0, 1, 2, 3, 10].map(backoffDelay)).toEqual([500, 1000, 2000, 4000, 60_000]);
	// whatever level it is asked for
	expect([-3, 1.7, 1e9].map(backoffDelay)).toEqual([500, 1000, 60_000]);
});

test('no stream connection left: wait for the reset; few left while failing: spread them over the hour', () => {
	const now = 1_000_000;
	const resetAt = now + 30 * MIN;
	expect(reconnectWait(0, { group: 'live', remaining: 0, resetAt }, now)).toEqual({
		waitMs: 30 * MIN + 1000,
		budget: true,
	});
	expect(reconnectWait(2, { group: 'live', remaining: 2, resetAt }, now)).toEqual({
		waitMs: 10 * MIN,
		budget: true,
	});
	expect(reconnectWait(1, { group: 'live', remaining: 2, resetAt }, now)).toEqual({
		waitMs: 1000,
		budget: false,
	});
	expect(reconnectWait(1, { group: 'live', remaining: 4, resetAt }, now)).toEqual({
		waitMs: 1000,
		budget: false,
	});
	expect(reconnectWait(1, undefined, now)).toEqual({ waitMs: 1000, budget: false });
});

test('a reset that has passed since the headers were read ends their window; one already past when read is unusable', () => {
	const now = 1_000_000 + 2 * 60 * MIN;
	const nextHour = Math.ceil(now / (60 * MIN)) * 60 * MIN;
	// stated 20 minutes ahead 30 minutes ago: a new window, the stated 0 is of the old one
	expect(
		reconnectWait(
			0,
			{ group: 'live', remaining: 0, resetAt: now - 10 * MIN, readAt: now - 30 * MIN },
			now,
		),
	).toEqual({ waitMs: 500, budget: false });
	// already past when stated (a stuck reset), or none at all: the top of the next hour
	for (const state of [
		{ group: 'live' as const, remaining: 0, resetAt: now - 2 * MIN, readAt: now - MIN },
		{ group: 'live' as const, remaining: 0, readAt: now - MIN },
		{ group: 'live' as const, remaining: 0, resetAt: now - MIN },
	])
		expect(reconnectWait(0, state, now)).toEqual({
			waitMs: nextHour - now + 1000,
			budget: true,
		});
});

test('a wait for the budget is never longer than one window, whatever the reset says', () => {
	const now = 1_000_000;
	const far = reconnectWait(0, { group: 'live', remaining: 0, resetAt: now + 10 * 60 * MIN }, now);
	expect(far.budget).toBe(true);
	expect(far.waitMs).toBeLessThanOrEqual(65 * MIN + 1000);
});

test('backfill covers the outage (1–5 minutes); a longer outage leaves a gap for the search', () => {
	const t = 10 * MIN;
	expect(recoveryPlan(t, t + 5_000)).toEqual({ backfillMinutes: 1 });
	expect(recoveryPlan(t, t + 3 * MIN)).toEqual({ backfillMinutes: 4 });
	expect(recoveryPlan(t, t + 4 * MIN + 30_000)).toEqual({ backfillMinutes: 5 });
	expect(recoveryPlan(t, t + 20 * MIN)).toEqual({
		backfillMinutes: 5,
		gap: { from: t - RECONNECT.marginMs, to: t + 15 * MIN + RECONNECT.marginMs },
	});
	// a clock that went backwards is no outage
	expect(recoveryPlan(t, t - MIN)).toEqual({ backfillMinutes: 1 });
});

test('failures retrying cannot fix are told apart from waits and blips', () => {
	expect(failureKind(new Error('socket hang up'))).toBe('transient');
	expect(failureKind(new Error('SentiOne credential: the API key is missing.'))).toBe('permanent');
	expect(failureKind(refusal(503))).toBe('transient');
	expect(failureKind(refusal(502))).toBe('transient');
	expect(failureKind(refusal(408))).toBe('transient');
	for (const status of [400, 401, 403, 404, 406, 415, 422])
		expect({ status, kind: failureKind(refusal(status)) }).toEqual({ status, kind: 'permanent' });
	expect(failureKind(refusal(429, 'Rate limit exceeded.'))).toBe('hourlyLimit');
	expect(failureKind(refusal(429, 'Too many concurrent connections.'))).toBe('busy');
	expect(failureKind(refusal(429, 'The monthly mentions cap of 1000 is reached.'))).toBe(
		'permanent',
	);
	// a stream that broke after it opened is a lost connection, not a refusal
	expect(failureKind(streamInterrupted(node, 'dropped', 'socket hang up'))).toBe('transient');
});
