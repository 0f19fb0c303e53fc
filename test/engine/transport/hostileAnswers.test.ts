/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * A hostile or broken server in place of the API: answers that are not JSON, cut short, far too
 * large, never sent, stalled after the headers or broken mid-body, and nothing listening at all.
 * Each must end in a clear node error within a bounded time — never a hang, never a crash.
 */
import { createServer } from 'node:net';

import { route } from '../../../nodes/SentiOne/shared/contract';
import type { ApiRequest, TransportOptions } from '../../../nodes/SentiOne/shared/transport';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	admin,
	type Sim,
	requestLog,
	script,
	useRealTimeSim,
	type Loose,
} from '../../support/simulator';
import { expectNoKeysIn, failureOf, inNode, valueOf } from '../../support/inNode';
import { waitFor } from '../../support/wait';
import { credentials } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';

let sim: Sim;
useRealTimeSim(['--mentions', '400'], (started) => (sim = started));

const getProjects: ApiRequest = route('listProjects');
/** A plain request() to an export endpoint: the body is a long JSON-lines answer the stream faults apply to. */
const exportAsRequest: ApiRequest = { ...route('historicalExport', 1001), body: {} };
const NO_RETRY: TransportOptions = { retry: { transientRetries: 0 } };

function failing(request: ApiRequest, options: TransportOptions = NO_RETRY, baseUrl?: string) {
	return failureOf(credentials(sim, ENTERPRISE, baseUrl), async function () {
		return await new SentiOneTransport(this, options).request(request);
	});
}

const statuses = async () => (await requestLog(sim)).map((e) => e.status);
const openExportStreams = async () =>
	(await admin<Loose>(sim, 'GET', '/stats')).openStreams.export as number;

describe('answers that are not the documented JSON', () => {
	test('200 with plain text: unusable, not retried', async () => {
		await script(sim, '^/projects$', { kind: 'text', status: 200, body: 'OK' }, 5);
		const error = await failing(getProjects, {
			retry: { transientRetries: 2, transientBackoffMs: 10 },
		});
		expect(error.constructorName).toBe('NodeApiError');
		expect(error.message).toBe(
			"SentiOne's answer could not be used: status 200 came with a body that is not JSON",
		);
		expect(error.description).toBe(
			'GET /projects. The answer was not the JSON the API documents; nothing from it was used.',
		);
		expect(await statuses()).toEqual([200]);
	});

	test('200 with an HTML page (a captive portal, a proxy login): unusable', async () => {
		await script(sim, '^/projects$', {
			kind: 'html',
			status: 200,
			body: '<!DOCTYPE html><html><body>Please log in</body></html>',
		});
		const error = await failing(getProjects);
		expect(error.message).toBe(
			"SentiOne's answer could not be used: status 200 came with a body that is not JSON",
		);
	});

	test('an HTML error page (503 from a proxy): mapped as a server error, the page described in a short snippet', async () => {
		const page = `<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body>${'<p>Try later.</p>'.repeat(100)}</body></html>`;
		await script(sim, '^/projects$', { kind: 'html', status: 503, body: page });
		const error = await failing(getProjects);
		expect(error.message).toMatch(
			/^SentiOne had a server error \(503\): an HTML page \("<!DOCTYPE html><html><head><title>Service Unavailable/,
		);
		expect(error.message).toMatch(/…"\)$/);
		expect(error.message.length).toBeLessThan(260);
	});

	test('truncated JSON on a read: retried like a broken connection, then unusable "(truncated?)"', async () => {
		await script(sim, '^/projects$', { kind: 'truncated-json', status: 200 }, 5);
		const error = await failing(getProjects, {
			retry: { transientRetries: 2, transientBackoffMs: 10 },
		});
		expect(error.message).toBe(
			"SentiOne's answer could not be used: status 200 came with a body that is not JSON (truncated?)",
		);
		expect(await statuses()).toEqual([200, 200, 200]);
	});

	test('truncated JSON once, then the real answer: the read succeeds', async () => {
		await script(sim, '^/projects$', { kind: 'truncated-json', status: 200 });
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const r = await new SentiOneTransport(this, { retry: { transientBackoffMs: 10 } }).request<{
					data: unknown[];
				}>(getProjects);
				return { attempts: r.attempts, projects: r.body.data.length };
			}),
		);
		expect(result).toEqual({ attempts: 2, projects: 3 });
	});

	test('valid JSON that is not an object (a bare number): unusable', async () => {
		await script(sim, '^/projects$', { kind: 'json', status: 200, body: 42 }, 5);
		const error = await failing(getProjects);
		expect(error.message).toMatch(
			/^SentiOne's answer could not be used: status 200 came with JSON that is not an object/,
		);
	});

	test('an empty 200 body reads as {}', async () => {
		await script(sim, '^/projects$', { kind: 'text', status: 200, body: '' });
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				return (await new SentiOneTransport(this).request(getProjects)).body;
			}),
		);
		expect(result).toEqual({});
	});

	test('a huge answer (52 MB) is cut at maxBodyBytes: a clear error, fast, connection dropped', async () => {
		await script(sim, '^/projects$', { kind: 'huge', status: 200 });
		const error = await failing(getProjects, { maxBodyBytes: 1_000_000 });
		expect(error.message).toBe(
			"SentiOne's answer could not be used: the answer is larger than 1 MB, far beyond any documented response",
		);
		expect(error.ms).toBeLessThan(5000);
		expect(await statuses()).toHaveLength(1);
	});

	// Regression test (found by this suite, fixed in shared/transport/).
	test('a small maxBodyBytes is stated truthfully (not "larger than 0 MB")', async () => {
		await script(sim, '^/projects$', { kind: 'huge', status: 200 });
		const error = await failing(getProjects, { maxBodyBytes: 100_000 });
		expect(error.message).toBe(
			"SentiOne's answer could not be used: the answer is larger than 100 kB, far beyond any documented response",
		);
	});
});

