/**
 * One answer for a route the server lacks, through the nodes in n8n's engine against the simulator's
 * variants (simulator/README.md, "Variants"):
 *
 * - `routes=absent`: every route SentiOne only announces is gone (404 "Not found.", or 405 where the
 *   path keeps other methods). Every operation on one — the project and tag operations, the recent
 *   export, the Stream Trigger's engagement stream — says "<operation> is not available on this
 *   SentiOne API", declares the configuration the cause, and blames no ID. The live stream cannot
 *   be taken away in the simulator (the reference confirms it); a server without it answers the
 *   same unknown-route 404 (scripted here) and the Stream Trigger says the same.
 * - `notFoundMessage=generic`: a project that is not there is a 404 "Not Found" naming nothing. On a
 *   confirmed route it still reads as a missing project; on an announced route it cannot be told
 *   from an absent route and names the operation as not available (D-21).
 */
import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../../nodes/SentiOne/shared/contract';
import type { EndpointName } from '../../../nodes/SentiOne/shared/contract';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { credentials } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';
import {
	admin,
	requestLog,
	script,
	startLiveSim,
	type LoggedRequest,
	type Sim,
} from '../../support/simulator';
import { activateStreamTrigger, projectParam, streamParameters } from '../../support/triggers';

jest.setTimeout(60_000);

let sim: Sim;

beforeAll(async () => {
	sim = await startLiveSim();
});

afterAll(async () => {
	await sim?.stop();
});

afterEach(async () => {
	await admin(sim, 'DELETE', '/variant');
	await admin(sim, 'DELETE', '/faults');
});

const MISSING_PROJECT = 987_654;

/** Each action operation on a route, as a workflow fixture with its parameters. */
const ACTIONS: Array<{
	endpoint: EndpointName;
	fixture: string;
	parameters: IDataObject;
	input?: IDataObject[];
}> = [
	{ endpoint: 'createProject', fixture: 'project-create', parameters: {} },
	{ endpoint: 'updateProject', fixture: 'project-update', parameters: {} },
	{ endpoint: 'deleteProject', fixture: 'project-delete', parameters: {} },
	{ endpoint: 'listTags', fixture: 'tag-get-many', parameters: {} },
	{ endpoint: 'addTags', fixture: 'tag-add', parameters: {}, input: [{ mentionId: 'm-1' }] },
	{ endpoint: 'removeTags', fixture: 'tag-remove', parameters: {}, input: [{ mentionId: 'm-1' }] },
	{
		endpoint: 'recentExport',
		fixture: 'mention-export',
		parameters: { exportScope: 'recent', filters: {}, sortType: 'PublishedAtDescending' },
	},
	{
		endpoint: 'historicalExport',
		fixture: 'mention-export',
		parameters: { exportScope: 'historical', filters: {} },
	},
	{
		endpoint: 'recentSearch',
		fixture: 'mention-search-recent',
		parameters: { returnAll: false, limit: 5, filters: {} },
	},
	{
		endpoint: 'historicalSearch',
		fixture: 'mention-search-historical',
		parameters: { returnAll: false, limit: 5, filters: {} },
	},
];

/** Runs an action operation (on `projectId` where it names one); its node error. */
async function actionError(action: (typeof ACTIONS)[number], projectId?: number) {
	const parameters =
		projectId === undefined
			? action.parameters
			: { ...action.parameters, project: projectParam(projectId) };
	const result = await run(sim, withParameters(loadWorkflow(action.fixture), parameters), {
		key: ENTERPRISE,
		inputItems: action.input,
	});
	return result.nodeError(NODE) as
		| (Error & { description?: string; failure?: unknown })
		| undefined;
}

/** The one answer for a route the server lacks. */
function expectNotAvailable(
	error: (Error & { description?: string; failure?: unknown }) | undefined,
	endpoint: EndpointName,
	status: RegExp = /40[45]/,
) {
	const { operation } = ENDPOINTS[endpoint];
	expect(error?.message.startsWith(`${operation} is not available on this SentiOne API (`)).toBe(
		true,
	);
	expect(error?.message).toMatch(new RegExp(`\\((${status.source})\\): `));
	expect(error?.description).not.toMatch(/^Check the project ID or mention ID/);
	expect(error?.failure).toEqual({ cause: 'configuration-invalid' });
}

const liveStreamParameters = (projectId: number) =>
	streamParameters({ event: 'newMention', project: projectParam(projectId) });

