/**
 * The mention filters as the user sets them (one UI collection shared by search, export and the
 * triggers) and their translation into the API's `filters` object (D-14). Every value is checked
 * here first, so bad input stops with an error that names the parameter and spends no request.
 */
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import {
	FILTER_FIELDS as F,
	FILTER_SHAPES,
	MENTION_TYPES,
	QUERY_MAX_LENGTH,
	RECENT_WINDOW_MS,
	RECENT_WINDOW_SAFETY_MARGIN_MS,
	SENTIMENTS,
	SORT_TYPES,
	SOURCE_TYPES,
} from './contract';
import { invalidParameter, readChoice } from './errors';
import { readText } from './parameters';
import { checkQuery } from './queryLanguage';
import { DATE_FORMS, formatLocal, readDate, showValue, toIso } from './time';

/** Which endpoint the filters go to: the date rules differ (D-18). */
export type FilterScope = 'recent' | 'historical' | 'live';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

const LANGUAGE_CODE = /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

const enumOptions = (values: readonly string[], label: (v: string) => string = (v) => v) =>
	values.map((value) => ({ name: label(value), value })).sort(byName);

const splitWords = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1 $2');

export const SOURCE_TYPE_OPTIONS = enumOptions(SOURCE_TYPES);
export const MENTION_TYPE_OPTIONS = enumOptions(MENTION_TYPES, splitWords);
export const SENTIMENT_OPTIONS = enumOptions(SENTIMENTS);

