/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Issue 17.1 in a real `n8n start`: the SentiOne Trigger published with n8n's default schedule
 * (Poll Times left as n8n sets it: every minute) next to another workflow searching with the same
 * Basic key every 4 minutes. For a simulated hour the other workflow never gets a 429, and the
 * trigger spends at most its documented share (Search Requests per Hour, default 12) in any clock
 * hour of the key's budget — while still passing on every mention collected, once.
 *
 * A control pair on a second key (the Enterprise key: the same 30 searches an hour) runs the same
 * two workflows with the trigger's share turned off (0): there the other workflow does get 429s,
 * which shows the set-up would notice a trigger starving its neighbours.
 *
 * The hour is simulated: n8n and the simulator both run with test/support/n8n/timeLapse.js preloaded,
 * their wall clock and timers ×30, so n8n's cron fires "every minute" every 2 real seconds and the
 * simulator's hourly windows follow the same clock. About 3 real minutes in all.
 */
import { admin, startSim, type Loose, type Sim } from '../support/simulator';
import { createHost, ensureN8n, stopAll, type Host, type RunningN8n } from '../support/n8n/host';
import { CREDENTIALS, sentiOneCredentials, triggerThenDone } from '../support/n8n/workflows';
import { sleep } from '../support/wait';
import { MINUTE, HOUR } from '../support/time';
import { type SavedWorkflowJson } from '../support/workflowJson';
import { timeLapse, type Lapse } from '../support/n8n/lapse';

const FACTOR = 30;
/** the documented default of Search Requests per Hour (nodes/SentiOne/trigger/poll/pollDescription.ts) */
const DEFAULT_SHARE = 12;
const SEARCH_BUDGET = 30;

const realNow = Date.now();
// the simulated clock starts 10 minutes before a top of the hour: n8n's start (≈ 20 real s, 10
// simulated minutes) ends near the start of one whole budget window
const lapse: Lapse = {
	realOrigin: realNow,
	fakeOrigin: Math.ceil(realNow / HOUR) * HOUR + HOUR - 10 * MINUTE,
	factor: FACTOR,
};
const { now: simulatedNow, env: lapseEnv } = timeLapse(lapse);

const PROJECTS = { trigger: 1001, other: 1002, controlTrigger: 1003, controlOther: 1004 };

let sim: Sim;
let host: Host;
let n8n: RunningN8n;

interface Logged {
	at: string;
	path: string;
	status: number | null;
	tier: string;
}

let counter = 0;
const id = () => `00000000-0000-4000-8000-b${String(++counter).padStart(11, '0')}`;

function triggerWorkflow(
	wfId: string,
	projectId: number,
	credential: { id: string; name: string },
	options: Record<string, unknown>,
): SavedWorkflowJson {
	// Poll Times is not set: n8n's default for a polling node (every minute), as a new node has it
	return triggerThenDone(
		wfId,
		`budget: trigger on ${credential.name}`,
		{
			name: 'SentiOne Trigger',
			kind: 'poll',
			parameters: {
				event: 'newMention',
				project: { __rl: true, value: String(projectId), mode: 'id' },
				source: 'recent',
				startFrom: 'now',
				options,
			},
			credential,
		},
		{ nodeIds: [id(), id()] },
	);
}

/** Another workflow on the same key: every 4 minutes, the 10 newest mentions of a project (1 search). */
function otherWorkflow(
	wfId: string,
	projectId: number,
	credential: { id: string; name: string },
): SavedWorkflowJson {
	const schedule = {
		id: id(),
		name: 'Every 4 minutes',
		type: 'n8n-nodes-base.scheduleTrigger',
		typeVersion: 1.2,
		position: [0, 0] as [number, number],
		parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 4 }] } },
	};
	const search = {
		id: id(),
		name: 'SentiOne',
		type: 'n8n-nodes-sentione.sentiOne',
		typeVersion: 1,
		position: [220, 0] as [number, number],
		parameters: {
			resource: 'mention',
			operation: 'searchRecent',
			project: { __rl: true, value: String(projectId), mode: 'id' },
			returnAll: false,
			limit: 10,
		},
		credentials: { sentiOneApi: credential },
	};
	return {
		id: wfId,
		name: `budget: other search on ${credential.name}`,
		nodes: [schedule, search],
		connections: { [schedule.name]: { main: [[{ node: search.name, type: 'main', index: 0 }]] } },
		active: false,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		versionId: `${wfId}-0000-4000-8000-000000000001`.slice(0, 36),
		pinData: {},
		meta: { instanceId: 'e2e' },
		tags: [],
	} as SavedWorkflowJson;
}

const WORKFLOWS = {
	trigger: triggerWorkflow('e2eBudgetTrig001', PROJECTS.trigger, CREDENTIALS.basic, {}),
	other: otherWorkflow('e2eBudgetOther01', PROJECTS.other, CREDENTIALS.basic),
	controlTrigger: triggerWorkflow(
		'e2eBudgetCtlTrg1',
		PROJECTS.controlTrigger,
		CREDENTIALS.enterprise,
		{ requestsPerHour: 0 },
	),
	controlOther: otherWorkflow('e2eBudgetCtlOth1', PROJECTS.controlOther, CREDENTIALS.enterprise),
};

const searchesOf = (log: Logged[], projectId: number) =>
	log.filter(
		(r) =>
			r.path.endsWith(`/projects/${projectId}/mentions/recent/search`) ||
			r.path.endsWith(`/projects/${projectId}/mentions/search`),
	);
