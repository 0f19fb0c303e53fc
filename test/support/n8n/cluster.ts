/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code: not shipped in the package */
/**
 * n8n in queue mode on one machine, the way teams run it at scale: a private Redis (the queue) and
 * PostgreSQL (the state) on loopback ports, one `n8n start` (main: the UI, the triggers, the poll
 * checks and the live streams) and `n8n worker` processes (the executions). Every instance has
 * its own user folder with this package installed as a community package, the same encryption
 * key, its own task-runner broker port; workers have a health server. Built on
 * ./queueBackends.js (Redis, PostgreSQL, `n8n worker`) and ./host.ts (CLI imports, the REST client).
 *
 * Also: which instance ran which execution (main's "Enqueued execution N", a worker's "Worker
 * started execution N", Postgres' execution_entity) and the resident memory of every process.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createHost, type Host, type RunningN8n } from './host';

interface Started {
	base: string;
	pid: number;
	stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<void>;
	output(): string;
}

interface Backend {
	host: string;
	port: number;
	pid?: number;
	stop(): Promise<void>;
	/** synchronous, for a process 'exit' handler */
	stopSync(): void;
	/** what the process logged (Redis) */
	output?(): string;
}

interface Postgres extends Backend {
	database: string;
	user: string;
	password: string;
	query(sql: string): string[][];
	postmasterPid(): number | undefined;
	log(): string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../../scripts/n8n/run.js') as { freePort(): Promise<number> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const backends = require('./queueBackends.js') as {
	ensureQueueBackends(): { pgBin: string; installed: string[]; seconds: number };
	startRedis(options?: { port?: number }): Promise<Backend & { output(): string }>;
	startPostgres(options?: {
		port?: number;
		database?: string;
		user?: string;
		password?: string;
	}): Promise<Postgres>;
	queueEnv(o: {
		redis: Backend;
		postgres: Postgres;
		encryptionKey: string;
	}): Record<string, string>;
	workerEnv(healthPort: number): Record<string, string>;
	startWorker(
		env: NodeJS.ProcessEnv,
		options?: { concurrency?: number; timeoutMs?: number },
	): Promise<Started>;
};

export const SHIFTED_CLOCK = join(__dirname, 'shiftedClock.js');

/** An n8n process that can be stopped and started again; its log is kept across restarts. */
export interface Instance {
	name: string;
	host: Host;
	/** the current process, if running */
	pid(): number | undefined;
	running(): boolean;
	/** everything every process of this instance logged, oldest first */
	log(): string;
	stop(options?: { signal?: NodeJS.Signals; graceMs?: number }): Promise<{ seconds: number }>;
}

export interface Main extends Instance {
	n8n(): RunningN8n;
	start(extraEnv?: Record<string, string>): Promise<{ seconds: number }>;
}

export interface Worker extends Instance {
	concurrency: number;
	start(): Promise<{ seconds: number }>;
}

export interface Cluster {
	redis: Backend & { output(): string };
	postgres: Postgres;
	/** apt-get's work at setup (empty when both were installed) */
	installed: { packages: string[]; seconds: number };
	main: Main;
	workers: Worker[];
	/** a worker more (not started) */
	addWorker(name: string): Promise<Worker>;
	dispose(): Promise<void>;
}

const since = (t: number) => Math.round((Date.now() - t) / 100) / 10;

function keepLogs(): { add(text: string): void; all(current?: () => string): string } {
	const done: string[] = [];
	return {
		add: (text) => done.push(text),
		all: (current) => [...done, current?.() ?? ''].join(''),
	};
}

/**
 * Redis, Postgres and main's and the workers' user folders, each with the package installed;
 * nothing of n8n runs yet (import workflows through `main.host`, then `main.start()`).
 */
