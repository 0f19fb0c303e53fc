/**
 * How an instant should read in a message, worked out independently of the node's formatter:
 * the wall-clock date and time in the workflow's zone, minutes always, seconds only when not
 * zero, then the zone's name ("UTC" for UTC). n8n's default zone is America/New_York, which is
 * what a workflow without its own time-zone setting gets.
 */
export const N8N_DEFAULT_ZONE = 'America/New_York';

export function shownAt(epochMs: number, zone = 'UTC'): string {
	// 'sv-SE' formats as "2026-11-21 11:00:00"
	const wall = new Date(epochMs).toLocaleString('sv-SE', { timeZone: zone, hour12: false });
	const trimmed = wall.endsWith(':00') ? wall.slice(0, -3) : wall;
	return `${trimmed} ${zone === 'UTC' ? 'UTC' : zone}`;
}

/** `shownAt` escaped for use inside a RegExp. */
export function shownAtPattern(epochMs: number, zone = 'UTC'): string {
	return shownAt(epochMs, zone).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
