/**
 * UI pieces shared by the action node and the triggers (each node still owns its own fields): the
 * project picker, the Filters collection (turned into the API's filters by filters.ts), sort and
 * simplify.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_SORT,
	MENTION_TYPES,
	QUERY_MAX_LENGTH,
	SENTIMENTS,
	SOURCE_TYPES,
} from './contract';
import { recentWindowText } from './wording';

export const projectLocator: INodeProperties = {
	displayName: 'Project',
	name: 'project',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The SentiOne project (a saved monitoring subject) whose mentions to use',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a project...',
			typeOptions: { searchListMethod: 'searchProjects', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1001',
			// no `validation` regex: n8n runs those with a 250 ms limit and, on a busy machine, fails
			// the execution before any node runs; the ID is checked when the node runs (parseProjectId)
			hint: 'A whole number, e.g. 1001 (the number in brackets in the list)',
		},
	],
};

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

const enumOptions = (values: readonly string[], label: (v: string) => string = (v) => v) =>
	values.map((value) => ({ name: label(value), value })).sort(byName);

const splitWords = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1 $2');

const SOURCE_TYPE_OPTIONS = enumOptions(SOURCE_TYPES);
const MENTION_TYPE_OPTIONS = enumOptions(MENTION_TYPES, splitWords);
const SENTIMENT_OPTIONS = enumOptions(SENTIMENTS);

/** The filter fields that describe what a mention is, without dates (triggers use these). */
const contentFilterFields: INodeProperties[] = [
	{
		displayName: 'Content Query',
		name: 'query',
		type: 'string',
		default: '',
		placeholder: '"customer service" AND (refund OR complaint*) NOT spam',
		hint: `Words, "exact phrases", AND, OR, NOT (upper case), parentheses, a trailing * after 4 or more letters; neighbouring words mean AND; at most ${QUERY_MAX_LENGTH} characters`,
		description:
			'The Listen query language, matched against the text, the title and (for contextual projects) the context of each mention',
	},
	{
		displayName: 'Countries',
		name: 'countries',
		type: 'string',
		default: '',
		placeholder: 'PL, US, GB',
		hint: 'Two-letter country codes (ISO 3166-1 alpha-2), separated by commas',
		description: 'Only mentions from these countries',
	},
	{
		displayName: 'Languages',
		name: 'languages',
		type: 'string',
		default: '',
		placeholder: 'en, pl, de-at',
		hint: 'Language codes (ISO 639-1, optionally with a region: en-gb), separated by commas; en does not include en-gb',
		description: 'Only mentions in these languages',
	},
	{
		displayName: 'Mention Types',
		name: 'mentionTypes',
		type: 'multiOptions',
		options: MENTION_TYPE_OPTIONS,
		default: [],
		description: 'Only these kinds of mention',
	},
	{
		displayName: 'Sentiments',
		name: 'sentiments',
		type: 'multiOptions',
		options: SENTIMENT_OPTIONS,
		default: [],
		description: 'Only mentions with these sentiments, e.g. Negative for alerts',
	},
	{
		displayName: 'Source Types',
		name: 'sourceTypes',
		type: 'multiOptions',
		options: SOURCE_TYPE_OPTIONS,
		default: [],
		description: 'Only mentions from these kinds of source',
	},
];

const dateFilterFields: INodeProperties[] = [
	{
		displayName: 'Collected After',
		name: 'collectedAfter',
		type: 'dateTime',
		default: '',
		description:
			'Only mentions SentiOne collected at or after this time (inclusive) — to fetch only what is new since a previous extraction',
	},
	{
		displayName: 'Collected Before',
		name: 'collectedBefore',
		type: 'dateTime',
		default: '',
		description: 'Only mentions collected before this time (exclusive)',
	},
	{
		displayName: 'Published After',
		name: 'publishedAfter',
		type: 'dateTime',
		default: '',
		description: `Only mentions published at or after this time (inclusive). Recent search reaches back ${recentWindowText()} at most.`,
	},
	{
		displayName: 'Published Before',
		name: 'publishedBefore',
		type: 'dateTime',
		default: '',
		description: 'Only mentions published before this time (exclusive)',
	},
	{
		displayName: 'Published in the Last',
		name: 'publishedInLast',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Period',
		description: 'A period ending now, instead of Published After',
		options: [
			{
				displayName: 'Period',
				name: 'period',
				values: [
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 24,
					},
					{
						displayName: 'Unit',
						name: 'unit',
						type: 'options',
						options: [
							{ name: 'Days', value: 'days' },
							{ name: 'Hours', value: 'hours' },
						],
						default: 'hours',
					},
				],
			},
		],
	},
];

/** The Filters collection. `dates: false` for the triggers, which follow new mentions. */
export function filtersCollection(options: {
	dates: boolean;
	description?: string;
}): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: options.description,
		options: [...(options.dates ? dateFilterFields : []), ...contentFilterFields].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

const SORT_OPTIONS = [
	{ name: 'Collected At (Newest First)', value: 'CollectedAtDescending' },
	{ name: 'Collected At (Oldest First)', value: 'CollectedAtAscending' },
	{ name: 'Engagement Rate (Highest First)', value: 'EngagementRateDescending' },
	{ name: 'Follower Count (Highest First)', value: 'FollowerCountDescending' },
	{ name: 'Influence Score (Highest First)', value: 'InfluenceScoreDescending' },
	{ name: 'Like Count (Highest First)', value: 'LikeCountDescending' },
	{ name: 'Published At (Newest First)', value: 'PublishedAtDescending' },
	{ name: 'Published At (Oldest First)', value: 'PublishedAtAscending' },
	{ name: 'Share Count (Highest First)', value: 'ShareCountDescending' },
];

/** The Options collection of a node or an operation: the settings most runs leave as they are. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

export const sortProperty: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortType',
	type: 'options',
	options: SORT_OPTIONS,
	default: DEFAULT_SORT,
	description: 'The order of the mentions',
};

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat row per mention with a fixed set of columns (ID, URL, dates, source, sentiment, author, text, counts, tags) instead of the full mention',
};
