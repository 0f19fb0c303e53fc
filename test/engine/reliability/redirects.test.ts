/**
 * Threat: a server at the Base URL answers with a redirect (301/302/303/307/308) meant to carry the
 * API key to another origin. The policy is "no redirects at all": whatever the Location says
 * (another host, another port, another scheme, the same origin, a relative path, nothing, a URL
 * with credentials or the key itself in it, 10 kB of it), every request kind of the package —
 * the action node's reads, its stream exports, its writes, the project picker, both triggers —
 * refuses the answer. For each case: the other origin received no request and no connection (so
 * never an X-API-KEY header), the Base URL received exactly one request, the error names the
 * redirect status and the target origin (or says there was no Location), nothing of the redirect
 * body or target reaches the output, and the key appears in no message.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { searchProjects } from '../../../nodes/SentiOne/shared/listSearch';
import { loadWorkflow, NODE, withParameters } from '../../support/actions';
import { runWorkflow, withExecuteContext } from '../../support/engine';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { safeJson } from '../../support/inNode';
import {
	API_ROOT,
	drip,
	HostileServer,
	mention,
	redirect,
	silence,
	type Behaviour,
} from '../../support/servers/hostileServer';
import { type ResultRow, writePart } from '../../support/results';
import { type WorkflowJson } from '../../support/workflowJson';
import { ENTERPRISE } from '../../support/keys';

jest.setTimeout(60_000);

/** What a node must never show: the body of the 3xx and whatever the target would have served. */
const MARKER = 'FROM-THE-REDIRECT';
const STATUSES = [301, 302, 303, 307, 308] as const;

let api: HostileServer;
/** another host (127.0.0.2) */
let elsewhere: HostileServer;
/** another port of the same host */
let otherPort: HostileServer;
const rows: ResultRow[] = [];
const figures: {
	runs: number;
	requestsToOtherOrigins: number;
	connectionsToOtherOrigins: number;
	keysToOtherOrigins: number;
	longestMessageChars: number;
	longestRedirectHoldMs?: number;
} = {
	runs: 0,
	requestsToOtherOrigins: 0,
	connectionsToOtherOrigins: 0,
	keysToOtherOrigins: 0,
	longestMessageChars: 0,
};
const tally = new Map<string, { cases: number; through: Set<string>; outcome: string }>();

const targetPage = { data: [mention(`${MARKER}-TARGET-1`)], cursor: null };

beforeAll(async () => {
	api = await HostileServer.start();
	elsewhere = await HostileServer.start({ host: '127.0.0.2' });
	otherPort = await HostileServer.start();
	for (const target of [elsewhere, otherPort]) {
		target.any((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(targetPage));
		});
	}
});

afterAll(async () => {
	await api?.close();
	await elsewhere?.close();
	await otherPort?.close();
	writePart({
		part: 'redirects',
		title: "Redirects (the key never leaves the Base URL's origin)",
		command: 'npx jest test/engine/reliability/redirects.test.ts',
		rows: [
			...[...tally.entries()].map(([fault, t]) => ({
				fault,
				through:
					t.through.size === kinds.length
						? `all ${kinds.length} request kinds`
						: [...t.through].join(', '),
				cases: t.cases,
				outcome: t.outcome,
			})),
			...rows,
		],
		figures,
	});
});

beforeEach(() => {
	api.reset();
	elsewhere.requests.length = 0;
	elsewhere.connections = 0;
	elsewhere.clientErrors = 0;
	otherPort.requests.length = 0;
	otherPort.connections = 0;
	otherPort.clientErrors = 0;
	elsewhere.dropConnections();
	otherPort.dropConnections();
});

// --- the Location cases -----------------------------------------------------------------------

interface LocationCase {
	name: string;
	/** the Location header (undefined: none); may use the request (its X-API-KEY) */
	location: (req: { headers: Record<string, unknown> }) => string | undefined;
	/** what the error must say about where */
	where: () => RegExp;
	/** texts that must not appear in any message */
	secret?: (key: string) => string[];
}

