/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: not shipped in the package */
/**
 * A real n8n (the pinned version of a tested line, installed once into a cache folder, run on that
 * line's Node.js) with this package installed the way a user's n8n has it:
 * `.n8n/nodes/node_modules/n8n-nodes-sentione`. Workflows and credentials go in through n8n's own
 * CLI (`import:*`, `execute`, `publish:workflow`) where the CLI is what a test proves, otherwise
 * through its REST API under `n8n start` (the calls the editor makes: create, run a workflow, read
 * its execution, activate; scripts/n8n/rest.js is the one REST client).
 *
 * - `createHost()`: an n8n of the test file's own (its user folder starts from a copy of a
 *   migrated database, made once per n8n version: `n8n start` or a CLI command then skips the
 *   migrations), for what needs its own: CLI commands, active triggers, restarts, a moved clock.
 * - `sharedN8n()`: one running n8n for every test file of a jest run that only needs its REST API
 *   (credentials, workflows and runs of its own): started by the first file that asks, stopped by
 *   test/setup/globalTeardown.js.
 *
 * The line is `$SENTIONE_N8N_LINE` (scripts/n8n/lines.js `LINES`): 2.x (n8n 2.41.1 on Node 24) when
 * unset, as in `npm test`; 1.x (n8n 1.123.81 on Node 22) for `npm run test:n8n1`. Where the two
 * lines' CLI or REST API differ, the host speaks each one's.
 */
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sleep } from '../wait';

interface Line {
	line: string;
	version: string;
	node: number;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const lines = require('../../../scripts/n8n/lines.js') as {
	target(line?: string): Line;
};
const install = require('../../../scripts/n8n/install.js') as {
	ensureN8n(t?: Line): { dir: string; bin: string; node: string; installed: boolean };
	installPackage(userFolder: string): string;
	newUserFolder(userFolder: string, t?: Line): string;
};
const n8nRun = require('../../../scripts/n8n/run.js') as {
	freePort(): Promise<number>;
	n8nEnv(userFolder: string, port: number, extra?: Record<string, string>): NodeJS.ProcessEnv;
	runN8n(
		args: string[],
		env: NodeJS.ProcessEnv,
		options?: { timeoutMs?: number; target?: Line },
	): Promise<{ code: number; stdout: string; stderr: string }>;
	startN8n(
		env: NodeJS.ProcessEnv,
		options?: { timeoutMs?: number; target?: Line; logFile?: string },
	): Promise<{ base: string; pid: number; stop(): Promise<void>; output(): string }>;
	parseExecutionData(data: unknown, target?: Line): unknown;
};
const restApi = require('../../../scripts/n8n/rest.js') as {
	signIn(base: string, owner: typeof OWNER, o?: { browserId?: string }): Promise<RestClient>;
	login(base: string, user: { email: string; password: string }): Promise<string>;
	client(base: string, cookie: string): RestClient;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** scripts/n8n/rest.js's client */
export interface RestClient {
	base: string;
	cookie: string;
	request<T = unknown>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: T }>;
	data<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	file<T = unknown>(path: string): Promise<{ status: number; json: T }>;
	activate(workflowId: string): Promise<{ status: number; json: unknown }>;
}

/** A tested n8n line: its n8n version and the Node.js major it runs on. */
export interface Target {
	line: string;
	version: string;
	node: number;
}

/** The line these tests run on ($SENTIONE_N8N_LINE, else 2.x). */
export const TARGET = lines.target();
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
	return install.ensureN8n(TARGET);
}

export const freePort = n8nRun.freePort;

/**
 * For an n8n on a lapsed clock (timeLapse.js, `factor` × faster): its database health check kept
 * in real time. The check is a real-time matter; its default ping (every 2 s, 5 s to answer) would
 * otherwise leave a loaded machine 1 s to answer at ×5, and n8n would take its database for lost.
 */
export function dbPingInRealTime(factor: number): Record<string, string> {
	return {
		DB_PING_INTERVAL_SECONDS: String(2 * factor),
		DB_PING_TIMEOUT_MS: String(5000 * factor),
	};
}

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

/**
 * Stops what a test file started, in the order given (n8n before the simulator it reads, the host
 * last); what never started is passed over.
 */
