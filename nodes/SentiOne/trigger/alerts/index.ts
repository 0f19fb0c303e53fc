/**
 * The alert events both triggers offer (docs/alerts.md): their fields, the settings reader, and the
 * engine a trigger feeds with each matching mention once, saved in the trigger's static data.
 */
import type { IDataObject } from 'n8n-workflow';

import { digestItem, shiftItem, spikeItem } from './alertItems';
import type { AlertSettings } from './alertSettings';
import { AlertEngine } from './engine';
import type { MentionFacts } from './facts';
import { byReach, factsOf } from './facts';
import { addToTally, newTally } from './tally';
import { windowAt } from './windows';

export { alertEventOptions, alertOptions, alertProperties, ALERT_EVENTS } from './alertDescription';
export type { AlertEvent, AlertSettings } from './alertSettings';
export { readAlertSettings } from './alertSettings';
export { AlertEngine } from './engine';
export { factsOf } from './facts';

/** How long after a window's end a trigger waits to see it whole, beyond its grace (docs/alerts.md). */
export const ALERT_MAX_DELAY_MS = 15 * 60_000;

/** Where a trigger keeps the engine's state in its static data. */
export const ALERT_STATE_KEY = 'sentiOneAlerts';

/** The events whose items are alerts (not one item per mention or update). */
export function isAlertEvent(event: string): event is AlertSettings['event'] {
	return ['digest', 'volumeSpike', 'sentimentShift', 'viralMention'].includes(event);
}

/** What the saved state belongs to: another project, filters, window or zone starts afresh. */
export function alertScope(
	settings: Exclude<AlertSettings, { event: 'viralMention' }>,
	zone: string,
	what: IDataObject,
): string {
	const shape = settings.event === 'digest' ? { window: settings.window, zone } : {};
	return JSON.stringify({ event: settings.event, ...what, ...shape });
}

const WINDOW_NAMES: Record<string, string> = { daily: 'Daily digest', weekly: 'Weekly digest' };

/** The engine of a trigger, resumed from its static data (or fresh). */
export function openEngine(
	staticData: IDataObject,
	settings: Exclude<AlertSettings, { event: 'viralMention' }>,
	options: { zone: string; scope: string; graceMs: number; maxDelayMs: number; seenFrom?: number },
	now: number,
): AlertEngine {
	const windowName =
		settings.event === 'digest' ? (WINDOW_NAMES[settings.window.kind] ?? 'Digest') : undefined;
	return new AlertEngine(settings, { ...options, windowName }, staticData[ALERT_STATE_KEY], now);
}

/** Saves the engine's state (with the trigger's own, in the same static data). */
export function saveEngine(staticData: IDataObject, engine: AlertEngine): void {
	staticData[ALERT_STATE_KEY] = engine.snapshot();
}

/**
 * A test event ("Fetch test event", "Listen for test event"): an item of the event's shape built
 * from the newest matching mentions, marked `test: true`, so the next nodes can be mapped.
 */
export function testAlertItem(
	settings: AlertSettings,
	mentions: IDataObject[],
	zone: string,
	now: number,
): IDataObject {
	const facts = mentions
		.map((m) => factsOf(m, now))
		.filter((f): f is MentionFacts => f !== undefined);
	const from = facts.length > 0 ? Math.min(...facts.map((f) => f.collectedAt)) : now;
	const note = `Test event, built from the ${facts.length} newest matching mention${facts.length === 1 ? '' : 's'}: `;
	let item: IDataObject;
	if (settings.event === 'digest') {
		const window = windowAt(settings.window, now, zone);
		const tally = newTally(window.start, window.end);
		for (const f of facts) addToTally(tally, f, { top: settings.top, negative: settings.negative });
		item = digestItem(
			tally,
			{ complete: false, why: 'a test event counts only the newest mentions' },
			{
				zone,
				windowName: WINDOW_NAMES[settings.window.kind] ?? 'Digest',
				lateFromEarlier: 0,
			},
		);
	} else if (settings.event === 'volumeSpike') {
		const sample = facts.sort(byReach).slice(0, settings.sampleSize);
		item = spikeItem({
			count: facts.length,
			complete: false,
			windowStart: from,
			windowEnd: now,
			baseline: { expected: 0, spread: 0, samples: 0, basis: 'no history (a test event)' },
			threshold: settings.minMentions,
			sample,
			zone,
		});
	} else if (settings.event === 'sentimentShift') {
		const matching = facts.filter((f) => f.sentiment === settings.sentiment).length;
		item = shiftItem({
			sentiment: settings.sentiment,
			share: facts.length === 0 ? 0 : matching / facts.length,
			usualShare: 0,
			basis: 'no history (a test event)',
			count: facts.length,
			matching,
			windowStart: from,
			windowEnd: now,
			sample: facts.sort(byReach).slice(0, settings.sampleSize),
			zone,
		});
	} else {
		item = {
			kind: 'viralMention',
			summary: 'A viral-mention alert comes from engagement updates.',
		};
	}
	return { ...item, test: true, summary: `${note}${String(item.summary)}` };
}
