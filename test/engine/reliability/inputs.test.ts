/**
 * Every input as untrusted (issue 12): what the user types, what an expression gives, and what the
 * server sends back, each class tried with several examples through the real engine and the
 * simulator.
 * - Path segments: an id that would change the route is refused before any request, or sent
 *   percent-encoded so the simulator's `rawPath` (the request target exactly as sent) shows it
 *   stays one segment of /projects/{id}/mentions/{segment}/tags; project IDs from expressions
 *   that are not positive whole numbers are refused.
 * - Base URL mistakes: an endpoint pasted beyond the API root, a host without a scheme pointing at
 *   a plain-http server, and secrets typed into the Base URL (a password, a token, the API key):
 *   an error in words, never the secret, through the action node and both triggers.
 * - Types from expressions: a list or an object where text is expected is refused with the field
 *   named (never silently joined); numbers where an ID is expected are accepted.
 * - Dates: one strict reader (readDate) for every date input: impossible dates, junk around a
 *   date, Unix seconds, huge/negative/NaN/Infinity numbers, invalid Date and Luxon values and
 *   years outside 1990–2100 are refused with the field named and the accepted forms; every valid
 *   form is accepted and sent as the same instant.
 * - Pages whose `data` holds entries that are not objects: never a crash, the objects are output,
 *   the rest skipped and counted in one notice (an execution hint; once for the poll trigger).
 * - Mentions without a usable id, or with a 100 kB id, in the poll trigger: never passed on twice.
 */
import { DateTime } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { BOUNDS } from '../../../nodes/SentiOne/shared/bounds';
import { readDate, readServerInstant } from '../../../nodes/SentiOne/shared/time';
import {
	admin,
	createProject,
	type Loose,
	type Sim,
	script,
	groundTruth,
} from '../../support/simulator';
import { hintsOf, loadWorkflow, NODE, outputOf, run, withParameters } from '../../support/actions';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { safeJson } from '../../support/inNode';
import { hostilePages } from '../../support/servers/pageServer';
import { MINUTE } from '../../support/time';
import { type SimClock, useSimulator } from '../../support/simClock';
import { idsOf, tally } from '../../support/tally';
import { type ResultRow, writePart } from '../../support/results';
import { credentials } from '../../support/engine';
import { type WorkflowJson } from '../../support/workflowJson';
import { BASIC, ENTERPRISE } from '../../support/keys';

jest.setTimeout(60_000);

let sim: Sim;
let clock: SimClock;

useSimulator(['--mentions', '20'], (started, simClock) => {
	sim = started;
	clock = simClock;
});

const NOTHING_SENT = 'Nothing was sent to SentiOne, so no request budget was used.';
const ROOT = '/api/public/v2';

interface LoggedRequest {
	method: string;
	path: string;
	rawPath: string;
	query: Record<string, string>;
	status: number | null;
	body: Loose;
}

async function apiLog(): Promise<LoggedRequest[]> {
	return (await admin<{ requests: LoggedRequest[] }>(sim, 'GET', '/requests')).requests;
}

type Failure = Error & { description?: string };

/** Runs a fixture with the SentiOne node's parameters changed; the node's error or its output. */
async function action(
	fixture: string,
	parameters: IDataObject,
	options: { items?: IDataObject[]; baseUrl?: string; key?: string; timezone?: string } = {},
) {
	let workflow: WorkflowJson = withParameters(loadWorkflow(fixture), parameters);
	if (options.timezone)
		workflow = {
			...workflow,
			settings: { ...(workflow.settings ?? {}), timezone: options.timezone },
		};
	const result = await run(sim, workflow, {
		key: options.key ?? ENTERPRISE,
		inputItems: options.items,
		baseUrl: options.baseUrl,
	});
	return { result, error: result.nodeError(NODE) as Failure | undefined };
}

async function actionError(
	fixture: string,
	parameters: IDataObject,
	options: Parameters<typeof action>[2] = {},
): Promise<Failure> {
	const { result, error } = await action(fixture, parameters, options);
	if (!error)
		throw new Error(`expected an error, got ${JSON.stringify(result.output(NODE)).slice(0, 300)}`);
	return error;
}

async function pollError(parameters: INodeParameters, baseUrl = sim.base): Promise<Failure> {
	const outcome = await new PollHarness(parameters, { apiKey: BASIC, baseUrl }).poll('activate');
	if (!outcome.error) throw new Error('expected the poll to fail');
	return outcome.error;
}

/** The stream trigger's activation error, or the first error it reports while retrying. */
async function streamError(parameters: INodeParameters, baseUrl = sim.base): Promise<Failure> {
	let trigger: Awaited<ReturnType<typeof activateStreamTrigger>>;
	try {
		trigger = await activateStreamTrigger(parameters, { apiKey: BASIC, baseUrl });
	} catch (error) {
		return error as Failure;
	}
	try {
		await trigger.until(() => trigger.errors.length + trigger.failures.length > 0, 10_000);
		return (trigger.errors[0] ?? trigger.failures[0]) as Failure;
	} finally {
		await trigger.close();
	}
}

// --- what the part records -----------------------------------------------------------------------

interface Tried {
	group: string;
	through: string;
	ok: boolean;
	note?: string;
}

const tried: Tried[] = [];

/** Mentions counted by the trigger cases, per group (the Lost / Duplicated columns). */
const counted: Record<string, { items: number; lost: number; duplicated: number }> = {};
function count(group: string, items: number, lost: number, duplicated: number): void {
	const c = (counted[group] ??= { items: 0, lost: 0, duplicated: 0 });
	c.items += items;
	c.lost += lost;
	c.duplicated += duplicated;
}

/** Runs one case and records whether it held (a failing case records what was observed). */
async function track(
	group: string,
	through: string,
	fn: () => Promise<string | void>,
	label?: string,
): Promise<void> {
	try {
		const note = await fn();
		tried.push({ group, through, ok: true, note: note ?? undefined });
	} catch (error) {
		// the case and what was observed instead (jest's "Received" line)
		const lines = String((error as Error).message)
			.split('\n')
			.map((l) => l.trim());
		const received = lines.find((l) => /^Received/.test(l)) ?? lines.find((l) => l !== '') ?? '';
		const name = label ?? String(expect.getState().currentTestName ?? '').split(' → ')[0];
		tried.push({
			group,
			through,
			ok: false,
			note: `${name}: ${received.replace(/\s+/g, ' ').slice(0, 110)}`,
		});
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test code: jest must see the assertion error itself
		throw error;
	}
}

