/**
 * Which stream the stream trigger opens (D-23) and the request of each connection: the live stream
 * of a project with its filters, or the account's engagement updates.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EndpointName } from '../../shared/contract';
import { QUERY_PARAMS, route, SEARCH_REQUEST_FIELDS } from '../../shared/contract';
import type { StreamRequest } from '../../shared/transport';
import type { StreamSettings } from './streamSettings';
import { onMentionStream } from './streamSettings';

export interface StreamTarget {
	/** the endpoint of the contract's table (its rate-limit group is the stream budget) */
	endpoint: EndpointName;
	/** the request for a connection asking for `backfillMinutes` (with these filters instead of the settings', when given) */
	request(backfillMinutes: number, signal: AbortSignal, filters?: IDataObject): StreamRequest;
}

/** Which stream to open (D-23) and how. */
export function streamTarget(settings: StreamSettings): StreamTarget {
	const common = { format: settings.format, idleTimeoutMs: settings.stallTimeoutMs };
	if (!onMentionStream(settings.event)) {
		return {
			endpoint: 'engagementStream',
			request: (backfillMinutes, signal) => ({
				...route('engagementStream'),
				qs: backfillMinutes > 0 ? { [QUERY_PARAMS.backfillMinutes]: backfillMinutes } : undefined,
				body: {},
				signal,
				...common,
			}),
		};
	}
	const projectId = settings.projectId as number;
	return {
		endpoint: 'liveStream',
		request: (backfillMinutes, signal, filters) => {
			const qs: IDataObject = {};
			if (backfillMinutes > 0) qs[QUERY_PARAMS.backfillMinutes] = backfillMinutes;
			if (settings.anonymization) qs[QUERY_PARAMS.anonymization] = settings.anonymization;
			return {
				...route('liveStream', projectId),
				qs,
				body: { [SEARCH_REQUEST_FIELDS.filters]: filters ?? settings.filters },
				signal,
				...common,
			};
		},
	};
}
