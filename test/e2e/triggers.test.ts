/**
 * The two polling templates, ACTIVE in a real `n8n start` on loopback (created and published over
 * its REST API, as in the editor) while the simulator collects
 * new mentions (live collection plus injected ones: negative and not, a batch sharing one
 * collectedAt, one collected late behind the newest, one about another project, an old post
 * collected today):
 *
 * 1. negative mention → Slack alert (examples/negative-mention-slack-alert.json, Basic key,
 *    recent search): every negative mention collected during the run reaches the Slack stand-in
 *    exactly once, and nothing else does;
 * 2. new mentions → Google Sheets (examples/new-mentions-google-sheets.json, Enterprise key,
 *    historical search): every mention collected during the run lands as one row, all rows with
 *    the Simplify columns in the same order.
 *
 * 3. the Slack template with its trigger swapped for the SentiOne Stream Trigger (what the template's
 *    note suggests for alerts within seconds): the same negative mentions arrive over the live
 *    stream, each once.
 *
 * The workflows are the templates themselves with only what the test must change: the Slack and
 * Google Sheets nodes become HTTP Request nodes posting the same content to a local inbox
 * (scripts/demo-inbox.js, the demo's own stand-in), the credentials point at the simulator, and
 * Poll Times is the shortest n8n accepts. n8n refuses a poll cron that fires more than once a
 * minute ("The polling interval is too short", n8n-core's isSubMinuteCron: a 6-field cron whose
 * seconds field is not one fixed number), but Poll Times is a list: four "custom" entries
 * `0|15|30|45 * * * * *` are each once a minute, together one check every 15 seconds.
 */
import { SIMPLE_COLUMNS } from '../../nodes/SentiOne/shared/simplify';
import {
	admin,
	clockNow,
	collectedFrom,
	openLiveStreams,
	startRunningSim,
	type Loose,
	type Sim,
} from '../support/simulator';
import { createHost, ensureN8n, stopAll, type Host, type RunningN8n } from '../support/n8n/host';
import {
	CREDENTIALS,
	sentiOneCredentials,
	slackIds,
	startInbox,
	templateForTest,
	withStreamTrigger,
	type Inbox,
} from '../support/n8n/workflows';
import { sleep, until } from '../support/wait';
import { shownInMessage } from '../support/shownTime';
import { DAY } from '../support/time';
import { type SavedWorkflowJson } from '../support/workflowJson';

let sim: Sim;
let host: Host;
let n8n: RunningN8n;
let inbox: Inbox;

let slackWorkflow: SavedWorkflowJson;
let sheetsWorkflow: SavedWorkflowJson;
let liveWorkflow: SavedWorkflowJson;

