import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { SentiOneTransport } from '../../shared/transport';
import { changeTags, tagFieldProperties } from './changeTags';

const displayOptions = { show: { resource: ['tag'], operation: ['add'] } };

export const description = updateDisplayOptions(displayOptions, tagFieldProperties('add'));

export async function execute(
	this: IExecuteFunctions,
	i: number,
	transport: SentiOneTransport,
): Promise<IDataObject> {
	return await changeTags.call(this, i, transport, 'add');
}
