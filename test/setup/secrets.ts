/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports, @n8n/community-nodes/require-node-api-error, no-console -- test code: not shipped in the package */
/**
 * The secrets watch of the whole suite (jest `setupFilesAfterEnv`: it runs inside every test
 * file). It records everything the nodes hand to n8n or to a person, in every test file, and
 * proves no API key is in it:
 * - every workflow run through n8n-core's WorkflowExecute (node outputs, node errors with their
 *   description and cause, the run error);
 * - every poll (items and thrown error) and every trigger activation through n8n-core's
 *   TriggersAndPollers, with what a trigger hands to `emit`, `emitError` and
 *   `saveFailedExecution`, and errors of its close function;
 * - every n8n log line (the Logger of n8n-core's container) and every console call, and what is
 *   written to stdout/stderr while the file runs; n8n's log lines are recorded but not printed
 *   unless SENTIONE_TEST_LOGS=1 (the expected errors of the engine-level tests would bury a
 *   failure);
 * - the keys the tests actually handed to the credential (`authenticate`), so they are searched
 *   for verbatim at the end.
 * Each record is scanned when it is made (known keys and the key shape). When the file ends, the
 * records go to a per-file spool (`$SENTIONE_SECRETS_SPOOL`, created by
 * test/setup/secretsReporter.js for the run), which the reporter scans again once every file has
 * run. A leak fails the file here and the whole run there.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';
import { TriggersAndPollers, WorkflowExecute } from 'n8n-core';

import { SentiOneApi } from '../../credentials/SentiOneApi.credentials';
import type { Leak } from './secretScan';
import { findLeaks, isSecret, simulatorKeys } from './secretScan';

const REPO = join(__dirname, '..', '..');
/** Largest single record kept (a bigger serialisation is scanned whole, spooled cut). */
const MAX_RECORD_CHARS = 8 * 1024 * 1024;
/** Records are written to the spool once this many characters are waiting. */
const FLUSH_CHARS = 16 * 1024 * 1024;

export type RecordKind =
	| 'run'
	| 'run-error'
	| 'poll'
	| 'poll-error'
	| 'emit'
	| 'emit-error'
	| 'failed-execution'
	| 'activation-error'
	| 'close-error'
	| 'log'
	| 'console'
	| 'stdout'
	| 'stderr';

interface Watch {
	/** keys searched for verbatim: the simulator's and every key a test handed to the credential */
	secrets: Set<string>;
	counts: Partial<Record<RecordKind, number>>;
	records: number;
	chars: number;
	leaks: Array<Leak & { kind: RecordKind }>;
	pending: string[];
	pendingChars: number;
	spoolFile: string | undefined;
	flushedOnce: boolean;
	/** the last records, for the self-test in test/reliability */
	recent: Array<{ kind: RecordKind; text: string }>;
}

const watch: Watch = {
	secrets: new Set(simulatorKeys(REPO)),
	counts: {},
	records: 0,
	chars: 0,
	leaks: [],
	pending: [],
	pendingChars: 0,
	spoolFile: undefined,
	flushedOnce: false,
	recent: [],
};

const DENY = new Set([
	'Socket',
	'TLSSocket',
	'ClientRequest',
	'IncomingMessage',
	'Agent',
	'Server',
	'Workflow',
	'Expression',
]);

/**
 * JSON of anything a node produced: errors with name, message, description, stack, cause and
 * their own properties; buffers as text; cycles and sockets cut.
 */
export function serialize(value: unknown): string {
	if (typeof value === 'string') return value;
	const seen = new WeakSet<object>();
	const replacer = function (this: unknown, key: string, v: unknown): unknown {
		const raw = key === '' ? v : (this as Record<string, unknown>)[key];
		if (Buffer.isBuffer(raw)) return raw.subarray(0, 1024 * 1024).toString('utf8');
		if (raw instanceof Uint8Array)
			return Buffer.from(raw.subarray(0, 1024 * 1024)).toString('utf8');
		if (typeof v === 'function') return undefined;
		if (typeof v === 'bigint') return String(v);
		if (v === null || typeof v !== 'object') return v;
		if (seen.has(v)) return '[seen]';
		seen.add(v);
		const name = (v as { constructor?: { name?: string } }).constructor?.name;
		if (name && DENY.has(name)) return `[${name}]`;
		if (v instanceof Error) {
			const out: Record<string, unknown> = {
				name: v.name,
				message: v.message,
				stack: v.stack,
				description: (v as { description?: unknown }).description,
				cause: (v as { cause?: unknown }).cause,
			};
			for (const k of Object.keys(v))
				if (!(k in out)) out[k] = (v as unknown as Record<string, unknown>)[k];
			return out;
		}
		return v;
	};
	try {
		return JSON.stringify(value, replacer) ?? String(value);
	} catch (error) {
		return `[unserialisable: ${(error as Error).message}]`;
	}
}

