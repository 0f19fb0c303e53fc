/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The one marker convention of the generated documents (scripts/docs/markers.js) and the renderer
 * that fills them (scripts/docs/render.js): only what lies between a block's two markers changes,
 * byte for byte; a malformed or missing marker is reported, naming the document; a block whose
 * figures are absent keeps the (dated) figures it holds, so rendering with no new results changes
 * nothing; a block that never held figures says so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	NOT_MEASURED,
	blockNames,
	endMarker,
	fillBlocks,
	headingOf,
	startMarker,
} from '../../../../scripts/docs/markers';
import { Results } from '../../../../scripts/docs/parts';
import { DOCUMENTS, renderDocument } from '../../../../scripts/docs/render';

const block = (name: string, body = '') => `${startMarker(name)}\n${body}${endMarker(name)}`;

/** Prose with what a hand-written page holds: CRLF, trailing spaces, tabs, no final newline. */
const PROSE = [
	'# Title\r\n\r\nProse with a trailing space \nand\ta tab.\n\n',
	'\n\nMore prose, `<!-- not a marker -->`, a table:\n\n| a | b |\n|---|---|\n\n',
	'\nThe end, without a final newline',
];

describe('fillBlocks', () => {
	test('leaves every byte outside the blocks as it was', () => {
		const text = `${PROSE[0]}${block('one', 'old figures\n')}${PROSE[1]}${block('two', 'x\n')}${PROSE[2]}`;
		const { text: out, measured } = fillBlocks(text, (name) => `new figures of ${name}`);
		expect(measured).toEqual(['one', 'two']);
		expect(out).toBe(
			`${PROSE[0]}${block('one', 'new figures of one\n')}${PROSE[1]}${block('two', 'new figures of two\n')}${PROSE[2]}`,
		);
		// what lies outside the blocks is the same string, whatever was inside them before
		const outside = (t: string) => t.split(/<!-- figures:[a-z-]+:start -->[\s\S]*?:end -->/);
		expect(outside(out)).toEqual(outside(text));
		expect(outside(out)).toEqual(PROSE);
	});

	test('is idempotent: rendering twice gives the same text', () => {
		const text = `${PROSE[0]}${block('one')}${PROSE[2]}`;
		const render = () => 'line 1\nline 2\n\n';
		const once = fillBlocks(text, render).text;
		expect(fillBlocks(once, render).text).toBe(once);
		expect(once).toBe(`${PROSE[0]}${block('one', 'line 1\nline 2\n')}${PROSE[2]}`);
	});

	test('a block whose figures are absent keeps the figures it holds, byte for byte', () => {
		const text = `${PROSE[0]}${block('caps', 'Measured on a day.\r\n\r\n| 12 | 34 |\n')}${PROSE[2]}`;
		const seen: string[] = [];
		const out = fillBlocks(text, (_name, previous) => {
			seen.push(previous);
			return undefined;
		});
		expect(seen).toEqual(['Measured on a day.\r\n\r\n| 12 | 34 |']);
		expect(out).toMatchObject({ kept: ['caps'], measured: [], notMeasured: [] });
		expect(out.text).toBe(text);
	});

	test('a block that never held figures gets the not-measured line, and keeps it', () => {
		const text = `${PROSE[0]}${block('caps')}${PROSE[2]}`;
		const how = (name: string) => `no test/.results/part-${name}.json`;
		const out = fillBlocks(text, () => undefined, { how });
		expect(out).toMatchObject({ notMeasured: ['caps'], kept: [], measured: [] });
		expect(out.text).toBe(
			`${PROSE[0]}${block('caps', `_${NOT_MEASURED} (no test/.results/part-caps.json)._\n`)}${PROSE[2]}`,
		);
		// the not-measured line is no figure: rendering again without figures says it again
		const again = fillBlocks(out.text, () => undefined, { how });
		expect(again).toMatchObject({ text: out.text, notMeasured: ['caps'], kept: [] });
		// and figures replace it once they exist
		expect(fillBlocks(out.text, () => '| 1 |').text).toBe(
			`${PROSE[0]}${block('caps', '| 1 |\n')}${PROSE[2]}`,
		);
	});

	test('reports the blocks the caller renders but the document lacks', () => {
		const out = fillBlocks(`${PROSE[0]}${block('summary')}`, () => 'x', {
			required: ['summary', 'findings', 'secrets'],
		});
		expect(out.missing).toEqual(['findings', 'secrets']);
	});

	test.each([
		[
			'a start without its end',
			`${startMarker('a')}\ntext`,
			/docs\/x\.md: .*a:start.* has no .*a:end/,
		],
		[
			'an end without its start',
			`text\n${endMarker('a')}`,
			/docs\/x\.md, line 2: .*a:end.* not open/,
		],
		[
			'a block inside another',
			`${startMarker('a')}\n${startMarker('b')}\n${endMarker('b')}\n${endMarker('a')}`,
			/line 2: .*b:start.* inside "a"/,
		],
		['a name used twice', `${block('a')}\n${block('a')}`, /line 3: .*a second block named "a"/],
		['ends crossed', `${startMarker('a')}\n${endMarker('b')}`, /line 2: .*b:end.* \("a" is\)/],
		['a name in capitals', block('Caps'), /line 1: .*a block name is lower case/],
	])('%s is refused, naming the document and the line', (_what, text, message) => {
		expect(() => fillBlocks(text, () => 'x', { doc: 'docs/x.md' })).toThrow(message);
		expect(() => blockNames(text, 'docs/x.md')).toThrow(message);
	});
});

