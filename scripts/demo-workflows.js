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
	'negative-mentions-spike-slack-alert.json': BASIC_CREDENTIAL,
	'new-mentions-google-sheets.json': ENTERPRISE_CREDENTIAL,
	'weekly-export-csv.json': ENTERPRISE_CREDENTIAL,
	// a Basic key would do; the Enterprise one keeps a Basic live connection free for test events
	'daily-digest-slack.json': ENTERPRISE_CREDENTIAL,
	// engagement updates: Enterprise
	'viral-mention-slack-alert.json': ENTERPRISE_CREDENTIAL,
};
/** The OpenAI credential of the demo variant of the AI agent template: its Base URL is the inbox. */
const CHAT_MODEL_CREDENTIAL = {
	id: 'sentioneDemoChatModel',
	name: 'Scripted chat model (local inbox)',
};
/**
 * The traffic the demo gives the simulator (gulpfile.js): a new mention a minute per project on
 * average, on the "office-hours" daily pattern (UTC), and the past day of it: the simulator starts
 * its clock a day back and moves it to now, collecting that day minute by minute, so a trigger
 * that reads back (the spike demo) learns what normal is at once.
 */
const DEMO_TRAFFIC = { ratePerMinute: 1, daily: 'office-hours', pastHours: 24 };
/**
 * The spike and digest demos watch this project, where the demo stages a burst of negative
 * mentions shortly after it starts (and `gulp spike` stages another); the live alert watches
 * project 1001, so a burst does not flood the inbox with one message per mention.
 */
const SPIKE_PROJECT = { id: 1002, name: 'Nordic Coffee Roasters' };
/** How far back the spike demo reads at its first check: the baseline needs 12 hours seen. */
const SPIKE_BACKFILL_HOURS = 14;
/** The digest demo's window, instead of the template's day, so a digest arrives while you watch. */
const DIGEST_EVERY_MINUTES = 10;

/**
 * Demo variants activated at start. One alert per negative mention comes from the live alert only
 * (the Stream Trigger, 1 of the 2 live-stream connections of the Basic key): the polled Slack alert
 * watches the same mentions, so it stays inactive (it would post each one a second time). The
 * spike demo checks every 5 minutes (Basic key), the Sheets demo too (12 of the 30 searches an
 * hour of the Enterprise key), the digest demo holds 1 of the Enterprise key's 2 live connections,
 * the viral demo the Enterprise key's engagement stream (and up to 6 look-up searches an hour).
 */
const ACTIVE_TEMPLATES = [
	'daily-digest-slack.json',
	'negative-mentions-live-slack-alert.json',
	'negative-mentions-spike-slack-alert.json',
	'new-mentions-google-sheets.json',
	'viral-mention-slack-alert.json',
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

const projectRef = ({ id, name }) => ({
	__rl: true,
	value: String(id),
	mode: 'list',
	cachedResultName: `${name} (${id})`,
});

/**
 * What the demo changes in the SentiOne trigger of some templates beyond the stand-ins, so they
 * show what they do within minutes, and what the variant's sticky note adds about it.
 */
const DEMO_CHANGES = {
	'negative-mentions-spike-slack-alert.json': {
		parameters: (p) => ({
			...p,
			project: projectRef(SPIKE_PROJECT),
			backfillHours: SPIKE_BACKFILL_HOURS,
			// the first check reads the past hours in one go; the simulator indexes at once (no late
			// mentions to wait for); the only search user of the Basic key while the demo runs
			options: { ...p.options, requestsPerHour: 0, maxRequestsPerPoll: 20, lateWindowMinutes: 1 },
		}),
		note: `The demo watches ${SPIKE_PROJECT.name} (${SPIKE_PROJECT.id}), where the simulator stages a burst of negative mentions a few minutes after the demo starts (\`./dev npx gulp spike\` stages another). Its first check reads the last ${SPIKE_BACKFILL_HOURS} hours at once (Max Requests per Poll 20), every check after it runs (no share of its own: the Basic key's only search user here), and the Late Mention Window is 1 minute (the simulator makes mentions searchable at once).`,
	},
	'daily-digest-slack.json': {
		parameters: (p) => ({
			...p,
			project: projectRef(SPIKE_PROJECT),
			digestWindow: 'minutes',
			digestEvery: DIGEST_EVERY_MINUTES,
		}),
		note: `The demo sends a digest every ${DIGEST_EVERY_MINUTES} minutes instead of daily, so one arrives while you watch, for ${SPIKE_PROJECT.name} (${SPIKE_PROJECT.id}), the project of the staged burst. The first one covers only part of its window (it says so: "at least").`,
	},
};

/**
 * The runnable demo variant of a template; the active ones pass on what came before their start:
 * a poll trigger the last hour, the Stream Trigger the last 5 minutes (the most it can ask for),
 * unless DEMO_CHANGES says otherwise.
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
	const changes = DEMO_CHANGES[file];
	for (const node of variant.nodes) {
		const trigger = node.type === 'n8n-nodes-sentione.sentiOneTrigger';
		const stream = node.type === 'n8n-nodes-sentione.sentiOneStreamTrigger';
		if (ACTIVE_TEMPLATES.includes(file) && trigger) {
			node.parameters = { ...node.parameters, startFrom: 'backfill', backfillHours: 1 };
		}
		if (ACTIVE_TEMPLATES.includes(file) && stream && node.parameters.event !== 'digest') {
			node.parameters = {
				...node.parameters,
				options: { ...node.parameters.options, backfillMinutes: 5 },
			};
		}
		if (changes && (trigger || stream)) node.parameters = changes.parameters(node.parameters);
		if (changes && node.type === 'n8n-nodes-base.stickyNote') {
			node.parameters = {
				...node.parameters,
				height: node.parameters.height + 100,
				content: `${node.parameters.content}\n\n${changes.note}`,
			};
		}
	}
	return variant;
}

module.exports = {
	DEMO_CREDENTIALS,
	CHAT_MODEL_CREDENTIAL,
	ACTIVE_TEMPLATES,
	DEMO_TRAFFIC,
	SPIKE_PROJECT,
	DIGEST_EVERY_MINUTES,
	templates,
	withDemoCredential,
	demoWorkflow,
};
