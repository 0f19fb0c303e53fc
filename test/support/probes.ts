/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Shared by the reliability suite: seeded randomness, the results file each part writes (rendered
 * into docs/reliability.md by render.js), a hook that runs test code right before the node sends
 * its n-th request (to arm a simulator fault for exactly that request), and waits bounded by real
 * time that are immune to a test moving Date.now.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { SentiOneApi } from '../../credentials/SentiOneApi.credentials';
import { startSim, type Sim } from './simulator';
import { pause } from './triggerSim';
import { RESULTS_DIR } from './paths';

export { RESULTS_DIR };

/** One row of docs/reliability.md: a fault, how many cases were tried, what was lost. */
export interface ResultRow {
	fault: string;
	/** where the fault was tried (node, operation) */
	through: string;
	cases: number;
	/** mentions/items expected, when counting them makes sense */
	items?: number;
	lost?: number;
	duplicated?: number;
	/** what happened instead of a loss, in a few words */
	outcome: string;
}

export interface PartResults {
	part: string;
	title: string;
	/** the command that produced the figures */
	command: string;
	rows: ResultRow[];
	notes?: string[];
	figures?: Record<string, unknown>;
}

/** Writes the part's figures for render.js (test/.results/part-<name>.json). */
export function writePart(results: PartResults): void {
	mkdirSync(RESULTS_DIR, { recursive: true });
	const data = {
		...results,
		runId: process.env.SENTIONE_TEST_RUN_ID ?? null,
		finishedAt: new Date().toISOString(),
	};
	writeFileSync(
		join(RESULTS_DIR, `part-${results.part}.json`),
		`${JSON.stringify(data, null, 2)}\n`,
	);
}

/**
 * The client sockets this process opens, seen through Node's public `net.client.socket`
 * diagnostics channel as each is created (undici's fetch and n8n's HTTP helpers alike) and
 * forgotten when it closes. Call once at the top of a test file; it stops watching after the file.
 */
export function watchSockets(): { openTo(port: number): number } {
	const open = new Set<Socket>();
	const onSocket = (message: unknown) => {
		const { socket } = message as { socket: Socket };
		open.add(socket);
		socket.once('close', () => open.delete(socket));
	};
	subscribe('net.client.socket', onSocket);
	afterAll(() => {
		unsubscribe('net.client.socket', onSocket);
	});
	return {
		/** sockets to that port not yet destroyed */
		openTo: (port) =>
			[...open].filter((socket) => !socket.destroyed && socket.remotePort === port).length,
	};
}

/** mulberry32: reproducible randomness from a seed. */
export { seededRandom as random } from './random';

export const between = (next: () => number, min: number, max: number) =>
	min + Math.floor(next() * (max - min + 1));
export const pick = <T>(next: () => number, list: readonly T[]): T =>
	list[Math.floor(next() * list.length)];

/** Real time, whatever a test does to Date.now. */
export const realNow = () => performance.timeOrigin + performance.now();

export { pause };

/** Waits until the predicate holds; fails after `timeoutMs` of real time. */
export async function waitFor(
	what: string,
	predicate: () => Promise<boolean> | boolean,
	timeoutMs = 15_000,
	stepMs = 20,
): Promise<void> {
	const start = performance.now();
	while (!(await predicate())) {
		if (performance.now() - start > timeoutMs)
			throw new Error(`${what}: not within ${timeoutMs} ms`);
		await pause(stepMs);
	}
}

export interface OutgoingRequest {
	/** 1-based count of the requests the node sent since the hook was installed or reset */
	n: number;
	method: string;
	/** the path without the API root, e.g. /projects/1001/mentions/recent/search */
	path: string;
	qs: Record<string, unknown>;
}

/**
 * Calls `before` right before each request the node sends (the credential's authenticate runs
 * once per request, just before it leaves), and waits for it: a test arms a simulator fault for
 * exactly the n-th request, with no race.
 */
export class RequestHook {
	count = 0;

	before: ((request: OutgoingRequest) => Promise<void> | void) | undefined;

	private spy: jest.SpyInstance | undefined;

	install(): void {
		const proto = SentiOneApi.prototype;
		const original = proto.authenticate;
		this.spy = jest.spyOn(proto, 'authenticate').mockImplementation(async function (
			this: SentiOneApi,
			credentials,
			options: IHttpRequestOptions,
		) {
			const authenticated = await original.call(this, credentials, options);
			const hook = current;
			if (hook) {
				hook.count++;
				const url = String(options.url ?? '');
				await hook.before?.({
					n: hook.count,
					method: String(options.method ?? 'GET'),
					path: url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/api\/public\/v2/, ''),
					qs: (options.qs ?? {}) as Record<string, unknown>,
				});
			}
			return authenticated;
		});
		// eslint-disable-next-line @typescript-eslint/no-this-alias -- the spy reads the hook in use
		current = this;
	}

	reset(before?: RequestHook['before']): void {
		this.count = 0;
		this.before = before;
	}

	uninstall(): void {
		this.spy?.mockRestore();
		if (current === this) current = undefined;
	}
}

let current: RequestHook | undefined;

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
	const sim = await startSim([
		'--now',
		new Date().toISOString(),
		'--clock',
		'running',
		'--projects',
		'1',
		'--mentions',
		'20',
		'--heartbeat-ms',
		'200',
	]);
	await adminOnce(sim, 'POST', '/limits', {
		mode: 'spec',
		hourly: { search: 100_000, live: 100_000 },
		monthlyCap: { basic: 100_000_000, enterprise: 100_000_000 },
	});
	return sim;
}
