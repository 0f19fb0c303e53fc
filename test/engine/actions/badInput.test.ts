/**
 * Bad input never spends budget: each case stops with an error that names the parameter, and
 * the simulator's request log shows that not a single request reached the API.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Sim, requestLog } from '../../support/simulator';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import { useSimulator } from '../../support/simClock';
import { ENTERPRISE } from '../../support/keys';

let sim: Sim;

useSimulator(
	['--mentions', '20'],
	(started) => {
		sim = started;
	},
	{ reset: 'log' },
);

const long = (n: number) => 'x'.repeat(n);
const projectById = (value: string) => ({ __rl: true, value, mode: 'id' });

interface Case {
	name: string;
	fixture: string;
	parameters: IDataObject;
	inputItems?: IDataObject[];
	/** the start of the error message: the parameter, then what is wrong */
	error: string;
	/**
	 * n8n's engine itself refuses to start a workflow whose node has a required field left empty
	 * or a field failing its own validation (the node then never runs): the issue it names.
	 */
	engineRefuses?: string;
}

const cases: Case[] = [
	// dates (NOW is 2026-11-21T10:30Z, the simulator's clock)
	{
		name: 'recent search: Published After older than 7 days',
		fixture: 'mention-search-recent',
		parameters: { filters: { publishedAfter: '2026-11-10T00:00:00' } },
		error: 'Filters → Published After: 2026-11-10 00:00 UTC is more than 7 days ago',
	},
	{
		name: 'recent search: Published in the Last 8 days',
		fixture: 'mention-search-recent',
		parameters: { filters: { publishedInLast: { period: { amount: 8, unit: 'days' } } } },
		error: 'Filters → Published in the Last: 8 days reaches beyond the 7 days recent search covers',
	},
	{
		name: 'recent search: Published Before earlier than the 7-day window',
		fixture: 'mention-search-recent',
		parameters: { filters: { publishedBefore: '2026-11-01T00:00:00' } },
		error:
			'Filters → Published Before: 2026-11-01 00:00 UTC is before the 7-day window of recent search',
	},
	{
		name: 'recent export: Published After older than 7 days',
		fixture: 'mention-export',
		parameters: { exportScope: 'recent', filters: { publishedAfter: '2026-01-01T00:00:00' } },
		error: 'Filters → Published After: 2026-01-01 00:00 UTC is more than 7 days ago',
	},
	{
		name: 'historical search: Published After in the future',
		fixture: 'mention-search-historical',
		parameters: { filters: { publishedAfter: '2026-11-22T00:00:00' } },
		error: 'Filters → Published After: 2026-11-22 00:00 UTC is in the future',
	},
	{
		name: 'historical export: Published After in the future',
		fixture: 'mention-export',
		parameters: { filters: { publishedAfter: '2027-01-01T00:00:00' } },
		error: 'Filters → Published After: 2027-01-01 00:00 UTC is in the future',
	},
	{
		name: 'Published After not before Published Before',
		fixture: 'mention-search-historical',
		parameters: {
			filters: { publishedAfter: '2026-10-02T00:00:00', publishedBefore: '2026-10-01T00:00:00' },
		},
		error:
			'Filters → Published Before: the end (2026-10-01 00:00 UTC) must be later than the start (2026-10-02 00:00 UTC).',
	},
	{
		name: 'Published After equal to Published Before',
		fixture: 'mention-search-recent',
		parameters: {
			filters: { publishedAfter: '2026-11-20T00:00:00', publishedBefore: '2026-11-20T00:00:00' },
		},
		error: 'Filters → Published Before: the end (2026-11-20 00:00 UTC) must be later',
	},
	{
		name: 'Collected After not before Collected Before',
		fixture: 'mention-search-historical',
		parameters: {
			filters: { collectedAfter: '2026-11-02T00:00:00', collectedBefore: '2026-11-01T00:00:00' },
		},
		error: 'Filters → Collected Before: the end (2026-11-01 00:00 UTC) must be later',
	},
	{
		name: 'Collected After in the future',
		fixture: 'mention-search-recent',
		parameters: { filters: { collectedAfter: '2026-11-21T12:00:00' } },
		error: 'Filters → Collected After: 2026-11-21 12:00 UTC is in the future',
	},
	{
		name: 'Published in the Last together with Published After',
		fixture: 'mention-search-recent',
		parameters: {
			filters: {
				publishedAfter: '2026-11-20T00:00:00',
				publishedInLast: { period: { amount: 2, unit: 'hours' } },
			},
		},
		error:
			'Filters → Published in the Last: set either Published in the Last or Published After, not both.',
	},
	{
		name: 'a date that is not a date',
		fixture: 'mention-search-historical',
		parameters: { filters: { publishedAfter: '={{ "last tuesday" }}' } },
		error: 'Filters → Published After: "last tuesday" is not a date',
	},
	// enums (an expression can put any value into a multi-select)
	{
		name: 'unknown source type',
		fixture: 'mention-search-recent',
		parameters: { filters: { sourceTypes: '={{ ["X", "Twitter"] }}' } },
		error:
			'Filters → Source Types: "Twitter" is not a source type. Expected one of: Facebook, Websites',
	},
	{
		name: 'unknown mention type',
		fixture: 'mention-search-historical',
		parameters: { filters: { mentionTypes: '={{ ["Tweet"] }}' } },
		error: 'Filters → Mention Types: "Tweet" is not a mention type',
	},
	{
		name: 'unknown sentiment (enums are case-sensitive)',
		fixture: 'mention-export',
		parameters: { filters: { sentiments: '={{ ["negative"] }}' } },
		error:
			'Filters → Sentiments: "negative" is not a sentiment. Expected one of: Positive, Negative, Neutral, Unspecified.',
	},
	{
		name: 'unknown sort order',
		fixture: 'mention-search-recent',
		parameters: { sortType: '={{ "Popularity" }}' },
		error: 'Sort By: "Popularity" is not a sort order',
	},
	{
		name: 'unknown anonymization level',
		fixture: 'mention-export',
		parameters: { options: { anonymization: '={{ "everything" }}' } },
		error: 'Options → Anonymization: "everything" is not a level',
	},
	{
		name: 'unknown stream format',
		fixture: 'mention-export',
		parameters: { options: { streamFormat: '={{ "csv" }}' } },
		error: 'Options → Stream Format: "csv" is not a stream format',
	},
	{
		name: 'unknown export scope',
		fixture: 'mention-export',
		parameters: { exportScope: '={{ "yesterday" }}' },
		error: 'Mentions From: "yesterday" is not a choice',
	},
	{
		name: 'an export scope that names an object property',
		fixture: 'mention-export',
		parameters: { exportScope: '={{ "toString" }}' },
		error: 'Mentions From: "toString" is not a choice',
	},
	{
		name: 'unknown rate-limit choice',
		fixture: 'mention-search-recent',
		parameters: { options: { onRateLimit: '={{ "retry" }}' } },
		error: 'Options → On Rate Limit: "retry" is not a choice',
	},
	{
		name: 'a maximum wait of 0 minutes',
		fixture: 'mention-search-recent',
		parameters: { options: { onRateLimit: 'wait', maxWaitMinutes: 0 } },
		error: 'Options → Max Wait (Minutes): "0" is not valid. Expected a number from 1 to 180.',
	},
	{
		name: 'a language code that is not one',
		fixture: 'mention-search-recent',
		parameters: { filters: { languages: 'en, english' } },
		error: 'Filters → Languages: "english" is not a language code',
	},
	{
		name: 'a country code that is not one',
		fixture: 'mention-search-recent',
		parameters: { filters: { countries: 'PL, POL' } },
		error: 'Filters → Countries: "POL" is not a two-letter country code',
	},
	// the query language
	{
		name: 'unbalanced parentheses in the content query',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: '(acme OR mobile' } },
		error: 'Filters → Content Query: the "(" at position 1 is never closed.',
	},
	{
		name: 'a closing parenthesis that closes nothing',
		fixture: 'mention-search-historical',
		parameters: { filters: { query: 'acme) OR mobile' } },
		error: 'Filters → Content Query: ")" at position 5 closes nothing.',
	},
	{
		name: 'an unterminated phrase',
		fixture: 'mention-export',
		parameters: { filters: { query: '"battery life' } },
		error: 'Filters → Content Query: the quote opened at position 1 is never closed.',
	},
	{
		name: 'an operator without an operand',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: 'acme AND' } },
		error: 'Filters → Content Query: AND at position 6 has nothing after it',
	},
	{
		name: 'a wildcard after fewer than 4 characters',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: 'ac*' } },
		error:
			'Filters → Content Query: "ac*" at position 1: a wildcard needs at least 4 characters before the *.',
	},
	{
		name: 'a content query longer than 250 characters',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: long(251) } },
		error:
			'Filters → Content Query: the query is 251 characters long; SentiOne accepts at most 250.',
	},
	// projects and limits
	{
		name: 'no project selected',
		fixture: 'mention-search-recent',
		parameters: { project: { __rl: true, value: '', mode: 'list' } },
		error: 'Project: no project is selected. Choose one from the list or enter its ID.',
		engineRefuses: 'Parameter "Project" is required.',
	},
	{
		name: 'an empty project from an expression',
		fixture: 'mention-search-per-item',
		parameters: {},
		inputItems: [
			{
				projectId: '',
				limit: 5,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
		],
		error: 'Project: no project is selected.',
	},
	{
		name: 'a project ID that is not a number',
		fixture: 'mention-export',
		parameters: { project: projectById('acme') },
		// no editor-side regex (n8n runs those with a 250 ms limit that fails busy executions): the node refuses it
		error: 'Project: "acme" is not a project ID. Expected a positive whole number such as 1001.',
	},
	{
		name: 'project ID 0',
		fixture: 'project-delete',
		parameters: { project: projectById('0') },
		error: 'Project: "0" is not a project ID.',
	},
	{
		name: 'limit 0',
		fixture: 'mention-search-recent',
		parameters: { limit: 0 },
		error: 'Limit: "0" is not valid. Expected a whole number of at least 1.',
	},
	{
		name: 'a negative limit from an expression',
		fixture: 'mention-search-per-item',
		parameters: {},
		inputItems: [
			{
				projectId: 1001,
				limit: -5,
				sortType: 'PublishedAtDescending',
				sentiments: [],
				sourceTypes: [],
			},
		],
		error: 'Limit: "-5" is not valid.',
	},
	{
		name: 'a fractional limit',
		fixture: 'mention-search-historical',
		parameters: { returnAll: false, limit: 2.5 },
		error: 'Limit: "2.5" is not valid.',
	},
	{
		name: 'export limit 0',
		fixture: 'mention-export',
		parameters: { limit: 0 },
		error: 'Limit: "0" is not valid.',
	},
	{
		name: 'project list limit 0',
		fixture: 'project-get-many',
		parameters: { returnAll: false, limit: 0 },
		error: 'Limit: "0" is not valid.',
	},
	{
		name: 'tag list limit 0',
		fixture: 'tag-get-many',
		parameters: { returnAll: false, limit: 0 },
		error: 'Limit: "0" is not valid.',
	},
	// project fields (D-11, D-15, D-16)
	{
		name: 'create: empty name',
		fixture: 'project-create',
		parameters: { name: '   ' },
		error: 'Name: the project name is empty.',
	},
	{
		name: 'create: name longer than 255 characters',
		fixture: 'project-create',
		parameters: { name: long(256) },
		error: 'Name: the name is 256 characters long; SentiOne accepts at most 255.',
	},
	{
		name: 'create: empty query',
		fixture: 'project-create',
		parameters: { query: '' },
		error: 'Query: the query is empty.',
		engineRefuses: 'Parameter "Query" is required.',
	},
	{
		name: 'create: query longer than 250 characters',
		fixture: 'project-create',
		parameters: { query: long(251) },
		error: 'Query: the query is 251 characters long; SentiOne accepts at most 250.',
	},
	{
		name: 'update: unbalanced query',
		fixture: 'project-update',
		parameters: { query: 'acme NOT (jobs OR careers' },
		error: 'Query: the "(" at position 10 is never closed.',
	},
	{
		name: 'update: no project',
		fixture: 'project-update',
		parameters: { project: projectById('') },
		error: 'Project: no project is selected.',
		engineRefuses: 'Parameter "Project" is required.',
	},
	// tags (D-22)
	{
		name: 'tags: no tag name',
		fixture: 'tag-add',
		parameters: { tags: ' , ' },
		inputItems: [{ mentionId: 'abc' }],
		error: 'Tags: no tag name is given.',
	},
	{
		name: 'tags: an empty name between two commas',
		fixture: 'tag-remove',
		parameters: { tags: 'complaint,,vip' },
		inputItems: [{ mentionId: 'abc' }],
		error: 'Tags: tag name 2 is empty (two commas in a row, or a comma at the start or end?).',
	},
	{
		name: 'tags: a name longer than 100 characters',
		fixture: 'tag-add',
		parameters: { tags: `ok, ${long(101)}` },
		inputItems: [{ mentionId: 'abc' }],
		error: 'Tags: tag name 2 is 101 characters long; SentiOne accepts at most 100.',
	},
	{
		name: 'tags: more than 50 names',
		fixture: 'tag-add',
		parameters: { tags: Array.from({ length: 51 }, (_, k) => `tag${k}`).join(',') },
		inputItems: [{ mentionId: 'abc' }],
		error: 'Tags: 51 tag names are given; SentiOne accepts at most 50 per request.',
	},
	{
		name: 'tags: an empty mention ID',
		fixture: 'tag-add',
		parameters: {},
		inputItems: [{ mentionId: '  ' }],
		error: 'Mention ID: no mention ID is given.',
	},
];