// --- 1. path segments ----------------------------------------------------------------------------

/** one character past the longest id SentiOne issues (the bound the triggers share) */
const LONG_ID = 'm'.repeat(BOUNDS.maxMentionIdChars + 1);

/** Mention IDs that would change the route when placed in a path as they are. */
const REFUSED_IDS: Array<[string, string]> = [
	['"."', '.'],
	['".."', '..'],
	['"%2e%2e"', '%2e%2e'],
	['"%2E."', '%2E.'],
	['"%2e"', '%2e'],
	['"  ..  " (spaces around)', '  ..  '],
	[`a ${LONG_ID.length}-character id`, LONG_ID],
	['an id with a newline', 'abc\ndef'],
	['an id with a tab', 'abc\tdef'],
];

/** Mention IDs that are odd but harmless once percent-encoded. */
const ENCODED_IDS: Array<[string, string]> = [
	['"a/b"', 'a/b'],
	['"a?b"', 'a?b'],
	['"a#b"', 'a#b'],
	['"a%2Fb" (already encoded)', 'a%2Fb'],
	['"../1002" (a move up inside one segment)', '../1002'],
	['"..." (three dots)', '...'],
	['a unicode id', 'żółć-🙂-東京'],
	['an id with spaces inside', 'a b c'],
];

describe('path segments: a mention ID never changes the route', () => {
	describe.each([
		['Tag → Add', 'tag-add'],
		['Tag → Remove', 'tag-remove'],
	])('%s', (operation, fixture) => {
		test.each(REFUSED_IDS)('%s → refused before any request', async (_name, id) => {
			await track('path: refused ids', operation, async () => {
				const error = await actionError(fixture, {}, { items: [{ mentionId: id }] });
				expect(error.message).toMatch(/^Mention ID: /);
				expect(error.message).toMatch(/move up the path|not a mention ID/);
				expect(error.message.length).toBeLessThan(400);
				expect(error.description).toBe(NOTHING_SENT);
				expect(await apiLog()).toEqual([]);
			});
		});

		test.each(ENCODED_IDS)(
			'%s → sent encoded: one segment of /projects/1001/mentions/{id}/tags, reaching that mention',
			async (_name, id) => {
				await track('path: encoded ids', operation, async () => {
					await admin(sim, 'POST', '/mentions', { projectId: 1001, count: 1, overrides: { id } });
					const { result, error } = await action(fixture, {}, { items: [{ mentionId: id }] });
					expect(error).toBeUndefined();
					const [entry, ...more] = await apiLog();
					expect(more).toEqual([]);
					const segment = encodeURIComponent(id);
					expect(entry.rawPath).toBe(`${ROOT}/projects/1001/mentions/${segment}/tags`);
					// exactly one segment between "mentions" and "tags", and the server routed what was sent
					const segments = entry.rawPath.split('/');
					expect(segments).toHaveLength(9);
					expect(segments[7]).toBe(segment);
					expect(segments[7]).not.toMatch(/^(\.|%2e){1,2}$/i);
					expect(decodeURIComponent(segments[7])).toBe(id);
					expect(entry.path).toBe(entry.rawPath);
					expect(entry.status).toBe(200);
					// the answer is about that very mention
					const [item] = outputOf(result);
					expect(item.json.id).toBe(id);
				});
			},
		);
	});

	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	const PROJECT_IDS = [
		'1001/../1002',
		'-1',
		'1e3',
		'0x10',
		'12345678901234567890',
		'1001?x=1',
		'1001#',
	];
	const OPERATIONS: Array<[string, string, IDataObject[] | undefined]> = [
		['Mention → Search Recent', 'mention-search-recent', undefined],
		['Project → Update', 'project-update', undefined],
		['Project → Delete', 'project-delete', undefined],
		['Tag → Get Many', 'tag-get-many', undefined],
		['Tag → Add', 'tag-add', [{ mentionId: 'abc' }]],
	];
	test.each(
		OPERATIONS.flatMap(([operation, fixture, items]) =>
			PROJECT_IDS.map((value) => [operation, value, fixture, items] as const),
		),
	)(
		'%s: project ID %j from an expression → refused before any request',
		async (operation, value, fixture, items) => {
			await track('path: project IDs', operation, async () => {
				const error = await actionError(
					fixture,
					{ project: byId(`={{ ${JSON.stringify(value)} }}`) },
					{ items },
				);
				expect(error.message).toBe(
					`Project: "${value}" is not a project ID. Expected a positive whole number such as 1001.`,
				);
				expect(error.description).toBe(NOTHING_SENT);
				expect(await apiLog()).toEqual([]);
			});
		},
	);

	test.each(PROJECT_IDS.slice(0, 4))(
		'poll trigger and stream trigger: project ID %j from an expression → refused before any request',
		async (value) => {
			await track('path: project IDs', 'poll trigger, stream trigger', async () => {
				const project = byId(`={{ ${JSON.stringify(value)} }}`);
				const poll = await pollError(pollParameters(1001, { project } as INodeParameters));
				const stream = await streamError(streamParameters({ project } as INodeParameters));
				for (const error of [poll, stream])
					expect(error.message).toMatch(
						new RegExp(
							`^Project: "${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is not a project ID`,
						),
					);
				expect(await apiLog()).toEqual([]);
			});
		},
	);
});

// --- 2. Base URL mistakes ------------------------------------------------------------------------

type Through = 'action' | 'poll trigger' | 'stream trigger';
const THROUGH: Through[] = ['action', 'poll trigger', 'stream trigger'];

async function failureThrough(through: Through, baseUrl: string): Promise<Failure> {
	if (through === 'action') return await actionError('project-get-many', {}, { baseUrl });
	if (through === 'poll trigger') return await pollError(pollParameters(1001), baseUrl);
	return await streamError(streamParameters({ project: projectParam(1001) }), baseUrl);
}

