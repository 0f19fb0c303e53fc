/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark code: not shipped */
/**
 * What every part of the benchmark shares: statistics, the machine and its load, the simulator,
 * child processes with a deadline, and the clean-up of everything the run started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

import { startSim, type Sim } from '../test/support/simulator';
import { sleep } from '../test/support/wait';

export const ROOT = join(__dirname, '..');

// ---------- statistics ----------

export interface Stat {
	values: number[];
	median: number;
	min: number;
	max: number;
}

export function stat(values: number[]): Stat {
	if (values.length === 0) return { values, median: NaN, min: NaN, max: NaN };
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { values, median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** `1,234.5` with the given decimals */
export function num(value: number, decimals = 0): string {
	if (!Number.isFinite(value)) return '–';
	return value.toLocaleString('en-US', {
		minimumFractionDigits: decimals,
		maximumFractionDigits: decimals,
	});
}

/** `median (min–max)` */
export function spread(s: Stat, decimals = 0, unit = ''): string {
	if (s.values.length === 0) return '–';
	if (s.values.length === 1 || s.min === s.max) return `${num(s.median, decimals)}${unit}`;
	return `${num(s.median, decimals)}${unit} (${num(s.min, decimals)}–${num(s.max, decimals)})`;
}

export const MB = 1_000_000;
export const MiB = 1024 * 1024;

// ---------- machine ----------

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	n8n: string;
	packageVersion: string;
	eventsourceParser: string;
	os: string;
}

function packageVersion(name: string): string {
	try {
		return (
			JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
				version: string;
			}
		).version;
	} catch {
		return '?';
	}
}

export function machine(n8nVersion: string): Machine {
	let os: string = process.platform;
	try {
		const release = readFileSync('/etc/os-release', 'utf8');
		os = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1] ?? os;
	} catch {
		// not Linux
	}
	let kernel = '';
	try {
		kernel = readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
	} catch {
		kernel = '';
	}
	return {
		cpu: cpus()[0]?.model ?? '?',
		cores: cpus().length,
		memoryGiB: Math.round(totalmem() / 1024 ** 3),
		node: process.version,
		n8n: n8nVersion,
		packageVersion: (
			JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
		).version,
		eventsourceParser: packageVersion('eventsource-parser'),
		os: kernel ? `${os}, Linux ${kernel}` : os,
	};
}

export function load(): [number, number, number] {
	const [a, b, c] = loadavg();
	return [a, b, c];
}

export function loadText(l: [number, number, number] = load()): string {
	return l.map((x) => x.toFixed(2)).join(' / ');
}

export const log = (message: string): void => {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

/** Busy CPU time of the whole machine, in clock ticks (/proc/stat: all but idle and iowait). */
function machineBusyTicks(): number {
	try {
		const fields = readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]
			.trim()
			.split(/\s+/)
			.slice(1)
			.map(Number);
		// user nice system idle iowait irq softirq steal
		return fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7];
	} catch {
		return NaN;
	}
}

/** CPU ticks of this process (its own and its reaped children's) and of each live descendant. */
function ownTicks(): Map<number, number> {
	const ticks = new Map<number, number>();
	for (const pid of processTree(process.pid)) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
			const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// utime, stime, cutime, cstime: fields 14-17 of the line, 12-15 after the command
			ticks.set(
				pid,
				Number(f[11]) + Number(f[12]) + (pid === process.pid ? Number(f[13]) + Number(f[14]) : 0),
			);
		} catch {
			// gone meanwhile
		}
	}
	return ticks;
}

/** Ticks this benchmark spent between two snapshots (a child reaped meanwhile moved into our cutime). */
function ownDelta(before: Map<number, number>, after: Map<number, number>): number {
	let delta = 0;
	for (const [pid, t] of after) delta += t - (before.get(pid) ?? 0);
	for (const [pid, t] of before) if (!after.has(pid)) delta -= t;
	return delta;
}

/** Measures, between start and stop, how many cores processes other than the benchmark used. */
export function cpuMonitor(): { stop(): number } {
	const busy0 = machineBusyTicks();
	const own0 = ownTicks();
	const t0 = Date.now();
	return {
		stop() {
			const busy = machineBusyTicks() - busy0;
			const own = ownDelta(own0, ownTicks());
			const seconds = Math.max(0.001, (Date.now() - t0) / 1000);
			return Math.max(0, (busy - own) / TICKS_PER_SECOND / seconds);
		},
	};
}

const TICKS_PER_SECOND = 100;

/** Cores kept busy by processes other than this benchmark, over `windowMs`. */
export async function otherCpu(windowMs = 2000): Promise<number> {
	const monitor = cpuMonitor();
	await sleep(windowMs);
	return monitor.stop();
}

export interface Quiet {
	/** cores used by other processes just before the measurement */
	otherCores: number;
	load: [number, number, number];
	/** seconds waited for the machine to become quiet */
	waitedS: number;
}

/**
 * Waits until processes other than the benchmark use at most `maxOtherCores` (measured over 2 s,
 * re-checked every 10 s), for at most `maxWaitMs`; measures anyway after that. Returns the state
 * in which the measurement starts (recorded next to the figures).
 */
