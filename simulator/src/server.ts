/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- simulator/test code: not shipped in the package */
// The HTTP server: routing, the common headers, and the order of checks (D-05):
// route (404/405) → 415 → 406 (streams) → 401 → 429 (hourly; then stream concurrency; the
// request is counted here) → monthly cap 429 → 400 → 404 → 422 → 2xx.
// Variants: `routes=absent` takes routes out of the table; `authOrder=401-first` moves 401 before
// 415 and 406.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { handleAdmin } from './admin.ts';
import { authenticate } from './auth.ts';
import { API_ROOT, MSG, type Group, type Tier } from './constants.ts';
import type { ApiCtx } from './context.ts';
import { respondScripted, takeScript } from './faults.ts';
import { HttpError, parseTarget, readBody, rethrow, sendJson, sleep } from './http.ts';
import { createProject, deleteProject, listProjects, updateProject } from './projects.ts';
import { matchRoute, type RouteMatch } from './routes.ts';
import { search } from './searchEndpoint.ts';
import type { State } from './state.ts';
import { engagementStream, exportStream, liveStream } from './streamEndpoints.ts';
import { negotiate, type Framing } from './streams.ts';
import { addTags, listTags, removeTags } from './tags.ts';
import { absentRoutes } from './variants.ts';

/** D-07: the three rate-limit headers for a group (fresh window when the caller is unknown). */
export function rateHeaders(state: State, tier: Tier | null, group: Group): Record<string, string> {
	const w = state.limits.state(tier, group, state.clock.now());
	return {
		'x-rate-limit-limit': String(w.limit),
		'x-rate-limit-remaining': String(w.remaining),
		'x-rate-limit-reset': String(w.reset),
	};
}

function loggedBody(text: string): unknown {
	if (text === '') return null;
	try {
		return JSON.parse(text);
	} catch {
		return text.length > 10_000 ? text.slice(0, 10_000) : text;
	}
}

function isJsonContentType(value: string | undefined): boolean {
	if (!value) return false;
	return value.split(';')[0].trim().toLowerCase() === 'application/json';
}

