/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- simulator/test code: not shipped in the package */
/**
 * The simulator as a black box: start it (a child process, on a free port) in the shapes the tests
 * need, call its API and its admin API, read its request log, script faults, inject mentions and
 * read the ground truth.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

import { REPO_ROOT } from './paths';
import { ENTERPRISE } from './keys';
import { HOUR, NOW } from './time';

/** JSON from the black box, read loosely in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON of the system under test
export type Loose = any;

export const ROOT = '/api/public/v2';

const REPO = REPO_ROOT;

export interface Sim {
	base: string;
	port: number;
	child: ChildProcess;
	stderr: () => string;
	stop: () => Promise<void>;
}

/** Start a simulator with the given flags (defaults: frozen clock at NOW, seed 1). */
/**
 * Starts the simulator on a free port: by default its clock frozen at NOW. `options.clock`
 * 'running' with `now: null` starts it on its own wall clock instead (read through `options.env`,
 * which may preload a moved clock).
 */
export async function startSim(
	flags: string[] = [],
	options: { env?: NodeJS.ProcessEnv; clock?: 'frozen' | 'running'; now?: string | null } = {},
): Promise<Sim> {
	const now = options.now === undefined ? NOW : options.now;
	const args = [
		'simulator/src/cli.ts',
		'--port',
		'0',
		...(now === null ? [] : ['--now', now]),
		'--clock',
		options.clock ?? 'frozen',
		...flags,
	];
	const child = spawn(process.execPath, args, {
		cwd: REPO,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: options.env ?? process.env,
	});
	let err = '';
	child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
	const base = await new Promise<string>((resolve, reject) => {
		let out = '';
		const timer = setTimeout(() => reject(new Error(`simulator did not start: ${err}`)), 20_000);
		child.stdout!.on('data', (d: Buffer) => {
			out += d.toString();
			const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
			if (m) {
				clearTimeout(timer);
				resolve(m[1]);
			}
		});
		// 'close', not 'exit': it comes once stderr is read to its end (on a loaded machine 'exit'
		// can come before the message the simulator wrote on its way out)
		child.on('close', (code) => {
			clearTimeout(timer);
			reject(new Error(`simulator exited with ${code}: ${err}`));
		});
	});
	return {
		base,
		port: Number(new URL(base).port),
		child,
		stderr: () => err,
		stop: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			}),
	};
}

export interface Res<T = Loose> {
	status: number;
	headers: Headers;
	text: string;
	json: T;
}

export interface CallOptions {
	key?: string | null;
	body?: unknown;
	/** Raw body text (sent as is). */
	raw?: string;
	contentType?: string | null;
	accept?: string;
	query?: Record<string, string | number>;
	headers?: Record<string, string>;
}

/** Call the API: key defaults to Enterprise, Content-Type to application/json. */
export async function api<T = Loose>(
	sim: Sim,
	method: string,
	path: string,
	o: CallOptions = {},
): Promise<Res<T>> {
	const url = new URL(sim.base + ROOT + path);
	for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, String(v));
	const headers: Record<string, string> = { ...(o.headers ?? {}) };
	const key = o.key === undefined ? ENTERPRISE : o.key;
	if (key !== null) headers['x-api-key'] = key;
	const ct = o.contentType === undefined ? 'application/json' : o.contentType;
	if (ct !== null) headers['content-type'] = ct;
	if (o.accept) headers.accept = o.accept;
	const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
	const res = await fetch(url, { method, headers, body });
	const text = await res.text();
	let json: Loose;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.status, headers: res.headers, text, json };
}

/** Call the admin API. */
export async function admin<T = Loose>(
	sim: Sim,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const res = await fetch(sim.base + '/__admin' + path, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status !== 200) throw new Error(`admin ${method} ${path} → ${res.status}: ${text}`);
	return JSON.parse(text) as T;
}

export const search = (
	sim: Sim,
	projectId: number,
	body: unknown,
	o: CallOptions & { recent?: boolean } = {},
) =>
	api(sim, 'POST', `/projects/${projectId}/mentions/${o.recent ? 'recent/' : ''}search`, {
		...o,
		body,
	});

