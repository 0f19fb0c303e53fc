/**
 * Filters → request body, for arbitrary filter combinations (fast-check):
 * - any valid combination of the Filters collection (as n8n hands it to the node: multi-select
 *   arrays, comma/space separated codes in any case and with repeats, queries of the Listen query
 *   language, dates as ISO strings or zone-less wall-clock strings, "Published in the Last")
 *   becomes exactly the D-14 shape of docs/api-contract.md — each field where the contract puts it,
 *   values de-duplicated, codes normalised, dates in UTC with milliseconds and Z, nothing empty —
 *   and the simulator accepts that body (its own validator, through POST /__admin/count, which
 *   spends no budget); a sample also goes through the action node in n8n's engine, whose request
 *   body the simulator logs;
 * - any combination with one invalid value is refused locally, naming the filter.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	MENTION_TYPES,
	RECENT_WINDOW_MS,
	RECENT_WINDOW_SAFETY_MARGIN_MS,
	SENTIMENTS,
	SOURCE_TYPES,
} from '../../../nodes/SentiOne/shared/contract';
import type { FilterScope } from '../../../nodes/SentiOne/shared/filters';
import { widenCollectedAt } from '../../../nodes/SentiOne/shared/verify';
import { buildFilters } from '../../../nodes/SentiOne/shared/filters';
import { admin, type Sim, clearLog, requestLog } from '../../support/simulator';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { NOW_MS, HOUR, DAY, iso } from '../../support/time';
import { useSimulator } from '../../support/simClock';
import { actionNodeOf } from '../../support/fake/context';
import { writePart } from '../../support/results';
import { ENTERPRISE } from '../../support/keys';

jest.setTimeout(120_000);

const EARLIEST_RECENT = NOW_MS - RECENT_WINDOW_MS + RECENT_WINDOW_SAFETY_MARGIN_MS;
const node = actionNodeOf('n');

let sim: Sim;
const figures: Record<string, number> = {};

useSimulator(['--projects', '1', '--mentions', '300'], (started) => (sim = started), {
	reset: 'none',
});
beforeAll(async () => {
	await admin(sim, 'POST', '/limits', { mode: 'off' });
});
afterAll(async () => {
	writePart({
		part: 'properties',
		title: 'Property tests: filters → request body',
		command: 'npx jest test/engine/reliability/filters.property.test.ts',
		rows: [
			{
				fault: 'arbitrary valid filter combinations (recent, historical, live)',
				through: "buildFilters; the simulator's validator",
				cases: figures.valid ?? 0,
				outcome:
					'the D-14 shape, values exactly as given (de-duplicated, normalised); accepted by the simulator',
			},
			{
				fault: 'arbitrary valid filter combinations, through the action node',
				through: "Search Recent / Historical in n8n's engine",
				cases: figures.engine ?? 0,
				outcome: 'the body the simulator logged is the D-14 shape; 200',
			},
			{
				fault: 'arbitrary combinations with one invalid value',
				through: 'buildFilters',
				cases: figures.invalid ?? 0,
				outcome: 'refused locally, naming the filter',
			},
		],
	});
});

// --- generators ---------------------------------------------------------------------------------

const word = fc.stringMatching(/^[a-z][a-z0-9ąęłóśżź]{0,7}$/);
const longWord = fc.stringMatching(/^[a-z]{4,8}$/);
type Q = { text: string };
const queryArb: fc.Arbitrary<string> = fc
	.letrec<{ q: Q; leaf: Q }>((tie) => ({
		leaf: fc.oneof(
			{ weight: 4, arbitrary: word.map((w) => ({ text: w })) },
			{
				weight: 1,
				arbitrary: fc
					.array(word, { minLength: 1, maxLength: 3 })
					.map((ws) => ({ text: `"${ws.join(' ')}"` })),
			},
			{ weight: 1, arbitrary: longWord.map((w) => ({ text: `${w}*` })) },
		),
		q: fc.oneof(
			{ depthSize: 'small', withCrossShrink: true },
			{ weight: 3, arbitrary: tie('leaf') },
			{
				weight: 1,
				arbitrary: fc
					.tuple(tie('q'), fc.constantFrom(' AND ', ' OR ', ' '), tie('q'))
					.map(([a, op, b]) => ({ text: `${a.text}${op}${b.text}` })),
			},
			{ weight: 1, arbitrary: tie('q').map((a) => ({ text: `(${a.text})` })) },
			{
				weight: 1,
				arbitrary: fc
					.tuple(tie('leaf'), tie('q'))
					.map(([a, b]) => ({ text: `${a.text} NOT ${b.text}` })),
			},
		),
	}))
	.q.map((q) => q.text)
	.filter((q) => q.length <= 250);

const spaced = (values: string[], seps: string[]) =>
	values.map((v, i) => (i === 0 ? v : `${seps[i % seps.length]}${v}`)).join('');
const LANGUAGES = [
	'en',
	'pl',
	'de',
	'en-gb',
	'fr',
	'es',
	'it',
	'pt',
	'nl',
	'sv',
	'uk',
	'pt-br',
	'zh-hant',
];
const COUNTRIES = ['PL', 'US', 'GB', 'DE', 'FR', 'ES', 'IT', 'SE', 'UA', 'NL'];
const randomCase = (s: string) =>
	fc
		.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
		.map((flags) => [...s].map((c, i) => (flags[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const codeList = (codes: string[]) =>
	fc
		.tuple(
			fc.array(fc.constantFrom(...codes), { minLength: 1, maxLength: 5 }),
			fc.array(fc.constantFrom(',', ', ', ';', ' ', ' ,'), { minLength: 1, maxLength: 3 }),
		)
		.chain(([values, seps]) =>
			fc.tuple(...values.map(randomCase)).map((cased) => ({ text: spaced(cased, seps), values })),
		);

interface DateChoice {
	raw: IDataObject;
	publishedFrom?: number;
	publishedTo?: number;
	collectedFrom?: number;
	collectedTo?: number;
}

/** as the n8n date picker gives it (wall clock, no zone; the workflow is in UTC here) or as an ISO string with Z */
const asInput = (ms: number) =>
	fc.constantFrom(
		iso(ms),
		iso(Math.floor(ms / 1000) * 1000).replace(/\.000Z$/, ''),
		iso(ms).replace('Z', '+00:00'),
	);
