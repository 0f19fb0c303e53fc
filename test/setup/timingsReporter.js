/**
 * Where a test run's time goes (a jest reporter: the main process, once every file has finished).
 * At the end it prints a table and writes test/.results/timings.json (`npm test`) or
 * timings-<tiers>.json (another selection of tiers; a run filtered by path writes nothing):
 *
 * - before jest: ./dev's own part when ./dev ran it (Node 24, the background installs started, the
 *   dev dependencies: `$SENTIONE_DEV_START` → `$SENTIONE_DEV_READY`), then the build and jest's
 *   start (→ this reporter's onRunStart);
 * - each tier (jest project): when its first file started and its last ended (seconds from the
 *   start of jest), the sum of its files' times, its slowest files;
 * - each real n8n installed during this run (scripts/n8n/install.js writes how long it took into
 *   the install's `.complete` marker), and how long after jest's start it was ready;
 * - every file, in the order it started: when it started and ended (seconds from the start of
 *   jest) — the run's timeline, to see what ran beside what and what ended last.
 *
 * The machine: cores and the load average at the start and the end (other work on the machine
 * slows every figure).
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { LINES, cacheRoot, target } = require('../../scripts/n8n/lines.js');
const { selectedTiers } = require('./selectedTiers');

const REPO = path.join(__dirname, '..', '..');
const RESULTS = path.join(REPO, 'test', '.results');

const seconds = (ms) => Math.round(ms / 100) / 10;
const load = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ');

class TimingsReporter {
	constructor(globalConfig) {
		this.globalConfig = globalConfig;
		this.files = [];
	}

	onRunStart() {
		this.start = Date.now();
		this.loadAtStart = load();
		// the 1-minute load average every 10 s: what else ran on the machine meanwhile
		this.loads = [os.loadavg()[0]];
		this.sampler = setInterval(() => this.loads.push(os.loadavg()[0]), 10_000);
		this.sampler.unref();
	}

	onTestResult(test, result) {
		this.files.push({
			tier: test.context.config.displayName?.name ?? 'default',
			file: path.relative(REPO, test.path),
			start: result.perfStats.start,
			end: result.perfStats.end,
			failed: result.numFailingTests > 0 || Boolean(result.testExecError),
		});
	}

	onRunComplete() {
		const end = Date.now();
		clearInterval(this.sampler);
		const loads = this.loads ?? [];
		const env = process.env;
		const before = [];
		const devStart = Number(env.SENTIONE_DEV_START) * 1000;
		const devReady = Number(env.SENTIONE_DEV_READY) * 1000;
		if (devStart > 0 && devReady >= devStart && devReady <= this.start) {
			before.push({
				step: './dev: Node 24, background installs started, dev dependencies',
				seconds: seconds(devReady - devStart),
			});
			before.push({
				step: 'build (n8n-node build) and jest starting',
				seconds: seconds(this.start - devReady),
			});
		}
		const tiers = [...new Set(this.files.map((f) => f.tier))].map((tier) => {
			const files = this.files.filter((f) => f.tier === tier);
			const first = Math.min(...files.map((f) => f.start));
			const last = Math.max(...files.map((f) => f.end));
			return {
				tier,
				files: files.length,
				from: seconds(first - this.start),
				to: seconds(last - this.start),
				fileSeconds: seconds(files.reduce((sum, f) => sum + (f.end - f.start), 0)),
				slowest: files
					.map((f) => ({ file: f.file, seconds: seconds(f.end - f.start) }))
					.sort((a, b) => b.seconds - a.seconds)
					.slice(0, 5),
			};
		});
		const installs = [];
		for (const line of Object.keys(LINES)) {
			const marker = path.join(cacheRoot(target(line)), '.complete');
			try {
				const info = JSON.parse(fs.readFileSync(marker, 'utf8'));
				const at = Date.parse(info.at);
				if (at >= (devStart || this.start) - 1000)
					installs.push({
						n8n: info.version,
						seconds: info.seconds,
						steps: info.steps,
						readySecondsAfterJestStart: seconds(at - this.start),
					});
			} catch {
				// not installed, or by an older script: nothing to say
			}
		}
		const figures = {
			runAt: new Date(this.start).toISOString(),
			machine: {
				cores: os.cpus().length,
				loadAtStart: this.loadAtStart,
				loadAtEnd: load(),
				// the 1-minute load average sampled every 10 s during the run
				loadMean: Number((loads.reduce((a, b) => a + b, 0) / (loads.length || 1)).toFixed(2)),
				loadMax: Number(Math.max(0, ...loads).toFixed(2)),
			},
			totalSeconds: seconds(end - (devStart > 0 && devStart <= this.start ? devStart : this.start)),
			jestSeconds: seconds(end - this.start),
			maxWorkers: this.globalConfig.maxWorkers,
			before,
			installs,
			tiers,
			timeline: [...this.files]
				.sort((a, b) => a.start - b.start)
				.map((f) => ({
					file: f.file,
					from: seconds(f.start - this.start),
					to: seconds(f.end - this.start),
				})),
		};
		const lines = [
			'',
			`where the time went (${figures.machine.cores} cores; 1-min load average during the run: mean ${figures.machine.loadMean}, max ${figures.machine.loadMax}):`,
			...before.map((b) => `  ${b.step.padEnd(64)} ${String(b.seconds).padStart(7)} s`),
			...installs.map(
				(i) =>
					`  n8n ${i.n8n} installed (background): ${i.seconds} s, ready ${i.readySecondsAfterJestStart} s after jest started`,
			),
			...tiers.map(
				(t) =>
					`  ${`tier ${t.tier} (${t.files} files)`.padEnd(30)} ${String(t.from).padStart(6)} s → ${String(t.to).padStart(6)} s of jest   (files: ${t.fileSeconds} s; slowest ${t.slowest[0]?.file} ${t.slowest[0]?.seconds} s)`,
			),
			`  jest ${figures.jestSeconds} s; in all ${figures.totalSeconds} s`,
		];
		process.stderr.write(`${lines.join('\n')}\n`);
		const g = this.globalConfig;
		const patterns = g.testPathPatterns;
		const pathFiltered = Array.isArray(patterns)
			? patterns.length > 0
			: Boolean(patterns && (patterns.patterns?.length > 0 || patterns.isSet?.()));
		if (pathFiltered || g.testNamePattern || g.onlyChanged || g.onlyFailures) return;
		const tiersName = selectedTiers({ namesOnly: true });
		fs.mkdirSync(RESULTS, { recursive: true });
		fs.writeFileSync(
			path.join(RESULTS, tiersName === 'suite' ? 'timings.json' : `timings-${tiersName}.json`),
			`${JSON.stringify(figures, null, 2)}\n`,
		);
	}
}

module.exports = TimingsReporter;
