/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * A hostile HTTP server of the test's own making (node:http on 127.0.0.x, port 0), for threats the
 * simulator does not script: per-route behaviours a test composes (redirects, bodies dripping a
 * byte at a time, JSON page sequences with whatever data and cursors the test wants, SSE and JSON
 * lines streams that never end, custom rate-limit headers and 429 bodies), and a log of every
 * request with its headers — so a test can prove where an X-API-KEY header did or did not arrive —
 * and of every TCP connection (a TLS client knocking on a plain port counts too).
 *
 * Routes match the path without the API root (`/api/public/v2`) and without the query; the first
 * route that matches answers; an unmatched request gets a 404 JSON answer. A route given a list of
 * behaviours answers its n-th request with the n-th one (the last one repeats).
 */
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { realNow } from '../time';
import { waitFor } from '../wait';

export const API_ROOT = '/api/public/v2';

/** One request the server received. */
export interface HostileRequest {
	/** 1-based, over the server's life (reset() starts again) */
	seq: number;
	method: string;
	/** the request target as sent (path and query) */
	rawUrl: string;
	/** the path without the API root and without the query */
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: string;
	/** the test's clock when it arrived (`now` option; real time by default) */
	at: number;
	/** real time when it arrived (performance.now based) */
	realAt: number;
	/** 1-based count of requests this route answered (the route's own sequence) */
	routeSeq: number;
	/** the route that answered (its label), or undefined for the 404 fallback */
	route?: string;
}

/** What a route does with a request. It owns the response (end it, or keep it open). */
export type Behaviour = (
	req: HostileRequest,
	res: ServerResponse,
	server: HostileServer,
) => void | Promise<void>;

interface Route {
	label: string;
	method: string;
	pattern: RegExp;
	behaviours: Behaviour[];
	count: number;
}

export interface HostileServerOptions {
	/** 127.0.0.1 unless given (127.0.0.2 is another host on the same machine) */
	host?: string;
	/** the clock requests are stamped with (a test's virtual clock) */
	now?: () => number;
}

export class HostileServer {
	readonly requests: HostileRequest[] = [];

	/** TCP connections accepted (any protocol) */
	connections = 0;

	/** connections that did not speak HTTP (a TLS handshake to this plain port, garbage) */
	clientErrors = 0;

	/** bytes written by the streaming behaviours (drip, stream) */
	bytesSent = 0;

	/** responses still open */
	open = 0;

	private readonly routes: Route[] = [];

	private readonly sockets = new Set<Socket>();

	private seq = 0;

	private constructor(
		private readonly server: Server,
		readonly host: string,
		readonly port: number,
		private readonly now: () => number,
	) {}

	static async start(options: HostileServerOptions = {}): Promise<HostileServer> {
		const host = options.host ?? '127.0.0.1';
		const server = createServer();
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, host, () => resolve());
		});
		const port = (server.address() as { port: number }).port;
		const hostile = new HostileServer(server, host, port, options.now ?? realNow);
		server.on('connection', (socket: Socket) => hostile.onConnection(socket));
		server.on(
			'request',
			(req: IncomingMessage, res: ServerResponse) => void hostile.onRequest(req, res),
		);
		// a client that speaks TLS to a plain port produces a clientError: count it, answer nothing
		server.on('clientError', (_error: Error, socket: Socket) => {
			hostile.clientErrors++;
			socket.destroy();
		});
		return hostile;
	}

	/** scheme, host and port */
	get origin(): string {
		return `http://${this.host}:${this.port}`;
	}

	/** what a credential's Base URL is set to (the node adds the API root) */
	get base(): string {
		return this.origin;
	}

	/** Adds a route: `behaviours` answer its 1st, 2nd … request (the last one repeats). */
	route(
		method: string,
		pattern: RegExp | string,
		behaviours: Behaviour | Behaviour[],
		label?: string,
	): this {
		const list = Array.isArray(behaviours) ? behaviours : [behaviours];
		if (list.length === 0) throw new Error('a route needs a behaviour');
		this.routes.push({
			label: label ?? `${method} ${String(pattern)}`,
			method: method.toUpperCase(),
			pattern: typeof pattern === 'string' ? new RegExp(pattern) : pattern,
			behaviours: list,
			count: 0,
		});
		return this;
	}

	/** Every request answered by `behaviour`. */
	any(behaviour: Behaviour | Behaviour[]): this {
		return this.route('*', /.*/, behaviour, 'any');
	}

	/** Forgets routes, the log and the counters; ends every open response. */
	reset(): void {
		this.routes.length = 0;
		this.requests.length = 0;
		this.seq = 0;
		this.connections = 0;
		this.clientErrors = 0;
		this.bytesSent = 0;
		this.dropConnections();
	}

	/** Ends every open connection (streams, drips) at once. */
	dropConnections(): void {
		for (const socket of this.sockets) socket.destroy();
	}

	/** The values of the X-API-KEY header the server received, one per request that carried it. */
	apiKeysReceived(): string[] {
		return this.requests
			.map((r) => r.headers['x-api-key'])
			.filter((v): v is string => typeof v === 'string');
	}

	/** Requests whose path matches. */
	on(pattern: RegExp): HostileRequest[] {
		return this.requests.filter((r) => pattern.test(r.path));
	}

	async close(): Promise<void> {
		this.dropConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private onConnection(socket: Socket): void {
		this.connections++;
		this.sockets.add(socket);
		socket.on('close', () => this.sockets.delete(socket));
		socket.on('error', () => undefined);
	}

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawUrl = req.url ?? '/';
		const url = new URL(rawUrl, 'http://x');
		const path = url.pathname.startsWith(API_ROOT)
			? url.pathname.slice(API_ROOT.length) || '/'
			: url.pathname;
		const query: Record<string, string> = {};
		url.searchParams.forEach((value, key) => (query[key] = value));
		const method = (req.method ?? 'GET').toUpperCase();
		const route = this.routes.find(
			(r) => (r.method === '*' || r.method === method) && r.pattern.test(path),
		);
		const entry: HostileRequest = {
			seq: ++this.seq,
			method,
			rawUrl,
			path,
			query,
			headers: req.headers,
			body: Buffer.concat(chunks).toString('utf8'),
			at: this.now(),
			realAt: realNow(),
			routeSeq: route ? ++route.count : 0,
			route: route?.label,
		};
		this.requests.push(entry);
		this.open++;
		res.on('close', () => this.open--);
		res.on('error', () => undefined);
		if (!route) {
			json(404, { message: `No route ${method} ${path} on the hostile server` })(entry, res, this);
			return;
		}
		const behaviour = route.behaviours[Math.min(route.count, route.behaviours.length) - 1];
		try {
			await behaviour(entry, res, this);
		} catch {
			res.destroy();
		}
	}
}