export async function createCluster(o: {
	workers: number;
	concurrency: number;
	logLevel?: string;
}): Promise<Cluster> {
	const setup = backends.ensureQueueBackends();
	const cleanups: Array<() => Promise<void>> = [];
	// When the test process ends without afterAll (a crash, a timeout), nothing may stay behind:
	// n8n runs in process groups of its own and Postgres as a daemon, so they would.
	const emergency: Array<() => void> = [];
	const onExit = () => {
		for (const stop of emergency.splice(0).reverse()) {
			try {
				stop();
			} catch {
				// best effort
			}
		}
	};
	process.on('exit', onExit);
	const killGroup = (pid: number | undefined) => {
		if (pid) process.kill(-pid, 'SIGKILL');
	};
	try {
		const redis = await backends.startRedis();
		cleanups.push(() => redis.stop());
		emergency.push(() => redis.stopSync());
		const postgres = await backends.startPostgres();
		cleanups.push(() => postgres.stop());
		emergency.push(() => postgres.stopSync());
		const encryptionKey = randomBytes(24).toString('hex');
		const shared = {
			...backends.queueEnv({ redis, postgres, encryptionKey }),
			N8N_LOG_LEVEL: o.logLevel ?? 'info',
		};

		const mainHost = await createHost(shared);
		cleanups.push(async () => mainHost.dispose());
		const mainLogs = keepLogs();
		let mainRun: RunningN8n | undefined;
		const main: Main = {
			name: 'main',
			host: mainHost,
			pid: () => mainRun?.pid,
			running: () => mainRun !== undefined,
			log: () => mainLogs.all(mainRun?.output),
			n8n: () => {
				if (!mainRun) throw new Error('main is not running');
				return mainRun;
			},
			async start(extraEnv = {}) {
				const t = Date.now();
				mainRun = await mainHost.start(extraEnv);
				return { seconds: since(t) };
			},
			async stop() {
				const t = Date.now();
				if (mainRun) {
					const run = mainRun;
					await run.stop();
					mainLogs.add(run.output());
					mainRun = undefined;
				}
				return { seconds: since(t) };
			},
		};
		cleanups.push(async () => void (await main.stop()));
		emergency.push(() => killGroup(main.pid()));

		const workers: Worker[] = [];
		const addWorker = async (name: string): Promise<Worker> => {
			const healthPort = await freePort();
			const host = await createHost({ ...shared, ...backends.workerEnv(healthPort) });
			cleanups.push(async () => host.dispose());
			const logs = keepLogs();
			let proc: Started | undefined;
			const worker: Worker = {
				name,
				host,
				concurrency: o.concurrency,
				pid: () => proc?.pid,
				running: () => proc !== undefined,
				log: () => logs.all(proc?.output),
				async start() {
					const t = Date.now();
					proc = await backends.startWorker(host.env, { concurrency: o.concurrency });
					return { seconds: since(t) };
				},
				async stop(options = {}) {
					const t = Date.now();
					if (proc) {
						const p = proc;
						// a worker drains its running executions before it exits (up to 30 s by default)
						await p.stop({ graceMs: 60_000, ...options });
						logs.add(p.output());
						proc = undefined;
					}
					return { seconds: since(t) };
				},
			};
			cleanups.push(async () => void (await worker.stop()));
			emergency.push(() => killGroup(worker.pid()));
			workers.push(worker);
			return worker;
		};
		for (let i = 0; i < o.workers; i++) await addWorker(`worker ${String.fromCharCode(65 + i)}`);

		return {
			redis,
			postgres,
			installed: { packages: setup.installed, seconds: setup.seconds },
			main,
			workers,
			addWorker,
			async dispose() {
				// in reverse: n8n first, then its folders, Postgres and Redis
				for (const cleanup of cleanups.splice(0).reverse()) {
					try {
						await cleanup();
					} catch (error) {
						process.stderr.write(`queue cluster cleanup: ${(error as Error).message}\n`);
					}
				}
				emergency.length = 0;
				process.off('exit', onExit);
			},
		};
	} catch (error) {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
		process.off('exit', onExit);
		throw error;
	}
}

// ---------------------------------------------------------------- who ran what

/** Execution ids main enqueued ("Enqueued execution N (job J)"). */
export function enqueuedIn(log: string): string[] {
	return [...log.matchAll(/Enqueued execution (\d+) \(job/g)].map((m) => m[1]);
}

/** Execution ids a worker started ("Worker started execution N (job J)"). */
export function startedIn(log: string): string[] {
	return [...log.matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]);
}

export interface ExecutionRow {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	/** epoch ms */
	createdAt: number;
	startedAt: number | null;
	stoppedAt: number | null;
}

const ms = (v: string) => (v === '' ? null : Math.round(Number(v)));

