/**
 * One item builder for the three nodes (shared/items.ts): a mention is the `json` of its item, as
 * SentiOne sent it. A mention may carry any field (D-35), including top-level fields named like the
 * parts of an n8n item — `json`, `binary`, `pairedItem` — which n8n's returnJsonArray would take
 * for the item itself. Each node, given such a mention with Simplify off, passes it on unaltered.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	PollHarness,
	activateStreamTrigger,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { jsonOf, loadWorkflow, run, withParameters } from '../../support/actions';
import { type Sim, emptyProject, addMentions, startLiveSim } from '../../support/simulator';
import { credentials } from '../../support/engine';
import { ENTERPRISE } from '../../support/keys';

jest.setTimeout(30_000);

/** Fields shaped like an n8n item's own parts, at the top level of a mention. */
const ITEM_LOOKALIKES = {
	json: { id: 'not-the-mention', note: 'a field of the mention, not an item' },
	binary: { data: { mimeType: 'text/plain', data: 'aGVsbG8=' } },
	pairedItem: { item: 7 },
};

let sim: Sim;

beforeAll(async () => {
	sim = await startLiveSim(['--index-lag-ms', '0']);
});

afterAll(async () => {
	await sim.stop();
});

/** A new project whose mentions carry the look-alike fields; `count` of them, collected now. */
async function lookalikes(projectId: number, count: number): Promise<IDataObject[]> {
	return (await addMentions(sim, projectId, count, {
		overrides: ITEM_LOOKALIKES,
	})) as IDataObject[];
}

function expectUnaltered(items: IDataObject[] | null, sent: IDataObject[]): void {
	expect(items).not.toBeNull();
	const byId = new Map((items ?? []).map((item) => [String(item.id), item]));
	for (const mention of sent) {
		const item = byId.get(String(mention.id));
		expect(item).toBeDefined();
		expect(item).toMatchObject(ITEM_LOOKALIKES);
		expect(item?.content).toEqual(mention.content);
	}
}

test('the SentiOne node passes such a mention on as it is', async () => {
	const projectId = await emptyProject(sim);
	const sent = await lookalikes(projectId, 2);
	const workflow = withParameters(loadWorkflow('mention-search-recent'), {
		project: projectParam(projectId),
		filters: {},
		simplify: false,
		returnAll: true,
	});
	const items = jsonOf(await run(sim, workflow, { key: ENTERPRISE })) as IDataObject[];
	expect(items).toHaveLength(2);
	expectUnaltered(items, sent);
});

test('the SentiOne Trigger passes such a mention on as it is', async () => {
	const projectId = await emptyProject(sim);
	const harness = new PollHarness(pollParameters(projectId), credentials(sim));
	expect(await harness.poll('activate')).toEqual({ items: null, error: undefined });
	const sent = await lookalikes(projectId, 2);
	const outcome = await harness.poll();
	expect(outcome.error).toBeUndefined();
	expectUnaltered(outcome.items, sent);
});

test('the SentiOne Stream Trigger passes such a mention on as it is', async () => {
	const projectId = await emptyProject(sim);
	const trigger = await activateStreamTrigger(
		streamParameters({ project: projectParam(projectId) }),
		credentials(sim),
	);
	try {
		const sent = await lookalikes(projectId, 2);
		await trigger.until(() => trigger.items().length >= 2);
		expectUnaltered(trigger.items(), sent);
	} finally {
		await trigger.close();
	}
});