function testPath(): string | undefined {
	try {
		return expect.getState().testPath;
	} catch {
		return undefined;
	}
}

function spoolFileName(): string | undefined {
	const dir = process.env.SENTIONE_SECRETS_SPOOL;
	const path = testPath();
	if (!dir || !path) return undefined;
	const id = createHash('sha1').update(path).digest('hex').slice(0, 12);
	return join(dir, `${process.env.JEST_WORKER_ID ?? 'main'}-${process.pid}-${id}.jsonl`);
}

function flush(): void {
	if (watch.pending.length === 0) return;
	watch.spoolFile ??= spoolFileName();
	if (!watch.spoolFile) {
		// no spool for this run (the reporter is not configured): the per-file check still ran
		watch.pending = [];
		watch.pendingChars = 0;
		return;
	}
	mkdirSync(dirname(watch.spoolFile), { recursive: true });
	appendFileSync(watch.spoolFile, watch.pending.join(''));
	watch.pending = [];
	watch.pendingChars = 0;
}

let recording = 0;

/** Records one thing a node produced (scanned now, spooled later). */
export function record(kind: RecordKind, value: unknown): void {
	// a record can make a log line (n8n's Logger → console): never record while recording
	if (recording > 0) return;
	recording++;
	try {
		const whole = serialize(value);
		const text = whole.length > MAX_RECORD_CHARS ? whole.slice(0, MAX_RECORD_CHARS) : whole;
		for (const leak of findLeaks(whole, watch.secrets, 3)) watch.leaks.push({ ...leak, kind });
		watch.counts[kind] = (watch.counts[kind] ?? 0) + 1;
		watch.records++;
		watch.chars += whole.length;
		watch.recent.push({ kind, text: text.slice(0, 20_000) });
		if (watch.recent.length > 50) watch.recent.shift();
		const line = `${JSON.stringify({ k: kind, t: text })}\n`;
		watch.pending.push(line);
		watch.pendingChars += line.length;
		// after the file's own afterAll hooks started, every record goes straight to the spool
		if (watch.flushedOnce || watch.pendingChars >= FLUSH_CHARS) flush();
	} finally {
		recording--;
	}
}

/** A key a test handed to the credential: searched for verbatim in everything. */
function rememberSecret(value: unknown): void {
	if (isSecret(value)) watch.secrets.add((value as string).trim());
}

/** What the recorder holds, for the self-test (test/engine/reliability/secrets.test.ts). */
export function secretsWatch(): Readonly<Watch> {
	return watch;
}

// --- the taps ---------------------------------------------------------------------------------

type Cancelable<T> = Promise<T> & { cancel?: () => void };

const executeProto = WorkflowExecute.prototype as unknown as {
	processRunExecutionData: (...args: unknown[]) => Cancelable<unknown>;
};
const originalProcess = executeProto.processRunExecutionData;
executeProto.processRunExecutionData = function (this: unknown, ...args: unknown[]) {
	const run = originalProcess.apply(this, args);
	run.then(
		(result) =>
			record('run', (result as { data?: { resultData?: unknown } })?.data?.resultData ?? result),
		(error) => record('run-error', error),
	);
	return run;
};

const pollersProto = TriggersAndPollers.prototype as unknown as {
	runPollFunction: (...args: unknown[]) => Promise<unknown>;
	runTriggerFunction: (...args: unknown[]) => Promise<unknown>;
};
const originalPoll = pollersProto.runPollFunction;
pollersProto.runPollFunction = async function (this: unknown, ...args: unknown[]) {
	try {
		const result = await originalPoll.apply(this, args);
		record('poll', result);
		return result;
	} catch (error) {
		record('poll-error', error);
		throw error;
	}
};

type TriggerFns = {
	emit: (data: INodeExecutionData[][], ...rest: unknown[]) => void;
	emitError: (error: Error, ...rest: unknown[]) => void;
	saveFailedExecution: (error: Error) => void;
};

const originalTrigger = pollersProto.runTriggerFunction;
pollersProto.runTriggerFunction = async function (this: unknown, ...args: unknown[]) {
	const getTriggerFunctions = args[2] as (...a: unknown[]) => TriggerFns;
	args[2] = (...a: unknown[]) => {
		const fns = getTriggerFunctions(...a);
		const { emit, emitError, saveFailedExecution } = fns;
		// keeps emit's declared arity: the stream trigger reads it to know whether n8n takes a
		// deduplication key (a fourth parameter)
		fns.emit =
			emit.length >= 4
				? (data, responsePromise?: unknown, donePromise?: unknown, deduplicationKey?: unknown) => {
						record('emit', data);
						return emit.call(fns, data, responsePromise, donePromise, deduplicationKey);
					}
				: (data, ...rest) => {
						record('emit', data);
						return emit.call(fns, data, ...rest);
					};
		fns.emitError = (error, ...rest) => {
			record('emit-error', error);
			return emitError.call(fns, error, ...rest);
		};
		fns.saveFailedExecution = (error) => {
			record('failed-execution', error);
			return saveFailedExecution.call(fns, error);
		};
		return fns;
	};
	let response: { closeFunction?: () => Promise<void> } | undefined;
	try {
		response = (await originalTrigger.apply(this, args)) as typeof response;
	} catch (error) {
		record('activation-error', error);
		throw error;
	}
	const close = response?.closeFunction;
	if (response && close) {
		response.closeFunction = async () => {
			try {
				await close.call(response);
			} catch (error) {
				record('close-error', error);
				throw error;
			}
		};
	}
	return response;
};

