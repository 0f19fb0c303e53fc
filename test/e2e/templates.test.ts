/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: not shipped in the package */
/**
 * The templates in examples/ in a real n8n: each imports with n8n's own CLI (`import:workflow`,
 * read back with `export:workflow`), every node type and typeVersion is one n8n (with the package
 * installed as a community package) knows — checked against the node types it gives its editor
 * (`/types/nodes.json`, of the n8n this run's end-to-end files share) — and every node's
 * parameters pass n8n's own parameter checks (the
 * red warnings the editor shows), apart from the fields only the user can fill in (their
 * spreadsheet). No template names a credential, so a user's n8n asks for theirs (the demo
 * chooses its own as it imports them, gulpfile.js).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { SIMPLE_COLUMNS } from '../../nodes/SentiOne/shared/simplify';
import { N8N_VERSION, createHost, sharedN8n, type Host } from '../support/n8n/host';
import { ROOT } from '../support/n8n/workflows';
import { type SavedWorkflowJson } from '../support/workflowJson';

const EXAMPLES = join(ROOT, 'examples');
const files = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.sort();
const templates: Array<{ file: string; workflow: SavedWorkflowJson }> = files.map((file) => ({
	file,
	workflow: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as SavedWorkflowJson,
}));

/** Parameters a template must leave to the user (their own accounts' resources). */
const USER_FILLS_IN: Record<string, string[]> = {
	'n8n-nodes-base.googleSheets': ['documentId', 'sheetName'],
};

let host: Host;
let known: INodeTypeDescription[];

beforeAll(async () => {
	host = await createHost();
	await host.importWorkflows(templates.map((t) => t.workflow));
	// every node type the editor of an n8n with the package offers (what `n8n export:nodes` writes)
	const n8n = await sharedN8n();
	const types = await n8n.file<INodeTypeDescription[]>('/types/nodes.json');
	if (types.status !== 200) throw new Error(`GET /types/nodes.json → ${types.status}`);
	known = types.json;
	expect(known.some((d) => d.name === 'n8n-nodes-sentione.sentiOne')).toBe(true);
}, 15 * 60_000);

afterAll(() => host?.dispose());

const versions = (d: INodeTypeDescription) => (Array.isArray(d.version) ? d.version : [d.version]);
const describe_ = (type: string, version: number) =>
	known.find((d) => d.name === type && versions(d).includes(version));

/**
 * n8n-workflow runs display-option regexes in a sandbox with a 250 ms limit (safe-regex.ts); on a
 * machine loaded by parallel work that limit can pass for an innocent pattern. Such a timeout is
 * the host's, not the template's: the check is made again, at most three times.
 */
function withRegexRetries<T>(check: () => T): T {
	for (let attempt = 1; ; attempt++) {
		try {
			return check();
		} catch (error) {
			if (attempt >= 3 || !/Regular expression execution timed out/.test(String(error))) {
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- test code: jest must see n8n's own error
				throw error;
			}
		}
	}
}

test('the five templates are there, in the shape n8n exports', () => {
	expect(files).toEqual([
		'ai-agent-sentione-tool.json',
		'negative-mention-slack-alert.json',
		'negative-mentions-live-slack-alert.json',
		'new-mentions-google-sheets.json',
		'weekly-export-csv.json',
	]);
	for (const { workflow } of templates) {
		expect(Object.keys(workflow)).toEqual([
			'name',
			'nodes',
			'pinData',
			'connections',
			'active',
			'settings',
			'versionId',
			'meta',
			'id',
			'tags',
		]);
		expect(workflow.active).toBe(false);
		expect(new Set(workflow.nodes.map((n) => n.name)).size).toBe(workflow.nodes.length);
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(workflow.nodes.map((n) => n.name)).toContain(from);
			for (const target of Object.values(outputs).flat(2))
				expect(workflow.nodes.map((n) => n.name)).toContain(target?.node);
		}
	}
});

test('n8n imported every template unchanged', async () => {
	const out = join(host.userFolder, 'exported');
	const exported = await host.cli(['export:workflow', '--all', '--separate', `--output=${out}`]);
	expect(exported.code).toBe(0);
	// every workflow n8n holds: exactly the templates, under their ids and names
	expect(readdirSync(out).sort()).toEqual(templates.map((t) => `${t.workflow.id}.json`).sort());
	for (const { workflow } of templates) {
		const back = JSON.parse(
			readFileSync(join(out, `${workflow.id}.json`), 'utf8'),
		) as SavedWorkflowJson;
		expect([back.id, back.name]).toEqual([workflow.id, workflow.name]);
		expect(back.nodes).toEqual(workflow.nodes);
		expect(back.connections).toEqual(workflow.connections);
	}
});

