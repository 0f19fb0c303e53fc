#!/usr/bin/env node
/**
 * Renders docs/reliability.md from the figures the reliability tests wrote
 * (test/.results/part-*.json, secrets.json, secrets-soak.json; ignored by git). A test
 * run only writes those figures; this command, and nothing else, rewrites the tracked document:
 *   npm run docs:reliability        (node scripts/docs/reliability.js)
 */
'use strict';

const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ORDER = [
	'stops',
	'stalls',
	'instants',
	'redirects',
	'deadlines',
	'deadlines-soak',
	'caps',
	'resets',
	'inputs',
	'poll-state',
	'poll',
	'poll-limits',
	'stream',
	'stream-soak',
	'stream-repair',
	'paging',
	'bad-input',
	'hostile',
	'hostile-soak',
	'shutdown',
	'properties',
	'properties-stream',
];

function readJson(path) {
	try {
		return JSON.parse(readFileSync(path, 'utf8'));
	} catch {
		return undefined;
	}
}

const cell = (value) =>
	value === undefined || value === null || value === ''
		? '—'
		: String(value)
				.replace(/\|/g, '\\|')
				.replace(/\n/g, ' ')
				.replace(/</g, '&lt;')
				.replace(/>/g, '&gt;');

/**
 * One section per class of server-controlled value (issue 12): what was tried, the bound that now
 * holds (bounds.ts and the mechanism that applies it), and the figure the suite measured.
 */
