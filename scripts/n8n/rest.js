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
 *   `data(method, route, body)` → the answer's `data`, or an error naming the call and the answer.
 *   `activate(workflowId)` publishes a workflow the way the editor's Publish button does.
 *
 * n8n ties a session to the `browser-id` header it was signed in with (none: any), so a client
 * sends the one its cookie was made with. Plain CommonJS, Node built-ins only.
 */
'use strict';

/** One call; the body is JSON when it parses, else the text. */
async function request(base, method, route, { cookie, browserId, body } = {}) {
	const headers = { 'content-type': 'application/json' };
	if (cookie) headers.cookie = cookie;
	if (browserId) headers['browser-id'] = browserId;
	const res = await fetch(`${base}/rest${route}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json = text;
	try {
		json = text === '' ? null : JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: res.status, json, headers: res.headers };
}

const cookieOf = (headers) => (headers.get('set-cookie') ?? '').split(';')[0];

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

module.exports = { request, setupOwner, login, client, signIn };
