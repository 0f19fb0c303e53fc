/**
 * The endpoints of the API, one row each (D-06, D-07, D-11, D-22, D-23), and their budgets: the
 * tiers, the rate-limit groups and what each allows, and the routes. Everything the nodes say or
 * do about an endpoint is derived from its row; moving an endpoint, or changing its tier, its
 * group or whether it is a read, is one edit here (docs/api-contract.md, "Changing an endpoint").
 */

/**
 * One value in a URL path, kept one segment of the intended route: a project ID must be a positive
 * safe integer; any other value is percent-encoded, and `.`/`..` (which URL normalisation would
 * turn into a move up the path, also when encoded) and the empty string are refused.
 */
export function pathSegment(value: string | number): string {
	if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value < 1)
			throw new Error(`"${value}" cannot be placed in a request path`);
		return String(value);
	}
	const text = String(value);
	if (text === '' || /^(\.|%2e){1,2}$/i.test(text)) {
		throw new Error(`"${text}" cannot be placed in a request path`);
	}
	return encodeURIComponent(text);
}

const p = pathSegment;

/** D-06: the tiers, lowest first (a key of a tier has every endpoint of the tiers below it) */
export const TIERS = ['Basic', 'Enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** D-07: the rate-limit groups (budgets: HOURLY_LIMITS) */
export type EndpointGroup = 'projects' | 'search' | 'tags' | 'export' | 'live' | 'engagement';

/** Which mentions a search or an export covers (D-18): the last 7 days, or all time. */
export type Scope = 'recent' | 'historical';

export interface EndpointDef {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** the route below the API root */
	path: (...args: never[]) => string;
	/** the rate-limit group whose hourly budget it spends (D-07) */
	group: EndpointGroup;
	/** the tier a key needs (D-06) */
	tier: Tier;
	/** a read: only reads are retried after a transient failure (a create is never repeated) */
	read: boolean;
	/** the specification or the reference confirms the route; false: only announced (D-11, D-22, D-23) */
	confirmed: boolean;
	/** the operation as the user knows it */
	operation: string;
	/** for a search or an export: which mentions it covers */
	scope?: Scope;
	/** what a key without the tier can use instead, when something does */
	alternative?: string;
}

/**
 * Every endpoint the node calls, one row each: the route, the rate-limit group (D-07), the tier
 * (D-06), whether it is a read (only reads are retried), and whether the specification or the
 * reference confirms the route or only announces it (D-11, D-22, D-23): a 404 or 405 from an
 * announced route may mean this SentiOne API does not offer it, which the error then says instead
 * of blaming an ID. Everything else is derived from this table: PATHS and `route()` (the requests),
 * the tier a refusal names, the retry rule, and the tier and budget wording of every description
 * and message (shared/wording.ts). Moving an endpoint or changing its tier is one edit of its row.
 */
const ENDPOINT_TABLE = {
	listProjects: {
		method: 'GET',
		path: () => '/projects',
		group: 'projects',
		tier: 'Basic',
		read: true,
		confirmed: true,
		operation: 'Project → Get Many',
	},
	createProject: {
		method: 'POST',
		path: () => '/projects',
		group: 'projects',
		tier: 'Basic',
		read: false,
		confirmed: false,
		operation: 'Project → Create',
	},
	updateProject: {
		method: 'PUT',
		path: (projectId: number) => `/projects/${p(projectId)}`,
		group: 'projects',
		tier: 'Basic',
		read: false,
		confirmed: false,
		operation: 'Project → Update',
	},
	deleteProject: {
		method: 'DELETE',
		path: (projectId: number) => `/projects/${p(projectId)}`,
		group: 'projects',
		tier: 'Basic',
		read: false,
		confirmed: false,
		operation: 'Project → Delete',
	},
	recentSearch: {
		method: 'POST',
		path: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search`,
		group: 'search',
		tier: 'Basic',
		read: true,
		confirmed: true,
		operation: 'Mention → Search Recent',
		scope: 'recent',
	},
	historicalSearch: {
		method: 'POST',
		path: (projectId: number) => `/projects/${p(projectId)}/mentions/search`,
		group: 'search',
		tier: 'Enterprise',
		read: true,
		confirmed: true,
		operation: 'Mention → Search Historical',
		scope: 'historical',
		alternative: 'Mention → Search Recent covers the mentions published in the last 7 days.',
	},
	recentExport: {
		method: 'POST',
		path: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search/stream`,
		group: 'export',
		tier: 'Basic',
		read: true,
		confirmed: false,
		operation: 'Mention → Export (last 7 days)',
		scope: 'recent',
	},
	historicalExport: {
		method: 'POST',
		path: (projectId: number) => `/projects/${p(projectId)}/mentions/search/stream`,
		group: 'export',
		tier: 'Enterprise',
		read: true,
		confirmed: true,
		operation: 'Mention → Export (all time)',
		scope: 'historical',
		alternative: 'Mention → Export with Mentions From: Last 7 Days covers the last 7 days.',
	},
	liveStream: {
		method: 'POST',
		path: (projectId: number) => `/projects/${p(projectId)}/mentions/recent/search/stream/live`,
		group: 'live',
		tier: 'Basic',
		read: true,
		confirmed: true,
		operation: 'SentiOne Stream Trigger → New Mention',
	},
	engagementStream: {
		method: 'POST',
		path: () => '/mentions/engagement/updates/stream/live',
		group: 'engagement',
		tier: 'Enterprise',
		read: true,
		confirmed: false,
		operation: 'SentiOne Stream Trigger → Engagement Update',
	},
	listTags: {
		method: 'GET',
		path: (projectId: number) => `/projects/${p(projectId)}/tags`,
		group: 'tags',
		tier: 'Enterprise',
		read: true,
		confirmed: false,
		operation: 'Tag → Get Many',
	},
	addTags: {
		method: 'POST',
		path: (projectId: number, mentionId: string) =>
			`/projects/${p(projectId)}/mentions/${p(mentionId)}/tags`,
		group: 'tags',
		tier: 'Enterprise',
		read: false,
		confirmed: false,
		operation: 'Tag → Add',
	},
	removeTags: {
		method: 'DELETE',
		path: (projectId: number, mentionId: string) =>
			`/projects/${p(projectId)}/mentions/${p(mentionId)}/tags`,
		group: 'tags',
		tier: 'Enterprise',
		read: false,
		confirmed: false,
		operation: 'Tag → Remove',
	},
} satisfies Record<string, EndpointDef>;

type Table = typeof ENDPOINT_TABLE;
export type EndpointName = keyof Table;
/** The arguments of an endpoint's route: `[]`, `[projectId]` or `[projectId, mentionId]`. */
export type PathArgs<N extends EndpointName> = Parameters<Table[N]['path']>;

export const ENDPOINTS: Record<EndpointName, EndpointDef> = ENDPOINT_TABLE;

const ENDPOINT_NAMES = Object.keys(ENDPOINT_TABLE) as EndpointName[];

/** The route of an endpoint, read from the table when called. */
function pathOf<N extends EndpointName>(name: N, args: PathArgs<N>): string {
	return (ENDPOINTS[name].path as (...a: PathArgs<N>) => string)(...args);
}

/** Every route by endpoint name: `PATHS.recentSearch(1001)`. */
export const PATHS = Object.fromEntries(
	ENDPOINT_NAMES.map((name) => [name, (...args: PathArgs<typeof name>) => pathOf(name, args)]),
) as { [N in EndpointName]: (...args: PathArgs<N>) => string };

/** What a request to an endpoint fixes, from its row of the table (the transport's ApiRequest fields). */
export interface Route {
	endpoint: EndpointName;
	method: EndpointDef['method'];
	path: string;
	group: EndpointGroup;
	tier: Tier;
	read: boolean;
}

/** The request to an endpoint, to spread into a call: `{ ...route('recentSearch', projectId), body }`. */
export function route<N extends EndpointName>(name: N, ...args: PathArgs<N>): Route {
	const def = ENDPOINTS[name];
	return {
		endpoint: name,
		method: def.method,
		path: pathOf(name, args),
		group: def.group,
		tier: def.tier,
		read: def.read,
	};
}

/** The endpoints that have a scope: the searches and the exports. */
export type ScopedEndpoint = {
	[N in EndpointName]: Table[N] extends { scope: Scope } ? N : never;
}[EndpointName];

/** The endpoint of a group (search, export) for a scope: the row whose `scope` it is. */
export function scopedEndpoint(group: 'search' | 'export', scope: Scope): ScopedEndpoint {
	const name = ENDPOINT_NAMES.find(
		(n) => ENDPOINTS[n].group === group && ENDPOINTS[n].scope === scope,
	);
	if (name === undefined) throw new Error(`no ${group} endpoint for the scope "${scope}"`);
	return name as ScopedEndpoint;
}

export const RATE_LIMIT_HEADERS = {
	limit: 'x-rate-limit-limit',
	remaining: 'x-rate-limit-remaining',
	reset: 'x-rate-limit-reset',
} as const;

/** D-07: the documented budget of each rate-limit group, requests an hour per API key */
export const HOURLY_LIMITS: Record<EndpointGroup, number> = {
	projects: 300,
	search: 30,
	tags: 300,
	export: 5,
	live: 5,
	engagement: 3600,
};
/** D-07: stream connections a key may hold open at once, per group */
export const CONCURRENT_STREAMS: Partial<Record<EndpointGroup, number>> = {
	export: 2,
	live: 2,
	engagement: 1,
};

/** Entries per page of each list (D-10 and D-22: not shown, the simulator's figures; D-20: the spec's). */
export const PAGE_SIZES: Partial<Record<EndpointGroup, number>> = {
	projects: 20,
	search: 25,
	tags: 100,
};