describe('servers that never finish', () => {
	test('no answer at all (hang): bounded by timeoutMs, a clear network error', async () => {
		await script(sim, '^/projects$', { kind: 'hang' }, 5);
		const error = await failing(getProjects, { timeoutMs: 1500, retry: { transientRetries: 0 } });
		expect(error.constructorName).toBe('NodeApiError');
		expect(error.message).toBe('Could not reach SentiOne: the server did not answer in time.');
		expect(error.description).toBe(
			"GET /projects did not complete. Check the credential's Base URL and the network between n8n and SentiOne.",
		);
		expect(error.ms).toBeGreaterThanOrEqual(1400);
		expect(error.ms).toBeLessThan(5000);
		expect(await statuses()).toEqual([null]);
	});

	test('hang on a read with one retry: two bounded attempts', async () => {
		await script(sim, '^/projects$', { kind: 'hang' }, 5);
		const error = await failing(getProjects, {
			timeoutMs: 700,
			retry: { transientRetries: 1, transientBackoffMs: 10 },
		});
		expect(error.message).toBe(
			'Could not reach SentiOne: the server did not answer in time (after 2 attempts).',
		);
		expect(error.ms).toBeGreaterThanOrEqual(1300);
		expect(error.ms).toBeLessThan(5000);
		expect(await statuses()).toEqual([null, null]);
	});

	test('a body that stalls after the headers: the stall limit ends it with a clear error', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 3 } });
		// a stall limit of 3 s: bytes a loaded machine delivers later than half the limit read as
		// bytes still trickling in (not retried), which is not this case
		const error = await failing(exportAsRequest, {
			idleTimeoutMs: 3000,
			retry: { transientRetries: 0 },
		});
		expect(error.message).toMatch(
			/^SentiOne's answer could not be used: the server stopped sending the answer: it was not whole within 3 s, the stall limit \(\d+ kB had arrived, then nothing for [\d.]+ s\)$/,
		);
		expect(error.ms).toBeGreaterThanOrEqual(2900);
		expect(error.ms).toBeLessThan(8000);
		expect(await statuses()).toEqual([200]);
	});

	test('a read that went silent part-way is retried (each attempt bounded by the stall limit)', async () => {
		await admin(sim, 'POST', '/limits', { concurrency: { export: 10 } });
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 3 } });
		const error = await failing(exportAsRequest, {
			idleTimeoutMs: 2000,
			retry: { transientRetries: 1, transientBackoffMs: 10 },
		});
		expect(error.message).toMatch(/the server stopped sending the answer/);
		expect(error.ms).toBeLessThan(10_000);
		expect(await statuses()).toEqual([200, 200]);
	});

	// Regression test (found by this suite, fixed in shared/transport/).
	test('after a stalled answer the connection is released', async () => {
		await admin(sim, 'POST', '/faults', { stream: { stallAfterEvents: 3 } });
		await failing(exportAsRequest, { idleTimeoutMs: 600, retry: { transientRetries: 0 } });
		await waitFor(async () => (await openExportStreams()) === 0, 1500);
	});

	test('a body that breaks off mid-answer: a clear error', async () => {
		await admin(sim, 'POST', '/faults', { stream: { dropAfterBytes: 3000 } });
		const error = await failing(exportAsRequest);
		expect(error.message).toBe(
			"SentiOne's answer could not be used: the connection broke while the answer was being received",
		);
		expect(error.ms).toBeLessThan(5000);
	});

	test('nothing listening at the Base URL: retried for a read, then a clear network error', async () => {
		const port = await new Promise<number>((resolve) => {
			const server = createServer();
			server.listen(0, '127.0.0.1', () => {
				const address = server.address() as { port: number };
				server.close(() => resolve(address.port));
			});
		});
		const outcome = await inNode(
			credentials(sim, ENTERPRISE, `http://127.0.0.1:${port}`),
			async function () {
				const t = new SentiOneTransport(this, {
					retry: { transientRetries: 2, transientBackoffMs: 10 },
				});
				try {
					await t.request(getProjects);
					return { sent: t.requestsSent, error: undefined };
				} catch (error) {
					return {
						sent: t.requestsSent,
						error: (error as Error).message,
						name: (error as Error).constructor.name,
					};
				}
			},
		);
		const result = valueOf(outcome);
		expect(result.sent).toBe(3);
		expect(result.name).toBe('NodeApiError');
		expect(result.error).toBe(
			'Could not reach SentiOne: the connection was refused — nothing listens at the Base URL (after 3 attempts).',
		);
		expect(outcome.ms).toBeLessThan(3000);
	});
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(10);
});
