/**
 * The alert fields read and checked before anything is sent: every number in its range, a time
 * of day that exists every day in the workflow's time zone, a known window, sentiment, baseline
 * and metric. A refusal names the field (shared/parameters.ts wording).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	invalidParameter,
	readBoolean,
	readChoice,
	readNumber,
	readText,
} from '../../shared/parameters';
import { hourlyLimit } from '../../shared/wording';
import { isValidZone } from '../../shared/zones';
import type { BaselineMode } from './baseline';
import type { Metric, ViralSettings } from './viral';
import { METRICS } from './viral';
import type { WindowSpec } from './windows';
import { dstProblem } from './windows';

export type AlertEvent = 'digest' | 'volumeSpike' | 'sentimentShift' | 'viralMention';

export const ALERT_DEFAULTS = {
	digestEvery: 1,
	digestAt: '09:00',
	topMentions: 5,
	negativeMentions: 5,
	spikeBucketMinutes: 15,
	spikeRatio: 2,
	spikeDeviations: 4,
	spikeMinMentions: 20,
	shiftWindowMinutes: 60,
	shiftPoints: 15,
	shiftMinMentions: 20,
	sampleSize: 5,
	viral: { likeCount: 1000, shareCount: 200, commentCount: 0, viewCount: 0 } as Record<
		Metric,
		number
	>,
	viralGrowthGain: 100,
	viralGrowthMinutes: 60,
	/** of the key's 30 searches an hour (docs/alerts.md, "Viral Mention": the look-up) */
	lookupSearchesPerHour: 6,
} as const;

export const ALERT_BOUNDS = {
	digestMinutes: { min: 1, max: 1440 },
	digestHours: { min: 1, max: 24 },
	listSize: { min: 0, max: 20 },
	spikeBucketMinutes: { min: 5, max: 240 },
	spikeRatio: { min: 1.1, max: 100, whole: false },
	spikeDeviations: { min: 0, max: 20, whole: false },
	minMentions: { min: 1, max: 1_000_000 },
	shiftWindowMinutes: { min: 15, max: 1440 },
	shiftPoints: { min: 1, max: 100 },
	/**
	 * a threshold or a gain: 0 (off) up to 10 billion; above it is a typing slip (the most viewed
	 * video has about 16 billion views after a decade; no likes, shares or comments come near)
	 */
	viralLevel: { min: 0, max: 10_000_000_000 },
	viralGrowthMinutes: { min: 1, max: 1440 },
	/** at least one, at most the key's whole search budget */
	lookupSearchesPerHour: { min: 1, max: hourlyLimit('historicalSearch') },
} as const;

export interface DigestSettings {
	event: 'digest';
	window: WindowSpec;
	sendEmpty: boolean;
	top: number;
	negative: number;
}

export interface SpikeSettings {
	event: 'volumeSpike';
	bucketMs: number;
	baseline: BaselineMode;
	ratio: number;
	deviations: number;
	minMentions: number;
	notifyEnd: boolean;
	sampleSize: number;
}

export interface ShiftSettings {
	event: 'sentimentShift';
	sentiment: string;
	windowMs: number;
	points: number;
	direction: 'up' | 'down' | 'either';
	minMentions: number;
	notifyEnd: boolean;
	sampleSize: number;
}

export interface ViralAlertSettings extends ViralSettings {
	event: 'viralMention';
	/** search requests an hour the look-ups (and id-only rounds) may spend */
	lookupSearchesPerHour: number;
}

export type AlertSettings = DigestSettings | SpikeSettings | ShiftSettings | ViralAlertSettings;

/** Reads a node parameter (what both trigger contexts offer). */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

const TIME_OF_DAY = /^(\d{1,2}):(\d{2})$/;

/** "HH:MM" in 24-hour form → hour and minute; the refusal names the field. */
function readTimeOfDay(
	value: unknown,
	node: INode,
	field: string,
): { hour: number; minute: number } {
	const text = readText(value, node, field);
	const m = TIME_OF_DAY.exec(text);
	if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) {
		throw invalidParameter(
			node,
			field,
			`"${text}" is not a time of day. Expected HH:MM in 24-hour form, such as 09:00 or 17:30.`,
		);
	}
	return { hour: Number(m[1]), minute: Number(m[2]) };
}

