/* eslint-disable @typescript-eslint/no-require-imports -- loads the package afresh after each edit of the contract */
/**
 * The contract module keeps its promise (docs/api-contract.md, "Changing an endpoint"): an
 * endpoint's path, tier, budget group and whether it is a read live in one row of its table, and
 * everything else is derived from it — the paths, the requests, the tier a refusal names, the retry
 * rule, and the tier and budget wording of every description and message. Each test loads the
 * nodes afresh after changing the table, as a vendor change would, and checks that the change
 * reached everything.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

type Contract = typeof import('../../../../nodes/SentiOne/shared/contract');

const NODE_MODULES = [
	['../../../../nodes/SentiOne/SentiOne.node', 'SentiOne'],
	['../../../../nodes/SentiOne/SentiOneTrigger.node', 'SentiOneTrigger'],
	['../../../../nodes/SentiOne/SentiOneStreamTrigger.node', 'SentiOneStreamTrigger'],
] as const;

/** Loads the contract, lets `change` edit it, then loads the rest of the package against the edit. */
function withChangedContract<T>(
	change: (contract: Contract) => void,
	use: (contract: Contract) => T,
): T {
	let result: T | undefined;
	jest.isolateModules(() => {
		const contract = require('../../../../nodes/SentiOne/shared/contract') as Contract;
		change(contract);
		result = use(contract);
	});
	return result as T;
}

/** Every text a user reads in a node's description: names, descriptions, hints, option labels. */
function textsOf(description: INodeTypeDescription): string[] {
	const texts: string[] = [description.description, description.subtitle ?? ''];
	const walk = (value: unknown) => {
		if (Array.isArray(value)) value.forEach(walk);
		else if (value && typeof value === 'object') {
			for (const [key, inner] of Object.entries(value)) {
				if (
					['displayName', 'description', 'hint', 'name', 'action', 'placeholder'].includes(key) &&
					typeof inner === 'string'
				)
					texts.push(inner);
				else walk(inner);
			}
		}
	};
	walk(description.properties);
	return texts;
}

function descriptions(): INodeTypeDescription[] {
	return NODE_MODULES.map(([path, name]) => {
		const NodeClass = (
			require(path) as Record<string, new () => { description: INodeTypeDescription }>
		)[name];
		return new NodeClass().description;
	});
}

function credentialTexts(): string[] {
	const { SentiOneApi } =
		require('../../../../credentials/SentiOneApi.credentials') as typeof import('../../../../credentials/SentiOneApi.credentials');
	const credential = new SentiOneApi();
	return [
		...credential.properties.map((p: INodeProperties) => p.description ?? ''),
		...(credential.test.rules ?? []).flatMap((rule) => {
			const { value, message } = rule.properties as { value?: unknown; message: string };
			return [typeof value === 'string' ? value : '', message];
		}),
	];
}

test('one row of the table moves an endpoint: its path, its tier, its budget and its retry rule follow everywhere', () => {
	withChangedContract(
		(contract) => {
			const row = contract.ENDPOINTS.listTags;
			row.path = (projectId: number) => `/v3/projects/${contract.pathSegment(projectId)}/labels`;
			row.tier = 'Basic';
			contract.HOURLY_LIMITS.tags = 123;
			contract.ENDPOINTS.removeTags.read = true;
		},
		(contract) => {
			expect(contract.PATHS.listTags(7)).toBe('/v3/projects/7/labels');
			expect(contract.route('listTags', 7)).toEqual({
				endpoint: 'listTags',
				method: 'GET',
				path: '/v3/projects/7/labels',
				group: 'tags',
				tier: 'Basic',
				read: true,
			});
			// the retry rule: only reads are retried, and the table says which are
			expect(contract.route('removeTags', 7, 'm1').read).toBe(true);

			const [action] = descriptions();
			const texts = textsOf(action);
			expect(texts).toContain(
				'Basic tier. Each page of 100 tags costs 1 of the 123 tagging requests an hour.',
			);
			expect(texts).toContain(
				'List the tags of a project with how many mentions carry each. Basic tier; each page of 100 costs 1 of the 123 tagging requests an hour.',
			);

			// the tier a refusal names
			const errors =
				require('../../../../nodes/SentiOne/shared/errors') as typeof import('../../../../nodes/SentiOne/shared/errors');
			const node = {
				name: 'SentiOne',
				type: 'n8n-nodes-sentione.sentiOne',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				id: 'x',
			} as never;
			const refused = errors.mapHttpError(
				node,
				{ ...contract.route('listTags', 7) },
				{
					statusCode: 401,
					body: { message: 'API key does not have permission for this endpoint.' },
				},
			);
			expect(refused.message).toBe(
				"Tag → Get Many needs API access (SentiOne's Basic tier), and this API key has none (401)",
			);
			const hourly = errors.mapHttpError(
				node,
				{ ...contract.route('listTags', 7) },
				{ statusCode: 429, body: { message: 'Rate limit reached.' } },
			);
			expect(hourly.description).toBe(
				'The tagging API allows 123 requests an hour per API key, shared by every workflow using it.',
			);
		},
	);
});

test('every tier and budget the three nodes and the credential name comes from the contract', () => {
	const renamed = { Basic: 'Bronze', Enterprise: 'Gold' } as const;
	const texts = withChangedContract(
		(contract) => {
			const tiers = contract.TIERS as unknown as string[];
			tiers.splice(0, tiers.length, renamed.Basic, renamed.Enterprise);
			for (const row of Object.values(contract.ENDPOINTS))
				row.tier = renamed[row.tier as keyof typeof renamed] as never;
			Object.assign(contract.HOURLY_LIMITS, {
				projects: 301,
				search: 31,
				tags: 302,
				export: 6,
				live: 7,
				engagement: 3601,
			});
			Object.assign(contract.CONCURRENT_STREAMS, { export: 3, live: 3, engagement: 4 });
		},
		() => [...descriptions().flatMap(textsOf), ...credentialTexts()],
	);
	const all = texts.join('\n');
	// no tier is named by its old name, no budget by its old figure
	expect(all).not.toMatch(/\b(Basic|Enterprise)\b/);
	expect(all).not.toMatch(/\b(30|300|3,?600)\b/);
	expect(all).not.toMatch(/\bof the 5\b|\b2 (may be )?open\b|allows 1\b/);
	// and the new ones are
	for (const figure of [
		'Bronze tier',
		'Gold tier',
		'a Bronze key is refused',
		'1 of the 301 project requests an hour',
		'1 of the 31 searches an hour',
		'1 of the 302 tagging requests an hour',
		'1 of the 6 export streams an hour',
		'at most 3 open at a time',
		'1 of the 7 live-stream connections an hour',
		'the engagement stream allows 4',
		'It requires the Bronze tier.',
		'301 project-list requests',
	]) {
		expect(all).toContain(figure);
	}
});

test('the scoped endpoints (search and export, recent and historical) are found by the table', () => {
	withChangedContract(
		(contract) => {
			contract.ENDPOINTS.recentSearch.scope = 'historical';
			contract.ENDPOINTS.historicalSearch.scope = 'recent';
		},
		(contract) => {
			expect(contract.scopedEndpoint('search', 'recent')).toBe('historicalSearch');
			expect(contract.scopedEndpoint('export', 'recent')).toBe('recentExport');
		},
	);
});
