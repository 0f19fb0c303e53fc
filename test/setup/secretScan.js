/**
 * What counts as an API key leak, shared by the per-test-file recorder (test/setup/secrets.ts)
 * and the end-of-run check (test/setup/secretsReporter.js). Plain CommonJS so the reporter can
 * load it without a transform.
 *
 * A leak is either
 * - one of the keys the suite knows (the simulator's keys, read from simulator/src/constants.ts,
 *   plus every key a test actually handed to the credential), or
 * - anything of the key shape `<PREFIX>-APIKEY-<body>` whose body starts with a letter or a digit:
 *   the bare prefix in guidance texts ("a prefix such as SENTIONE-APIKEY- followed by…",
 *   "…the prefix SENTIONE-APIKEY-.") and "[redacted API key]" are not keys.
 */
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const KEY_SHAPE = /[A-Za-z0-9]+-APIKEY-[A-Za-z0-9_][^\s"'`,;&)<>\]}\\]*/g;

/** Keys shorter than this are not searched for verbatim (too likely to match by chance). */
const MIN_SECRET_LENGTH = 12;

/** The keys the simulator recognises (simulator/src/constants.ts, KEYS). */
function simulatorKeys(repoRoot) {
	let text = '';
	try {
		text = readFileSync(join(repoRoot, 'simulator', 'src', 'constants.ts'), 'utf8');
	} catch {
		return [];
	}
	const keys = new Set();
	for (const match of text.matchAll(/'([A-Z0-9]+-APIKEY-[^'\s]+)'/g)) keys.add(match[1]);
	return [...keys];
}

/**
 * Whether a value a test handed to the credential is searched for verbatim: long enough not to
 * match by chance, and more than a bare prefix ("SENTIONE-APIKEY-" alone, which tests use as an
 * ill-shaped key, is also part of the node's guidance texts).
 */
function isSecret(value) {
	if (typeof value !== 'string') return false;
	const key = value.trim();
	return key.length >= MIN_SECRET_LENGTH && !/^[A-Za-z0-9]*-?APIKEY-?$/.test(key);
}

/**
 * A key shown in a report: its prefix and length, never its body (so a report is not itself a
 * leak: "SENTIONE-APIKEY-…" does not have the key shape).
 */
function mask(key) {
	const at = key.indexOf('-APIKEY-');
	if (at >= 0) return `${key.slice(0, at + 8)}…(${key.length} chars)`;
	return `${key.slice(0, 3)}…(${key.length} chars)`;
}

function excerpt(text, at, length) {
	const before = text.slice(Math.max(0, at - 80), at).replace(/\s+/g, ' ');
	const after = text.slice(at + length, at + length + 40).replace(/\s+/g, ' ');
	return `…${before}<KEY>${after}…`;
}

/**
 * Every leak in `text`: the known secrets verbatim, and the key shape. Returns at most `max`
 * findings, each `{ what, excerpt }` with the key itself masked.
 */
function findLeaks(text, secrets, max = 5) {
	const found = [];
	if (typeof text !== 'string' || text === '') return found;
	for (const secret of secrets) {
		if (!isSecret(secret)) continue;
		const at = text.indexOf(secret);
		if (at >= 0)
			found.push({ what: `known key ${mask(secret)}`, excerpt: excerpt(text, at, secret.length) });
		if (found.length >= max) return found;
	}
	if (text.includes('-APIKEY-')) {
		for (const match of text.matchAll(KEY_SHAPE)) {
			found.push({
				what: `key-shaped text ${mask(match[0])}`,
				excerpt: excerpt(text, match.index, match[0].length),
			});
			if (found.length >= max) break;
		}
	}
	return found;
}

module.exports = { KEY_SHAPE, MIN_SECRET_LENGTH, simulatorKeys, findLeaks, isSecret, mask };
