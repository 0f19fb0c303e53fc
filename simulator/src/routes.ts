// The route table: every path of the API (relative to /api/public/v2), its methods, rate-limit
// group (D-07) and tier (D-06), and whether the spec only announces it (variant `routes=absent`).

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
	/**
	 * Announced by the spec but confirmed by neither the spec's endpoint list nor the reference:
	 * project create/update/delete, tagging, the recent export stream (path inferred), the
	 * engagement stream (path not shown). The variant `routes=absent` can take these away.
	 */
	announced: boolean;
}

interface PathDef {
	pattern: RegExp;
	params: string[];
	methods: Partial<Record<string, RouteDef>>;
}

interface DefOptions {
	stream?: boolean;
	returnsMentions?: boolean;
	announced?: boolean;
}

function def(name: RouteName, group: Group, tier: RequiredTier, o: DefOptions = {}): RouteDef {
	return {
		name,
		group,
		tier,
		stream: o.stream ?? false,
		returnsMentions: o.returnsMentions ?? false,
		announced: o.announced ?? false,
	};
}

const ANNOUNCED = { announced: true };
const STREAM_OF_MENTIONS = { stream: true, returnsMentions: true };

const PATHS: PathDef[] = [
	{
		pattern: /^\/projects$/,
		params: [],
		methods: {
			GET: def('listProjects', 'projects', 'Basic'),
			POST: def('createProject', 'projects', 'Basic', ANNOUNCED),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)$/,
		params: ['projectId'],
		methods: {
			PUT: def('updateProject', 'projects', 'Basic', ANNOUNCED),
			DELETE: def('deleteProject', 'projects', 'Basic', ANNOUNCED),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search$/,
		params: ['projectId'],
		methods: { POST: def('recentSearch', 'search', 'Basic', { returnsMentions: true }) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/search$/,
		params: ['projectId'],
		methods: { POST: def('historicalSearch', 'search', 'Enterprise', { returnsMentions: true }) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/search\/stream$/,
		params: ['projectId'],
		methods: { POST: def('historicalExport', 'export', 'Enterprise', STREAM_OF_MENTIONS) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search\/stream$/,
		params: ['projectId'],
		methods: {
			POST: def('recentExport', 'export', 'Basic', { ...STREAM_OF_MENTIONS, ...ANNOUNCED }),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/recent\/search\/stream\/live$/,
		params: ['projectId'],
		methods: { POST: def('liveStream', 'live', 'Basic', STREAM_OF_MENTIONS) },
	},
	{
		pattern: /^\/mentions\/engagement\/updates\/stream\/live$/,
		params: [],
		methods: {
			POST: def('engagementStream', 'engagement', 'Enterprise', { stream: true, ...ANNOUNCED }),
		},
	},
	{
		pattern: /^\/projects\/([^/]+)\/tags$/,
		params: ['projectId'],
		methods: { GET: def('listTags', 'tags', 'Enterprise', ANNOUNCED) },
	},
	{
		pattern: /^\/projects\/([^/]+)\/mentions\/([^/]+)\/tags$/,
		params: ['projectId', 'mentionId'],
		methods: {
			POST: def('addTags', 'tags', 'Enterprise', ANNOUNCED),
			DELETE: def('removeTags', 'tags', 'Enterprise', ANNOUNCED),
		},
	},
];

/** The routes `routes=absent` may take away, in table order. */
export const ANNOUNCED_ROUTES: RouteName[] = PATHS.flatMap((p) =>
	Object.values(p.methods).flatMap((r) => (r?.announced ? [r.name] : [])),
);

export type RouteMatch =
	| { kind: 'ok'; route: RouteDef; params: Record<string, string> }
	| { kind: 'method'; group: Group; allow: string[] }
	| { kind: 'notFound' };

/**
 * Route a path relative to the API root. Routes in `absent` do not exist: a path left without
 * methods is an unknown path (404), and a path with other methods left answers 405 with those
 * (D-34), exactly as if the server had never had the absent ones.
 */
export function matchRoute(
	method: string,
	rel: string,
	absent: ReadonlySet<RouteName> = new Set(),
): RouteMatch {
	for (const p of PATHS) {
		const m = p.pattern.exec(rel);
		if (!m) continue;
		const methods = Object.entries(p.methods).filter(([, r]) => r && !absent.has(r.name));
		if (methods.length === 0) continue;
		const route = methods.find(([name]) => name === method)?.[1];
		if (!route) {
			return { kind: 'method', group: methods[0][1]!.group, allow: methods.map(([name]) => name) };
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
