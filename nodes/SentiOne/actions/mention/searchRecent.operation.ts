import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { SentiOneTransport } from '../../shared/transport';
import type { RunNotes } from '../notes';
import { executeSearch, searchProperties } from './search';

const displayOptions = { show: { resource: ['mention'], operation: ['searchRecent'] } };

export const description = updateDisplayOptions(displayOptions, searchProperties('recent'));

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
	notes: RunNotes,
): Promise<IDataObject[]> {
	return await executeSearch.call(this, i, transport, 'recent', notes);
}
