/**
 * The cells of the contract-variant matrix: each is a plausible SentiOne API that decided a "not
 * shown" part of the specification differently (simulator/src/variants.ts), and what the nodes
 * must then show. The same assertions run in every cell (matrix.test.ts); the expectations below
 * only say which outcome is the right one for that server.
 */
export interface Cell {
	name: string;
	/** the simulator's --variant value ('' for the decisions of docs/api-contract.md) */
	variant: string;
	/** the decisions it varies (docs/api-contract.md) */
	decisions: string;
	/** the server returns mentions that break the filters sent (the node must drop them and say so) */
	ignoresFilters: boolean;
	/** the server refuses the shape of an unconfirmed filter (the node must ask again without it) */
	refusesFilters?: boolean;
	/** the server anonymizes authors when asked */
	anonymizes: boolean;
	/** the announced routes are absent */
	routesAbsent: boolean;
}

export const CELLS: Cell[] = [
	{
		name: 'the decisions',
		variant: '',
		decisions: 'all',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'every filter ignored',
		variant:
			'collectedAt=ignored,language=ignored,country=ignored,sentiment=ignored,sourceType=ignored,mentionType=ignored,publishedAt=ignored',
		decisions: 'D-13, D-14',
		ignoresFilters: true,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'announced filters ignored',
		variant: 'filters=ignored-announced',
		decisions: 'D-14',
		ignoresFilters: true,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'announced routes absent',
		variant: 'routes=absent',
		decisions: 'D-11, D-22, D-23',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: true,
	},
	{
		name: 'anonymization ignored',
		variant: 'anonymization=ignored',
		decisions: 'D-26',
		ignoresFilters: false,
		anonymizes: false,
		routesAbsent: false,
	},
	{
		name: 'anonymization under another name',
		variant: 'anonymization=renamed',
		decisions: 'D-26',
		ignoresFilters: false,
		anonymizes: false,
		routesAbsent: false,
	},
	{
		name: 'collectedAt from exclusive',
		variant: 'collectedAt=exclusive',
		decisions: 'D-14',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'collectedAt in whole seconds',
		variant: 'collectedAt=seconds',
		decisions: 'D-14',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'collectedAt as a "since" string (the range refused)',
		variant: 'collectedAt=string-since',
		decisions: 'D-14',
		ignoresFilters: false,
		refusesFilters: true,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'language and country as plain strings (objects refused)',
		variant: 'language=strings,country=strings',
		decisions: 'D-14, D-43',
		ignoresFilters: false,
		refusesFilters: true,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'language and country as plain strings (objects ignored)',
		variant: 'language=strings-tolerant,country=strings-tolerant',
		decisions: 'D-14, D-43',
		ignoresFilters: true,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: '401 checked before 415',
		variant: 'authOrder=401-first',
		decisions: 'D-05',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'rate-limit window from the first request',
		variant: 'rateWindow=rolling',
		decisions: 'D-07',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'exports without heartbeats',
		variant: 'exportHeartbeats=off',
		decisions: 'D-29',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: 'offset cursors, no cursor key on the last page',
		variant: 'cursor=offset,lastCursor=absent',
		decisions: 'D-20',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
	{
		name: '404 without naming the resource',
		variant: 'notFoundMessage=generic',
		decisions: 'D-21, D-22',
		ignoresFilters: false,
		anonymizes: true,
		routesAbsent: false,
	},
];