/** Executions as Postgres has them (execution_entity), oldest first; optionally of some workflows or after an id. */
export function executions(
	postgres: Postgres,
	o: { workflowIds?: string[]; afterId?: number } = {},
): ExecutionRow[] {
	const where: string[] = [];
	if (o.workflowIds)
		where.push(
			`"workflowId" IN (${o.workflowIds.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ')})`,
		);
	if (o.afterId !== undefined) where.push(`id > ${Math.floor(o.afterId)}`);
	const rows = postgres.query(
		`SELECT id, "workflowId", mode, status, extract(epoch from "createdAt") * 1000, coalesce((extract(epoch from "startedAt") * 1000)::text, ''), coalesce((extract(epoch from "stoppedAt") * 1000)::text, '') FROM execution_entity${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`,
	);
	return rows.map(([id, workflowId, mode, status, createdAt, startedAt, stoppedAt]) => ({
		id,
		workflowId,
		mode,
		status,
		createdAt: ms(createdAt) ?? 0,
		startedAt: ms(startedAt),
		stoppedAt: ms(stoppedAt),
	}));
}

export const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * What went wrong in an execution, for a failure message: the first error messages n8n stored in
 * its data (the serialised run data holds them as "message" strings), at most 600 characters.
 */
/** An execution's stored data (n8n's serialized run data, its input included), or ''. */
function executionData(postgres: Postgres, id: string): string {
	const rows = postgres.query(
		`SELECT data FROM execution_data WHERE "executionId" = ${Math.floor(Number(id))}`,
	);
	return rows[0]?.[0] ?? '';
}

export function executionError(postgres: Postgres, id: string): string {
	const data = executionData(postgres, id);
	const messages = Array.from(data.matchAll(/"((?:[^"\\]|\\.){12,300})"/g), (m) => m[1]).filter(
		(t) => /error|fail|refused|could not|timed out|ECONN|socket/i.test(t),
	);
	return (
		Array.from(new Set(messages)).slice(0, 4).join(' | ').slice(0, 600) ||
		'(no error message stored)'
	);
}

/**
 * n8n's own failure of a queued job whose worker lock lapsed: n8n 2.x never retries a stalled job
 * (Bull's maxStalledCount is fixed at 0). A worker that stops can strand a job handed to it at the
 * instant it pauses its queue (the pause does not wait for a fetch in flight); the job never
 * starts and n8n fails it this way once the lock has lapsed. The execution stays in the list,
 * failed, with its input: nothing any node can see or prevent.
 */
export const N8N_STALLED = /failed to be processed too many times and will no longer retry/;

/** Whether an execution's stored data (its input included) holds `text`, e.g. a mention id. */
export function executionHolds(postgres: Postgres, id: string, text: string): boolean {
	return executionData(postgres, id).includes(text);
}

// ---------------------------------------------------------------- memory

/** Resident memory of one process in MB (VmRSS), or undefined when it is gone. */
export function rssMb(pid: number | undefined): number | undefined {
	if (!pid) return undefined;
	try {
		const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
	} catch {
		return undefined;
	}
}

/** The processes whose parent is `pid`, with their command line. */
export function childrenOf(pid: number): Array<{ pid: number; command: string }> {
	const out: Array<{ pid: number; command: string }> = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			// "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid)
				out.push({
					pid: Number(name),
					command: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim(),
				});
		} catch {
			// the process ended while we looked
		}
	}
	return out;
}

/** An n8n process and its task runner(s): `{ process, taskRunner }` in MB. */
export function n8nRss(pid: number | undefined): { process?: number; taskRunner?: number } {
	if (!pid) return {};
	const runners = childrenOf(pid).filter((c) => /task-runner|runners|node/.test(c.command));
	const runner = runners.map((c) => rssMb(c.pid) ?? 0).reduce((a, b) => a + b, 0);
	return { process: rssMb(pid), taskRunner: runners.length ? runner : undefined };
}

/** PostgreSQL's postmaster and every backend (sum; shared buffers count once per process that touched them). */
export function postgresRss(postgres: Postgres): number | undefined {
	const pid = postgres.postmasterPid();
	if (!pid) return undefined;
	return [pid, ...childrenOf(pid).map((c) => c.pid)]
		.map((p) => rssMb(p) ?? 0)
		.reduce((a, b) => a + b, 0);
}
