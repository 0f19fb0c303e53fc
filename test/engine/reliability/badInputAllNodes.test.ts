/**
 * Bad input, across every operation of the action node, both triggers and the credential: each
 * case stops with an error that names the field (and the value, where there is one) and sends
 * nothing — the simulator's request log stays empty. It extends test/engine/actions/badInput.test.ts
 * (51 action-node cases) with other combinations: the triggers' parameters, the credential
 * through all three nodes, huge values, impossible dates, malformed queries, wrong enums.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { admin, type Sim, requestLog } from '../../support/simulator';
import { loadWorkflow, NODE, run, withParameters } from '../../support/actions';
import {
	activateStreamTrigger,
	PollHarness,
	pollParameters,
	projectParam,
	streamParameters,
} from '../../support/triggers';
import { useSimulator } from '../../support/simClock';
import { type ResultRow, writePart } from '../../support/results';
import { BASIC, ENTERPRISE } from '../../support/keys';

let sim: Sim;

useSimulator(
	['--mentions', '20'],
	(started) => {
		sim = started;
	},
	{ reset: 'log' },
);

const NOTHING_SENT = 'Nothing was sent to SentiOne, so no request budget was used.';
const CREDENTIAL_FIX = 'Open the SentiOne credential and correct it. Nothing was sent to SentiOne.';
const huge = (n: number, c = 'x') => c.repeat(n);
const byId = (value: string) => ({ __rl: true, value, mode: 'id' });

type Through = 'action' | 'poll trigger' | 'stream trigger';

interface Case {
	name: string;
	through: Through;
	/** action node: the fixture (test/engine/actions/*.workflow.json) whose SentiOne node gets the parameters */
	fixture?: string;
	parameters: IDataObject;
	inputItems?: IDataObject[];
	credentials?: { apiKey?: string; baseUrl?: string };
	/** the field the error must name (the message starts with it) */
	field: string;
	/** what else the message must say */
	says: RegExp;
	kind: string;
}

const poll = (extra: IDataObject, options: IDataObject = {}) =>
	pollParameters(1001, { ...extra, options: { ...options } } as INodeParameters) as IDataObject;
const stream = (extra: IDataObject, options: IDataObject = {}) =>
	streamParameters(
		{ project: projectParam(1001), ...extra } as INodeParameters,
		options,
	) as IDataObject;

