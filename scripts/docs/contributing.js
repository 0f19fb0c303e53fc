/**
 * The blocks of CONTRIBUTING.md: where the time of each test run went, as the timings reporter
 * (test/setup/timingsReporter.js) wrote it — `timings-suite` from test/.results/timings.json
 * (`npm test`), `timings-<tier>` from timings-<tier>.json (`npm run test:<tier>`) — and
 * `timings-ci` from ci-timings.json (`.ci/run`). The tiers, their commands and what each holds are
 * the markdown's.
 */
'use strict';

const { row, when } = require('./parts');

/** 75.4 → "1 min 15 s", 8.2 → "8.2 s". */
function took(seconds) {
	if (typeof seconds !== 'number') return '—';
	if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
	const whole = Math.round(seconds);
	return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

const machine = (m) =>
	m
		? `${m.cores} cores, 1-min load average during the run: mean ${m.loadMean}, max ${m.loadMax}`
		: 'an unknown machine';

/** The run a timings file measured, and its table: the steps before jest, each tier. */
function timingsTable(t, command) {
	const out = [
		`Measured by \`${command}\`, last run ${when(t.runAt)} (${machine(t.machine)}; ${t.maxWorkers} jest workers${(t.installs ?? []).length > 0 ? '; n8n installed during the run, as on a fresh machine' : ''}): **${took(t.totalSeconds)}** in all, jest ${took(t.jestSeconds)}.`,
		'',
		row(['Step or tier', 'Files', 'From → to (of jest)', 'Its files, summed', 'Slowest file']),
		'|---|---|---|---|---|',
		...(t.before ?? []).map((b) => row([b.step, '', took(b.seconds), '', ''])),
		...(t.installs ?? []).map((i) =>
			row([
				`n8n ${i.n8n} installed (background)`,
				'',
				`${took(i.seconds)}; ready ${took(i.readySecondsAfterJestStart)} after jest started`,
				'',
				'',
			]),
		),
		...(t.tiers ?? []).map((tier) =>
			row([
				`tier ${tier.tier}`,
				tier.files,
				`${took(tier.from)} → ${took(tier.to)}`,
				took(tier.fileSeconds),
				tier.slowest?.[0] ? `${tier.slowest[0].file} (${took(tier.slowest[0].seconds)})` : '',
			]),
		),
	];
	return out.join('\n');
}

/**
 * One block per timings file: `timings-suite` (npm test, its five tiers) and one for each tier
 * that runs on its own command (the unit tier alone, and the three `npm test` leaves out).
 */
const TIERS = ['unit', 'soak', 'queue', 'n8n1'];
const RUNS = [
	{ block: 'timings-suite', file: 'timings.json', command: './dev npm test' },
	...TIERS.map((tier) => ({
		block: `timings-${tier}`,
		file: `timings-${tier}.json`,
		command: `./dev npm run test:${tier}`,
	})),
];

function ci(ctx) {
	const t = ctx.results.json('ci-timings.json');
	if (!t) return undefined;
	return [
		`Measured by \`.ci/run\`, last run ${when(t.runAt)} (${t.cores} cores; load average at the end ${t.loadAverageAtEnd}): **${took(t.totalSeconds)}** in all.`,
		'',
		row(['Step', 'Time']),
		'|---|---|',
		...(t.steps ?? []).map((s) => row([s.step, took(s.seconds)])),
	].join('\n');
}

const BLOCKS = {
	...Object.fromEntries(
		RUNS.map((run) => [
			run.block,
			{
				render: (ctx) => {
					const t = ctx.results.json(run.file);
					return t && timingsTable(t, run.command);
				},
				reads: run.file,
				how: `\`${run.command}\` writes test/.results/${run.file}`,
			},
		]),
	),
	'timings-ci': {
		render: ci,
		reads: 'ci-timings.json',
		how: '`.ci/run` writes test/.results/ci-timings.json',
	},
};

module.exports = { BLOCKS, took };