export function createSimulatorServer(state: State): { server: Server; sockets: Set<Socket> } {
	const sockets = new Set<Socket>();
	const server = createServer((req, res) => {
		void handle(state, req, res).catch((err: unknown) => {
			console.error('simulator: unexpected error', err);
			if (!res.headersSent && !res.destroyed) {
				sendJson(res, 500, {
					message: `Unexpected error: ${(err as Error)?.message ?? String(err)}`,
				});
			} else {
				res.destroy();
			}
		});
	});
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	server.requestTimeout = 0;
	server.headersTimeout = 60_000;
	server.keepAliveTimeout = 5_000;
	return { server, sockets };
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
	// Routed from the raw target (dot segments removed, %2F kept): see parseTarget.
	const { rawPath, path, query } = parseTarget(req.url ?? '/');
	const method = (req.method ?? 'GET').toUpperCase();
	const body = await readBody(req);
	// every answer is dated by the server's clock (D-36), not the machine's (HTTP's Date header)
	res.setHeader('date', new Date(state.clock.now()).toUTCString());

	if (path === '/__admin' || path.startsWith('/__admin/')) {
		if (state.opts.admin) {
			await handleAdmin(state, res, path, query, method, body);
			return;
		}
	}

	const rel =
		path === API_ROOT ? '' : path.startsWith(API_ROOT + '/') ? path.slice(API_ROOT.length) : null;
	const match: RouteMatch =
		rel === null ? { kind: 'notFound' } : matchRoute(method, rel, absentRoutes(state.variant));
	const group: Group | null =
		match.kind === 'ok' ? match.route.group : match.kind === 'method' ? match.group : null;
	const entry = state.record({
		at: state.clock.iso(),
		method,
		path,
		rawPath,
		query: Object.fromEntries(query),
		status: null,
		group,
		tier: null,
		counted: false,
		body: loggedBody(body),
		accept: req.headers.accept ?? null,
		contentType: req.headers['content-type'] ?? null,
	});
	res.on('finish', () => {
		entry.status = res.statusCode;
		if (state.opts.verbose) {
			console.error(
				`${entry.at} ${method} ${path} → ${res.statusCode} (${entry.tier ?? 'no key'})`,
			);
		}
	});

	// Faults first: they stand in for everything between the client and the API.
	const faults = state.faults;
	if (faults.latencyMs > 0) {
		await sleep(faults.latencyMs);
		// the client gave up during the delay: nothing to answer (and no stream slot to take)
		if (res.destroyed || req.socket.destroyed) return;
	}
	let tier: Tier | null = null;
	const headers = () => rateHeaders(state, tier, group ?? 'projects');
	const scripted = takeScript(faults, method, rel ?? path, group);
	if (scripted) {
		entry.status = await respondScripted(req, res, scripted, headers(), state.hung);
		return;
	}
	if (faults.errorRate > 0 && state.faultRng.next() < faults.errorRate) {
		sendJson(
			res,
			faults.errorStatus,
			{ message: 'Service temporarily unavailable (injected fault).' },
			headers(),
		);
		return;
	}

	// Route.
	if (match.kind === 'notFound') {
		sendJson(res, 404, { message: MSG.notFound }, headers());
		return;
	}
	if (match.kind === 'method') {
		sendJson(
			res,
			405,
			{ message: MSG.methodNotAllowed },
			{ ...headers(), allow: match.allow.join(', ') },
		);
		return;
	}
	const route = match.route;

	// 415 (D-04), on every method.
	const contentType = (): boolean => {
		if (isJsonContentType(req.headers['content-type'])) return true;
		sendJson(res, 415, { message: MSG.contentType }, headers());
		return false;
	};

	// 406 (D-27), streams only.
	let framing: Framing | null = null;
	const accept = (): boolean => {
		if (!route.stream) return true;
		framing = negotiate(req.headers.accept);
		if (framing) return true;
		sendJson(res, 406, { message: MSG.accept }, headers());
		return false;
	};

	// 401 (D-03).
	const caller = { tier: null as 'basic' | 'enterprise' | null };
	const authentication = (): boolean => {
		const auth = authenticate(req.headers['x-api-key'], route.tier);
		entry.tier = auth.tier;
		if (!auth.ok) {
			sendJson(res, 401, { message: auth.message }, headers());
			return false;
		}
		tier = caller.tier = auth.tier;
		return true;
	};

	const checks =
		state.variant.authOrder === '401-first'
			? [authentication, contentType, accept]
			: [contentType, accept, authentication];
	for (const check of checks) if (!check()) return;
	const paid = caller.tier!;
	const now = state.clock.now();

	// 429 (D-07, D-08, D-09).
	const limits = state.limits;
	const force = faults.force429;
	if (force && force.group === route.group) {
		force.times--;
		if (force.times <= 0) faults.force429 = null;
		const w = limits.state(paid, route.group, now);
		sendJson(
			res,
			429,
			{ message: MSG.hourly(w.limit, w.resetIso) },
			{ ...headers(), 'x-rate-limit-remaining': '0' },
		);
		return;
	}
	if (limits.exhausted(paid, route.group, now)) {
		const w = limits.state(paid, route.group, now);
		sendJson(
			res,
			429,
			{ message: MSG.hourly(w.limit, w.resetIso) },
			{ ...headers(), 'x-rate-limit-remaining': '0' },
		);
		return;
	}
	if (route.stream && limits.concurrencyFull(paid, route.group)) {
		sendJson(
			res,
			429,
			{ message: MSG.concurrency(limits.concurrencyLimit(route.group)) },
			headers(),
		);
		return;
	}
	limits.tryCount(paid, route.group, now);
	entry.counted = true;
	if (route.returnsMentions && limits.monthlyRemaining(paid, now) <= 0) {
		sendJson(
			res,
			429,
			{ message: MSG.monthly(limits.monthlyCap(paid), limits.monthlyResetIso(now)) },
			headers(),
		);
		return;
	}

	const ctx: ApiCtx = {
		state,
		req,
		res,
		query,
		body,
		route,
		params: match.params,
		tier: paid,
		now,
		headers,
		entry,
	};
	try {
		dispatch(ctx, framing);
	} catch (err) {
		if (!(err instanceof HttpError)) rethrow(err);
		sendJson(res, err.status, err.body, headers());
	}
}

function dispatch(ctx: ApiCtx, framing: Framing | null): void {
	switch (ctx.route.name) {
		case 'listProjects':
			return listProjects(ctx);
		case 'createProject':
			return createProject(ctx);
		case 'updateProject':
			return updateProject(ctx);
		case 'deleteProject':
			return deleteProject(ctx);
		case 'recentSearch':
			return search(ctx, 'recent');
		case 'historicalSearch':
			return search(ctx, 'historical');
		case 'recentExport':
			return exportStream(ctx, 'recent', framing!);
		case 'historicalExport':
			return exportStream(ctx, 'historical', framing!);
		case 'liveStream':
			return liveStream(ctx, framing!);
		case 'engagementStream':
			return engagementStream(ctx, framing!);
		case 'listTags':
			return listTags(ctx);
		case 'addTags':
			return addTags(ctx);
		case 'removeTags':
			return removeTags(ctx);
	}
}
