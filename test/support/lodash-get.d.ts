// lodash ships no types here; the credential tester's rule check uses only `get`.
declare module 'lodash/get' {
	export default function get(object: unknown, path: string | readonly string[]): unknown;
}
