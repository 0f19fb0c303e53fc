/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * A fake SentiOne for the unit tier: it stands where n8n's `httpRequestWithAuthentication` is, so
 * everything of the package above the wire runs for real (the credential's `authenticate`, the
 * transport's body guard, retries and error mapping, the pager, the stream reader) while no socket
 * is opened. Each answer is scripted by route; every request is recorded as the node built it
 * (method, path below the API root, query, parsed body, headers) for the test to assert on.
 *
 * Unlike the simulator, it knows nothing of the API: a test scripts exactly the answers its case
 * needs. The engine and e2e tiers prove the same operations against the simulator and a real n8n.
 */
import { Readable } from 'node:stream';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import { BASIC } from '../keys';
import { clock } from '../../../nodes/SentiOne/shared/clock';

/**
 * The HTTP Date of a fake answer: the node's clock (a fake clock when the test set one), so the
 * fake SentiOne's clock agrees with n8n's (D-50) unless an answer's own `date` header says otherwise.
 */
const dated = (): string => new Date(clock.now()).toUTCString();

export const API_ROOT = '/api/public/v2';

/** One request as it left the node (after the credential's authenticate). */
export interface FakeRequest {
	method: string;
	/** below the API root, e.g. /projects/1001/mentions/recent/search */
	path: string;
	qs: IDataObject;
	/** the JSON body, parsed; undefined when none was sent */
	body: unknown;
	headers: Record<string, string>;
	/** the whole URL the request would go to */
	url: string;
	/** the body handed back for it (a test can check that the node closed it: `destroyed`) */
	response?: Readable;
}

/** What the fake answers: a status, headers and a body (an object is sent as JSON). */
export interface FakeAnswer {
	status?: number;
	headers?: Record<string, string | number>;
	/** an object or array → JSON; a string → as it is */
	body?: unknown;
	/** the body in these pieces instead (a stream, a body cut in odd places); it ends after them */
	chunks?: Array<string | Uint8Array>;
	/** a body the test feeds and ends (a live stream held open): see FakeStream */
	stream?: FakeStream;
	/** the request fails before any answer, with this error (a network failure) */
	error?: Error;
	/** after its chunks the body breaks off with this error (a connection dropped mid-stream) */
	breakOff?: Error;
	/** after its chunks the body stays open and sends nothing more (a stream that does not end) */
	hold?: boolean;
}

type Responder = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>);

interface Route {
	method: string;
	path: string | RegExp;
	respond: Responder;
	times: number;
}

/** Rate-limit headers as SentiOne sends them (the reset in epoch seconds). */
export function rateLimitHeaders(
	limit: number,
	remaining: number,
	resetEpochMs: number,
): Record<string, number> {
	return {
		'x-rate-limit-limit': limit,
		'x-rate-limit-remaining': remaining,
		'x-rate-limit-reset': Math.floor(resetEpochMs / 1000),
	};
}

/** A page as SentiOne sends it: `{ data, cursor }` (no cursor on the last page). */
export function page(data: unknown[], cursor?: string | null): IDataObject {
	return cursor === undefined ? { data } : { data, cursor };
}

/**
 * A streamed body the test holds open: what it `send`s arrives as chunks; it ends (`end`), breaks
 * off (`drop`), or is dropped by the node (closing the connection destroys it, as n8n's HTTP stack
 * does; `closed` then says so). Answer a request with `{ stream }` to serve it.
 */
export class FakeStream {
	readonly body = new Readable({ read: () => undefined });

	constructor() {
		// a drop before the node reads is its reader's to see (the error stays on the stream), not
		// an unhandled 'error' event of the test process
		this.body.on('error', () => undefined);
	}

	/** Chunks as they arrive on the connection. */
	send(...chunks: Array<string | Uint8Array>): this {
		for (const chunk of chunks)
			if (!this.body.destroyed)
				this.body.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
		return this;
	}

	/** The server ends the stream normally. */
	end(): void {
		if (!this.body.destroyed) this.body.push(null);
	}

	/** The connection breaks off (a network failure mid-stream). */
	drop(message = 'socket hang up'): void {
		if (!this.body.destroyed)
			this.body.destroy(Object.assign(new Error(message), { code: 'ECONNRESET' }));
	}

	/** True once the connection is gone: ended and read, dropped, or closed by the node. */
	get closed(): boolean {
		return this.body.destroyed;
	}
}

function cancelled(): Error {
	// as n8n's HTTP stack (axios) reports a request its abort signal cancelled
	return Object.assign(new Error('canceled'), { name: 'CanceledError', code: 'ERR_CANCELED' });
}

export class FakeApi {
	/** every request the node sent, in order */
	readonly requests: FakeRequest[] = [];

	private readonly routes: Route[] = [];

	constructor(
		/** the credential the requests are authenticated with */
		readonly credentials: ICredentialDataDecryptedObject = {
			apiKey: BASIC,
			baseUrl: 'https://sentione.example',
		},
	) {}

