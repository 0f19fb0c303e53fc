/**
 * The editor as a new user meets the package: a real n8n (test/support/n8n/host.ts: the one this
 * run's end-to-end files share) with the package installed as a community package, in headless Chromium (Debian's chromium, installed with
 * apt-get when missing: test/support/n8n/chromium.js), signed in as the owner.
 *
 * How n8n 2.x's nodes panel works (editor-ui, features/shared/nodeCreator):
 * - it groups a trigger with the node whose type name is the trigger's minus "Trigger"
 *   (`sentiOneTrigger` → `sentiOne`) when that node has actions, and shows the TRIGGER's
 *   description for the group (useActionsGeneration.ts, `app.description = trigger.description`);
 *   SentiOne Stream Trigger (`sentiOneStream` matches nothing) keeps its own entry;
 * - its search matches the entries' display name and codex `alias` (the `*.node.json`), fuzzily,
 *   never their description (@n8n/utils sublimeSearch, DEFAULT_KEYS);
 * - a trigger's events are its actions, named "On " + the option name in lower case.
 *
 * So: searching "SentiOne", "mentions" and "social listening" finds the SentiOne entry, with the
 * action node's description, holding the actions and SentiOne Trigger's events ("On new mention",
 * "On digest", …), and the SentiOne Stream Trigger entry with its events; both in the panel
 * of a workflow under way ("What happens next?") and of a new one ("What triggers this
 * workflow?"). On the canvas, the action node's subtitle reads like its operation.
 */
