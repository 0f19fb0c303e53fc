/* eslint-disable @n8n/community-nodes/no-restricted-imports -- simulator/test code: not shipped in the package */
// The test-only admin API under /__admin: no key, JSON in and out, never counted, limited or
// logged as an API request. Disabled by --no-admin. It always tells the truth: the ground truth
// and the count apply D-14 whatever the variant (variants change only the public API).

import type { ServerResponse } from 'node:http';

import { GROUPS, type Group } from './constants.ts';
import { mergeFaults, defaultFaults } from './faults.ts';
import { rethrow, sendJson } from './http.ts';
import type { LimitMode } from './limits.ts';
import { count } from './search.ts';
import type { State } from './state.ts';
import { analyzeSearch, isPlainObject, parseDateTime } from './validate.ts';
import { defaultVariant, mergeVariant } from './variants.ts';

type Json = Record<string, unknown>;

class AdminError extends Error {
	readonly status: number;
	constructor(status: number, message: string) {
		super(message);
		this.status = status;
	}
}

function bodyObject(body: string): Json {
	if (body.trim() === '') return {};
	let v: unknown = undefined;
	let valid = true;
	try {
		v = JSON.parse(body);
	} catch {
		valid = false;
	}
	if (!valid) throw new AdminError(400, 'body is not valid JSON.');
	if (!isPlainObject(v)) throw new AdminError(400, 'body must be a JSON object.');
	return v;
}

function isoParam(v: unknown, name: string): number | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	const t = typeof v === 'string' ? parseDateTime(v) : NaN;
	if (Number.isNaN(t)) throw new AdminError(400, `${name} must be an ISO 8601 date-time.`);
	return t;
}

function numberParam(v: unknown, name: string, min = 0): number | undefined {
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'number' || !Number.isFinite(v) || v < min) {
		throw new AdminError(400, `${name} must be a number >= ${min}.`);
	}
	return v;
}

function project(state: State, v: unknown) {
	const id = typeof v === 'string' ? Number(v) : v;
	const p = typeof id === 'number' ? state.store.projects.get(id) : undefined;
	if (!p) throw new AdminError(404, `Project ${String(v)} not found.`);
	return p;
}

export async function handleAdmin(
	state: State,
	res: ServerResponse,
	path: string,
	query: URLSearchParams,
	method: string,
	rawBody: string,
): Promise<void> {
	try {
		const out = route(state, path, query, method, rawBody);
		sendJson(res, 200, out);
	} catch (err) {
		if (!(err instanceof AdminError)) rethrow(err);
		sendJson(res, err.status, { message: err.message });
	}
	await Promise.resolve();
}

function route(
	state: State,
	rawPath: string,
	query: URLSearchParams,
	method: string,
	rawBody: string,
): unknown {
	const path = rawPath.replace(/\/+$/, '');
	const key = `${method} ${path}`;
	switch (key) {
		case 'GET /__admin/health':
			return { ok: true, now: state.clock.iso() };
		case 'POST /__admin/reset':
			state.reset();
			return { ok: true, now: state.clock.iso() };
		case 'GET /__admin/requests':
			return { requests: state.log };
		case 'DELETE /__admin/requests':
			state.log.length = 0;
			return { ok: true };
		case 'GET /__admin/stats':
			return stats(state);
		case 'POST /__admin/clock':
			return clock(state, bodyObject(rawBody));
		case 'POST /__admin/limits':
			return limits(state, bodyObject(rawBody));
		case 'GET /__admin/limits':
			return state.limits.settings;
		case 'GET /__admin/faults':
			return state.faults;
		case 'POST /__admin/faults': {
			const err = mergeFaults(state.faults, bodyObject(rawBody));
			if (err) throw new AdminError(400, err);
			return state.faults;
		}
		case 'DELETE /__admin/faults':
			state.faults = defaultFaults(0, 0, 0);
			return state.faults;
		case 'POST /__admin/mentions':
			return addMentions(state, bodyObject(rawBody));
		case 'GET /__admin/mentions':
			return listMentions(state, query);
		case 'POST /__admin/count':
			return countMentions(state, bodyObject(rawBody));
		case 'POST /__admin/engagement':
			return engagement(state, bodyObject(rawBody));
		case 'POST /__admin/live':
			return live(state, bodyObject(rawBody));
		case 'GET /__admin/variant':
			return state.variant;
		case 'POST /__admin/variant': {
			const err = mergeVariant(state.variant, bodyObject(rawBody));
			if (err) throw new AdminError(400, err);
			return state.variant;
		}
		case 'DELETE /__admin/variant':
			Object.assign(state.variant, state.opts.variant);
			return state.variant;
		case 'GET /__admin/live':
			return {
				ratePerMinute: state.collector.ratePerMinute,
				engagementPerMinute: state.collector.engagementPerMinute,
			};
		default:
			throw new AdminError(404, `Unknown admin endpoint: ${key}.`);
	}
}

