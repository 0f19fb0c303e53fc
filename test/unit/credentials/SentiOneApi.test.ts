/**
 * The credential's own logic, without n8n or a server (credentials/SentiOneApi.credentials.ts):
 * what `authenticate` adds to a request and what it refuses before anything is sent (the key, the
 * Base URL), and the shape of the credential test — its request and the order and words of its
 * rules. test/engine/transport/credential.test.ts covers the API-root table (D-01) case by case
 * and runs the test through n8n's engine against the simulator; this file does not repeat those.
 */
import get from 'lodash/get';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import {
	CREDENTIAL_ERROR_PREFIX,
	KEY_IN_TEXT,
	PATHS,
	UNAUTHORIZED_TEXTS,
} from '../../../nodes/SentiOne/shared/contract';
import { FakeApi, page } from '../../support/fake/api';
import { BASIC } from '../../support/keys';

const credential = new SentiOneApi();

/** What authenticate returns, or the error it throws. */
async function authenticate(
	credentials: Record<string, unknown>,
	request: IHttpRequestOptions = { method: 'GET', url: '/projects' },
): Promise<IHttpRequestOptions | Error> {
	return await credential
		.authenticate(credentials as ICredentialDataDecryptedObject, request)
		.catch((error: Error) => error);
}

describe('authenticate', () => {
	test('adds the key, trimmed, and the JSON content type over whatever the caller set', async () => {
		const out = (await authenticate(
			{ apiKey: `\t${BASIC} `, baseUrl: 'https://sentione.com' },
			{
				method: 'POST',
				url: '/projects',
				headers: {
					Accept: 'application/x-ndjson',
					'X-API-KEY': 'other',
					'Content-Type': 'text/plain',
				},
				qs: { limit: 5 },
				body: '{"name":"Acme"}',
			},
		)) as IHttpRequestOptions;
		expect(out.headers).toEqual({
			Accept: 'application/x-ndjson',
			'X-API-KEY': BASIC,
			'Content-Type': 'application/json',
		});
		// the rest of the request is the caller's
		expect(out).toMatchObject({
			method: 'POST',
			url: '/projects',
			qs: { limit: 5 },
			body: '{"name":"Acme"}',
			baseURL: 'https://sentione.com/api/public/v2',
		});
	});

	test('never lets a request that carries the key follow a redirect, whatever the caller asked', async () => {
		const out = (await authenticate(
			{ apiKey: BASIC },
			{
				method: 'GET',
				url: '/projects',
				disableFollowRedirect: false,
				maxRedirects: 5,
				sendCredentialsOnCrossOriginRedirect: true,
			},
		)) as IHttpRequestOptions;
		expect(out).toMatchObject({
			disableFollowRedirect: true,
			maxRedirects: 0,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	});

	test('leaves the caller’s request object as it was', async () => {
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: '/projects',
			headers: { Accept: 'application/json' },
		};
		const copy = JSON.parse(JSON.stringify(request)) as IHttpRequestOptions;
		await authenticate({ apiKey: BASIC }, request);
		expect(request).toEqual(copy);
	});

	test('the API root comes from the Base URL: the default, a bare host, a local server, a prefix path, a pasted root', async () => {
		const roots: string[] = [];
		for (const baseUrl of [
			undefined,
			'listen.example.com',
			'http://localhost:8080/',
			'https://corp.example/sentione',
			'HTTPS://Listen.Example.com/api/public/v2',
		]) {
			roots.push(
				String(((await authenticate({ apiKey: BASIC, baseUrl })) as IHttpRequestOptions).baseURL),
			);
		}
		expect(roots).toEqual([
			'https://sentione.com/api/public/v2',
			'https://listen.example.com/api/public/v2',
			'http://localhost:8080/api/public/v2',
			'https://corp.example/sentione/api/public/v2',
			'https://listen.example.com/api/public/v2',
		]);
	});

	test('a request below the API root goes to root + path, and the fake API sees the path below it', async () => {
		const api = new FakeApi({ apiKey: BASIC, baseUrl: 'https://corp.example/sentione/' }).on(
			'GET',
			'/projects',
			{ body: page([]) },
		);
		await api.httpRequestWithAuthentication('sentiOneApi', { method: 'GET', url: '/projects' });
		expect(api.requests[0].url).toBe('https://corp.example/sentione/api/public/v2/projects');
		expect(api.requests[0].path).toBe('/projects');
	});

	test('an absolute URL is left to go where it says, without a base', async () => {
		const out = (await authenticate(
			{ apiKey: BASIC, baseUrl: 'ftp://not-even-valid' },
			{ method: 'GET', url: 'https://sentione.com/api/public/v2/projects' },
		)) as IHttpRequestOptions;
		expect(out.baseURL).toBeUndefined();
		expect(out.headers).toMatchObject({ 'X-API-KEY': BASIC });
	});

	test('a key of another deployment’s prefix has the right shape and is sent', async () => {
		const out = (await authenticate({ apiKey: 'ACME2-APIKEY-x9' })) as IHttpRequestOptions;
		expect(out.headers).toMatchObject({ 'X-API-KEY': 'ACME2-APIKEY-x9' });
	});

	test('a key of the wrong shape is refused without being repeated', async () => {
		const secret = 'sentione-apikey-very-secret-value';
		const error = (await authenticate({ apiKey: secret })) as Error;
		expect(error.message).toBe(
			`${CREDENTIAL_ERROR_PREFIX} the API key does not have the shape of a SentiOne key: it must start with a prefix such as SENTIONE-APIKEY- followed by the key body. Copy the whole key again from Profile → API.`,
		);
		expect(error.message).not.toContain('very-secret-value');
	});

	describe('Base URL mistakes are refused before anything is sent, never repeating a secret', () => {
		const cases: Array<[string, string, string]> = [
			[
				'another scheme',
				'ftp://sentione.com',
				'Base URL "ftp://sentione.com" must start with https:// (or http:// for a local server).',
			],
			[
				'a user name and password',
				'https://admin:hunter2@sentione.com',
				'Base URL "https://[credentials removed]@sentione.com" contains a user name or password; remove it. SentiOne authenticates with the API key only, which has its own field.',
			],
			[
				'a query string carrying the key',
				`https://sentione.com/?key=${BASIC}`,
				'Base URL "https://sentione.com/?…" must be a plain host or API root, without a query string or fragment.',
			],
			[
				'an endpoint beyond the API root',
				'https://sentione.com/api/public/v2/projects/1001',
				'Base URL "https://sentione.com/api/public/v2/projects/1001" goes beyond the API root (it names an endpoint, /projects/1001). Enter only the host, https://sentione.com, or the API root, https://sentione.com/api/public/v2.',
			],
			[
				'spaces',
				'sentione .com',
				'Base URL "sentione .com" is not a valid URL. Expected something like https://sentione.com.',
			],
			[
				'the key pasted into it',
				`https://sentione.com/${BASIC}/x y`,
				'Base URL "https://sentione.com/[redacted API key] y" must not contain spaces.',
			],
		];
		test.each(cases)('%s', async (_, baseUrl, message) => {
			const error = (await authenticate({ apiKey: BASIC, baseUrl })) as Error;
			expect(error).toBeInstanceOf(Error);
			expect(error.message).toBe(`${CREDENTIAL_ERROR_PREFIX} ${message}`);
			expect(error.message).not.toContain('hunter2');
			expect(error.message).not.toContain(BASIC);
		});

		test('a Base URL that is not text', async () => {
			const error = (await authenticate({ apiKey: BASIC, baseUrl: 443 })) as Error;
			expect(error.message).toBe(
				`${CREDENTIAL_ERROR_PREFIX} Base URL must be text such as https://sentione.com, not a number.`,
			);
		});

		test('through the fake request helper: refused, nothing recorded as sent', async () => {
			const api = new FakeApi({ apiKey: BASIC, baseUrl: 'gopher://old' });
			await expect(
				api.httpRequestWithAuthentication('sentiOneApi', { method: 'GET', url: '/projects' }),
			).rejects.toThrow(
				/^SentiOne credential: Base URL "gopher:\/\/old" must start with https:\/\//,
			);
			expect(api.requests).toHaveLength(0);
		});
	});
});

describe('the credential test', () => {
	const rules = credential.test.rules ?? [];

	/** The first rule whose field of the body equals its value, as n8n's credential tester reads them. */
	const verdict = (body: unknown): string | undefined => {
		for (const rule of rules) {
			if (rule.type !== 'responseSuccessBody') continue;
			if (get(body, rule.properties.key) === rule.properties.value) return rule.properties.message;
		}
		return undefined;
	};

	test('the request is GET /projects (the lowest tier), HTTP errors taken as answers, no redirect followed', async () => {
		expect(credential.test.request).toEqual({
			url: PATHS.listProjects(),
			method: 'GET',
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		});
		const out = (await authenticate(
			{ apiKey: BASIC, baseUrl: 'listen.example.com' },
			credential.test.request as IHttpRequestOptions,
		)) as IHttpRequestOptions;
		expect(`${out.baseURL}${out.url}`).toBe('https://listen.example.com/api/public/v2/projects');
		expect(out.headers).toMatchObject({ 'X-API-KEY': BASIC });
	});

	test('every rule reads the body and says what happened in words', () => {
		expect(rules.length).toBeGreaterThan(5);
		for (const rule of rules) {
			expect(rule.type).toBe('responseSuccessBody');
			if (rule.type !== 'responseSuccessBody') continue;
			expect(rule.properties.message.length).toBeGreaterThan(60);
			expect(rule.properties.message).toMatch(/SentiOne|Base URL/);
			expect(rule.properties.message).not.toMatch(KEY_IN_TEXT);
		}
		const pairs = rules.map((r) =>
			r.type === 'responseSuccessBody' ? `${r.properties.key}=${String(r.properties.value)}` : '',
		);
		expect(new Set(pairs).size).toBe(pairs.length);
	});

	test("SentiOne's own 401 texts come first, word for word; the catch-all for a body without data comes last", () => {
		const head = rules
			.slice(0, 3)
			.map((r) => (r.type === 'responseSuccessBody' ? r.properties : undefined));
		expect(head.map((p) => [p?.key, p?.value])).toEqual([
			['message', UNAUTHORIZED_TEXTS.notRecognised],
			['message', UNAUTHORIZED_TEXTS.lacksTier('Basic')],
			['message', UNAUTHORIZED_TEXTS.badShape],
		]);
		const last = rules[rules.length - 1];
		expect(
			last.type === 'responseSuccessBody' && [last.properties.key, last.properties.value],
		).toEqual(['data', undefined]);
	});

	test('what each answer is told, by the first rule that matches', () => {
		// a project page, even an empty one, is a success: no rule matches
		expect(verdict(page([{ id: 1, name: 'Acme' }], 'c'))).toBeUndefined();
		expect(verdict(page([]))).toBeUndefined();
		expect(verdict({ message: UNAUTHORIZED_TEXTS.notRecognised })).toMatch(
			/^SentiOne does not recognise this API key \(401\)/,
		);
		expect(verdict({ message: UNAUTHORIZED_TEXTS.lacksTier('Basic') })).toMatch(
			/^SentiOne recognises this API key but its account has no API tier/,
		);
		expect(verdict({ message: UNAUTHORIZED_TEXTS.badShape })).toMatch(
			/^This SentiOne deployment expects keys that start with SENTIONE-APIKEY- \(401\)/,
		);
		expect(verdict('<!doctype html><html>Sign in</html>')).toMatch(
			/^The server at the Base URL answered with an HTML page/,
		);
		expect(verdict('')).toMatch(/^The server at the Base URL answered with an empty body/);
		expect(verdict({ timestamp: 1, status: 404, error: 'Not Found', path: '/x' })).toMatch(
			/^The server at the Base URL answered 404 \(Not Found\) for the project list: it runs an API, but not SentiOne Listen API v2/,
		);
		// SentiOne's 429 carries its reset time, so only the catch-all can name it
		expect(
			verdict({ message: 'Too many requests. Limits will reset at 2026-11-21T11:00:00Z.' }),
		).toMatch(/hourly budget of 300 project-list requests is used up \(429\)/);
	});
});
