/**
 * The mention filters' translation into the API's `filters` object (D-14), for search, export and
 * the triggers (the Filters collection itself is in descriptions.ts). Every value is checked here
 * first, so bad input stops with an error that names the parameter and spends no request.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import type { Scope } from './contract';

import {
	CODE_FORMATS,
	FILTER_FIELDS as F,
	FILTER_SHAPES,
	MENTION_TYPES,
	RECENT_WINDOW_MS,
	RECENT_WINDOW_SAFETY_MARGIN_MS,
	SENTIMENTS,
	SOURCE_TYPES,
} from './contract';
import { invalidParameter, readChoice, readNumber, readText } from './parameters';
import { checkQuery } from './queryLanguage';
import { DATE_FORMS, formatLocal, instantProblem, readDate, showValue, toIso } from './time';
import { DAY_MS, HOUR_MS } from './units';
import { recentWindowDays, recentWindowText, tierOf } from './wording';

/** Which endpoint the filters go to: the date rules differ (D-18). */
export type FilterScope = Scope | 'live';

/** Where a refusal of the recent window points the user. */
const forOlderMentions = () =>
	`Use Search Historical (${tierOf('historicalSearch')} tier) for older mentions.`;

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
	for (const value of list)
		readChoice(value, allowed, ctx.node, label(name), ctx.itemIndex, `a ${what}`);
	const unique = Array.from(new Set(list));
	return unique.length > 0 ? unique : undefined;
}

function codeList(
	raw: unknown,
	format: keyof typeof CODE_FORMATS,
	name: string,
	expected: string,
	ctx: FilterContext,
): IDataObject[] | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const { pattern, normalise } = CODE_FORMATS[format];
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

/** Refuses a range whose end is not later than its start, naming the end's parameter. */
function checkOrder(
	from: number | undefined,
	to: number | undefined,
	endName: string,
	ctx: FilterContext,
): void {
	if (from === undefined || to === undefined || from < to) return;
	throw invalidParameter(
		ctx.node,
		label(endName),
		`the end (${formatLocal(to, ctx.timezone)}) must be later than the start (${formatLocal(from, ctx.timezone)}).`,
		ctx.itemIndex,
	);
}

function range(from: number | undefined, to: number | undefined): IDataObject | undefined {
	if (from === undefined && to === undefined) return undefined;
	const out: IDataObject = {};
	if (from !== undefined) out[F.from] = toIso(from, 'the start of the published date range');
	if (to !== undefined) out[F.to] = toIso(to, 'the end of the published date range');
	return out;
}

/** Published in the Last → Unit */
const PERIOD_UNITS = ['hours', 'days'] as const;

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
		const period = (input.publishedInLast as IDataObject | undefined)?.period as
			| IDataObject
			| undefined;
		if (period && period.amount !== undefined && period.amount !== '') {
			if (publishedFrom !== undefined) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					'set either Published in the Last or Published After, not both.',
					ctx.itemIndex,
				);
			}
			// at least 1, as the field's own minimum: a fraction above it (1.5 days) is a period too
			const amount = readNumber(
				period.amount,
				ctx.node,
				label('Published in the Last'),
				{ min: 1, whole: false },
				ctx.itemIndex,
			);
			const unit =
				period.unit === undefined || period.unit === null || period.unit === ''
					? 'hours'
					: readChoice(
							period.unit,
							PERIOD_UNITS,
							ctx.node,
							label('Published in the Last → Unit'),
							ctx.itemIndex,
							'a unit',
						);
			const span = amount * (unit === 'days' ? DAY_MS : HOUR_MS);
			if (ctx.scope === 'recent' && span > RECENT_WINDOW_MS) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					`${amount} ${unit} reaches beyond the ${recentWindowText()} recent search covers. Use at most ${recentWindowText()}, or Search Historical (${tierOf('historicalSearch')} tier) for older mentions.`,
					ctx.itemIndex,
				);
			}
			// "the last 7 days" means the whole recent window: keep the safety margin (D-18)
			publishedFrom =
				ctx.scope === 'recent' ? Math.max(ctx.now - span, earliestRecent) : ctx.now - span;
			// the computed start is checked before anything is sent (never "an invalid instant")
			const problem = instantProblem(publishedFrom);
			if (problem !== undefined) {
				throw invalidParameter(
					ctx.node,
					label('Published in the Last'),
					`${amount} ${unit} back from now (${formatLocal(ctx.now, ctx.timezone)}) reaches a start that cannot be sent: ${problem}. Give a period that starts in 1990 or later.`,
					ctx.itemIndex,
				);
			}
		} else if (
			publishedFrom !== undefined &&
			ctx.scope === 'recent' &&
			publishedFrom < earliestRecent
		) {
			throw invalidParameter(
				ctx.node,
				label('Published After'),
				`${formatLocal(publishedFrom, ctx.timezone)} is more than ${recentWindowText()} ago; recent search only covers mentions published since ${formatLocal(earliestRecent, ctx.timezone)}. ${forOlderMentions()}`,
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
		checkOrder(publishedFrom, publishedTo, 'Published Before', ctx);
		if (ctx.scope === 'recent' && publishedTo !== undefined && publishedTo <= earliestRecent) {
			throw invalidParameter(
				ctx.node,
				label('Published Before'),
				`${formatLocal(publishedTo, ctx.timezone)} is before the ${recentWindowDays()}-day window of recent search, so nothing could match. ${forOlderMentions()}`,
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
		checkOrder(collectedFrom, collectedTo, 'Collected Before', ctx);
		if (collectedFrom !== undefined || collectedTo !== undefined) {
			filters[F.collectedAt] = FILTER_SHAPES.collectedAt(
				collectedFrom === undefined ? undefined : toIso(collectedFrom, label('Collected After')),
				collectedTo === undefined ? undefined : toIso(collectedTo, label('Collected Before')),
			);
		}
	}

	const sourceTypes = enumList(input.sourceTypes, SOURCE_TYPES, 'Source Types', 'source type', ctx);
	if (sourceTypes) filters[F.source] = { [F.sourceType]: sourceTypes };

	const mentionTypes = enumList(
		input.mentionTypes,
		MENTION_TYPES,
		'Mention Types',
		'mention type',
		ctx,
	);
	if (mentionTypes) filters[F.mentionType] = mentionTypes;

	const content: IDataObject = {};
	const sentiments = enumList(input.sentiments, SENTIMENTS, 'Sentiments', 'sentiment', ctx);
	if (sentiments) content[F.sentiment] = sentiments;
	const query = readText(input.query, ctx.node, label('Content Query'), ctx.itemIndex);
	if (query !== '') {
		const problem = checkQuery(query);
		if (problem)
			throw invalidParameter(ctx.node, label('Content Query'), `${problem}.`, ctx.itemIndex);
		content[F.query] = query;
	}
	const languages = codeList(
		input.languages,
		'language',
		'Languages',
		'a language code (ISO 639-1 such as en, or with a region such as en-gb)',
		ctx,
	);
	if (languages) content[F.language] = languages;
	if (Object.keys(content).length > 0) filters[F.content] = content;

	const countries = codeList(
		input.countries,
		'country',
		'Countries',
		'a two-letter country code (ISO 3166-1 alpha-2 such as PL)',
		ctx,
	);
	if (countries) filters[F.location] = { [F.country]: countries };

	return filters;
}
