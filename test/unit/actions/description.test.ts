/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The node description as n8n and an AI agent see it: resources and operations exactly as the
 * issue lists them, an action and a tier/budget description on every operation, sorted options,
 * the codex, and a router entry for every operation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import * as mention from '../../../nodes/SentiOne/actions/mention/Mention.resource';
import * as project from '../../../nodes/SentiOne/actions/project/Project.resource';
import * as tag from '../../../nodes/SentiOne/actions/tag/Tag.resource';
import { SentiOne } from '../../../nodes/SentiOne/SentiOne.node';
import { CREDENTIAL_TYPE } from '../../../nodes/SentiOne/shared/contract';
import { REPO_ROOT } from '../../support/paths';

const node = new SentiOne();
const { description } = node;
const properties = description.properties;

function operationsOf(resource: string): INodePropertyOptions[] {
	const selector = properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	return (selector?.options ?? []) as INodePropertyOptions[];
}

test('identity: name, display name, version, tool use, subtitle, icons, credential', () => {
	expect(description).toMatchObject({
		displayName: 'SentiOne',
		name: 'sentiOne',
		version: 1,
		usableAsTool: true,
		subtitle: expect.stringMatching(/^=\{\{/), // what it reads: test/unit/subtitle.test.ts
		icon: { light: 'file:../../icons/sentione.svg', dark: 'file:../../icons/sentione.dark.svg' },
		credentials: [{ name: 'sentiOneApi', required: true }],
	});
	expect(new SentiOneApi().name).toBe(CREDENTIAL_TYPE);
	expect(typeof node.methods.listSearch.searchProjects).toBe('function');
});

test('resources and operations exactly as the issue lists them', () => {
	const resources = properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	expect(resources.map((r) => r.value)).toEqual(['mention', 'project', 'tag']);
	expect(operationsOf('project').map((o) => o.value)).toEqual([
		'create',
		'deleteProject',
		'getAll',
		'update',
	]);
	expect(operationsOf('mention').map((o) => o.value)).toEqual([
		'export',
		'searchHistorical',
		'searchRecent',
	]);
	expect(operationsOf('tag').map((o) => o.value)).toEqual(['add', 'getAll', 'remove']);
});

test('every operation has an action and a description naming its tier and its cost', () => {
	for (const resource of ['mention', 'project', 'tag']) {
		for (const operation of operationsOf(resource)) {
			expect(operation.action).toMatch(/^[A-Z][a-z]/);
			expect(operation.description).toMatch(/(Basic|Enterprise) tier/);
			expect(operation.description).toMatch(/an hour/);
		}
	}
	const searches = operationsOf('mention').filter((o) => String(o.value).startsWith('search'));
	expect(searches.find((o) => o.value === 'searchRecent')!.description).toContain(
		'Basic tier; each page of 25 costs 1 of the 30 searches an hour shared with historical search',
	);
	expect(searches.find((o) => o.value === 'searchHistorical')!.description).toContain(
		'Enterprise tier; each page of 25 costs 1 of the 30 searches an hour shared with recent search',
	);
});

test('one notice per operation, first among its fields, naming the tier and the cost; Return All and Limit plain as in n8n', () => {
	for (const resource of ['mention', 'project', 'tag']) {
		for (const operation of operationsOf(resource)) {
			const fields = properties.filter(
				(p) =>
					p.displayOptions?.show?.resource?.includes(resource) &&
					p.displayOptions?.show?.operation?.includes(operation.value),
			);
			const notices = fields.filter((p) => p.type === 'notice');
			expect(notices).toHaveLength(1);
			expect(fields[0]).toBe(notices[0]);
			expect(notices[0].displayName).toMatch(/(Basic|Enterprise) tier/);
			expect(notices[0].displayName).toMatch(
				/\d+ (searches|project requests|tag requests|export streams|[a-z ]+) an hour|costs/i,
			);
			for (const name of ['returnAll', 'limit']) {
				const field = fields.find((p) => p.name === name);
				if (!field) continue;
				// n8n's built-in wording, no cost note repeated on each
				if (name === 'returnAll')
					expect(field.description).toBe(
						'Whether to return all results or only up to a given limit',
					);
				else
					expect(field.description).toMatch(/^Max number of results to return( \([^)]{1,60}\))?$/);
			}
		}
	}
});

test('every operation of the description has an execute function in its resource module', () => {
	const modules: Record<string, Record<string, unknown>> = { project, mention, tag };
	for (const resource of Object.keys(modules)) {
		for (const operation of operationsOf(resource)) {
			const module = modules[resource][String(operation.value)] as {
				execute?: unknown;
				description?: unknown;
			};
			expect(typeof module?.execute).toBe('function');
			expect(Array.isArray(module?.description)).toBe(true);
		}
	}
});

test('search options: Return All / Limit, Filters, Sort By (default PublishedAtDescending), Simplify, rate-limit choice', () => {
	for (const operation of ['searchRecent', 'searchHistorical']) {
		const fields = properties.filter((p) => p.displayOptions?.show?.operation?.includes(operation));
		expect(fields.map((p) => p.name)).toEqual([
			`${operation}Notice`,
			'project',
			'returnAll',
			'limit',
			'filters',
			'sortType',
			'simplify',
			'options',
		]);
		expect(fields.find((p) => p.name === 'sortType')!.default).toBe('PublishedAtDescending');
		expect(
			(fields.find((p) => p.name === 'sortType')!.options as INodePropertyOptions[]).map(
				(o) => o.value,
			),
		).toHaveLength(9);
		const options = fields.find((p) => p.name === 'options')!.options as INodeProperties[];
		const onRateLimit = options.find((o) => o.name === 'onRateLimit')!;
		expect((onRateLimit.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
			'fail',
			'stop',
			'wait',
		]);
		const filters = fields.find((p) => p.name === 'filters')!.options as INodeProperties[];
		expect(filters.map((f) => f.name)).toEqual([
			'collectedAfter',
			'collectedBefore',
			'query',
			'countries',
			'languages',
			'mentionTypes',
			'publishedAfter',
			'publishedBefore',
			'publishedInLast',
			'sentiments',
			'sourceTypes',
		]);
	}
	const exportFields = properties.filter((p) =>
		p.displayOptions?.show?.operation?.includes('export'),
	);
	expect(exportFields.map((p) => p.name)).toEqual([
		'exportNotice',
		'project',
		'exportScope',
		'returnAll',
		'limit',
		'filters',
		'sortType',
		'simplify',
		'options',
	]);
});

test('options of every options, multiOptions and collection parameter are sorted alphabetically', () => {
	const check = (props: Array<INodeProperties | INodePropertyCollection>) => {
		for (const p of props) {
			if (!('type' in p)) continue;
			if (p.name === 'operation' || p.name === 'resource' || p.name === 'sortType') {
				const names = (p.options as INodePropertyOptions[]).map((o) => o.name);
				expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
				continue;
			}
			if (['options', 'multiOptions', 'collection'].includes(p.type) && Array.isArray(p.options)) {
				const names = p.options.map((o) => ('displayName' in o ? o.displayName : o.name));
				expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
				if (p.type === 'collection') check(p.options as INodeProperties[]);
			}
		}
	};
	check(properties);
});

test('the codex names the node of this package with n8n categories and documentation links', () => {
	const codex = JSON.parse(
		readFileSync(join(REPO_ROOT, 'nodes/SentiOne/SentiOne.node.json'), 'utf8'),
	);
	expect(codex.node).toBe('n8n-nodes-sentione.sentiOne');
	expect(codex.categories).toEqual(['Marketing', 'Analytics']);
	expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
	expect(codex.resources.credentialDocumentation[0].url).toMatch(/^https:\/\//);
});

test('package.json ships the node', () => {
	const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
	expect(pkg.n8n.nodes).toContain('dist/nodes/SentiOne/SentiOne.node.js');
});
