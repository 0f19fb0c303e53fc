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

/**
 * How the templates' Slack messages show an instant (their Luxon format `ccc d LLL yyyy, HH:mm
 * ZZZZ`, in the workflow's zone): "Thu 26 Nov 2026, 23:10 GMT+1", worked out here with Intl.
 */
export function shownInMessage(epochMs: number, zone = 'UTC'): string {
	const part = (options: Intl.DateTimeFormatOptions, locale = 'en-GB') =>
		new Intl.DateTimeFormat(locale, { timeZone: zone, ...options }).format(new Date(epochMs));
	const zoneName =
		new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
			.formatToParts(new Date(epochMs))
			.find((p) => p.type === 'timeZoneName')?.value ?? zone;
	const time = part({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
	return `${part({ weekday: 'short' })} ${part({ day: 'numeric' })} ${part({ month: 'short' })} ${part({ year: 'numeric' })}, ${time} ${zoneName}`;
}
