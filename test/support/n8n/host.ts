/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: not shipped in the package */
/**
 * A real n8n (the pinned version of a tested line, installed once into a cache folder, run on that
 * line's Node.js) with this package installed the way a user's n8n has it:
 * `.n8n/nodes/node_modules/n8n-nodes-sentione`. Workflows and credentials go in through n8n's own
 * CLI (`import:*`, `execute`, `publish:workflow`) or its REST API under `n8n start` (the calls the
 * editor makes: run a workflow, read its execution, activate).
 *
 * The line is `$SENTIONE_N8N_LINE` (scripts/n8n-host.js `LINES`): 2.x (n8n 2.41.1 on Node 24) when
 * unset, as in `npm test`; 1.x (n8n 1.123.81 on Node 22) for `npm run test:n8n1`. Where the two
 * lines' CLI or REST API differ, the host speaks each one's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const n8nHost = require('../../../scripts/n8n-host.js') as {
	target(line?: string): Target;
	ensureN8n(target?: Target): { dir: string; bin: string; node: string; installed: boolean };
	installPackage(userFolder: string): string;
	freePort(): Promise<number>;
	n8nEnv(userFolder: string, port: number, extra?: Record<string, string>): NodeJS.ProcessEnv;
	runN8n(
		args: string[],
		env: NodeJS.ProcessEnv,
		options?: { timeoutMs?: number; target?: Target },
	): Promise<{ code: number; stdout: string; stderr: string }>;
	startN8n(
		env: NodeJS.ProcessEnv,
		options?: { timeoutMs?: number; target?: Target },
	): Promise<{ base: string; pid: number; stop(): Promise<void>; output(): string }>;
	setupOwner(base: string, owner: Record<string, string>): Promise<string | null>;
	login(base: string, user: { email: string; password: string }): Promise<string | null>;
	parseExecutionData(data: unknown, target?: Target): unknown;
};

/** A tested n8n line: its n8n version and the Node.js major it runs on. */
export interface Target {
	line: string;
	version: string;
	node: number;
}

/** The line these tests run on ($SENTIONE_N8N_LINE, else 2.x). */
export const TARGET = n8nHost.target();
export const N8N_VERSION = TARGET.version;
/** n8n's major version: 1 or 2 */
export const N8N_MAJOR = Number(TARGET.version.split('.')[0]);
export const PKG = 'n8n-nodes-sentione';
export const OWNER = {
	email: 'e2e@example.com',
	firstName: 'E2E',
	lastName: 'Tester',
	password: 'E2e-pass-12345',
};

/** Install (first run: minutes), so tests call this from a beforeAll with a long timeout. */
export function ensureN8n(): { node: string } {
	return n8nHost.ensureN8n(TARGET);
}

export const freePort = n8nHost.freePort;

export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface Host {
	userFolder: string;
	env: NodeJS.ProcessEnv;
	port: number;
	cli(
		args: string[],
		timeoutMs?: number,
	): Promise<{ code: number; stdout: string; stderr: string }>;
	importCredentials(credentials: CredentialJson[]): Promise<void>;
	importWorkflow(workflow: Record<string, unknown>): Promise<void>;
	/** several workflows with one CLI call (`import:workflow --separate`) */
	importWorkflows(workflows: Array<Record<string, unknown>>): Promise<void>;
	/** `n8n publish:workflow --id`: the workflow is active the next time n8n starts */
	publish(id: string): Promise<void>;
	/** `n8n execute --id --rawOutput`: the run data, or the error text when it failed */
	execute(id: string): Promise<ExecuteResult>;
	/**
	 * `n8n start` + owner setup (or, when the owner exists, a login: a restart); returns a REST
	 * client carrying the session cookie. `extraEnv` is added to this start's environment only.
	 */
	start(extraEnv?: Record<string, string>): Promise<RunningN8n>;
	dispose(): void;
}

export interface NodeRun {
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
	error?: NodeErrorJson;
	executionStatus?: string;
}

export interface NodeErrorJson {
	message: string;
	description?: string | null;
	name?: string;
	stack?: string;
	httpCode?: string | null;
	node?: { name: string; type: string };
	[key: string]: unknown;
}

export interface RunData {
	resultData: {
		runData: Record<string, NodeRun[]>;
		error?: NodeErrorJson;
		lastNodeExecuted?: string;
	};
}

