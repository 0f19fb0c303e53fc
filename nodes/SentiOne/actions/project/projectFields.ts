/**
 * The two fields of a project (D-11) and their local checks: a name of 1–255 characters and a
 * query in the Listen query language (at most 250 characters), so SentiOne never has to refuse them;
 * and the notice of the operations that change a project.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	ENDPOINTS,
	PROJECT_FIELDS,
	PROJECT_NAME_MAX_LENGTH,
	QUERY_MAX_LENGTH,
} from '../../shared/contract';
import { invalidParameter, readText } from '../../shared/parameters';
import { checkQuery } from '../../shared/queryLanguage';
import { costText, tierLead } from '../../shared/wording';
import { operationNotice } from '../common.descriptions';

/** The notice of Create, Update and Delete: the tier, the cost, and whether the route is only announced. */
export function projectChangeNotice(
	name: string,
	endpoint: 'createProject' | 'updateProject' | 'deleteProject',
): INodeProperties {
	const announced = ENDPOINTS[endpoint].confirmed
		? ''
		: ' Project create, update and delete are announced by SentiOne but not confirmed by its specification: a deployment without them says so.';
	return operationNotice(name, `${tierLead(endpoint)}. Costs ${costText(endpoint)}.${announced}`);
}

export const projectFieldProperties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Mobile',
		description: `The project's name, 1 to ${PROJECT_NAME_MAX_LENGTH} characters`,
	},
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		placeholder: '"acme mobile" OR acmephone* NOT jobs',
		description: `What the project monitors, in the Listen query language: words, "exact phrases", AND, OR, NOT (upper case), parentheses, and a trailing * after at least 4 letters. At most ${QUERY_MAX_LENGTH} characters.`,
	},
];

/** The body of create and update: `{ name, query }`, both checked. */
export function readProjectBody(this: IExecuteFunctions, i: number): IDataObject {
	const node = this.getNode();
	const name = readText(this.getNodeParameter('name', i, ''), node, 'Name', i);
	if (name === '') throw invalidParameter(node, 'Name', 'the project name is empty.', i);
	if (name.length > PROJECT_NAME_MAX_LENGTH) {
		throw invalidParameter(
			node,
			'Name',
			`the name is ${name.length} characters long; SentiOne accepts at most ${PROJECT_NAME_MAX_LENGTH}.`,
			i,
		);
	}
	const query = readText(this.getNodeParameter('query', i, ''), node, 'Query', i);
	const problem = checkQuery(query);
	if (problem) throw invalidParameter(node, 'Query', `${problem}.`, i);
	return { [PROJECT_FIELDS.name]: name, [PROJECT_FIELDS.query]: query };
}
