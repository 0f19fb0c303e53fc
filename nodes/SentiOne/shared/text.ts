/**
 * Texts from outside as the nodes keep and show them: an id in the form it is remembered in, a
 * text shortened for quoting in a message, and the control-character check.
 */
import { createHash } from 'crypto';

import { BOUNDS } from './bounds';

/** A text from outside, shortened for quoting in a message. */
export function quoted(text: string, max: number = BOUNDS.maxQuotedChars): string {
	const flat = Array.from(text, (c) => (hasControl(c) ? ' ' : c))
		.join('')
		.replace(/ {2,}/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

const HASHED = /^sha256:[0-9a-f]{64}$/;

/**
 * The form in which an id is remembered (idempotent: a remembered form stays as it is) (trigger memories, repeat detection): the id itself when
 * short, else `sha256:` and its hash, so an absurdly long id costs as much memory as a short one.
 */
export function idKey(id: string): string {
	if (id.length <= BOUNDS.maxIdChars || HASHED.test(id)) return id;
	return `sha256:${createHash('sha256').update(id).digest('hex')}`;
}

/** True when the text holds a control character (U+0000–U+001F, U+007F). */
export function hasControl(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 32 || c === 127) return true;
	}
	return false;
}
