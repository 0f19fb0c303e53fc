import type { INodeProperties } from 'n8n-workflow';

import { costText, pageSize, recentWindowText, tierOf } from '../../shared/wording';

import * as exportMentions from './export.operation';
import * as searchHistorical from './searchHistorical.operation';
import * as searchRecent from './searchRecent.operation';

export { exportMentions as export, searchHistorical, searchRecent };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['mention'] } },
		options: [
			{
				name: 'Export',
				value: 'export',
				description: `Export many mentions of a project in one stream instead of pages, with the same filters and sort as search, optionally anonymized. Recent (last ${recentWindowText()}): ${tierOf('recentExport')} tier; all time: ${tierOf('historicalExport')} tier. Costs ${costText('recentExport')}, whatever its size; use it for bulk extraction instead of a large search.`,
				action: 'Export mentions',
			},
			{
				name: 'Search Historical',
				value: 'searchHistorical',
				description: `Search the mentions of a project over any date range, with filters (dates, sentiment, source, type, query, language, country) and sort. ${tierOf('historicalSearch')} tier; each page of ${pageSize('historicalSearch')} costs ${costText('historicalSearch')} shared with recent search.`,
				action: 'Search historical mentions',
			},
			{
				name: 'Search Recent',
				value: 'searchRecent',
				description: `Search the mentions of a project published in the last ${recentWindowText()}, with filters (dates, sentiment, source, type, query, language, country) and sort. ${tierOf('recentSearch')} tier; each page of ${pageSize('recentSearch')} costs ${costText('recentSearch')} shared with historical search.`,
				action: 'Search recent mentions',
			},
		],
		default: 'searchRecent',
	},
	...exportMentions.description,
	...searchHistorical.description,
	...searchRecent.description,
];
