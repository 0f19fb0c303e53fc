/**
 * The flat, stable row a spreadsheet or an AI agent wants from a mention. Every key is always
 * present (null when the mention does not carry it) and always in this order, so appending rows
 * to a sheet never shifts columns. A count above 2^53 is its exact digits as a string (D-51).
 */
import type { IDataObject } from 'n8n-workflow';

import { exactCount } from './json';

export const SIMPLE_COLUMNS = [
	'id',
	'url',
	'publishedAt',
	'collectedAt',
	'sourceType',
	'mentionType',
	'sentiment',
	'authorName',
	'authorFollowers',
	'title',
	'text',
	'language',
	'country',
	'likeCount',
	'shareCount',
	'commentCount',
	'viewCount',
	'influenceScore',
	'engagementRate',
	'tags',
] as const;

type Cell = IDataObject[string];

function at(value: unknown, ...path: string[]): Cell {
	let current = value;
	for (const key of path) {
		if (current === null || current === undefined || typeof current !== 'object') return null;
		current = (current as IDataObject)[key];
	}
	return current === undefined ? null : (current as Cell);
}

/** A mention as the nodes pass it on: the flat row with Simplify, else as SentiOne sent it. */
export function mentionRow(mention: IDataObject, simplify: boolean): IDataObject {
	return simplify ? simplifyMention(mention) : mention;
}

function simplifyMention(mention: IDataObject): IDataObject {
	const common = at(mention, 'engagementMetrics', 'sourceMetrics', 'common');
	const tags = at(mention, 'tags');
	const row: IDataObject = {
		id: at(mention, 'id'),
		url: at(mention, 'source', 'mentionUrl'),
		publishedAt: at(mention, 'publishedAt'),
		collectedAt: at(mention, 'collectedAt'),
		sourceType: at(mention, 'source', 'type'),
		mentionType: at(mention, 'type'),
		sentiment: at(mention, 'content', 'sentiment'),
		authorName: at(mention, 'author', 'name'),
		authorFollowers: exactCount(at(mention, 'author', 'influenceMetrics'), 'followerCount') as Cell,
		title: at(mention, 'content', 'title'),
		text: at(mention, 'content', 'text'),
		language: at(mention, 'content', 'language', 'code'),
		country: at(mention, 'location', 'country', 'code'),
		likeCount: exactCount(common, 'likeCount') as Cell,
		shareCount: exactCount(common, 'shareCount') as Cell,
		commentCount: exactCount(common, 'commentCount') as Cell,
		viewCount: exactCount(common, 'viewCount') as Cell,
		influenceScore: at(mention, 'engagementMetrics', 'influenceScore'),
		engagementRate: at(mention, 'engagementMetrics', 'engagementRate'),
		tags: Array.isArray(tags) ? tags.map(String).join(', ') : '',
	};
	return row;
}
