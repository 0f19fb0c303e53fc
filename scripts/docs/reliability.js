/**
 * The blocks of docs/reliability.md that are not a single part: the summary of every part, the
 * losses and open bugs, the secrets check, and one block per class of server-controlled value
 * ("Bounds on what the server controls": the bound as the code sets it, read from the constants,
 * and what the parts measured). Every other block of the document is a part, shown as
 * scripts/docs/parts.js renderPart shows any part. The prose around the blocks is the markdown's.
 */
'use strict';

const { code } = require('./fromCode');
const { headingOf, notMeasured } = require('./markers');
const { cell, count, partFile, row, sum, when } = require('./parts');

/** 3_900_000 → "65 min", 5_000 → "5 s", 1500 → "1500 ms". */
function duration(ms) {
	if (ms % 60_000 === 0) return `${ms / 60_000} min`;
	if (ms % 1000 === 0) return `${ms / 1000} s`;
	return `${ms} ms`;
}

const seconds = (ms) => (typeof ms === 'number' ? `${(ms / 1000).toFixed(1)} s` : '—');
const secondsOf = (s) => (typeof s === 'number' ? `${s.toFixed(2)} s` : '—');

/** "the value (`CONSTANT.path`)": a figure of the code, with where it comes from. */
function quote(format, name, ...path) {
	return `${format(code(name, ...path))} (\`${[name, ...path].join('.')}\`)`;
}

const plain = (v) => (typeof v === 'number' ? count(v) : String(v));
const unit = (name) => (v) => `${plain(v)} ${name}`;
const chars = unit('characters');
const utcDate = (ms) => new Date(ms).toISOString().slice(0, 10);
const mib = (bytes) => `${bytes / 1024 / 1024} MiB`;

/** "key value; key value" of a figures map, in the test's order. */
const listed = (map, format = plain) =>
	Object.entries(map ?? {})
		.map(([key, value]) => `${key} ${format(value)}`)
		.join('; ');

/**
 * One entry per class of value the server (or a saved state, or an expression) controls: its block
 * name, the bounds the code sets (`limits`, read from the constants when rendering), the parts it
 * reads and the Measured line it makes of their figures.
 */
