import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { Tier } from '../../shared/contract';
import { PATHS, QUERY_PARAMS } from '../../shared/contract';
import { projectLocator, simplifyProperty, sortProperty } from '../../shared/descriptions';
import { asNodeError, errorDetails, readChoice } from '../../shared/errors';
import { filtersCollection } from '../../shared/filters';
import { simplifyMention } from '../../shared/simplify';
import { anonymizationOption, readAnonymization, readStreamFormat, streamFormatOption } from '../../shared/streamOptions';
import type { SentiOneTransport } from '../../shared/transport';
import { limitProperty } from '../common.descriptions';
import { readPaging, readProjectId, readSearchBody } from '../helpers';

type ExportScope = 'recent' | 'historical';

const EXPORT_COST = 'One export costs 1 of the 5 export streams an hour (at most 2 open at a time), whatever its size';

const properties: INodeProperties[] = [
	projectLocator,
	{
		displayName: 'Mentions From',
		name: 'exportScope',
		type: 'options',
		default: 'recent',
		description: 'Which mentions the export covers',
		options: [
			{
				name: 'All Time (Historical, Enterprise Tier)',
				value: 'historical',
				description: 'Mentions of any date; needs the Enterprise tier',
			},
			{
				name: 'Last 7 Days (Recent, Basic Tier)',
				value: 'recent',
				description: 'Mentions published in the last 7 days; Basic tier is enough',
			},
		],
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		hint: `${EXPORT_COST}. Large exports arrive as one stream instead of pages of 25.`,
	},
	{ ...limitProperty, hint: 'Sent to SentiOne as the export limit, so the stream ends after this many mentions' },
	filtersCollection({
		dates: true,
		description: 'Narrow the mentions down; the same filters as the searches',
	}),
	sortProperty,
	simplifyProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			anonymizationOption,
			streamFormatOption,
		],
	},
];

const displayOptions = { show: { resource: ['mention'], operation: ['export'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const ENDPOINTS: Record<ExportScope, { path: (projectId: number) => string; tier: Tier }> = {
	recent: { path: PATHS.recentExportStream, tier: 'Basic' },
	historical: { path: PATHS.historicalExportStream, tier: 'Enterprise' },
};

const SCOPES: readonly ExportScope[] = ['recent', 'historical'];

export async function execute(this: IExecuteFunctions, i: number, transport: SentiOneTransport): Promise<IDataObject[]> {
	const node = this.getNode();
	// every parameter is read and checked before the stream is opened
	const projectId = readProjectId.call(this, i);
	const scope = readChoice(this.getNodeParameter('exportScope', i, 'recent'), SCOPES, node, 'Mentions From', i);
	const paging = readPaging.call(this, i);
	const body = readSearchBody.call(this, i, scope);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const anonymization = readAnonymization(options.anonymization, node, i);
	const format = readStreamFormat(options.streamFormat, node, i);

	const qs: IDataObject = {};
	if (paging.limit !== undefined) qs[QUERY_PARAMS.limit] = paging.limit;
	if (anonymization) qs[QUERY_PARAMS.anonymization] = anonymization;

	const endpoint = ENDPOINTS[scope];
	const stream = await transport.openStream({
		path: endpoint.path(projectId),
		group: 'export',
		tier: endpoint.tier,
		qs,
		body,
		format,
		itemIndex: i,
	});

	// Mentions are converted as they arrive (a simplified row replaces the full mention at once),
	// and the connection is closed as soon as the limit is reached.
	const rows: IDataObject[] = [];
	let malformed = 0;
	try {
		for await (const item of stream.items) {
			if (item.type === 'mention') {
				rows.push(simplify ? simplifyMention(item.mention) : item.mention);
				if (paging.limit !== undefined && rows.length >= paging.limit) break;
			} else if (item.type === 'malformed') {
				malformed++;
			}
		}
	} catch (error) {
		if (errorDetails(error)?.streamInterrupted) {
			throw new NodeOperationError(
				node,
				`The export stream broke off after ${rows.length} mention${rows.length === 1 ? '' : 's'}, so the export is incomplete: ${(error as Error).message}`,
				{
					itemIndex: i,
					description:
						'Nothing is returned for an incomplete export, so a partial result is never taken for the whole. Run again (each run costs 1 of the 5 export streams an hour), or narrow the filters or set a Limit.',
				},
			);
		}
		throw asNodeError(node, error, i);
	} finally {
		stream.close();
	}
	if (malformed > 0) {
		this.addExecutionHints({
			message: `Input item ${i + 1}: ${malformed} event${malformed === 1 ? '' : 's'} of the export stream could not be read and ${malformed === 1 ? 'was' : 'were'} skipped.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return rows;
}
