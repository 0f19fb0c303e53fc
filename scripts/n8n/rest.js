/**
 * The one client of a running n8n's REST API (`/rest/…`, the API n8n's editor calls), for the
 * demo (gulpfile.js), the README's pictures (scripts/screenshots.js) and the end-to-end tests
 * (test/support/n8n/host.ts builds its runs and executions on it).
 *
 * - `setupOwner(base, owner)` creates the instance owner (a fresh n8n), `login(base, user)` signs
 *   in; both resolve with the session cookie `n8n-auth=…`.
 * - `signIn(base, owner)` does whichever applies (the owner exists after a restart) and returns a
 *   `client`.
 * - `client(base, cookie)`: `request(method, route, body)` → `{ status, json }` whatever the status;
 *   `data(method, route, body)` → the answer's `data`, or an error naming the call and the answer;
 *   `file(path)` a GET outside `/rest` (the editor's `/types/nodes.json`).
 * - `status(url)`: the status a GET answers with, 0 when nothing answers (readiness probes).
 *   `activate(workflowId)` publishes a workflow the way the editor's Publish button does.
 *
 * n8n ties a session to the `browser-id` header it was signed in with (none: any), so a client
 * sends the one its cookie was made with. Plain CommonJS, Node built-ins only.
 */
'use strict';

const http = require('node:http');

/**
 * One HTTP exchange, on a connection of its own (`agent: false`: no idle keep-alive connection to
 * a long-running n8n holds a test process open after its last test); resolves with the status,
 * the headers and the body text.
 */
function exchange(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method, headers, agent: false }, (res) => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (d) => (text += d));
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** The status `GET url` answers with, or 0 when nothing answers (readiness probes). */
async function status(url) {
	try {
		return (await exchange(url)).status;
	} catch {
		return 0;
	}
}

/**
 * One call of the REST API (`route` under `/rest`, or an absolute path like `/types/nodes.json`
 * with `{ raw: true }`); the body is JSON when it parses, else the text.
 */
async function request(base, method, route, { cookie, browserId, body, raw = false } = {}) {
	const headers = { 'content-type': 'application/json' };
	if (cookie) headers.cookie = cookie;
	if (browserId) headers['browser-id'] = browserId;
	const payload = body === undefined ? undefined : JSON.stringify(body);
	if (payload !== undefined) headers['content-length'] = Buffer.byteLength(payload);
	const url = `${base}${raw ? '' : '/rest'}${route}`;
	let res = await exchange(url, { method, headers, body: payload });
	// n8n answers 503 "Database is not ready!" before any route while its database check fails
	// for a moment (its periodic ping timing out on a loaded machine): the call was not handled,
	// so it is made again (for up to a minute of real time, whatever n8n's clock says)
	const until = performance.now() + 60_000;
	while (
		res.status === 503 &&
		/Database is not ready/.test(res.text) &&
		performance.now() < until
	) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		res = await exchange(url, { method, headers, body: payload });
	}
	let json = res.text;
	try {
		json = res.text === '' ? null : JSON.parse(res.text);
	} catch {
		json = res.text;
	}
	return { status: res.status, json, headers: res.headers };
}

const cookieOf = (headers) => String(headers['set-cookie']?.[0] ?? '').split(';')[0];

/** Creates the instance owner (first start); resolves with the session cookie `n8n-auth=…`. */
async function setupOwner(base, owner) {
	const r = await request(base, 'POST', '/owner/setup', { body: owner });
	if (r.status !== 200)
		throw new Error(`owner setup failed: ${r.status} ${JSON.stringify(r.json).slice(0, 500)}`);
	return cookieOf(r.headers);
}

/** Signs in as an existing user; resolves with the session cookie `n8n-auth=…`. */
async function login(base, { email, password }, { browserId } = {}) {
	const r = await request(base, 'POST', '/login', {
		browserId,
		body: { emailOrLdapLoginId: email, password },
	});
	if (r.status !== 200)
		throw new Error(`login failed: ${r.status} ${JSON.stringify(r.json).slice(0, 500)}`);
	return cookieOf(r.headers);
}

/** A signed-in client of n8n's REST API. */
function client(base, cookie, { browserId } = {}) {
	const call = (method, route, body) => request(base, method, route, { cookie, browserId, body });
	/** a GET outside /rest (the editor's `/types/nodes.json` …) with the session */
	const file = (route) => request(base, 'GET', route, { cookie, browserId, raw: true });
	const data = async (method, route, body) => {
		const r = await call(method, route, body);
		if (r.status !== 200)
			throw new Error(`${method} ${route} → ${r.status}: ${JSON.stringify(r.json).slice(0, 500)}`);
		return r.json.data;
	};
	return {
		base,
		cookie,
		request: call,
		data,
		file,
		/** "Publish" in the editor (n8n 1.x: activate): the workflow's current version; the HTTP answer */
		async activate(workflowId) {
			const { versionId } = await data('GET', `/workflows/${workflowId}`);
			return await call('POST', `/workflows/${workflowId}/activate`, { versionId });
		},
	};
}

/**
 * The owner's client: sets the owner up on a fresh n8n, or signs in when it exists (a restart).
 * The owner setup is the one call that tells the two apart (400 once an owner exists).
 */
async function signIn(base, owner, { browserId } = {}) {
	let cookie;
	try {
		cookie = await setupOwner(base, owner);
	} catch (error) {
		if (!/owner setup failed: 400/.test(error.message)) throw error;
		cookie = await login(base, owner, { browserId });
	}
	return client(base, cookie, { browserId });
}

module.exports = { request, status, setupOwner, login, client, signIn };