describe('Base URL mistakes', () => {
	const escaped = () => sim.base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

	test.each(
		THROUGH.flatMap(
			(through) =>
				[
					[through, '/projects', '/api/public/v2/projects'],
					[
						through,
						'/projects/1001/mentions/search',
						'/api/public/v2/projects/1001/mentions/search',
					],
					[
						through,
						'/projects/1001/mentions/recent/search (API root in capitals)',
						'/API/Public/V2/projects/1001/mentions/recent/search',
					],
				] as const,
		),
	)(
		'%s: an endpoint pasted beyond the API root (%s) → refused with what to type, no request',
		async (through, _name, suffix) => {
			await track('Base URL: an endpoint beyond the API root', through, async () => {
				const error = await failureThrough(through, `${sim.base}${suffix}`);
				expect(error.message).toMatch(
					/^SentiOne credential: Base URL ".*" goes beyond the API root \(it names an endpoint, \/projects/,
				);
				expect(error.message).toMatch(
					new RegExp(
						`Enter only the host, ${escaped()}, or the API root, ${escaped()}/api/public/v2\\.`,
					),
				);
				expect(await apiLog()).toEqual([]);
			});
		},
	);

	test.each(THROUGH)(
		'%s: a host without a scheme at a plain-http server → "does not speak https … type http://", in words',
		async (through) => {
			await track('Base URL: no scheme at a plain-http server', through, async () => {
				const error = await failureThrough(through, `127.0.0.1:${sim.port}`);
				expect(error.message).toMatch(
					/^Could not reach SentiOne: the server at the Base URL does not speak https \(TLS\)/,
				);
				expect(error.message).toMatch(/type http:\/\/ in front of the Base URL/);
				// never the library's raw text alone
				expect(error.message).not.toMatch(/^[^:]*: *(write )?EPROTO|wrong version number/i);
				expect(await apiLog()).toEqual([]);
			});
		},
	);

	const SECRET = 'pw-S3CRET-4711';
	const TOKEN = 'tok-S3CRET-0815';
	const SECRETS: Array<[string, () => string, string, RegExp]> = [
		[
			'user:password@ in the Base URL',
			() => sim.base.replace('http://', `http://n8n-user:${SECRET}@`),
			SECRET,
			/contains a user name or password; remove it/,
		],
		[
			'a token in the query string',
			() => `${sim.base}/?token=${TOKEN}`,
			TOKEN,
			/without a query string or fragment/,
		],
		[
			'the API key in the query string',
			() => `${sim.base}?apiKey=${ENTERPRISE}`,
			ENTERPRISE,
			/without a query string or fragment/,
		],
		[
			'the API key in the fragment',
			() => `${sim.base}/#${ENTERPRISE}`,
			ENTERPRISE,
			/without a query string or fragment/,
		],
		[
			'the API key pasted as the Base URL',
			() => ENTERPRISE,
			ENTERPRISE,
			/could not be resolved|not a valid URL/,
		],
		['the API key pasted after the host', () => `${sim.base}/${ENTERPRISE}`, ENTERPRISE, /./],
	];
	test.each(
		THROUGH.flatMap((through) =>
			SECRETS.map(([name, url, secret, says]) => [through, name, url, secret, says] as const),
		),
	)(
		'%s: %s → an error that never contains the secret',
		async (through, _name, url, secret, says) => {
			await track('Base URL: a secret typed into it', through, async () => {
				const error = await failureThrough(through, url());
				expect(error.message).toMatch(says);
				// message, description, cause, stack, context: nothing holds the secret, in any case
				const everything =
					`${error.message} ${error.description ?? ''} ${safeJson(error)}`.toLowerCase();
				expect(everything).not.toContain(secret.toLowerCase());
			});
		},
	);
});

// --- 3. types from expressions -------------------------------------------------------------------

interface TypeCase {
	name: string;
	through: Through;
	fixture?: string;
	parameters: IDataObject;
	items?: IDataObject[];
	field: string;
	says: RegExp;
}

const TYPE_CASES: TypeCase[] = [
	{
		name: 'Content Query as a list',
		through: 'action',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: '={{ ["acme", "phone"] }}' } },
		field: 'Filters → Content Query',
		says: /expected text, got a list \(\["acme","phone"\]\)/,
	},
	{
		name: 'Content Query as an object',
		through: 'action',
		fixture: 'mention-search-historical',
		parameters: { filters: { query: '={{ { "q": "acme" } }}' } },
		field: 'Filters → Content Query',
		says: /expected text, got an object/,
	},
	{
		name: 'Content Query as a list (export)',
		through: 'action',
		fixture: 'mention-export',
		parameters: { filters: { query: '={{ ["acme"] }}' } },
		field: 'Filters → Content Query',
		says: /expected text, got a list/,
	},
	{
		name: 'Project → Create: Name as a list',
		through: 'action',
		fixture: 'project-create',
		parameters: { name: '={{ ["Nordic", "Tea"] }}' },
		field: 'Name',
		says: /expected text, got a list/,
	},
	{
		name: 'Project → Create: Query as a list',
		through: 'action',
		fixture: 'project-create',
		parameters: { query: '={{ ["tea", "coffee"] }}' },
		field: 'Query',
		says: /expected text, got a list/,
	},
	{
		name: 'Project → Update: Name as a boolean',
		through: 'action',
		fixture: 'project-update',
		parameters: { name: '={{ true }}' },
		field: 'Name',
		says: /expected text, got a boolean/,
	},
	{
		name: 'Project → Update: Query as an object',
		through: 'action',
		fixture: 'project-update',
		parameters: { query: '={{ { "or": ["a", "b"] } }}' },
		field: 'Query',
		says: /expected text, got an object/,
	},
	{
		name: 'Tag → Add: Mention ID as a list',
		through: 'action',
		fixture: 'tag-add',
		parameters: {},
		items: [{ mentionId: ['m1', 'm2'] }],
		field: 'Mention ID',
		says: /expected text, got a list \(\["m1","m2"\]\)/,
	},
	{
		name: 'Tag → Remove: Mention ID as an object',
		through: 'action',
		fixture: 'tag-remove',
		parameters: {},
		items: [{ mentionId: { id: 'm1' } }],
		field: 'Mention ID',
		says: /expected text, got an object/,
	},
	{
		name: 'Tag → Add: a tag name that is an object',
		through: 'action',
		fixture: 'tag-add',
		parameters: { tags: '={{ ["vip", { "name": "x" }] }}' },
		items: [{ mentionId: 'abc' }],
		field: 'Tags (name 2)',
		says: /expected text, got an object/,
	},
	{
		name: 'Tag → Remove: a tag name that is a list',
		through: 'action',
		fixture: 'tag-remove',
		parameters: { tags: '={{ [["vip", "x"]] }}' },
		items: [{ mentionId: 'abc' }],
		field: 'Tags (name 1)',
		says: /expected text, got a list/,
	},
	{
		name: 'Tag → Add: a tag name that is a boolean',
		through: 'action',
		fixture: 'tag-add',
		parameters: { tags: '={{ ["vip", false] }}' },
		items: [{ mentionId: 'abc' }],
		field: 'Tags (name 2)',
		says: /expected text, got a boolean/,
	},
	{
		name: 'Content Query as a list',
		through: 'poll trigger',
		parameters: pollParameters(1001, {
			filters: { query: '={{ ["acme", "phone"] }}' },
		} as INodeParameters) as IDataObject,
		field: 'Filters → Content Query',
		says: /expected text, got a list/,
	},
	{
		name: 'Content Query as a list',
		through: 'stream trigger',
		parameters: streamParameters({
			project: projectParam(1001),
			filters: { query: '={{ ["acme", "phone"] }}' },
		} as INodeParameters) as IDataObject,
		field: 'Filters → Content Query',
		says: /expected text, got a list/,
	},
];