const floorSecondIfWallClock = (text: string, ms: number) =>
	text.endsWith('Z') || text.endsWith('+00:00') ? ms : Math.floor(ms / 1000) * 1000;

function datesArb(scope: 'recent' | 'historical'): fc.Arbitrary<DateChoice> {
	const low = scope === 'recent' ? EARLIEST_RECENT : NOW_MS - 400 * DAY;
	const instant = (min: number, max: number) =>
		fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
	return fc.oneof(
		fc.constant<DateChoice>({ raw: {} }),
		// Published After [and Before]
		instant(low + 1000, NOW_MS - 2000).chain((from) =>
			fc
				.tuple(
					asInput(from),
					fc.option(
						instant(from + 1000, NOW_MS + 2 * DAY).chain((to) =>
							asInput(to).map((t) => ({ t, to })),
						),
					),
				)
				.map(([f, before]) => {
					const publishedFrom = floorSecondIfWallClock(f, from);
					const choice: DateChoice = { raw: { publishedAfter: f }, publishedFrom };
					if (before) {
						choice.raw.publishedBefore = before.t;
						choice.publishedTo = floorSecondIfWallClock(before.t, before.to);
					}
					return choice;
				}),
		),
		// Published in the Last
		fc
			.tuple(
				fc.constantFrom('hours', 'days'),
				fc.integer({ min: 1, max: scope === 'recent' ? 7 : 500 }),
			)
			.map(([unit, n]) => {
				const amount = unit === 'hours' ? n * (scope === 'recent' ? 24 : 1) : n;
				const span = amount * (unit === 'days' ? DAY : HOUR);
				const publishedFrom =
					scope === 'recent' ? Math.max(NOW_MS - span, EARLIEST_RECENT) : NOW_MS - span;
				return { raw: { publishedInLast: { period: { amount, unit } } }, publishedFrom };
			}),
		// Collected After [and Before]
		instant(NOW_MS - 30 * DAY, NOW_MS - 2000).chain((from) =>
			fc
				.tuple(
					asInput(from),
					fc.option(
						instant(from + 1000, NOW_MS + DAY).chain((to) => asInput(to).map((t) => ({ t, to }))),
					),
				)
				.map(([f, before]) => {
					const choice: DateChoice = {
						raw: { collectedAfter: f },
						collectedFrom: floorSecondIfWallClock(f, from),
					};
					if (before) {
						choice.raw.collectedBefore = before.t;
						choice.collectedTo = floorSecondIfWallClock(before.t, before.to);
					}
					return choice;
				}),
		),
	);
}

