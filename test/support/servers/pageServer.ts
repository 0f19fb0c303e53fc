/**
 * A hostile search server for the poll trigger, built on the simulator's ground truth: right before
 * the node sends a recent search for the project (the credential's `authenticate` runs just before
 * a request leaves), the page a correct server would return is computed from the simulator's
 * mentions (collectedAt from the request's `filters.collectedAt.from`, in the request's sort
 * order, nothing collected after the simulator's clock) and the test's extra entries are mixed in,
 * and that page is scripted as the simulator's answer to exactly this request. The extras are what
 * a real server could send but the simulator never does: mentions dated in the future, mentions
 * without a usable id, entries that are not objects.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { SentiOneApi } from '../../../credentials/SentiOneApi.credentials';
import { admin, type Loose, type Sim, script } from '../simulator';

/** Most entries one scripted page holds (one page of the API: the node must not need a cursor). */
const PAGE = 25;

export interface HostilePages {
	/** pages served so far */
	pages: number;
	/** entries of every page served, in order */
	served: unknown[][];
	uninstall(): void;
}

const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

function collectedMs(entry: unknown): number | undefined {
	if (!isObject(entry) || typeof entry.collectedAt !== 'string') return undefined;
	const ms = Date.parse(entry.collectedAt);
	return Number.isFinite(ms) ? ms : undefined;
}

function bodyOf(options: IHttpRequestOptions): IDataObject {
	const body = options.body as unknown;
	if (typeof body === 'string') {
		try {
			return JSON.parse(body) as IDataObject;
		} catch {
			return {};
		}
	}
	return isObject(body) ? body : {};
}

/**
 * Serves every recent search of `projectId` as described above until `uninstall`. `extras` is read
 * for each page: objects with a readable collectedAt are included when the request's range covers
 * them (however far in the future), everything else on every page.
 */
export function hostilePages(sim: Sim, projectId: number, extras: () => unknown[]): HostilePages {
	const proto = SentiOneApi.prototype;
	const original = proto.authenticate;
	const target = new RegExp(`/projects/${projectId}/mentions/recent/search$`);
	const state: HostilePages = {
		pages: 0,
		served: [],
		uninstall: () => spy.mockRestore(),
	};
	const spy = jest.spyOn(proto, 'authenticate').mockImplementation(async function (
		this: SentiOneApi,
		credentials,
		options: IHttpRequestOptions,
	) {
		const authenticated = await original.call(this, credentials, options);
		const url = String(options.url ?? '');
		if (String(options.method ?? 'GET').toUpperCase() !== 'POST' || !target.test(url.split('?')[0]))
			return authenticated;
		const body = bodyOf(options);
		const filters = isObject(body.filters) ? body.filters : {};
		const range = isObject(filters.collectedAt) ? filters.collectedAt : {};
		const from = typeof range.from === 'string' ? Date.parse(range.from) : -Infinity;
		const descending = body.sortType === 'CollectedAtDescending';
		const { now } = await admin<{ now: string }>(sim, 'GET', '/health');
		const nowMs = Date.parse(now);
		const truth = (
			await admin<{ mentions: Loose[] }>(sim, 'GET', `/mentions?projectId=${projectId}&full=1`)
		).mentions as IDataObject[];
		const real = truth.filter((m) => {
			const at = collectedMs(m) ?? -Infinity;
			return at >= from && at <= nowMs;
		});
		const added = extras();
		const dated = added.filter(
			(e) => collectedMs(e) !== undefined && (collectedMs(e) as number) >= from,
		);
		const undated = added.filter((e) => collectedMs(e) === undefined);
		const order = (a: unknown, b: unknown) => {
			const d = (collectedMs(a) as number) - (collectedMs(b) as number);
			const ia = String((a as IDataObject).id ?? '');
			const ib = String((b as IDataObject).id ?? '');
			return (descending ? -d : d) || (ia < ib ? -1 : ia > ib ? 1 : 0);
		};
		const sorted: unknown[] = [...real, ...dated].sort(order);
		// the undated entries (no collectedAt, or not objects at all) are spread through the page
		const data: unknown[] = [];
		const step = Math.max(1, Math.ceil(sorted.length / Math.max(1, undated.length)));
		let u = 0;
		sorted.forEach((entry, i) => {
			if (i % step === 0 && u < undated.length) data.push(undated[u++]);
			data.push(entry);
		});
		while (u < undated.length) data.push(undated[u++]);
		if (data.length > PAGE)
			throw new Error(
				`hostile page of ${data.length} entries: keep a test's pages within one page of ${PAGE}`,
			);
		state.pages++;
		state.served.push(data);
		await script(
			sim,
			`/projects/${projectId}/mentions/recent/search$`,
			{ kind: 'json', status: 200, body: { data, cursor: null } },
			1,
			'POST',
		);
		return authenticated;
	});
	return state;
}
