/**
 * "From list" for every project picker: one page of GET /projects per call, filtered by name
 * here (the API has no name filter); the API cursor is n8n's pagination token.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { PATHS, QUERY_PARAMS } from './contract';
import { SentiOneTransport } from './transport';

interface ProjectPage {
	data?: Array<{ id: number; name: string }>;
	cursor?: string | null;
}

export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const transport = new SentiOneTransport(this);
	const qs: IDataObject = {};
	if (paginationToken) qs[QUERY_PARAMS.cursor] = paginationToken;
	const { body } = await transport.request<ProjectPage>({
		method: 'GET',
		path: PATHS.projects(),
		group: 'projects',
		tier: 'Basic',
		qs,
		read: true,
	});
	const needle = (filter ?? '').trim().toLowerCase();
	const results = (body.data ?? [])
		.filter((p) => needle === '' || p.name.toLowerCase().includes(needle) || String(p.id) === needle)
		.map((p) => ({ name: `${p.name} (${p.id})`, value: String(p.id) }));
	return { results, paginationToken: body.cursor ?? undefined };
}