const cases: Case[] = [
	// --- action node: numbers ---
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'search: a limit that is a word',
		fixture: 'mention-search-recent',
		parameters: { limit: '={{ "ten" }}' },
		field: 'Limit',
		says: /"ten" is not valid. Expected a whole number of at least 1/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'search: a limit of Infinity',
		fixture: 'mention-search-historical',
		parameters: { returnAll: false, limit: '={{ Infinity }}' },
		field: 'Limit',
		says: /"Infinity" is not valid. Expected a whole number of at least 1/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'search: a limit of NaN',
		fixture: 'mention-search-recent',
		parameters: { limit: '={{ NaN }}' },
		field: 'Limit',
		says: /"NaN" is not valid. Expected a whole number of at least 1/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'export: a negative limit',
		fixture: 'mention-export',
		parameters: { limit: -1 },
		field: 'Limit',
		says: /"-1" is not valid. Expected a whole number of at least 1/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'project list: a negative limit',
		fixture: 'project-get-many',
		parameters: { returnAll: false, limit: -1 },
		field: 'Limit',
		says: /"-1" is not valid. Expected a whole number of at least 1/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'project list: a limit that is a word',
		fixture: 'project-get-many',
		parameters: { returnAll: false, limit: '={{ "many" }}' },
		field: 'Limit',
		says: /"many"/,
	},
	{
		kind: 'negative or non-numeric limit',
		through: 'action',
		name: 'tag list: a fractional limit',
		fixture: 'tag-get-many',
		parameters: { returnAll: false, limit: 0.5 },
		field: 'Limit',
		says: /"0\.5"/,
	},
	{
		kind: 'bad wait',
		through: 'action',
		name: 'search: a maximum wait above 180 minutes',
		fixture: 'mention-search-recent',
		parameters: { options: { onRateLimit: 'wait', maxWaitMinutes: 181 } },
		field: 'Options → Max Wait (Minutes)',
		says: /"181" is not valid. Expected a number from 1 to 180/,
	},
	{
		kind: 'bad wait',
		through: 'action',
		name: 'search: a negative maximum wait',
		fixture: 'mention-search-historical',
		parameters: { options: { onRateLimit: 'wait', maxWaitMinutes: -5 } },
		field: 'Options → Max Wait (Minutes)',
		says: /"-5"/,
	},
	{
		kind: 'bad wait',
		through: 'action',
		name: 'search: a maximum wait of "forever"',
		fixture: 'mention-search-recent',
		parameters: { options: { onRateLimit: 'wait', maxWaitMinutes: '={{ "forever" }}' } },
		field: 'Options → Max Wait (Minutes)',
		says: /"forever"/,
	},
	// --- action node: dates ---
	{
		kind: 'bad date',
		through: 'action',
		name: 'historical: an impossible date (30 February)',
		fixture: 'mention-search-historical',
		parameters: { filters: { publishedAfter: '2026-02-30T00:00:00' } },
		field: 'Filters → Published After',
		says: /"2026-02-30T00:00:00" is not a date/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'historical: month 13',
		fixture: 'mention-search-historical',
		parameters: { filters: { publishedBefore: '2026-13-01T00:00:00' } },
		field: 'Filters → Published Before',
		says: /"2026-13-01T00:00:00" is not a date/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'recent: Collected Before "yesterday"',
		fixture: 'mention-search-recent',
		parameters: { filters: { collectedBefore: '={{ "yesterday" }}' } },
		field: 'Filters → Collected Before',
		says: /"yesterday" is not a date/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'export: Collected After in the future',
		fixture: 'mention-export',
		parameters: { filters: { collectedAfter: '2026-12-24T00:00:00' } },
		field: 'Filters → Collected After',
		says: /is in the future/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'recent: Published in the Last 0 hours',
		fixture: 'mention-search-recent',
		parameters: { filters: { publishedInLast: { period: { amount: 0, unit: 'hours' } } } },
		field: 'Filters → Published in the Last',
		says: /"0" is not valid. Expected a number of at least 1/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'historical: Published in the Last -3 days',
		fixture: 'mention-search-historical',
		parameters: { filters: { publishedInLast: { period: { amount: -3, unit: 'days' } } } },
		field: 'Filters → Published in the Last',
		says: /"-3"/,
	},
	{
		kind: 'bad date',
		through: 'action',
		name: 'export: Published in the Last "a week"',
		fixture: 'mention-export',
		parameters: {
			filters: { publishedInLast: { period: { amount: '={{ "a week" }}', unit: 'days' } } },
		},
		field: 'Filters → Published in the Last',
		says: /"a week"/,
	},
	// --- action node: enums (expressions can put anything into an options field) ---
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'export: a sort order in lower case',
		fixture: 'mention-export',
		parameters: { sortType: '={{ "publishedatdescending" }}' },
		field: 'Sort By',
		says: /"publishedatdescending" is not a sort order/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'export: stream format "JSON"',
		fixture: 'mention-export',
		parameters: { options: { streamFormat: '={{ "JSON" }}' } },
		field: 'Options → Stream Format',
		says: /"JSON"/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'export: anonymization "Author" (enums are case-sensitive)',
		fixture: 'mention-export',
		parameters: { options: { anonymization: '={{ "Author" }}' } },
		field: 'Options → Anonymization',
		says: /"Author"/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'search: mention type "post"',
		fixture: 'mention-search-recent',
		parameters: { filters: { mentionTypes: '={{ ["post"] }}' } },
		field: 'Filters → Mention Types',
		says: /"post" is not a mention type/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'search: source type "TWITTER"',
		fixture: 'mention-search-historical',
		parameters: { filters: { sourceTypes: '={{ ["TWITTER"] }}' } },
		field: 'Filters → Source Types',
		says: /"TWITTER" is not a source type/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'search: sentiments as one string with a bad value',
		fixture: 'mention-search-recent',
		parameters: { filters: { sentiments: '={{ "Positive,angry" }}' } },
		field: 'Filters → Sentiments',
		says: /"angry" is not a sentiment/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'search: a one-letter country code',
		fixture: 'mention-search-recent',
		parameters: { filters: { countries: 'PL, D' } },
		field: 'Filters → Countries',
		says: /"D" is not a two-letter country code/,
	},
	{
		kind: 'wrong enum',
		through: 'action',
		name: 'search: a language code with an underscore',
		fixture: 'mention-search-historical',
		parameters: { filters: { languages: 'en_US' } },
		field: 'Filters → Languages',
		says: /"en_us" is not a language code/,
	},
	// --- action node: the query language ---
	{
		kind: 'malformed query',
		through: 'action',
		name: 'search: a * inside a term',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: 'acme*phone' } },
		field: 'Filters → Content Query',
		says: /a \* may only end a term/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'search: empty parentheses',
		fixture: 'mention-search-historical',
		parameters: { filters: { query: 'acme ()' } },
		field: 'Filters → Content Query',
		says: /parentheses at position 6 are empty/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'search: NOT alone',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: 'NOT' } },
		field: 'Filters → Content Query',
		says: /NOT/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'export: a query starting with OR',
		fixture: 'mention-export',
		parameters: { filters: { query: 'OR acme' } },
		field: 'Filters → Content Query',
		says: /OR at position 1 has nothing before it/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'export: an empty phrase',
		fixture: 'mention-export',
		parameters: { filters: { query: 'acme ""' } },
		field: 'Filters → Content Query',
		says: /the phrase at position 6 is empty/,
	},
	{
		kind: 'huge value',
		through: 'action',
		name: 'search: a content query of 100,000 characters',
		fixture: 'mention-search-recent',
		parameters: { filters: { query: huge(100_000, 'a ') } },
		field: 'Filters → Content Query',
		says: /is 199999 characters long; SentiOne accepts at most 250/,
	},
	// --- action node: projects and ids ---
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'search: project "-7"',
		fixture: 'mention-search-recent',
		parameters: { project: byId('={{ "-7" }}') },
		field: 'Project',
		says: /"-7" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'search: a project ID beyond 2^53',
		fixture: 'mention-search-historical',
		parameters: { project: byId('={{ "99999999999999999999" }}') },
		field: 'Project',
		says: /"99999999999999999999" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'export: project "1e3"',
		fixture: 'mention-export',
		parameters: { project: byId('={{ "1e3" }}') },
		field: 'Project',
		says: /"1e3" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'update: project "abc"',
		fixture: 'project-update',
		parameters: { project: byId('={{ "abc" }}') },
		field: 'Project',
		says: /"abc" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'delete: project "-1"',
		fixture: 'project-delete',
		parameters: { project: byId('={{ "-1" }}') },
		field: 'Project',
		says: /"-1" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'delete: project "1.5"',
		fixture: 'project-delete',
		parameters: { project: byId('={{ "1.5" }}') },
		field: 'Project',
		says: /"1\.5" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'tag list: an empty project from an expression',
		fixture: 'tag-get-many',
		parameters: { project: byId('={{ "" }}') },
		field: 'Project',
		says: /no project is selected/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'tag add: project 0',
		fixture: 'tag-add',
		parameters: { project: byId('={{ 0 }}') },
		inputItems: [{ mentionId: 'abc' }],
		field: 'Project',
		says: /"0" is not a project ID/,
	},
	{
		kind: 'bad or empty id',
		through: 'action',
		name: 'tag remove: a mention ID that is null',
		fixture: 'tag-remove',
		parameters: { mentionId: '={{ null }}' },
		inputItems: [{}],
		field: 'Mention ID',
		says: /no mention ID is given/,
	},
	// --- action node: project and tag fields ---
	{
		kind: 'huge value',
		through: 'action',
		name: 'create: a name of 1,000,000 characters',
		fixture: 'project-create',
		parameters: { name: huge(1_000_000) },
		field: 'Name',
		says: /the name is 1000000 characters long; SentiOne accepts at most 255/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'create: a query ending in an open parenthesis',
		fixture: 'project-create',
		parameters: { query: 'acme AND (' },
		field: 'Query',
		says: /never closed|nothing after it|ends where a term was expected/,
	},
	{
		kind: 'malformed query',
		through: 'action',
		name: 'create: a wildcard after 2 letters',
		fixture: 'project-create',
		parameters: { query: 'ab*' },
		field: 'Query',
		says: /a wildcard needs at least 4 characters/,
	},
	{
		kind: 'empty value',
		through: 'action',
		name: 'update: a name of spaces',
		fixture: 'project-update',
		parameters: { name: '={{ "   " }}' },
		field: 'Name',
		says: /the project name is empty/,
	},
	{
		kind: 'huge value',
		through: 'action',
		name: 'update: a query of 300 characters',
		fixture: 'project-update',
		parameters: { query: huge(300, 'a') },
		field: 'Query',
		says: /300 characters long/,
	},
	{
		kind: 'huge value',
		through: 'action',
		name: 'tag add: one tag name of 1,000,000 characters',
		fixture: 'tag-add',
		parameters: { tags: huge(1_000_000) },
		inputItems: [{ mentionId: 'abc' }],
		field: 'Tags',
		says: /tag name 1 is 1000000 characters long/,
	},
	{
		kind: 'empty value',
		through: 'action',
		name: 'tag add: an empty list of tags from an expression',
		fixture: 'tag-add',
		parameters: { tags: '={{ [] }}' },
		inputItems: [{ mentionId: 'abc' }],
		field: 'Tags',
		says: /no tag name is given/,
	},
	{
		kind: 'empty value',
		through: 'action',
		name: 'tag remove: a trailing comma',
		fixture: 'tag-remove',
		parameters: { tags: 'vip,' },
		inputItems: [{ mentionId: 'abc' }],
		field: 'Tags',
		says: /tag name 2 is empty/,
	},
	// --- poll trigger ---
	{
		kind: 'bad or empty id',
		through: 'poll trigger',
		name: 'no project',
		parameters: poll({ project: { __rl: true, value: '', mode: 'list' } }),
		field: 'Project',
		says: /no project is selected/,
	},
	{
		kind: 'bad or empty id',
		through: 'poll trigger',
		name: 'project "acme"',
		parameters: poll({ project: byId('acme') }),
		field: 'Project',
		says: /"acme" is not a project ID/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Backfill 0 hours',
		parameters: poll({ startFrom: 'backfill', backfillHours: 0 }),
		field: 'Backfill (Hours)',
		says: /"0" is not valid. Expected a whole number from 1 to 168/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Backfill 169 hours (beyond the 7 days of recent search)',
		parameters: poll({ startFrom: 'backfill', backfillHours: 169 }),
		field: 'Backfill (Hours)',
		says: /"169"/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Backfill 1.5 hours',
		parameters: poll({ startFrom: 'backfill', backfillHours: 1.5 }),
		field: 'Backfill (Hours)',
		says: /"1\.5"/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Max Requests per Poll 0',
		parameters: poll({}, { maxRequestsPerPoll: 0 }),
		field: 'Options → Max Requests per Poll',
		says: /"0" is not valid. Expected a whole number from 1 to 30/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Max Requests per Poll 31 (more than the hourly budget)',
		parameters: poll({}, { maxRequestsPerPoll: 31 }),
		field: 'Options → Max Requests per Poll',
		says: /"31"/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Late Mention Window -1 minutes',
		parameters: poll({}, { lateWindowMinutes: -1 }),
		field: 'Options → Late Mention Window (Minutes)',
		says: /"-1" is not valid. Expected a whole number from 0 to 1440/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Late Mention Window 1441 minutes',
		parameters: poll({}, { lateWindowMinutes: 1441 }),
		field: 'Options → Late Mention Window (Minutes)',
		says: /"1441"/,
	},
	{
		kind: 'out of range',
		through: 'poll trigger',
		name: 'Late Mention Window "ten"',
		parameters: poll({}, { lateWindowMinutes: 'ten' }),
		field: 'Options → Late Mention Window (Minutes)',
		says: /"ten"/,
	},
	{
		kind: 'malformed query',
		through: 'poll trigger',
		name: 'filter query "acme OR"',
		parameters: poll({ filters: { query: 'acme OR' } }),
		field: 'Filters → Content Query',
		says: /OR at position 6 has nothing after it/,
	},
	{
		kind: 'wrong enum',
		through: 'poll trigger',
		name: 'filter sentiment "angry"',
		parameters: poll({ filters: { sentiments: ['angry'] } }),
		field: 'Filters → Sentiments',
		says: /"angry" is not a sentiment/,
	},
	{
		kind: 'wrong enum',
		through: 'poll trigger',
		name: 'filter country "Poland"',
		parameters: poll({ filters: { countries: 'Poland' } }),
		field: 'Filters → Countries',
		says: /"POLAND" is not a two-letter country code/,
	},
	// --- stream trigger ---
	{
		kind: 'bad or empty id',
		through: 'stream trigger',
		name: 'no project',
		parameters: stream({ project: { __rl: true, value: '', mode: 'list' } }),
		field: 'Project',
		says: /no project is selected/,
	},
	{
		kind: 'bad or empty id',
		through: 'stream trigger',
		name: 'project "x1"',
		parameters: stream({ project: byId('x1') }),
		field: 'Project',
		says: /"x1" is not a project ID/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Backfill at Start 6 minutes (the API allows 5)',
		parameters: stream({}, { backfillMinutes: 6 }),
		field: 'Options → Backfill at Start (Minutes)',
		says: /"6" is not valid. Expected a whole number from 0 to 5/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Backfill at Start -1 minutes',
		parameters: stream({}, { backfillMinutes: -1 }),
		field: 'Options → Backfill at Start (Minutes)',
		says: /"-1"/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Backfill at Start 2.5 minutes',
		parameters: stream({}, { backfillMinutes: 2.5 }),
		field: 'Options → Backfill at Start (Minutes)',
		says: /"2\.5"/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Stall Timeout 0 seconds',
		parameters: stream({}, { stallTimeout: 0 }),
		field: 'Options → Stall Timeout (Seconds)',
		says: /"0" is not valid. Expected a number from 0\.1 to 600/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Stall Timeout 601 seconds',
		parameters: stream({}, { stallTimeout: 601 }),
		field: 'Options → Stall Timeout (Seconds)',
		says: /"601"/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Stall Timeout "soon"',
		parameters: stream({}, { stallTimeout: 'soon' }),
		field: 'Options → Stall Timeout (Seconds)',
		says: /"soon"/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Max Search Requests per Gap 0',
		parameters: stream({}, { maxGapRequests: 0 }),
		field: 'Options → Max Search Requests per Gap',
		says: /"0" is not valid. Expected a whole number from 1 to 30/,
	},
	{
		kind: 'out of range',
		through: 'stream trigger',
		name: 'Max Search Requests per Gap 31',
		parameters: stream({}, { maxGapRequests: 31 }),
		field: 'Options → Max Search Requests per Gap',
		says: /"31"/,
	},
	{
		kind: 'wrong enum',
		through: 'stream trigger',
		name: 'anonymization "everyone"',
		parameters: stream({}, { anonymization: 'everyone' }),
		field: 'Options → Anonymization',
		says: /"everyone"/,
	},
	{
		kind: 'wrong enum',
		through: 'stream trigger',
		name: 'stream format "csv"',
		parameters: stream({}, { streamFormat: 'csv' }),
		field: 'Options → Stream Format',
		says: /"csv"/,
	},
	{
		kind: 'wrong enum',
		through: 'stream trigger',
		name: 'filter language "english"',
		parameters: stream({ filters: { languages: 'english' } }),
		field: 'Filters → Languages',
		says: /"english" is not a language code/,
	},
	{
		kind: 'malformed query',
		through: 'stream trigger',
		name: 'filter query with an unterminated phrase',
		parameters: stream({ filters: { query: '"battery life' } }),
		field: 'Filters → Content Query',
		says: /the quote opened at position 1 is never closed/,
	},
	// --- the credential, through each node ---
	...(['action', 'poll trigger', 'stream trigger'] as Through[]).flatMap((through): Case[] => {
		const base =
			through === 'action'
				? { fixture: 'mention-search-recent', parameters: {} }
				: { parameters: through === 'poll trigger' ? poll({}) : stream({}) };
		const key = (name: string, apiKey: string, says: RegExp): Case => ({
			kind: 'credential: API key',
			through,
			name: `credential: ${name}`,
			...base,
			credentials: { apiKey },
			field: 'SentiOne credential',
			says,
		});
		const url = (name: string, baseUrl: string, says: RegExp): Case => ({
			kind: 'credential: Base URL',
			through,
			name: `credential: ${name}`,
			...base,
			credentials: { baseUrl },
			field: 'SentiOne credential',
			says,
		});
		return [
			key('an empty API key', '', /the API key is missing/),
			key('an API key of spaces', '   ', /the API key is missing/),
			key(
				'an API key in lower case',
				'sentione-apikey-basic-demo',
				/does not have the shape of a SentiOne key/,
			),
			key(
				'an API key with a space inside',
				'SENTIONE-APIKEY-basic demo',
				/does not have the shape/,
			),
			key(
				'an API key of 100,000 characters without the -APIKEY- part',
				huge(100_000, 'A'),
				/does not have the shape/,
			),
			url(
				'Base URL with ftp://',
				'ftp://sentione.com',
				/Base URL "ftp:\/\/sentione\.com" must start with https:\/\//,
			),
			url(
				'Base URL with a query string (the simulator itself)',
				'SIM?debug=1',
				/must be a plain host or API root, without a query string/,
			),
			url(
				'Base URL with user and password (the simulator itself)',
				'SIM_WITH_USER',
				/contains a user name or password; remove it/,
			),
			url(
				'Base URL with a space',
				'https://sentione .com',
				/is not a valid URL|must not contain spaces/,
			),
		];
	}),
];