describe('types from expressions: a list is never joined silently', () => {
	test.each(TYPE_CASES.map((c) => [c.through, c.name, c] as const))(
		'%s: %s → refused naming the field, no request',
		async (through, _name, c) => {
			await track('types: a list or object where text is expected', through, async () => {
				const error =
					through === 'action'
						? await actionError(c.fixture!, c.parameters, { items: c.items })
						: through === 'poll trigger'
							? await pollError(c.parameters as INodeParameters)
							: await streamError(c.parameters as INodeParameters);
				expect(error.message.startsWith(`${c.field}: `)).toBe(true);
				expect(error.message).toMatch(c.says);
				expect(error.message).toMatch(/pick one element/);
				expect(error.description).toBe(NOTHING_SENT);
				expect(await apiLog()).toEqual([]);
			});
		},
	);

	test('numbers where an ID or a name is expected are accepted (a Mention ID, a Project ID, a tag name, a project name)', async () => {
		await track('types: numbers where an ID is expected', 'action', async () => {
			await admin(sim, 'POST', '/mentions', {
				projectId: 1001,
				count: 1,
				overrides: { id: '424242' },
			});
			const tagged = await action(
				'tag-add',
				{ project: { __rl: true, mode: 'id', value: '={{ 1001 }}' }, tags: '={{ [42, "vip"] }}' },
				{ items: [{ mentionId: 424242 }] },
			);
			expect(tagged.error).toBeUndefined();
			expect(outputOf(tagged.result)[0].json.id).toBe('424242');
			const created = await action('project-create', { name: '={{ 2026 }}' });
			expect(created.error).toBeUndefined();
			const searched = await action('mention-search-recent', {
				project: { __rl: true, mode: 'id', value: '={{ 1001 }}' },
				filters: {},
			});
			expect(searched.error).toBeUndefined();
			const log = await apiLog();
			expect(log.map((r) => `${r.method} ${r.rawPath} ${r.status}`)).toEqual([
				`POST ${ROOT}/projects/1001/mentions/424242/tags 200`,
				`POST ${ROOT}/projects 201`,
				`POST ${ROOT}/projects/1001/mentions/recent/search 200`,
			]);
			expect(log[0].body).toEqual({ tags: ['42', 'vip'] });
			expect(log[1].body.name).toBe('2026');
		});
	});
});

// --- 4. dates ------------------------------------------------------------------------------------

const DATE_FIELDS: Array<[string, string]> = [
	['Published After', 'publishedAfter'],
	['Published Before', 'publishedBefore'],
	['Collected After', 'collectedAfter'],
	['Collected Before', 'collectedBefore'],
];

/** Values no date field accepts: [label, parameter value (an expression where needed), what the message says]. */
const BAD_DATES: Array<[string, string, RegExp, string?]> = [
	['30 February, with Z', '2026-02-30T10:00:00Z', /that day does not exist/],
	['31 April, with +02:00', '2026-04-31T00:00:00+02:00', /that day does not exist/],
	['29 February of a non-leap year, with Z', '2025-02-29T00:00:00Z', /that day does not exist/],
	["25 o'clock", '2026-11-21T25:00:00Z', /that time of day does not exist/],
	['an offset of +19:00', '2026-11-21T10:00:00+19:00', /UTC offset is impossible/],
	['junk after the zone', '2026-11-21T10:00:00Zjunk', /not in ISO 8601 form/],
	['words before the date', 'on 2026-11-21', /not in ISO 8601 form/],
	['a date in words', '={{ "21 November 2026" }}', /not in ISO 8601 form/],
	[
		'Unix seconds from an expression',
		'={{ 1795000000 }}',
		/looks like Unix seconds \(2026-11-18T11:06:40\.000Z\), and a number is read as epoch milliseconds/,
	],
	[
		'a huge number (1e20)',
		'={{ 1e20 }}',
		/as epoch milliseconds it is outside the years 1990 to 2100/,
	],
	['a negative number', '={{ -86400000 }}', /outside the years 1990 to 2100/],
	['NaN from an expression', '={{ NaN }}', /it is not a finite number/, 'NaN'],
	['Infinity from an expression', '={{ Infinity }}', /it is not a finite number/, 'Infinity'],
	['an invalid Date', "={{ new Date('nope') }}", /invalid Date/],
	[
		'an invalid Luxon DateTime',
		"={{ DateTime.fromISO('nope') }}",
		/invalid DateTime|not in ISO 8601 form/,
	],
	['the year 1989', '1989-12-31T23:59:59Z', /outside the years 1990 to 2100/],
	['the year 2101', '2101-01-01T00:00:00Z', /outside the years 1990 to 2100/],
	['a list of dates', '={{ ["2026-11-20T10:00:00Z"] }}', /it is a list/],
	['an object', '={{ { "from": "2026-11-20" } }}', /it is an object/],
];

