/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- test code: not shipped in the package */
/**
 * Workflows for the end-to-end tests, in the shape n8n exports them (the editor's "Download"),
 * with node types as a user's n8n has them after installing the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CredentialJson } from './host';
import { REPO_ROOT } from '../paths';
import { iso } from '../time';
import type { INodeParameters } from 'n8n-workflow';

import type { SavedWorkflowJson } from '../workflowJson';

export const ROOT = REPO_ROOT;
export const MANUAL = 'When clicking ‘Execute workflow’';

export const CREDENTIALS = {
	basic: { id: 'e2eSentiOneBasic', name: 'SentiOne (Basic key)' },
	enterprise: { id: 'e2eSentiOneEntpr', name: 'SentiOne (Enterprise key)' },
	wrongKey: { id: 'e2eSentiOneWrong', name: 'SentiOne (mistyped key)' },
} as const;

export function sentiOneCredentials(simBase: string): CredentialJson[] {
	return [
		{
			...CREDENTIALS.basic,
			type: 'sentiOneApi',
			data: { apiKey: 'SENTIONE-APIKEY-basic-demo', baseUrl: simBase },
		},
		{
			...CREDENTIALS.enterprise,
			type: 'sentiOneApi',
			data: { apiKey: 'SENTIONE-APIKEY-enterprise-demo', baseUrl: simBase },
		},
		// a key SentiOne does not know: one character off
		{
			...CREDENTIALS.wrongKey,
			type: 'sentiOneApi',
			data: { apiKey: 'SENTIONE-APIKEY-basic-dem0', baseUrl: simBase },
		},
	];
}

type Node = SavedWorkflowJson['nodes'][number];

let counter = 0;
const nodeId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

export function node(
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	extra: Partial<Node> = {},
): Node {
	return {
		parameters: parameters as INodeParameters,
		type,
		typeVersion: 1,
		position: [0, 0],
		id: nodeId(),
		name,
		...extra,
	};
}

export function sentiOne(
	name: string,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
	extra: Partial<Node> = {},
): Node {
	return node(name, 'n8n-nodes-sentione.sentiOne', parameters, {
		credentials: { sentiOneApi: credential },
		...extra,
	});
}

/** A workflow: the manual trigger, then `chain` in a row, plus extra branches from the trigger. */
export function workflow(
	id: string,
	name: string,
	chain: Node[],
	branches: Node[] = [],
): SavedWorkflowJson {
	const trigger = node(MANUAL, 'n8n-nodes-base.manualTrigger', {});
	const nodes = [trigger, ...chain, ...branches].map((n, i) => ({
		...n,
		position: [i * 220, 0] as [number, number],
	}));
	const connections: SavedWorkflowJson['connections'] = {};
	const link = (from: string, to: string) => {
		connections[from] ??= { main: [[]] };
		connections[from].main[0]!.push({ node: to, type: 'main', index: 0 });
	};
	[trigger, ...chain].forEach((n, i, all) => {
		if (i + 1 < all.length) link(n.name, all[i + 1].name);
	});
	for (const b of branches) link(trigger.name, b.name);
	return {
		name,
		nodes,
		pinData: {},
		connections,
		active: false,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		versionId: versionOf(id),
		meta: { instanceId: 'e2e' },
		id,
		tags: [],
	};
}

/** The version id of a workflow these tests build, made from its id. */
const versionOf = (id: string) => `${id}-0000-4000-8000-000000000001`.slice(0, 36);

/**
 * A manual workflow of one Mention → Export node: project 1002's mentions published from `from` to
 * `to` (ms), oldest first, all of them, on the Enterprise key.
 */
export function historicalExport(
	id: string,
	name: string,
	nodeName: string,
	from: number,
	to: number,
): SavedWorkflowJson {
	return workflow(id, name, [
		sentiOne(
			nodeName,
			{
				resource: 'mention',
				operation: 'export',
				project: project(1002),
				exportScope: 'historical',
				returnAll: true,
				filters: { publishedAfter: iso(from), publishedBefore: iso(to) },
				sortType: 'PublishedAtAscending',
				options: {},
			},
			CREDENTIALS.enterprise,
		),
	]);
}

export const project = (id: number | string) => ({ __rl: true, value: String(id), mode: 'id' });