const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const otherOrigin = (origin: () => string) => () =>
	new RegExp(
		`to another origin, ${esc(origin())} \\(the Base URL is ${esc(api.origin)}\\); the node does not follow redirects$`,
	);
const sameOrigin = () =>
	new RegExp(
		`to another address on the same host \\(${esc(api.origin)}\\); the node does not follow redirects$`,
	);

const locations: LocationCase[] = [
	{
		name: 'another host',
		location: () => `http://127.0.0.2:${elsewhere.port}${API_ROOT}/projects`,
		where: otherOrigin(() => elsewhere.origin),
	},
	{
		name: 'another port',
		location: () => `http://127.0.0.1:${otherPort.port}${API_ROOT}/projects`,
		where: otherOrigin(() => otherPort.origin),
	},
	{
		name: 'another scheme (http → https, same host and port)',
		location: () => `https://127.0.0.1:${api.port}${API_ROOT}/projects`,
		where: otherOrigin(() => `https://127.0.0.1:${api.port}`),
	},
	{
		name: 'another scheme and host (https://127.0.0.2)',
		location: () => `https://127.0.0.2:${elsewhere.port}${API_ROOT}/projects`,
		where: otherOrigin(() => `https://127.0.0.2:${elsewhere.port}`),
	},
	{
		name: 'the same origin, another path',
		location: () => `${api.origin}${API_ROOT}/moved/projects?v=3`,
		where: sameOrigin,
	},
	{ name: 'a relative Location', location: () => `${API_ROOT}/v3/projects`, where: sameOrigin },
	{
		name: 'a relative Location without a leading slash',
		location: () => 'elsewhere',
		where: sameOrigin,
	},
	{
		name: 'no Location header',
		location: () => undefined,
		where: () => /without saying where \(no Location header\); the node does not follow redirects$/,
	},
	{
		name: 'an empty Location header',
		location: () => '',
		where: () => /without saying where \(no Location header\); the node does not follow redirects$/,
	},
	{
		name: 'credentials in the Location (user:password@)',
		location: () => `http://collector:hunter2-APIKEY-stolen@127.0.0.2:${elsewhere.port}/steal`,
		where: otherOrigin(() => elsewhere.origin),
		secret: () => ['collector', 'hunter2', 'stolen', '/steal'],
	},
	{
		name: 'the API key the server received, echoed into the Location query',
		location: (req) =>
			`http://127.0.0.2:${elsewhere.port}/steal?key=${String(req.headers['x-api-key'])}`,
		where: otherOrigin(() => elsewhere.origin),
		secret: (key) => [key, '/steal'],
	},
	{
		name: 'the API key as the user of a non-http Location',
		location: (req) => `ftp://${String(req.headers['x-api-key'])}@files.example.net/drop`,
		where: () =>
			/to "ftp:\/\/\[redacted API key\]", which is not an http\(s\) address; the node does not follow redirects$/,
		secret: (key) => [key, 'files.example.net'],
	},
	{
		name: 'a 10 kB Location on another host',
		location: () => `http://127.0.0.2:${elsewhere.port}/${'a'.repeat(10_000)}`,
		where: otherOrigin(() => elsewhere.origin),
		secret: () => ['a'.repeat(201)],
	},
	{
		name: 'a 10 kB Location that is not an http(s) address',
		location: () => `javascript:${'A'.repeat(10_000)}`,
		where: () =>
			/to "javascript:A{189}…", which is not an http\(s\) address; the node does not follow redirects$/,
		secret: () => ['A'.repeat(201)],
	},
];

// --- the request kinds ------------------------------------------------------------------------

interface Outcome {
	message: string;
	description: string;
	/** everything the run produced (output, run data, saved state), serialised */
	dump: string;
}

const credentials = () => ({ apiKey: ENTERPRISE, baseUrl: api.base });
const nodeTypes = { 'n8n-nodes-sentione.sentiOne': new SentiOne() };