test.each(cases)(
	'$name → error naming the parameter, zero requests',
	async ({ fixture, parameters, inputItems, error, engineRefuses }) => {
		const workflow = withParameters(loadWorkflow(fixture), parameters);
		if (engineRefuses) {
			// n8n refuses the run before the node executes (the editor shows the same issue)
			await expect(run(sim, workflow, { key: ENTERPRISE, inputItems })).rejects.toThrow(
				engineRefuses,
			);
		} else {
			const result = await run(sim, workflow, { key: ENTERPRISE, inputItems });
			const nodeError = result.nodeError(NODE);
			expect(nodeError).toBeDefined();
			expect(nodeError!.message.startsWith(error)).toBe(true);
			expect(nodeError!.description).toBe(
				'Nothing was sent to SentiOne, so no request budget was used.',
			);
		}
		expect(await requestLog(sim)).toEqual([]);
	},
);

test.each([
	[
		'no project selected',
		{ project: { __rl: true, value: '', mode: 'list' } },
		'Project: no project is selected.',
	],
	[
		'a project ID that is not a number',
		{ project: projectById('acme') },
		'Project: "acme" is not a project ID.',
	],
	[
		'create: empty query',
		{ resource: 'project', operation: 'create', name: 'n', query: '={{ "" }}' },
		'Query: the query is empty.',
	],
])(
	'%s, when it comes from an expression the engine cannot check, is stopped by the node',
	async (_name, parameters, error) => {
		const fixture = (parameters as IDataObject).resource
			? 'project-create'
			: 'mention-search-recent';
		const expressionParameters = { ...parameters } as IDataObject;
		if (expressionParameters.project) {
			const value = (expressionParameters.project as IDataObject).value as string;
			expressionParameters.project = {
				__rl: true,
				value: `={{ ${JSON.stringify(value)} }}`,
				mode: 'id',
			};
		}
		const result = await run(sim, withParameters(loadWorkflow(fixture), expressionParameters), {
			key: ENTERPRISE,
		});
		expect(result.nodeError(NODE)?.message.startsWith(error)).toBe(true);
		expect(await requestLog(sim)).toEqual([]);
	},
);

test('the budget is untouched after all of them (the simulator counted nothing)', async () => {
	const stats = await fetch(`${sim.base}/__admin/stats`).then(
		(r) => r.json() as Promise<{ [group: string]: unknown }>,
	);
	expect(JSON.stringify(stats)).not.toMatch(/"counted":[1-9]/);
});
