/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * A real n8n (the pinned version, installed once into a cache folder) with this package installed
 * the way a user's n8n has it: `.n8n/nodes/node_modules/n8n-nodes-sentione`. Workflows and
 * credentials go in through n8n's own CLI (`import:*`, `execute`, `publish:workflow`) or its REST
 * API under `n8n start`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const n8nHost = require('../../scripts/n8n-host.js') as {
	N8N_VERSION: string;
	ensureN8n(): { dir: string; bin: string; installed: boolean };
	installPackage(userFolder: string): string;
	freePort(): Promise<number>;
	n8nEnv(userFolder: string, port: number, extra?: Record<string, string>): NodeJS.ProcessEnv;
	runN8n(args: string[], env: NodeJS.ProcessEnv, options?: { timeoutMs?: number }): Promise<{ code: number; stdout: string; stderr: string }>;
	startN8n(env: NodeJS.ProcessEnv, options?: { timeoutMs?: number }): Promise<{ base: string; stop(): Promise<void>; output(): string }>;
	setupOwner(base: string, owner: Record<string, string>): Promise<string | null>;
};

export const N8N_VERSION = n8nHost.N8N_VERSION;
export const PKG = 'n8n-nodes-sentione';
export const OWNER = { email: 'e2e@example.com', firstName: 'E2E', lastName: 'Tester', password: 'E2e-pass-12345' };

/** Install (first run: minutes), so tests call this from a beforeAll with a long timeout. */
export function ensureN8n(): void {
	n8nHost.ensureN8n();
}

export interface Host {
	userFolder: string;
	env: NodeJS.ProcessEnv;
	port: number;
	cli(args: string[], timeoutMs?: number): Promise<{ code: number; stdout: string; stderr: string }>;
	importCredentials(credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>): Promise<void>;
	importWorkflow(workflow: Record<string, unknown>): Promise<void>;
	/** `n8n execute --id --rawOutput`: the run data, or the error text when it failed */
	execute(id: string): Promise<ExecuteResult>;
	/** `n8n start` + owner setup; returns a REST client carrying the session cookie */
	start(): Promise<RunningN8n>;
	dispose(): void;
}

export interface ExecuteResult {
	code: number;
	/** parsed run data (IRun JSON) when the CLI printed it */
	run?: {
		data: {
			resultData: {
				runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: { message: string; description?: string } }>>;
				error?: { message: string; description?: string; node?: { name: string } };
			};
		};
		status?: string;
	};
	stdout: string;
	stderr: string;
}

export interface RunningN8n {
	base: string;
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
	stop(): Promise<void>;
	output(): string;
}

export async function createHost(extraEnv: Record<string, string> = {}): Promise<Host> {
	const userFolder = mkdtempSync(join(tmpdir(), 'sentione-e2e-'));
	n8nHost.installPackage(userFolder);
	const port = await n8nHost.freePort();
	const brokerPort = await n8nHost.freePort();
	const env = n8nHost.n8nEnv(userFolder, port, { N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...extraEnv });
	const cli = (args: string[], timeoutMs = 180_000) => n8nHost.runN8n(args, env, { timeoutMs });
	const writeTemp = (name: string, value: unknown) => {
		const file = join(userFolder, name);
		writeFileSync(file, JSON.stringify(value));
		return file;
	};
	return {
		userFolder,
		env,
		port,
		cli,
		async importCredentials(credentials) {
			const file = writeTemp(`credentials-${Date.now()}.json`, credentials);
			const r = await cli(['import:credentials', `--input=${file}`]);
			if (r.code !== 0) throw new Error(`import:credentials failed: ${r.stderr}\n${r.stdout}`);
		},
		async importWorkflow(workflow) {
			const file = writeTemp(`workflow-${Date.now()}.json`, workflow);
			const r = await cli(['import:workflow', `--input=${file}`]);
			if (r.code !== 0) throw new Error(`import:workflow failed: ${r.stderr}\n${r.stdout}`);
		},
		async execute(id) {
			const r = await cli(['execute', `--id=${id}`, '--rawOutput']);
			const start = r.stdout.indexOf('{');
			let run: ExecuteResult['run'];
			if (start >= 0) {
				try {
					run = JSON.parse(r.stdout.slice(start));
				} catch {
					run = undefined;
				}
			}
			return { code: r.code ?? -1, run, stdout: r.stdout, stderr: r.stderr };
		},
		async start() {
			const running = await n8nHost.startN8n(env);
			const cookieHeader = await n8nHost.setupOwner(running.base, OWNER);
			const cookie = (cookieHeader ?? '').split(';')[0];
			return {
				base: running.base,
				output: running.output,
				stop: running.stop,
				async rest<T>(method: string, path: string, body?: unknown) {
					const res = await fetch(`${running.base}/rest${path}`, {
						method,
						headers: { 'content-type': 'application/json', cookie, 'browser-id': 'e2e' },
						body: body === undefined ? undefined : JSON.stringify(body),
					});
					const text = await res.text();
					let json: unknown = text;
					try {
						json = JSON.parse(text);
					} catch {
						json = text;
					}
					return { status: res.status, json: json as T };
				},
			};
		},
		dispose() {
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/** Output items of a node in a CLI run. */
export function nodeOutput(result: ExecuteResult, nodeName: string): Array<Record<string, unknown>> {
	const runs = result.run?.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) throw new Error(`node ${nodeName} did not run:\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
	return (runs[runs.length - 1].data?.main?.[0] ?? []).map((item) => item.json);
}