function stats(state: State): unknown {
	const groups: Record<string, { requests: number; counted: number; open: number }> = {};
	const open = state.limits.openStreams();
	for (const g of GROUPS) groups[g] = { requests: 0, counted: 0, open: open[g] };
	let other = 0;
	for (const e of state.log) {
		if (!e.group) {
			other++;
			continue;
		}
		groups[e.group].requests++;
		if (e.counted) groups[e.group].counted++;
	}
	const mentionsPerProject: Record<string, number> = {};
	for (const p of state.store.listProjects()) mentionsPerProject[p.id] = p.recs.length;
	return {
		now: state.clock.iso(),
		groups,
		requestsWithoutGroup: other,
		openStreams: open,
		mentionsPerProject,
		monthlyMentions: state.limits.monthlyUsed(state.clock.now()),
		mentionsReturned: { ...state.limits.returned },
	};
}

function clock(state: State, body: Json): unknown {
	const now = isoParam(body.now, 'now');
	const advance =
		body.advanceMs === undefined ? undefined : numberParam(body.advanceMs, 'advanceMs', -Infinity);
	if (body.frozen !== undefined && typeof body.frozen !== 'boolean') {
		throw new AdminError(400, 'frozen must be a boolean.');
	}
	if (now !== undefined) {
		state.clock.set(now);
		// Jumping to an instant does not replay collection for the skipped time.
		state.collector.rebase();
	}
	if (advance !== undefined) state.clock.advance(advance);
	if (typeof body.frozen === 'boolean') state.clock.setFrozen(body.frozen);
	state.collector.tick();
	return { now: state.clock.iso() };
}

function groupNumbers(v: unknown, name: string): Partial<Record<Group, number>> {
	if (v === undefined) return {};
	if (!isPlainObject(v)) throw new AdminError(400, `${name} must be an object.`);
	const out: Partial<Record<Group, number>> = {};
	for (const [k, n] of Object.entries(v)) {
		if (!(GROUPS as string[]).includes(k))
			throw new AdminError(400, `${name}.${k} is not a group.`);
		out[k as Group] = numberParam(n, `${name}.${k}`);
	}
	return out;
}

function limits(state: State, body: Json): unknown {
	const s = state.limits.settings;
	if (body.mode !== undefined) {
		if (body.mode !== 'spec' && body.mode !== 'off')
			throw new AdminError(400, 'mode must be spec or off.');
		s.mode = body.mode as LimitMode;
	}
	Object.assign(s.hourly, groupNumbers(body.hourly, 'hourly'));
	Object.assign(s.concurrency, groupNumbers(body.concurrency, 'concurrency'));
	if (body.monthlyCap !== undefined) {
		if (!isPlainObject(body.monthlyCap)) throw new AdminError(400, 'monthlyCap must be an object.');
		const basic = numberParam(body.monthlyCap.basic, 'monthlyCap.basic');
		const enterprise = numberParam(body.monthlyCap.enterprise, 'monthlyCap.enterprise');
		if (basic !== undefined) s.monthlyCap.basic = basic;
		if (enterprise !== undefined) s.monthlyCap.enterprise = enterprise;
	}
	if (body.resetWindows === true) state.limits.resetWindows();
	return s;
}