interface Valid {
	scope: FilterScope;
	raw: IDataObject;
	dates: DateChoice;
	sourceTypes?: string[];
	mentionTypes?: string[];
	sentiments?: string[];
	query?: string;
	languages?: string[];
	countries?: string[];
}

const subset = <T>(values: readonly T[]) =>
	fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: values.length + 2 });

function validArb(scope: FilterScope): fc.Arbitrary<Valid> {
	return fc
		.record(
			{
				dates: scope === 'live' ? fc.constant<DateChoice>({ raw: {} }) : datesArb(scope),
				sourceTypes: subset(SOURCE_TYPES),
				mentionTypes: subset(MENTION_TYPES),
				sentiments: subset(SENTIMENTS),
				query: fc
					.tuple(fc.constantFrom('', ' ', '  '), queryArb, fc.constantFrom('', ' '))
					.map(([a, q, b]) => `${a}${q}${b}`),
				languages: codeList(LANGUAGES),
				countries: codeList(COUNTRIES),
			},
			{ requiredKeys: ['dates'] },
		)
		.map((v) => {
			const raw: IDataObject = { ...v.dates.raw };
			if (v.sourceTypes) raw.sourceTypes = v.sourceTypes;
			if (v.mentionTypes) raw.mentionTypes = v.mentionTypes;
			if (v.sentiments) raw.sentiments = v.sentiments;
			if (v.query !== undefined) raw.query = v.query;
			if (v.languages) raw.languages = v.languages.text;
			if (v.countries) raw.countries = v.countries.text;
			return {
				scope,
				raw,
				dates: v.dates,
				sourceTypes: v.sourceTypes,
				mentionTypes: v.mentionTypes,
				sentiments: v.sentiments,
				query: v.query,
				languages: v.languages?.values,
				countries: v.countries?.values,
			};
		});
}

const unique = <T>(list: T[]) => [...new Set(list)];