const FORMS =
	/Expected an ISO 8601 date and time such as 2026-11-21T10:00:00 \(read in the workflow's time zone\) or 2026-11-21T10:00:00Z, a Luxon DateTime such as .*, or epoch milliseconds\.$/;

const TEN_UTC = Date.parse('2026-11-20T10:00:00.000Z');

/** Valid forms of 2026-11-20T10:00:00Z: [label, parameter value, workflow time zone]. */
const GOOD_DATES: Array<[string, string, string]> = [
	['with Z', '2026-11-20T10:00:00Z', 'UTC'],
	['with a lower-case z and a fraction', '2026-11-20T10:00:00.000z', 'UTC'],
	['with +02:00', '2026-11-20T12:00:00+02:00', 'UTC'],
	['with +0200', '2026-11-20T12:00:00+0200', 'UTC'],
	['with +02', '2026-11-20T12:00:00+02', 'UTC'],
	['with -05:30', '2026-11-20T04:30:00-05:30', 'UTC'],
	['without a zone, in a UTC workflow', '2026-11-20T10:00:00', 'UTC'],
	[
		'without a zone, in a Europe/Warsaw workflow (UTC+1 in November)',
		'2026-11-20T11:00:00',
		'Europe/Warsaw',
	],
	[
		'without a zone, in an America/New_York workflow (UTC−5 in November)',
		'2026-11-20T05:00:00',
		'America/New_York',
	],
	['a Luxon DateTime', "={{ DateTime.fromISO('2026-11-20T10:00:00Z') }}", 'UTC'],
	[
		'a Luxon DateTime in another zone',
		"={{ DateTime.fromISO('2026-11-20T11:00:00', { zone: 'Europe/Warsaw' }) }}",
		'UTC',
	],
	['a Date', "={{ new Date('2026-11-20T10:00:00Z') }}", 'UTC'],
	['epoch milliseconds', `={{ ${TEN_UTC} }}`, 'UTC'],
];

describe('dates: one strict reader for every date input', () => {
	test.each(
		DATE_FIELDS.flatMap(([label, name]) =>
			BAD_DATES.map(
				([what, value, says, shown]) => [label, what, name, value, says, shown] as const,
			),
		),
	)(
		'%s: %s → refused naming the field and the accepted forms, no request',
		async (label, what, name, value, says, shown) => {
			await track(
				'dates: refused',
				'action (Search Historical)',
				async () => {
					const error = await actionError('mention-search-historical', {
						filters: { [name]: value },
					});
					expect(error.message.startsWith(`Filters → ${label}: `)).toBe(true);
					expect(error.message).toMatch(/ is not a date: /);
					expect(error.message).toMatch(says);
					expect(error.message).toMatch(FORMS);
					expect(error.message).not.toMatch(/Invalid time value|RangeError/);
					// the value is quoted as it was given
					if (shown)
						expect(error.message).toMatch(
							new RegExp(`^Filters → ${label}: "${shown}" is not a date`),
						);
					expect(error.description).toBe(NOTHING_SENT);
					expect(await apiLog()).toEqual([]);
				},
				`${label}: ${what}`,
			);
		},
	);

	test.each(GOOD_DATES)(
		'%s → accepted as 2026-11-20T10:00:00Z (Published After, Collected After)',
		async (_what, value, timezone) => {
			await track('dates: accepted', 'action (Search Historical)', async () => {
				const published = await action(
					'mention-search-historical',
					{ filters: { publishedAfter: value } },
					{ timezone },
				);
				expect(published.error).toBeUndefined();
				const collected = await action(
					'mention-search-historical',
					{ filters: { collectedAfter: value } },
					{ timezone },
				);
				expect(collected.error).toBeUndefined();
				const [first, second] = await apiLog();
				expect(first.body.filters.publishedAt).toEqual({ from: '2026-11-20T10:00:00.000Z' });
				// collectedAt is sent a whole second wider (verify.ts), then checked locally
				expect(first.status).toBe(200);
				expect(Date.parse(second.body.filters.collectedAt.from)).toBe(TEN_UTC - 1000);
				expect(second.status).toBe(200);
			});
		},
	);

	const UNIT: Array<[string, unknown, string, number | RegExp | 'empty']> = [
		['30 February with Z', '2026-02-30T10:00:00Z', 'UTC', /that day does not exist/],
		['31 April with +02:00', '2026-04-31T00:00:00+02:00', 'UTC', /that day does not exist/],
		['29 February 2025 with Z', '2025-02-29T00:00:00Z', 'UTC', /that day does not exist/],
		['29 February 2024 (a leap year)', '2024-02-29T00:00:00Z', 'UTC', Date.UTC(2024, 1, 29)],
		['junk after the zone', '2026-11-21T10:00:00Zjunk', 'UTC', /not in ISO 8601 form/],
		['words before', 'on 2026-11-21', 'UTC', /not in ISO 8601 form/],
		['Unix seconds', 1795000000, 'UTC', /looks like Unix seconds/],
		['epoch milliseconds', 1795000000000, 'UTC', 1795000000000],
		['1e20', 1e20, 'UTC', /outside the years 1990 to 2100/],
		['a negative number', -1, 'UTC', /outside the years 1990 to 2100/],
		['NaN', NaN, 'UTC', /not a finite number/],
		['Infinity', Infinity, 'UTC', /not a finite number/],
		['-Infinity', -Infinity, 'UTC', /not a finite number/],
		['an invalid Date', new Date('nope'), 'UTC', /invalid Date/],
		['a Date in 1970', new Date(0), 'UTC', /outside the years 1990 to 2100/],
		['an invalid Luxon DateTime', DateTime.fromISO('nope'), 'UTC', /invalid DateTime/],
		[
			'a Luxon DateTime in 2150',
			DateTime.fromISO('2150-01-01T00:00:00Z'),
			'UTC',
			/outside the years 1990 to 2100/,
		],
		['the year 1989', '1989-12-31T23:59:59Z', 'UTC', /outside the years 1990 to 2100/],
		['the year 2101', '2101-01-01T00:00:00Z', 'UTC', /outside the years 1990 to 2100/],
		['a list', ['2026-11-20T10:00:00Z'], 'UTC', /it is a list/],
		['an object', { iso: '2026-11-20T10:00:00Z' }, 'UTC', /it is an object/],
		['a boolean', true, 'UTC', /it is a boolean/],
		['with Z', '2026-11-20T10:00:00Z', 'UTC', TEN_UTC],
		['with +02:00', '2026-11-20T12:00:00+02:00', 'UTC', TEN_UTC],
		['with +0200', '2026-11-20T12:00:00+0200', 'UTC', TEN_UTC],
		['with +02', '2026-11-20T12:00:00+02', 'UTC', TEN_UTC],
		['no zone, Europe/Warsaw', '2026-11-20T11:00:00', 'Europe/Warsaw', TEN_UTC],
		[
			'no zone, summer time in Europe/Warsaw (UTC+2)',
			'2026-07-01T12:00:00',
			'Europe/Warsaw',
			Date.UTC(2026, 6, 1, 10),
		],
		['no zone, an unknown time zone (read as UTC)', '2026-11-20T10:00:00', 'Mars/Olympus', TEN_UTC],
		['a Luxon DateTime', DateTime.fromISO('2026-11-20T10:00:00Z'), 'UTC', TEN_UTC],
		['a Date', new Date(TEN_UTC), 'UTC', TEN_UTC],
		['an empty text', '', 'UTC', 'empty'],
		['spaces', '   ', 'UTC', 'empty'],
		['null', null, 'UTC', 'empty'],
	];
	test.each(UNIT)('readDate: %s', async (_what, value, timezone, expected) => {
		await track('dates: readDate (unit)', 'readDate', async () => {
			const reading = readDate(value, timezone);
			if (expected === 'empty') expect(reading).toEqual({ empty: true });
			else if (typeof expected === 'number') expect(reading).toEqual({ ms: expected });
			else {
				expect('problem' in reading).toBe(true);
				expect((reading as { problem: string }).problem).toMatch(expected);
				expect((reading as { problem: string }).problem).not.toMatch(/Invalid time value/);
			}
		});
	});

	test('readServerInstant: only ISO 8601 with a zone, plausible, at most 64 characters', async () => {
		await track('dates: readDate (unit)', 'readServerInstant', async () => {
			expect(readServerInstant('2026-11-20T10:00:00Z')).toBe(TEN_UTC);
			expect(readServerInstant('2026-11-20T12:00:00+02:00')).toBe(TEN_UTC);
			expect(readServerInstant('2026-11-20T10:00:00')).toBeUndefined();
			expect(readServerInstant('2026-02-30T10:00:00Z')).toBeUndefined();
			expect(readServerInstant('2026-11-20T10:00:00Zjunk')).toBeUndefined();
			expect(readServerInstant(`2026-11-20T10:00:00.${'0'.repeat(60)}Z`)).toBeUndefined();
			expect(readServerInstant(TEN_UTC)).toBeUndefined();
			expect(readServerInstant('2101-01-01T00:00:00Z')).toBeUndefined();
			expect(readServerInstant(null)).toBeUndefined();
		});
	});
});

// --- 5. entries that are not objects -------------------------------------------------------------

async function realMentions(projectId: number, count: number): Promise<IDataObject[]> {
	const r = await admin<{ mentions: IDataObject[] }>(
		sim,
		'GET',
		`/mentions?projectId=${projectId}&full=1`,
	);
	return r.mentions.slice(-count);
}

const SKIPPED_HINT = (n: number) =>
	new RegExp(
		`^SentiOne sent ${n} entr${n === 1 ? 'y' : 'ies'} that ${n === 1 ? 'was' : 'were'} not an object \\(null, a number, a text or a list\\) where a record belongs; ${n === 1 ? 'it was' : 'they were'} skipped\\.$`,
	);

function expectObjectsOnly(json: unknown[]): void {
	for (const item of json)
		expect(typeof item === 'object' && item !== null && !Array.isArray(item)).toBe(true);
}

describe('pages whose data holds entries that are not objects', () => {
	test('Mention → Search Recent: null, numbers, text, booleans, lists and nested lists among real mentions → the mentions, one hint', async () => {
		await track('pages: entries that are not objects', 'Mention → Search Recent', async () => {
			const [m1, m2, m3] = await realMentions(1001, 3);
			await script(
				sim,
				'/projects/1001/mentions/recent/search$',
				{
					kind: 'json',
					status: 200,
					body: { data: [null, m1, 7, 'text', m2, [m3], [[m1, m2]], true, m3, -0.5], cursor: null },
				},
				1,
				'POST',
			);
			const { result, error } = await action('mention-search-recent', { filters: {}, limit: 50 });
			expect(error).toBeUndefined();
			const json = outputOf(result).map((i) => i.json);
			expectObjectsOnly(json);
			expect(idsOf(json)).toEqual([m1.id, m2.id, m3.id]);
			const hints = hintsOf(result).filter((h) => /not an object/.test(h.message));
			expect(hints).toHaveLength(1);
			expect(hints[0].message).toMatch(SKIPPED_HINT(7));
		});
	});

	test('Project → Get Many: two pages with junk, two input items → every project once per item, one hint with the total', async () => {
		await track('pages: entries that are not objects', 'Project → Get Many', async () => {
			const page1 = {
				data: [null, { id: 1001, name: 'Acme Mobile', query: 'acme' }, 3, 'Nordic'],
				cursor: 'page-2',
			};
			const page2 = {
				data: [
					[{ id: 1002 }],
					{ id: 1002, name: 'Nordic Coffee Roasters', query: 'coffee' },
					false,
				],
				cursor: null,
			};
			for (let item = 0; item < 2; item++) {
				await script(sim, '^/projects$', { kind: 'json', status: 200, body: page1 }, 1, 'GET');
				await script(sim, '^/projects$', { kind: 'json', status: 200, body: page2 }, 1, 'GET');
			}
			const { result, error } = await action(
				'project-get-many',
				{ returnAll: true },
				{ items: [{}, {}] },
			);
			expect(error).toBeUndefined();
			const json = outputOf(result).map((i) => i.json);
			expectObjectsOnly(json);
			expect(json.map((p) => p.id)).toEqual([1001, 1002, 1001, 1002]);
			const hints = hintsOf(result).filter((h) => /not an object/.test(h.message));
			expect(hints).toHaveLength(1);
			expect(hints[0].message).toMatch(SKIPPED_HINT(10));
			expect((await apiLog()).filter((r) => r.query.cursor === 'page-2')).toHaveLength(2);
		});
	});

	test('Tag → Get Many: tags mixed with null, a bare name, a list and a number → the tags, one hint', async () => {
		await track('pages: entries that are not objects', 'Tag → Get Many', async () => {
			await script(
				sim,
				'/projects/1001/tags$',
				{
					kind: 'json',
					status: 200,
					body: {
						data: [{ name: 'vip' }, null, 'complaint', ['refund'], 12, { name: 'refund' }],
						cursor: null,
					},
				},
				1,
				'GET',
			);
			const { result, error } = await action('tag-get-many', { returnAll: true });
			expect(error).toBeUndefined();
			const json = outputOf(result).map((i) => i.json);
			expectObjectsOnly(json);
			expect(json.map((t) => t.name)).toEqual(['vip', 'refund']);
			const hints = hintsOf(result).filter((h) => /not an object/.test(h.message));
			expect(hints).toHaveLength(1);
			expect(hints[0].message).toMatch(SKIPPED_HINT(4));
		});
	});

	test('Tag → Get Many: a page of nothing but junk → no items, no crash, one hint', async () => {
		await track('pages: entries that are not objects', 'Tag → Get Many', async () => {
			await script(
				sim,
				'/projects/1001/tags$',
				{ kind: 'json', status: 200, body: { data: [null, null, [], [[]], 0, ''], cursor: null } },
				1,
				'GET',
			);
			const { result, error } = await action('tag-get-many', { returnAll: true });
			expect(error).toBeUndefined();
			expect(outputOf(result)).toEqual([]);
			expect(hintsOf(result).filter((h) => SKIPPED_HINT(6).test(h.message))).toHaveLength(1);
		});
	});

	test('poll trigger: junk in every search page → the mentions once, never a crash, the notice once', async () => {
		await track('pages: entries that are not objects', 'SentiOne Trigger (poll)', async () => {
			const projectId = await createProject(sim, 'Junk entries', 'acme');
			const [sample] = await realMentions(1001, 1);
			const junk = [null, 5, 'text', [1, 2], [[{ ...sample, id: 'nested' }]], true];
			const server = hostilePages(sim, projectId, () => junk);
			try {
				const harness = new PollHarness(pollParameters(projectId), credentials(sim, BASIC));
				await clock.advance(1000);
				expect((await harness.poll('activate')).error).toBeUndefined();
				const collected: string[] = [];
				const emitted: string[] = [];
				const errors: string[] = [];
				// checks collecting two mentions, then quiet ones, then collecting again
				for (const collects of [true, true, false, false, true, false, true, false]) {
					await clock.advance(MINUTE);
					if (collects) {
						const r = await admin<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
							projectId,
							count: 2,
							collectedAt: new Date(clock.now - 10_000).toISOString(),
						});
						collected.push(...r.mentions.map((m) => m.id));
					}
					const outcome = await harness.poll();
					if (outcome.error) errors.push(outcome.error.message);
					for (const item of outcome.items ?? []) expectObjectsOnly([item]);
					emitted.push(...idsOf(outcome.items ?? []));
				}
				expect(server.pages).toBeGreaterThanOrEqual(8);
				expect((await groundTruth(sim, projectId)).sort()).toEqual(collected.slice().sort());
				const t = tally(emitted, collected);
				count(
					'pages: entries that are not objects',
					collected.length,
					t.lost.length,
					t.duplicated.length,
				);
				expect(t.lost).toEqual([]);
				expect(t.duplicated).toEqual([]);
				expect(t.unexpected).toEqual([]);
				expect(errors).toHaveLength(1);
				expect(errors[0]).toMatch(
					/^SentiOne sent \d+ entries that were not mentions \(not objects\) in its search answers; they were skipped\.$/,
				);
				expect(errors.join(' ')).not.toMatch(/TypeError|Cannot read/);
			} finally {
				server.uninstall();
			}
		});
	});
});

