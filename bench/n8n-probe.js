/**
 * Preloaded into the real n8n (`NODE_OPTIONS=--require bench/n8n-probe.js`) by the end-to-end
 * benchmark. It changes nothing in how a workflow runs; it only takes readings:
 *
 * - in the `n8n execute` process, when the execution has finished (n8n's post-execute promise,
 *   after the run data was saved) and before the CLI prints the result: n8n's own startedAt and
 *   stoppedAt, the process's peak RSS so far (VmHWM, the kernel's high-water mark) and current
 *   RSS/heap, and per node the items it output with a hash of the mention ids in them (so the
 *   benchmark can check that both sides returned the same mentions);
 * - when the workflow run starts (WorkflowRunner.run): the RSS and peak RSS at that moment (the
 *   footprint of the booted n8n, before the workflow);
 * - when the workflow has run and n8n begins its after-execution work (the `workflowExecuteAfter`
 *   hook, which saves the run data): the peak RSS so far, i.e. of the execution alone;
 * - in every process that loads it (the n8n process and its task runner), at exit: the peak RSS
 *   of the whole life of the process (getrusage ru_maxrss).
 *
 * After the readings, the run data of the nodes is replaced by that summary, so the CLI prints a
 * few hundred bytes instead of re-serialising every mention (`n8n execute` pretty-prints the
 * whole run data; that print is a CLI artefact that a workflow run in an n8n instance never pays,
 * and for 100,000 mentions it would dwarf what is measured). The readings are taken before this.
 *
 * Output: JSON files next to BENCH_PROBE_OUT (`<out>.run.json`, `<out>.start.json`,
 * `<out>.exit-<pid>.json`). Plain CommonJS, no dependencies.
 */
const fs = require('node:fs');
const Module = require('node:module');

const out = process.env.BENCH_PROBE_OUT;

function procStatus() {
	const result = {};
	try {
		const text = fs.readFileSync('/proc/self/status', 'utf8');
		for (const key of ['VmHWM', 'VmRSS']) {
			const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
			if (m) result[key] = Number(m[1]) * 1024;
		}
	} catch {
		// not Linux: the exit reading (getrusage) still works
	}
	return result;
}

function write(name, value) {
	if (!out) return;
	try {
		fs.writeFileSync(`${out}.${name}.json`, JSON.stringify(value));
	} catch {
		// a reading that cannot be written is reported missing by the benchmark
	}
}

process.on('exit', (code) => {
	write(`exit-${process.pid}`, {
		pid: process.pid,
		argv: process.argv.slice(1, 3),
		code,
		maxRssBytes: process.resourceUsage().maxRSS * 1024,
		...procStatus(),
	});
});

/** FNV-1a over the ids, in order: equal hashes mean the same mentions in the same order. */
function hashIds(ids) {
	let h = 0x811c9dc5;
	for (const id of ids) {
		const s = String(id);
		for (let i = 0; i < s.length; i++) {
			h ^= s.charCodeAt(i);
			h = Math.imul(h, 0x01000193) >>> 0;
		}
		h ^= 0x2c;
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h.toString(16).padStart(8, '0');
}

function summarise(run) {
	const nodes = {};
	const runData = run?.data?.resultData?.runData ?? {};
	for (const [name, runs] of Object.entries(runData)) {
		const last = runs[runs.length - 1];
		const items = last?.data?.main?.[0] ?? [];
		const ids = [];
		for (const item of items) {
			const json = item.json ?? {};
			if (json.id !== undefined) ids.push(json.id);
			else if (Array.isArray(json.data)) for (const m of json.data) ids.push(m?.id);
		}
		nodes[name] = {
			items: items.length,
			mentionIds: ids.length,
			idsHash: hashIds(ids),
			executionTimeMs: last?.executionTime,
			error: last?.error ? String(last.error.message) : undefined,
		};
	}
	return nodes;
}

const isExecute = process.argv.includes('execute');
let patchedRunner = false;
let patchedActive = false;
let patchedHooks = false;
let executed;
const originalLoad = Module._load;
/** Runs already read: n8n awaits the same post-execute promise in several places */
const summarised = new WeakSet();

function patchRunner(exportsValue) {
	const proto = exportsValue.WorkflowRunner.prototype;
	const run = proto.run;
	proto.run = function probedRun(...args) {
		write('start', { at: Date.now(), ...procStatus(), heapUsed: process.memoryUsage().heapUsed });
		return run.apply(this, args);
	};
}

/** The moment the workflow has run and n8n starts its after-execution work (saving the run data). */
function patchHooks(exportsValue) {
	const proto = exportsValue.ExecutionLifecycleHooks.prototype;
	const runHook = proto.runHook;
	proto.runHook = function probedRunHook(hookName, parameters) {
		if (hookName === 'workflowExecuteAfter' && executed === undefined) {
			executed = { at: Date.now(), ...procStatus(), heapUsed: process.memoryUsage().heapUsed };
		}
		return runHook.call(this, hookName, parameters);
	};
}

function patchActive(exportsValue) {
	const proto = exportsValue.ActiveExecutions.prototype;
	const getPostExecutePromise = proto.getPostExecutePromise;
	proto.getPostExecutePromise = async function probedGetPostExecutePromise(...args) {
		const run = await getPostExecutePromise.apply(this, args);
		if (run === undefined || run === null || summarised.has(run)) return run;
		summarised.add(run);
		const finishedAt = Date.now();
		const status = procStatus();
		const memory = process.memoryUsage();
		const nodes = summarise(run);
		const startedAt = run?.startedAt ? new Date(run.startedAt).getTime() : undefined;
		const stoppedAt = run?.stoppedAt ? new Date(run.stoppedAt).getTime() : undefined;
		write('run', {
			finishedAt,
			startedAt,
			stoppedAt,
			status: run?.status,
			executed,
			error: run?.data?.resultData?.error ? String(run.data.resultData.error.message) : undefined,
			...status,
			heapUsed: memory.heapUsed,
			external: memory.external,
			arrayBuffers: memory.arrayBuffers,
			nodes,
		});
		if (run?.data?.resultData) run.data.resultData.runData = { summary: nodes };
		return run;
	};
}

if (isExecute && out) {
	Module._load = function probedLoad(request, parent, isMain) {
		const loaded = originalLoad.call(this, request, parent, isMain);
		// Only the two modules are looked into (touching a module still being loaded warns).
		if (
			!patchedRunner &&
			request.endsWith('/workflow-runner') &&
			typeof loaded?.WorkflowRunner === 'function'
		) {
			patchedRunner = true;
			patchRunner(loaded);
		}
		if (
			!patchedActive &&
			request.endsWith('/active-executions') &&
			typeof loaded?.ActiveExecutions === 'function'
		) {
			patchedActive = true;
			patchActive(loaded);
		}
		if (
			!patchedHooks &&
			request.endsWith('/execution-lifecycle-hooks') &&
			typeof loaded?.ExecutionLifecycleHooks === 'function'
		) {
			patchedHooks = true;
			patchHooks(loaded);
		}
		if (patchedRunner && patchedActive && patchedHooks) Module._load = originalLoad;
		return loaded;
	};
}
