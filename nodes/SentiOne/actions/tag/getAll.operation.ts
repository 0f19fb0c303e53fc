import type { IExecuteFunctions } from 'n8n-workflow';

import { route } from '../../shared/contract';
import { projectLocator } from '../../shared/descriptions';
import { costText, pageSize, tierLead } from '../../shared/wording';
import { operationNotice } from '../common.descriptions';
import { getManyOperation } from '../getMany';
import { readProjectId } from '../readParameters';

export const { description, execute } = getManyOperation({
	resource: 'tag',
	notice: operationNotice(
		'tagGetManyNotice',
		`${tierLead('listTags')}. Each page of ${pageSize('listTags')} tags costs ${costText('listTags')}.`,
	),
	fields: [{ ...projectLocator, description: 'The project whose tags to list' }],
	request(this: IExecuteFunctions, i: number) {
		return route('listTags', readProjectId.call(this, i));
	},
	// a tag is known by its name
	keyOf: (tag) => (typeof tag.name === 'string' ? tag.name : undefined),
});