async function throughWorkflow(
	workflow: WorkflowJson,
	inputItems?: IDataObject[],
): Promise<Outcome> {
	const result = await runWorkflow(workflow, { credentials: credentials(), nodeTypes, inputItems });
	const error = result.nodeError(NODE) ?? result.error;
	if (!error)
		throw new Error(
			`the redirect was not refused: ${safeJson(result.run.data.resultData.runData).slice(0, 400)}`,
		);
	return {
		message: error.message,
		description: error.description ?? '',
		dump: safeJson(result.run.data.resultData),
	};
}

const project = { __rl: true, value: '1001', mode: 'id' };

interface Kind {
	name: string;
	/** the request path the server sees */
	path: RegExp;
	run: () => Promise<Outcome>;
}

const kinds: Kind[] = [
	{
		name: 'Project → Get Many',
		path: /^\/projects$/,
		run: () => throughWorkflow(loadWorkflow('project-get-many')),
	},
	{
		name: 'Mention → Search Recent',
		path: /^\/projects\/1001\/mentions\/recent\/search$/,
		run: () =>
			throughWorkflow(
				withParameters(loadWorkflow('mention-search-recent'), { project, returnAll: true }),
			),
	},
	{
		name: 'Mention → Search Historical',
		path: /^\/projects\/1001\/mentions\/search$/,
		run: () =>
			throughWorkflow(withParameters(loadWorkflow('mention-search-historical'), { project })),
	},
	{
		name: 'Mention → Export (SSE)',
		path: /^\/projects\/1001\/mentions\/search\/stream$/,
		run: () =>
			throughWorkflow(
				withParameters(loadWorkflow('mention-export'), {
					project,
					returnAll: true,
					options: { streamFormat: 'sse' },
				}),
			),
	},
	{
		name: 'Mention → Export (JSON lines)',
		path: /^\/projects\/1001\/mentions\/recent\/search\/stream$/,
		run: () =>
			throughWorkflow(
				withParameters(loadWorkflow('mention-export'), {
					project,
					exportScope: 'recent',
					returnAll: true,
					options: { streamFormat: 'jsonLines' },
				}),
			),
	},
	{
		name: 'Project → Create (a write)',
		path: /^\/projects$/,
		run: () => throughWorkflow(loadWorkflow('project-create')),
	},
	{
		name: 'Tag → Add (a write)',
		path: /^\/projects\/1001\/mentions\/m-1\/tags$/,
		run: () =>
			throughWorkflow(withParameters(loadWorkflow('tag-add'), { project }), [{ mentionId: 'm-1' }]),
	},
	{
		name: 'the project picker (list search)',
		path: /^\/projects$/,
		run: async () => {
			const outcome = await withExecuteContext(credentials(), async function () {
				try {
					const found = await searchProjects.call(
						this as unknown as ILoadOptionsFunctions,
						'',
						undefined,
					);
					return { ok: true, found: safeJson(found) };
				} catch (error) {
					const e = error as { message: string; description?: string };
					return {
						ok: false,
						message: e.message,
						description: e.description ?? '',
						dump: safeJson(error),
					};
				}
			});
			const o = outcome as {
				ok: boolean;
				message: string;
				description: string;
				dump: string;
				found?: string;
			};
			if (o.ok) throw new Error(`the redirect was not refused: ${o.found?.slice(0, 300)}`);
			return { message: o.message, description: o.description, dump: o.dump };
		},
	},
	{
		name: 'the poll trigger (first active poll)',
		path: /^\/projects\/1001\/mentions\/recent\/search$/,
		run: async () => {
			const harness = new PollHarness(pollParameters(1001), credentials());
			const polled = await harness.poll('activate');
			if (!polled.error)
				throw new Error(`the redirect was not refused: ${safeJson(polled.items).slice(0, 300)}`);
			return {
				message: polled.error.message,
				description: polled.error.description ?? '',
				dump: safeJson({
					items: polled.items,
					emitted: harness.emitted,
					state: harness.staticData(),
					error: polled.error,
				}),
			};
		},
	},
	{
		name: 'the poll trigger ("Fetch test event")',
		path: /^\/projects\/1001\/mentions\/recent\/search$/,
		run: async () => {
			const harness = new PollHarness(pollParameters(1001), credentials());
			const polled = await harness.manual();
			if (!polled.error)
				throw new Error(`the redirect was not refused: ${safeJson(polled.items).slice(0, 300)}`);
			return {
				message: polled.error.message,
				description: polled.error.description ?? '',
				dump: safeJson(polled),
			};
		},
	},
	{
		name: 'the stream trigger (activation)',
		path: /^\/projects\/1001\/mentions\/recent\/search\/stream\/live$/,
		run: async () => {
			try {
				const trigger = await activateStreamTrigger(
					streamParameters({ project: projectParam(1001) }, { fillGaps: false }) as INodeParameters,
					credentials(),
				);
				await trigger.close();
				throw new Error(`the redirect was not refused: ${safeJson(trigger.emitted).slice(0, 300)}`);
			} catch (error) {
				const e = error as { message: string; description?: string };
				return { message: e.message, description: e.description ?? '', dump: safeJson(error) };
			}
		},
	},
];