const outcomes: Array<{ kind: string; through: Through; requests: number }> = [];

async function failureOf(c: Case): Promise<{ message: string; description?: string }> {
	const apiKey = c.credentials?.apiKey ?? ENTERPRISE;
	let baseUrl = c.credentials?.baseUrl ?? sim.base;
	if (baseUrl === 'SIM?debug=1') baseUrl = `${sim.base}?debug=1`;
	if (baseUrl === 'SIM_WITH_USER') baseUrl = sim.base.replace('http://', 'http://user:secret@');
	const credentials = { apiKey, baseUrl };
	if (c.through === 'action') {
		const result = await run(sim, withParameters(loadWorkflow(c.fixture!), c.parameters), {
			key: apiKey,
			baseUrl,
			inputItems: c.inputItems,
		});
		const error = result.nodeError(NODE);
		if (!error)
			throw new Error(
				`expected an error, got ${JSON.stringify(result.output(NODE)).slice(0, 200)}`,
			);
		return { message: error.message, description: error.description };
	}
	if (c.through === 'poll trigger') {
		const outcome = await new PollHarness(c.parameters as INodeParameters, credentials).poll(
			'activate',
		);
		if (!outcome.error) throw new Error('expected an error from the poll');
		return { message: outcome.error.message, description: outcome.error.description };
	}
	try {
		const trigger = await activateStreamTrigger(c.parameters as INodeParameters, credentials);
		await trigger.close();
	} catch (error) {
		const e = error as { message: string; description?: string };
		return { message: e.message, description: e.description };
	}
	throw new Error('expected the activation to fail');
}