// --- 6. mentions without a usable id in the poll trigger ----------------------------------------

/**
 * A project with one real mention a minute, and odd mentions (collected one minute after the
 * activation) that the server sends in every page covering them, for twelve checks: longer than the
 * late-mention window (10 min), so every odd mention is read again by about ten checks.
 */
async function oddIds(odd: Array<{ id: unknown; tag: string }>): Promise<{
	emitted: IDataObject[];
	collected: string[];
	errors: string[];
	stateChars: number;
	pages: number;
}> {
	const projectId = await createProject(sim, 'Odd ids', 'acme');
	const [sample] = await realMentions(1001, 1);
	const harness = new PollHarness(pollParameters(projectId), credentials(sim, BASIC));
	await clock.advance(1000);
	expect((await harness.poll('activate')).error).toBeUndefined();
	await clock.advance(MINUTE);
	const at = new Date(clock.now - 30_000).toISOString();
	const mentions = odd.map(({ id, tag }) => {
		const m: IDataObject = { ...sample, collectedAt: at, tag };
		if (id === undefined) delete m.id;
		else m.id = id as IDataObject['id'];
		return m;
	});
	const server = hostilePages(sim, projectId, () => mentions);
	try {
		const collected: string[] = [];
		const emitted: IDataObject[] = [];
		const errors: string[] = [];
		for (let k = 0; k < 12; k++) {
			if (k > 0) await clock.advance(MINUTE);
			if (k % 3 !== 2) {
				const r = await admin<{ mentions: Array<{ id: string }> }>(sim, 'POST', '/mentions', {
					projectId,
					count: 1,
					collectedAt: new Date(clock.now - 5_000).toISOString(),
				});
				collected.push(r.mentions[0].id);
			}
			const outcome = await harness.poll();
			if (outcome.error) errors.push(outcome.error.message);
			emitted.push(...(outcome.items ?? []));
		}
		// the simulator's ground truth is exactly the ordinary mentions (the odd ones exist only in the pages)
		expect((await groundTruth(sim, projectId)).sort()).toEqual(collected.slice().sort());
		return {
			emitted,
			collected,
			errors,
			stateChars: JSON.stringify(harness.staticData()).length,
			pages: server.pages,
		};
	} finally {
		server.uninstall();
	}
}

