/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * n8n 2.x's poll scheduler backs off by the cause a poll's error declares (issue 21, class 4). The
 * SentiOne Trigger, published in a real `n8n start` (2.41.1) and checking every 15 seconds, gets a
 * 429 of the spent search budget whose reset is 40 s after the check; its error declares
 * `quota-exhausted` with that reset (shared/errors/failure.ts). n8n's scheduler then skips every
 * scheduled check before the reset and checks again at the first one after it.
 *
 * n8n reads the declared cause only in its durable scheduler for poll triggers
 * (n8n/dist/workflows/triggers/poll-backoff-policy.js, poll-backoff.service.js): it is off by default
 * in 2.41.1, so this n8n runs with N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED and
 * N8N_POLLER_DURABLE_CURSORS_ENABLED. The backoff ends at the database's clock plus the declared
 * wait, so it runs in real time (the time-lapse preload cannot move SQLite's clock); the checks
 * every 15 seconds keep it to about a minute after n8n's start. It reads two records: the simulator's request log (no search between
 * the 429 and the reset, one after it) and n8n's own log (its "Poll failed; backing off" record of
 * the cause and the delay, and "Poll is backing off; skipping this occurrence" for each check it
 * did not run).
 *
 * Without a declared cause n8n would read the 429 as `rate-limited` with no time and back off 5 s
 * (its backoff curve for a first failure), checking again 15 s later, before the reset.
 */
import { admin, script, startLiveSim, type Loose, type Sim } from '../support/simulator';
import { createHost, ensureN8n, N8N_MAJOR, type Host, type RunningN8n } from '../support/n8n/host';
import {
	CREDENTIALS,
	EVERY_15_SECONDS,
	node,
	project,
	sentiOneCredentials,
} from '../support/n8n/workflows';
import { until } from '../support/wait';
import { MINUTE, SECOND } from '../support/time';
import { type SavedWorkflowJson } from '../support/workflowJson';

/** n8n 2.41's durable poll scheduler, which reads a poll error's declared cause (off by default). */
const DURABLE_POLL_SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	// its decisions, one JSON line each: only the scheduler's and the poll trigger's
	N8N_LOG_LEVEL: 'debug',
	N8N_LOG_FORMAT: 'json',
	N8N_LOG_SCOPES: 'scheduler,poll-trigger',
};

/** the trigger checks at seconds 0, 15, 30 and 45 of every minute */
const CHECK_EVERY = 15 * SECOND;
/** the reset the 429 states, after the check it answers: the two checks in between are skipped */
const RESET_AFTER_CHECK = 40 * SECOND;

const TRIGGER = 'SentiOne Trigger';
const WORKFLOW_ID = 'backoffPollTrig1';

function pollWorkflow(): SavedWorkflowJson {
	const trigger = node(
		TRIGGER,
		'n8n-nodes-sentione.sentiOneTrigger',
		{
			// four once-a-minute crons, a check every 15 seconds on known instants
			pollTimes: EVERY_15_SECONDS,
			event: 'newMention',
			source: 'recent',
			project: project(1001),
			startFrom: 'now',
			// no share of the key's budget of its own: every check searches
			options: { requestsPerHour: 0 },
		},
		{ credentials: { sentiOneApi: CREDENTIALS.basic } },
	);
	const done = {
		...node('Done', 'n8n-nodes-base.noOp', {}),
		position: [220, 0] as [number, number],
	};
	return {
		id: WORKFLOW_ID,
		name: 'Backoff: poll trigger',
		nodes: [trigger, done],
		connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		pinData: {},
		active: false,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
		versionId: `${WORKFLOW_ID}-0000-4000-8000-000000000001`.slice(0, 36),
		meta: { instanceId: 'e2e' },
		tags: [],
	};
}

interface Logged {
	seq: number;
	at: string;
	path: string;
	status: number | null;
}

/** One line of n8n's JSON log. */
interface LogLine {
	message: string;
	at: number;
	meta: Record<string, Loose>;
}

let sim: Sim;
let host: Host;
let n8n: RunningN8n;

const searches = async (): Promise<Array<Logged & { atMs: number }>> =>
	(await admin<{ requests: Logged[] }>(sim, 'GET', '/requests')).requests
		.filter((r) => r.path.endsWith('/mentions/recent/search'))
		.map((r) => ({ ...r, atMs: Date.parse(r.at) }));

/** n8n's log lines (JSON) with this message. */
function logged(message: string): LogLine[] {
	const lines: LogLine[] = [];
	for (const text of n8n.output().split('\n')) {
		if (!text.startsWith('{') || !text.includes(message)) continue;
		try {
			const line = JSON.parse(text) as {
				message: string;
				timestamp?: string;
				metadata?: Record<string, Loose>;
			};
			if (line.message !== message) continue;
			const meta = line.metadata ?? {};
			const stamp = line.timestamp ?? (meta.timestamp as string | undefined);
			lines.push({ message, at: stamp ? Date.parse(stamp) : NaN, meta });
		} catch {
			// a line that only began like JSON
		}
	}
	return lines;
}

const describeOn2x = N8N_MAJOR >= 2 ? describe : describe.skip;

