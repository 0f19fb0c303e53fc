/**
 * The items the alert events pass on: plain fields a workflow can route on, and a `summary` that
 * reads like a person wrote it (times in the workflow's time zone, the author and the source named,
 * no raw ids), ready for a Slack message. A count that may be short is never shown as the volume:
 * `complete: false` and "at least N" (docs/alerts.md, "Honest counts").
 */
import type { IDataObject } from 'n8n-workflow';

import { wallClockOf } from '../../shared/zones';
import type { Baseline } from './baseline';
import type { Ranked, Tally } from './tally';
import { sortedCounts } from './tally';
import type { Metric, ViralHit } from './viral';
import { METRIC_WORDS } from './viral';

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTH_NAMES = [
	'Jan',
	'Feb',
	'Mar',
	'Apr',
	'May',
	'Jun',
	'Jul',
	'Aug',
	'Sep',
	'Oct',
	'Nov',
	'Dec',
];

const two = (n: number) => String(n).padStart(2, '0');

/** 1,234 */
export function formatCount(n: number): string {
	return Math.round(n).toLocaleString('en-US');
}

/** "14:05" in the zone. */
export function clockTime(ms: number, zone: string): string {
	const w = wallClockOf(ms, zone);
	return `${two(w.hour)}:${two(w.minute)}`;
}

/** "Tue 25 Nov 2026" in the zone. */
export function dayLabel(ms: number, zone: string): string {
	const w = wallClockOf(ms, zone);
	return `${DAY_NAMES[w.weekday - 1]} ${w.day} ${MONTH_NAMES[w.month - 1]} ${w.year}`;
}

/** "Tue 25 Nov 2026 09:00" in the zone. */
export function localMoment(ms: number, zone: string): string {
	return `${dayLabel(ms, zone)} ${clockTime(ms, zone)}`;
}

/** "Tue 25 Nov 09:00 – Wed 26 Nov 09:00 (Europe/Warsaw)", shorter when both are on one day. */
export function spanLabel(start: number, end: number, zone: string): string {
	const sameDay = dayLabel(start, zone) === dayLabel(end - 1, zone);
	const text = sameDay
		? `${dayLabel(start, zone)} ${clockTime(start, zone)}–${clockTime(end, zone)}`
		: `${localMoment(start, zone)} – ${localMoment(end, zone)}`;
	return `${text} (${zone})`;
}

