/**
 * The SentiOne Trigger's fields (trigger/poll/pollDescription.ts): the defaults the UI shows are the
 * ones the code applies, the limits match the settings' checks, and the first field says what the
 * trigger spends.
 */
import { pollProperties } from '../../../../nodes/SentiOne/trigger/poll/pollDescription';
import {
	MAX_BACKFILL_HOURS,
	MAX_LATE_WINDOW_MINUTES,
	MAX_REQUESTS_PER_HOUR,
	MAX_REQUESTS_PER_POLL,
	POLL_DEFAULTS,
} from '../../../../nodes/SentiOne/trigger/poll/pollSettings';

type Option = {
	name: string;
	default: unknown;
	typeOptions?: { minValue?: number; maxValue?: number };
};

const option = (name: string) =>
	(pollProperties.find((p) => p.name === 'options')?.options as Option[]).find(
		(o) => o.name === name,
	);

test('the UI defaults are the defaults the code applies when a field is left out', () => {
	expect(pollProperties.find((p) => p.name === 'backfillHours')?.default).toBe(
		POLL_DEFAULTS.backfillHours,
	);
	expect(option('lateWindowMinutes')?.default).toBe(POLL_DEFAULTS.lateWindowMinutes);
	expect(option('maxRequestsPerPoll')?.default).toBe(POLL_DEFAULTS.maxRequestsPerPoll);
	expect(option('requestsPerHour')?.default).toBe(POLL_DEFAULTS.requestsPerHour);
});

test('the UI limits are the limits the settings check', () => {
	expect(pollProperties.find((p) => p.name === 'backfillHours')?.typeOptions).toEqual({
		minValue: 1,
		maxValue: MAX_BACKFILL_HOURS,
	});
	expect(option('lateWindowMinutes')?.typeOptions).toEqual({
		minValue: 0,
		maxValue: MAX_LATE_WINDOW_MINUTES,
	});
	expect(option('maxRequestsPerPoll')?.typeOptions).toEqual({
		minValue: 1,
		maxValue: MAX_REQUESTS_PER_POLL,
	});
	expect(option('requestsPerHour')?.typeOptions).toEqual({
		minValue: 0,
		maxValue: MAX_REQUESTS_PER_HOUR,
	});
	expect([MAX_BACKFILL_HOURS, MAX_LATE_WINDOW_MINUTES, MAX_REQUESTS_PER_POLL]).toEqual([
		168, 1440, 30,
	]);
});

test('the first fields: what the trigger spends, then its events', () => {
	const [notice, event] = pollProperties;
	expect(notice).toMatchObject({ name: 'budgetNotice', type: 'notice' });
	expect(notice.displayName).toMatch(
		/^This trigger spends at most 12 of the 30 search requests an hour .* at most one check every 5 minutes/,
	);
	expect(event).toMatchObject({ name: 'event', type: 'options', default: 'newMention' });
	expect(event.options).toEqual([
		expect.objectContaining({ name: 'New Mention', value: 'newMention' }),
		expect.objectContaining({ name: 'Digest', value: 'digest' }),
		expect.objectContaining({ name: 'Volume Spike', value: 'volumeSpike' }),
		expect.objectContaining({ name: 'Sentiment Shift', value: 'sentimentShift' }),
	]);
	expect(pollProperties.map((p) => p.name)).toEqual([
		'budgetNotice',
		'event',
		'project',
		'source',
		'startFrom',
		'backfillHours',
		'digestWindow',
		'digestEvery',
		'digestAt',
		'digestWeekday',
		'spikeBucketMinutes',
		'spikeBaseline',
		'spikeRatio',
		'shiftSentiment',
		'shiftWindowMinutes',
		'shiftPoints',
		'shiftDirection',
		'filters',
		'simplify',
		'options',
	]);
});

test('Search names the tier each source needs', () => {
	const source = pollProperties.find((p) => p.name === 'source');
	expect(
		(source?.options as Array<{ name: string; value: string }>).map((o) => [o.value, o.name]),
	).toEqual([
		['recent', 'Recent Search (Basic Tier)'],
		['historical', 'Historical Search (Enterprise Tier)'],
	]);
});