export async function stopAll(
	...started: Array<{ stop(): Promise<void> } | { dispose(): void } | undefined>
): Promise<void> {
	for (const it of started) {
		if (it === undefined) continue;
		if ('stop' in it) await it.stop();
		else it.dispose();
	}
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
	/** ISO 8601, on n8n's clock */
	startedAt: string;
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

/** How the editor starts a run: from a trigger (with its data), or up to one node ("Execute step", "Fetch test event"). */
export interface RunOptions {
	/** the trigger's data (a chat message …) */
	data?: unknown;
	/** run only up to this node (the node itself included) instead of from `triggerName` */
	only?: boolean;
	timeoutMs?: number;
}

/** n8n's REST API, signed in as the owner: what the editor does. */
export interface N8nSession {
	base: string;
	/** the session cookie (`n8n-auth=…`) */
	cookie: string;
	rest<T = unknown>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; json: T }>;
	/** a GET outside /rest with the session: the editor's `/types/nodes.json` … */
	file<T = unknown>(path: string): Promise<{ status: number; json: T }>;
	/** "Execute workflow" in the editor: starts a manual run from a trigger node; resolves with its execution once finished */
	run(workflowId: string, triggerName: string, options?: number | RunOptions): Promise<Execution>;
	execution(id: string): Promise<Execution>;
	/** the executions of a workflow, newest first */
	executions(workflowId: string): Promise<ExecutionSummary[]>;
	/** "Publish" in the editor (activates the workflow); resolves with the HTTP answer */
	activate(workflowId: string): Promise<{ status: number; json: unknown }>;
	/** "Publish" for each workflow in turn; throws, naming the workflow, on an answer other than 200 */
	publishAll(workflows: Array<{ id: string; name: string }>): Promise<void>;
	/**
	 * Creates credentials as the editor does (n8n chooses their ids); later `createWorkflows` calls
	 * point the workflows' credential references (by the ids asked for here) at them.
	 */
	createCredentials(credentials: CredentialJson[]): Promise<void>;
	/** Creates workflows as the editor does, with their own ids (n8n 2.x keeps an id it is given). */
	createWorkflows(workflows: Array<Record<string, unknown>>): Promise<void>;
}

export interface RunningN8n extends N8nSession {
	/** the `n8n start` process (its task runner is a child of it) */
	pid: number;
	stop(): Promise<void>;
	output(): string;
}

function writeJson(file: string, value: unknown): string {
	writeFileSync(file, JSON.stringify(value, null, 1));
	return file;
}

/** A user folder for a new host: a copy of the migrated template, this package installed. */
function newUserFolder(): string {
	const userFolder = install.newUserFolder(mkdtempSync(join(tmpdir(), 'sentione-e2e-')), TARGET);
	install.installPackage(userFolder);
	return userFolder;
}

export async function createHost(extraEnv: Record<string, string> = {}): Promise<Host> {
	const userFolder = newUserFolder();
	const port = await n8nRun.freePort();
	const brokerPort = await n8nRun.freePort();
	const env = n8nRun.n8nEnv(userFolder, port, {
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...extraEnv,
	});
	// CLI commands print their results through n8n's logger, at level info
	const cli = (args: string[], timeoutMs = 180_000) =>
		n8nRun.runN8n(args, { ...env, N8N_LOG_LEVEL: 'info' }, { timeoutMs, target: TARGET });
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
			const running = await n8nRun.startN8n({ ...env, ...extraEnv }, { target: TARGET });
			let client: RestClient;
			try {
				// the owner's session: set up on the first start, signed in on a restart
				client = await restApi.signIn(running.base, OWNER, { browserId: 'e2e' });
			} catch (error) {
				// a failed start leaves no n8n running
				await running.stop();
				throw error;
			}
			return {
				...session(client),
				pid: running.pid,
				output: running.output,
				stop: running.stop,
			};
		},
		dispose() {
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
}

/** The editor's calls on n8n's REST API, over a signed-in client. */
export function session(client: RestClient): N8nSession {
	const rest = client.request.bind(client) as N8nSession['rest'];
	/** the ids n8n gave the credentials created here, by the ids the workflows name */
	const credentialIds = new Map<string, string>();
	const execution = async (id: string): Promise<Execution> => {
		const r = await rest<{ data: Execution & { data: unknown } }>('GET', `/executions/${id}`);
		if (r.status !== 200)
			throw new Error(`GET /executions/${id} → ${r.status}: ${JSON.stringify(r.json)}`);
		return {
			...r.json.data,
			data: n8nRun.parseExecutionData(r.json.data.data, TARGET) as RunData,
		};
	};
	return {
		base: client.base,
		cookie: client.cookie,
		rest,
		file: (path) => client.file(path),
		execution,
		async run(workflowId, triggerName, options = {}) {
			const {
				data,
				only,
				timeoutMs = 120_000,
			} = typeof options === 'number' ? { timeoutMs: options } : options;
			// n8n 1.x's editor sends the whole workflow with the request; 2.x runs the saved one
			let workflowData: unknown;
			if (N8N_MAJOR < 2) workflowData = await client.data('GET', `/workflows/${workflowId}`);
			const started = await rest<{ data: { executionId?: string } }>(
				'POST',
				`/workflows/${workflowId}/run`,
				{
					...(workflowData ? { workflowData } : {}),
					...(only
						? { destinationNode: { nodeName: triggerName, mode: 'inclusive' } }
						: { triggerToStartFrom: { name: triggerName, ...(data ? { data } : {}) } }),
				},
			);
			const id = started.json?.data?.executionId;
			if (started.status !== 200 || !id)
				throw new Error(`run ${workflowId} → ${started.status}: ${JSON.stringify(started.json)}`);
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const r = await rest<{ data?: { status: string } }>('GET', `/executions/${id}`);
				const status = r.status === 200 ? r.json.data?.status : undefined;
				if (status && !['new', 'running', 'waiting'].includes(status)) return await execution(id);
				if (Date.now() > deadline)
					throw new Error(`execution ${id} still ${status} after ${timeoutMs} ms`);
				await sleep(250);
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
		activate: (workflowId) => client.activate(workflowId),
		async publishAll(workflows) {
			for (const w of workflows) {
				const published = await client.activate(w.id);
				if (published.status !== 200)
					throw new Error(
						`publishing ${w.name} → ${published.status}: ${JSON.stringify(published.json)}`,
					);
			}
		},
		async createCredentials(credentials) {
			for (const { id, name, type, data } of credentials) {
				const created = await client.data<{ id: string }>('POST', '/credentials', {
					name,
					type,
					data,
				});
				credentialIds.set(id, created.id);
			}
		},
		async createWorkflows(workflows) {
			for (const workflow of workflows) {
				const body = structuredClone(workflow) as {
					id?: string;
					nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }>;
				};
				for (const node of body.nodes)
					for (const credential of Object.values(node.credentials ?? {}))
						credential.id = credentialIds.get(credential.id) ?? credential.id;
				const created = await client.data<{ id: string }>('POST', '/workflows', body);
				if (body.id && created.id !== body.id)
					throw new Error(`n8n gave workflow ${body.id} the id ${created.id}`);
			}
		},
	};
}

