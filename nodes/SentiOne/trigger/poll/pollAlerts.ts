/**
 * The poll trigger's alert events (Digest, Volume Spike, Sentiment Shift; docs/alerts.md): a check
 * hands the new mentions it read to the alert engine (trigger/alerts/) instead of the workflow, and
 * passes on the alerts due. The engine's state is saved in the same static data as the watermark,
 * so both move together.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { AlertEngine } from '../alerts';
import { ALERT_MAX_DELAY_MS, alertScope, factsOf, openEngine, saveEngine } from '../alerts';
import type { PollSettings } from './pollSettings';
import type { PollState } from './pollState';

/** The alert engine of an alert event, resumed from the static data (fresh: it sees from `seenFrom`). */
export function alertEngine(
	ctx: IPollFunctions,
	settings: PollSettings,
	staticData: IDataObject,
	now: number,
	seenFrom: number,
): AlertEngine | undefined {
	if (!settings.alert) return undefined;
	const zone = ctx.getTimezone();
	return openEngine(
		staticData,
		settings.alert,
		{
			zone,
			scope: alertScope(settings.alert, zone, {
				project: settings.projectId,
				source: settings.source,
				filters: settings.filters,
			}),
			// the poll trigger has read everything collected before its coverage point (below): no grace
			graceMs: 0,
			maxDelayMs: settings.lateWindowMs + ALERT_MAX_DELAY_MS,
			seenFrom,
		},
		now,
	);
}

/**
 * An alert event's check: the new mentions go to the alert engine instead of the workflow; it
 * answers with the alerts due. Everything collected before the watermark (caught up: before now)
 * minus the late mention window has been read (docs/alerts.md "Honest counts").
 */
export function alertCheck(
	c: { state: PollState; settings: PollSettings; staticData: IDataObject; now: number },
	engine: AlertEngine,
	mentions: IDataObject[],
): IDataObject[] {
	const { state, settings, now } = c;
	for (const mention of mentions) {
		const facts = factsOf(mention, now);
		if (facts) engine.observe(facts, now);
	}
	const readUpTo = state.round ? (state.watermark ?? now) : now;
	engine.cover(readUpTo - settings.lateWindowMs);
	const items = engine.due(now);
	saveEngine(c.staticData, engine);
	return items;
}

/** The first check (Start From: Now): an alert event's engine starts seeing from now. */
export function seedAlerts(
	ctx: IPollFunctions,
	settings: PollSettings,
	staticData: IDataObject,
	now: number,
): void {
	const engine = alertEngine(ctx, settings, staticData, now, now);
	if (engine) saveEngine(staticData, engine);
}