const CLASSES = [
	{
		block: 'bounds-redirects',
		parts: ['redirects'],
		measured: ({ redirects: f }) =>
			`${plain(f.runs)} cases: ${f.requestsToOtherOrigins} requests, ${f.connectionsToOtherOrigins} connections and ${f.keysToOtherOrigins} keys reached another origin.`,
	},
	{
		block: 'bounds-paths',
		limits: () => [
			`a Mention ID parameter (and a mention id SentiOne sends) of at most ${quote(chars, 'BOUNDS', 'maxMentionIdChars')}`,
		],
		parts: ['inputs'],
		measured: ({ inputs }) => {
			const g = inputs.byGroup ?? {};
			return `${g['path: refused ids']} ids refused, ${g['path: encoded ids']} sent encoded as exactly one segment (the simulator's raw request target proves it), ${g['path: project IDs']} project IDs refused.`;
		},
	},
	{
		block: 'bounds-secrets',
		parts: ['inputs'],
		measured: ({ inputs }) =>
			`${(inputs.byGroup ?? {})['Base URL: a secret typed into it']} cases, 0 secrets in any error.`,
	},
	{
		block: 'bounds-resets',
		limits: () => [
			`a reset counts when at most ${quote(duration, 'BOUNDS', 'resetMaxAheadMs')} ahead and ${quote(duration, 'BOUNDS', 'resetMaxBehindMs')} behind`,
			`the first wait after an hourly 429 at least ${quote(duration, 'BOUNDS', 'rateLimitFirstWaitMs')}, each next one ${quote((n) => `${n} times longer`, 'BOUNDS', 'rateLimitWaitGrowth')}`,
			`the longest wait ${quote(duration, 'BOUNDS', 'rateLimitMaxWaitMs')}`,
			`no timer past ${quote(unit('ms'), 'BOUNDS', 'maxTimerMs')}`,
		],
		parts: ['resets'],
		measured: ({ resets: f }) =>
			`most requests or connections in any virtual hour: ${listed(f.mostRequestsPerVirtualHour)}; longest wait asked of the clock ${duration(f.longestClockWaitMs ?? 0)}; longest timer ${duration(f.longestTimerMs ?? 0)}; ${f.timeoutOverflowWarnings} timer overflows.`,
	},
	{
		block: 'bounds-deadlines',
		limits: () => [
			`a JSON answer must arrive whole within ${quote(duration, 'BOUNDS', 'answerStallMs')} of its headers (its stall limit), and never takes more than ${quote(duration, 'BOUNDS', 'requestDeadlineMs')}`,
			`a read that got nothing at all is retried ${quote(unit('times'), 'DEFAULT_RETRY', 'transientRetries')}`,
			`Export → Timeout (Minutes) defaults to ${quote(unit('minutes'), 'EXPORT_CAPS', 'timeoutMinutes', 'default')}`,
			`an export has stalled after ${quote(duration, 'EXPORT_CAPS', 'idleMs')} without a complete event`,
		],
		parts: ['deadlines-soak', 'deadlines'],
		measured: (f) =>
			`longest hold through the nodes (soak, the real bounds): ${listed(f['deadlines-soak'].longestHoldMs, seconds)}; with the test's small bounds: ${listed(f.deadlines.longestHoldMs, seconds)}.`,
	},
	{
		block: 'bounds-memory',
		limits: () => [
			`Export → Max Mentions per Run defaults to ${quote(unit('mentions'), 'EXPORT_CAPS', 'maxMentions', 'default')}`,
			`Max Size (MB) to ${quote(unit('MB'), 'EXPORT_CAPS', 'maxSizeMb', 'default')}`,
			`paging stops after ${quote(unit('pages'), 'BOUNDS', 'maxPagesWithoutProgress')} without anything new, or on a cursor longer than ${quote(chars, 'BOUNDS', 'maxCursorChars')}`,
			`one run lists at most ${quote(unit('items'), 'DEFAULT_MAX_ITEMS')}`,
			`the stream trigger remembers at most ${quote(unit('ids'), 'DEFAULT_DEDUP_CAPACITY')} in ${quote(mib, 'DEFAULT_DEDUP_BYTES')}, an id longer than ${quote(chars, 'BOUNDS', 'maxIdChars')} by its SHA-256`,
		],
		parts: ['caps'],
		// the endless exports (the heap they took) and Max Size against endless data (what it read);
		// the caps part below has every figure
		measured: ({ caps }) =>
			[
				...Object.entries(caps)
					.filter(([, v]) => typeof v?.heapPeakMb === 'number')
					.map(([key, v]) => `${key}: peak heap +${v.heapPeakMb} MB in ${v.seconds} s`),
				...Object.entries(caps)
					.filter(([key, v]) => typeof v === 'number' && /read before the run ended/.test(key))
					.map(([key, v]) => `${key} ${v}`),
			].join('; ') + '.',
	},
	{
		block: 'bounds-watermark',
		limits: () => [
			`the watermark at most ${quote(duration, 'BOUNDS', 'futureAllowanceMs')} ahead of n8n's clock`,
		],
		parts: ['poll-state'],
		measured: ({ 'poll-state': f }) =>
			(f.future ?? [])
				.map(
					(x) =>
						`${x.ahead} ahead: passed on ${x.futureTimes} time(s), ${x.lost} lost, ${x.duplicated} duplicated`,
				)
				.join('; ') + '.',
	},
	{
		block: 'bounds-state',
		parts: ['poll-state'],
		measured: ({ 'poll-state': f }) =>
			`${f.cases} cases, ${f.checksAfterCorruption} checks, ${f.mentionsAfterCorruption} mentions after the corruption: ${f.lost} lost, ${f.duplicated} duplicated.`,
	},
	{
		block: 'bounds-dates',
		limits: () => [
			`plausible instants from ${quote(utcDate, 'BOUNDS', 'earliestPlausibleMs')} to ${quote(utcDate, 'BOUNDS', 'latestPlausibleMs')}`,
		],
		parts: ['inputs'],
		measured: ({ inputs }) => {
			const g = inputs.byGroup ?? {};
			return `${g['dates: refused']} refusals, ${g['dates: accepted']} accepted forms, ${g['dates: readDate (unit)']} unit cases; never "Invalid time value".`;
		},
	},
	{
		block: 'bounds-types',
		parts: ['inputs'],
		measured: ({ inputs }) =>
			`${(inputs.byGroup ?? {})['types: a list or object where text is expected']} cases refused, 0 requests sent.`,
	},
	{
		block: 'bounds-entries',
		parts: ['inputs'],
		measured: ({ inputs }) =>
			`${(inputs.byGroup ?? {})['pages: entries that are not objects']} cases, never a crash, 0 lost.`,
	},
	{
		block: 'bounds-base-url',
		parts: ['inputs'],
		measured: ({ inputs }) => {
			const g = inputs.byGroup ?? {};
			return `${g['Base URL: an endpoint beyond the API root']} + ${g['Base URL: no scheme at a plain-http server']} cases.`;
		},
	},
	{
		block: 'bounds-stops',
		parts: ['stops', 'shutdown'],
		measured: ({ stops, shutdown }) => {
			const after = Object.values(stops.requestsAfterCancel ?? {}).reduce((a, b) => a + b, 0);
			return `seconds from the cancel to the end of the run: ${listed(stops.secondsFromCancelToEnd, secondsOf)}; requests after the cancel: ${after}. A trigger's close to its end: ${listed(shutdown.secondsFromCloseToEnd, secondsOf)}.`;
		},
	},
	{
		block: 'bounds-stalls',
		limits: () => [
			`an export (the action's and a trigger's catch-up) has stalled after ${quote(duration, 'BOUNDS', 'exportStallMs')} without a complete event`,
			`a live stream after Options → Stall Timeout, default ${quote(unit('s'), 'STREAM_DEFAULTS', 'stallTimeoutSeconds')}`,
			`a JSON answer, one event, must arrive whole within ${quote(duration, 'BOUNDS', 'answerStallMs')}`,
		],
		parts: ['stalls', 'deadlines-soak'],
		measured: ({ stalls, 'deadlines-soak': soak }) =>
			`seconds to the stall error with a ${plain(stalls.stallLimitSeconds)} s limit: ${listed(stalls.secondsToStallError, secondsOf)}. With the real limits through the nodes (soak): ${listed(soak.longestHoldMs, seconds)}.`,
	},
	{
		block: 'bounds-instants',
		limits: () => [
			`a request carries no instant before ${quote(utcDate, 'BOUNDS', 'earliestPlausibleMs')} or from ${quote(utcDate, 'BOUNDS', 'latestPlausibleMs')} on`,
		],
		parts: ['instants'],
		measured: ({ instants }) =>
			`${plain(instants.refused)} absurd expressions through n8n's engine (one per node) refused naming the field; ${plain(instants.requestsReceived)} requests reached the server.`,
	},
];

