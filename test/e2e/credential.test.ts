/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The credential inside a real n8n: the package is installed as a community package, a user's
 * credential is created through n8n's REST API and tested with n8n's own credential tester.
 * A wrong key must be explained in words (which of the four 401 causes), never a bare status.
 */
import { createServer, type Server } from 'node:http';

import { startSim, type Sim } from '../support/simulator';
import { sharedN8n, type N8nSession } from '../support/n8n/host';

let sim: Sim;
let n8n: N8nSession;

beforeAll(async () => {
	sim = await startSim(['--clock', 'running', '--now', new Date().toISOString()]);
	// the n8n this run's end-to-end files share: only its REST API is used here
	n8n = await sharedN8n();
}, 15 * 60_000);

afterAll(async () => {
	await sim?.stop();
});

async function credentialTest(apiKey: string, baseUrl: string) {
	const created = await n8n.rest<{ data: { id: string; name: string } }>('POST', '/credentials', {
		name: `SentiOne ${Math.random().toString(36).slice(2)}`,
		type: 'sentiOneApi',
		data: { apiKey, baseUrl },
	});
	expect(created.status).toBe(200);
	const { id, name } = created.json.data;
	const tested = await n8n.rest<{ data: { status: string; message: string } }>(
		'POST',
		'/credentials/test',
		{
			credentials: { id, name, type: 'sentiOneApi', data: { apiKey, baseUrl } },
		},
	);
	expect(tested.status).toBe(200);
	return tested.json.data;
}

test('a valid key passes with the host, the host with a slash, and the full API root', async () => {
	for (const base of [
		sim.base,
		`${sim.base}/`,
		`${sim.base}/api/public/v2`,
		`${sim.base}/API/public/v2/`,
	]) {
		expect(await credentialTest('SENTIONE-APIKEY-basic-demo', base)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	}
	expect((await credentialTest('SENTIONE-APIKEY-enterprise-demo', sim.base)).status).toBe('OK');
});

test('each 401 cause is named in words', async () => {
	const missing = await credentialTest('', sim.base);
	expect(missing.status).toBe('Error');
	expect(missing.message).toMatch(/API key is missing/);

	const shape = await credentialTest('my-secret-key', sim.base);
	expect(shape.message).toMatch(/does not have the shape of a SentiOne key.*SENTIONE-APIKEY-/);

	const unknown = await credentialTest('SENTIONE-APIKEY-nobody-knows-me', sim.base);
	expect(unknown.message).toMatch(/does not recognise this API key/);

	const tier = await credentialTest('SENTIONE-APIKEY-noaccess-demo', sim.base);
	expect(tier.message).toMatch(/no API tier/);

	for (const result of [missing, shape, unknown, tier]) {
		expect(result.message).not.toMatch(/^(Unauthorized|Received HTTP status code)/);
		expect(result.message).not.toContain('nobody-knows-me');
		expect(result.message).not.toContain('my-secret-key');
	}
});

test('a Base URL that is not the API: the test says what the server there answered', async () => {
	const wrong = await credentialTest('SENTIONE-APIKEY-basic-demo', `${sim.base}/somewhere-else`);
	expect(wrong.status).toBe('Error');
	expect(wrong.message).toMatch(
		/^The server at the Base URL answered 404 \(Not found\.\) for the project list: there is no SentiOne Listen API v2 at this address\. Check the Base URL: SentiOne's host only/,
	);
	const invalid = await credentialTest('SENTIONE-APIKEY-basic-demo', 'ftp://example.com');
	expect(invalid.message).toMatch(/must start with https:\/\//);

	// servers that are not SentiOne's API, each answering in its own way (any path)
	const answers: Record<string, { status: number; type?: string; body: string; says: RegExp }> = {
		website: {
			status: 200,
			type: 'text/html',
			body: '<!doctype html><html><body>Welcome</body></html>',
			says: /answered with an HTML page, not with SentiOne's API/,
		},
		'proxy error page': {
			status: 404,
			type: 'text/html; charset=utf-8',
			body: '<html><body>Not here</body></html>',
			says: /answered with an HTML page/,
		},
		'another API (Spring-style 404)': {
			status: 404,
			type: 'application/json',
			body: '{"timestamp":"2026-11-23T10:00:00Z","status":404,"error":"Not Found","path":"/api/public/v2/projects"}',
			says: /answered 404 \(Not Found\) for the project list: it runs an API, but not SentiOne/,
		},
		'another API (other JSON)': {
			status: 200,
			type: 'application/json',
			body: '{"hello":"world"}',
			says: /answered, but with neither SentiOne's project list nor a refusal the test knows\..*otherwise check the Base URL: SentiOne's host only/,
		},
		'a gateway failing': {
			status: 502,
			type: 'application/json',
			body: '{"status":502,"message":"Bad gateway"}',
			says: /answered 502 \(Bad Gateway\)/,
		},
		'an empty answer': { status: 200, body: '', says: /answered with an empty body/ },
		'plain text': {
			status: 500,
			type: 'text/plain',
			body: 'boom',
			says: /answered, but with neither SentiOne's project list nor a refusal the test knows\..*otherwise check the Base URL: SentiOne's host only/,
		},
	};
	const names = Object.keys(answers);
	const other: Server = createServer((req, res) => {
		const a = answers[decodeURIComponent((req.url ?? '').split('/')[1])];
		res.writeHead(a.status, a.type ? { 'content-type': a.type } : {});
		res.end(a.body);
	});
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
	try {
		const port = (other.address() as { port: number }).port;
		for (const name of names) {
			const result = await credentialTest(
				'SENTIONE-APIKEY-basic-demo',
				`http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
			);
			expect({ name, status: result.status, message: result.message }).toEqual({
				name,
				status: 'Error',
				message: expect.stringMatching(answers[name].says),
			});
			expect(result.message).toMatch(/[Cc]heck the Base URL: SentiOne's host only/);
		}
	} finally {
		other.close();
	}
});