/** Page through a search; returns all mentions and how many requests it took. */
export async function searchAll(
	sim: Sim,
	projectId: number,
	body: unknown,
	o: { recent?: boolean; key?: string; between?: (page: number) => Promise<void> } = {},
): Promise<{ mentions: Loose[]; requests: number; cursors: Array<string | null> }> {
	const mentions: Loose[] = [];
	const cursors: Array<string | null> = [];
	let cursor: string | null = null;
	let requests = 0;
	do {
		const res: Res = await search(sim, projectId, body, {
			recent: o.recent,
			key: o.key,
			query: cursor ? { cursor } : undefined,
		});
		requests++;
		if (res.status !== 200) throw new Error(`search → ${res.status}: ${res.text}`);
		mentions.push(...res.json.data);
		cursor = res.json.cursor;
		cursors.push(cursor);
		if (o.between) await o.between(requests);
		if (requests > 5000) throw new Error('too many pages');
	} while (cursor);
	return { mentions, requests, cursors };
}

export interface StreamEvent {
	event: string;
	data: string;
	id: string;
}

/** Parse SSE text into events (event/data/id, blank-line separated). */
export function parseSse(text: string): StreamEvent[] {
	const out: StreamEvent[] = [];
	for (const block of text.split('\n\n')) {
		if (!block.trim()) continue;
		const ev: StreamEvent = { event: '', data: '', id: '' };
		for (const line of block.split('\n')) {
			const i = line.indexOf(': ');
			const field = i < 0 ? line : line.slice(0, i);
			const value = i < 0 ? '' : line.slice(i + 2);
			if (field === 'event') ev.event = value;
			else if (field === 'data') ev.data = value;
			else if (field === 'id') ev.id = value;
		}
		out.push(ev);
	}
	return out;
}

/** Parse JSON lines into events. */
export function parseLines(text: string): StreamEvent[] {
	return text
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => {
			const o = JSON.parse(l) as { event: string; data: unknown; id: string };
			return { event: o.event, data: JSON.stringify(o.data), id: o.id };
		});
}

export interface RawResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
	/** How the response ended: normally, with an error (reset, truncated), or cut by us. */
	end: 'complete' | 'error' | 'aborted';
	chunks: number;
}

export interface RawOptions {
	method?: string;
	headers?: Record<string, string>;
	body?: string;
	/** Stop reading (abort) when this returns true for the body so far. */
	until?: (body: string) => boolean;
	/** Abort after this many ms (real time). */
	timeoutMs?: number;
}

/** A raw HTTP request with node:http: full control of headers, body timing and endings. */
export function raw(sim: Sim, path: string, o: RawOptions = {}): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port: sim.port,
				path: path.startsWith('/__') ? path : ROOT + path,
				method: o.method ?? 'POST',
				headers: o.headers ?? {},
				agent: false,
			},
			(res) => {
				let body = '';
				let chunks = 0;
				let settled = false;
				const finish = (end: RawResponse['end']) => {
					if (settled) return;
					settled = true;
					clearTimeout(timer);
					resolve({ status: res.statusCode ?? 0, headers: res.headers, body, end, chunks });
				};
				const timer = setTimeout(() => {
					finish('aborted');
					req.destroy();
				}, o.timeoutMs ?? 10_000);
				res.setEncoding('utf8');
				res.on('data', (d: string) => {
					body += d;
					chunks++;
					if (o.until?.(body)) {
						finish('aborted');
						req.destroy();
					}
				});
				res.on('end', () => finish(res.complete ? 'complete' : 'error'));
				res.on('error', () => finish('error'));
				res.on('aborted', () => finish('error'));
				res.on('close', () => finish(res.complete ? 'complete' : 'error'));
			},
		);
		// No response at all within the timeout: give up (the "client gives up" case).
		const noResponse = setTimeout(
			() => req.destroy(new Error('no response before the timeout')),
			o.timeoutMs ?? 10_000,
		);
		req.on('response', () => clearTimeout(noResponse));
		req.on('error', (err) => {
			clearTimeout(noResponse);
			reject(err);
		});
		if (o.body !== undefined) req.write(o.body);
		req.end();
	});
}