describe('routes=absent: every announced route is gone', () => {
	beforeEach(async () => {
		await admin(sim, 'POST', '/variant', { routes: 'absent' });
	});

	const absent = ACTIONS.filter((a) => !ENDPOINTS[a.endpoint].confirmed);

	test('the table: every announced route an action calls is tried here', () => {
		const announced = (Object.keys(ENDPOINTS) as EndpointName[]).filter(
			(name) => !ENDPOINTS[name].confirmed,
		);
		expect([...absent.map((a) => a.endpoint), 'engagementStream'].sort()).toEqual(announced.sort());
	});

	test.each(absent.map((a) => [a.endpoint, a] as const))(
		'%s: not available on this SentiOne API, nothing else sent',
		async (endpoint, action) => {
			await admin(sim, 'DELETE', '/requests');
			expectNotAvailable(await actionError(action), endpoint);
			const sent: LoggedRequest[] = await requestLog(sim);
			expect(sent).toHaveLength(1);
			expect(sent[0].status === 404 || sent[0].status === 405).toBe(true);
		},
	);

	test('Project → Create: the path keeps GET, so POST is a 405', async () => {
		const error = await actionError(ACTIONS[0]);
		expect(error?.message).toBe(
			'Project → Create is not available on this SentiOne API (405): Method not allowed.',
		);
	});

	test('the Stream Trigger’s engagement stream: activation fails with the same answer', async () => {
		await expect(
			activateStreamTrigger(
				streamParameters({ event: 'engagementUpdate' }),
				credentials(sim, ENTERPRISE),
			),
		).rejects.toThrow(
			/^SentiOne Stream Trigger → Engagement Update is not available on this SentiOne API \(404\): Not found\.$/,
		);
	});

	test('the confirmed routes are still there: the live stream and the historical export work', async () => {
		const trigger = await activateStreamTrigger(
			liveStreamParameters(1001),
			credentials(sim, ENTERPRISE),
		);
		try {
			expect(trigger.errors).toEqual([]);
		} finally {
			await trigger.close();
		}
		const historical = ACTIONS.find((a) => a.endpoint === 'historicalExport');
		expect(await actionError(historical!)).toBeUndefined();
	});
});

describe('a server without the live stream (its unknown-route answer, D-34)', () => {
	test('the Stream Trigger’s live stream: activation fails with the answer of every other route', async () => {
		await script(sim, '/mentions/recent/search/stream/live$', {
			kind: 'json',
			status: 404,
			body: { message: 'Not found.' },
		});
		let error: (Error & { description?: string; failure?: unknown }) | undefined;
		try {
			const trigger = await activateStreamTrigger(
				liveStreamParameters(1001),
				credentials(sim, ENTERPRISE),
			);
			await trigger.close();
		} catch (caught) {
			error = caught as typeof error;
		}
		expectNotAvailable(error, 'liveStream', /404/);
		expect(error?.message).toBe(
			'SentiOne Stream Trigger → New Mention is not available on this SentiOne API (404): Not found.',
		);
		expect(error?.description).toMatch(/reference documents.*check the Base URL\.$/);
	});
});

describe('notFoundMessage=generic: a missing project names nothing', () => {
	beforeEach(async () => {
		await admin(sim, 'POST', '/variant', { notFoundMessage: 'generic' });
	});

	const projectScoped = ACTIONS.filter((a) => ENDPOINTS[a.endpoint].path.length >= 1);

	test.each(projectScoped.map((a) => [a.endpoint, a] as const))(
		'%s on a missing project: a confirmed route blames the project, an announced one is not available',
		async (endpoint, action) => {
			const error = await actionError(action, MISSING_PROJECT);
			if (ENDPOINTS[endpoint].confirmed) {
				expect(error?.message).toBe(
					'SentiOne could not find what the request names (404): Not Found',
				);
				expect(error?.description).toMatch(/^Check the project ID or mention ID/);
				expect(error?.failure).toEqual({ cause: 'configuration-invalid' });
			} else {
				expectNotAvailable(error, endpoint, /404/);
			}
		},
	);

	test('the live stream on a missing project: the project, as on every confirmed route', async () => {
		await expect(
			activateStreamTrigger(liveStreamParameters(MISSING_PROJECT), credentials(sim, ENTERPRISE)),
		).rejects.toThrow(/^SentiOne could not find what the request names \(404\): Not Found$/);
	});
});
