/**
 * "From list" for every project picker: one page of GET /projects per call, filtered by name
 * here (the API has no name filter); the API cursor is n8n's pagination token.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { BOUNDS } from './bounds';
import { QUERY_PARAMS, route } from './contract';
import { isEndCursor } from './pager';
import { SentiOneTransport } from './transport';

interface ProjectPage {
	data?: unknown;
	cursor?: unknown;
}

/** A project entry the picker can show: a positive whole-number id; the name as text (or the id). */
function entry(value: unknown): { id: number; name: string } | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const { id, name } = value as IDataObject;
	const numeric =
		typeof id === 'number'
			? id
			: typeof id === 'string' && /^\d{1,15}$/.test(id)
				? Number(id)
				: NaN;
	if (!Number.isSafeInteger(numeric) || numeric < 1) return undefined;
	return {
		id: numeric,
		name:
			typeof name === 'string' && name.trim() !== '' ? name.slice(0, 200) : `Project ${numeric}`,
	};
}

export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const transport = new SentiOneTransport(this);
	const qs: IDataObject = {};
	if (!isEndCursor(paginationToken)) qs[QUERY_PARAMS.cursor] = paginationToken;
	const { body } = await transport.request<ProjectPage>({ ...route('listProjects'), qs });
	const needle = (filter ?? '').trim().toLowerCase();
	const projects = (Array.isArray(body.data) ? body.data : [])
		.map(entry)
		.filter((p) => p !== undefined);
	const results = projects
		.filter(
			(p) => needle === '' || p.name.toLowerCase().includes(needle) || String(p.id) === needle,
		)
		.map((p) => ({ name: `${p.name} (${p.id})`, value: String(p.id) }));
	const cursor = body.cursor;
	const next =
		typeof cursor === 'string' &&
		!isEndCursor(cursor) &&
		cursor.length <= BOUNDS.maxCursorChars &&
		cursor !== paginationToken
			? cursor
			: undefined;
	return { results, paginationToken: next };
}
