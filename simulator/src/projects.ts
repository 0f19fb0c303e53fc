// Projects: list (D-10), create / update / delete (D-11), including the `mame` behaviour.

import { MSG, PROJECT_PAGE_SIZE } from './constants.ts';
import { findProject, formatError, jsonBody, projectIdParam, type ApiCtx } from './context.ts';
import {
	badRequest,
	cursorValuedEnd,
	hasErrors,
	sendEmpty,
	sendJson,
	sendPage,
	unprocessable,
} from './http.ts';
import { analyzeProjectBody } from './validate.ts';

function encodeListCursor(lastId: number): string {
	return Buffer.from(JSON.stringify({ p: lastId })).toString('base64url');
}

function decodeListCursor(raw: string): number {
	try {
		const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { p?: unknown };
		if (typeof v.p === 'number' && Number.isSafeInteger(v.p)) return v.p;
	} catch {
		// fall through
	}
	throw badRequest(MSG.cursorInvalid);
}

export function listProjects(ctx: ApiCtx): void {
	const raw = ctx.query.get('cursor');
	if (raw === '' && cursorValuedEnd(ctx.state.variant.lastCursor))
		throw badRequest(MSG.cursorInvalid);
	const after = raw ? decodeListCursor(raw) : 0;
	const all = ctx.state.store.listProjects().filter((p) => p.id > after);
	const page = all.slice(0, PROJECT_PAGE_SIZE);
	const more = all.length > PROJECT_PAGE_SIZE;
	sendPage(
		ctx.res,
		page.map((p) => JSON.stringify({ id: p.id, name: p.name })),
		more ? encodeListCursor(page[page.length - 1].id) : null,
		ctx.state.variant.lastCursor,
		ctx.headers(),
	);
}

function validBody(ctx: ApiCtx, checkProject?: () => void): { name: string; query: string } {
	const body = jsonBody(ctx);
	const a = analyzeProjectBody(body);
	if (a.format.length) formatError(a.format);
	checkProject?.();
	if (hasErrors(a.fields)) throw unprocessable(a.fields);
	return { name: a.name!, query: a.query! };
}

export function createProject(ctx: ApiCtx): void {
	const { name, query } = validBody(ctx);
	const p = ctx.state.store.createProject(name, query);
	sendJson(ctx.res, 201, { id: p.id, name: p.name, query: p.query }, ctx.headers());
}

export function updateProject(ctx: ApiCtx): void {
	const id = projectIdParam(ctx);
	const { name, query } = validBody(ctx, () => findProject(ctx, id));
	const p = findProject(ctx, id);
	ctx.state.store.updateProject(p, name, query);
	sendJson(ctx.res, 200, { id: p.id, name: p.name, query: p.query }, ctx.headers());
}

export function deleteProject(ctx: ApiCtx): void {
	const id = projectIdParam(ctx);
	const p = findProject(ctx, id);
	ctx.state.store.deleteProject(p);
	sendEmpty(ctx.res, 204, ctx.headers());
}
