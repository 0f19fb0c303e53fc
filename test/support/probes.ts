/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Probes into what the node does: a hook that runs test code right before the node sends its n-th
 * request (to arm a simulator fault for exactly that request), the sockets the process holds, and
 * the crashes (unhandled rejections, uncaught exceptions) a file caused.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { SentiOneApi } from '../../credentials/SentiOneApi.credentials';
import { RESULTS_DIR } from './paths';

export { RESULTS_DIR };

/**
 * Every unhandled rejection and uncaught exception while the file runs, collected instead of
 * ending the worker: a suite of hostile servers asserts the list stays empty. Call once at the top
 * of a test file; it stops watching after the file.
 */
export function watchCrashes(): unknown[] {
	const crashes: unknown[] = [];
	const onCrash = (error: unknown) => crashes.push(error);
	beforeAll(() => {
		process.on('unhandledRejection', onCrash);
		process.on('uncaughtException', onCrash);
	});
	afterAll(() => {
		process.off('unhandledRejection', onCrash);
		process.off('uncaughtException', onCrash);
	});
	return crashes;
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