test.each(templates.map((t) => [t.file, t.workflow] as const))(
	"%s: every node type and version resolves, parameters pass n8n's checks",
	(_file, workflow) => {
		for (const node of workflow.nodes) {
			const description = describe_(node.type, node.typeVersion);
			if (!description)
				throw new Error(
					`${node.name}: ${node.type} v${node.typeVersion} is not a node type of n8n ${N8N_VERSION}`,
				);
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters as INode['parameters'],
				true,
				false,
				node,
				description,
			);
			const issues = withRegexRetries(() =>
				NodeHelpers.getNodeParametersIssues(
					description.properties,
					{ ...(node as unknown as INode), parameters: parameters ?? {} },
					description,
				),
			);
			const unexpected = Object.keys(issues?.parameters ?? {}).filter(
				(p) => !(USER_FILLS_IN[node.type] ?? []).includes(p),
			);
			expect({ node: node.name, issues: unexpected.map((p) => issues?.parameters?.[p]) }).toEqual({
				node: node.name,
				issues: [],
			});
			// no credential of ours (nor anyone's): n8n asks the user to choose theirs
			expect({ node: node.name, credentials: node.credentials }).toEqual({
				node: node.name,
				credentials: undefined,
			});
		}
	},
);

test('the templates use the real Slack, Google Sheets, AI Agent and the SentiOne tool', () => {
	const types = (file: string) =>
		templates.find((t) => t.file === file)!.workflow.nodes.map((n) => n.type);
	expect(types('negative-mention-slack-alert.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneTrigger', 'n8n-nodes-base.slack']),
	);
	expect(types('new-mentions-google-sheets.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneTrigger', 'n8n-nodes-base.googleSheets']),
	);
	// the live alert: the poll template's Slack message, from the Stream Trigger (new mentions, negative)
	const live = templates.find(
		(t) => t.file === 'negative-mentions-live-slack-alert.json',
	)!.workflow;
	const poll = templates.find((t) => t.file === 'negative-mention-slack-alert.json')!.workflow;
	expect(types('negative-mentions-live-slack-alert.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneStreamTrigger', 'n8n-nodes-base.slack']),
	);
	const stream = live.nodes.find((n) => n.type === 'n8n-nodes-sentione.sentiOneStreamTrigger')!;
	expect(stream.parameters.event ?? 'newMention').toBe('newMention');
	expect(stream.parameters.filters).toEqual({ sentiments: ['Negative'] });
	expect(live.connections[stream.name].main[0]?.[0].node).toBe('Alert the team in Slack');
	const text = (w: SavedWorkflowJson) =>
		String(w.nodes.find((n) => n.type === 'n8n-nodes-base.slack')!.parameters.text);
	expect(text(live)).toBe(text(poll).replace('*Negative mention*', '*Negative mention (live)*'));
	expect(types('weekly-export-csv.json')).toEqual(
		expect.arrayContaining([
			'n8n-nodes-base.scheduleTrigger',
			'n8n-nodes-sentione.sentiOne',
			'n8n-nodes-base.convertToFile',
			'n8n-nodes-base.readWriteFile',
		]),
	);
	const agent = templates.find((t) => t.file === 'ai-agent-sentione-tool.json')!.workflow;
	expect(agent.nodes.map((n) => n.type)).toEqual(
		expect.arrayContaining([
			'@n8n/n8n-nodes-langchain.agent',
			'@n8n/n8n-nodes-langchain.lmChatOpenAi',
			'n8n-nodes-sentione.sentiOneTool',
		]),
	);
	const tools = agent.nodes.filter((n) => n.type === 'n8n-nodes-sentione.sentiOneTool');
	expect(
		tools.every((t) => agent.connections[t.name]?.ai_tool?.[0]?.[0]?.node === 'AI Agent'),
	).toBe(true);
	// the search tool's parameters are filled in by the model
	expect(JSON.stringify(tools.map((t) => t.parameters))).toMatch(/\$fromAI\('projectId'/);
	const sheets = templates
		.find((t) => t.file === 'new-mentions-google-sheets.json')!
		.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.googleSheets')!;
	expect(
		(sheets.parameters.columns as { schema: Array<{ id: string }> }).schema.map((c) => c.id),
	).toEqual([...SIMPLE_COLUMNS]);
});