// --- behaviours -------------------------------------------------------------------------------

export type Headers = Record<string, string | number | string[]>;

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Headers = {}): Behaviour {
	return (_req, res) => {
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		res.writeHead(status, { 'content-type': 'application/json', ...headers });
		res.end(text);
	};
}

/**
 * A redirect: `status` with `location` (no Location header when undefined) and a body that looks
 * like a real answer (`body`), so a node that used the body of a 3xx would show it.
 */
export function redirect(
	status: number,
	location: string | undefined,
	body: unknown = {},
	headers: Headers = {},
): Behaviour {
	return (_req, res) => {
		const all: Headers = { 'content-type': 'application/json', ...headers };
		if (location !== undefined) all.location = location;
		res.writeHead(status, all);
		res.end(JSON.stringify(body));
	};
}

/** A JSON page of a cursor list: `{ data, cursor }`. */
export interface Page {
	data: unknown[];
	cursor?: unknown;
	/** extra headers of this page (rate-limit headers …) */
	headers?: Headers;
	/** status (200 unless given) */
	status?: number;
}

/** Answers the route's n-th request (1-based) with `page(n, req)`. */
export function pages(page: (n: number, req: HostileRequest) => Page): Behaviour {
	return (req, res, server) => {
		const p = page(req.routeSeq, req);
		const body: Record<string, unknown> = { data: p.data };
		if (p.cursor !== undefined) body.cursor = p.cursor;
		return json(p.status ?? 200, body, p.headers ?? {})(req, res, server);
	};
}

/** Headers, then nothing: the connection stays open until the client gives up. */
export function silence(
	status = 200,
	headers: Headers = { 'content-type': 'application/json' },
): Behaviour {
	return (_req, res) => {
		res.writeHead(status, headers);
		res.flushHeaders();
	};
}

/** `behaviour`, after `ms` of silence (a slow server: each page taking its time). */
export function later(ms: number, behaviour: Behaviour): Behaviour {
	return async (req, res, server) => {
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, ms);
			res.on('close', () => {
				clearTimeout(timer);
				resolve();
			});
		});
		if (res.destroyed || res.writableEnded) return;
		await behaviour(req, res, server);
	};
}

/** No answer at all: the request is read and the socket left waiting. */
export function hang(): Behaviour {
	return () => undefined;
}

/**
 * Writes `prefix` at once, then one byte of `filler` every `everyMs` ms, forever (until the client
 * closes the connection).
 */
export function drip(options: {
	everyMs: number;
	prefix?: string;
	filler?: string;
	status?: number;
	headers?: Headers;
}): Behaviour {
	return (_req, res, server) => {
		res.writeHead(options.status ?? 200, {
			'content-type': 'application/json',
			...(options.headers ?? {}),
		});
		const prefix = options.prefix ?? '';
		if (prefix !== '') {
			res.write(prefix);
			server.bytesSent += Buffer.byteLength(prefix);
		} else res.flushHeaders();
		const filler = options.filler ?? ' ';
		let i = 0;
		const timer = setInterval(() => {
			if (res.destroyed || res.writableEnded) return clearInterval(timer);
			res.write(filler[i++ % filler.length]);
			server.bytesSent += 1;
		}, options.everyMs);
		res.on('close', () => clearInterval(timer));
	};
}