/** The D-14 body the contract prescribes for a valid choice, built independently of the node. */
function expectedBody(v: Valid): IDataObject {
	const body: IDataObject = {};
	const range = (from?: number, to?: number) => {
		const r: IDataObject = {};
		if (from !== undefined) r.from = iso(from);
		if (to !== undefined) r.to = iso(to);
		return Object.keys(r).length > 0 ? r : undefined;
	};
	const published = range(v.dates.publishedFrom, v.dates.publishedTo);
	if (published) body.publishedAt = published;
	const collected = range(v.dates.collectedFrom, v.dates.collectedTo);
	if (collected) body.collectedAt = collected;
	if (v.sourceTypes) body.source = { type: unique(v.sourceTypes) };
	if (v.mentionTypes) body.type = unique(v.mentionTypes);
	const content: IDataObject = {};
	if (v.sentiments) content.sentiment = unique(v.sentiments);
	if (v.query !== undefined && v.query.trim() !== '') content.query = v.query.trim();
	if (v.languages)
		content.language = unique(v.languages.map((c) => c.toLowerCase())).map((code) => ({ code }));
	if (Object.keys(content).length > 0) body.content = content;
	if (v.countries)
		body.location = {
			country: unique(v.countries.map((c) => c.toUpperCase())).map((code) => ({ code })),
		};
	return body;
}

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The D-14 shape, checked field by field (what a body may contain and how). */
function expectD14Shape(body: IDataObject): void {
	const allowed = ['publishedAt', 'collectedAt', 'source', 'type', 'content', 'location'];
	for (const key of Object.keys(body)) expect(allowed).toContain(key);
	for (const key of ['publishedAt', 'collectedAt']) {
		const r = body[key] as IDataObject | undefined;
		if (!r) continue;
		expect(Object.keys(r).every((k) => k === 'from' || k === 'to')).toBe(true);
		for (const v of Object.values(r)) expect(String(v)).toMatch(ISO_MS_Z);
		if (r.from && r.to) expect(Date.parse(String(r.from))).toBeLessThan(Date.parse(String(r.to)));
	}
	const arrays: Array<[unknown, readonly string[] | RegExp]> = [
		[(body.source as IDataObject | undefined)?.type, SOURCE_TYPES],
		[body.type, MENTION_TYPES],
		[(body.content as IDataObject | undefined)?.sentiment, SENTIMENTS],
	];
	for (const [list, allowedValues] of arrays) {
		if (list === undefined) continue;
		expect(Array.isArray(list) && list.length > 0).toBe(true);
		expect(new Set(list as string[]).size).toBe((list as string[]).length);
		for (const v of list as string[]) expect(allowedValues as readonly string[]).toContain(v);
	}
	const language = (body.content as IDataObject | undefined)?.language as IDataObject[] | undefined;
	if (language) for (const l of language) expect(l.code).toMatch(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/);
	const country = (body.location as IDataObject | undefined)?.country as IDataObject[] | undefined;
	if (country) for (const c of country) expect(c.code).toMatch(/^[A-Z]{2}$/);
	if (body.source) expect(Object.keys(body.source as IDataObject)).toEqual(['type']);
	if (body.location) expect(Object.keys(body.location as IDataObject)).toEqual(['country']);
	const query = (body.content as IDataObject | undefined)?.query;
	if (query !== undefined) expect(String(query)).toBe(String(query).trim());
}

// --- properties ---------------------------------------------------------------------------------

describe.each(['recent', 'historical', 'live'] as FilterScope[])(
	'%s: any valid combination',
	(scope) => {
		test('becomes exactly the D-14 body, and the simulator accepts it', async () => {
			let runs = 0;
			await fc.assert(
				fc.asyncProperty(validArb(scope), async (v) => {
					runs++;
					const body = buildFilters(v.raw, { node, timezone: 'UTC', now: NOW_MS, scope });
					expectD14Shape(body);
					expect(body).toEqual(expectedBody(v));
					const res = await fetch(`${sim.base}/__admin/count`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({
							projectId: 1001,
							mode: scope === 'historical' ? 'historical' : 'recent',
							filters: body,
						}),
					});
					const text = await res.text();
					if (res.status !== 200)
						throw new Error(`the simulator refused ${JSON.stringify(body)}: ${res.status} ${text}`);
				}),
				{ numRuns: 150, seed: 20261121 + scope.length },
			);
			figures.valid = (figures.valid ?? 0) + runs;
		});
	},
);

