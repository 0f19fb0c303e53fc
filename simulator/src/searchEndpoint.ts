// The two paginated searches: recent (Basic) and historical (Enterprise).

import { MSG, SEARCH_PAGE_SIZE } from './constants.ts';
import { findProject, formatError, jsonBody, projectIdParam, type ApiCtx } from './context.ts';
import { badRequest, cursorValuedEnd, hasErrors, sendPage, unprocessable } from './http.ts';
import { decodeCursor, encodeCursor, page, type CursorPos } from './search.ts';
import { mentionJson } from './streams.ts';
import { analyzeSearch, type SearchMode } from './validate.ts';

export function search(ctx: ApiCtx, mode: SearchMode): void {
	const { state } = ctx;
	const variant = state.variant;
	const id = projectIdParam(ctx);
	const body = jsonBody(ctx);
	const a = analyzeSearch(body, mode, ctx.now, `${id}:${ctx.route.name}`, variant);
	if (a.format.length) formatError(a.format);
	const request = a.request!;

	const rawCursor = ctx.query.get('cursor');
	let after: CursorPos | undefined;
	if (rawCursor === '' && cursorValuedEnd(variant.lastCursor)) throw badRequest(MSG.cursorInvalid);
	if (rawCursor) {
		const c = decodeCursor(rawCursor, request.bindKey, variant.cursor);
		if (c === 'invalid') throw badRequest(MSG.cursorInvalid);
		if (c === 'mismatch') throw badRequest(MSG.cursorMismatch);
		after = c;
	}
	const project = findProject(ctx, id);
	if (hasErrors(a.fields)) throw unprocessable(a.fields);

	// D-09: a page that would cross the monthly cap is cut at the cap.
	const size = Math.min(SEARCH_PAGE_SIZE, state.limits.monthlyRemaining(ctx.tier, ctx.now));
	const result = page(
		{
			store: state.store,
			project,
			request,
			mode,
			visibility: { now: ctx.now, indexLagMs: state.faults.indexLagMs },
			after,
			bigCounts: variant.bigCounts === 'on',
		},
		variant.cursor,
		size,
	);
	state.limits.addMonthly(ctx.tier, result.data.length, ctx.now);

	let cursor = result.more && result.after ? encodeCursor(request.bindKey, result.after) : null;
	if (state.faults.repeatCursor) {
		// A hostile server: the same cursor again and again.
		cursor = rawCursor || (result.after ? encodeCursor(request.bindKey, result.after) : cursor);
	}
	const json = result.data.map((r) => mentionJson(r, undefined, variant.bigCounts === 'on'));
	sendPage(ctx.res, json, cursor, variant.lastCursor, ctx.headers());
}