/** Open a stream with the usual headers. */
export function stream(
	sim: Sim,
	path: string,
	o: {
		key?: string;
		accept?: string;
		body?: unknown;
		until?: (body: string) => boolean;
		timeoutMs?: number;
	} = {},
): Promise<RawResponse> {
	return raw(sim, path, {
		method: 'POST',
		headers: {
			'x-api-key': o.key ?? ENTERPRISE,
			'content-type': 'application/json',
			accept: o.accept ?? 'text/event-stream',
		},
		body: JSON.stringify(o.body ?? {}),
		until: o.until,
		timeoutMs: o.timeoutMs,
	});
}

export const countEvents = (body: string, kind: string) =>
	parseSse(body).filter((e) => e.event === kind).length;

/** Create an empty project (it starts without mentions) and return its id. */
export async function createProject(
	sim: Sim,
	name = 'Test project',
	query = 'test',
): Promise<number> {
	const res = await api(sim, 'POST', '/projects', { body: { name, query } });
	if (res.status !== 201) throw new Error(`create project → ${res.status}: ${res.text}`);
	return res.json.id as number;
}

/** Collect mentions through the admin API. */
export async function addMentions(
	sim: Sim,
	projectId: number,
	count: number,
	extra: { overrides?: unknown; collectedAt?: string; publishedAt?: string } = {},
): Promise<Loose[]> {
	const r = await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
		projectId,
		count,
		...extra,
	});
	return r.mentions;
}

export interface LiveStream {
	status: number;
	headers: IncomingHttpHeaders;
	body: () => string;
	ended: () => RawResponse['end'] | null;
	/** Resolve when the body so far satisfies the predicate. */
	until: (pred: (body: string) => boolean, timeoutMs?: number) => Promise<string>;
	close: () => void;
}

/** Open a stream and keep it open: the caller reads the body as it grows and closes it. */
export function openStream(
	sim: Sim,
	path: string,
	o: { key?: string; accept?: string; body?: unknown } = {},
): Promise<LiveStream> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port: sim.port,
				path: ROOT + path,
				method: 'POST',
				agent: false,
				headers: {
					'x-api-key': o.key ?? ENTERPRISE,
					'content-type': 'application/json',
					accept: o.accept ?? 'text/event-stream',
				},
			},
			(res) => {
				let body = '';
				let end: RawResponse['end'] | null = null;
				const waiters: Array<() => void> = [];
				res.setEncoding('utf8');
				res.on('data', (d: string) => {
					body += d;
					for (const w of waiters.splice(0)) w();
				});
				const done = () => {
					if (end === null) end = res.complete ? 'complete' : 'error';
					for (const w of waiters.splice(0)) w();
				};
				res.on('end', done);
				res.on('close', done);
				res.on('error', done);
				resolve({
					status: res.statusCode ?? 0,
					headers: res.headers,
					body: () => body,
					ended: () => end,
					until: (pred, timeoutMs = 5000) =>
						new Promise<string>((ok, fail) => {
							const timer = setTimeout(
								() =>
									fail(new Error(`stream: condition not met; body so far:\n${body.slice(-2000)}`)),
								timeoutMs,
							);
							const check = () => {
								if (pred(body)) {
									clearTimeout(timer);
									ok(body);
								} else if (end !== null) {
									clearTimeout(timer);
									fail(
										new Error(
											`stream ended (${end}) before the condition; body:\n${body.slice(-2000)}`,
										),
									);
								} else waiters.push(check);
							};
							check();
						}),
					close: () => req.destroy(),
				});
			},
		);
		req.on('error', (err) => reject(err));
		req.end(JSON.stringify(o.body ?? {}));
	});
}

export interface LoggedRequest {
	seq: number;
	method: string;
	path: string;
	query: Record<string, string>;
	status: number | null;
	group: string | null;
	tier: string | null;
	counted: boolean;
	body: Loose;
	accept: string | null;
	contentType: string | null;
}

/** The simulator's request log (API requests only; the admin API is never logged). */
export async function requestLog(sim: Sim): Promise<LoggedRequest[]> {
	return (await admin<{ requests: LoggedRequest[] }>(sim, 'GET', '/requests')).requests;
}

export async function clearLog(sim: Sim): Promise<void> {
	await admin(sim, 'DELETE', '/requests');
}

/**
 * The simulator of a test file (startSim: its clock frozen at NOW): started with `flags` before its
 * tests (handed to `use`), stopped after them; with `reset`, back to its startup state before each
 * test.
 */