describeOn2x('n8n 2.x poll scheduler: the backoff follows a 429’s declared reset', () => {
	beforeAll(async () => {
		ensureN8n();
		sim = await startLiveSim();
		host = await createHost();
		await host.importCredentials(sentiOneCredentials(sim.base));
		await host.importWorkflow(pollWorkflow());
		n8n = await host.start(DURABLE_POLL_SCHEDULER);
	}, 10 * 60_000);

	afterAll(async () => {
		await n8n?.stop();
		await sim?.stop();
		host?.dispose();
	});

	test('no check between the 429 and its reset, and one right after it', async () => {
		await admin(sim, 'DELETE', '/requests');
		const activated = await n8n.activate(WORKFLOW_ID);
		if (activated.status !== 200)
			throw new Error(`activating → ${activated.status}: ${JSON.stringify(activated.json)}`);
		// activation checks once: the trigger notes where it starts (one search)
		const seeded = await until(async () => (await searches()).find((r) => r.status === 200), {
			what: 'the activation check',
			timeoutMs: 30_000,
			stepMs: 250,
		});

		// a scheduled check (it searches too); the one after it finds the search budget spent
		const scheduled = await until(
			async () => (await searches()).find((r) => r.seq > seeded.seq && r.status === 200),
			{ what: 'the first scheduled check', timeoutMs: MINUTE, stepMs: 250 },
		);
		// its instant (a check runs a few seconds late at most), and the next
		const firstCheck =
			Math.floor((scheduled.atMs + 2 * SECOND) / CHECK_EVERY) * CHECK_EVERY + CHECK_EVERY;
		const resetAt = firstCheck + RESET_AFTER_CHECK;
		const resetIso = new Date(resetAt).toISOString();
		await script(
			sim,
			'/mentions/recent/search$',
			{
				kind: 'json',
				status: 429,
				body: {
					message: `Rate limit of requests for this endpoint has been reached. Maximum number of requests for this endpoint is 30. Limits will reset at ${resetIso}.`,
				},
				headers: {
					'x-rate-limit-limit': 30,
					'x-rate-limit-remaining': 0,
					'x-rate-limit-reset': Math.floor(resetAt / 1000),
				},
			},
			100,
		);
		const refused = await until(
			async () => (await searches()).find((r) => r.seq > scheduled.seq && r.status === 429),
			{ what: 'the check that gets the 429', timeoutMs: MINUTE, stepMs: 250 },
		);
		expect(refused.atMs).toBeGreaterThanOrEqual(firstCheck - 2 * SECOND);
		expect(refused.atMs).toBeLessThan(firstCheck + 10 * SECOND);
		expect((await searches()).filter((r) => r.seq > scheduled.seq)).toHaveLength(1);

		// n8n's own record: the cause the error declared, and a wait to the reset
		const failed = await until(() => logged('Poll failed; backing off')[0], {
			what: "n8n's record of the failed poll",
			timeoutMs: 20_000,
			stepMs: 250,
		});
		expect(failed.meta).toMatchObject({
			workflowId: WORKFLOW_ID,
			type: 'transient',
			cause: 'quota-exhausted',
			consecutiveErrors: 1,
		});
		const delayMs = Number(failed.meta.delayMs);
		// the wait n8n chose is the reset less the moment it recorded the failure (never its 5 s
		// curve); that moment follows the refused request by however long a loaded machine takes
		const failedAt = Number.isFinite(failed.at) ? failed.at : refused.atMs;
		expect(failedAt - refused.atMs).toBeLessThan(30 * SECOND);
		expect(Math.abs(failedAt + delayMs - resetAt)).toBeLessThan(5 * SECOND);

		// until the reset: the scheduled checks are skipped by n8n, and nothing is sent
		await until(() => Date.now() > resetAt + SECOND, {
			what: 'the reset',
			timeoutMs: 2 * MINUTE,
			stepMs: 500,
		});
		const beforeReset = (await searches()).filter((r) => r.seq > refused.seq);
		expect(beforeReset).toEqual([]);
		const skipped = logged('Poll is backing off; skipping this occurrence').filter(
			(line) => line.meta.workflowId === WORKFLOW_ID,
		);
		expect(skipped.length).toBeGreaterThanOrEqual(1);
		for (const line of skipped) {
			expect(line.at).toBeGreaterThan(refused.atMs);
			expect(line.at).toBeLessThan(resetAt);
		}
		await admin(sim, 'DELETE', '/faults');

		// after the reset: the first scheduled check runs and searches again
		const afterReset = await until(
			async () => (await searches()).find((r) => r.seq > refused.seq),
			{ what: 'a check after the reset', timeoutMs: MINUTE, stepMs: 250 },
		);
		expect(afterReset.status).toBe(200);
		expect(afterReset.atMs).toBeGreaterThanOrEqual(resetAt);
		expect(afterReset.atMs).toBeLessThan(resetAt + CHECK_EVERY + 10 * SECOND);

		const figures = {
			checkAt: new Date(refused.atMs).toISOString(),
			resetAt: resetIso,
			n8nDelayMs: delayMs,
			skippedChecks: skipped.length,
			nextCheckAt: new Date(afterReset.atMs).toISOString(),
			searchesBetween: beforeReset.length,
		};
		process.stdout.write(`backoff figures: ${JSON.stringify(figures)}\n`);
	});
});
