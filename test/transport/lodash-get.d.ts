/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, no-console -- test code: not shipped in the package */
// lodash ships no types here; the credential tester's rule check uses only `get`.
declare module 'lodash/get' {
	export default function get(object: unknown, path: string | readonly string[]): unknown;
}