export function useSim(
	flags: string[],
	use: (sim: Sim) => void,
	options: { reset?: boolean } = {},
): void {
	let sim: Sim | undefined;
	beforeAll(async () => {
		sim = await startSim(flags);
		use(sim);
	});
	afterAll(async () => {
		await sim?.stop();
	});
	if (options.reset)
		beforeEach(async () => {
			await resetSim(sim!);
		});
}

/** Startup state (data, budgets, faults, log, clock) and the virtual clock back at NOW. */
export async function resetSim(sim: Sim, clock?: { reset(): void }): Promise<void> {
	await admin(sim, 'POST', '/reset');
	clock?.reset();
}

/** Requests whose path (without the API root) matches. */
export function onPath(log: LoggedRequest[], pattern: RegExp): LoggedRequest[] {
	return log.filter((r) => pattern.test(r.path.replace(/^\/api\/public\/v2/, '')));
}

/** A new, empty project (created through the API with the Enterprise key) filled with exactly N mentions. */
export async function projectWithMentions(
	sim: Sim,
	count: number,
	overrides?: unknown,
): Promise<number> {
	const id = await createProject(sim, `Test project ${count}`);
	// the admin API accepts any count; batches keep each call small
	for (let left = count; left > 0; left -= 500)
		await addMentions(sim, id, Math.min(500, left), { overrides });
	return id;
}

/**
 * Tags the first mention of a project (through the API, the Enterprise key, 50 tags a request) with
 * `count` tags named tag-000, tag-001 …; returns its id.
 */
export async function tagFirstMention(sim: Sim, projectId: number, count: number): Promise<string> {
	const [mention] = (
		await admin<{ mentions: Array<{ id: string }> }>(sim, 'GET', `/mentions?projectId=${projectId}`)
	).mentions;
	for (let k = 0; k < count; k += 50) {
		const tags = Array.from(
			{ length: Math.min(50, count - k) },
			(_, j) => `tag-${String(k + j).padStart(3, '0')}`,
		);
		const res = await api(sim, 'POST', `/projects/${projectId}/mentions/${mention.id}/tags`, {
			body: { tags },
		});
		if (res.status !== 200) throw new Error(`tagging → ${res.status}`);
	}
	return mention.id;
}

export interface ScriptedResponse {
	status?: number;
	kind: 'json' | 'html' | 'text' | 'truncated-json' | 'huge' | 'hang' | 'reset';
	body?: unknown;
	headers?: Record<string, string | number>;
}

/** Adds one scripted response (used `times` times) for requests whose path matches `path` (a regex). */
export async function script(
	sim: Sim,
	path: string,
	respond: ScriptedResponse,
	times = 1,
	method?: string,
): Promise<void> {
	await admin(sim, 'POST', '/faults', { script: [{ match: { path, method }, times, respond }] });
}

/**
 * An instant for a frozen simulator clock that is real "now" but never within 3 minutes of the top
 * of a UTC hour (then 5 minutes later), so the hourly reset it reports is in the real future for
 * the whole run: the node compares resets with Date.now().
 */
export function safeRealNow(): string {
	const now = Date.now();
	const toTop = HOUR - (now % HOUR);
	return new Date(toTop > 3 * 60_000 ? now : now + 5 * 60_000).toISOString();
}

/** A simulator whose frozen clock is (about) real now; later flags override startSim's defaults. */
export async function startRealTimeSim(flags: string[] = []): Promise<Sim> {
	return await startSim(['--now', safeRealNow(), ...flags]);
}

/**
 * A real-time simulator for the whole file: started before its tests (handed to `use`), stopped
 * after them, its state reset before each test.
 */
export function useRealTimeSim(flags: string[], use: (sim: Sim) => void): void {
	let sim: Sim | undefined;
	beforeAll(async () => {
		sim = await startRealTimeSim(flags);
		use(sim);
	});
	afterAll(async () => {
		await sim?.stop();
	});
	beforeEach(async () => {
		if (sim) await resetSim(sim);
	});
}

/** Top of the next UTC hour after the simulator's clock, as its rate-limit headers report it. */
export async function nextHourOf(sim: Sim): Promise<number> {
	const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
	const t = Date.parse(now);
	return t - (t % HOUR) + HOUR;
}

