/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
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
import {
	N8N_VERSION,
	createHost,
	dbPingInRealTime,
	nodeOutput,
	sharedN8n,
	type Host,
	type RunningN8n,
} from '../support/n8n/host';
import { timeLapse, type TimeLapse } from '../support/n8n/lapse';
import {
	CREDENTIALS,
	ROOT,
	project,
	rawValues,
	sentiOneCredentials,
	startInbox,
	templateForTest,
	type Inbox,
} from '../support/n8n/workflows';
import { admin, startSim, type Loose, type Sim } from '../support/simulator';
import { DAY, MINUTE, SECOND, iso } from '../support/time';
import { until, waitFor } from '../support/wait';
import { type SavedWorkflowJson } from '../support/workflowJson';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const demoTraffic = require('../../scripts/demo-traffic.js') as {
	catchUp(base: string): Promise<void>;
	stageBurst(
		base: string,
		o: { projectId: number; inMinutes?: number; minutes?: number; perMinute?: number },
	): Promise<{ burst: { at: string; minutes: number; factor: number } }>;
};

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

test('the eight templates are there, in the shape n8n exports', () => {
	expect(files).toEqual([
		'ai-agent-sentione-tool.json',
		'daily-digest-slack.json',
		'negative-mention-slack-alert.json',
		'negative-mentions-live-slack-alert.json',
		'negative-mentions-spike-slack-alert.json',
		'new-mentions-google-sheets.json',
		'viral-mention-slack-alert.json',
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
	// the alerts: a spike of negative mentions (poll trigger, reading the past day to know normal)
	// and a daily digest that is sent on quiet days too (Stream Trigger), each to Slack
	const trigger = (file: string) =>
		templates
			.find((t) => t.file === file)!
			.workflow.nodes.find((n) => n.type.startsWith('n8n-nodes-sentione.'))!;
	expect(types('negative-mentions-spike-slack-alert.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneTrigger', 'n8n-nodes-base.slack']),
	);
	expect(trigger('negative-mentions-spike-slack-alert.json').parameters).toMatchObject({
		event: 'volumeSpike',
		startFrom: 'backfill',
		backfillHours: 24,
		filters: { sentiments: ['Negative'] },
	});
	expect(types('daily-digest-slack.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneStreamTrigger', 'n8n-nodes-base.slack']),
	);
	expect(trigger('daily-digest-slack.json').parameters).toMatchObject({
		event: 'digest',
		digestWindow: 'daily',
		digestAt: '09:00',
		options: { sendEmpty: true },
	});
	expect(types('viral-mention-slack-alert.json')).toEqual(
		expect.arrayContaining(['n8n-nodes-sentione.sentiOneStreamTrigger', 'n8n-nodes-base.slack']),
	);
	expect(trigger('viral-mention-slack-alert.json').parameters).toMatchObject({
		event: 'viralMention',
		viral_likeCount: 1000,
		viral_shareCount: 200,
		viralGrowthGain: 100,
	});
	// every Slack message: times through Luxon in the workflow's zone, the items' words, no ID
	for (const { file, workflow } of templates) {
		for (const slack of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.slack')) {
			const text = String(slack.parameters.text);
			expect({ file, luxon: /DateTime\.fromISO\(\$json\.\w+\)\.toFormat\('/.test(text) }).toEqual({
				file,
				luxon: true,
			});
			expect({ file, ids: text.match(/\$json\.(id|mentionId)\b/g) }).toEqual({ file, ids: null });
		}
	}
	const sheets = templates
		.find((t) => t.file === 'new-mentions-google-sheets.json')!
		.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.googleSheets')!;
	expect(
		(sheets.parameters.columns as { schema: Array<{ id: string }> }).schema.map((c) => c.id),
	).toEqual([...SIMPLE_COLUMNS]);
});

/**
 * The alert templates, published in a real `n8n start` against a simulator with a realistic past:
 * it starts its clock a day back and moves it to now (collecting that day on an office-hours
 * pattern), as the demo does (scripts/demo-traffic.js). Their Slack nodes post to the local inbox
 * (the demo variant's stand-in), the poll trigger checks every 15 seconds, and the simulator's
 * limits are off (what they spend has its own tests). Each workflow has a time zone of its own,
 * so the times in the messages show whose zone they are in.
 *
 * The minutes are simulated: n8n and the simulator run with test/support/n8n/timeLapse.js
 * preloaded, their wall clocks and timers ×5, so the burst, the checks every 15 seconds (3 real
 * seconds) and the digests' 1-minute windows pass in a fifth of the time. Every instant the test
 * compares with theirs is on the same lapsed clock (`clock.now()`): the simulator starts a lapsed
 * day back; demo-traffic's catch-up (written for the lapsed `gulp demo`) moves it to the test's
 * real now, and one more move on to the lapsed now. The inbox runs in the test process: its stamps
 * are real time, so the test notes the lapsed instant it sees a message instead.
 */
describe('the alert templates run against the simulator, and their messages read like a person wrote them', () => {
	const SPIKE_ZONE = 'Europe/Warsaw';
	const DIGEST_ZONE = 'America/New_York';
	/** the digest watches a project that is quiet while the test runs (a burst of factor 0) */
	const QUIET_PROJECT = 1003;
	/** how much faster n8n's and the simulator's clocks run (a loaded 2-core machine keeps n8n healthy at ×5) */
	const FACTOR = 5;
	/** what the spike trigger asks at each check */
	const SPIKE_SEARCH = '/api/public/v2/projects/1001/mentions/recent/search';
	/** the lapsed clock: now as n8n and the simulator read it */
	let clock: TimeLapse;
	let sim: Sim;
	let inbox: Inbox;
	let n8n: RunningN8n;
	let spike: SavedWorkflowJson;
	let digest: SavedWorkflowJson;
	let activatedAt = 0;

	const messages = (channel: string) => inbox.state.slack.filter((m) => m.channel === channel);
	/** The items the trigger passed on in the workflow's executions, oldest first. */
	const items = async (workflow: SavedWorkflowJson, trigger: string) => {
		const runs = (await n8n.executions(workflow.id)).filter((e) => e.status === 'success');
		const out: Array<Record<string, unknown>> = [];
		for (const run of runs.reverse()) out.push(...nodeOutput(await n8n.execution(run.id), trigger));
		return out;
	};

	beforeAll(async () => {
		const realStart = Date.now();
		clock = timeLapse({ realOrigin: realStart, fakeOrigin: realStart, factor: FACTOR });
		inbox = await startInbox();
		sim = await startSim(
			['--mentions', '1500', '--seed', '5', '--limits', 'off', '--live-rate', '1'],
			{ now: iso(clock.now() - DAY), env: { ...process.env, ...clock.env } },
		);
		await admin(sim, 'POST', '/live', { daily: 'office-hours' });
		// the day collected minute by minute up to the test's real now, then on to the lapsed now (both
		// clocks run ×5 from here: the gap the move closes stays closed)
		await demoTraffic.catchUp(sim.base);
		const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
		await admin(sim, 'POST', '/clock', { advanceMs: clock.now() - Date.parse(now) });
		await admin(sim, 'POST', '/live', {
			bursts: [{ at: iso(clock.now()), minutes: 60, factor: 0, projectId: QUIET_PROJECT }],
		});
		spike = templateForTest(
			'negative-mentions-spike-slack-alert.json',
			'e2eSpikeAlert001',
			CREDENTIALS.basic,
			inbox.base,
		);
		spike.settings = { ...spike.settings, timezone: SPIKE_ZONE };
		for (const n of spike.nodes.filter((x) => x.type === 'n8n-nodes-sentione.sentiOneTrigger')) {
			// the demo's: 14 hours back at the first check (the baseline needs 12 hours seen), no late
			// mentions to wait for (the simulator makes each searchable at once)
			n.parameters = {
				...n.parameters,
				backfillHours: 14,
				options: {
					...(n.parameters.options as object),
					maxRequestsPerPoll: 20,
					lateWindowMinutes: 1,
				},
			};
		}
		digest = templateForTest(
			'daily-digest-slack.json',
			'e2eDigestSlack01',
			CREDENTIALS.enterprise,
			inbox.base,
		);
		digest.settings = { ...digest.settings, timezone: DIGEST_ZONE };
		for (const n of digest.nodes.filter(
			(x) => x.type === 'n8n-nodes-sentione.sentiOneStreamTrigger',
		)) {
			// a window a minute long instead of a day
			n.parameters = {
				...n.parameters,
				project: project(QUIET_PROJECT),
				digestWindow: 'minutes',
				digestEvery: 1,
			};
		}
		n8n = await host.start({ ...clock.env, ...dbPingInRealTime(FACTOR) });
		await n8n.createCredentials(sentiOneCredentials(sim.base));
		await n8n.createWorkflows([spike, digest]);
		await n8n.publishAll([spike, digest]);
		activatedAt = Date.now();
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.stop();
		await sim?.stop();
		await inbox?.stop();
	});

	test('control: the check finds an ISO timestamp and a hex ID, and not what a link hides', () => {
		expect(rawValues('published 2026-11-26T22:11:50.596Z · id c01efc1268af8cd7bbaefd5a')).toEqual([
			'2026-11-26T22:11:50.596Z',
			'c01efc1268af8cd7bbaefd5a',
		]);
		expect(
			rawValues(
				'<https://import.sentione.com/item/c01efc1268af8cd7|Open the mention> on 26 Nov, 22:11',
			),
		).toEqual([]);
	});

	test("control: the simulator and n8n run on the test's lapsed clock", async () => {
		expect(sim.stderr()).toContain(`[time-lapse] clock ×${FACTOR} from `);
		expect(n8n.output()).toContain(`[time-lapse] clock ×${FACTOR} from `);
		// the simulator's clock is the test's (real time is behind it by four times the real time since
		// the start)
		const before = clock.now();
		const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
		expect(Date.parse(now)).toBeGreaterThanOrEqual(before - 5 * SECOND);
		expect(Date.parse(now)).toBeLessThanOrEqual(clock.now() + 5 * SECOND);
		// n8n's clock: the spike alert's run below (its start, just before the test saw its message)
	});

	test(
		"spike in negative mentions → Slack: once per burst, with the numbers, in the workflow's time zone",
		async () => {
			// the first check read the last 14 hours; then a burst: about 8 mentions a minute, 80% negative
			await until(
				async () =>
					(
						await admin<{ requests: Array<{ path: string }> }>(sim, 'GET', '/requests')
					).requests.some((r) => r.path === SPIKE_SEARCH),
				{ what: 'the spike trigger to read the past hours', timeoutMs: 120_000, stepMs: 500 },
			);
			expect(messages('#spike-alerts')).toEqual([]);
			const { burst } = await demoTraffic.stageBurst(sim.base, { projectId: 1001, minutes: 12 });
			const [message] = await until(
				async () => {
					const got = messages('#spike-alerts');
					return got.length > 0 ? got : undefined;
				},
				{ what: 'the spike alert', timeoutMs: (10 * MINUTE) / FACTOR + 2 * MINUTE, stepMs: 250 },
			);
			const seenAt = clock.now();
			const alertedAfter = seenAt - Date.parse(burst.at);
			// a few more checks: the spike goes on, and is not alerted again — four more of the trigger's
			// checks (15 s apart: a minute) after the test saw the alert, by the simulator's request log
			const checksSince = async (from: number) =>
				new Set(
					(
						await admin<{ requests: Array<{ path: string; at: string }> }>(sim, 'GET', '/requests')
					).requests
						.filter((r) => r.path === SPIKE_SEARCH && Date.parse(r.at) > from)
						.map((r) => Math.floor(Date.parse(r.at) / (15 * SECOND))),
				).size;
			await waitFor(async () => (await checksSince(seenAt)) >= 4, {
				what: 'four more checks of the spike trigger',
				timeoutMs: MINUTE / FACTOR + MINUTE,
				stepMs: 250,
			});
			expect(messages('#spike-alerts')).toHaveLength(1);
			// n8n runs on the test's clock: the alert's run (the workflow's first) started just before the
			// test saw its message (real time is minutes behind)
			const alertRun = (await n8n.executions(spike.id)).at(-1)!;
			expect(Date.parse(alertRun.startedAt)).toBeLessThanOrEqual(seenAt);
			expect(Date.parse(alertRun.startedAt)).toBeGreaterThan(seenAt - MINUTE);
			const [item] = await items(spike, 'Spike in negative mentions');
			expect(item.kind).toBe('volumeSpike');
			// the count is the truth: the negative mentions the simulator collected in the bucket
			const truth = (
				await admin<{ mentions: Array<{ collectedAt: string; sentiment: string }> }>(
					sim,
					'GET',
					'/mentions?projectId=1001',
				)
			).mentions.filter((m) => {
				const at = Date.parse(m.collectedAt);
				return (
					m.sentiment === 'Negative' &&
					at > Date.parse(item.windowStart as string) &&
					at <= Date.parse(item.windowEnd as string)
				);
			});
			expect(item.count).toBe(truth.length);
			expect(item.count).toBeGreaterThanOrEqual(item.threshold as number);
			expect(Date.parse(item.windowEnd as string)).toBeGreaterThan(Date.parse(burst.at));
			// the message: the header with the bucket's start and zone (Luxon, the workflow's zone), the
			// item's summary, the other sampled mentions by author and source; no raw value
			const start = new Date(item.windowStart as string);
			const hhmm = start.toLocaleTimeString('en-GB', {
				timeZone: SPIKE_ZONE,
				hour: '2-digit',
				minute: '2-digit',
			});
			expect(message.text).toMatch(
				new RegExp(
					`^:chart_with_upwards_trend: \\*Spike in negative mentions\\* since ${hhmm} \\(\\w{3} \\d{1,2} \\w{3}, GMT\\+\\d\\)\\n`,
				),
			);
			expect(message.text).toContain(item.summary as string);
			expect(item.summary).toMatch(
				new RegExp(
					`^Volume spike: ${item.count} mentions in the 15 minutes to \\d\\d:\\d\\d \\(${SPIKE_ZONE}\\), [\\d.]+× the usual`,
				),
			);
			// (the poll trigger's sample holds the mentions its alerting check read: it may be empty)
			const sample = item.sample as Array<{ id: string; authorName: string; sourceType: string }>;
			for (const m of sample) {
				expect(message.text).toContain(`${m.authorName ?? 'an author'} on ${m.sourceType}`);
				expect(message.text).not.toContain(m.id);
			}
			expect(rawValues(message.text)).toEqual([]);
			process.stderr.write(
				`[templates] spike alert ${Math.round(alertedAfter / 1000)} simulated s after the burst began (${item.count} negative mentions in 15 minutes, threshold ${item.threshold}, baseline ${item.baseline} over ${item.baselineBasis})\n`,
			);
		},
		8 * MINUTE,
	);

	test(
		'daily digest → Slack: "Nothing today" for a quiet window, the totals and the mentions by author otherwise',
		async () => {
			// the project is quiet: a whole window without a mention, then three mentions at once
			const [quiet] = await until(
				async () => {
					const got = messages('#daily-digest').filter((m) =>
						m.text.startsWith(':zzz: *Nothing today*'),
					);
					return got.some((m) => m.text.includes('nothing to report'))
						? got.filter((m) => m.text.includes('nothing to report'))
						: undefined;
				},
				{ what: 'an empty digest', timeoutMs: (5 * MINUTE) / FACTOR + MINUTE, stepMs: 250 },
			);
			const injected = (
				await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
					projectId: QUIET_PROJECT,
					count: 3,
				})
			).mentions;
			const [full] = await until(
				async () => {
					const got = messages('#daily-digest').filter(
						(m) => m.text.startsWith(':newspaper:') && m.text.includes(': 3 mentions,'),
					);
					return got.length > 0 ? got : undefined;
				},
				{
					what: 'a digest of the three mentions',
					timeoutMs: (4 * MINUTE) / FACTOR + MINUTE,
					stepMs: 250,
				},
			);
			const digests = await items(digest, 'Daily digest');
			const emptyItem = digests.find((d) => d.empty === true && d.complete === true)!;
			const fullItem = digests.find((d) => d.total === 3)!;
			expect(fullItem).toBeDefined();
			// the header: the window in the workflow's zone (Luxon), then the item's summary
			const local = (iso: unknown) =>
				new Date(iso as string).toLocaleTimeString('en-GB', {
					timeZone: DIGEST_ZONE,
					hour: '2-digit',
					minute: '2-digit',
				});
			expect(quiet.text).toMatch(
				new RegExp(
					`^:zzz: \\*Nothing today\\* · \\w{3} \\d{1,2} \\w{3} ${local(emptyItem.windowStart)} to \\w{3} \\d{1,2} \\w{3} ${local(emptyItem.windowEnd)} E[SD]T\\n`,
				),
			);
			expect(quiet.text).toContain(`${emptyItem.summary as string}`);
			expect(emptyItem.summary).toMatch(/nothing to report — no matching mentions\.$/);
			expect(full.text).toMatch(
				new RegExp(
					`^:newspaper: \\*SentiOne digest\\* · \\w{3} \\d{1,2} \\w{3} ${local(fullItem.windowStart)} to \\w{3} \\d{1,2} \\w{3} ${local(fullItem.windowEnd)} E[SD]T\\n`,
				),
			);
			expect(full.text).toContain(fullItem.summary as string);
			expect(fullItem.summary).toMatch(/: 3 mentions, \d negative/);
			expect(full.text).toMatch(/\n\*By sentiment:\* \w+ \d/);
			expect(full.text).toContain('*Most reached:*\n• ');
			for (const m of injected) {
				expect(full.text).toContain(`${m.author.name as string} on ${m.source.type as string}`);
				expect(full.text).not.toContain(m.id);
			}
			for (const message of messages('#daily-digest'))
				expect({ text: message.text, raw: rawValues(message.text) }).toEqual({
					text: message.text,
					raw: [],
				});
			process.stderr.write(
				`[templates] ${messages('#daily-digest').length} digests in ${Math.round(((Date.now() - activatedAt) * FACTOR) / 1000)} simulated s\n`,
			);
		},
		5 * MINUTE,
	);
});