	/**
	 * Answers requests of `method` to `path` (exact, below the API root, or a RegExp) — `times` times,
	 * then the route is used up. Routes are tried in the order they were added.
	 */
	on(method: string, path: string | RegExp, respond: Responder, times = Infinity): this {
		this.routes.push({ method: method.toUpperCase(), path, respond, times });
		return this;
	}

	/** Answers the next matching request once. */
	once(method: string, path: string | RegExp, respond: Responder): this {
		return this.on(method, path, respond, 1);
	}

	/** The requests to a path (exact or RegExp). */
	sent(path?: string | RegExp): FakeRequest[] {
		return path === undefined
			? this.requests
			: this.requests.filter((r) =>
					typeof path === 'string' ? r.path === path : path.test(r.path),
				);
	}

	/** What n8n's `helpers.httpRequestWithAuthentication` does, for a context's helpers. */
	readonly httpRequestWithAuthentication = async (
		credentialType: string,
		options: IHttpRequestOptions,
	): Promise<IN8nHttpFullResponse> => {
		if (credentialType !== 'sentiOneApi') throw new Error(`unknown credential ${credentialType}`);
		const authenticated = await new SentiOneApi().authenticate(this.credentials, options);
		const url = fullUrl(String(authenticated.url), authenticated.baseURL);
		// the API root is the base URL's path (a self-hosted deployment may put it below a prefix)
		const root = authenticated.baseURL
			? new URL(authenticated.baseURL).pathname.replace(/\/+$/, '')
			: API_ROOT;
		const request: FakeRequest = {
			method: String(authenticated.method ?? 'GET').toUpperCase(),
			path: url.pathname.startsWith(`${root}/`) ? url.pathname.slice(root.length) : url.pathname,
			qs: (authenticated.qs ?? {}) as IDataObject,
			body:
				typeof authenticated.body === 'string'
					? JSON.parse(authenticated.body)
					: authenticated.body,
			headers: Object.fromEntries(
				Object.entries(authenticated.headers ?? {}).map(([k, v]) => [k, String(v)]),
			),
			url: url.href,
		};
		this.requests.push(request);
		if (authenticated.abortSignal?.aborted) throw new Error('The operation was aborted');
		const route = this.routes.find(
			(r) =>
				r.times > 0 &&
				r.method === request.method &&
				(typeof r.path === 'string' ? r.path === request.path : r.path.test(request.path)),
		);
		if (!route)
			throw new Error(`FakeApi: no answer scripted for ${request.method} ${request.path}`);
		route.times--;
		const signal = authenticated.abortSignal as AbortSignal | undefined;
		// an answer still pending when the request is cancelled never arrives (as on a real socket)
		const answer = await new Promise<FakeAnswer>((resolve, reject) => {
			const onAbort = () => reject(cancelled());
			signal?.addEventListener('abort', onAbort, { once: true });
			Promise.resolve(
				typeof route.respond === 'function' ? route.respond(request) : route.respond,
			).then(
				(value) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(value);
				},
				(error: unknown) => {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
			);
		});
		if (answer.error) throw answer.error;
		if (answer.stream) {
			const held = answer.stream;
			if (signal?.aborted) held.body.destroy();
			else signal?.addEventListener('abort', () => held.body.destroy(), { once: true });
			const headers: Record<string, string> = {
				'content-type': 'text/event-stream',
				date: dated(),
			};
			for (const [k, v] of Object.entries(answer.headers ?? {}))
				headers[k.toLowerCase()] = String(v);
			return { statusCode: answer.status ?? 200, headers, body: held.body };
		}
		const text =
			answer.body === undefined
				? ''
				: typeof answer.body === 'string'
					? answer.body
					: JSON.stringify(answer.body);
		const chunks = answer.chunks ?? (text === '' ? [] : [text]);
		const headers: Record<string, string> = { date: dated() };
		const isJson = answer.chunks === undefined && typeof answer.body === 'object';
		if (isJson) headers['content-type'] = 'application/json';
		for (const [k, v] of Object.entries(answer.headers ?? {})) headers[k.toLowerCase()] = String(v);
		request.response = Readable.from(bodyOf(chunks, answer));
		return { statusCode: answer.status ?? 200, headers, body: request.response };
	};
}

/**
 * The URL a request goes to, joined as n8n's request helper (axios) joins it: a relative `url` is
 * appended to `baseURL` (not resolved against it, which would drop the API root's path).
 */
function fullUrl(url: string, baseURL: string | undefined): URL {
	if (/^https?:\/\//i.test(url) || !baseURL) return new URL(url, 'http://relative.invalid');
	return new URL(`${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`);
}

/** The chunks of an answer as bytes, then its end: normal, broken off, or never. */
async function* bodyOf(
	chunks: Array<string | Uint8Array>,
	answer: FakeAnswer,
): AsyncGenerator<Uint8Array> {
	for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
	if (answer.breakOff) throw answer.breakOff;
	// a promise that never settles: the body stays open until the node destroys it
	if (answer.hold) await new Promise<never>(() => undefined);
}