/**
 * A stream: `frame(i)` gives the i-th piece of text (0-based); null ends the stream (the server
 * closes it). `everyMs` spaces the pieces out; 0 writes them as fast as the client reads them
 * (backpressure respected), so an endless stream is limited only by the client.
 */
export function stream(options: {
	frame: (i: number) => string | null;
	everyMs?: number;
	contentType?: string;
	status?: number;
	headers?: Headers;
}): Behaviour {
	return (_req, res, server) => {
		res.writeHead(options.status ?? 200, {
			'content-type': options.contentType ?? 'text/event-stream',
			'cache-control': 'no-cache',
			...(options.headers ?? {}),
		});
		res.flushHeaders();
		let i = 0;
		const everyMs = options.everyMs ?? 0;
		const closed = () => res.destroyed || res.writableEnded;
		if (everyMs > 0) {
			const timer = setInterval(() => {
				if (closed()) return clearInterval(timer);
				const piece = options.frame(i++);
				if (piece === null) {
					clearInterval(timer);
					res.end();
					return;
				}
				res.write(piece);
				server.bytesSent += Buffer.byteLength(piece);
			}, everyMs);
			res.on('close', () => clearInterval(timer));
			return;
		}
		const pump = () => {
			while (!closed()) {
				const piece = options.frame(i++);
				if (piece === null) {
					res.end();
					return;
				}
				server.bytesSent += Buffer.byteLength(piece);
				if (!res.write(piece)) {
					res.once('drain', pump);
					return;
				}
			}
		};
		pump();
	};
}

// --- stream frames ----------------------------------------------------------------------------

/** A mention shaped like the API's (enough fields for simplify and the filter checks). */
export function mention(
	id: string,
	at = '2026-11-21T10:00:00.000Z',
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		id,
		type: 'Post',
		publishedAt: at,
		collectedAt: at,
		source: {
			type: 'X',
			mentionUrl: `https://example.com/m/${id.length > 40 ? id.slice(0, 40) : id}`,
		},
		author: { name: 'Hostile Author', influenceMetrics: { followerCount: 12 } },
		content: {
			title: null,
			text: 'A mention from a hostile server. '.repeat(8),
			sentiment: 'Neutral',
			language: { code: 'en' },
		},
		engagementMetrics: {
			influenceScore: 3,
			engagementRate: 0.1,
			sourceMetrics: { common: { likeCount: 1, shareCount: 0, commentCount: 0, viewCount: 9 } },
		},
		tags: [],
		...extra,
	};
}

export const sse = {
	mention: (m: Record<string, unknown>) =>
		`event: mention\nid: ${String(m.id)}\ndata: ${JSON.stringify(m)}\n\n`,
	heartbeat: (date = new Date().toISOString()) =>
		`event: heartbeat\ndata: ${JSON.stringify({ date })}\n\n`,
	comment: (text = 'keep-alive') => `: ${text}\n\n`,
};

export const ndjson = {
	mention: (m: Record<string, unknown>) =>
		`${JSON.stringify({ event: 'mention', data: m, id: m.id })}\n`,
	heartbeat: (date = new Date().toISOString()) =>
		`${JSON.stringify({ event: 'heartbeat', data: { date } })}\n`,
};

export const SSE = 'text/event-stream';
export const NDJSON = 'application/x-ndjson';

/** Rate-limit headers as the API names them; a value of undefined leaves the header out. */
export function rateHeaders(values: {
	limit?: string | number;
	remaining?: string | number;
	reset?: string | number | string[];
}): Headers {
	const out: Headers = {};
	if (values.limit !== undefined) out['x-rate-limit-limit'] = values.limit;
	if (values.remaining !== undefined) out['x-rate-limit-remaining'] = values.remaining;
	if (values.reset !== undefined) out['x-rate-limit-reset'] = values.reset;
	return out;
}

/** What a test file's hostile server does around its tests (useHostileServer). */
export interface HostileServerUse {
	/**
	 * After each test: the behaviours reset and no response left open (default on; off for a file
	 * whose routes stay for all its tests).
	 */
	settleAfterEach?: boolean;
	/** the file's crash watch (probes.ts watchCrashes): after each test it must hold none */
	crashes?: unknown[];
	/** after the server closed, once the file's tests ran (where a file writes its figures) */
	closed?: () => void;
}

/**
 * The hostile server of a test file: started before its tests (handed to `use`), settled after
 * each test, closed after them.
 */
export function useHostileServer(
	use: (server: HostileServer) => void,
	o: HostileServerUse = {},
): void {
	let server: HostileServer | undefined;
	beforeAll(async () => {
		server = await HostileServer.start();
		use(server);
	});
	afterAll(async () => {
		await server?.close();
		o.closed?.();
	});
	if (o.settleAfterEach === false) return;
	afterEach(async () => {
		if (o.crashes) expect(o.crashes).toEqual([]);
		const settling = server!;
		settling.reset();
		await waitFor(() => settling.open === 0, {
			what: 'no response left open on the hostile server',
			timeoutMs: 5000,
		});
	});
}