function readWindow(get: ParameterReader, node: INode, zone: string, now: number): WindowSpec {
	const kind = readChoice(
		get('digestWindow', 'daily'),
		['minutes', 'hours', 'daily', 'weekly'] as const,
		node,
		'Window',
	);
	if (kind === 'minutes' || kind === 'hours') {
		const every = readNumber(
			get('digestEvery', ALERT_DEFAULTS.digestEvery),
			node,
			'Every',
			kind === 'minutes' ? ALERT_BOUNDS.digestMinutes : ALERT_BOUNDS.digestHours,
		);
		return { kind: 'minutes', every: kind === 'hours' ? every * 60 : every };
	}
	const { hour, minute } = readTimeOfDay(
		get('digestAt', ALERT_DEFAULTS.digestAt),
		node,
		'At (HH:MM)',
	);
	const spec: WindowSpec =
		kind === 'daily'
			? { kind: 'daily', hour, minute }
			: {
					kind: 'weekly',
					hour,
					minute,
					weekday: readNumber(get('digestWeekday', 1), node, 'On', { min: 1, max: 7 }),
				};
	const problem = dstProblem(spec, zone, now);
	if (problem) {
		throw invalidParameter(
			node,
			'At (HH:MM)',
			`${problem}. Choose a time that exists every day (outside the hour the clocks skip), or change the workflow's time zone (Settings → Timezone).`,
		);
	}
	return spec;
}

/**
 * Every alert field of `event`, checked. `zone` is the workflow's time zone (an unknown zone is
 * refused: windows and times of day are read in it).
 */
