/**
 * One place for each guess: every shape the specification leaves "not shown" that the node relies
 * on, the decision it took (docs/api-contract.md), and what the node does when SentiOne turns out
 * to disagree. The matrix suite (test/engine/matrix/) runs the nodes against a simulator that makes each
 * alternative choice (docs/api-contract.md, "The variant matrix").
 */
export const UNCONFIRMED = {
	collectedAtFilter: {
		decision: 'D-14',
		guess: 'filters.collectedAt is a TimeRange {from, to}, from inclusive',
		whenWrong:
			'Ignored or another boundary: every mention outside the range is dropped locally and the user told; the poll trigger requests one second earlier (so an exclusive or whole-second boundary loses nothing) and, when SentiOne returns older mentions or refuses the shape, finds new mentions with the confirmed CollectedAtDescending order instead, once and for good.',
	},
	codeFilters: {
		decision: 'D-14, D-43',
		guess: 'filters.content.language and filters.location.country are lists of {code}',
		whenWrong:
			'Ignored: mentions with another code are dropped locally, the user told once. Refused (400/422 naming the path): the request is sent again without that filter and the filter applied locally, the user told once.',
	},
	anonymizationParameter: {
		decision: 'D-26',
		guess: 'query parameter anonymization=author|all',
		whenWrong:
			'A mention with its author in clear fails the export or stops the stream trigger (default), or has its identifying fields set to null when the user chose Remove Identifying Fields: never passed on as anonymized.',
	},
	announcedRoutes: {
		decision: 'D-11, D-22, D-23',
		guess:
			'project create/update/delete, the tag routes, the recent export and the engagement stream at the paths in PATHS',
		whenWrong:
			'A 404 or 405 that names no project or mention says the operation is not available on this SentiOne API (ENDPOINTS.confirmed = false). Every route, a confirmed one too (the live stream, the historical export), says the same for a 405 or for SentiOne\'s own answer to a route it does not have (D-34, 404 "Not found.").',
	},
	heartbeats: {
		decision: 'D-28, D-29',
		guess: 'heartbeats every 15 s on every stream, as {"date"} or a bare timestamp',
		whenWrong:
			'Any complete event keeps a stream alive; an export without heartbeats is judged stalled only after 120 s without any event; the live stream after its Stall Timeout (default 45 s).',
	},
	pagingCursor: {
		decision: 'D-20',
		guess: 'an opaque keyset cursor; null or absent on the last page',
		whenWrong:
			'Repeats across pages (an offset cursor) are dropped, pages without progress stop paging, an empty or whitespace-only cursor ends it like null (never sent back).',
	},
	rateLimitWindow: {
		decision: 'D-07',
		guess: 'hourly windows aligned to the top of the UTC hour',
		whenWrong:
			'The reset in x-rate-limit-reset is used when plausible, whatever the window; only an unusable reset falls back to the top of the next hour.',
	},
} as const;
