/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- simulator/test code: not shipped in the package */
// Small HTTP helpers.

import type { IncomingMessage, ServerResponse } from 'node:http';

import type { FieldErrors } from './validate.ts';
import { MSG } from './constants.ts';

const MAX_BODY = 10 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size <= MAX_BODY) chunks.push(c);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(''));
		req.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

export function sendJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	sendText(res, status, typeof body === 'string' ? body : JSON.stringify(body), headers);
}

/** Send an already serialised JSON document. */
export function sendText(
	res: ServerResponse,
	status: number,
	json: string,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': String(Buffer.byteLength(json)),
		...headers,
	});
	res.end(json);
}

/** How the last page says "no more" (variant `lastCursor`; D-20: null). */
export type LastCursor = 'null' | 'absent' | 'blank' | 'whitespace';

/** The cursor text of the last page, or undefined when the key is left out. */
const LAST_CURSOR: Record<LastCursor, string | undefined> = {
	null: 'null',
	absent: undefined,
	blank: '""',
	whitespace: '"  "',
};

/**
 * Whether the server writes the end of the pages as a cursor string (`lastCursor=blank` or
 * `whitespace`): such a server reads `?cursor=` as a value, and an invalid one (400), where D-42
 * reads it as no cursor.
 */
export function cursorValuedEnd(mode: LastCursor): boolean {
	return mode === 'blank' || mode === 'whitespace';
}

/**
 * A page envelope (spec "Page responses"): `{"data": [...], "cursor": ...}` from already serialised
 * items. On the last page the cursor is null, or as the variant `lastCursor` writes it: the key left
 * out (`absent`), `""` (`blank`) or `"  "` (`whitespace`).
 */
export function sendPage(
	res: ServerResponse,
	itemsJson: string[],
	cursor: string | null,
	lastCursor: LastCursor,
	headers: Record<string, string>,
): void {
	const end = cursor === null ? LAST_CURSOR[lastCursor] : JSON.stringify(cursor);
	const tail = end === undefined ? '' : `,"cursor":${end}`;
	sendText(res, 200, `{"data":[${itemsJson.join(',')}]${tail}}`, headers);
}

export function sendEmpty(
	res: ServerResponse,
	status: number,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, headers);
	res.end();
}

/** Outcome of a handler step: either go on, or this response. */
export class HttpError {
	readonly status: number;
	readonly body: unknown;
	constructor(status: number, body: unknown) {
		this.status = status;
		this.body = body;
	}
}

export const badRequest = (message: string) => new HttpError(400, { message });
export const notFound = (message: string) => new HttpError(404, { message });
export const unprocessable = (fields: FieldErrors) =>
	new HttpError(422, { message: MSG.validation, requestFieldErrors: fields });

export function hasErrors(fields: FieldErrors): boolean {
	return Object.keys(fields).length > 0;
}

/** Re-raise an error that a handler does not know how to answer (outside the catch clause). */
export function rethrow(err: unknown): never {
	throw err;
}

// --- request targets --------------------------------------------------------------------------

export interface Target {
	/** The path exactly as received (req.url up to `?` or `#`), for the request log. */
	rawPath: string;
	/** The path the server routes on: dot segments removed, nothing decoded. */
	path: string;
	query: URLSearchParams;
}

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/**
 * Read a request target the way a typical HTTP server (nginx, Node's URL, most frameworks) does,
 * from the raw `req.url`, never re-parsed as a URL (a target `//host/x` must not become a host):
 * - the query string starts at the first `?`; an absolute-form target keeps only its path;
 * - dot segments `.` and `..` (also percent-encoded, `%2e`) are removed (RFC 3986 5.2.4), so
 *   `/a/b/../c` is routed as `/a/c` and `..` never climbs above `/`;
 * - a percent-encoded slash (`%2F`) is not a separator: it stays inside its segment and is
 *   decoded only as part of a path parameter (a mention id `a/b`);
 * - nothing else is decoded or re-encoded; empty segments (`//`) stay (and match no route).
 */
export function parseTarget(rawUrl: string): Target {
	const q = rawUrl.search(/[?#]/);
	const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
	const rest = q < 0 ? '' : rawUrl.slice(q);
	const query = new URLSearchParams(rest.startsWith('?') ? rest.slice(1).split('#')[0] : '');
	let p = rawPath;
	const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(p);
	if (absolute) p = p.slice(absolute[0].length);
	if (!p.startsWith('/')) p = '/' + p;
	const segments = p.split('/').slice(1);
	const out: string[] = [];
	segments.forEach((seg, i) => {
		const last = i === segments.length - 1;
		if (DOT_DOT.test(seg)) {
			out.pop();
			if (last) out.push('');
		} else if (DOT.test(seg)) {
			if (last) out.push('');
		} else {
			out.push(seg);
		}
	});
	return { rawPath, path: '/' + out.join('/'), query };
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}
