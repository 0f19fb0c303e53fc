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

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
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

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}