function serverBounds(parts) {
	const part = (name) => parts.find((p) => p.part === name);
	const fig = (name) => part(name)?.figures ?? {};
	const group = (name) => (fig('inputs').byGroup ?? {})[name];
	const hold = (name, key) => {
		const ms = (fig(name).longestHoldMs ?? {})[key];
		return ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`;
	};
	const most = fig('resets').mostRequestsPerVirtualHour ?? {};
	const caps = fig('caps');
	const sse20k = caps['endless export, cap 20,000 mentions (SSE, full mentions)'] ?? {};
	const future = (fig('poll-state').future ?? [])
		.map(
			(f) =>
				`${f.ahead} ahead: passed on ${f.futureTimes} time(s), ${f.lost} lost, ${f.duplicated} duplicated`,
		)
		.join('; ');
	const classes = [
		[
			'1. Redirects',
			'301/302/303/307/308 to another host, port or scheme, the same origin, a relative, missing, credential-carrying or 10 kB Location; through every request kind (project list, searches, exports, create, tags, the project picker, both triggers, the credential).',
			"No redirect is followed, on any request (the transport and the credential's authenticate both set disableFollowRedirect); a 3xx is an error naming the status and the target origin; the key goes only to the Base URL's origin.",
			`${fig('redirects').runs ?? '—'} cases: ${fig('redirects').requestsToOtherOrigins ?? '—'} requests, ${fig('redirects').connectionsToOtherOrigins ?? '—'} connections and ${fig('redirects').keysToOtherOrigins ?? '—'} keys reached another origin.`,
		],
		[
			'2. Path segments from input',
			'Mention IDs `.`, `..`, `%2e%2e`, `a/b`, `a?b`, `a#b`, `a%2Fb`, unicode, 600 characters, control characters; project IDs like `1001/../1002`, `-1`, `1e3`, `0x10`.',
			'Every path value goes through contract.ts pathSegment: a project ID must be a positive safe integer, anything else is percent-encoded, dot segments and empty values are refused before any request.',
			`${group('path: refused ids') ?? '—'} ids refused, ${group('path: encoded ids') ?? '—'} sent encoded as exactly one segment (the simulator's raw request target proves it), ${group('path: project IDs') ?? '—'} project IDs refused.`,
		],
		[
			'3. Secrets typed into a field',
			'A password, a token or the API key in the Base URL, in six placements; checked in message, description, cause and stack.',
			'Base URL errors quote the value through safeBaseUrlText (credentials, query and key-shaped text removed); API-key errors never quote the key.',
			`${group('Base URL: a secret typed into it') ?? '—'} cases, 0 secrets in any error.`,
		],
		[
			'4. Rate-limit resets',
			"x-rate-limit-reset in the year 3000, 1e15, in milliseconds, in the past, zero, negative, garbage, several values; absurd resets in 429 messages; remaining negative or huge; limit 0 — through the transport, the pager, the poll trigger's saved budget and the stream trigger's reconnects.",
			'A reset counts only when it lies within 65 minutes ahead and 5 minutes behind (seconds, or milliseconds when only that reading is plausible); otherwise it is unknown and the top of the next hour (D-07) stands in. Every hourly-429 wait is at least 5 s, then 20 s, 80 s …, at most 65 min; no wait reaches the timer limit. A saved budget is re-checked on every load; a stated count expires with its window (a stream reconnecting after the reset it was given does not wait for the next one).',
			`most requests or connections in any virtual hour: transport waiting ${most['transport, 429 waits'] ?? '—'}, poll trigger ${most['poll trigger, 429 with a broken reset (a poll every 5 min)'] ?? '—'}, stream trigger after hourly 429s ${most['stream trigger, reconnects after hourly 429s'] ?? '—'}, stream connections ending at once with no usable reset ${most['stream trigger, accepted connections ending at once (remaining 0, broken reset)'] ?? '—'}, with remaining 0 and a reset that passes during each connection ${most['stream trigger, accepted connections ending at once (remaining 0, reset passing each time)'] ?? '—'} (reconnect backoff); longest wait asked of the clock ${Math.round((fig('resets').longestClockWaitMs ?? 0) / 60000)} min; ${fig('resets').timeoutOverflowWarnings ?? '—'} timer overflows.`,
		],
		[
			'5. Servers that never finish',
			'A JSON page dripping a byte at a time; headers then silence; an export dripping; a stream with one endless line, only comments, only heartbeats, or bytes without events.',
			'Bytes are not progress (see "Stalls"). A JSON answer is one event: it must arrive whole within 60 s, its stall limit (a read that got nothing at all is tried 3 times; a trickle is not retried); an export fails after 120 s without a complete event and at Options → Timeout (Minutes), default 30; a live stream is replaced after its Stall Timeout without a complete event.',
			`longest hold through the nodes: Search Recent ${hold('deadlines-soak', 'action node (Mention → Search Recent)')}, poll trigger ${hold('deadlines-soak', 'SentiOne Trigger')}, Project → Create ${hold('deadlines-soak', 'action node (Project → Create)')}, export with Timeout 1 min ${hold('deadlines-soak', 'action node (Mention → Export)')}, export with Timeout 3 min (its stall limit) ${hold('deadlines-soak', 'action node (Mention → Export), stall limit')}; a stream trigger connection without events ${hold('deadlines', 'stream trigger connection without a complete event (stall 0.3 s)')} with Stall Timeout 0.3 s.`,
		],
		[
			'6. Unbounded memory and requests',
			'An endless export with Return All; endless stream data that never forms an event; the same mentions under ever-new cursors; empty pages under ever-new cursors; cursors over 4,096 characters; ever-new huge ids on the live stream.',
			"One export run holds at most Options → Max Mentions per Run (default 100,000) and reads at most Max Size (MB) (default 256, counted per chunk); paging stops after 3 pages without anything new, on a cursor seen before or longer than 4,096 characters; one run holds at most 100,000 listed items; the stream trigger's id memory holds 20,000 ids and 4 MB (long ids as SHA-256).",
			`endless export capped at 20,000 mentions: peak heap +${sse20k.heapPeakMb ?? '—'} MB, ${sse20k.seconds ?? '—'} s; Max Size 1 MB against an endless line: stopped after ${caps['Max Size 1 MB against a JSON line that never ends (≈ 12 MB/s): MB read before the run ended'] ?? '—'} MB.`,
		],
		[
			'7. A watermark that follows the server',
			'One mention collectedAt an hour or a year ahead, then ordinary mentions.',
			"The watermark never passes n8n's clock plus 5 minutes; the future mention is remembered at its real time, so it is passed on once.",
			future || '—',
		],
		[
			'8. Corrupt saved state',
			"Each field of the poll trigger's static data corrupted in turn (watermark, version, ids, floor, round, budget, mode, the whole state).",
			'loadState checks every field; what is readable is kept, the rest repaired conservatively and reported once (pollState.ts).',
			`${fig('poll-state').cases ?? '—'} cases, ${fig('poll-state').checksAfterCorruption ?? '—'} checks, ${fig('poll-state').mentionsAfterCorruption ?? '—'} mentions after the corruption: ${fig('poll-state').lost ?? '—'} lost, ${fig('poll-state').duplicated ?? '—'} duplicated.`,
		],
		[
			'9. Dates',
			'Impossible dates with and without a zone, junk around a date, Unix seconds, huge and negative numbers, NaN, invalid Date and Luxon values, years outside 1990–2100.',
			'One strict reader (time.ts readDate) for parameters, expressions, server answers (readServerInstant) and saved state; every refusal names the field and the accepted forms.',
			`${group('dates: refused') ?? '—'} refusals, ${group('dates: accepted') ?? '—'} accepted forms, ${group('dates: readDate (unit)') ?? '—'} unit cases; never "Invalid time value".`,
		],
		[
			'10. Types from expressions',
			'Lists and objects where text is expected (query, name, mention ID, tag names).',
			'parameters.ts readText refuses them naming the field; a number where an ID is expected is taken as its digits.',
			`${group('types: a list or object where text is expected') ?? '—'} cases refused, 0 requests sent.`,
		],
		[
			'11. Entries that are not objects',
			'null, numbers, strings, lists mixed into pages of searches, projects, tags and the poll trigger.',
			'The pager skips and counts them; the action node shows one notice per execution, the poll trigger one notice.',
			`${group('pages: entries that are not objects') ?? '—'} cases, never a crash, 0 lost.`,
		],
		[
			'12. Base URL mistakes',
			'An endpoint pasted beyond the API root; a host without a scheme at a plain-http server.',
			'resolveApiRoot refuses the first with the host and API root to type; a TLS failure is worded (type http:// for a plain-http server).',
			`${group('Base URL: an endpoint beyond the API root') ?? '—'} + ${group('Base URL: no scheme at a plain-http server') ?? '—'} cases.`,
		],
	];
	const seconds = (record) =>
		Object.entries(record ?? {})
			.map(([kind, s]) => `${kind} ${Number(s).toFixed(2)} s`)
			.join('; ') || '—';
	const stops = fig('stops');
	const closes = fig('shutdown').secondsFromCloseToEnd;
	const stalls = fig('stalls');
	const after = Object.values(stops.requestsAfterCancel ?? {}).reduce((a, b) => a + b, 0);
	classes.push(
		[
			'13. A stopped execution stops',
			'The user stops an execution (or its workflow timeout passes) while the node waits: for an hourly rate-limit reset (On Rate Limit = Wait), for the budget between pages, in a backoff after 503s, on pages that come slowly, on an export that never ends; a trigger closed while it waits to reconnect, for its budget, or in a gap or repair search.',
			'One wait for the whole package (shared/transport/cancel.ts, `SentiOneTransport.wait`): n8n\'s execution-cancel signal, or a trigger\'s own close, ends every wait at once; no request is sent after it; a body being read is dropped. The run ends with "The execution was stopped while …" (never an item error under Continue On Fail). Before, On Rate Limit = Wait ran on until the reset, up to Max Wait (an hour).',
			`seconds from the cancel to the end of the run: ${seconds(stops.secondsFromCancelToEnd)}; requests after the cancel: ${stops.requestsAfterCancel ? after : '—'}. A trigger's close to its end: ${seconds(closes)}.`,
		],
		[
			'14. Stalls: bytes are not progress',
			'Export, live and engagement streams (SSE and JSON lines) that drip bytes of an event that never completes, send an endless line, comments, blank lines, events of unknown kinds or unreadable ones; JSON answers (searches, the project list) trickling a byte at a time.',
			"Progress is a complete event — a mention, a heartbeat, an engagement update — never bytes. The stall limits: 120 s for an export (the action's and a trigger's catch-up), Options → Stall Timeout for a live stream (default 45 s, three heartbeats), 60 s for a JSON answer, which is one event and must arrive whole within it. The error names the limit and what had arrived (mentions, engagement updates, a pager's earlier items).",
			`seconds to the stall error with a 1 s limit: ${seconds(stalls.secondsToStallError)}. With the real limits through the nodes: export ${hold('deadlines-soak', 'action node (Mention → Export), stall limit')} (120 s limit), Search Recent ${hold('deadlines-soak', 'action node (Mention → Search Recent)')} (60 s limit).`,
		],
		[
			'15. Every computed instant is checked before it is sent',
			"Published in the Last with 1e308, 1e15, -1, NaN, Infinity, text, fractions, a period reaching before 1990, a unit no one offers; the poll trigger's Backfill (Hours) and Late Mention Window; the Stream Trigger's Backfill at Start and Stall Timeout — through expressions.",
			'One constructor of request dates (shared/time.ts toIso) refuses an instant outside 1990–2100 or not finite, so no request can carry "an invalid instant"; the fields a node computes a date or a window from are checked first and refused naming the field, before any request.',
			`${fig('instants').refused ?? '—'} absurd expressions through n8n's engine (one per node) refused naming the field; ${fig('instants').requestsReceived ?? '—'} requests reached the server. The unit tier tries every such field with 8–10 amounts each: all refused, 0 requests.`,
		],
	);
	const out = [
		'## Bounds on what the server controls',
		'',
		'Each class of value the server (or a saved state, or an expression) controls, what the hostile-server suites tried, the bound that now holds, and what they measured. The parts below hold the details.',
		'',
	];
	for (const [title, tried, bound, figure] of classes) {
		out.push(
			`### ${title}`,
			'',
			`- **Tried:** ${tried}`,
			`- **Bound:** ${bound}`,
			`- **Measured:** ${figure}`,
			'',
		);
	}
	return out;
}