export interface ExecuteResult {
	code: number;
	/** parsed run data (IRun JSON) when the CLI printed it */
	run?: { data: RunData; status?: string };
	stdout: string;
	stderr: string;
}

/** An execution as the editor reads it (`GET /rest/executions/:id`), its data parsed. */
export interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	data: RunData;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

export interface RunningN8n {
	base: string;
	/** the `n8n start` process (its task runner is a child of it) */
	pid: number;
	rest<T = unknown>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: T }>;
	/** "Execute workflow" in the editor: starts a manual run from a trigger node; resolves with its execution once finished */
	run(workflowId: string, triggerName: string, timeoutMs?: number): Promise<Execution>;
	execution(id: string): Promise<Execution>;
	/** the executions of a workflow, newest first */
	executions(workflowId: string): Promise<ExecutionSummary[]>;
	/** "Publish" in the editor (activates the workflow); resolves with the HTTP answer */
	activate(workflowId: string): Promise<{ status: number; json: unknown }>;
	stop(): Promise<void>;
	output(): string;
}

function writeJson(file: string, value: unknown): string {
	writeFileSync(file, JSON.stringify(value, null, 1));
	return file;
}

export async function createHost(extraEnv: Record<string, string> = {}): Promise<Host> {
	const userFolder = mkdtempSync(join(tmpdir(), 'sentione-e2e-'));
	n8nHost.installPackage(userFolder);
	const port = await n8nHost.freePort();
	const brokerPort = await n8nHost.freePort();
	const env = n8nHost.n8nEnv(userFolder, port, {
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...extraEnv,
	});
	// CLI commands print their results through n8n's logger, at level info
	const cli = (args: string[], timeoutMs = 180_000) =>
		n8nHost.runN8n(args, { ...env, N8N_LOG_LEVEL: 'info' }, { timeoutMs, target: TARGET });
	let files = 0;
	const tempPath = (name: string) => join(userFolder, `${++files}-${name}`);
	const importWorkflows = async (workflows: Array<Record<string, unknown>>) => {
		const dir = tempPath('workflows');
		mkdirSync(dir);
		workflows.forEach((w, i) => writeJson(join(dir, `${i}.json`), w));
		const r = await cli(['import:workflow', '--separate', `--input=${dir}`]);
		if (r.code !== 0) throw new Error(`import:workflow failed: ${r.stderr}\n${r.stdout}`);
	};
	return {
		userFolder,
		env,
		port,
		cli,
		async importCredentials(credentials) {
			const r = await cli([
				'import:credentials',
				`--input=${writeJson(tempPath('credentials.json'), credentials)}`,
			]);
			if (r.code !== 0) throw new Error(`import:credentials failed: ${r.stderr}\n${r.stdout}`);
		},
		async importWorkflow(workflow) {
			await importWorkflows([workflow]);
		},
		importWorkflows,
		async publish(id) {
			// n8n 1.x has no publish:workflow; its update:workflow --active=true does the same
			const args =
				N8N_MAJOR >= 2
					? ['publish:workflow', `--id=${id}`]
					: ['update:workflow', `--id=${id}`, '--active=true'];
			const r = await cli(args);
			if (r.code !== 0) throw new Error(`${args[0]} failed: ${r.stderr}\n${r.stdout}`);
		},
		async execute(id) {
			const r = await cli(['execute', `--id=${id}`, '--rawOutput']);
			// the run is a pretty-printed JSON object: from a line "{" to the next line "}"
			let run: ExecuteResult['run'];
			for (const start of r.stdout.matchAll(/^\{$/gm)) {
				const from = start.index ?? 0;
				const end = r.stdout.slice(from).search(/^\}$/m);
				if (end < 0) break;
				try {
					const parsed = JSON.parse(r.stdout.slice(from, from + end + 1));
					if (parsed?.data?.resultData) {
						run = parsed;
						break;
					}
				} catch {
					// a log line that only looked like the start of the run
				}
			}
			return { code: r.code ?? -1, run, stdout: r.stdout, stderr: r.stderr };
		},
		async start(extraEnv = {}) {
			const running = await n8nHost.startN8n({ ...env, ...extraEnv }, { target: TARGET });
			let cookieHeader: string | null = null;
			let ownerSetUp = false;
			try {
				try {
					cookieHeader = await n8nHost.setupOwner(running.base, OWNER);
				} catch (error) {
					// the owner exists: this is a restart of an instance set up before
					if (!/owner setup failed: 400/.test((error as Error).message)) throw error;
					cookieHeader = await n8nHost.login(running.base, OWNER);
				}
				ownerSetUp = true;
			} finally {
				// a failed start leaves no n8n running
				if (!ownerSetUp) await running.stop();
			}
			const cookie = (cookieHeader ?? '').split(';')[0];
			const rest = async <T>(method: string, path: string, body?: unknown) => {
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
			};
			const execution = async (id: string): Promise<Execution> => {
				const r = await rest<{ data: Execution & { data: unknown } }>('GET', `/executions/${id}`);
				if (r.status !== 200)
					throw new Error(`GET /executions/${id} → ${r.status}: ${JSON.stringify(r.json)}`);
				return {
					...r.json.data,
					data: n8nHost.parseExecutionData(r.json.data.data, TARGET) as RunData,
				};
			};
			return {
				base: running.base,
				pid: running.pid,
				output: running.output,
				stop: running.stop,
				rest,
				execution,
				async run(workflowId, triggerName, timeoutMs = 120_000) {
					// n8n 1.x's editor sends the whole workflow with the request; 2.x runs the saved one
					let workflowData: unknown;
					if (N8N_MAJOR < 2) {
						const wf = await rest<{ data: unknown }>('GET', `/workflows/${workflowId}`);
						if (wf.status !== 200) throw new Error(`GET /workflows/${workflowId} → ${wf.status}`);
						workflowData = wf.json.data;
					}
					const started = await rest<{ data: { executionId?: string } }>(
						'POST',
						`/workflows/${workflowId}/run`,
						{
							...(workflowData ? { workflowData } : {}),
							triggerToStartFrom: { name: triggerName },
						},
					);
					const id = started.json?.data?.executionId;
					if (started.status !== 200 || !id)
						throw new Error(
							`run ${workflowId} → ${started.status}: ${JSON.stringify(started.json)}`,
						);
					const deadline = Date.now() + timeoutMs;
					for (;;) {
						const r = await rest<{ data?: { status: string } }>('GET', `/executions/${id}`);
						const status = r.status === 200 ? r.json.data?.status : undefined;
						if (status && !['new', 'running', 'waiting'].includes(status))
							return await execution(id);
						if (Date.now() > deadline)
							throw new Error(`execution ${id} still ${status} after ${timeoutMs} ms`);
						await new Promise((resolve) => setTimeout(resolve, 250));
					}
				},
				async executions(workflowId) {
					const filter = encodeURIComponent(JSON.stringify({ workflowId }));
					const r = await rest<{ data: { results: ExecutionSummary[] } }>(
						'GET',
						`/executions?filter=${filter}&limit=100`,
					);
					if (r.status !== 200)
						throw new Error(`GET /executions → ${r.status}: ${JSON.stringify(r.json)}`);
					return r.json.data.results;
				},
				async activate(workflowId) {
					const wf = await rest<{ data: { versionId: string } }>('GET', `/workflows/${workflowId}`);
					if (wf.status !== 200) throw new Error(`GET /workflows/${workflowId} → ${wf.status}`);
					return await rest('POST', `/workflows/${workflowId}/activate`, {
						versionId: wf.json.data.versionId,
					});
				},
			};
		},
		dispose() {
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/** Output items of a node in a run: a CLI run (`execute`) or an execution read over REST. */
export function nodeOutput(
	result: ExecuteResult | Execution,
	nodeName: string,
): Array<Record<string, unknown>> {
	const data: RunData | undefined = 'stdout' in result ? result.run?.data : result.data;
	const runs = data?.resultData.runData[nodeName];
	if (!runs || runs.length === 0) {
		const detail =
			'stdout' in result
				? `${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`
				: JSON.stringify(data?.resultData.error);
		throw new Error(`node ${nodeName} did not run:\n${detail}`);
	}
	return (runs[runs.length - 1].data?.main?.[0] ?? []).map((item) => item.json);
}

/** A stack trace ("    at fn (file:line)") inside a text meant for the user. */
export const STACK_FRAME = /\n\s+at \S+.*\(?\S+:\d+:\d+\)?/;
