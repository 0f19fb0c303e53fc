// Tagging (D-22): project-scoped tag names, idempotent add and remove on a mention's `tags`.

import { MSG, TAG_PAGE_SIZE } from './constants.ts';
import {
	findProject,
	formatError,
	jsonBody,
	projectIdParam,
	resourceNotFound,
	type ApiCtx,
} from './context.ts';
import {
	badRequest,
	cursorValuedEnd,
	hasErrors,
	sendJson,
	sendPage,
	unprocessable,
} from './http.ts';
import type { Project, Rec } from './types.ts';
import { analyzeTagsBody } from './validate.ts';

export function listTags(ctx: ApiCtx): void {
	const id = projectIdParam(ctx);
	const raw = ctx.query.get('cursor');
	let after: string | undefined;
	if (raw === '' && cursorValuedEnd(ctx.state.variant.lastCursor))
		throw badRequest(MSG.cursorInvalid);
	if (raw) {
		try {
			const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { t?: unknown };
			if (typeof v.t !== 'string') throw new Error('bad');
			after = v.t;
		} catch {
			throw badRequest(MSG.cursorInvalid);
		}
	}
	const p = findProject(ctx, id);
	const names = [...p.tags.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	const rest = after === undefined ? names : names.filter((n) => n > after);
	const page = rest.slice(0, TAG_PAGE_SIZE);
	const more = rest.length > TAG_PAGE_SIZE;
	sendPage(
		ctx.res,
		page.map((name) => JSON.stringify({ name, mentionCount: p.tags.get(name)!.size })),
		more ? Buffer.from(JSON.stringify({ t: page[page.length - 1] })).toString('base64url') : null,
		ctx.state.variant.lastCursor,
		ctx.headers(),
	);
}

function prepare(ctx: ApiCtx): { p: Project; rec: Rec; tags: string[] } {
	const id = projectIdParam(ctx);
	const mentionId = ctx.params.mentionId;
	const body = jsonBody(ctx);
	const a = analyzeTagsBody(body);
	if (a.format.length) formatError(a.format);
	const p = findProject(ctx, id);
	const rec = p.byId.get(mentionId);
	if (!rec) throw resourceNotFound(ctx, MSG.mentionNotFound(mentionId, id));
	if (hasErrors(a.fields)) throw unprocessable(a.fields);
	return { p, rec, tags: a.tags };
}

function reply(ctx: ApiCtx, rec: Rec): void {
	ctx.state.store.touched(rec);
	sendJson(ctx.res, 200, { id: rec.id, tags: rec.m.tags ?? [] }, ctx.headers());
}

export function addTags(ctx: ApiCtx): void {
	const { p, rec, tags } = prepare(ctx);
	const current = rec.m.tags ?? [];
	for (const t of tags) {
		if (!current.includes(t)) current.push(t);
		let set = p.tags.get(t);
		if (!set) p.tags.set(t, (set = new Set()));
		set.add(rec.id);
	}
	rec.m.tags = current;
	reply(ctx, rec);
}

export function removeTags(ctx: ApiCtx): void {
	const { p, rec, tags } = prepare(ctx);
	const drop = new Set(tags);
	rec.m.tags = (rec.m.tags ?? []).filter((t) => !drop.has(t));
	for (const t of tags) p.tags.get(t)?.delete(rec.id);
	reply(ctx, rec);
}
