/* eslint-disable @n8n/community-nodes/no-restricted-imports -- simulator/test code: not shipped in the package */
// Fault injection: the configuration set by flags and the admin API, and the scripted responses.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { GROUPS, type Group } from './constants.ts';
import { rethrow } from './http.ts';
import { isPlainObject } from './validate.ts';

export type ScriptKind = 'json' | 'html' | 'text' | 'truncated-json' | 'huge' | 'hang' | 'reset';
const KINDS: ScriptKind[] = ['json', 'html', 'text', 'truncated-json', 'huge', 'hang', 'reset'];

export interface ScriptEntry {
	match: { method?: string; path?: string; group?: Group };
	times: number;
	respond: {
		status?: number;
		kind: ScriptKind;
		body?: unknown;
		headers?: Record<string, string>;
	};
}

export interface StreamFaults {
	dropAfterBytes?: number;
	dropTimes?: number;
	malformedEvery?: number;
	stallAfterEvents?: number;
	legacyHeartbeat?: boolean;
	heartbeatMs?: number;
	chunkBytes?: number;
	unknownEventEvery?: number;
}

export interface FaultConfig {
	latencyMs: number;
	errorRate: number;
	errorStatus: number;
	script: ScriptEntry[];
	force429: { group: Group; times: number } | null;
	repeatCursor: boolean;
	indexLagMs: number;
	stream: StreamFaults;
}

export function defaultFaults(
	latencyMs: number,
	errorRate: number,
	indexLagMs: number,
): FaultConfig {
	return {
		latencyMs,
		errorRate,
		errorStatus: 503,
		script: [],
		force429: null,
		repeatCursor: false,
		indexLagMs,
		stream: {},
	};
}

class FaultInputError extends Error {}

function nonNegInt(v: unknown, name: string): number {
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
		throw new FaultInputError(`${name} must be a non-negative integer.`);
	}
	return v;
}

function posInt(v: unknown, name: string): number {
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
		throw new FaultInputError(`${name} must be a positive integer.`);
	}
	return v;
}

function group(v: unknown, name: string): Group {
	if (typeof v !== 'string' || !(GROUPS as string[]).includes(v)) {
		throw new FaultInputError(`${name} must be one of ${GROUPS.join(', ')}.`);
	}
	return v as Group;
}

/** Merge an admin POST body into the configuration. Returns an error message when it is bad. */
export function mergeFaults(cfg: FaultConfig, input: unknown): string | null {
	try {
		if (!isPlainObject(input)) throw new FaultInputError('body must be a JSON object.');
		const next: FaultConfig = { ...cfg, script: [...cfg.script], stream: { ...cfg.stream } };
		if (input.latencyMs !== undefined) next.latencyMs = nonNegInt(input.latencyMs, 'latencyMs');
		if (input.errorRate !== undefined) {
			const r = input.errorRate;
			if (typeof r !== 'number' || r < 0 || r > 1)
				throw new FaultInputError('errorRate must be between 0 and 1.');
			next.errorRate = r;
		}
		if (input.errorStatus !== undefined) {
			const s = posInt(input.errorStatus, 'errorStatus');
			if (s < 100 || s > 599) throw new FaultInputError('errorStatus must be an HTTP status.');
			next.errorStatus = s;
		}
		if (input.repeatCursor !== undefined) next.repeatCursor = input.repeatCursor === true;
		if (input.indexLagMs !== undefined) next.indexLagMs = nonNegInt(input.indexLagMs, 'indexLagMs');
		if (input.force429 !== undefined) {
			if (input.force429 === null) next.force429 = null;
			else {
				if (!isPlainObject(input.force429))
					throw new FaultInputError('force429 must be an object.');
				next.force429 = {
					group: group(input.force429.group, 'force429.group'),
					times:
						input.force429.times === undefined ? 1 : posInt(input.force429.times, 'force429.times'),
				};
			}
		}
		if (input.script !== undefined) {
			if (!Array.isArray(input.script)) throw new FaultInputError('script must be an array.');
			for (const [i, e] of input.script.entries()) next.script.push(scriptEntry(e, `script[${i}]`));
		}
		if (input.stream !== undefined) {
			const s = input.stream;
			if (!isPlainObject(s)) throw new FaultInputError('stream must be an object.');
			const st = next.stream;
			const ints: Array<[keyof StreamFaults, 'pos' | 'nonneg']> = [
				['dropAfterBytes', 'nonneg'],
				['dropTimes', 'nonneg'],
				['malformedEvery', 'pos'],
				['stallAfterEvents', 'nonneg'],
				['heartbeatMs', 'pos'],
				['chunkBytes', 'pos'],
				['unknownEventEvery', 'pos'],
			];
			for (const [k, kind] of ints) {
				if (s[k] === undefined) continue;
				if (s[k] === null) {
					delete st[k];
					continue;
				}
				(st as Record<string, number>)[k] =
					kind === 'pos' ? posInt(s[k], `stream.${k}`) : nonNegInt(s[k], `stream.${k}`);
			}
			if (s.legacyHeartbeat !== undefined) st.legacyHeartbeat = s.legacyHeartbeat === true;
		}
		Object.assign(cfg, next);
		return null;
	} catch (err) {
		if (!(err instanceof FaultInputError)) rethrow(err);
		return err.message;
	}
}