interface Logged {
	seq: number;
	at: string;
	path: string;
	status: number | null;
	tier: string;
	body: Loose;
}
/** The search requests (not the streams) made with a key of this tier. */
const searches = async (tier: string): Promise<Logged[]> =>
	(await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests.filter(
		(r) => r.path.endsWith('/search') && r.tier === tier,
	);

const simNow = () => clockNow(sim);
const inject = (projectId: number, count: number, extra: Record<string, unknown>) =>
	admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', { projectId, count, ...extra });

beforeAll(async () => {
	ensureN8n();
	inbox = await startInbox();
	sim = await startRunningSim({ mentions: 1500, seed: 9 });
	host = await createHost();
	slackWorkflow = templateForTest(
		'negative-mention-slack-alert.json',
		'e2eSlackAlert001',
		CREDENTIALS.basic,
		inbox.base,
	);
	sheetsWorkflow = templateForTest(
		'new-mentions-google-sheets.json',
		'e2eSheetsRows001',
		CREDENTIALS.enterprise,
		inbox.base,
	);
	liveWorkflow = withStreamTrigger(
		templateForTest(
			'negative-mention-slack-alert.json',
			'e2eLiveAlert0001',
			CREDENTIALS.basic,
			inbox.base,
		),
	);
	// created and published the way the editor does it (n8n's CLI import and publish before a start
	// are the smoke set's and the restart test's)
	n8n = await host.start();
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	await n8n.createWorkflows([slackWorkflow, sheetsWorkflow, liveWorkflow]);
	await n8n.publishAll([slackWorkflow, sheetsWorkflow, liveWorkflow]);
}, 15 * 60_000);

afterAll(() => stopAll(n8n, sim, inbox, host));

test(
	'active in n8n start: every negative mention collected during the run reaches Slack once (polled and live), every mention lands as one Sheets row',
	async () => {
		// Activation: each poll trigger's first check notes the newest matching mention (Start From:
		// Now); the stream trigger opens the live stream.
		const seeds = await until(
			async () => {
				const [basic, enterprise] = [await searches('basic'), await searches('enterprise')];
				const live = await openLiveStreams(sim);
				return basic.length > 0 && enterprise.length > 0 && live === 1
					? [basic[0], enterprise[0]]
					: undefined;
			},
			{
				what: 'both poll triggers to note where they start and the live stream to open',
				timeoutMs: 90_000,
				stepMs: 500,
			},
		);
		for (const seed of seeds) expect(seed.body.sortType).toBe('CollectedAtDescending');
		expect(seeds[0].body.filters).toEqual({ content: { sentiment: ['Negative'] } });
		expect(seeds[1].path).toBe('/api/public/v2/projects/1001/mentions/search');
		const startedAt = Math.max(...seeds.map((s) => Date.parse(s.at)));
		expect(inbox.state.slack).toHaveLength(0);

		// The run: live collection (all projects) plus injected mentions, spread over about a minute.
		await admin(sim, 'POST', '/live', { ratePerMinute: 20 });
		await inject(1001, 2, { overrides: { content: { sentiment: 'Negative' } } });
		await inject(1001, 2, { overrides: { content: { sentiment: 'Positive' } } });
		await inject(1002, 1, { overrides: { content: { sentiment: 'Negative' } } }); // another project
		await sleep(20_000);
		// three negative mentions collected at the same instant (the boundary of a check)
		await inject(1001, 3, { overrides: { content: { sentiment: 'Negative' } } });
		await sleep(20_000);
		// collected "late": its collectedAt is behind mentions already passed on (the late window)
		const lateAt = Math.max(startedAt + 1, (await simNow()) - 30_000);
		await inject(1001, 1, {
			collectedAt: new Date(lateAt).toISOString(),
			overrides: { content: { sentiment: 'Negative' } },
		});
		// an old post collected today: historical search sees it, recent search cannot (published > 7 days ago)
		const now = await simNow();
		await inject(1001, 1, {
			publishedAt: new Date(now - 40 * DAY).toISOString(),
			overrides: { content: { sentiment: 'Neutral' } },
		});
		await sleep(15_000);
		await admin(sim, 'POST', '/live', { ratePerMinute: 0 });

		// Ground truth: what the simulator collected for project 1001 after the triggers started.
		const collected = await collectedFrom(sim, 1001, startedAt + 1);
		const recentWindow = now - 7 * DAY;
		const negatives = collected
			.filter((m) => m.sentiment === 'Negative' && Date.parse(m.publishedAt) >= recentWindow)
			.map((m) => m.id as string);
		const all = collected.map((m) => m.id as string);
		expect(negatives.length).toBeGreaterThanOrEqual(6); // 6 injected; live collection adds some
		expect(all.length).toBeGreaterThan(negatives.length + 3);

		const alertIds = () => slackIds(inbox, '#social-alerts');
		const liveIds = () => slackIds(inbox, '#live-alerts');
		const sheetIds = () => inbox.state.sheet.records.map((r) => String(r.id));
		await until(
			async () =>
				alertIds().length >= negatives.length &&
				liveIds().length >= negatives.length &&
				sheetIds().length >= all.length,
			{
				what: 'every negative mention in Slack (polled and live) and every mention in the sheet',
				timeoutMs: 150_000,
				stepMs: 500,
			},
		);

		// Two more checks of each workflow after that, so a repeat would have had its chance to arrive.
		const [basicSoFar, enterpriseSoFar] = [
			(await searches('basic')).length,
			(await searches('enterprise')).length,
		];
		await until(
			async () =>
				(await searches('basic')).length >= basicSoFar + 2 &&
				(await searches('enterprise')).length >= enterpriseSoFar + 2,
			{ what: 'two more checks of each trigger', timeoutMs: 90_000, stepMs: 500 },
		);
		await until(
			async () => {
				const runs = [
					...(await n8n.executions(slackWorkflow.id)),
					...(await n8n.executions(sheetsWorkflow.id)),
					...(await n8n.executions(liveWorkflow.id)),
				];
				return runs.every((e) => !['new', 'running'].includes(e.status)) && runs;
			},
			{ what: 'the executions to finish', timeoutMs: 60_000, stepMs: 500 },
		);

		// 1. Slack: exactly the negative mentions, each once, as Slack messages built by the template's text
		expect(alertIds().slice().sort()).toEqual(negatives.slice().sort());
		// 3. the same over the live stream
		expect(liveIds().slice().sort()).toEqual(negatives.slice().sort());
		const byId = new Map(collected.map((m) => [m.id as string, m]));
		for (const message of inbox.state.slack) {
			expect(['#social-alerts', '#live-alerts']).toContain(message.channel);
			const id = message.ref!;
			const m = byId.get(id);
			expect(message.text).toMatch(
				new RegExp(`^:rotating_light: \\*Negative mention\\* on ${m.sourceType}`),
			);
			// published in the workflow's time zone (UTC), as a person writes it; no ID in the text
			expect(message.text).toMatch(/\n>.+\n<https?:\/\/\S+\|Open the mention> · published /);
			expect(message.text).toContain(
				`· published ${shownInMessage(Date.parse(m.publishedAt as string))} · `,
			);
			expect(message.text).not.toContain(id);
		}

		// 2. Sheets: one row per collected mention, the header and every row in the Simplify column order
		expect(inbox.state.sheet.header).toEqual([...SIMPLE_COLUMNS]);
		expect(inbox.state.sheet.mismatches).toEqual([]);
		expect(sheetIds().slice().sort()).toEqual(all.slice().sort());
		for (const row of inbox.state.sheet.records) {
			const m = byId.get(String(row.id));
			expect([row.sentiment, row.sourceType, row.collectedAt]).toEqual([
				m.sentiment,
				m.sourceType,
				m.collectedAt,
			]);
		}

		// n8n's side: every triggered execution succeeded; the triggers never ran into the search budget
		const executions = [
			...(await n8n.executions(slackWorkflow.id)),
			...(await n8n.executions(sheetsWorkflow.id)),
			...(await n8n.executions(liveWorkflow.id)),
		];
		expect(executions.length).toBeGreaterThanOrEqual(4 + negatives.length); // the stream: one execution per mention
		expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
		expect(executions.every((e) => e.mode === 'trigger')).toBe(true);
		const statuses = [...(await searches('basic')), ...(await searches('enterprise'))].map(
			(r) => r.status,
		);
		expect(statuses.every((s) => s === 200)).toBe(true);
		expect(
			(await searches('basic')).every((r) => r.body.filters.content.sentiment[0] === 'Negative'),
		).toBe(true);
		// one live connection for the whole run (no reconnects)
		const live = (await admin<{ groups: { live: { requests: number } } }>(sim, 'GET', '/stats'))
			.groups.live.requests;
		expect(live).toBe(1);
	},
	8 * 60_000,
);