/** The line of `previous` (a block's body as it stands) that starts with `prefix`, if any. */
const lineOf = (previous, prefix) =>
	(previous ?? '').split('\n').find((line) => line.startsWith(prefix));

/**
 * A class's block: the bounds as the code sets them (always read anew), and the Measured line of
 * its parts when every one of them is present; otherwise the Measured line it holds, which the
 * dated parts below back.
 */
function boundsBlock(cls, results, previous) {
	const figures = {};
	for (const name of cls.parts) {
		const part = results.part(name);
		if (part) figures[name] = part.figures ?? {};
	}
	const lines = [];
	if (cls.limits) lines.push(`- **In the code:** ${cls.limits().join('; ')}.`);
	const missing = cls.parts.filter((name) => !(name in figures));
	lines.push(
		missing.length === 0
			? `- **Measured:** ${cls.measured(figures)}`
			: (lineOf(previous, '- **Measured:**') ??
					`- **Measured:** ${notMeasured(`no ${missing.map((n) => `test/.results/${partFile(n)}`).join(', ')}`)}`),
	);
	return lines.join('\n');
}

/**
 * The parts of this document: its blocks that are no block of this file, each with the heading
 * written above it (the name the summary and the findings give it) and its figures, if present.
 */
const partsOf = (ctx) =>
	ctx.names
		.filter((name) => !(name in BLOCKS))
		.map((name) => ({
			name,
			heading: headingOf(ctx.text, name) ?? name,
			part: ctx.results.part(name),
		}));

