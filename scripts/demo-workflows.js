/**
 * What the demo (gulpfile.js) puts into its n8n: the SentiOne credentials pointing at the
 * simulator, the credential each template's SentiOne nodes get, the templates of examples/ and
 * their runnable "Demo: …" variants (scripts/demo-inbox.js `demoVariant`: Slack, Google Sheets and
 * the chat model talk to the local inbox), and which variants start active. Plain CommonJS.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const { demoVariant } = require('./demo-inbox');

const ROOT = path.resolve(__dirname, '..');

/** The demo's SentiOne credentials, pointing at the simulator. */
const DEMO_CREDENTIALS = [
	{
		id: 'sentioneDemoEnterprise',
		name: 'SentiOne (simulator, Enterprise key)',
		key: 'SENTIONE-APIKEY-enterprise-demo',
	},
	{
		id: 'sentioneDemoBasic',
		name: 'SentiOne (simulator, Basic key)',
		key: 'SENTIONE-APIKEY-basic-demo',
	},
];
const credentialRef = (id) => {
	const { name } = DEMO_CREDENTIALS.find((c) => c.id === id);
	return { id, name };
};
const ENTERPRISE_CREDENTIAL = credentialRef('sentioneDemoEnterprise');
const BASIC_CREDENTIAL = credentialRef('sentioneDemoBasic');
/**
 * The credential the demo chooses for each template's SentiOne nodes: the tier the template needs
 * (docs/templates.md, "Key tier"). The templates themselves name none, so a user's n8n asks for
 * theirs. A template not listed gets the Enterprise key, which can do everything.
 */
const TEMPLATE_CREDENTIALS = {
	'ai-agent-sentione-tool.json': BASIC_CREDENTIAL,
	'negative-mention-slack-alert.json': BASIC_CREDENTIAL,
	'negative-mentions-live-slack-alert.json': BASIC_CREDENTIAL,
	'new-mentions-google-sheets.json': ENTERPRISE_CREDENTIAL,
	'weekly-export-csv.json': ENTERPRISE_CREDENTIAL,
};
/** The OpenAI credential of the demo variant of the AI agent template: its Base URL is the inbox. */
const CHAT_MODEL_CREDENTIAL = {
	id: 'sentioneDemoChatModel',
	name: 'Scripted chat model (local inbox)',
};
/**
 * Demo variants activated at start: the two poll triggers check every 5 minutes (12 of the 30
 * searches an hour of their key), the Stream Trigger holds 1 of the 2 live-stream connections of
 * the Basic key.
 */
const ACTIVE_TEMPLATES = [
	'negative-mention-slack-alert.json',
	'negative-mentions-live-slack-alert.json',
	'new-mentions-google-sheets.json',
];

/** The templates of examples/, by file name. */
function templates() {
	const dir = path.join(ROOT, 'examples');
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) }));
}

/** A template as the demo imports it: its SentiOne nodes on the demo's credential for it. */
function withDemoCredential(file, template) {
	const workflow = structuredClone(template);
	const credential = TEMPLATE_CREDENTIALS[file] ?? ENTERPRISE_CREDENTIAL;
	for (const node of workflow.nodes) {
		if (node.type.startsWith('n8n-nodes-sentione.'))
			node.credentials = { sentiOneApi: { ...credential } };
	}
	return workflow;
}

/**
 * The runnable demo variant of a template; the active ones pass on what came before their start:
 * a poll trigger the last hour, the Stream Trigger the last 5 minutes (the most it can ask for).
 */
function demoWorkflow(file, workflow, inboxBase, filesDir) {
	const inRepo = !path.relative(ROOT, filesDir).startsWith('..');
	const filesLabel = inRepo ? path.relative(ROOT, filesDir) : filesDir;
	const variant = demoVariant(workflow, {
		inbox: inboxBase,
		filesDir,
		filesLabel,
		openAiCredential: CHAT_MODEL_CREDENTIAL,
	});
	if (ACTIVE_TEMPLATES.includes(file)) {
		for (const node of variant.nodes) {
			if (node.type === 'n8n-nodes-sentione.sentiOneTrigger') {
				node.parameters = { ...node.parameters, startFrom: 'backfill', backfillHours: 1 };
			}
			if (node.type === 'n8n-nodes-sentione.sentiOneStreamTrigger') {
				node.parameters = {
					...node.parameters,
					options: { ...node.parameters.options, backfillMinutes: 5 },
				};
			}
		}
	}
	return variant;
}

module.exports = {
	DEMO_CREDENTIALS,
	CHAT_MODEL_CREDENTIAL,
	ACTIVE_TEMPLATES,
	templates,
	withDemoCredential,
	demoWorkflow,
};
