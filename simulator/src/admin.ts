/* eslint-disable @n8n/community-nodes/no-restricted-imports -- simulator/test code: not shipped in the package */
// The test-only admin API under /__admin: no key, JSON in and out, never counted, limited or
// logged as an API request. Disabled by --no-admin. It always tells the truth: the ground truth
// and the count apply D-14 whatever the variant (variants change only the public API).

import type { ServerResponse } from 'node:http';

import { burstJson, InputError, MINUTE_MS, patchShape, shapeJson } from './arrivals.ts';
import { exactCounts, isBigMention } from './bigCounts.ts';
import { GROUPS, SENTIMENTS, type Group, type Sentiment } from './constants.ts';
import { mergeFaults, defaultFaults } from './faults.ts';
import { rethrow, sendJson } from './http.ts';
import type { LimitMode } from './limits.ts';
import { count } from './search.ts';
import type { State } from './state.ts';
import { analyzeSearch, isPlainObject, parseDateTime } from './validate.ts';
import type { Rec } from './types.ts';
import { defaultVariant, mergeVariant } from './variants.ts';
import { DEFAULT_CURVE, parseCurve, type Curve } from './viral.ts';

/** A clock move never collects more than this many mentions at once (memory). */
const MAX_COLLECT_PER_MOVE = 1_000_000;

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
		case 'GET /__admin/engagement':
			return engagementJson(state);
		case 'POST /__admin/live':
			return live(state, bodyObject(rawBody));
		case 'GET /__admin/live/expected':
			return expected(state, query);
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
			return liveJson(state);
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
	if (advance !== undefined && advance > 0) {
		const n = state.collector.expectedUntil(state.clock.now() + advance);
		if (n > MAX_COLLECT_PER_MOVE) {
			throw new AdminError(
				400,
				`advanceMs: collecting about ${Math.round(n)} mentions at once is more than the ${MAX_COLLECT_PER_MOVE} the simulator holds in one move; lower the rate or move the clock less far.`,
			);
		}
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
	const big = state.variant.bigCounts === 'on';
	const recs = p.recs
		.filter((r) => r.col >= from && r.col < to)
		.sort((a, b) => a.col - b.col || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return {
		mentions: recs.map((r) => {
			const entry: Json = full
				? r.m
				: {
						id: r.id,
						publishedAt: r.m.publishedAt,
						collectedAt: r.m.collectedAt,
						sentiment: r.m.content?.sentiment,
						sourceType: r.m.source?.type,
						type: r.m.type,
					};
			// variant bigCounts=on: the exact counts the API writes for this mention, as strings
			return big && isBigMention(r.id) ? { ...entry, exactCounts: exactCounts(r.m) } : entry;
		}),
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

const ENGAGEMENT_KEYS = ['count', 'mentionId', 'viral', 'viralShare', 'viralCurve'];

/** A mention the engagement stream can update (D-46: published within the last month), or 404/400. */
function updatableMention(state: State, id: unknown, path: string): Rec {
	const r = typeof id === 'string' ? state.store.mentions.get(id) : undefined;
	if (!r) throw new AdminError(404, `${path}: mention ${String(id)} not found.`);
	if (!state.collector.engagementEligible(r, state.clock.now())) {
		throw new AdminError(
			400,
			`${path}: mention ${r.id} was published more than 30 days ago (or is not collected yet); the engagement stream covers the last month (D-46).`,
		);
	}
	return r;
}

/**
 * Emit updates now (`count`, `mentionId`), make mentions go viral now (`viral`), set the share of
 * new mentions that go viral and their curve (`viralShare`, `viralCurve`). All or nothing.
 */
function engagement(state: State, body: Json): unknown {
	for (const k of Object.keys(body)) {
		if (!ENGAGEMENT_KEYS.includes(k))
			throw new AdminError(400, `${k} is not a field. Fields: ${ENGAGEMENT_KEYS.join(', ')}.`);
	}
	const c = state.collector;
	const viralOnly =
		body.count === undefined &&
		body.mentionId === undefined &&
		(body.viral !== undefined || body.viralShare !== undefined || body.viralCurve !== undefined);
	const n = numberParam(body.count, 'count', 1) ?? 1;
	let mentionId: string | undefined;
	if (body.mentionId !== undefined) {
		if (typeof body.mentionId !== 'string' || !state.store.mentions.has(body.mentionId)) {
			throw new AdminError(404, `Mention ${String(body.mentionId)} not found.`);
		}
		mentionId = body.mentionId;
	}
	const share = numberParam(body.viralShare, 'viralShare');
	if (share !== undefined && share > 1)
		throw new AdminError(400, 'viralShare must be between 0 and 1.');
	const curve = input(() =>
		body.viralCurve === undefined
			? c.viral.curve
			: isPlainObject(body.viralCurve)
				? parseCurve(body.viralCurve, 'viralCurve.', DEFAULT_CURVE)
				: fail('viralCurve must be an object such as {"minutes": 30, "factor": 1.2}.'),
	);
	c.tick();
	const starts: Array<{ rec: Rec; curve: Curve }> = [];
	if (body.viral !== undefined) {
		if (!Array.isArray(body.viral))
			throw new AdminError(
				400,
				'viral must be an array such as [{"mentionId": "...", "minutes": 30}].',
			);
		body.viral.forEach((v: unknown, i) => {
			const path = `viral[${i}]`;
			if (!isPlainObject(v)) throw new AdminError(400, `${path} must be an object.`);
			const rec = updatableMention(state, v.mentionId, `${path}.mentionId`);
			starts.push({
				rec,
				curve: input(() => parseCurve(v, `${path}.`, curve, ['mentionId'])),
			});
		});
	}
	if (share !== undefined) c.viral.share = share;
	if (body.viralCurve !== undefined) c.viral.curve = curve;
	const now = state.clock.now();
	for (const s of starts) c.viral.start(s.rec, now, s.curve);
	const updates = viralOnly ? [] : c.emitEngagement(Math.floor(n), mentionId);
	return { updates, ...engagementJson(state) };
}

function engagementJson(state: State): Json {
	const c = state.collector;
	return {
		engagementPerMinute: c.engagementPerMinute,
		viralShare: c.viral.share,
		viralCurve: c.viral.curve,
		viral: c.viral.json(),
	};
}

/** Run a parse step of arrivals.ts / viral.ts; its InputError becomes a 400 naming the field. */
function input<T>(step: () => T): T {
	let message = '';
	try {
		return step();
	} catch (err) {
		if (!(err instanceof InputError)) rethrow(err);
		message = err.message;
	}
	throw new AdminError(400, message);
}

function fail(message: string): never {
	throw new InputError(message);
}

function live(state: State, body: Json): unknown {
	const eng = numberParam(body.engagementPerMinute, 'engagementPerMinute');
	const patch = { ...body };
	delete patch.engagementPerMinute;
	const shape = input(() => patchShape(state.collector.shape, patch));
	state.collector.tick();
	if (Object.keys(patch).length) state.collector.setShape(shape);
	if (eng !== undefined) state.collector.engagementPerMinute = eng;
	return liveJson(state);
}

function liveJson(state: State): Json {
	return {
		...shapeJson(state.collector.shape),
		engagementPerMinute: state.collector.engagementPerMinute,
	};
}

const SENTIMENT_ZERO = (): Record<Sentiment, number> =>
	Object.fromEntries(SENTIMENTS.map((s) => [s, 0])) as Record<Sentiment, number>;

/**
 * Ground truth per time bucket for accuracy benchmarks: the mentions collected (all of them, by
 * collectedAt) and their sentiments, what the live shapes in effect expected, and the bursts.
 */
function expected(state: State, q: URLSearchParams): unknown {
	const from = isoParam(q.get('from'), 'from');
	const to = isoParam(q.get('to'), 'to');
	if (from === undefined || to === undefined)
		throw new AdminError(400, 'from and to are required ISO 8601 date-times.');
	if (to <= from) throw new AdminError(400, 'to must be later than from.');
	const minutesText = q.get('bucketMinutes');
	const bucketMinutes = minutesText === null || minutesText === '' ? 15 : Number(minutesText);
	if (!Number.isInteger(bucketMinutes) || bucketMinutes < 1)
		throw new AdminError(400, 'bucketMinutes must be a positive integer.');
	const bucketMs = bucketMinutes * MINUTE_MS;
	const count = Math.ceil((to - from) / bucketMs);
	if (count > 100_000)
		throw new AdminError(
			400,
			`bucketMinutes: ${count} buckets is more than 100000; use larger buckets.`,
		);
	const pid = q.get('projectId');
	const projects =
		pid === null || pid === '' ? [...state.store.projects.values()] : [project(state, pid)];
	const projectId = pid === null || pid === '' ? null : projects[0].id;

	const buckets = Array.from({ length: count }, (_, i) => {
		const a = from + i * bucketMs;
		return {
			from: new Date(a).toISOString(),
			to: new Date(Math.min(a + bucketMs, to)).toISOString(),
			expected: 0,
			collected: 0,
			sentiment: SENTIMENT_ZERO(),
			bursts: [] as number[],
		};
	});
	for (const p of projects) {
		for (const r of p.recs) {
			if (r.col < from || r.col >= to) continue;
			const b = buckets[Math.floor((r.col - from) / bucketMs)];
			b.collected++;
			const s = r.m.content?.sentiment;
			if (s && s in b.sentiment) b.sentiment[s]++;
		}
	}
	// What the shapes expected: each shape from the instant it was set until the next one.
	const c = state.collector;
	const history = c.history;
	const bursts: Json[] = [];
	const seen = new Set<string>();
	history.forEach((h, k) => {
		const until = k + 1 < history.length ? history[k + 1].since : Infinity;
		const lo = Math.max(from, h.since);
		const hi = Math.min(to, until);
		if (hi <= lo) return;
		for (let i = Math.floor((lo - from) / bucketMs); i < count; i++) {
			const a = Math.max(lo, from + i * bucketMs);
			const b = Math.min(hi, from + (i + 1) * bucketMs);
			if (b <= a) break;
			for (const p of projects) buckets[i].expected += c.arrivals.expected(h.shape, p.id, a, b);
		}
		for (const b of h.shape.bursts) {
			const end = b.at + b.minutes * MINUTE_MS;
			const applies = projectId === null || b.projectId === null || b.projectId === projectId;
			if (!applies || b.at >= hi || end <= lo) continue;
			const json = burstJson(b);
			const key = JSON.stringify(json);
			if (seen.has(key)) continue;
			seen.add(key);
			const index = bursts.length;
			bursts.push({ ...json, from: json.at, to: new Date(end).toISOString() });
			for (let i = 0; i < count; i++) {
				const a = from + i * bucketMs;
				if (a < end && a + bucketMs > b.at) buckets[i].bursts.push(index);
			}
		}
	});
	let totalExpected = 0;
	let totalCollected = 0;
	for (const b of buckets) {
		b.expected = Math.round(b.expected * 1000) / 1000;
		totalExpected += b.expected;
		totalCollected += b.collected;
	}
	return {
		projectId,
		from: new Date(from).toISOString(),
		to: new Date(to).toISOString(),
		bucketMinutes,
		expected: Math.round(totalExpected * 1000) / 1000,
		collected: totalCollected,
		bursts,
		buckets,
	};
}