/** The filter fields that describe what a mention is, without dates (triggers use these). */
const contentFilterFields: INodeProperties[] = [
	{
		displayName: 'Content Query',
		name: 'query',
		type: 'string',
		default: '',
		placeholder: '"customer service" AND (refund OR complaint*) NOT spam',
		hint: `Words, "exact phrases", AND, OR, NOT (upper case), parentheses, a trailing * after 4 or more letters; neighbouring words mean AND; at most ${QUERY_MAX_LENGTH} characters`,
		description: 'The Listen query language, matched against the text, the title and (for contextual projects) the context of each mention',
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
		description:
			'Only mentions published at or after this time (inclusive). Recent search reaches back 7 days at most.',
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
export function filtersCollection(options: { dates: boolean; description?: string }): INodeProperties {
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

export const SORT_OPTIONS = [
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

export interface FilterContext {
	node: INode;
	itemIndex?: number;
	/** the workflow's time zone, for dateTime values without a zone */
	timezone: string;
	/** the clock the date rules are checked against (epoch ms) */
	now: number;
	scope: FilterScope;
}

const label = (name: string) => `Filters → ${name}`;

function enumList(
	raw: unknown,
	allowed: readonly string[],
	name: string,
	what: string,
	ctx: FilterContext,
): string[] | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const values = Array.isArray(raw) ? raw : String(raw).split(',');
	const list = values.map((v) => String(v).trim()).filter((v) => v !== '');
	for (const value of list) {
		if (!allowed.includes(value)) {
			throw invalidParameter(
				ctx.node,
				label(name),
				`"${value}" is not a ${what}. Expected one of: ${allowed.join(', ')}.`,
				ctx.itemIndex,
			);
		}
	}
	const unique = Array.from(new Set(list));
	return unique.length > 0 ? unique : undefined;
}

function codeList(
	raw: unknown,
	pattern: RegExp,
	normalise: (v: string) => string,
	name: string,
	expected: string,
	ctx: FilterContext,
): IDataObject[] | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const values = Array.isArray(raw) ? raw.map(String) : String(raw).split(/[,;\s]+/);
	const codes = values.map((v) => normalise(v.trim())).filter((v) => v !== '');
	for (const code of codes) {
		if (!pattern.test(code)) {
			throw invalidParameter(ctx.node, label(name), `"${code}" is not ${expected}.`, ctx.itemIndex);
		}
	}
	const unique = Array.from(new Set(codes));
	return unique.length > 0 ? unique.map(FILTER_SHAPES.code) : undefined;
}

function dateValue(raw: unknown, name: string, ctx: FilterContext): number | undefined {
	const reading = readDate(raw, ctx.timezone);
	if ('problem' in reading) {
		throw invalidParameter(
			ctx.node,
			label(name),
			`"${showValue(raw)}" is not a date: ${reading.problem}. Expected ${DATE_FORMS}.`,
			ctx.itemIndex,
		);
	}
	return 'ms' in reading ? reading.ms : undefined;
}

function range(from: number | undefined, to: number | undefined): IDataObject | undefined {
	if (from === undefined && to === undefined) return undefined;
	const out: IDataObject = {};
	if (from !== undefined) out[F.from] = toIso(from);
	if (to !== undefined) out[F.to] = toIso(to);
	return out;
}

/**
 * Turns the Filters collection into the API's `filters` object, applying every local rule
 * (enums, codes, query syntax, the 7-day window, future dates, from before to).
 */
export function buildFilters(raw: IDataObject | undefined, ctx: FilterContext): IDataObject {
	const input = raw ?? {};
	const filters: IDataObject = {};
	const earliestRecent = ctx.now - RECENT_WINDOW_MS + RECENT_WINDOW_SAFETY_MARGIN_MS;

	if (ctx.scope !== 'live') {
		let publishedFrom = dateValue(input.publishedAfter, 'Published After', ctx);
		const publishedTo = dateValue(input.publishedBefore, 'Published Before', ctx);
		const period = (input.publishedInLast as IDataObject | undefined)?.period as IDataObject | undefined;
		if (period && period.amount !== undefined && period.amount !== '') {
			if (publishedFrom !== undefined) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					'set either Published in the Last or Published After, not both.',
					ctx.itemIndex,
				);
			}
			const amount = Number(period.amount);
			const unit = period.unit === 'days' ? 'days' : 'hours';
			if (!Number.isFinite(amount) || amount <= 0) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					`the amount must be a positive number, got "${String(period.amount)}".`,
					ctx.itemIndex,
				);
			}
			const span = amount * (unit === 'days' ? DAY : HOUR);
			if (ctx.scope === 'recent' && span > RECENT_WINDOW_MS) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					`${amount} ${unit} reaches beyond the 7 days recent search covers. Use at most 7 days, or Search Historical (Enterprise tier) for older mentions.`,
					ctx.itemIndex,
				);
			}
			// "the last 7 days" means the whole recent window: keep the safety margin (D-18)
			publishedFrom = ctx.scope === 'recent' ? Math.max(ctx.now - span, earliestRecent) : ctx.now - span;
		} else if (publishedFrom !== undefined && ctx.scope === 'recent' && publishedFrom < earliestRecent) {
			throw invalidParameter(
				ctx.node,
				label('Published After'),
				`${formatLocal(publishedFrom, ctx.timezone)} is more than 7 days ago; recent search only covers mentions published since ${formatLocal(earliestRecent, ctx.timezone)}. Use Search Historical (Enterprise tier) for older mentions.`,
				ctx.itemIndex,
			);
		}
		if (publishedFrom !== undefined && ctx.scope === 'historical' && publishedFrom > ctx.now) {
			throw invalidParameter(
				ctx.node,
				label('Published After'),
				`${formatLocal(publishedFrom, ctx.timezone)} is in the future; historical search needs a start in the past.`,
				ctx.itemIndex,
			);
		}
		if (publishedFrom !== undefined && publishedTo !== undefined && publishedFrom >= publishedTo) {
			throw invalidParameter(
				ctx.node,
				label('Published Before'),
				`the end (${formatLocal(publishedTo, ctx.timezone)}) must be later than the start (${formatLocal(publishedFrom, ctx.timezone)}).`,
				ctx.itemIndex,
			);
		}
		if (ctx.scope === 'recent' && publishedTo !== undefined && publishedTo <= earliestRecent) {
			throw invalidParameter(
				ctx.node,
				label('Published Before'),
				`${formatLocal(publishedTo, ctx.timezone)} is before the 7-day window of recent search, so nothing could match. Use Search Historical (Enterprise tier) for older mentions.`,
				ctx.itemIndex,
			);
		}
		const published = range(publishedFrom, publishedTo);
		if (published) filters[F.publishedAt] = published;

		const collectedFrom = dateValue(input.collectedAfter, 'Collected After', ctx);
		const collectedTo = dateValue(input.collectedBefore, 'Collected Before', ctx);
		if (collectedFrom !== undefined && collectedFrom > ctx.now) {
			throw invalidParameter(
				ctx.node,
				label('Collected After'),
				`${formatLocal(collectedFrom, ctx.timezone)} is in the future; nothing can have been collected then.`,
				ctx.itemIndex,
			);
		}
		if (collectedFrom !== undefined && collectedTo !== undefined && collectedFrom >= collectedTo) {
			throw invalidParameter(
				ctx.node,
				label('Collected Before'),
				`the end (${formatLocal(collectedTo, ctx.timezone)}) must be later than the start (${formatLocal(collectedFrom, ctx.timezone)}).`,
				ctx.itemIndex,
			);
		}
		if (collectedFrom !== undefined || collectedTo !== undefined) {
			filters[F.collectedAt] = FILTER_SHAPES.collectedAt(
				collectedFrom === undefined ? undefined : toIso(collectedFrom),
				collectedTo === undefined ? undefined : toIso(collectedTo),
			);
		}
	}

	const sourceTypes = enumList(input.sourceTypes, SOURCE_TYPES, 'Source Types', 'source type', ctx);
	if (sourceTypes) filters[F.source] = { [F.sourceType]: sourceTypes };

	const mentionTypes = enumList(input.mentionTypes, MENTION_TYPES, 'Mention Types', 'mention type', ctx);
	if (mentionTypes) filters[F.mentionType] = mentionTypes;

	const content: IDataObject = {};
	const sentiments = enumList(input.sentiments, SENTIMENTS, 'Sentiments', 'sentiment', ctx);
	if (sentiments) content[F.sentiment] = sentiments;
	const query = readText(input.query, ctx.node, label('Content Query'), ctx.itemIndex);
	if (query !== '') {
		const problem = checkQuery(query);
		if (problem) throw invalidParameter(ctx.node, label('Content Query'), `${problem}.`, ctx.itemIndex);
		content[F.query] = query;
	}
	const languages = codeList(
		input.languages,
		LANGUAGE_CODE,
		(v) => v.toLowerCase(),
		'Languages',
		'a language code (ISO 639-1 such as en, or with a region such as en-gb)',
		ctx,
	);
	if (languages) content[F.language] = languages;
	if (Object.keys(content).length > 0) filters[F.content] = content;

	const countries = codeList(
		input.countries,
		COUNTRY_CODE,
		(v) => v.toUpperCase(),
		'Countries',
		'a two-letter country code (ISO 3166-1 alpha-2 such as PL)',
		ctx,
	);
	if (countries) filters[F.location] = { [F.country]: countries };

	return filters;
}