// ---------------------------------------------------------------- one n8n for the whole run

/** What the n8n every test file shares runs as (test/setup/globalSetup.js makes its folder). */
interface SharedState {
	base: string;
	pid: number;
	userFolder: string;
	log: string;
}

let shared: Promise<N8nSession> | undefined;

/**
 * The n8n every test file of this jest run shares (one `n8n start` for all of them), signed in as
 * the owner. For tests that only need its REST API: each creates its own credentials (pointing at
 * its own simulator) and workflows, with ids of their own. The first file that asks starts it
 * (the others wait for it, across jest's workers); test/setup/globalTeardown.js stops it. Outside
 * such a run (no `$SENTIONE_SHARED_N8N`), the n8n is this process's own, stopped when it exits.
 */
export function sharedN8n(): Promise<N8nSession> {
	shared ??= startShared();
	return shared;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

async function startShared(): Promise<N8nSession> {
	ensureN8n();
	const dir = process.env.SENTIONE_SHARED_N8N ?? mkdtempSync(join(tmpdir(), 'sentione-shared-'));
	const own = process.env.SENTIONE_SHARED_N8N === undefined;
	mkdirSync(dir, { recursive: true });
	const stateFile = join(dir, `n8n-${TARGET.version}.json`);
	const lock = `${stateFile}.starting`;
	for (;;) {
		if (existsSync(stateFile)) {
			const state = JSON.parse(readFileSync(stateFile, 'utf8')) as SharedState;
			if (!alive(state.pid))
				throw new Error(`the shared n8n (pid ${state.pid}) is gone:\n${readLog(state.log)}`);
			const cookie = await restApi.login(state.base, OWNER);
			return session(restApi.client(state.base, cookie));
		}
		try {
			closeSync(openSync(lock, 'wx'));
			break;
		} catch {
			await sleep(500);
		}
	}
	try {
		const userFolder = newUserFolder();
		const port = await n8nRun.freePort();
		const env = n8nRun.n8nEnv(userFolder, port, {
			N8N_RUNNERS_BROKER_PORT: String(await n8nRun.freePort()),
		});
		const log = join(dir, `n8n-${TARGET.version}.log`);
		const running = await n8nRun.startN8n(env, { target: TARGET, logFile: log });
		const client = await restApi.signIn(running.base, OWNER);
		const state: SharedState = { base: running.base, pid: running.pid, userFolder, log };
		writeFileSync(stateFile, JSON.stringify(state));
		const jest = Number(process.env.SENTIONE_SHARED_N8N_JEST);
		if (!own && jest > 0) {
			// a watchdog: once jest's process is gone (interrupted before its teardown), it stops
			// this n8n and removes its folders
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { spawn } = require('node:child_process') as typeof import('node:child_process');
			spawn(
				'sh',
				[
					'-c',
					'while kill -0 "$0" 2>/dev/null && kill -0 "$1" 2>/dev/null; do sleep 5; done; kill -0 "$0" 2>/dev/null && exit 0; kill -TERM -"$1" 2>/dev/null; sleep 10; kill -KILL -"$1" 2>/dev/null; rm -rf "$2" "$3"',
					String(jest),
					String(running.pid),
					userFolder,
					dir,
				],
				{ detached: true, stdio: 'ignore' },
			).unref();
		}
		if (own)
			process.on('exit', () => {
				try {
					process.kill(-running.pid, 'SIGKILL');
				} catch {
					// gone already
				}
				rmSync(dir, { recursive: true, force: true });
				rmSync(userFolder, { recursive: true, force: true });
			});
		return session(client);
	} finally {
		rmSync(lock, { force: true });
	}
}

const readLog = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').slice(-3000) : '');

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
