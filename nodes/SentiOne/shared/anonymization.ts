/**
 * Privacy is never silently dropped. The anonymization switch of the streams is experimental and
 * its name is not confirmed (D-26): a server that does not recognise it sends authors in clear. So
 * when anonymization was asked for, every mention is checked: the author's id and name (and the
 * discussion author's name) must look like the consistent hash SentiOne documents, the avatar must
 * be gone. A mention that fails is never passed on as anonymized: the caller fails, or — only when
 * the user chose it — removes the author fields here.
 */
import type { IDataObject } from 'n8n-workflow';

import type { AnonymizationLevel } from './contract';

/** What to do with a mention SentiOne did not anonymize. */
export type NotAnonymizedChoice = 'fail' | 'remove';

const HEX_HASH = /^[0-9a-f]{32,128}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^[A-Za-z0-9+/_-]{22,172}={0,2}$/;

/**
 * True for a value shaped like a hash (hex digest, UUID, base64 digest): what an anonymized field
 * holds. A name with a space, a short handle or a numeric profile id is not.
 */
export function looksAnonymized(value: unknown): boolean {
	if (value === null || value === undefined) return true;
	if (typeof value !== 'string') return false;
	if (HEX_HASH.test(value)) return /[a-f]/i.test(value);
	if (UUID.test(value)) return true;
	return BASE64.test(value) && /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
}

function objectAt(value: unknown, key: string): IDataObject | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const child = (value as IDataObject)[key];
	return typeof child === 'object' && child !== null && !Array.isArray(child)
		? (child as IDataObject)
		: undefined;
}

/** The author fields of a mention that are in clear although anonymization was asked for. */
function fieldsInClear(mention: IDataObject): string[] {
	const clear: string[] = [];
	const author = objectAt(mention, 'author');
	if (author) {
		if (!looksAnonymized(author.name)) clear.push('author.name');
		if (!looksAnonymized(author.id)) clear.push('author.id');
		if (author.avatar !== null && author.avatar !== undefined) clear.push('author.avatar');
	}
	const discussionAuthor = objectAt(objectAt(mention, 'discussion'), 'author');
	if (discussionAuthor && !looksAnonymized(discussionAuthor.name))
		clear.push('discussion.author.name');
	return clear;
}

function blank(target: IDataObject | undefined, key: string): void {
	if (target && target[key] !== undefined && target[key] !== null) target[key] = null;
}

/**
 * A copy of the mention with the identifying fields of the level set to null (the user's explicit
 * choice when SentiOne did not anonymize): author id, name and avatar and the discussion author's
 * name; with `all` also the source channel and the parent post's author. No local hash is made:
 * a hash of ours would not match SentiOne's, so nulls say honestly that the value is gone.
 */
function removeIdentifyingFields(mention: IDataObject, level: AnonymizationLevel): IDataObject {
	const copy = JSON.parse(JSON.stringify(mention)) as IDataObject;
	const author = objectAt(copy, 'author');
	blank(author, 'id');
	blank(author, 'name');
	blank(author, 'avatar');
	blank(objectAt(objectAt(copy, 'discussion'), 'author'), 'name');
	if (level === 'all') {
		const channel = objectAt(objectAt(copy, 'source'), 'socialChannel');
		blank(channel, 'id');
		blank(channel, 'name');
		blank(objectAt(objectAt(objectAt(copy, 'context'), 'parent'), 'author'), 'name');
	}
	return copy;
}

/**
 * One mention of a stream that asked for anonymization, checked: as it came (anonymized), with its
 * identifying fields removed (the user chose that for a mention in clear), or refused with the
 * fields in clear named.
 */
export function checkAnonymized(
	mention: IDataObject,
	level: AnonymizationLevel,
	choice: NotAnonymizedChoice,
): { mention: IDataObject; removed: boolean } | { clear: string[] } {
	const clear = fieldsInClear(mention);
	if (clear.length === 0) return { mention, removed: false };
	if (choice === 'fail') return { clear };
	return { mention: removeIdentifyingFields(mention, level), removed: true };
}

/** The headline of a refused mention in clear. */
export function inClearMessage(level: AnonymizationLevel, id: string, clear: string[]): string {
	return `Anonymization (${level === 'all' ? 'All' : 'Author'}) was asked for, but SentiOne sent mention ${id} with ${clear.join(', ')} in clear`;
}