/** Where the tests leave their figures (test/support/paths.ts RESULTS_DIR). */
const resultsDir = (repoRoot) => join(repoRoot, 'test', '.results');

function render(repoRoot) {
	const dir = resultsDir(repoRoot);
	const parts = existsSync(dir)
		? readdirSync(dir)
				.filter((name) => /^part-.*\.json$/.test(name))
				.map((name) => readJson(join(dir, name)))
				.filter(Boolean)
		: [];
	parts.sort((a, b) => {
		const ia = ORDER.indexOf(a.part);
		const ib = ORDER.indexOf(b.part);
		return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || String(a.part).localeCompare(String(b.part));
	});
	const secrets = readJson(join(dir, 'secrets.json'));
	const soakSecrets = readJson(join(dir, 'secrets-soak.json'));

	const out = [];
	out.push('# Reliability');
	out.push('');
	out.push(
		"What the package survives, measured by the reliability suite (`test/engine/reliability/`) against the simulator's fault injection. This file is generated from the figures the tests write (`test/.results/`, not tracked); do not edit it by hand. A test run never rewrites it: run the tests (`npm test`, `npm run test:soak`), then `npm run docs:reliability` to render it from the latest figures.",
	);
	out.push('');
	out.push(
		'- `npm test` runs every part except the soaks (≈ 3 minutes for this suite on a 2-core machine).',
	);
	out.push(
		"- `npm run test:soak` runs the soaks: the 100-drop live stream and servers that never answer, bounded only by the nodes' own timeouts (about 4 minutes; `.ci/run` runs it after `npm test`).",
	);
	out.push(
		'- "Lost" and "Duplicated" compare what the nodes emitted with the simulator\'s ground truth (`GET /__admin/mentions`); "—" where the fault concerns no mentions.',
	);
	out.push('');
	out.push(...serverBounds(parts));
	out.push('## Summary');
	out.push('');
	out.push('| Part | Fault | Through | Cases tried | Items | Lost | Duplicated | Outcome |');
	out.push('|---|---|---|---|---|---|---|---|');
	for (const part of parts) {
		for (const row of part.rows ?? []) {
			out.push(
				`| ${cell(part.title)} | ${cell(row.fault)} | ${cell(row.through)} | ${cell(row.cases)} | ${cell(row.items)} | ${cell(row.lost)} | ${cell(row.duplicated)} | ${cell(row.outcome)} |`,
			);
		}
	}
	if (secrets) {
		out.push(
			`| Secrets | an API key in any node output, error (message, description, cause), n8n log line or console output of the whole suite | every test file (\`test/setup/secrets.ts\`, checked by \`test/setup/secretsReporter.js\`) | ${cell(secrets.testFiles)} test files, ${cell(secrets.records)} records, ${cell(Math.round((secrets.characters ?? 0) / 1024))} KiB | — | ${cell(secrets.leaks)} keys found | — | searched for ${cell(secrets.keysSearched)} known keys and the key shape |`,
		);
	}
	out.push('');
	const findings = parts.flatMap((part) =>
		(part.rows ?? [])
			.filter((row) => /^BUG|by design/.test(String(row.outcome)) || (row.lost ?? 0) > 0)
			.map((row) => ({ part, row })),
	);
	if (findings.length > 0) {
		out.push('## Losses and open bugs');
		out.push('');
		out.push(
			'Every row of the summary is 0 lost and 0 duplicated except these, which the tests keep out of the 0-loss claims on purpose (a limit by design, or a bug pinned by a `test.failing` test until the shipped code is fixed):',
		);
		out.push('');
		for (const { part, row } of findings)
			out.push(
				`- **${part.title}** — ${row.fault}: ${row.outcome}${row.lost ? ` (lost ${row.lost})` : ''}.`,
			);
		out.push('');
	}
	for (const part of parts) {
		out.push(`## ${part.title}`);
		out.push('');
		out.push(`Command: \`${part.command}\` · figures of ${part.finishedAt ?? 'an unknown run'}.`);
		out.push('');
		for (const note of part.notes ?? []) out.push(`- ${note}`);
		if ((part.notes ?? []).length > 0) out.push('');
		if (part.figures) {
			out.push('<details><summary>Raw figures</summary>');
			out.push('');
			out.push('```json');
			out.push(JSON.stringify(part.figures, null, 2));
			out.push('```');
			out.push('');
			out.push('</details>');
			out.push('');
		}
	}
	if (secrets) {
		out.push('## Secrets');
		out.push('');
		out.push(
			`Whole-suite run of ${secrets.finishedAt}: ${secrets.testFiles} test files ran; ${secrets.testFilesWithRecords} of them recorded node output, errors or log lines; ${secrets.records} records (${Math.round((secrets.characters ?? 0) / 1024)} KiB) were searched for ${secrets.keysSearched} keys and the shape \`<PREFIX>-APIKEY-<body>\`: ${secrets.leaks} found. Records by kind: ${Object.entries(
				secrets.kinds ?? {},
			)
				.map(([k, n]) => `${k} ${n}`)
				.join(', ')}.`,
		);
		out.push('');
	}
	if (soakSecrets) {
		out.push(
			`The soaks (\`npm run test:soak\`, ${soakSecrets.finishedAt}) are watched the same way: ${soakSecrets.testFiles} test files, ${soakSecrets.records} records (${Math.round((soakSecrets.characters ?? 0) / 1024)} KiB), ${soakSecrets.leaks} keys found.`,
		);
		out.push('');
	}
	const path = join(repoRoot, 'docs', 'reliability.md');
	writeFileSync(path, `${out.join('\n')}\n`);
	return path;
}

module.exports = { render };

if (require.main === module) {
	const dir = resultsDir(join(__dirname, '..', '..'));
	const parts = existsSync(dir)
		? readdirSync(dir).filter((name) => /^part-.*\.json$/.test(name))
		: [];
	if (parts.length === 0) {
		process.stderr.write(
			`no figures in ${dir}: run the tests first (npm test, npm run test:soak)\n`,
		);
		process.exit(1);
	}
	const path = render(join(__dirname, '..', '..'));
	const secrets = existsSync(join(dir, 'secrets.json'))
		? 'secrets.json'
		: 'no secrets.json (a whole-suite `npm test` writes it)';
	process.stdout.write(`wrote ${path} from ${parts.length} part(s) and ${secrets}\n`);
	const missing = ORDER.filter((part) => !parts.includes(`part-${part}.json`));
	if (missing.length > 0) {
		process.stderr.write(
			`no figures for ${missing.join(', ')}: the document leaves them out (run \`npm test\` and \`npm run test:soak\` for all of them)\n`,
		);
	}
}