const credentialProto = SentiOneApi.prototype as unknown as {
	authenticate: (credentials: { apiKey?: unknown }, ...rest: unknown[]) => Promise<unknown>;
};
const originalAuthenticate = credentialProto.authenticate;
credentialProto.authenticate = async function (this: unknown, credentials, ...rest) {
	rememberSecret(credentials?.apiKey);
	return await originalAuthenticate.call(this, credentials, ...rest);
};

// console first: n8n's logger (winston) keeps the console.log it finds when it is created
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
	const original = console[method].bind(console);
	console[method] = (...args: unknown[]) => {
		record('console', args);
		original(...args);
	};
}

/**
 * Whether n8n's log output reaches the terminal. Off by default: the engine logs every node error a
 * test provokes on purpose, and those lines would bury the report of a real failure. Every log
 * line is recorded all the same. `SENTIONE_TEST_LOGS=1 npx jest …` shows them.
 */
const showN8nLogs = ['1', 'true', 'yes'].includes(
	String(process.env.SENTIONE_TEST_LOGS ?? '').toLowerCase(),
);

type LogTransport = {
	eol?: string;
	log: (info: Record<string | symbol, unknown>, next?: () => void) => void;
};

// n8n's logger: n8n-core takes it from its own copy of @n8n/di
try {
	const coreDir = dirname(require.resolve('n8n-core/package.json'));
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
		Container: { get: (token: unknown) => Record<string, unknown> };
	};
	const { Logger } = require(require.resolve('@n8n/backend-common', { paths: [coreDir] })) as {
		Logger: unknown;
	};
	const logger = Container.get(Logger);
	// every call, with its metadata; a level below n8n's (debug, at the default info) is a
	// read-only no-op on the instance: n8n drops those calls, so there is nothing to record
	for (const level of ['error', 'warn', 'info', 'debug']) {
		if (Object.getOwnPropertyDescriptor(logger, level)?.writable === false) continue;
		const original = logger[level] as (message: string, meta?: unknown) => void;
		logger[level] = (message: string, meta?: unknown) => {
			record('log', { level, message, meta });
			original.call(logger, message, meta);
		};
	}
	// every line it prints, scoped loggers' included (they write through the same winston logger):
	// recorded as the stdout it would have been, and printed only when asked for
	const MESSAGE = Symbol.for('message');
	const winston = logger.internalLogger as { transports?: LogTransport[] } | undefined;
	for (const transport of winston?.transports ?? []) {
		const print = transport.log.bind(transport);
		transport.log = (info, next) => {
			if (showN8nLogs) return print(info, next); // the stdout tap below records it
			record('stdout', `${String(info[MESSAGE] ?? info.message)}${transport.eol ?? '\n'}`);
			next?.();
		};
	}
} catch (error) {
	record(
		'console',
		`secrets watch: n8n's logger could not be tapped (${(error as Error).message}); its console output is still recorded`,
	);
}

type Write = typeof process.stdout.write;
const originalStdout = process.stdout.write;
const originalStderr = process.stderr.write;
process.stdout.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
	record(
		'stdout',
		typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk,
	);
	return (originalStdout as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
} as Write;
process.stderr.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
	record(
		'stderr',
		typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : chunk,
	);
	return (originalStderr as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
} as Write;

afterAll(() => {
	const path = testPath();
	const header = {
		k: 'header',
		file: path ? relative(REPO, path) : undefined,
		worker: process.env.JEST_WORKER_ID ?? 'main',
		records: watch.records,
		chars: watch.chars,
		counts: watch.counts,
		secrets: [...watch.secrets],
		leaks: watch.leaks.length,
	};
	watch.pending.unshift(`${JSON.stringify(header)}\n`);
	flush();
	watch.flushedOnce = true;
	// the streams of the worker outlive this file
	process.stdout.write = originalStdout;
	process.stderr.write = originalStderr;
	if (watch.leaks.length > 0) {
		const list = watch.leaks
			.slice(0, 10)
			.map((leak) => `- ${leak.kind}: ${leak.what}: ${leak.excerpt}`)
			.join('\n');
		throw new Error(
			`An API key appeared in ${watch.leaks.length} thing(s) this test file produced:\n${list}`,
		);
	}
});