export async function waitForQuiet(
	maxOtherCores: number,
	maxWaitMs: number,
	what: string,
): Promise<Quiet> {
	const started = Date.now();
	let other = await otherCpu();
	let told = false;
	while (other > maxOtherCores && Date.now() - started < maxWaitMs) {
		if (!told) {
			log(
				`${what}: other processes use ${other.toFixed(2)} cores (load ${loadText()}); waiting up to ${Math.round(maxWaitMs / 1000)} s for a quiet machine`,
			);
			told = true;
		}
		await sleep(8000);
		other = await otherCpu();
	}
	if (other > maxOtherCores)
		log(
			`${what}: still busy (${other.toFixed(2)} other cores); measuring anyway, the load is recorded with the figures`,
		);
	return { otherCores: other, load: load(), waitedS: Math.round((Date.now() - started) / 1000) };
}

// ---------- clean-up ----------

const cleanups = new Set<() => Promise<void> | void>();

/** Registers a clean-up; returns a function that runs it once and unregisters it. */
export function onCleanup(fn: () => Promise<void> | void): () => Promise<void> {
	cleanups.add(fn);
	return async () => {
		if (!cleanups.delete(fn)) return;
		await fn();
	};
}

export async function cleanupAll(): Promise<void> {
	const all = [...cleanups];
	cleanups.clear();
	for (const fn of all.reverse()) {
		try {
			await fn();
		} catch {
			// keep cleaning
		}
	}
}

/**
 * Runs a benchmark's entry point as the process: exits with its code (2 and the stack when it
 * throws), everything registered for clean-up stopped first.
 */
export function runMain(main: () => Promise<number>): void {
	main()
		.then(async (code) => {
			await cleanupAll();
			process.exit(code);
		})
		.catch(async (error: unknown) => {
			process.stderr.write(
				`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
			);
			await cleanupAll();
			process.exit(2);
		});
}

// ---------- simulator ----------

/** A simulator child process (stopped by cleanupAll if the caller does not stop it). */
export async function simulator(flags: string[]): Promise<Sim> {
	const sim = await startSim(flags);
	const stop = onCleanup(() => sim.stop());
	return { ...sim, stop };
}

// ---------- child processes ----------

export interface ChildResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	wallMs: number;
}

/**
 * Runs a command in its own process group with a deadline; the whole group is killed at the
 * deadline or when the benchmark is cleaned up. `onSpawn` gets the child (e.g. to sample it).
 */
export function runChild(
	command: string,
	args: string[],
	options: {
		env?: NodeJS.ProcessEnv;
		cwd?: string;
		timeoutMs: number;
		onSpawn?: (child: ChildProcess) => void;
	},
): Promise<ChildResult> {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(command, args, {
			env: options.env ?? process.env,
			cwd: options.cwd ?? ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => {
			stdout += d.toString();
			if (stdout.length > 4_000_000) stdout = stdout.slice(-2_000_000);
		});
		child.stderr.on('data', (d: Buffer) => {
			stderr += d.toString();
			if (stderr.length > 4_000_000) stderr = stderr.slice(-2_000_000);
		});
		const killGroup = () => {
			if (child.pid === undefined) return;
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		};
		const unregister = onCleanup(killGroup);
		const timer = setTimeout(() => {
			killGroup();
			reject(
				new Error(
					`${command} ${args.join(' ')} took longer than ${Math.round(options.timeoutMs / 1000)} s: killed\n${stderr.slice(-2000)}`,
				),
			);
		}, options.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			void unregister();
			reject(error);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			// the task runner or another descendant may outlive the main process: end the group
			killGroup();
			void unregister();
			resolve({ code, signal, stdout, stderr, wallMs: Date.now() - started });
		});
		options.onSpawn?.(child);
	});
}

// ---------- /proc ----------

/** Resident set size of a process in bytes (0 when it is gone). */
export function rssOf(pid: number): number {
	try {
		const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}

/** The process and all its descendants, from /proc (Linux). */
export function processTree(root: number): number[] {
	const children = new Map<number, number[]>();
	let entries: string[] = [];
	try {
		entries = readdirSync('/proc');
	} catch {
		return [root];
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			const list = children.get(ppid) ?? [];
			list.push(Number(entry));
			children.set(ppid, list);
		} catch {
			// gone meanwhile
		}
	}
	const out: number[] = [];
	const stack = [root];
	while (stack.length > 0) {
		const pid = stack.pop()!;
		out.push(pid);
		for (const child of children.get(pid) ?? []) stack.push(child);
	}
	return out;
}

/**
 * Samples the summed RSS of a process tree every `everyMs`; `stop()` returns the largest sum
 * seen and the number of processes in the tree at that moment.
 */
export function sampleTree(
	root: number,
	everyMs = 100,
): { stop(): { peakBytes: number; processes: number; samples: number } } {
	let peakBytes = 0;
	let processes = 0;
	let samples = 0;
	const take = () => {
		const pids = processTree(root);
		let sum = 0;
		for (const pid of pids) sum += rssOf(pid);
		samples++;
		if (sum > peakBytes) {
			peakBytes = sum;
			processes = pids.length;
		}
	};
	take();
	const timer = setInterval(take, everyMs);
	return {
		stop() {
			clearInterval(timer);
			return { peakBytes, processes, samples };
		},
	};
}
