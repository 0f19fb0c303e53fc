/**
 * How every description and message names a tier, a budget or the recent window: derived, when it
 * is read, from the contract's endpoint table (an endpoint's tier and rate-limit group), budgets
 * (HOURLY_LIMITS, CONCURRENT_STREAMS) and RECENT_WINDOW_MS, so a change there changes every text
 * that names it and no text retypes a figure.
 */
import type { EndpointGroup, EndpointName, Tier } from './contract';
import {
	CONCURRENT_STREAMS,
	ENDPOINTS,
	HOURLY_LIMITS,
	PAGE_SIZES,
	RECENT_WINDOW_MS,
	TIERS,
} from './contract';
import { DAY_MS } from './units';

/** The tier an endpoint needs: "Enterprise". */
export function tierOf(name: EndpointName): Tier {
	return ENDPOINTS[name].tier;
}

/** The lowest tier, the one every API key has: "Basic". */
export function lowestTier(): Tier {
	return TIERS[0];
}

/** The tier below `tier` (what a key that lacks it has), or undefined for the lowest. */
export function tierBelow(tier: Tier): Tier | undefined {
	const at = TIERS.indexOf(tier);
	return at > 0 ? TIERS[at - 1] : undefined;
}

/** Every tier, as a choice: "Basic or Enterprise". */
export function anyTier(): string {
	return TIERS.join(' or ');
}

/** How a notice opens: "Basic tier", or "Enterprise tier: a Basic key is refused". */
export function tierLead(name: EndpointName): string {
	const tier = tierOf(name);
	const below = tierBelow(tier);
	return below === undefined ? `${tier} tier` : `${tier} tier: a ${below} key is refused`;
}

/** Requests (or connections) an hour of the endpoint's rate-limit group. */
export function hourlyLimit(name: EndpointName): number {
	return HOURLY_LIMITS[ENDPOINTS[name].group];
}

/** Stream connections of the endpoint's group a key may hold open at once (undefined: not a stream). */
export function concurrentLimit(name: EndpointName): number | undefined {
	return CONCURRENT_STREAMS[ENDPOINTS[name].group];
}

/** What one request of a group is called in a budget: "1 of the 30 searches an hour". */
const BUDGET_WORDS: Record<EndpointGroup, string> = {
	projects: 'project requests',
	search: 'searches',
	tags: 'tagging requests',
	export: 'export streams',
	live: 'live-stream connections',
	engagement: 'engagement-stream connections',
};

/** "1 of the 30 searches an hour": what one request to the endpoint costs. */
export function costText(name: EndpointName): string {
	return `1 of the ${hourlyLimit(name)} ${BUDGET_WORDS[ENDPOINTS[name].group]} an hour`;
}

/** The group of an endpoint as a message names it: "search", "export stream". */
export const GROUP_NAMES: Record<EndpointGroup, string> = {
	projects: 'projects API',
	search: 'search',
	tags: 'tagging API',
	export: 'export stream',
	live: 'live stream',
	engagement: 'engagement updates stream',
};

/** Entries one page of the endpoint's list holds: "each page of 25". */
export function pageSize(name: EndpointName): number {
	const size = PAGE_SIZES[ENDPOINTS[name].group];
	if (size === undefined) throw new Error(`${name} has no pages`);
	return size;
}

/** "1 request", "30 requests", "10,000 mentions". */
export function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The recent window (RECENT_WINDOW_MS) in days: 7. */
export function recentWindowDays(): number {
	return RECENT_WINDOW_MS / DAY_MS;
}

/** "7 days": the recent window (what recent search, recent export and the live stream cover). */
export function recentWindowText(): string {
	return plural(recentWindowDays(), 'day');
}
