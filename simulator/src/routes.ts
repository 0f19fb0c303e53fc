// The route table: every path of the API (relative to /api/public/v2), its methods, rate-limit
// group (D-07) and tier (D-06).

import type { Group } from './constants.ts';
import type { RequiredTier } from './auth.ts';

export type RouteName =
	| 'listProjects'
	| 'createProject'
	| 'updateProject'
	| 'deleteProject'
	| 'recentSearch'
	| 'historicalSearch'
	| 'historicalExport'
	| 'recentExport'
	| 'liveStream'
	| 'engagementStream'
	| 'listTags'
	| 'addTags'
	| 'removeTags';

export interface RouteDef {
	name: RouteName;
	group: Group;
	tier: RequiredTier;
	stream: boolean;
	/** Returns mentions: the monthly cap applies (D-09). */
	returnsMentions: boolean;
}

interface PathDef {
	pattern: RegExp;
	params: string[];
	methods: Partial<Record<string, RouteDef>>;
}

function def(name: RouteName, group: Group, tier: RequiredTier, stream = false, returnsMentions = false): RouteDef {
	return { name, group, tier, stream, returnsMentions };
}

const PATHS: PathDef[] = [
	{
		pattern: /^\/projects$/,
		params: [],
		methods: {
			GET: def('listProjects', 'projects', 'Basic'),
			POST: def('createProject', 'projects', 'Basic'),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)$/,
		params: ['projectId'],
		methods: {
			PUT: def('updateProject', 'projects', 'Basic'),
			DELETE: def('deleteProject', 'projects', 'Basic'),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search$/,
		params: ['projectId'],
		methods: { POST: def('recentSearch', 'search', 'Basic', false, true) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/search$/,
		params: ['projectId'],
		methods: { POST: def('historicalSearch', 'search', 'Enterprise', false, true) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/search\/stream$/,
		params: ['projectId'],
		methods: { POST: def('historicalExport', 'export', 'Enterprise', true, true) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search\/stream$/,
		params: ['projectId'],
		methods: { POST: def('recentExport', 'export', 'Basic', true, true) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search\/stream\/live$/,
		params: ['projectId'],
		methods: { POST: def('liveStream', 'live', 'Basic', true, true) },
	},
	{
		pattern: /^\/mentions\/engagement\/updates\/stream\/live$/,
		params: [],
		methods: { POST: def('engagementStream', 'engagement', 'Enterprise', true, false) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/tags$/,
		params: ['projectId'],
		methods: { GET: def('listTags', 'tags', 'Enterprise') },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/([^/]+)\/tags$/,
		params: ['projectId', 'mentionId'],
		methods: {
			POST: def('addTags', 'tags', 'Enterprise'),
			DELETE: def('removeTags', 'tags', 'Enterprise'),
		},
	},
];

export type RouteMatch =
	| { kind: 'ok'; route: RouteDef; params: Record<string, string> }
	| { kind: 'method'; group: Group; allow: string[] }
	| { kind: 'notFound' };

export function matchRoute(method: string, rel: string): RouteMatch {
	for (const p of PATHS) {
		const m = p.pattern.exec(rel);
		if (!m) continue;
		const route = p.methods[method];
		if (!route) {
			const allow = Object.keys(p.methods);
			return { kind: 'method', group: p.methods[allow[0]]!.group, allow };
		}
		const params: Record<string, string> = {};
		p.params.forEach((name, i) => {
			let v = m[i + 1];
			try {
				v = decodeURIComponent(v);
			} catch {
				// keep it raw: it will not match anything
			}
			params[name] = v;
		});
		return { kind: 'ok', route, params };
	}
	return { kind: 'notFound' };
}