function scriptEntry(e: unknown, name: string): ScriptEntry {
	if (!isPlainObject(e)) throw new FaultInputError(`${name} must be an object.`);
	const match = isPlainObject(e.match) ? e.match : {};
	const out: ScriptEntry = {
		match: {},
		times: e.times === undefined ? 1 : posInt(e.times, `${name}.times`),
		respond: { kind: 'json' },
	};
	if (match.method !== undefined) {
		if (typeof match.method !== 'string')
			throw new FaultInputError(`${name}.match.method must be a string.`);
		out.match.method = match.method.toUpperCase();
	}
	if (match.path !== undefined) {
		if (typeof match.path !== 'string')
			throw new FaultInputError(`${name}.match.path must be a string.`);
		let valid = true;
		try {
			new RegExp(match.path);
		} catch {
			valid = false;
		}
		if (!valid) throw new FaultInputError(`${name}.match.path is not a valid regular expression.`);
		out.match.path = match.path;
	}
	if (match.group !== undefined) out.match.group = group(match.group, `${name}.match.group`);
	if (!isPlainObject(e.respond)) throw new FaultInputError(`${name}.respond must be an object.`);
	const r = e.respond;
	if (typeof r.kind !== 'string' || !(KINDS as string[]).includes(r.kind)) {
		throw new FaultInputError(`${name}.respond.kind must be one of ${KINDS.join(', ')}.`);
	}
	out.respond.kind = r.kind as ScriptKind;
	if (r.status !== undefined) out.respond.status = posInt(r.status, `${name}.respond.status`);
	if (r.body !== undefined) out.respond.body = r.body;
	if (r.headers !== undefined) {
		if (!isPlainObject(r.headers))
			throw new FaultInputError(`${name}.respond.headers must be an object.`);
		out.respond.headers = Object.fromEntries(
			Object.entries(r.headers).map(([k, v]) => [k, String(v)]),
		);
	}
	return out;
}

/** Take the first script entry that matches this request (one use of it). */
export function takeScript(
	cfg: FaultConfig,
	method: string,
	path: string,
	grp: Group | null,
): ScriptEntry | null {
	for (let i = 0; i < cfg.script.length; i++) {
		const e = cfg.script[i];
		if (e.match.method && e.match.method !== method) continue;
		if (e.match.path && !new RegExp(e.match.path).test(path)) continue;
		if (e.match.group && e.match.group !== grp) continue;
		e.times--;
		if (e.times <= 0) cfg.script.splice(i, 1);
		return e;
	}
	return null;
}

const HUGE_BYTES = 52 * 1024 * 1024;

/**
 * Answer with a scripted response. Returns the status written, or null when none is (hang, reset).
 * `hung` collects sockets kept open so that reset/shutdown can destroy them.
 */
export async function respondScripted(
	req: IncomingMessage,
	res: ServerResponse,
	entry: ScriptEntry,
	baseHeaders: Record<string, string>,
	hung: Set<IncomingMessage['socket']>,
): Promise<number | null> {
	const r = entry.respond;
	const headers = { ...baseHeaders, ...(r.headers ?? {}) };
	switch (r.kind) {
		case 'hang':
			hung.add(req.socket);
			req.socket.once('close', () => hung.delete(req.socket));
			return null;
		case 'reset':
			req.socket.destroy();
			return null;
		case 'html': {
			const status = r.status ?? 502;
			const body =
				typeof r.body === 'string'
					? r.body
					: `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;
			send(res, status, { 'content-type': 'text/html', ...headers }, body);
			return status;
		}
		case 'text': {
			const status = r.status ?? 500;
			const body = typeof r.body === 'string' ? r.body : 'Internal Server Error';
			send(res, status, { 'content-type': 'text/plain', ...headers }, body);
			return status;
		}
		case 'json': {
			const status = r.status ?? 500;
			const body = JSON.stringify(r.body ?? { message: 'Scripted response.' });
			send(res, status, { 'content-type': 'application/json', ...headers }, body);
			return status;
		}
		case 'truncated-json': {
			const status = r.status ?? 200;
			const full =
				r.body !== undefined
					? JSON.stringify(r.body)
					: JSON.stringify({
							data: Array.from({ length: 3 }, (_, i) => ({ id: `truncated-${i}`, type: 'Post' })),
							cursor: 'eyJ0cnVuY2F0ZWQiOnRydWV9',
						});
			send(
				res,
				status,
				{ 'content-type': 'application/json', ...headers },
				full.slice(0, Math.floor(full.length / 2)),
			);
			return status;
		}
		case 'huge': {
			const status = r.status ?? 200;
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			const item = JSON.stringify({
				id: 'huge-mention',
				content: { text: 'x'.repeat(900), sentiment: 'Neutral', language: { code: 'en' } },
			});
			let written = 0;
			const open = () => !res.destroyed && !res.writableEnded;
			const write = async (s: string) => {
				written += s.length;
				if (!res.write(s)) {
					await new Promise<void>((resolve) => {
						const done = () => {
							res.off('drain', done);
							res.off('close', done);
							resolve();
						};
						res.on('drain', done);
						res.on('close', done);
					});
				}
			};
			await write('{"data":[' + item);
			const chunk = (',' + item).repeat(64);
			while (written < HUGE_BYTES && open()) await write(chunk);
			if (open()) res.end('],"cursor":null}');
			return status;
		}
	}
}

function send(
	res: ServerResponse,
	status: number,
	headers: Record<string, string>,
	body: string,
): void {
	res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
	res.end(body);
}