export function checkSortType(value: unknown, ctx: Pick<FilterContext, 'node' | 'itemIndex'>): string {
	return readChoice(value, SORT_TYPES, ctx.node, 'Sort By', ctx.itemIndex, 'a sort order');
}

/** A project ID from a resource locator or an expression: a positive whole number. */
export function parseProjectId(value: unknown, node: INode, itemIndex?: number, parameter = 'Project'): number {
	const raw =
		value && typeof value === 'object' && 'value' in (value as IDataObject) ? (value as IDataObject).value : value;
	const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (text === '') {
		throw invalidParameter(node, parameter, 'no project is selected. Choose one from the list or enter its ID.', itemIndex);
	}
	if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
		throw invalidParameter(
			node,
			parameter,
			`"${text}" is not a project ID. Expected a positive whole number such as 1001.`,
			itemIndex,
		);
	}
	return Number(text);
}

/** A Limit value: a whole number of at least 1. */
export function parseLimit(value: unknown, node: INode, itemIndex?: number, parameter = 'Limit'): number {
	const limit = typeof value === 'number' ? value : Number(String(value ?? '').trim());
	if (!Number.isFinite(limit) || !Number.isInteger(limit) || limit < 1) {
		throw invalidParameter(
			node,
			parameter,
			`"${String(value)}" is not a valid limit. Expected a whole number of at least 1.`,
			itemIndex,
		);
	}
	return limit;
}