test("a sample goes through the action node in n8n's engine: the body the simulator logged is the D-14 body (collectedAt widened), answered 200", async () => {
	const samples = fc.sample(
		fc.tuple(
			fc.constantFrom('recent', 'historical') as fc.Arbitrary<'recent' | 'historical'>,
			fc.integer({ min: 0, max: 1_000_000 }),
		),
		{ numRuns: 16, seed: 7 },
	);
	for (const [scope, n] of samples) {
		const [v] = fc.sample(validArb(scope), { numRuns: 1, seed: n });
		await clearLog(sim);
		const workflow = withParameters(
			loadWorkflow(scope === 'recent' ? 'mention-search-recent' : 'mention-search-historical'),
			{
				project: { __rl: true, value: '1001', mode: 'id' },
				limit: 5,
				filters: v.raw,
			},
		);
		const result = await run(sim, workflow, { key: ENTERPRISE });
		expect(result.nodeError(NODE)).toBeUndefined();
		const [request] = await requestLog(sim);
		expect(request.status).toBe(200);
		// on the wire collectedAt is widened by whole seconds (verify.ts widenCollectedAt); the exact
		// range is applied to what comes back
		expect(request.body.filters).toEqual(widenCollectedAt({ filters: expectedBody(v) }).filters);
		expectD14Shape(request.body.filters as IDataObject);
	}
	figures.engine = samples.length;
});

type Broken = { field: string; raw: IDataObject; scope: 'recent' | 'historical' | 'live' };

const notInEnum = (values: readonly string[]) =>
	fc.oneof(
		fc
			.constantFrom(...values)
			.chain((v) => randomCase(v))
			.filter((v) => !values.includes(v)),
		fc.stringMatching(/^[A-Za-z]{1,10}$/).filter((v) => !values.includes(v)),
	);

const invalidQuery = fc.oneof(
	queryArb.map((q) => `${q} AND`),
	queryArb.map((q) => `OR ${q}`),
	queryArb.map((q) => `(${q}`),
	queryArb.map((q) => `${q})`),
	queryArb.map((q) => `${q} "unfinished`),
	queryArb.map((q) => `${q} ()`),
	fc.stringMatching(/^[a-z]{1,3}$/).map((w) => `${w}*`),
	fc.stringMatching(/^[a-z]{1,4}\*[a-z]{1,4}$/),
	fc.constant('x'.repeat(251)),
);