/** Heartbeat interval of the test simulators. */
export const HEARTBEAT_MS = 200;

/**
 * A simulator with a running clock that starts at the real now, fast heartbeats, one generated
 * project; tests create their own empty projects so the ground truth is exactly what they inject.
 */
export async function startLiveSim(extra: string[] = []): Promise<Sim> {
	return await startRunningSim({ projects: 1, mentions: 50, heartbeatMs: HEARTBEAT_MS }, extra);
}

/** What a simulator with a running clock starts with; left out: the simulator's own default. */
export interface RunningSimOptions {
	/** where its clock starts (default: the real now) */
	now?: number | string;
	projects?: number;
	mentions?: number;
	heartbeatMs?: number;
	seed?: number;
}

/** A simulator whose clock runs from `now` (the real now by default), with these data sizes. */
export async function startRunningSim(
	options: RunningSimOptions = {},
	extra: string[] = [],
): Promise<Sim> {
	// left out, the simulator's clock starts at its own real now: one taken here would run behind
	// real time by however long the process took to start (seconds on a loaded machine)
	const now = options.now;
	const flags: string[] = [];
	if (options.projects !== undefined) flags.push('--projects', String(options.projects));
	if (options.mentions !== undefined) flags.push('--mentions', String(options.mentions));
	if (options.heartbeatMs !== undefined) flags.push('--heartbeat-ms', String(options.heartbeatMs));
	if (options.seed !== undefined) flags.push('--seed', String(options.seed));
	return await startSim([...flags, ...extra], {
		clock: 'running',
		now: now === undefined ? null : typeof now === 'number' ? new Date(now).toISOString() : now,
	});
}

export async function emptyProject(sim: Sim, name = 'Trigger test'): Promise<number> {
	return await createProject(sim, name, 'acme');
}

/** The simulator's clock now (ms since the epoch), as its admin API reports it. */
export async function clockNow(sim: Sim): Promise<number> {
	return Date.parse((await admin<{ now: string }>(sim, 'GET', '/health')).now);
}

/** How many live streams are open on the simulator now. */
export async function openLiveStreams(sim: Sim): Promise<number> {
	return (await admin<{ openStreams: { live: number } }>(sim, 'GET', '/stats')).openStreams.live;
}

/** The mentions of a project the simulator collected from `from` (ms) on, whole (ground truth). */
export async function collectedFrom(sim: Sim, projectId: number, from: number): Promise<Loose[]> {
	return (
		await admin<{ mentions: Loose[] }>(
			sim,
			'GET',
			`/mentions?projectId=${projectId}&collectedFrom=${new Date(from).toISOString()}`,
		)
	).mentions;
}

/**
 * What a historical export sorted PublishedAtAscending must return (ground truth): the project's
 * mentions published in [from, to) (ms), oldest first, ties by id (D-19).
 */
