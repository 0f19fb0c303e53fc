import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkAnonymized, inClearMessage } from '../../shared/anonymization';
import { attempt } from '../../shared/attempt';
import { BOUNDS } from '../../shared/bounds';
import type { Scope } from '../../shared/contract';
import {
	HEARTBEAT_INTERVAL_MS,
	QUERY_PARAMS,
	route,
	scopedEndpoint,
	SEARCH_REQUEST_FIELDS,
} from '../../shared/contract';
import {
	filtersCollection,
	optionsCollection,
	projectLocator,
	simplifyProperty,
	sortProperty,
} from '../../shared/descriptions';
import {
	asNodeError,
	declareFailure,
	errorDetails,
	failureOf,
	FAILURES,
	refusedDates,
} from '../../shared/errors';
import { invalidParameter, readChoice, readNumberOption } from '../../shared/parameters';
import { mentionRow } from '../../shared/simplify';
import {
	anonymizationOption,
	notAnonymizedOption,
	readAnonymization,
	readNotAnonymized,
	readStreamFormat,
	streamFormatOption,
} from '../../shared/streamOptions';
import type { OpenStream, SentiOneTransport } from '../../shared/transport';
import { MINUTE_MS } from '../../shared/units';
import { FilterVerifier, widenCollectedAt, withFilterFallback } from '../../shared/verify';
import {
	costText,
	concurrentLimit,
	recentWindowDays,
	recentWindowText,
	tierOf,
} from '../../shared/wording';
import { limitProperty, operationNotice, returnAllProperty } from '../common.descriptions';
import {
	publishedOnServerClock,
	readPaging,
	readProjectId,
	readSearchBody,
	readSimplify,
} from '../readParameters';
import type { ExecutionHints } from '../executionHints';

/** What one export run may hold and take (Options): a stream that never ends cannot exhaust n8n. */
export const EXPORT_CAPS = {
	maxMentions: { default: 100_000, max: 10_000_000 },
	maxSizeMb: { default: 256, max: 4096 },
	timeoutMinutes: { default: 30, max: 1440 },
	/** the stall limit: an export with no complete event (a mention or a heartbeat) for this long has stalled */
	idleMs: BOUNDS.exportStallMs,
} as const;

/** Mentions From: each scope with the tier its endpoint needs. */
const SCOPE_OPTIONS: INodePropertyOptions[] = [
	{
		name: `All Time (Historical, ${tierOf('historicalExport')} Tier)`,
		value: 'historical',
		description: `Mentions of any date; needs the ${tierOf('historicalExport')} tier`,
	},
	{
		name: `Last ${recentWindowDays()} Days (Recent, ${tierOf('recentExport')} Tier)`,
		value: 'recent',
		description: `Mentions published in the last ${recentWindowText()}; ${tierOf('recentExport')} tier is enough`,
	},
];

const properties: INodeProperties[] = [
	operationNotice(
		'exportNotice',
		`One export costs ${costText('recentExport')} (at most ${concurrentLimit('recentExport')} open at a time) this API key has, whatever its size: use it for bulk extraction instead of many search pages. Mentions From All Time needs the ${tierOf('historicalExport')} tier.`,
	),
	projectLocator,
	{
		displayName: 'Mentions From',
		name: 'exportScope',
		type: 'options',
		default: 'recent',
		description: 'Which mentions the export covers',
		options: SCOPE_OPTIONS,
	},
	returnAllProperty,
	{
		...limitProperty,
		description: 'Max number of results to return (sent to SentiOne as the export limit)',
	},
	filtersCollection({
		dates: true,
		description: 'Narrow the mentions down; the same filters as the searches',
	}),
	sortProperty,
	simplifyProperty,
	optionsCollection([
		anonymizationOption,
		notAnonymizedOption,
		{
			displayName: 'Max Mentions per Run',
			name: 'maxMentions',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: EXPORT_CAPS.maxMentions.max },
			default: 100000,
			description:
				'The most mentions one run holds in memory. With Return All, an export that goes beyond it stops with an error (nothing partial is returned); a Limit above it is refused before the export is opened. Raise it for bigger exports.',
		},
		{
			displayName: 'Max Size (MB)',
			name: 'maxSizeMb',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: EXPORT_CAPS.maxSizeMb.max },
			default: 256,
			description: 'The most stream data one run reads; an export beyond it stops with an error',
		},
		streamFormatOption,
		{
			displayName: 'Timeout (Minutes)',
			name: 'timeoutMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: EXPORT_CAPS.timeoutMinutes.max },
			default: 30,
			description: 'The longest one export may take; a stream still open then stops with an error',
		},
	]),
];

