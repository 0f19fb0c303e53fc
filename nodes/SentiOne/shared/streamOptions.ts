/**
 * The two stream options the export and the stream trigger share (D-26, D-27): the anonymization
 * level and the framing. One description and one reader each, so both nodes offer and check them
 * the same way.
 */
import type { INode, INodeProperties } from 'n8n-workflow';

import type { NotAnonymizedChoice } from './anonymization';
import type { AnonymizationLevel } from './contract';
import { ANONYMIZATION_LEVELS, STREAM_ACCEPT } from './contract';
import { readChoice } from './parameters';
import type { StreamFormat } from './stream';

const STREAM_FORMATS: readonly StreamFormat[] = ['jsonLines', 'sse'];

export const anonymizationOption: INodeProperties = {
	displayName: 'Anonymization',
	name: 'anonymization',
	type: 'options',
	default: 'none',
	description:
		"Whether SentiOne replaces personal data with a hash (the same input always gives the same hash, matching SentiOne's tabular exports; experimental on the API side)",
	options: [
		{
			name: 'All',
			value: 'all',
			description: 'As Author, and the source channel and the parent post author hashed too',
		},
		{
			name: 'Author',
			value: 'author',
			description:
				'Author ID and name replaced by a hash (the same author gives the same hash), avatar removed',
		},
		{ name: 'None', value: 'none', description: 'Mentions as collected' },
	],
};

export const notAnonymizedOption: INodeProperties = {
	displayName: 'If Not Anonymized',
	name: 'notAnonymized',
	type: 'options',
	default: 'fail',
	description:
		'What to do when Anonymization is on but SentiOne sends a mention with its author in clear (the API side of anonymization is experimental)',
	options: [
		{
			name: 'Fail',
			value: 'fail',
			description: 'Stop with an error; no mention with an author in clear is passed on',
		},
		{
			name: 'Remove Identifying Fields',
			value: 'remove',
			description:
				'Set the author ID, name and avatar (and with All the source channel and parent author) to null and go on; no hash is made',
		},
	],
};

export const streamFormatOption: INodeProperties = {
	displayName: 'Stream Format',
	name: 'streamFormat',
	type: 'options',
	default: 'sse',
	description: 'How SentiOne frames the stream; both carry the same events',
	options: [
		{
			name: 'JSON Lines',
			value: 'jsonLines',
			description: `One JSON object per line (${STREAM_ACCEPT.jsonLines})`,
		},
		{
			name: 'Server-Sent Events',
			value: 'sse',
			description: `Events framed as ${STREAM_ACCEPT.sse}`,
		},
	],
};

/** The anonymization level to send, or undefined for none. */
export function readAnonymization(
	value: unknown,
	node: INode,
	itemIndex?: number,
): AnonymizationLevel | undefined {
	const level = readChoice(
		value ?? 'none',
		['none', ...ANONYMIZATION_LEVELS],
		node,
		'Options → Anonymization',
		itemIndex,
		'a level',
	);
	return level === 'none' ? undefined : level;
}

export function readStreamFormat(value: unknown, node: INode, itemIndex?: number): StreamFormat {
	return readChoice(
		value ?? 'sse',
		STREAM_FORMATS,
		node,
		'Options → Stream Format',
		itemIndex,
		'a stream format',
	);
}

const NOT_ANONYMIZED: readonly NotAnonymizedChoice[] = ['fail', 'remove'];

export function readNotAnonymized(
	value: unknown,
	node: INode,
	itemIndex?: number,
): NotAnonymizedChoice {
	return readChoice(
		value ?? 'fail',
		NOT_ANONYMIZED,
		node,
		'Options → If Not Anonymized',
		itemIndex,
	);
}
