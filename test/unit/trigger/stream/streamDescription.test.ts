/**
 * The Stream Trigger's fields (trigger/stream/streamDescription.ts): the defaults the UI shows are
 * the ones the code applies, the limits match the settings' checks, what the trigger spends is said
 * first, and the project fields show only for new mentions.
 */
import { streamProperties } from '../../../../nodes/SentiOne/trigger/stream/streamDescription';
import {
	MAX_GAP_REQUESTS,
	MAX_STALL_TIMEOUT_SECONDS,
	STREAM_DEFAULTS,
} from '../../../../nodes/SentiOne/trigger/stream/streamSettings';

type Option = {
	name: string;
	default: unknown;
	typeOptions?: Record<string, number>;
	displayOptions?: unknown;
};

const option = (name: string) =>
	(streamProperties.find((p) => p.name === 'options')?.options as Option[]).find(
		(o) => o.name === name,
	);

test('the UI defaults are the defaults the code applies when a field is left out', () => {
	expect(option('maxGapRequests')?.default).toBe(STREAM_DEFAULTS.maxGapRequests);
	expect(option('stallTimeout')?.default).toBe(STREAM_DEFAULTS.stallTimeoutSeconds);
	expect(option('backfillMinutes')?.default).toBe(0);
	expect(option('fillGaps')?.default).toBe(true);
});

test('the UI limits are the limits the settings check', () => {
	expect(option('maxGapRequests')?.typeOptions).toEqual({
		minValue: 1,
		maxValue: MAX_GAP_REQUESTS,
	});
	expect(option('stallTimeout')?.typeOptions).toEqual({
		minValue: 0.1,
		maxValue: MAX_STALL_TIMEOUT_SECONDS,
		numberPrecision: 1,
	});
	expect(option('backfillMinutes')?.typeOptions).toEqual({ minValue: 0, maxValue: 5 });
});

test('what the trigger spends comes first, then the events; the project fields show for the events on the mention stream (the project also for Viral Mention)', () => {
	const [notice, event, ...rest] = streamProperties;
	expect(notice).toMatchObject({ name: 'budgetNotice', type: 'notice' });
	expect(notice.displayName).toMatch(
		/^Keeps one connection open to SentiOne while the workflow is active\./,
	);
	const mentionEvents = ['newMention', 'digest', 'volumeSpike', 'sentimentShift'];
	expect((event.options as Array<{ value: string }>).map((o) => o.value)).toEqual([
		'newMention',
		'engagementUpdate',
		'digest',
		'volumeSpike',
		'sentimentShift',
		'viralMention',
	]);
	expect(rest.find((p) => p.name === 'filters')?.displayOptions).toEqual({
		show: { event: mentionEvents },
	});
	expect(rest.find((p) => p.name === 'project')?.displayOptions).toEqual({
		show: { event: [...mentionEvents, 'viralMention'] },
	});
	expect(rest.find((p) => p.name === 'simplify')?.displayOptions).toEqual({
		show: { event: ['newMention'] },
	});
	for (const name of ['anonymization', 'notAnonymized', 'fillGaps', 'maxGapRequests'])
		expect(option(name)?.displayOptions).toEqual({ show: { '/event': mentionEvents } });
});