const displayOptions = { show: { resource: ['mention'], operation: ['export'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const SCOPES: readonly Scope[] = ['recent', 'historical'];

const mb = (bytes: number) => `${Math.round(bytes / 1_000_000).toLocaleString('en-US')} MB`;

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	notes: ExecutionHints,
): Promise<IDataObject[]> {
	const node = this.getNode();
	// every parameter is read and checked before the stream is opened
	const projectId = readProjectId.call(this, i);
	const scope = readChoice(
		this.getNodeParameter('exportScope', i, 'recent'),
		SCOPES,
		node,
		'Mentions From',
		i,
	);
	const paging = readPaging.call(this, i);
	const body = readSearchBody.call(this, i, scope);
	const simplify = readSimplify.call(this, i);
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const anonymization = readAnonymization(options.anonymization, node, i);
	const notAnonymized = readNotAnonymized(options.notAnonymized, node, i);
	const format = readStreamFormat(options.streamFormat, node, i);
	const cap = (name: keyof Omit<typeof EXPORT_CAPS, 'idleMs'>, label: string) =>
		readNumberOption(
			options,
			name,
			EXPORT_CAPS[name].default,
			node,
			label,
			{ min: 1, max: EXPORT_CAPS[name].max },
			i,
		);
	const maxMentions = cap('maxMentions', 'Max Mentions per Run');
	const maxBytes = cap('maxSizeMb', 'Max Size (MB)') * 1_000_000;
	const timeoutMs = cap('timeoutMinutes', 'Timeout (Minutes)') * MINUTE_MS;
	if (paging.limit !== undefined && paging.limit > maxMentions) {
		// refused before the export is opened: it would stop at the cap and cost an export for nothing
		throw invalidParameter(
			node,
			'Limit',
			`${paging.limit.toLocaleString('en-US')} is above Options → Max Mentions per Run (${maxMentions.toLocaleString('en-US')}). Lower the Limit or raise Max Mentions per Run.`,
			i,
		);
	}

	const qs: IDataObject = {};
	if (paging.limit !== undefined) qs[QUERY_PARAMS.limit] = paging.limit;
	if (anonymization) qs[QUERY_PARAMS.anonymization] = anonymization;

	const target = scopedEndpoint('export', scope);
	let verifier = new FilterVerifier(body[SEARCH_REQUEST_FIELDS.filters] as IDataObject);
	let datesAgain = true;
	const open = async (sent: IDataObject): Promise<OpenStream> =>
		await transport.openStream({
			...route(target, projectId),
			qs,
			body: sent,
			format,
			itemIndex: i,
			idleTimeoutMs: EXPORT_CAPS.idleMs,
			deadlineMs: timeoutMs,
			maxBytes,
		});
	const {
		value: stream,
		dropped,
		refusal,
	} = await withFilterFallback(
		node,
		widenCollectedAt(body),
		async (sent) => {
			const opened = await attempt(async () => await open(sent));
			if (opened.ok) return opened.value;
			// a date SentiOne refused by its clock, which the refusal dated (D-50): computed again on
			// that clock, the export is opened once more when the range moved
			const again =
				datesAgain && refusedDates(opened.error)
					? publishedOnServerClock.call(this, i, scope, sent)
					: undefined;
			datesAgain = false;
			if (!again) throw opened.error;
			verifier = new FilterVerifier(
				readSearchBody.call(this, i, scope)[SEARCH_REQUEST_FIELDS.filters] as IDataObject,
			);
			return await open(again);
		},
		notes.refused,
	);
	notes.refusedFilters(dropped, refusal);

	// Mentions are converted as they arrive (a simplified row replaces the full mention at once),
	// and the connection is closed as soon as the limit or a cap is reached.
	const rows: IDataObject[] = [];
	let malformed = 0;
	let stripped = 0;
	// each stop is the user's to lift (an option, a Limit, narrower filters)
	const stop = (message: string, description: string) =>
		declareFailure(
			new NodeOperationError(node, message, { itemIndex: i, description }),
			FAILURES.configurationInvalid(),
		);
	try {
		for await (const item of stream.items) {
			if (item.type === 'mention') {
				let mention = item.mention;
				if (anonymization) {
					const checked = checkAnonymized(mention, anonymization, notAnonymized);
					if ('clear' in checked) {
						throw stop(
							inClearMessage(anonymization, item.id, checked.clear),
							`Nothing is returned, so no author in clear reaches the workflow. SentiOne may not apply its (experimental) anonymization switch on this endpoint. To go on without it, set Options → If Not Anonymized to Remove Identifying Fields (they become null), or turn Anonymization off.`,
						);
					}
					mention = checked.mention;
					if (checked.removed) stripped++;
				}
				if (!verifier.keep(mention)) continue;
				if (rows.length >= maxMentions) {
					throw stop(
						`The export stopped at ${maxMentions.toLocaleString('en-US')} mentions (Options → Max Mentions per Run)`,
						'Nothing is returned, so a partial export is never taken for the whole. Set a Limit, narrow the filters, or raise Max Mentions per Run.',
					);
				}
				rows.push(mentionRow(mention, simplify));
				if (paging.limit !== undefined && rows.length >= paging.limit) break;
			} else if (item.type === 'malformed') {
				malformed++;
			}
		}
	} catch (error) {
		const interrupted = errorDetails(error)?.streamInterrupted;
		if (interrupted === 'oversize') {
			throw stop(
				`The export stopped at ${mb(maxBytes)} of stream data (Options → Max Size (MB)) after ${rows.length} mentions`,
				'Nothing is returned, so a partial export is never taken for the whole. Set a Limit, narrow the filters, or raise Max Size (MB).',
			);
		}
		if (interrupted) {
			const how =
				interrupted === 'deadline'
					? 'took longer than its timeout'
					: interrupted === 'stalled'
						? 'stalled'
						: 'broke off';
			const broken = new NodeOperationError(
				node,
				`The export stream ${how} after ${rows.length} mention${rows.length === 1 ? '' : 's'}, so the export is incomplete: ${(error as Error).message}`,
				{
					itemIndex: i,
					description:
						interrupted === 'deadline'
							? `Nothing is returned for an incomplete export. Raise Options → Timeout (Minutes), set a Limit, or narrow the filters (each run costs ${costText(target)}).`
							: interrupted === 'stalled'
								? `SentiOne sent no complete event (a mention or a heartbeat; it sends a heartbeat every ${HEARTBEAT_INTERVAL_MS / 1000} s) for ${EXPORT_CAPS.idleMs / 1000} s, the export's stall limit; bytes alone do not count. Nothing is returned for an incomplete export. Run again (each run costs ${costText(target)}), or narrow the filters or set a Limit.`
								: `Nothing is returned for an incomplete export, so a partial result is never taken for the whole. Run again (each run costs ${costText(target)}), or narrow the filters or set a Limit.`,
				},
			);
			// the cause of the break (a silent or dropped stream may pass)
			throw declareFailure(broken, failureOf(error));
		}
		throw asNodeError(node, error, i);
	} finally {
		stream.close();
	}
	notes.verified(verifier, 1);
	if (stripped > 0) {
		notes.messages.push(
			`Input item ${i + 1}: SentiOne did not anonymize ${stripped} mention${stripped === 1 ? '' : 's'}; their identifying fields were removed (set to null) as Options → If Not Anonymized says.`,
		);
	}
	if (malformed > 0) {
		notes.messages.push(
			`Input item ${i + 1}: ${malformed} event${malformed === 1 ? '' : 's'} of the export stream could not be read and ${malformed === 1 ? 'was' : 'were'} skipped.`,
		);
	}
	return rows;
}