describe('render.js on a document of parts', () => {
	let root: string;
	let results: string;

	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), 'docs-render-'));
		results = join(root, '.results');
		mkdirSync(join(root, 'docs'));
		mkdirSync(results);
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	// docs/triggers.md's own block (delivery, scripts/docs/triggers.js) must be there too
	const page = `# Triggers\n\nHand-written, kept.\n\n${block('trigger-poll', 'old poll table\n')}\n\nBetween.\n\n${block('trigger-stream', '| 99 | old |\n')}\n\n${block('delivery', 'kept\n')}\n`;

	test('a part present is rendered; a part absent keeps what it held; the prose is kept', () => {
		writeFileSync(join(root, 'docs', 'triggers.md'), page);
		writeFileSync(
			join(results, 'part-trigger-poll.json'),
			JSON.stringify({
				part: 'trigger-poll',
				title: 'Poll',
				command: 'npx jest test/engine/trigger/poll.test.ts',
				finishedAt: '2026-11-26T21:40:00.000Z',
				rows: [
					{
						fault: 'a backlog',
						through: 'SentiOne Trigger',
						cases: 1,
						items: 130,
						lost: 0,
						duplicated: 0,
						outcome: 'oldest first',
					},
				],
			}),
		);
		const out = renderDocument('triggers', new Results(results), root);
		expect(out).toMatchObject({
			changed: true,
			measured: ['trigger-poll'],
			kept: ['trigger-stream', 'delivery'],
			notMeasured: [],
		});
		expect(out.text).toContain(
			'Measured by `npx jest test/engine/trigger/poll.test.ts`, last run 2026-11-26 21:40 UTC.',
		);
		expect(out.text).toContain('| a backlog | SentiOne Trigger | 1 | 130 | 0 | 0 | oldest first |');
		expect(out.text).not.toContain('old poll table');
		expect(out.text).toContain(
			`${startMarker('trigger-stream')}\n| 99 | old |\n${endMarker('trigger-stream')}`,
		);
		expect(out.text.startsWith('# Triggers\n\nHand-written, kept.\n\n')).toBe(true);
		expect(out.text).toContain(`${endMarker('trigger-poll')}\n\nBetween.\n\n`);
		// the same results again: nothing changes
		writeFileSync(join(root, 'docs', 'triggers.md'), out.text);
		expect(renderDocument('triggers', new Results(results), root)).toMatchObject({
			changed: false,
			text: out.text,
		});
	});

	test('with no results at all (a fresh clone), a document is left as it is', () => {
		writeFileSync(join(root, 'docs', 'triggers.md'), page);
		const out = renderDocument('triggers', new Results(join(root, 'absent')), root);
		expect(out).toMatchObject({
			changed: false,
			text: page,
			kept: ['trigger-poll', 'trigger-stream', 'delivery'],
		});
	});
});

describe('the documents of the repository', () => {
	// no results: every figure is kept, and the bounds quoted from the code are read anew; a
	// constant changed without `npm run docs` fails here, naming the document
	test.each(Object.entries(DOCUMENTS).map(([name, doc]) => [doc.file, name]))(
		'%s is as `npm run docs` renders it',
		(_file, name) => {
			const out = renderDocument(name, new Results(join(tmpdir(), 'no-results-here')));
			expect(out.changed).toBe(false);
		},
	);
});

describe('headingOf', () => {
	test('names a block by the last heading written above it', () => {
		const text = `# Page\n\n## Caps (answers that never end) ##\n\nProse.\n\n${block('caps')}\n### Later\n${block('b')}`;
		expect(headingOf(text, 'caps')).toBe('Caps (answers that never end)');
		expect(headingOf(text, 'b')).toBe('Later');
		expect(headingOf(`${block('a')}`, 'a')).toBeUndefined();
		expect(headingOf(text, 'absent')).toBeUndefined();
	});
});
