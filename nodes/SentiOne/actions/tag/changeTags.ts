/**
 * Add and Remove: their fields, the mention and the tag names with their local checks (a mention ID,
 * and 1–50 tag names of 1–100 characters without commas, D-22), and the request that changes the
 * mention's tags.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { BOUNDS } from '../../shared/bounds';
import { hasControl } from '../../shared/text';
import {
	route,
	TAG_NAME_MAX_LENGTH,
	TAGS_FIELD,
	TAGS_PER_REQUEST_MAX,
} from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import { invalidParameter, readText } from '../../shared/parameters';
import type { SentiOneTransport } from '../../shared/transport';
import { costText, tierLead } from '../../shared/wording';
import { operationNotice } from '../common.descriptions';
import { readProjectId } from '../readParameters';

/** The endpoint of each change. */
const ENDPOINT = { add: 'addTags', remove: 'removeTags' } as const;

export function tagFieldProperties(verb: 'add' | 'remove'): INodeProperties[] {
	return [
		operationNotice(
			verb === 'add' ? 'tagAddNotice' : 'tagRemoveNotice',
			`${tierLead(ENDPOINT[verb])}. Costs ${costText(ENDPOINT[verb])}.`,
		),
		{ ...projectLocator, description: 'The project the mention belongs to' },
		{
			displayName: 'Mention ID',
			name: 'mentionId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 7f3c2a9e',
			description: 'The ID of the mention, as returned by a search or an export (its ID field)',
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. complaint, vip',
			description:
				verb === 'add'
					? `Tag names to add, separated by commas (1 to ${TAGS_PER_REQUEST_MAX} names of at most ${TAG_NAME_MAX_LENGTH} characters). A name the project does not have yet is created; a tag the mention already has is left as is.`
					: `Tag names to remove, separated by commas (1 to ${TAGS_PER_REQUEST_MAX} names). A tag the mention does not have is ignored.`,
		},
	];
}

export function readMentionId(this: IExecuteFunctions, i: number): string {
	const node = this.getNode();
	const id = readText(this.getNodeParameter('mentionId', i, ''), node, 'Mention ID', i);
	if (id === '') {
		throw invalidParameter(
			node,
			'Mention ID',
			'no mention ID is given. Use the "id" field of a mention.',
			i,
		);
	}
	if (/^(\.|%2e){1,2}$/i.test(id)) {
		throw invalidParameter(
			node,
			'Mention ID',
			`"${id}" cannot be a mention ID: in a request path it would mean a move up the path, not a mention. Use the "id" field of a mention.`,
			i,
		);
	}
	if (id.length > BOUNDS.maxMentionIdChars || hasControl(id)) {
		throw invalidParameter(
			node,
			'Mention ID',
			`this is not a mention ID (${id.length > BOUNDS.maxMentionIdChars ? `${id.length} characters long` : 'it contains control characters'}). Use the "id" field of a mention.`,
			i,
		);
	}
	return id;
}

/** The body `{ tags: [...] }`: names trimmed, duplicates dropped, every rule checked. */
export function readTagsBody(this: IExecuteFunctions, i: number): IDataObject {
	const node = this.getNode();
	const raw = this.getNodeParameter('tags', i, '');
	// a list from an expression is a list of names; anything else must be text
	const pieces = Array.isArray(raw)
		? raw.map((v, index) => readText(v, node, `Tags (name ${index + 1})`, i))
		: readText(raw, node, 'Tags', i).split(',');
	const names = pieces.map((name) => name.trim());
	if (names.every((name) => name === '')) {
		throw invalidParameter(
			node,
			'Tags',
			'no tag name is given. Enter one or more names separated by commas.',
			i,
		);
	}
	names.forEach((name, index) => {
		if (name === '') {
			throw invalidParameter(
				node,
				'Tags',
				`tag name ${index + 1} is empty (two commas in a row, or a comma at the start or end?).`,
				i,
			);
		}
		if (name.includes(',')) {
			throw invalidParameter(node, 'Tags', `"${name}": a tag name cannot contain a comma.`, i);
		}
		if (name.length > TAG_NAME_MAX_LENGTH) {
			throw invalidParameter(
				node,
				'Tags',
				`tag name ${index + 1} is ${name.length} characters long; SentiOne accepts at most ${TAG_NAME_MAX_LENGTH}.`,
				i,
			);
		}
	});
	const unique = Array.from(new Set(names));
	if (unique.length > TAGS_PER_REQUEST_MAX) {
		throw invalidParameter(
			node,
			'Tags',
			`${unique.length} tag names are given; SentiOne accepts at most ${TAGS_PER_REQUEST_MAX} per request.`,
			i,
		);
	}
	return { [TAGS_FIELD]: unique };
}

/**
 * Add or Remove: both are set operations on the mention's tags and answer
 * `{ id, tags }` with every tag the mention has afterwards. Never retried automatically.
 */
export async function changeTags(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	verb: 'add' | 'remove',
): Promise<IDataObject> {
	const projectId = readProjectId.call(this, i);
	const mentionId = readMentionId.call(this, i);
	const body = readTagsBody.call(this, i);
	const { body: answer } = await transport.request<IDataObject>({
		...route(ENDPOINT[verb], projectId, mentionId),
		body,
		itemIndex: i,
	});
	return answer;
}