describe('poll trigger: mentions without a usable id, or with a huge one', () => {
	test('no id, "", null, an object, a list, true, a 100 kB id, a 2,000-character id → never passed on, the notice once, the state stays small', async () => {
		await track('poll: mentions without a usable id', 'SentiOne Trigger (poll)', async () => {
			const odd = [
				{ id: undefined, tag: 'no id' },
				{ id: '', tag: 'empty id' },
				{ id: null, tag: 'null id' },
				{ id: { value: 'x' }, tag: 'object id' },
				{ id: ['x'], tag: 'list id' },
				{ id: true, tag: 'boolean id' },
				{ id: 'h'.repeat(100 * 1024), tag: '100 kB id' },
				{ id: 'k'.repeat(2000), tag: '2,000-character id' },
			];
			const { emitted, collected, errors, stateChars, pages } = await oddIds(odd);
			expect(pages).toBeGreaterThanOrEqual(12);
			const ordinary = emitted.filter((m) => m.tag === undefined).map((m) => String(m.id));
			const t = tally(ordinary, collected);
			const oddOnes = emitted.filter((m) => m.tag !== undefined);
			const oddTwice = [...new Set(oddOnes.map((m) => m.tag))].filter(
				(tag) => oddOnes.filter((m) => m.tag === tag).length > 1,
			).length;
			count(
				'poll: mentions without a usable id',
				collected.length,
				t.lost.length,
				t.duplicated.length + oddTwice,
			);
			expect(t.lost).toEqual([]);
			expect(t.duplicated).toEqual([]);
			// none of them passed on, not even once: the trigger could not tell them apart
			expect(oddOnes.map((m) => m.tag)).toEqual([]);
			// the notice, once
			expect(errors).toHaveLength(1);
			expect(errors[0]).toMatch(
				/^SentiOne returned \d+ mentions without a usable id; they were not passed on/,
			);
			// the state stays small although a 100 kB id was read twelve times
			expect(stateChars).toBeLessThan(20_000);
		});
	});

	test.each([
		['a 64-character id (remembered as it is)', 'i'.repeat(64)],
		['a 65-character id (remembered by its hash)', 'j'.repeat(65)],
		['a 1,000-character id (remembered by its hash)', 'u'.repeat(1000)],
		['a numeric id', 4242],
	] as const)('%s, read again by ten checks → passed on exactly once', async (tag, id) => {
		await track(
			'poll: odd but usable ids',
			'SentiOne Trigger (poll)',
			async () => {
				const { emitted, collected, errors } = await oddIds([{ id, tag }]);
				const ordinary = emitted.filter((m) => m.tag === undefined).map((m) => String(m.id));
				const t = tally(ordinary, collected);
				const times = emitted.filter((m) => m.tag === tag).length;
				count(
					'poll: odd but usable ids',
					collected.length + 1,
					t.lost.length + (times === 0 ? 1 : 0),
					t.duplicated.length + (times > 1 ? 1 : 0),
				);
				expect(t.lost).toEqual([]);
				expect(t.duplicated).toEqual([]);
				expect(errors).toEqual([]);
				expect(times).toBe(1);
			},
			tag,
		);
	});
});