/** requests per clock hour of the simulated clock (the budget's windows) */
function perClockHour(requests: Logged[]): Map<string, number> {
	const out = new Map<string, number>();
	for (const r of requests) {
		const hour = new Date(Math.floor(Date.parse(r.at) / HOUR) * HOUR).toISOString().slice(0, 13);
		out.set(hour, (out.get(hour) ?? 0) + 1);
	}
	return out;
}

let log: Logged[] = [];
let activatedAt = 0;
let endedAt = 0;
const injected: string[] = [];
const passedOn: string[] = [];

beforeAll(async () => {
	ensureN8n();
	sim = await startSim(['--mentions', '400', '--seed', '17'], {
		clock: 'running',
		now: null,
		env: { ...process.env, ...lapseEnv },
	});
	host = await createHost();
	await admin(sim, 'DELETE', '/requests');
	n8n = await host.start(lapseEnv);
	if (!n8n.output().includes(`[time-lapse] clock ×${FACTOR}`))
		throw new Error(
			`n8n did not start with test/support/n8n/timeLapse.js:\n${n8n.output().slice(-2000)}`,
		);
	// created and published as in the editor
	await n8n.createCredentials(sentiOneCredentials(sim.base));
	const all = Object.values(WORKFLOWS);
	await n8n.createWorkflows(all);
	await n8n.publishAll(all);

	// activation: each trigger's first check notes where it starts
	for (;;) {
		const requests = (await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests;
		if (
			searchesOf(requests, PROJECTS.trigger).length > 0 &&
			searchesOf(requests, PROJECTS.controlTrigger).length > 0
		)
			break;
		if (simulatedNow() - lapse.fakeOrigin > 2 * HOUR)
			throw new Error(`the triggers did not activate:\n${n8n.output().slice(-3000)}`);
		await sleep(200);
	}
	activatedAt = simulatedNow();
	// a simulated hour and 5 minutes; a mention collected now and then for the trigger to pass on
	while (simulatedNow() < activatedAt + HOUR + 5 * MINUTE) {
		if (simulatedNow() < activatedAt + HOUR - 10 * MINUTE && Math.random() < 0.25) {
			const { mentions } = await admin<{ mentions: Loose[] }>(sim, 'POST', '/mentions', {
				projectId: PROJECTS.trigger,
				count: 1,
			});
			injected.push(...mentions.map((m) => String(m.id)));
		}
		await sleep(1_000); // 30 simulated seconds
	}
	endedAt = simulatedNow();
	log = (await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests;
	for (const summary of await n8n.executions(WORKFLOWS.trigger.id)) {
		const execution = await n8n.execution(String(summary.id));
		const runs = execution.data?.resultData.runData['SentiOne Trigger'] ?? [];
		for (const run of runs)
			for (const item of run.data?.main?.[0] ?? []) passedOn.push(String((item.json as Loose).id));
	}
}, 15 * 60_000);

afterAll(() => stopAll(n8n, sim, host));

test('a simulated hour on a Basic key: the other workflow never gets a 429; the trigger spends at most its share', () => {
	expect(endedAt - activatedAt).toBeGreaterThanOrEqual(HOUR);
	const basic = log.filter((r) => r.tier === 'basic');
	const trigger = searchesOf(basic, PROJECTS.trigger);
	const other = searchesOf(basic, PROJECTS.other);
	// the other workflow ran every 4 minutes all along, and every one of its searches was answered
	expect(other.length).toBeGreaterThanOrEqual(15);
	expect(other.filter((r) => r.status !== 200)).toEqual([]);
	expect(basic.filter((r) => r.status === 429)).toEqual([]);
	// n8n ran the trigger's check every minute (≈ 65 checks), yet it sent at most its share per clock hour
	for (const [hour, count] of perClockHour(trigger))
		expect({ hour, count: Math.min(count, DEFAULT_SHARE) }).toEqual({ hour, count });
	expect(trigger.length).toBeGreaterThanOrEqual(DEFAULT_SHARE - 1);
	// together they stay within the key's budget in every clock hour
	for (const [hour, count] of perClockHour([...trigger, ...other]))
		expect({ hour, withinBudget: count <= SEARCH_BUDGET }).toEqual({ hour, withinBudget: true });
	// eslint-disable-next-line no-console
	console.log(
		`budget e2e (n8n default schedule, simulated ${Math.round((endedAt - activatedAt) / MINUTE)} min): trigger ${trigger.length} searches ` +
			`(${[...perClockHour(trigger).values()].join(' + ')} per clock hour, share ${DEFAULT_SHARE}), other workflow ${other.length} searches, 0 × 429`,
	);
});

test('spacing its checks loses nothing: every mention collected during the hour is passed on once', () => {
	expect(injected.length).toBeGreaterThan(5);
	const counts = new Map<string, number>();
	for (const m of passedOn) counts.set(m, (counts.get(m) ?? 0) + 1);
	expect(injected.filter((m) => !counts.has(m))).toEqual([]);
	expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
});

test('control: the same pair with the trigger’s share turned off (0) starves the other workflow', () => {
	const enterprise = log.filter((r) => r.tier === 'enterprise');
	const trigger = searchesOf(enterprise, PROJECTS.controlTrigger);
	const other = searchesOf(enterprise, PROJECTS.controlOther);
	expect(Math.max(...perClockHour(trigger).values())).toBeGreaterThan(DEFAULT_SHARE);
	expect(other.filter((r) => r.status === 429).length).toBeGreaterThan(0);
	// eslint-disable-next-line no-console
	console.log(
		`budget e2e control (share 0): trigger ${trigger.length} searches, other workflow ${other.filter((r) => r.status === 429).length} of ${other.length} refused with 429`,
	);
});
