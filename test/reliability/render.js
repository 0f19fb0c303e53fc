#!/usr/bin/env node
/**
 * Renders docs/reliability.md from the figures the reliability tests wrote
 * (test/reliability/.results/part-*.json, secrets.json). Run by the secrets reporter at the end of a
 * jest run that produced reliability figures, or by hand: `node test/reliability/render.js`.
 */
'use strict';

const { existsSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ORDER = ['poll', 'poll-limits', 'stream', 'stream-soak', 'stream-repair', 'paging', 'bad-input', 'hostile', 'hostile-soak', 'shutdown', 'properties', 'properties-stream'];

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
		: String(value).replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function render(repoRoot) {
	const dir = join(repoRoot, 'test', 'reliability', '.results');
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
		'What the package survives, measured by the reliability suite (`test/reliability/`) against the simulator\'s fault injection. This file is generated from the figures the tests write (`test/reliability/.results/`); do not edit it by hand — run the tests, or `node test/reliability/render.js` to render the last figures again.',
	);
	out.push('');
	out.push('- `npm test` runs every part except the soaks (≈ 3 minutes for this suite on a 2-core machine).');
	out.push('- `npm run test:reliability` runs the soaks: the 100-drop live stream and servers that never answer, bounded only by the nodes\' own timeouts (about 4 minutes; `.ci/run` runs it after `npm test`).');
	out.push('- "Lost" and "Duplicated" compare what the nodes emitted with the simulator\'s ground truth (`GET /__admin/mentions`); "—" where the fault concerns no mentions.');
	out.push('');
	out.push('## Summary');
	out.push('');
	out.push('| Part | Fault | Through | Cases tried | Items | Lost | Duplicated | Outcome |');
	out.push('|---|---|---|---|---|---|---|---|');
	for (const part of parts) {
		for (const row of part.rows ?? []) {
			out.push(`| ${cell(part.title)} | ${cell(row.fault)} | ${cell(row.through)} | ${cell(row.cases)} | ${cell(row.items)} | ${cell(row.lost)} | ${cell(row.duplicated)} | ${cell(row.outcome)} |`);
		}
	}
	if (secrets) {
		out.push(
			`| Secrets | an API key in any node output, error (message, description, cause), n8n log line or console output of the whole suite | every test file (\`test/setup/secrets.ts\`, checked by \`test/setup/secretsReporter.js\`) | ${cell(secrets.testFiles)} test files, ${cell(secrets.records)} records, ${cell(Math.round((secrets.characters ?? 0) / 1024))} KiB | — | ${cell(secrets.leaks)} keys found | — | searched for ${cell(secrets.keysSearched)} known keys and the key shape |`,
		);
	}
	out.push('');
	const findings = parts.flatMap((part) =>
		(part.rows ?? []).filter((row) => /^BUG|by design/.test(String(row.outcome)) || (row.lost ?? 0) > 0).map((row) => ({ part, row })),
	);
	if (findings.length > 0) {
		out.push('## Losses and open bugs');
		out.push('');
		out.push('Every row of the summary is 0 lost and 0 duplicated except these, which the tests keep out of the 0-loss claims on purpose (a limit by design, or a bug pinned by a `test.failing` test until the shipped code is fixed):');
		out.push('');
		for (const { part, row } of findings) out.push(`- **${part.title}** — ${row.fault}: ${row.outcome}${row.lost ? ` (lost ${row.lost})` : ''}.`);
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
			`Whole-suite run of ${secrets.finishedAt}: ${secrets.testFiles} test files ran; ${secrets.testFilesWithRecords} of them recorded node output, errors or log lines; ${secrets.records} records (${Math.round((secrets.characters ?? 0) / 1024)} KiB) were searched for ${secrets.keysSearched} keys and the shape \`<PREFIX>-APIKEY-<body>\`: ${secrets.leaks} found. Records by kind: ${Object.entries(secrets.kinds ?? {})
				.map(([k, n]) => `${k} ${n}`)
				.join(', ')}.`,
		);
		out.push('');
	}
	if (soakSecrets) {
		out.push(
			`The soaks (\`npm run test:reliability\`, ${soakSecrets.finishedAt}) are watched the same way: ${soakSecrets.testFiles} test files, ${soakSecrets.records} records (${Math.round((soakSecrets.characters ?? 0) / 1024)} KiB), ${soakSecrets.leaks} keys found.`,
		);
		out.push('');
	}
	const path = join(repoRoot, 'docs', 'reliability.md');
	writeFileSync(path, `${out.join('\n')}\n`);
	return path;
}

module.exports = { render };

if (require.main === module) {
	const path = render(join(__dirname, '..', '..'));
	process.stdout.write(`wrote ${path}\n`);
}