// --- the part ------------------------------------------------------------------------------------

afterAll(() => {
	const groups = [...new Set(tried.map((t) => t.group))];
	const OUTCOME: Record<string, string> = {
		'path: refused ids': 'refused naming Mention ID; 0 requests',
		'path: encoded ids':
			'sent percent-encoded: rawPath shows one segment of /projects/1001/mentions/{id}/tags, the server routed it unchanged and tagged that very mention',
		'path: project IDs': 'refused naming Project ("… is not a project ID"); 0 requests',
		'Base URL: an endpoint beyond the API root':
			'refused naming the host and the API root to type; 0 requests',
		'Base URL: no scheme at a plain-http server':
			'"does not speak https (TLS) … type http://", in words',
		'Base URL: a secret typed into it':
			'an error that holds the secret nowhere (message, description, cause, stack), case-insensitive',
		'types: a list or object where text is expected':
			'refused naming the field, with the kind and how to pick one element; 0 requests',
		'types: numbers where an ID is expected':
			'accepted as their digits (Mention ID, Project ID, tag name, project name)',
		'dates: refused':
			'refused naming the field and the accepted forms; never "Invalid time value"; 0 requests',
		'dates: accepted':
			'sent as 2026-11-20T10:00:00.000Z (Published After; Collected After a second wider)',
		'dates: readDate (unit)': 'the one reader: problem in words or the instant',
		'pages: entries that are not objects':
			'the objects output, the rest skipped and counted in one notice; never a crash',
		'poll: mentions without a usable id':
			'never passed on (the trigger cannot tell them apart), the notice once; the state stays small',
		'poll: odd but usable ids': 'passed on exactly once, however often the server sends them again',
	};
	const FAULT: Record<string, string> = {
		'path: refused ids':
			'a mention ID that would change the route (., .., %2e, %2e%2e, %2E., "  ..  ", 600 characters, a newline, a tab)',
		'path: encoded ids': 'a mention ID with /, ?, #, %2F, ../1002, ..., spaces or unicode in it',
		'path: project IDs':
			'a project ID from an expression that is not a positive whole number (1001/../1002, -1, 1e3, 0x10, 20 digits, 1001?x=1, 1001#)',
		'Base URL: an endpoint beyond the API root':
			'Base URL: an endpoint pasted beyond the API root (…/api/public/v2/projects, …/projects/1001/mentions/search, the root in capitals)',
		'Base URL: no scheme at a plain-http server':
			'Base URL: a host typed without a scheme (127.0.0.1:<port>) pointing at a plain-http server',
		'Base URL: a secret typed into it':
			'Base URL: a secret typed into it (user:password@, a token or the API key in the query or fragment, the API key as the Base URL or after the host)',
		'types: a list or object where text is expected':
			'a list, an object or a boolean from an expression where text is expected (Content Query, Name, Query, Mention ID, a tag name)',
		'types: numbers where an ID is expected':
			'numbers from an expression where an ID or a name is expected (Mention ID, Project ID, tag name, project name)',
		'dates: refused':
			'dates: impossible dates with a zone, junk around a date, Unix seconds, 1e20, negative, NaN, Infinity, an invalid Date or DateTime, 1989, 2101, a list, an object (× Published After/Before, Collected After/Before)',
		'dates: accepted':
			'dates: every valid form (Z, z, +02:00, +0200, +02, -05:30, no zone in UTC / Europe/Warsaw / America/New_York workflows, Luxon, Date, epoch ms)',
		'dates: readDate (unit)': 'dates: readDate and readServerInstant, unit level',
		'pages: entries that are not objects':
			'pages whose data holds null, numbers, text, booleans, lists and nested lists among real records',
		'poll: mentions without a usable id':
			'mentions without a usable id (none, "", null, an object, a list, true, 100 kB, 2,000 characters), sent again by every page',
		'poll: odd but usable ids':
			'odd but usable ids (64 and 65 characters, 1,000 characters, a number), sent again by every page',
	};
	const rows: ResultRow[] = groups.map((group) => {
		const list = tried.filter((t) => t.group === group);
		const failed = list.filter((t) => !t.ok);
		return {
			fault: FAULT[group] ?? group,
			through: [...new Set(list.map((t) => t.through))].join(', '),
			cases: list.length,
			...(counted[group] ?? {}),
			outcome:
				failed.length > 0
					? `BUG: ${failed.length} of ${list.length} cases failed, e.g. ${[...new Set(failed.map((f) => f.note))].slice(0, 2).join('; ')}`
					: (OUTCOME[group] ?? 'as expected'),
		};
	});
	writePart({
		part: 'inputs',
		title: 'Every input untrusted (ids in paths, Base URL, expression types, dates, page entries)',
		command: 'npx jest test/engine/reliability/inputs.test.ts',
		rows,
		figures: {
			cases: tried.length,
			passed: tried.filter((t) => t.ok).length,
			failed: tried.filter((t) => !t.ok).length,
			byGroup: Object.fromEntries(
				groups.map((g) => [g, tried.filter((t) => t.group === g).length]),
			),
		},
	});
});
