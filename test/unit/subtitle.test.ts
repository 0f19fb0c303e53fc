/**
 * What the editor shows for the nodes outside their parameters, evaluated the way n8n does:
 * - the action node's canvas subtitle reads like the operation ("Search recent mentions", "Get
 *   many tags"): n8n evaluates the `subtitle` expression against the node's parameters
 *   (defaults filled in, as the editor stores them), and the text is each operation's `action`,
 *   the name the nodes panel gives it;
 * - the poll trigger's description is the action node's: n8n's nodes panel groups SentiOne
 *   Trigger under the SentiOne entry and shows the trigger's description for the group
 *   (editor-ui useActionsGeneration: `app.description = trigger.description`); the browser test
 *   test/e2e/editor.test.ts sees it in a real n8n;
 * - the Stream Trigger's events read "On new mention" / "On engagement update" in the panel (n8n
 *   names a trigger's actions "On " + the option name in lower case), the tier in the description.
 */
import type { INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { SentiOne } from '../../nodes/SentiOne/SentiOne.node';
import { SentiOneStreamTrigger } from '../../nodes/SentiOne/SentiOneStreamTrigger.node';
import { SentiOneTrigger } from '../../nodes/SentiOne/SentiOneTrigger.node';
import { PACKAGE, buildNodeTypes } from '../support/engine';
import { actionNodeOf } from '../support/fake/context';

const TYPE = `${PACKAGE}.sentiOne`;
const action = new SentiOne();
const nodeTypes = buildNodeTypes({ [TYPE]: action });

/** The subtitle the canvas shows for a SentiOne node with these parameters. */
function subtitle(parameters: Record<string, unknown>): unknown {
	const description = action.description;
	const filled = NodeHelpers.getNodeParameters(
		description.properties,
		parameters as never,
		true,
		false,
		{ typeVersion: 1 },
		description,
	);
	const node = actionNodeOf('1', filled ?? {});
	const workflow = new Workflow({
		id: 'w',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

function operations(): Array<{ resource: string; operation: INodePropertyOptions }> {
	const { properties } = action.description;
	const resources = properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		return ((selector?.options ?? []) as INodePropertyOptions[]).map((operation) => ({
			resource: String(resource.value),
			operation,
		}));
	});
}

test('the canvas subtitle of every operation is its action, as the nodes panel names it', () => {
	const all = operations();
	expect(all).toHaveLength(10);
	for (const { resource, operation } of all) {
		expect({
			resource,
			operation: operation.value,
			subtitle: subtitle({ resource, operation: operation.value }),
		}).toEqual({
			resource,
			operation: operation.value,
			subtitle: operation.action,
		});
	}
	expect(subtitle({ resource: 'mention', operation: 'searchRecent' })).toBe(
		'Search recent mentions',
	);
	expect(subtitle({ resource: 'tag', operation: 'getAll' })).toBe('Get many tags');
	// a new node: the defaults (Mention → Search Recent)
	expect(subtitle({})).toBe('Search recent mentions');
});

test('the SentiOne entry of the nodes panel reads as the action node: the poll trigger carries its description', () => {
	expect(new SentiOneTrigger().description.description).toBe(action.description.description);
	expect(action.description.description).toMatch(/mentions/);
});

test('the Stream Trigger events read "On new mention", "On engagement update" and the alerts, the tier in the description', () => {
	const event = new SentiOneStreamTrigger().description.properties.find((p) => p.name === 'event')!;
	const options = event.options as INodePropertyOptions[];
	// n8n's panel: "On " + change-case noCase(name)
	expect(options.map((o) => `On ${o.name.toLowerCase()}`)).toEqual([
		'On new mention',
		'On engagement update',
		'On digest',
		'On volume spike',
		'On sentiment shift',
		'On viral mention',
	]);
	for (const value of ['engagementUpdate', 'viralMention'])
		expect(options.find((o) => o.value === value)!.description).toMatch(/^Enterprise tier: /);
});