function addMentions(state: State, body: Json): unknown {
	const p = project(state, body.projectId);
	const n = numberParam(body.count, 'count', 1) ?? 1;
	if (!Number.isInteger(n)) throw new AdminError(400, 'count must be an integer.');
	if (body.overrides !== undefined && !isPlainObject(body.overrides)) {
		throw new AdminError(400, 'overrides must be an object.');
	}
	const mentions = state.collector.collectNow(
		p,
		n,
		body.overrides as Json | undefined,
		isoParam(body.collectedAt, 'collectedAt'),
		isoParam(body.publishedAt, 'publishedAt'),
	);
	return { mentions };
}

function listMentions(state: State, q: URLSearchParams): unknown {
	const p = project(state, q.get('projectId'));
	const from = isoParam(q.get('collectedFrom'), 'collectedFrom') ?? -Infinity;
	const to = isoParam(q.get('collectedTo'), 'collectedTo') ?? Infinity;
	const full = q.get('full') === '1' || q.get('full') === 'true';
	const recs = p.recs
		.filter((r) => r.col >= from && r.col < to)
		.sort((a, b) => a.col - b.col || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return {
		mentions: recs.map((r) =>
			full
				? r.m
				: {
						id: r.id,
						publishedAt: r.m.publishedAt,
						collectedAt: r.m.collectedAt,
						sentiment: r.m.content?.sentiment,
						sourceType: r.m.source?.type,
						type: r.m.type,
					},
		),
	};
}

function countMentions(state: State, body: Json): unknown {
	const p = project(state, body.projectId);
	const mode = body.mode;
	if (mode !== 'recent' && mode !== 'historical')
		throw new AdminError(400, 'mode must be recent or historical.');
	const now = state.clock.now();
	// The truth: D-14 filters, whatever the public API's variant.
	const a = analyzeSearch(
		{ filters: body.filters ?? {}, sortType: body.sortType },
		mode,
		now,
		'admin',
		defaultVariant(),
	);
	if (a.format.length) throw new AdminError(400, a.format.join(' '));
	if (Object.keys(a.fields).length) {
		throw new AdminError(
			422,
			Object.entries(a.fields)
				.map(([k, v]) => `${k}: ${v.join(' ')}`)
				.join(' '),
		);
	}
	return {
		count: count({
			store: state.store,
			project: p,
			request: a.request!,
			mode,
			visibility: { now, indexLagMs: state.faults.indexLagMs },
		}),
	};
}

function engagement(state: State, body: Json): unknown {
	const n = numberParam(body.count, 'count', 1) ?? 1;
	let mentionId: string | undefined;
	if (body.mentionId !== undefined) {
		if (typeof body.mentionId !== 'string' || !state.store.mentions.has(body.mentionId)) {
			throw new AdminError(404, `Mention ${String(body.mentionId)} not found.`);
		}
		mentionId = body.mentionId;
	}
	return { updates: state.collector.emitEngagement(Math.floor(n), mentionId) };
}

function live(state: State, body: Json): unknown {
	const rate = numberParam(body.ratePerMinute, 'ratePerMinute');
	const eng = numberParam(body.engagementPerMinute, 'engagementPerMinute');
	state.collector.tick();
	if (rate !== undefined) state.collector.ratePerMinute = rate;
	if (eng !== undefined) state.collector.engagementPerMinute = eng;
	return {
		ratePerMinute: state.collector.ratePerMinute,
		engagementPerMinute: state.collector.engagementPerMinute,
	};
}