// --- the assertions ---------------------------------------------------------------------------

async function refused(kind: Kind, status: number, where: LocationCase): Promise<Outcome> {
	const echoing: Behaviour = (req, res, server) =>
		redirect(
			status,
			where.location(req),
			{ data: [mention(`${MARKER}-BODY-1`)], cursor: null },
			{ 'x-rate-limit-remaining': 5 },
		)(req, res, server);
	api.any(echoing);
	const outcome = await kind.run();
	figures.runs++;

	// exactly one request reached the Base URL, on the route of the request kind, with the key
	expect(api.requests.map((r) => r.path)).toHaveLength(1);
	expect(api.requests[0].path).toMatch(kind.path);
	expect(api.apiKeysReceived()).toEqual([ENTERPRISE]);
	// nothing reached another origin: no request, no connection (a TLS client included), no key
	for (const target of [elsewhere, otherPort]) {
		figures.requestsToOtherOrigins += target.requests.length;
		figures.connectionsToOtherOrigins += target.connections;
		figures.keysToOtherOrigins += target.apiKeysReceived().length;
		expect(target.requests).toEqual([]);
		expect(target.connections).toBe(0);
		expect(target.apiKeysReceived()).toEqual([]);
	}
	expect(api.clientErrors).toBe(0);

	// the error names the status and where the server wanted to send the request
	expect(outcome.message).toMatch(
		new RegExp(`^SentiOne answered with a redirect \\(${status}\\) `),
	);
	expect(outcome.message).toMatch(where.where());
	expect(outcome.description).toMatch(/was not sent anywhere else and the answer was not used/);
	figures.longestMessageChars = Math.max(
		figures.longestMessageChars,
		outcome.message.length + outcome.description.length,
	);
	expect(outcome.message.length).toBeLessThan(500);

	// nothing of the 3xx body or of the target is in the output; the key and the Location's secrets are in no message
	expect(outcome.dump).not.toContain(MARKER);
	for (const text of [outcome.message, outcome.description, outcome.dump]) {
		expect(text).not.toContain(ENTERPRISE);
		for (const secret of where.secret?.(ENTERPRISE) ?? []) expect(text).not.toContain(secret);
	}
	return outcome;
}

function count(fault: string, through: string, outcome: string): void {
	const t = tally.get(fault) ?? { cases: 0, through: new Set<string>(), outcome };
	t.cases++;
	t.through.add(through);
	tally.set(fault, t);
}

describe.each(kinds)('$name', (kind) => {
	test.each(
		locations.map((where, i) => ({
			where,
			status: STATUSES[i % STATUSES.length],
			name: where.name,
		})),
	)('$status to $name → refused, nothing sent elsewhere', async ({ where, status }) => {
		await refused(kind, status, where);
		count(
			`Location: ${where.name}`,
			kind.name,
			"refused, naming the status and where it pointed; 0 requests elsewhere, nothing of the Location's secrets echoed",
		);
	});

	test.each([...STATUSES])(
		'%i to another host, for every redirect status → refused',
		async (status) => {
			await refused(kind, status, locations[0]);
			count(
				`every redirect status (301, 302, 303, 307, 308) to another host`,
				kind.name,
				'refused; 0 requests and 0 connections to the other host',
			);
		},
	);
});