/** One row per part; a part absent from the results keeps the row it had. */
function summary(ctx, previous) {
	const out = [
		row(['Part', 'Rows', 'Cases tried', 'Items', 'Lost', 'Duplicated', 'Last run']),
		'|---|---|---|---|---|---|---|',
	];
	for (const { heading, part } of partsOf(ctx)) {
		if (!part) {
			out.push(
				lineOf(previous, `| ${cell(heading)} |`) ??
					row([heading, '—', '—', '—', '—', '—', 'not measured yet']),
			);
			continue;
		}
		const rows = part.rows ?? [];
		out.push(
			row([
				heading,
				rows.length,
				sum(rows, 'cases'),
				sum(rows, 'items'),
				sum(rows, 'lost'),
				sum(rows, 'duplicated'),
				when(part.finishedAt),
			]),
		);
	}
	return out.join('\n');
}

/** The rows of every part that lost something or pin a bug; a part absent keeps its lines. */
function findings(ctx, previous) {
	const found = partsOf(ctx).flatMap(({ heading, part }) => {
		const prefix = `- **${heading}** — `;
		if (!part) return (previous ?? '').split('\n').filter((line) => line.startsWith(prefix));
		return (part.rows ?? [])
			.filter((r) => /^BUG|by design/.test(String(r.outcome)) || (r.lost ?? 0) > 0)
			.map((r) => `${prefix}${r.fault}: ${r.outcome}${r.lost ? ` (lost ${r.lost})` : ''}.`);
	});
	return found.length > 0 ? found.join('\n') : 'None.';
}

/**
 * One line per whole run that checked for secrets: secrets.json is `npm test`'s, secrets-<tiers>.json
 * a run of other tiers. A run absent from the results keeps the line it had.
 */
function secrets(ctx, previous) {
	const lines = new Map();
	for (const line of (previous ?? '').split('\n'))
		if (line.startsWith('- ') && line.includes(', '))
			lines.set(line.slice(0, line.indexOf(', ')), line);
	const files = ctx.results.files.filter((f) => /^secrets(-.+)?\.json$/.test(f));
	for (const s of files.map((file) => ctx.results.json(file)).filter(Boolean)) {
		const scope =
			!s.scope || s.scope === 'suite'
				? '`npm test`'
				: s.scope
						.split('+')
						.map((tier) => `\`npm run test:${tier}\``)
						.join(' and ');
		const kinds = Object.entries(s.kinds ?? {})
			.map(([k, n]) => `${k} ${n}`)
			.join(', ');
		lines.set(
			`- ${scope}`,
			`- ${scope}, ${when(s.finishedAt)}: ${s.testFiles} test files ran, ${s.testFilesWithRecords} of them recorded node output, errors or log lines; ${count(s.records)} records (${count(Math.round((s.characters ?? 0) / 1024))} KiB; ${kinds}) were searched for ${s.keysSearched} keys and the key shape: **${s.leaks} found**.`,
		);
	}
	if (lines.size === 0) return undefined;
	return [...lines.keys()]
		.sort()
		.map((key) => lines.get(key))
		.join('\n');
}

/** This document's own blocks, by name (scripts/docs/render.js). */
const BLOCKS = {
	summary: { render: summary },
	findings: { render: findings },
	secrets: {
		render: secrets,
		reads: (file) => /^secrets(-.+)?\.json$/.test(file),
		how: 'a whole run of a tier writes test/.results/secrets*.json',
	},
	...Object.fromEntries(
		CLASSES.map((cls) => [
			cls.block,
			{ render: (ctx, previous) => boundsBlock(cls, ctx.results, previous) },
		]),
	),
};

module.exports = { BLOCKS, duration };