test('the table has at least 50 cases and reaches every operation, both triggers and the credential', () => {
	expect(cases.length).toBeGreaterThanOrEqual(50);
	const fixtures = new Set(cases.map((c) => c.fixture).filter(Boolean));
	for (const fixture of [
		'mention-search-recent',
		'mention-search-historical',
		'mention-export',
		'project-get-many',
		'project-create',
		'project-update',
		'project-delete',
		'tag-get-many',
		'tag-add',
		'tag-remove',
	]) {
		expect(fixtures).toContain(fixture);
	}
	for (const through of ['action', 'poll trigger', 'stream trigger']) {
		expect(
			cases.filter((c) => c.through === through && c.credentials).length,
		).toBeGreaterThanOrEqual(5);
	}
});

test.each(cases)('$through — $name → an error naming the field, zero requests', async (c) => {
	const { message, description } = await failureOf(c);
	expect(message.startsWith(`${c.field}:`)).toBe(true);
	expect(message).toMatch(c.says);
	// a huge value is described, never echoed back
	expect(message.length).toBeLessThan(1000);
	expect(description).toBe(c.credentials ? CREDENTIAL_FIX : NOTHING_SENT);
	const log = await requestLog(sim);
	expect(log).toEqual([]);
	outcomes.push({ kind: c.kind, through: c.through, requests: log.length });
});