import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { SentiOneStreamTrigger } from '../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { SentiOneTrigger } from '../../nodes/SentiOne/SentiOneTrigger.node';
import { OWNER, sharedN8n, type N8nSession } from '../support/n8n/host';
import { node } from '../support/n8n/workflows';
import { type SavedWorkflowJson } from '../support/workflowJson';
import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const browser = require('../support/n8n/chromium.js') as {
	ensureChromium(): string;
	launch(base: string, cookie: string): Promise<{ page: Page; close(): Promise<void> }>;
	dismissPopups(page: Page, settleMs?: number): Promise<void>;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const restApi = require('../../scripts/n8n/rest.js') as {
	login(base: string, user: { email: string; password: string }): Promise<string>;
};

/** The part of playwright-core's Page this test uses (and of the DOM, in the page: no DOM lib here). */
interface El {
	textContent: string | null;
	innerText: string;
	getAttribute(name: string): string | null;
	querySelector(selector: string): El | null;
}
interface Locator {
	click(options?: { timeout?: number }): Promise<void>;
	fill(value: string): Promise<void>;
	first(): Locator;
	count(): Promise<number>;
	waitFor(options?: { state?: 'visible' | 'attached'; timeout?: number }): Promise<void>;
	evaluateAll<R>(fn: (elements: El[]) => R): Promise<R>;
}
interface Page {
	goto(
		url: string,
		options?: { waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' },
	): Promise<unknown>;
	waitForSelector(selector: string, options?: { timeout?: number }): Promise<unknown>;
	waitForFunction(
		expression: string,
		arg: undefined,
		options?: { timeout?: number },
	): Promise<unknown>;
	locator(selector: string): Locator;
	waitForTimeout(ms: number): Promise<void>;
	keyboard: { press(key: string): Promise<void> };
}

const PKG = 'n8n-nodes-sentione';
const ACTION = `${PKG}.sentiOne`;
const POLL = `${PKG}.sentiOneTrigger`;
const STREAM = `${PKG}.sentiOneStreamTrigger`;
const ACTION_DESCRIPTION = new SentiOne().description.description;
const STREAM_DESCRIPTION = new SentiOneStreamTrigger().description.description;

/** A trigger's events as the panel lists them: "On " + each Event option's name in lower case. */
function panelEvents(description: INodeTypeDescription): string[] {
	const event = description.properties.find((p) => p.name === 'event');
	return ((event?.options ?? []) as INodePropertyOptions[]).map(
		(o) => `On ${o.name.toLowerCase()}`,
	);
}
const POLL_EVENTS = panelEvents(new SentiOneTrigger().description);
const STREAM_EVENTS = panelEvents(new SentiOneStreamTrigger().description);

/** An entry of the panel: its node type (the keyboard-navigation id is `<node type>-<uuid>`), name and description. */
interface Entry {
	type: string;
	name: string;
	description: string;
}

const ITEMS = '[data-test-id="item-iterator-item"]';

let n8n: N8nSession;
let session: { page: Page; close(): Promise<void> } | undefined;
let page: Page;
let workflowId = '';

beforeAll(async () => {
	browser.ensureChromium();
	// the n8n this run's end-to-end files share
	n8n = await sharedN8n();
	const wf = await n8n.rest<{ data: { id: string } }>('POST', '/workflows', editorWorkflow());
	expect(wf.status).toBe(200);
	workflowId = wf.json.data.id;
	session = await browser.launch(n8n.base, await signIn());
	page = session.page;
}, 15 * 60_000);

afterAll(async () => {
	await session?.close();
});

/** A workflow a user has begun: the Stream Trigger, a search and the tag list, laid out in a row. */
function editorWorkflow(): Omit<SavedWorkflowJson, 'id'> {
	const nodes = [
		node('Live mentions', STREAM, { event: 'newMention' }),
		node('Find complaints', ACTION, { resource: 'mention', operation: 'searchRecent' }),
		node('Tags of the project', ACTION, { resource: 'tag', operation: 'getAll' }),
	].map((n, i) => ({ ...n, position: [i * 260, 0] as [number, number] }));
	const chain = (from: string, to: string) => ({
		[from]: { main: [[{ node: to, type: 'main', index: 0 }]] },
	});
	return {
		name: 'Editor test',
		nodes,
		connections: {
			...chain('Live mentions', 'Find complaints'),
			...chain('Find complaints', 'Tags of the project'),
		},
		active: false,
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	};
}

/**
 * The owner's session cookie for the browser. Signed in without a `browser-id` header: n8n binds a
 * session to the browser id it was created with, and the browser sends its own.
 */
async function signIn(): Promise<string> {
	const cookie = await restApi.login(n8n.base, OWNER);
	expect(cookie).toMatch(/^n8n-auth=/);
	return cookie;
}

async function openEditor(route: string): Promise<void> {
	await page.goto(`${n8n.base}${route}`, { waitUntil: 'domcontentloaded' });
	await page.waitForSelector(
		'[data-test-id="node-creator-plus-button"], [data-test-id="signin-form"], form input[type="password"]',
		{ timeout: 60_000 },
	);
	if ((await page.locator('[data-test-id="node-creator-plus-button"]').count()) === 0)
		throw new Error(`${route} did not open the editor (not signed in?)`);
	await browser.dismissPopups(page, 300);
}

/**
 * Opens the nodes panel (the + at the top left) unless it is open, types `query`, returns the
 * entries it lists. The search box is emptied first (so no SentiOne entry is left from a previous
 * search), then the list is read once a SentiOne entry appears, or after 10 s when none does.
 */
async function search(query: string): Promise<Entry[]> {
	const bar =
		'[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]';
	const input = page.locator(bar).first();
	if ((await input.count()) === 0)
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	const ourEntry = `document.querySelector('${ITEMS}[data-keyboard-nav-type="node"][data-keyboard-nav-id^="${PKG}."]')`;
	await input.fill('');
	await page.waitForFunction(`${ourEntry} === null`, undefined, { timeout: 10_000 });
	await input.fill(query);
	await page
		.waitForFunction(
			`document.querySelector(${JSON.stringify(bar)})?.value === ${JSON.stringify(query)} && ${ourEntry} !== null`,
			undefined,
			{ timeout: 10_000 },
		)
		.catch(() => undefined);
	await page.waitForTimeout(300);
	return await entries('node');
}

async function entries(kind: 'node' | 'action'): Promise<Entry[]> {
	return await page.locator(`${ITEMS}[data-keyboard-nav-type="${kind}"]`).evaluateAll((elements) =>
		elements.map((e) => ({
			type: (e.getAttribute('data-keyboard-nav-id') ?? '').replace(
				/-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
				'',
			),
			name: e.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '',
			description:
				e.querySelector('[data-test-id="node-creator-item-description"]')?.textContent?.trim() ??
				'',
		})),
	);
}

/** Opens an entry of the search results; returns its actions (triggers' events expanded). */
async function open(type: string): Promise<Entry[]> {
	await page
		.locator(`${ITEMS}[data-keyboard-nav-type="node"][data-keyboard-nav-id^="${type}-"]`)
		.click();
	await page
		.locator(`${ITEMS}[data-keyboard-nav-type="action"]`)
		.first()
		.waitFor({ timeout: 10_000 });
	const triggers = page.locator(
		'[data-test-id="node-creator-category-item"][data-keyboard-nav-id="Triggers"]',
	);
	const collapsed = page.locator(
		'[data-category-collapsed="true"] [data-test-id="node-creator-category-item"][data-keyboard-nav-id="Triggers"]',
	);
	if ((await collapsed.count()) > 0) {
		await triggers.click();
		await page
			.locator(`${ITEMS}[data-keyboard-nav-type="action"][data-keyboard-nav-id^="${POLL}-"]`)
			.first()
			.waitFor({ timeout: 10_000 });
	}
	return await entries('action');
}

/** The SentiOne entries of a search, by node type. */
const ours = (list: Entry[]) => list.filter((e) => e.type.startsWith(`${PKG}.`));

describe('the nodes panel of a workflow under way ("What happens next?")', () => {
	beforeAll(async () => {
		await openEditor(`/workflow/${workflowId}`);
	}, 120_000);

	test.each(['SentiOne', 'mentions', 'social listening'])(
		'searching "%s" finds the SentiOne entry, with the action node\'s description, and the Stream Trigger',
		async (query) => {
			const found = ours(await search(query)).sort((a, b) => a.type.localeCompare(b.type));
			expect(found).toEqual([
				{ type: ACTION, name: 'SentiOne', description: ACTION_DESCRIPTION },
				{
					type: STREAM,
					name: expect.stringMatching(/^SentiOne Stream( Trigger)?$/),
					description: STREAM_DESCRIPTION,
				},
			]);
		},
		60_000,
	);

	test("the SentiOne entry holds the action node's operations and every event of SentiOne Trigger", async () => {
		await search('SentiOne');
		const actions = await open(ACTION);
		expect(actions.filter((a) => a.type === ACTION).map((a) => a.name)).toEqual([
			'Export mentions',
			'Search historical mentions',
			'Search recent mentions',
			'Create a project',
			'Delete a project',
			'Get many projects',
			'Update a project',
			'Add tags to a mention',
			'Get many tags',
			'Remove tags from a mention',
		]);
		expect(actions.filter((a) => a.type === POLL).map((a) => a.name)).toEqual(POLL_EVENTS);
		await page.keyboard.press('Escape');
	}, 60_000);

	test('the Stream Trigger entry offers every event of the Stream Trigger, "On new mention" first', async () => {
		await search('social listening');
		const actions = await open(STREAM);
		expect(STREAM_EVENTS[0]).toBe('On new mention');
		expect(actions.map((a) => `${a.type} ${a.name}`)).toEqual(
			STREAM_EVENTS.map((e) => `${STREAM} ${e}`),
		);
		await page.keyboard.press('Escape');
	}, 60_000);

	test("on the canvas, the action node's subtitle reads like its operation", async () => {
		const nodes = await page
			.locator('[data-test-id="canvas-node"]')
			.evaluateAll((elements) =>
				Object.fromEntries(
					elements.map((e) => [
						e.getAttribute('data-node-name'),
						e.innerText.split('\n').map((l) => l.trim()),
					]),
				),
			);
		expect(nodes['Find complaints']).toEqual(
			expect.arrayContaining(['Find complaints', 'Search recent mentions']),
		);
		expect(nodes['Tags of the project']).toEqual(
			expect.arrayContaining(['Tags of the project', 'Get many tags']),
		);
		expect(nodes['Live mentions']).toEqual(
			expect.arrayContaining(['Live mentions', 'New mention (live)']),
		);
	}, 30_000);
});

describe('the nodes panel of a new workflow ("What triggers this workflow?")', () => {
	beforeAll(async () => {
		await openEditor('/workflow/new');
	}, 120_000);

	test.each(['SentiOne', 'mentions', 'social listening'])(
		'searching "%s" finds both SentiOne triggers\' entries',
		async (query) => {
			const found = ours(await search(query)).sort((a, b) => a.type.localeCompare(b.type));
			expect(found).toEqual([
				{ type: ACTION, name: 'SentiOne', description: ACTION_DESCRIPTION },
				{
					type: STREAM,
					name: expect.stringMatching(/^SentiOne Stream( Trigger)?$/),
					description: STREAM_DESCRIPTION,
				},
			]);
		},
		60_000,
	);

	test('the SentiOne entry holds every event of SentiOne Trigger, "On new mention" first', async () => {
		await search('mentions');
		const actions = await open(ACTION);
		expect(POLL_EVENTS[0]).toBe('On new mention');
		expect(actions.filter((a) => a.type === POLL).map((a) => a.name)).toEqual(POLL_EVENTS);
	}, 60_000);
});