/** Node and version ids made from a workflow id (its first 8 characters, then …0001, …0002, …). */
export const idsFrom = (id: string, n: number) =>
	`${id.slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A SentiOne trigger, its type and parameters, as `triggerThenDone` places it. */
export interface TriggerNode {
	name: string;
	kind: 'poll' | 'stream';
	parameters: Record<string, unknown>;
	credential: { id: string; name: string };
}

/**
 * A saved workflow of one SentiOne trigger passing what it emits to a No Operation node named
 * Done (the way a user starts one); node ids (idsFrom) and the version id made from the
 * workflow's id unless given.
 */
export function triggerThenDone(
	id: string,
	name: string,
	trigger: TriggerNode,
	o: { nodeIds?: [string, string]; versionId?: string; instanceId?: string } = {},
): SavedWorkflowJson {
	const [triggerId, doneId] = o.nodeIds ?? [idsFrom(id, 1), idsFrom(id, 2)];
	const first = {
		id: triggerId,
		name: trigger.name,
		type:
			trigger.kind === 'stream'
				? 'n8n-nodes-sentione.sentiOneStreamTrigger'
				: 'n8n-nodes-sentione.sentiOneTrigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: trigger.parameters as INodeParameters,
		credentials: { sentiOneApi: trigger.credential },
	};
	const done = {
		id: doneId,
		name: 'Done',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0] as [number, number],
		parameters: {},
	};
	return {
		id,
		name,
		nodes: [first, done],
		connections: { [first.name]: { main: [[{ node: done.name, type: 'main', index: 0 }]] } },
		active: false,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		versionId: o.versionId ?? versionOf(id),
		pinData: {},
		meta: { instanceId: o.instanceId ?? 'e2e' },
		tags: [],
	} as SavedWorkflowJson;
}

/** A template from examples/, parsed. */
export function template(file: string): SavedWorkflowJson {
	return JSON.parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as SavedWorkflowJson;
}

/** The shortest Poll Times n8n accepts: four once-a-minute crons, a check every 15 seconds. */
export const EVERY_15_SECONDS = {
	item: [0, 15, 30, 45].map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })),
};

/** The local inbox (scripts/demo-inbox.js): the Slack and Google Sheets stand-in the demo variants post to. */
export interface Inbox {
	base: string;
	state: {
		slack: Array<{ channel: string; text: string; ref?: string }>;
		sheet: {
			header: string[] | null;
			records: Array<Record<string, unknown>>;
			mismatches: unknown[];
		};
		/** while true, the Slack stand-in refuses every message with 503 (an outage) */
		slackOutage: boolean;
		/** messages refused during outages */
		slackRefused: number;
	};
	stop(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const demoInbox = require('../../../scripts/demo-inbox.js') as {
	startInbox(o?: { port?: number }): Promise<Inbox>;
	demoVariant(t: SavedWorkflowJson, o: { inbox: string }): SavedWorkflowJson;
};
const { demoVariant } = demoInbox;
export const startInbox = demoInbox.startInbox;

/**
 * The mention ids of the Slack messages the inbox got on `channel`: the `ref` the demo variant's
 * Slack stand-in sends with each message (the templates' texts name no ID).
 */
export function slackIds(inbox: Inbox, channel: string): string[] {
	return inbox.state.slack
		.filter((m) => m.channel === channel)
		.map((m) => m.ref ?? `no ref: ${m.text}`);
}

/**
 * A template as the end-to-end tests run it: its demo variant (the Slack and Google Sheets nodes
 * post the same content to the local inbox, scripts/demo-inbox.js), this id, its SentiOne nodes on
 * `credential` (the templates name none), and a SentiOne Trigger checking every 15 seconds (no
 * budget share of its own).
 */
export function templateForTest(
	file: string,
	id: string,
	credential: { id: string; name: string },
	inbox: string,
): SavedWorkflowJson {
	const w = demoVariant(template(file), { inbox });
	w.id = id;
	for (const n of w.nodes) {
		if (n.type.startsWith('n8n-nodes-sentione.')) n.credentials = { sentiOneApi: credential };
		if (n.type === 'n8n-nodes-sentione.sentiOneTrigger') {
			// checks every 15 seconds, with no share of the key's budget of its own (Search Requests
			// per Hour 0) so every check runs; the share has its own test (costText.test.ts)
			const options = (n.parameters.options ?? {}) as Record<string, unknown>;
			n.parameters = {
				...n.parameters,
				pollTimes: EVERY_15_SECONDS,
				options: { ...options, requestsPerHour: 0 },
			};
		}
	}
	return w;
}

/**
 * The Slack template with the SentiOne Stream Trigger instead of the poll trigger (what
 * examples/negative-mentions-live-slack-alert.json is), posting to `channel`; `project` and
 * `filters` replace the template's when given.
 */
export function withStreamTrigger(
	w: SavedWorkflowJson,
	channel = '#live-alerts',
	o: { project?: string; filters?: Record<string, unknown> } = {},
): SavedWorkflowJson {
	for (const n of w.nodes) {
		if (n.type === 'n8n-nodes-sentione.sentiOneTrigger') {
			const { filters } = n.parameters;
			n.type = 'n8n-nodes-sentione.sentiOneStreamTrigger';
			n.parameters = {
				event: 'newMention',
				project: o.project === undefined ? n.parameters.project : project(o.project),
				filters: (o.filters ?? filters) as INodeParameters,
				options: {},
			};
		}
	}
	return postingTo(w, channel);
}

/** The workflow with its posts to the inbox (its HTTP Request nodes) sent to `channel`. */
export function postingTo(w: SavedWorkflowJson, channel: string): SavedWorkflowJson {
	for (const n of w.nodes) {
		if (n.type === 'n8n-nodes-base.httpRequest') {
			const body = n.parameters.bodyParameters as {
				parameters: Array<{ name: string; value: unknown }>;
			};
			body.parameters = body.parameters.map((p) =>
				p.name === 'channel' ? { ...p, value: channel } : p,
			);
		}
	}
	return w;
}

/** What a person reads of a Slack message: a link by its label, a bare link as a link (left out). */
export function readableText(text: string): string {
	return text.replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, '$2').replace(/https?:\/\/\S+/g, '');
}

/**
 * The raw machine values a message shows a person (outside its links): ISO timestamps and
 * hexadecimal IDs (8 or more hex digits, letters and digits mixed). A message that reads like a
 * person wrote it has none.
 */
export function rawValues(text: string): string[] {
	const readable = readableText(text);
	return [
		...(readable.match(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g) ?? []),
		...(readable.match(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi) ?? []),
	];
}