// Regression (found by this suite): the triggers used to take an unknown choice from an expression
// for the default and send a request; they now refuse it like the action node.
test.each([
	[
		'poll trigger',
		'Search: "Historical" (capital H)',
		poll({ source: '={{ "Historical" }}' }),
		'Search',
	],
	['poll trigger', 'Start From: "backfil"', poll({ startFrom: '={{ "backfil" }}' }), 'Start From'],
	['stream trigger', 'Event: "engagement"', stream({ event: '={{ "engagement" }}' }), 'Event'],
] as Array<[Through, string, IDataObject, string]>)(
	'%s — an unknown choice, %s → an error naming the field, zero requests',
	async (through, name, parameters, field) => {
		const { message } = await failureOf({
			kind: 'wrong enum',
			through,
			name,
			parameters,
			field,
			says: /./,
		});
		expect(message.startsWith(`${field}:`)).toBe(true);
		expect(await requestLog(sim)).toEqual([]);
	},
);

test('nothing was counted against any budget', async () => {
	const stats = await admin<{ groups: Record<string, { counted: number }> }>(sim, 'GET', '/stats');
	expect(Object.values(stats.groups).every((g) => g.counted === 0)).toBe(true);
	const rows: ResultRow[] = [];
	for (const kind of [...new Set(outcomes.map((o) => o.kind))]) {
		const list = outcomes.filter((o) => o.kind === kind);
		rows.push({
			fault: `bad input: ${kind}`,
			through: [...new Set(list.map((o) => o.through))].join(', '),
			cases: list.length,
			outcome: `an error naming the field; ${list.reduce((n, o) => n + o.requests, 0)} requests sent`,
		});
	}
	rows.push({
		fault: 'bad input: an unknown choice of Search, Start From or Event from an expression',
		through: 'poll trigger, stream trigger',
		cases: 3,
		outcome: 'an error naming the field; 0 requests sent',
	});
	writePart({
		part: 'bad-input',
		title: 'Bad input (action node, triggers, credential)',
		command: 'npx jest test/engine/reliability/badInputAllNodes.test.ts',
		rows,
	});
});

void BASIC;
