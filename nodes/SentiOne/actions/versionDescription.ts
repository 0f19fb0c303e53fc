/**
 * The parameters of version 1: the resource selector and every operation's fields. The rest of
 * the node description (name, icon, credentials…) sits in the node class itself, where n8n's
 * lint rules look for it.
 */
import type { INodeProperties } from 'n8n-workflow';

import { tierOf } from '../shared/wording';

import * as mention from './mention/Mention.resource';
import * as project from './project/Project.resource';
import * as tag from './tag/Tag.resource';

export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Mention',
				value: 'mention',
				description: 'A collected post, comment, article, message or share of a project',
			},
			{
				name: 'Project',
				value: 'project',
				description: 'A saved monitoring subject (name and query)',
			},
			{
				name: 'Tag',
				value: 'tag',
				description: `A label on mentions of a project (${tierOf('listTags')} tier)`,
			},
		],
		default: 'mention',
	},
	...mention.description,
	...project.description,
	...tag.description,
];

/**
 * The canvas subtitle: the operation as the nodes panel names it (each operation's `action`),
 * looked up by resource and operation; n8n's usual "operation: resource" where none is found.
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const table: Record<string, Record<string, string>> = {};
	for (const p of properties) {
		const resources = p.displayOptions?.show?.resource;
		if (p.name !== 'operation' || !Array.isArray(resources)) continue;
		for (const resource of resources) {
			for (const option of p.options ?? []) {
				if ('value' in option && 'action' in option && typeof option.action === 'string') {
					(table[String(resource)] ??= {})[String(option.value)] = option.action;
				}
			}
		}
	}
	// "}}" would end the expression early: nested objects' braces keep a space between them
	const literal = JSON.stringify(table).replace(/\}(?=\})/g, '} ');
	return `={{ (${literal}[$parameter["resource"]] || {})[$parameter["operation"]] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}