const percent = (part: number, whole: number) =>
	whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`;

/** "1,234 mentions" or "at least 1,234 mentions" */
function volume(count: number, complete: boolean): string {
	return `${complete ? '' : 'at least '}${formatCount(count)} mention${count === 1 && complete ? '' : 's'}`;
}

/** "Jane Doe on X" / "an author on Facebook" */
function byWhom(row: IDataObject): string {
	const author =
		typeof row.authorName === 'string' && row.authorName.trim() !== ''
			? row.authorName.trim()
			: 'an author';
	const source =
		typeof row.sourceType === 'string' && row.sourceType !== ''
			? row.sourceType
			: 'an unknown source';
	return `${author} on ${source}`;
}

function quote(row: IDataObject, chars = 120): string {
	const text = [row.title, row.text].find((t) => typeof t === 'string' && t.trim() !== '') as
		| string
		| undefined;
	if (!text) return '';
	const flat = text.replace(/\s+/g, ' ').trim();
	return ` “${flat.length > chars ? `${flat.slice(0, chars - 1)}…` : flat}”`;
}

/** A mention in a list of an item: its row, and a line a person reads. */
function listed(entry: Ranked): IDataObject {
	const followers =
		typeof entry.row.authorFollowers === 'number' ? entry.row.authorFollowers : undefined;
	return {
		...entry.row,
		line: `${byWhom(entry.row)}${followers ? ` (${formatCount(followers)} followers)` : ''}:${quote(entry.row)}${typeof entry.row.url === 'string' ? ` ${entry.row.url}` : ''}`,
	};
}

export interface Coverage {
	/** every matching mention of the span was counted */
	complete: boolean;
	/** why not, in words, when it was not */
	why?: string;
}

/** The item of a closed digest window. */
export function digestItem(
	tally: Tally,
	coverage: Coverage,
	context: { zone: string; windowName: string; lateFromEarlier: number },
): IDataObject {
	const { zone } = context;
	const negatives = tally.bySentiment.Negative ?? 0;
	const sources = Object.entries(sortedCounts(tally.bySourceType))
		.slice(0, 3)
		.map(([name, n]) => `${name} ${formatCount(n)}`)
		.join(', ');
	const span = spanLabel(tally.start, tally.end, zone);
	let summary: string;
	if (tally.total === 0 && coverage.complete) {
		summary = `${context.windowName} for ${span}: nothing to report — no matching mentions.`;
	} else if (tally.total === 0) {
		summary = `${context.windowName} for ${span}: no matching mentions seen (${coverage.why ?? 'not every mention was read'}).`;
	} else {
		summary = `${context.windowName} for ${span}: ${volume(tally.total, coverage.complete)}, ${formatCount(negatives)} negative (${percent(negatives, tally.total)}).`;
		if (sources) summary += ` Most from ${sources}.`;
		const first = tally.top[0];
		if (first) summary += ` Most reached: ${listed(first).line as string}`;
		if (!coverage.complete && coverage.why) summary += ` (${coverage.why})`;
	}
	if (context.lateFromEarlier > 0)
		summary += ` Plus ${formatCount(context.lateFromEarlier)} mention${context.lateFromEarlier === 1 ? '' : 's'} of earlier windows read late.`;
	return {
		kind: 'digest',
		summary,
		windowStart: new Date(tally.start).toISOString(),
		windowEnd: new Date(tally.end).toISOString(),
		window: span,
		timezone: zone,
		total: tally.total,
		complete: coverage.complete,
		totalText: coverage.complete
			? formatCount(tally.total)
			: `at least ${formatCount(tally.total)}`,
		...(coverage.complete
			? {}
			: { incompleteBecause: coverage.why ?? 'not every mention was read' }),
		empty: tally.total === 0,
		bySentiment: sortedCounts(tally.bySentiment),
		bySourceType: sortedCounts(tally.bySourceType),
		byMentionType: sortedCounts(tally.byMentionType),
		byLanguage: sortedCounts(tally.byLanguage),
		topMentions: tally.top.map(listed),
		negativeMentions: tally.negative.map(listed),
		ranking:
			'by reach: the author’s followers, then likes + shares + comments, then the influence score',
		lateFromEarlierWindows: context.lateFromEarlier,
	};
}

/** The item of a spike that started. */
export function spikeItem(input: {
	count: number;
	complete: boolean;
	windowStart: number;
	windowEnd: number;
	baseline: Baseline;
	threshold: number;
	sample: Ranked[];
	zone: string;
}): IDataObject {
	const { count, complete, baseline, zone } = input;
	const ratio = baseline.expected > 0 ? count / baseline.expected : undefined;
	const minutes = Math.round((input.windowEnd - input.windowStart) / 60_000);
	const summary = `Volume spike: ${volume(count, complete)} in the ${minutes} minutes to ${clockTime(input.windowEnd, zone)} (${zone}), ${ratio !== undefined ? `${ratio.toFixed(1)}× ` : ''}the usual ${formatCount(baseline.expected)} for ${baseline.basis}.${input.sample[0] ? ` For example ${listed(input.sample[0]).line as string}` : ''}`;
	return {
		kind: 'volumeSpike',
		summary,
		count,
		complete,
		countText: complete ? formatCount(count) : `at least ${formatCount(count)}`,
		windowStart: new Date(input.windowStart).toISOString(),
		windowEnd: new Date(input.windowEnd).toISOString(),
		baseline: Math.round(baseline.expected * 10) / 10,
		baselineSpread: Math.round(baseline.spread * 10) / 10,
		baselineBasis: baseline.basis,
		ratio: ratio === undefined ? null : Math.round(ratio * 10) / 10,
		threshold: Math.ceil(input.threshold),
		sample: input.sample.map(listed),
	};
}

/** The item of a spike or shift that is over. */
export function endedItem(input: {
	kind: 'volumeSpike' | 'sentimentShift';
	startedAt: number;
	endedAt: number;
	peak: string;
	zone: string;
}): IDataObject {
	const what = input.kind === 'volumeSpike' ? 'The volume spike' : 'The sentiment shift';
	return {
		kind: `${input.kind}Ended`,
		summary: `${what} that started at ${localMoment(input.startedAt, input.zone)} is over (${clockTime(input.endedAt, input.zone)}, ${input.zone}); at its peak: ${input.peak}.`,
		startedAt: new Date(input.startedAt).toISOString(),
		endedAt: new Date(input.endedAt).toISOString(),
		peak: input.peak,
	};
}

/** The item of a sentiment shift. */
export function shiftItem(input: {
	sentiment: string;
	share: number;
	usualShare: number;
	basis: string;
	count: number;
	matching: number;
	windowStart: number;
	windowEnd: number;
	sample: Ranked[];
	zone: string;
}): IDataObject {
	const points = Math.round((input.share - input.usualShare) * 100);
	const minutes = Math.round((input.windowEnd - input.windowStart) / 60_000);
	const span =
		minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;
	const summary = `${input.sentiment} share ${points >= 0 ? 'up' : 'down'}: ${percent(input.matching, input.count)} of ${formatCount(input.count)} mentions in the ${span} to ${clockTime(input.windowEnd, input.zone)} (${input.zone}) were ${input.sentiment.toLowerCase()}, usually ${Math.round(input.usualShare * 100)}% (${points >= 0 ? '+' : ''}${points} points, over ${input.basis}).${input.sample[0] ? ` For example ${listed(input.sample[0]).line as string}` : ''}`;
	return {
		kind: 'sentimentShift',
		summary,
		sentiment: input.sentiment,
		share: Math.round(input.share * 1000) / 10,
		usualShare: Math.round(input.usualShare * 1000) / 10,
		shiftPoints: points,
		mentions: input.count,
		matchingMentions: input.matching,
		windowStart: new Date(input.windowStart).toISOString(),
		windowEnd: new Date(input.windowEnd).toISOString(),
		baselineBasis: input.basis,
		sample: input.sample.map(listed),
	};
}

const metricText = (metric: Metric, n: number) =>
	`${formatCount(n)} ${METRIC_WORDS[metric][n === 1 ? 0 : 1]}`;

/** "1,200 likes, 30 shares" (the counts the reading carries, in the order of METRICS). */
export function figuresText(figures: Partial<Record<Metric, number>>): string {
	return (Object.keys(METRIC_WORDS) as Metric[])
		.filter((m) => figures[m] !== undefined)
		.map((m) => metricText(m, figures[m]!))
		.join(', ');
}

/** What the look-up of a viral mention found: its flat row, or why there is none. */
export interface ViralLookup {
	/** the mention's Simplify row, when the look-up found it in the project */
	mention?: IDataObject;
	/** how it was found, or why its link is missing, in words */
	note: string;
}

const textOf = (row: IDataObject | undefined, field: string) =>
	typeof row?.[field] === 'string' && row[field] !== '' ? row[field] : null;

/** "A post by Anna Nowak on Facebook", "An article by an author on Websites", "A mention". */
function viralWhat(row: IDataObject | undefined): string {
	if (!row) return 'A mention';
	const type = textOf(row, 'mentionType');
	const what = type ? type.toLowerCase() : 'mention';
	return `${/^[aeiou]/.test(what) ? 'An' : 'A'} ${what} by ${byWhom(row)}`;
}

/** The item of a viral mention: the rule it fired, its figures, and its link when the look-up found it. */
export function viralItem(
	hit: ViralHit,
	lookup: ViralLookup,
	context: { zone: string; projectId: number },
): IDataObject {
	const row = lookup.mention;
	const rule =
		hit.rule === 'crossed'
			? `passed ${metricText(hit.metric, hit.level)}`
			: `gained ${metricText(hit.metric, hit.value - (hit.from ?? 0))} in ${hit.minutes} minute${hit.minutes === 1 ? '' : 's'}`;
	const url = textOf(row, 'url');
	const tail = row
		? `${quote(row)}${url ? ` ${url as string}` : ''}`
		: ` Its link could not be found: ${lookup.note}`;
	const summary = `Going viral: ${viralWhat(row)} ${rule} (${figuresText(hit.figures)}) at ${clockTime(hit.at, context.zone)} (${context.zone}).${tail}`;
	return {
		kind: 'viralMention',
		summary,
		mentionId: hit.mentionId,
		projectId: context.projectId,
		rule: hit.rule,
		metric: hit.metric,
		level: hit.level,
		value: hit.value,
		...(hit.rule === 'gained' ? { from: hit.from, minutes: hit.minutes } : {}),
		figures: hit.figures,
		updatedAt: new Date(hit.at).toISOString(),
		found: row !== undefined,
		url,
		authorName: textOf(row, 'authorName'),
		sourceType: textOf(row, 'sourceType'),
		mentionType: textOf(row, 'mentionType'),
		text: textOf(row, 'text'),
		publishedAt: textOf(row, 'publishedAt'),
		lookup: lookup.note,
		mention: row ?? null,
	};
}
