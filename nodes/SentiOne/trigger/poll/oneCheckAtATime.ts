/**
 * One check at a time. n8n starts a poll on each Poll Times tick without waiting for the one before
 * (n8n-core's poll trigger executor registers each tick with the scheduler and does not await it).
 * A check that outlasts the interval (a slow answer, a long backlog, a loaded host) would run
 * beside the next one: both read the same saved watermark and pass the same mentions on twice.
 *
 * So a tick that finds this workflow's trigger node still checking, in this n8n process, is
 * skipped: it sends nothing, changes nothing and returns nothing; the first tick after the running
 * check ends checks again. Every wait of a check is bounded (the transport's deadlines and stall
 * limits), so a check always ends; as a last guard, one that has run longer than
 * `STALE_CHECK_MS` no longer holds the next tick back. Test runs (manual mode) are never held.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { clock } from '../../shared/clock';
import { HOUR_MS } from '../../shared/units';

/** A check running longer than this no longer holds the next tick back. */
export const STALE_CHECK_MS = 2 * HOUR_MS;

/** The checks under way in this process: workflow id and node id → when the check started. */
const running = new Map<string, number>();

/** Runs `check` unless this trigger node's previous check is still under way (then: null). */
export async function oneCheckAtATime<T>(
	ctx: IPollFunctions,
	check: () => Promise<T | null>,
): Promise<T | null> {
	if (ctx.getMode() === 'manual') return await check();
	const key = `${String(ctx.getWorkflow().id ?? '')}\u0000${ctx.getNode().id}`;
	const now = clock.now();
	const since = running.get(key);
	if (since !== undefined && now - since < STALE_CHECK_MS) {
		ctx.logger.info(
			`SentiOne Trigger: the check that started ${Math.round((now - since) / 1000)} s ago is still running; this tick is skipped`,
		);
		return null;
	}
	running.set(key, now);
	try {
		return await check();
	} finally {
		if (running.get(key) === now) running.delete(key);
	}
}
