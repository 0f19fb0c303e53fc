/* eslint-disable @n8n/community-nodes/no-restricted-imports -- simulator/test code: not shipped in the package */
// What an endpoint handler receives once routing, headers, authentication and the hourly budget
// have passed (D-05), and the helpers for the remaining checks: 400 → 404 → 422.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { MSG } from './constants.ts';
import { badRequest, notFound, type HttpError } from './http.ts';
import type { RouteDef } from './routes.ts';
import type { LogEntry, State } from './state.ts';
import type { Project } from './types.ts';
import { parseBody } from './validate.ts';

export interface ApiCtx {
	state: State;
	req: IncomingMessage;
	res: ServerResponse;
	/** The query string of the request. */
	query: URLSearchParams;
	body: string;
	route: RouteDef;
	params: Record<string, string>;
	tier: 'basic' | 'enterprise';
	now: number;
	/** Rate-limit headers (D-07) for the response. */
	headers: () => Record<string, string>;
	entry: LogEntry;
}

/** D-12: projectId must be a positive integer. */
export function projectIdParam(ctx: ApiCtx): number {
	const raw = ctx.params.projectId;
	if (!/^\d+$/.test(raw) || /^0+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
		throw badRequest(MSG.projectId);
	}
	return Number(raw);
}

/** The request body as JSON (required), or 400. */
export function jsonBody(ctx: ApiCtx): unknown {
	const parsed = parseBody(ctx.body);
	if (!parsed.ok) throw badRequest(parsed.message);
	return parsed.value;
}

/** D-21/D-22: a missing project or mention → 404 naming it (variant `notFoundMessage=generic`: not). */
export function resourceNotFound(ctx: ApiCtx, message: string): HttpError {
	return notFound(ctx.state.variant.notFoundMessage === 'generic' ? MSG.notFoundGeneric : message);
}

/** D-21: unknown project → 404. */
export function findProject(ctx: ApiCtx, id: number): Project {
	const p = ctx.state.store.projects.get(id);
	if (!p) throw resourceNotFound(ctx, MSG.projectNotFound(id));
	return p;
}

export function formatError(messages: string[]): never {
	throw badRequest(messages.join(' '));
}