export async function publishedBetween(
	sim: Sim,
	projectId: number,
	from: number,
	to: number,
): Promise<Loose[]> {
	return (
		await admin<{ mentions: Loose[] }>(sim, 'GET', `/mentions?projectId=${projectId}`)
	).mentions
		.map((m) => ({ ...m, pub: Date.parse(m.publishedAt) }))
		.filter((m) => m.pub >= from && m.pub < to)
		.sort((a, b) => a.pub - b.pub || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Ids of every mention of the project the simulator collected (ordered by collectedAt, id). */
export async function groundTruth(
	sim: Sim,
	projectId: number,
	collectedFrom?: string,
): Promise<string[]> {
	const q = new URLSearchParams({ projectId: String(projectId) });
	if (collectedFrom) q.set('collectedFrom', collectedFrom);
	const r = await admin<{ mentions: Array<{ id: string }> }>(
		sim,
		'GET',
		`/mentions?${q.toString()}`,
	);
	return r.mentions.map((m) => m.id);
}

/** Search requests the simulator logged (optionally since a log sequence number). */
export async function searchRequests(sim: Sim): Promise<Loose[]> {
	const r = await admin<{ requests: Loose[] }>(sim, 'GET', '/requests');
	return r.requests.filter((e) => e.group === 'search');
}

export async function stats(sim: Sim): Promise<Loose> {
	return await admin(sim, 'GET', '/stats');
}

/**
 * The admin API without keep-alive (each call closes its socket), for tests that count the
 * sockets left in this process.
 */
export async function adminOnce<T = Record<string, unknown>>(
	sim: Sim,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return await new Promise<T>((resolve, reject) => {
		const req = httpRequest(
			`${sim.base}/__admin${path}`,
			{
				method,
				agent: false,
				headers: {
					connection: 'close',
					'content-type': 'application/json',
					...(payload ? { 'content-length': String(Buffer.byteLength(payload)) } : {}),
				},
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (text += chunk));
				res.on('end', () => {
					if (res.statusCode !== 200)
						reject(new Error(`admin ${method} ${path} → ${res.statusCode}: ${text}`));
					else resolve(JSON.parse(text) as T);
				});
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/**
 * The simulator the hostile and shutdown suites share: one project, 20 mentions, a running clock
 * from now, heartbeats every 200 ms, and the hourly and monthly budgets lifted out of the way.
 */
export async function startRoomySim(): Promise<Sim> {
	const sim = await startRunningSim({ projects: 1, mentions: 20, heartbeatMs: 200 });
	await adminOnce(sim, 'POST', '/limits', {
		mode: 'spec',
		hourly: { search: 100_000, live: 100_000 },
		monthlyCap: { basic: 100_000_000, enterprise: 100_000_000 },
	});
	return sim;
}

/** The admin API without throwing on a 4xx: its status and JSON answer (for the 400s it names). */
export async function adminCall<T = Loose>(
	sim: Sim,
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; json: T }> {
	const res = await fetch(sim.base + '/__admin' + path, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, json: (await res.json()) as T };
}

/** Moves the simulator's clock; live collection and viral growth catch up at once. */
export async function advanceClock(sim: Sim, ms: number): Promise<string> {
	return (await admin<{ now: string }>(sim, 'POST', '/clock', { advanceMs: ms })).now;
}

/**
 * Runs `body` with the simulator's clock stopped, then lets it run on from where it stood: a run
 * and the ground truth counted after it then see the same "now" (the recent window's 7-day edge
 * does not move between them).
 */
export async function withClockStopped<T>(sim: Sim, body: () => Promise<T>): Promise<T> {
	await admin(sim, 'POST', '/clock', { frozen: true });
	try {
		return await body();
	} finally {
		await admin(sim, 'POST', '/clock', { frozen: false });
	}
}

export interface ExpectedBucket {
	from: string;
	to: string;
	/** what the live shapes in effect expected (a mean, not rounded to whole mentions) */
	expected: number;
	/** mentions collected in [from, to) (all of them: live, injected), and their sentiments */
	collected: number;
	sentiment: Record<'Positive' | 'Negative' | 'Neutral' | 'Unspecified', number>;
	/** indices into `bursts` of the bursts under way in the bucket */
	bursts: number[];
}

export interface ExpectedCounts {
	projectId: number | null;
	from: string;
	to: string;
	bucketMinutes: number;
	expected: number;
	collected: number;
	bursts: Array<Loose & { from: string; to: string; label: string | null }>;
	buckets: ExpectedBucket[];
}

/** Ground truth per bucket of live collection (GET /__admin/live/expected). */
export async function liveExpected(
	sim: Sim,
	q: { from: string; to: string; bucketMinutes?: number; projectId?: number },
): Promise<ExpectedCounts> {
	const params = new URLSearchParams({ from: q.from, to: q.to });
	if (q.bucketMinutes !== undefined) params.set('bucketMinutes', String(q.bucketMinutes));
	if (q.projectId !== undefined) params.set('projectId', String(q.projectId));
	return await admin<ExpectedCounts>(sim, 'GET', `/live/expected?${params.toString()}`);
}

// BigInt() rather than a literal: the test build targets ES2019
const TWO_TO_53 = BigInt(2) ** BigInt(53);

/**
 * Every integer a JSON text writes above 2^53, digit for digit as written (a JavaScript number
 * cannot hold them; variant bigCounts=on writes them).
 */
export function integersAbove2To53(jsonText: string): string[] {
	const out: string[] = [];
	for (const m of jsonText.matchAll(/[:[,]\s*(-?\d{16,})(?![\d.eE])/g)) {
		if (BigInt(m[1]) > TWO_TO_53) out.push(m[1]);
	}
	return out;
}
