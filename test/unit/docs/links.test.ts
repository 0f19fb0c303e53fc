/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * Every relative link of the repository's markdown resolves: the file or folder it names exists,
 * and an anchor into a markdown file names one of its headings (as GitHub makes anchors of them).
 * A topic moved to another file (docs/releasing.md into CONTRIBUTING.md) leaves no link behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { REPO_ROOT } from '../../support/paths';

/** The markdown the repository documents itself with (not node_modules, not build output). */
function markdownFiles(): string[] {
	const top = readdirSync(REPO_ROOT).filter((name) => name.endsWith('.md'));
	const inFolder = (folder: string) =>
		existsSync(join(REPO_ROOT, folder))
			? readdirSync(join(REPO_ROOT, folder))
					.filter((name) => name.endsWith('.md'))
					.map((name) => `${folder}/${name}`)
			: [];
	return [...top, ...inFolder('docs'), ...inFolder('simulator'), ...inFolder('bench')];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[`*_~]|<[^>]*>/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a markdown file, with GitHub's -1, -2 … for a heading repeated. */
function anchorsOf(file: string): Set<string> {
	const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
		const base = slug(heading);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		anchors.add(n === 0 ? base : `${base}-${n}`);
	}
	return anchors;
}

/** The relative links of a markdown file, outside code: `[text](target)` and `[name]: target`. */
function linksOf(file: string): Array<{ line: number; target: string }> {
	const text = readFileSync(join(REPO_ROOT, file), 'utf8');
	const links: Array<{ line: number; target: string }> = [];
	let fenced = false;
	text.split('\n').forEach((raw, i) => {
		if (/^\s*```/.test(raw)) fenced = !fenced;
		if (fenced) return;
		const line = raw.replace(/`[^`]*`/g, '');
		const targets = [
			...[...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
			...[...line.matchAll(/^\[[^\]]+\]:\s+(\S+)/g)].map((m) => m[1]),
		];
		for (const target of targets)
			if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line: i + 1, target });
	});
	return links;
}

const files = markdownFiles();

test('the markdown files are found', () => {
	expect(files).toEqual(
		expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'docs/triggers.md']),
	);
});

test.each(files)('every relative link of %s resolves', (file) => {
	const broken: string[] = [];
	for (const { line, target } of linksOf(file)) {
		const [path, anchor] = target.split('#') as [string, string | undefined];
		const resolved = path === '' ? join(REPO_ROOT, file) : join(REPO_ROOT, dirname(file), path);
		const where = `${file}:${line} → ${target}`;
		if (!existsSync(resolved)) {
			broken.push(`${where}: no ${relative(REPO_ROOT, resolved)}`);
			continue;
		}
		if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
			if (!anchorsOf(resolved).has(decodeURIComponent(anchor)))
				broken.push(`${where}: no heading with the anchor #${anchor}`);
		}
	}
	expect(broken).toEqual([]);
});

test('a heading becomes the anchor GitHub gives it', () => {
	expect(slug('The SentiOne node: operations')).toBe('the-sentione-node-operations');
	expect(slug('docs/triggers.md, "Guarantees and their limits"')).toBe(
		'docstriggersmd-guarantees-and-their-limits',
	);
	expect(slug('Tag (Enterprise tier)')).toBe('tag-enterprise-tier');
	expect(slug('`npm test` — Runs')).toBe('npm-test--runs');
});