describe('a redirect whose body never ends: refused within the 5 s the node gives a 3xx body', () => {
	const location = () => `http://127.0.0.2:${elsewhere.port}/steal`;
	test.each([
		{
			name: 'a body dripping a byte every 50 ms',
			behaviour: () =>
				drip({ everyMs: 50, status: 302, prefix: '{"data":[', headers: { location: location() } }),
		},
		{
			name: 'headers, then silence',
			behaviour: () => silence(307, { 'content-type': 'application/json', location: location() }),
		},
	])('$name', async ({ name, behaviour }) => {
		for (const kind of [kinds[0], kinds[kinds.length - 1]]) {
			api.reset();
			api.any(behaviour());
			const started = performance.now();
			const outcome = await kind.run();
			const ms = performance.now() - started;
			expect(outcome.message).toMatch(otherOrigin(() => elsewhere.origin)());
			// the 5 s, plus what a loaded machine adds (seconds at a load of 15): far below the
			// minute of the answer stall limit (BOUNDS.answerStallMs), the next limit that would end it
			expect(ms).toBeLessThan(5000 + 10_000);
			expect(elsewhere.requests).toEqual([]);
			expect(elsewhere.connections).toBe(0);
			figures.longestRedirectHoldMs = Math.max(figures.longestRedirectHoldMs ?? 0, Math.round(ms));
			rows.push({
				fault: `a redirect to another host whose body never ends: ${name}`,
				through: kind.name,
				cases: 1,
				outcome: `refused after ${(ms / 1000).toFixed(1)} s; 0 requests elsewhere`,
			});
		}
	});
});

describe('the credential', () => {
	const type = new SentiOneApi();
	const credential = { apiKey: ENTERPRISE, baseUrl: 'https://sentione.com' };

	test.each([
		{ name: 'a plain request', options: { url: '/projects', method: 'GET' as const } },
		{
			name: 'a request that asks to follow redirects',
			options: {
				url: '/projects',
				method: 'GET' as const,
				disableFollowRedirect: false,
				maxRedirects: 10,
			},
		},
		{
			name: 'a request that allows credentials on a cross-origin redirect',
			options: {
				url: '/projects',
				method: 'POST' as const,
				sendCredentialsOnCrossOriginRedirect: true,
				maxRedirects: 5,
			},
		},
		{
			name: 'an absolute URL',
			options: {
				url: 'https://sentione.com/api/public/v2/projects',
				method: 'GET' as const,
				maxRedirects: 21,
			},
		},
	])(
		'authenticate() on $name: no redirects (disableFollowRedirect, maxRedirects 0, no credentials across origins)',
		async ({ options }) => {
			const out = await type.authenticate(credential, { ...options });
			expect(out.disableFollowRedirect).toBe(true);
			expect(out.maxRedirects).toBe(0);
			expect(out.sendCredentialsOnCrossOriginRedirect).toBe(false);
			expect((out.headers as IDataObject)['X-API-KEY']).toBe(ENTERPRISE);
			count(
				'authenticate() output',
				'the credential',
				'disableFollowRedirect: true, maxRedirects: 0, whatever the request asked',
			);
		},
	);

	test('the credential test request does not follow redirects either', () => {
		expect(type.test.request.disableFollowRedirect).toBe(true);
	});
});

test('over every case, nothing reached another origin', () => {
	expect(figures.runs).toBe(kinds.length * (locations.length + STATUSES.length));
	expect(figures.requestsToOtherOrigins).toBe(0);
	expect(figures.connectionsToOtherOrigins).toBe(0);
	expect(figures.keysToOtherOrigins).toBe(0);
	rows.push({
		fault: 'all of the above',
		through: `${kinds.length} request kinds`,
		cases: figures.runs,
		outcome: `${figures.requestsToOtherOrigins} requests, ${figures.connectionsToOtherOrigins} connections and ${figures.keysToOtherOrigins} keys reached another origin`,
	});
});
