/**
 * How the node reaches the API and names itself to it (D-01 to D-04): the credential, the API root
 * a typed Base URL resolves to, the key's header and shape, the content type.
 */

export const CREDENTIAL_TYPE = 'sentiOneApi';

/** D-01 */
export const DEFAULT_BASE_URL = 'https://sentione.com';
export const API_ROOT_PATH = '/api/public/v2';

/** D-02: a key is `<vendor prefix>-APIKEY-<key body>`; the hosted prefix; only the shape is checked locally */
export const API_KEY_HEADER = 'X-API-KEY';
const KEY_MARKER = '-APIKEY-';
export const HOSTED_KEY_PREFIX = `SENTIONE${KEY_MARKER}`;
export const API_KEY_SHAPE = new RegExp(`^[A-Z0-9]+${KEY_MARKER}\\S+$`);
/** Key-shaped text (any case) inside a text from outside, never repeated: the body ends at a space or a delimiter. */
export const KEY_IN_TEXT = new RegExp(`[A-Za-z0-9]+${KEY_MARKER}[^\\s"',;&]+`, 'g');
/** The same in a typed Base URL, where the body runs to the next space. */
const KEY_IN_URL = new RegExp(`[A-Za-z0-9]+${KEY_MARKER}\\S+`, 'g');
/** Marks errors the credential raises before any request is sent */
export const CREDENTIAL_ERROR_PREFIX = 'SentiOne credential:';

/** D-04 */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * A Base URL as it may be quoted in a message: never a secret. Credentials typed into it
 * (`user:password@`), its query string and fragment are left out, anything shaped like an API key
 * is masked, and a long value is cut.
 */
export function safeBaseUrlText(typed: string): string {
	let text = typed.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]*@/i, '$1[credentials removed]@');
	text = text.replace(/[?#].*$/s, (rest) => (rest.length > 1 ? `${rest[0]}…` : rest));
	text = text.replace(KEY_IN_URL, '[redacted API key]');
	return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * D-01: turns what the user typed into the API root. Accepts a host, a host with trailing
 * slashes, or the full API root; adds https:// when no scheme is given. Returns an error text
 * instead of a URL when the value cannot be a base URL; the text never repeats a secret typed
 * into the field (credentials, a query string).
 */
export function resolveApiRoot(baseUrl: unknown): { root: string } | { error: string } {
	const raw = typeof baseUrl === 'string' ? baseUrl.trim() : '';
	if (baseUrl !== undefined && baseUrl !== null && typeof baseUrl !== 'string') {
		return {
			error: `Base URL must be text such as ${DEFAULT_BASE_URL}, not a ${Array.isArray(baseUrl) ? 'list' : typeof baseUrl}.`,
		};
	}
	const typed = raw === '' ? DEFAULT_BASE_URL : raw;
	const shown = safeBaseUrlText(typed);
	const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
	let url: URL;
	try {
		url = new URL(withScheme);
	} catch {
		return {
			error: `Base URL "${shown}" is not a valid URL. Expected something like ${DEFAULT_BASE_URL}.`,
		};
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return {
			error: `Base URL "${shown}" must start with https:// (or http:// for a local server).`,
		};
	}
	if (url.username !== '' || url.password !== '') {
		return {
			error: `Base URL "${shown}" contains a user name or password; remove it. SentiOne authenticates with the API key only, which has its own field.`,
		};
	}
	if (url.search !== '' || url.hash !== '') {
		return {
			error: `Base URL "${shown}" must be a plain host or API root, without a query string or fragment.`,
		};
	}
	if (/\s/.test(typed)) {
		return { error: `Base URL "${shown}" must not contain spaces.` };
	}
	let path = url.pathname.replace(/\/+$/, '');
	const lower = path.toLowerCase();
	const rootAt = lower.indexOf(API_ROOT_PATH);
	if (rootAt >= 0 && rootAt + API_ROOT_PATH.length < lower.length) {
		const host = `${url.protocol}//${url.host}${path.slice(0, rootAt)}`;
		return {
			error: `Base URL "${shown}" goes beyond the API root (it names an endpoint, ${path.slice(rootAt + API_ROOT_PATH.length)}). Enter only the host, ${host}, or the API root, ${host}${API_ROOT_PATH}.`,
		};
	}
	if (lower.endsWith(API_ROOT_PATH)) {
		path = path.slice(0, -API_ROOT_PATH.length);
	}
	return { root: `${url.protocol}//${url.host}${path}${API_ROOT_PATH}` };
}
