/**
 * The credential: how the Base URL becomes the API root (D-01), what `authenticate` adds and what
 * it refuses before any request (D-02, D-04), and the credential test's rules evaluated the way
 * n8n's credential tester evaluates them, against the simulator.
 */
import get from 'lodash/get';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import {
	API_ROOT_PATH,
	CREDENTIAL_ERROR_PREFIX,
	PATHS,
	resolveApiRoot,
} from '../../../nodes/SentiOne/shared/contract';
import { SentiOneTransport } from '../../../nodes/SentiOne/shared/transport';
import {
	admin,
	type Sim,
	requestLog,
	resetSim,
	script,
	startRealTimeSim,
} from '../../support/simulator';
import {
	expectNoKeysIn,
	failureOf,
	inNode,
	remember,
	UNKNOWN_KEY,
	valueOf,
} from '../../support/inNode';
import { credentials } from '../../support/engine';
import { BASIC, ENTERPRISE, NOACCESS } from '../../support/keys';

const credential = new SentiOneApi();

let sim: Sim;

beforeAll(async () => {
	sim = await startRealTimeSim(['--mentions', '50']);
});

afterAll(async () => {
	await sim?.stop();
});

describe('resolveApiRoot (D-01)', () => {
	const ok: Array<[string, unknown, string]> = [
		['the hosted default when empty', '', 'https://sentione.com/api/public/v2'],
		['the hosted default when only spaces', '   ', 'https://sentione.com/api/public/v2'],
		['the hosted default when not a string', undefined, 'https://sentione.com/api/public/v2'],
		['a host with https', 'https://sentione.com', 'https://sentione.com/api/public/v2'],
		[
			'a host with one trailing slash',
			'https://listen.example.com/',
			'https://listen.example.com/api/public/v2',
		],
		[
			'a host with many trailing slashes',
			'https://listen.example.com///',
			'https://listen.example.com/api/public/v2',
		],
		[
			'the full API root',
			'https://listen.example.com/api/public/v2',
			'https://listen.example.com/api/public/v2',
		],
		[
			'the full API root with a trailing slash',
			'https://listen.example.com/api/public/v2/',
			'https://listen.example.com/api/public/v2',
		],
		[
			'the full API root in another case',
			'https://listen.example.com/API/Public/V2',
			'https://listen.example.com/api/public/v2',
		],
		[
			'the full API root, mixed case and slashes',
			'https://listen.example.com/Api/PUBLIC/v2//',
			'https://listen.example.com/api/public/v2',
		],
		[
			'a deployment under a path prefix',
			'https://example.com/sentione',
			'https://example.com/sentione/api/public/v2',
		],
		[
			'a path prefix plus the API root',
			'https://example.com/sentione/api/public/v2',
			'https://example.com/sentione/api/public/v2',
		],
		['no scheme → https', 'sentione.com', 'https://sentione.com/api/public/v2'],
		['no scheme with a port → https', 'localhost:4010', 'https://localhost:4010/api/public/v2'],
		[
			'no scheme with the API root → https',
			'listen.example.com/api/public/v2/',
			'https://listen.example.com/api/public/v2',
		],
		['http kept when typed', 'http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/public/v2'],
		[
			'HTTP in capitals kept as http',
			'HTTP://127.0.0.1:4010/',
			'http://127.0.0.1:4010/api/public/v2',
		],
		[
			'a port kept',
			'https://listen.example.com:8443',
			'https://listen.example.com:8443/api/public/v2',
		],
		['an IPv6 host', 'http://[::1]:4010', 'http://[::1]:4010/api/public/v2'],
		['spaces around the value', '  https://sentione.com/  ', 'https://sentione.com/api/public/v2'],
		['a host in capitals', 'https://SentiOne.COM', 'https://sentione.com/api/public/v2'],
	];
	test.each(ok)('%s: %j → %s', (_what, input, root) => {
		expect(resolveApiRoot(input)).toEqual({ root });
	});

	test('the API root is appended exactly once, whatever form was typed', () => {
		for (const [, input] of ok) {
			const result = resolveApiRoot(input);
			if (!('root' in result)) throw new Error(`unexpected error for ${String(input)}`);
			expect(result.root.toLowerCase().split(API_ROOT_PATH).length - 1).toBe(1);
			expect(result.root.endsWith(API_ROOT_PATH)).toBe(true);
		}
	});

	const refused: Array<[string, string, RegExp]> = [
		['a space inside the path', 'https://sentione.com/my api', /must not contain spaces/],
		['a tab inside the path', 'https://sentione.com/a\tb', /must not contain spaces/],
		['a space inside the host', 'https://senti one.com', /not a valid URL/],
		['ftp', 'ftp://sentione.com', /must start with https:\/\//],
		['ws', 'ws://sentione.com', /must start with https:\/\//],
		['file', 'file:///etc/passwd', /must start with https:\/\//],
		['a query string', 'https://sentione.com?x=1', /without a query string or fragment/],
		[
			'a query string after the root',
			'https://sentione.com/api/public/v2?key=1',
			/without a query string/,
		],
		['a fragment', 'https://sentione.com/#top', /without a query string or fragment/],
		['a user name', 'https://user@sentione.com', /contains a user name or password; remove it/],
		[
			'a user and password',
			'https://user:secret@sentione.com',
			/contains a user name or password; remove it/,
		],
		[
			'an endpoint beyond the API root',
			'https://sentione.com/api/public/v2/projects',
			/goes beyond the API root \(it names an endpoint, \/projects\)\. Enter only the host, https:\/\/sentione\.com, or the API root, https:\/\/sentione\.com\/api\/public\/v2\./,
		],
		[
			'a search endpoint beyond the API root',
			'listen.example.com/API/public/v2/projects/1001/mentions/search',
			/goes beyond the API root/,
		],
		[
			'a list instead of text',
			['https://sentione.com'] as unknown as string,
			/must be text such as https:\/\/sentione\.com, not a list/,
		],
		['a scheme and nothing else', 'https://', /not a valid URL/],
		['a bad port', 'https://sentione.com:99999', /not a valid URL/],
	];
	test.each(refused)('refuses %s: %j', (_what, input, reason) => {
		const result = resolveApiRoot(input);
		expect(result).toEqual({ error: expect.stringMatching(reason) });
		if ('error' in result) {
			remember(result.error);
			expect(result.error).toContain('Base URL');
		}
	});

	test.each([
		['a password', 'https://user:s3cr3t-Passw0rd@sentione.com', 's3cr3t-Passw0rd'],
		[
			'a password with a bad port',
			'https://user:s3cr3t-Passw0rd@sentione.com:99999',
			's3cr3t-Passw0rd',
		],
		['a password and a space', 'https://user:s3cr3t-Passw0rd@senti one.com', 's3cr3t-Passw0rd'],
		['a token in the query', 'https://sentione.com/?token=tok-98765-secret', 'tok-98765-secret'],
		['a key pasted as the Base URL', 'SENTIONE-APIKEY-basic-demo', 'SENTIONE-APIKEY-basic-demo'],
		[
			'a key in the path',
			'https://sentione.com/SENTIONE-APIKEY-basic-demo/x y',
			'SENTIONE-APIKEY-basic-demo',
		],
		['a user name', 'ftp://someone:hunter2@sentione.com', 'hunter2'],
	])('never repeats a secret typed into the Base URL: %s', (_what, input, secret) => {
		const result = resolveApiRoot(input);
		const text = JSON.stringify(result);
		expect(text).not.toContain(secret);
	});
});

describe('authenticate (direct)', () => {
	const request: IHttpRequestOptions = { method: 'GET', url: PATHS.listProjects() };

	test('adds the key, the JSON content type and the API root; keeps the caller’s headers', async () => {
		const out = await credential.authenticate(
			{ apiKey: `  ${ENTERPRISE}  `, baseUrl: 'listen.example.com/API/public/v2/' },
			{
				...request,
				headers: { Accept: 'text/event-stream' },
			},
		);
		expect(out.headers).toEqual({
			Accept: 'text/event-stream',
			'X-API-KEY': ENTERPRISE,
			'Content-Type': 'application/json',
		});
		expect(out.baseURL).toBe('https://listen.example.com/api/public/v2');
		expect(out.url).toBe('/projects');
	});

	test('leaves an absolute URL alone (no baseURL)', async () => {
		const out = await credential.authenticate(
			{ apiKey: ENTERPRISE, baseUrl: 'https://sentione.com' },
			{ method: 'GET', url: 'http://127.0.0.1:1/x' },
		);
		expect(out.baseURL).toBeUndefined();
	});

	const badKeys: Array<[string, unknown, RegExp]> = [
		['missing', undefined, /API key is missing/],
		['empty', '', /API key is missing/],
		['only spaces', '   ', /API key is missing/],
		['not a string', 12345, /API key is missing/],
		['without the -APIKEY- part', 'just-a-key', /does not have the shape/],
		['with a lower-case prefix', 'sentione-apikey-basic-demo', /does not have the shape/],
		['with the prefix only', 'SENTIONE-APIKEY-', /does not have the shape/],
		['with a space inside', 'SENTIONE-APIKEY-basic demo', /does not have the shape/],
	];
	test.each(badKeys)('a key that is %s is refused locally', async (_what, apiKey, reason) => {
		const error = await credential
			.authenticate({ apiKey, baseUrl: '' } as unknown as ICredentialDataDecryptedObject, request)
			.then(
				() => undefined,
				(e: Error) => e,
			);
		expect(error).toBeInstanceOf(Error);
		remember(error);
		expect(error!.message.startsWith(CREDENTIAL_ERROR_PREFIX)).toBe(true);
		expect(error!.message).toMatch(reason);
	});

	test('a bad Base URL is refused with the credential prefix', async () => {
		await expect(
			credential.authenticate({ apiKey: ENTERPRISE, baseUrl: 'ftp://sentione.com' }, request),
		).rejects.toThrow(new RegExp(`^${CREDENTIAL_ERROR_PREFIX} Base URL`));
	});
});

describe('authenticate through the engine, against the simulator', () => {
	beforeEach(async () => {
		await resetSim(sim);
	});

	const getProjects = {
		method: 'GET' as const,
		path: PATHS.listProjects(),
		group: 'projects' as const,
		tier: 'Basic' as const,
		read: true,
	};

	test.each([
		['missing', ''],
		['ill-shaped', 'not-a-sentione-key'],
		['lower-case prefix', 'sentione-apikey-enterprise-demo'],
	])('a %s key fails before any request: the request log stays empty', async (_what, apiKey) => {
		const error = await failureOf({ apiKey, baseUrl: sim.base }, async function () {
			const transport = new SentiOneTransport(this);
			try {
				return await transport.request(getProjects);
			} finally {
				remember({ requestsSent: transport.requestsSent });
			}
		});
		expect(error.constructorName).toBe('NodeOperationError');
		expect(error.message.startsWith(CREDENTIAL_ERROR_PREFIX)).toBe(true);
		expect(error.description).toMatch(/Nothing was sent to SentiOne/);
		expect(await requestLog(sim)).toEqual([]);
	});

	test('a bad Base URL fails before any request', async () => {
		const error = await failureOf(
			{ apiKey: ENTERPRISE, baseUrl: `${sim.base}/?x=1` },
			async function () {
				return await new SentiOneTransport(this).request(getProjects);
			},
		);
		expect(error.message).toMatch(/^SentiOne credential: Base URL .* without a query string/);
		expect(await requestLog(sim)).toEqual([]);
	});

	test.each([
		['the host', (base: string) => base],
		['the host with trailing slashes', (base: string) => `${base}///`],
		['the full API root', (base: string) => `${base}/api/public/v2`],
		['the full API root in another case, with a slash', (base: string) => `${base}/API/Public/V2/`],
		['the host in capitals', (base: string) => base.replace('http://', 'HTTP://')],
	])('Base URL as %s: the API root is appended exactly once', async (_what, form) => {
		const result = valueOf(
			await inNode({ apiKey: ENTERPRISE, baseUrl: form(sim.base) }, async function () {
				const r = await new SentiOneTransport(this).request(getProjects);
				return { statusCode: r.statusCode, count: (r.body as { data: unknown[] }).data.length };
			}),
		);
		expect(result).toEqual({ statusCode: 200, count: 3 });
		const log = await requestLog(sim);
		expect(log.map((e) => e.path)).toEqual(['/api/public/v2/projects']);
	});

	test('GET and DELETE carry the key and Content-Type: application/json, from the credential alone', async () => {
		// The helper is called without any header: only the credential can add them.
		const result = valueOf(
			await inNode(credentials(sim, ENTERPRISE), async function () {
				const get = (await this.helpers.httpRequestWithAuthentication.call(this, 'sentiOneApi', {
					method: 'GET',
					url: '/projects',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				})) as IN8nHttpFullResponse;
				const del = (await this.helpers.httpRequestWithAuthentication.call(this, 'sentiOneApi', {
					method: 'DELETE',
					url: '/projects/1003',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				})) as IN8nHttpFullResponse;
				return { get: get.statusCode, del: del.statusCode };
			}),
		);
		// 415 would mean no Content-Type, 401 no (or another) key.
		expect(result).toEqual({ get: 200, del: 204 });
		const log = await requestLog(sim);
		expect(log.map((e) => [e.method, e.status, e.tier, e.contentType])).toEqual([
			['GET', 200, 'enterprise', 'application/json'],
			['DELETE', 204, 'enterprise', 'application/json'],
		]);
	});

	test('through the transport: GET, POST and DELETE succeed (no 415), the Accept header survives', async () => {
		const result = valueOf(
			await inNode(credentials(sim, BASIC), async function () {
				const transport = new SentiOneTransport(this);
				const list = await transport.request(getProjects);
				const created = await transport.request<{ id: number }>({
					method: 'POST',
					path: PATHS.createProject(),
					group: 'projects',
					tier: 'Basic',
					body: { name: 'Credential check', query: 'credential' },
					read: false,
				});
				const deleted = await transport.request({
					method: 'DELETE',
					path: PATHS.deleteProject(created.body.id),
					group: 'projects',
					tier: 'Basic',
					read: false,
				});
				return {
					list: list.statusCode,
					created: created.statusCode,
					deleted: deleted.statusCode,
					deletedBody: deleted.body as IDataObject,
				};
			}),
		);
		expect(result).toEqual({ list: 200, created: 201, deleted: 204, deletedBody: {} });
		const log = await requestLog(sim);
		expect(log.map((e) => [e.method, e.status, e.tier, e.contentType, e.accept])).toEqual([
			['GET', 200, 'basic', 'application/json', 'application/json'],
			['POST', 201, 'basic', 'application/json', 'application/json'],
			['DELETE', 204, 'basic', 'application/json', 'application/json'],
		]);
		expect(log[2].body).toBeNull();
	});
});

describe('the credential test, evaluated like n8n’s credential tester', () => {
	const SUCCESS = 'Connection successful!';

	beforeEach(async () => {
		await resetSim(sim);
	});

	/** Sends the credential's test request through the engine and applies its rules to the body. */
	async function testCredential(
		apiKey: string,
		baseUrl: string,
	): Promise<{ message: string; statusCode: number }> {
		const response = valueOf(
			await inNode({ apiKey, baseUrl }, async function () {
				const r = (await this.helpers.httpRequestWithAuthentication.call(this, 'sentiOneApi', {
					...(credential.test.request as IHttpRequestOptions),
					returnFullResponse: true,
				})) as IN8nHttpFullResponse;
				return { statusCode: r.statusCode, body: r.body as IDataObject | string };
			}),
		);
		for (const rule of credential.test.rules ?? []) {
			if (rule.type !== 'responseSuccessBody') continue;
			const { key, value, message } = rule.properties;
			if (get(response.body, key) === value) return { message, statusCode: response.statusCode };
		}
		return { message: SUCCESS, statusCode: response.statusCode };
	}

	const expectWords = (message: string) => {
		remember(message);
		expect(message.length).toBeGreaterThan(60);
		expect(message).not.toMatch(/^\s*\d{3}\s*$/);
		expect(message).toMatch(/SentiOne/);
	};

	test('the test request is GET /projects and takes HTTP errors as answers', () => {
		expect(credential.test.request).toMatchObject({
			url: '/projects',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		});
	});

	test('Basic key: success (no rule matches a project page)', async () => {
		expect(await testCredential(BASIC, sim.base)).toEqual({ message: SUCCESS, statusCode: 200 });
	});

	test('Enterprise key, Base URL pasted as the API root: success', async () => {
		expect(await testCredential(ENTERPRISE, `${sim.base}/api/public/v2/`)).toEqual({
			message: SUCCESS,
			statusCode: 200,
		});
	});

	test('a recognised key without an API tier: the tier message', async () => {
		const { message, statusCode } = await testCredential(NOACCESS, sim.base);
		expect(statusCode).toBe(401);
		expectWords(message);
		expect(message).toMatch(/recognises this API key but its account has no API tier/);
		expect(message).toMatch(/Basic or Enterprise tier/);
	});

	test('an unknown key: the “not recognised” message', async () => {
		const { message, statusCode } = await testCredential(UNKNOWN_KEY, sim.base);
		expect(statusCode).toBe(401);
		expectWords(message);
		expect(message).toMatch(/does not recognise this API key/);
		expect(message).toMatch(/check the Base URL/);
	});

	test('a key of another vendor prefix (right shape) is sent and named “not recognised” by the hosted service', async () => {
		const { message } = await testCredential('ACME-APIKEY-0123456789', sim.base);
		expect(message).toMatch(/does not recognise this API key/);
	});

	test('a Base URL with a wrong path (404 from the server): the catch-all message', async () => {
		const { message, statusCode } = await testCredential(ENTERPRISE, `${sim.base}/nope`);
		expect(statusCode).toBe(404);
		expectWords(message);
		expect(message).toMatch(
			/^The server at the Base URL answered 404 \(Not found\.\) for the project list: there is no SentiOne Listen API v2 at this address\./,
		);
		expect(message).toMatch(/Check the Base URL/);
		expect(message).not.toMatch(/429/);
		const log = await requestLog(sim);
		expect(log.map((e) => e.path)).toEqual(['/nope/api/public/v2/projects']);
	});

	test.each([200, 502])('an HTML page (status %i): says an HTML page answered', async (status) => {
		await script(sim, '^/projects$', { kind: 'html', status });
		const { message, statusCode } = await testCredential(ENTERPRISE, sim.base);
		expect(statusCode).toBe(status);
		expectWords(message);
		expect(message).toMatch(
			/^The server at the Base URL answered with an HTML page, not with SentiOne's API/,
		);
	});

	test('an exhausted hourly budget (429): the catch-all message names the 300/h budget', async () => {
		await admin(sim, 'POST', '/limits', { hourly: { projects: 0 } });
		const { message, statusCode } = await testCredential(ENTERPRISE, sim.base);
		expect(statusCode).toBe(429);
		expectWords(message);
		expect(message).toMatch(/hourly budget of 300 project-list requests is used up \(429\)/);
	});

	test('every rule message is specific words, never a bare status', () => {
		for (const rule of credential.test.rules ?? []) {
			const message = (rule.properties as { message: string }).message;
			expectWords(message);
		}
	});
});

test('no API key appears in anything this file produced', () => {
	expect(expectNoKeysIn()).toBeGreaterThan(20);
});