const brokenArb: fc.Arbitrary<Broken> = fc.oneof(
	fc
		.tuple(
			fc.constantFrom('recent', 'historical', 'live') as fc.Arbitrary<Broken['scope']>,
			notInEnum(SOURCE_TYPES),
		)
		.map(([scope, bad]) => ({ scope, field: 'Source Types', raw: { sourceTypes: ['X', bad] } })),
	fc
		.tuple(
			fc.constantFrom('recent', 'live') as fc.Arbitrary<Broken['scope']>,
			notInEnum(MENTION_TYPES),
		)
		.map(([scope, bad]) => ({ scope, field: 'Mention Types', raw: { mentionTypes: [bad] } })),
	fc
		.tuple(
			fc.constantFrom('historical', 'live') as fc.Arbitrary<Broken['scope']>,
			notInEnum(SENTIMENTS),
		)
		.map(([scope, bad]) => ({
			scope,
			field: 'Sentiments',
			raw: { sentiments: ['Positive', bad] },
		})),
	fc.constantFrom('english', 'e', 'en_gb', '12', 'en-', 'pl-abcdefghi').map((bad) => ({
		scope: 'recent' as const,
		field: 'Languages',
		raw: { languages: `en, ${bad}` },
	})),
	fc.constantFrom('POL', 'P', '1A', 'Poland', 'P-L').map((bad) => ({
		scope: 'historical' as const,
		field: 'Countries',
		raw: { countries: `PL ${bad}` },
	})),
	fc
		.tuple(
			fc.constantFrom('recent', 'historical', 'live') as fc.Arbitrary<Broken['scope']>,
			invalidQuery,
		)
		.map(([scope, query]) => ({ scope, field: 'Content Query', raw: { query } })),
	fc
		.constantFrom('yesterday', '2026-02-30T00:00:00', '31/12/2026', '2026-11-21T25:00:00', 'now')
		.map((bad) => ({
			scope: 'historical' as const,
			field: 'Published After',
			raw: { publishedAfter: bad },
		})),
	fc.integer({ min: 1, max: 300 * DAY }).map((back) => ({
		scope: 'recent' as const,
		field: 'Published After',
		raw: { publishedAfter: iso(EARLIEST_RECENT - back) },
	})),
	fc.integer({ min: 1000, max: 300 * DAY }).map((ahead) => ({
		scope: 'historical' as const,
		field: 'Published After',
		raw: { publishedAfter: iso(NOW_MS + ahead) },
	})),
	fc.integer({ min: 0, max: 30 * DAY }).map((gap) => ({
		scope: 'historical' as const,
		field: 'Published Before',
		raw: {
			publishedAfter: iso(NOW_MS - 31 * DAY + gap),
			publishedBefore: iso(NOW_MS - 31 * DAY),
		},
	})),
	fc.integer({ min: 0, max: 5 * DAY }).map((gap) => ({
		scope: 'recent' as const,
		field: 'Collected Before',
		raw: { collectedAfter: iso(NOW_MS - 6 * DAY + gap), collectedBefore: iso(NOW_MS - 6 * DAY) },
	})),
	fc.integer({ min: 1000, max: 30 * DAY }).map((ahead) => ({
		scope: 'historical' as const,
		field: 'Collected After',
		raw: { collectedAfter: iso(NOW_MS + ahead) },
	})),
	fc.oneof(fc.integer({ min: -1000, max: 0 }), fc.constant('soon')).map((amount) => ({
		scope: 'historical' as const,
		field: 'Published in the Last',
		raw: { publishedInLast: { period: { amount, unit: 'days' } } },
	})),
	fc.integer({ min: 8, max: 1000 }).map((days) => ({
		scope: 'recent' as const,
		field: 'Published in the Last',
		raw: { publishedInLast: { period: { amount: days, unit: 'days' } } },
	})),
	fc.integer({ min: 1, max: 100 }).map((hours) => ({
		scope: 'historical' as const,
		field: 'Published in the Last',
		raw: {
			publishedAfter: iso(NOW_MS - DAY),
			publishedInLast: { period: { amount: hours, unit: 'hours' } },
		},
	})),
);

test('any combination with one invalid value is refused locally, naming the filter', () => {
	let runs = 0;
	fc.assert(
		fc.property(brokenArb, validArb('historical'), (broken, valid) => {
			runs++;
			// the invalid value among valid ones (dates of the valid part only where the broken one has none)
			const raw: IDataObject = { ...valid.raw, ...broken.raw };
			if (
				broken.raw.publishedAfter ||
				broken.raw.publishedBefore ||
				broken.raw.publishedInLast ||
				broken.raw.collectedAfter ||
				broken.raw.collectedBefore
			) {
				for (const key of [
					'publishedAfter',
					'publishedBefore',
					'publishedInLast',
					'collectedAfter',
					'collectedBefore',
				])
					if (!(key in broken.raw)) delete raw[key];
			} else {
				for (const key of [
					'publishedAfter',
					'publishedBefore',
					'publishedInLast',
					'collectedAfter',
					'collectedBefore',
				])
					delete raw[key];
			}
			let message = '';
			try {
				buildFilters(raw, { node, timezone: 'UTC', now: NOW_MS, scope: broken.scope });
			} catch (error) {
				message = (error as Error).message;
				expect((error as { description?: string }).description).toBe(
					'Nothing was sent to SentiOne, so no request budget was used.',
				);
			}
			expect(message.startsWith(`Filters → ${broken.field}:`)).toBe(true);
		}),
		{ numRuns: 600, seed: 99 },
	);
	figures.invalid = runs;
});
