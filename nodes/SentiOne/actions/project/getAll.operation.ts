import { route } from '../../shared/contract';
import { costText, pageSize, tierLead } from '../../shared/wording';
import { operationNotice } from '../common.descriptions';
import { getManyOperation } from '../getMany';

export const { description, execute } = getManyOperation({
	resource: 'project',
	notice: operationNotice(
		'projectGetManyNotice',
		`${tierLead('listProjects')}. Each page of ${pageSize('listProjects')} projects costs ${costText('listProjects')}.`,
	),
	request: () => route('listProjects'),
});