export function readAlertSettings(
	event: AlertEvent,
	get: ParameterReader,
	node: INode,
	zone: string,
	now: number,
): AlertSettings {
	if (!isValidZone(zone)) {
		throw invalidParameter(
			node,
			'Workflow settings → Timezone',
			`"${zone}" is not a time zone this n8n knows. Expected an IANA name such as Europe/Warsaw.`,
		);
	}
	const options = (get('options', {}) ?? {}) as IDataObject;
	const option = (name: string, fallback: unknown) => options[name] ?? fallback;
	const optionNumber = (
		name: string,
		label: string,
		fallback: number,
		range: { min: number; max?: number; whole?: boolean },
	) => readNumber(option(name, fallback), node, `Options → ${label}`, range);
	const notifyEnd = () =>
		readBoolean(option('notifyEnd', false), node, 'Options → Notify When Back to Normal', false);
	const sampleSize = () =>
		optionNumber('sampleSize', 'Sample Size', ALERT_DEFAULTS.sampleSize, ALERT_BOUNDS.listSize);
	switch (event) {
		case 'digest':
			return {
				event,
				window: readWindow(get, node, zone, now),
				sendEmpty: readBoolean(
					option('sendEmpty', false),
					node,
					'Options → Send Empty Digests',
					false,
				),
				top: optionNumber(
					'topMentions',
					'Top Mentions',
					ALERT_DEFAULTS.topMentions,
					ALERT_BOUNDS.listSize,
				),
				negative: optionNumber(
					'negativeMentions',
					'Negative Mentions',
					ALERT_DEFAULTS.negativeMentions,
					ALERT_BOUNDS.listSize,
				),
			};
		case 'volumeSpike':
			return {
				event,
				bucketMs:
					readNumber(
						get('spikeBucketMinutes', ALERT_DEFAULTS.spikeBucketMinutes),
						node,
						'Bucket (Minutes)',
						ALERT_BOUNDS.spikeBucketMinutes,
					) * 60_000,
				baseline: readChoice(
					get('spikeBaseline', 'sameTime'),
					['sameTime', 'trailing24h'] as const,
					node,
					'Baseline',
				),
				ratio: readNumber(
					get('spikeRatio', ALERT_DEFAULTS.spikeRatio),
					node,
					'Spike Ratio',
					ALERT_BOUNDS.spikeRatio,
				),
				deviations: optionNumber(
					'spikeDeviations',
					'Standard Deviations',
					ALERT_DEFAULTS.spikeDeviations,
					ALERT_BOUNDS.spikeDeviations,
				),
				minMentions: optionNumber(
					'spikeMinMentions',
					'Minimum Mentions',
					ALERT_DEFAULTS.spikeMinMentions,
					ALERT_BOUNDS.minMentions,
				),
				notifyEnd: notifyEnd(),
				sampleSize: sampleSize(),
			};
		case 'sentimentShift':
			return {
				event,
				sentiment: readChoice(
					get('shiftSentiment', 'Negative'),
					['Negative', 'Positive', 'Neutral'] as const,
					node,
					'Sentiment',
				),
				windowMs:
					readNumber(
						get('shiftWindowMinutes', ALERT_DEFAULTS.shiftWindowMinutes),
						node,
						'Window (Minutes)',
						ALERT_BOUNDS.shiftWindowMinutes,
					) * 60_000,
				points: readNumber(
					get('shiftPoints', ALERT_DEFAULTS.shiftPoints),
					node,
					'Shift (Percentage Points)',
					ALERT_BOUNDS.shiftPoints,
				),
				direction: readChoice(
					get('shiftDirection', 'up'),
					['up', 'down', 'either'] as const,
					node,
					'Direction',
				),
				minMentions: optionNumber(
					'shiftMinMentions',
					'Minimum Mentions',
					ALERT_DEFAULTS.shiftMinMentions,
					ALERT_BOUNDS.minMentions,
				),
				notifyEnd: notifyEnd(),
				sampleSize: sampleSize(),
			};
		case 'viralMention': {
			const thresholds: Partial<Record<Metric, number>> = {};
			const names: Record<Metric, string> = {
				likeCount: 'Likes At Least',
				shareCount: 'Shares At Least',
				commentCount: 'Comments At Least',
				viewCount: 'Views At Least',
			};
			for (const metric of METRICS) {
				const level = readNumber(
					get(`viral_${metric}`, ALERT_DEFAULTS.viral[metric]),
					node,
					names[metric],
					ALERT_BOUNDS.viralLevel,
				);
				if (level > 0) thresholds[metric] = level;
			}
			const gain = readNumber(
				get('viralGrowthGain', ALERT_DEFAULTS.viralGrowthGain),
				node,
				'Fast Growth: Gain',
				ALERT_BOUNDS.viralLevel,
			);
			const settings: ViralAlertSettings = {
				event,
				thresholds,
				lookupSearchesPerHour: optionNumber(
					'lookupSearchesPerHour',
					'Look-Up Searches per Hour',
					ALERT_DEFAULTS.lookupSearchesPerHour,
					ALERT_BOUNDS.lookupSearchesPerHour,
				),
			};
			if (gain > 0) {
				settings.growth = {
					metric: readChoice(
						get('viralGrowthMetric', 'shareCount'),
						METRICS,
						node,
						'Fast Growth Of',
					),
					gain,
					minutes: readNumber(
						get('viralGrowthMinutes', ALERT_DEFAULTS.viralGrowthMinutes),
						node,
						'Fast Growth: Within (Minutes)',
						ALERT_BOUNDS.viralGrowthMinutes,
					),
				};
			}
			if (Object.keys(thresholds).length === 0 && !settings.growth) {
				throw invalidParameter(
					node,
					'Likes At Least',
					'every threshold is 0 and Fast Growth: Gain is 0, so nothing could ever fire. Set at least one of them above 0.',
				);
			}
			return settings;
		}
	}
}

/** A short fingerprint of what makes saved alert state meaningful: another setting starts afresh. */
export function settingsKey(settings: AlertSettings, zone: string, scope: string): string {
	return JSON.stringify({ s: settings, zone, scope });
}
