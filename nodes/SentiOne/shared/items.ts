/**
 * The one way the three nodes turn what they pass on into n8n items: every row becomes the `json`
 * of its own item, as it is. Not n8n's returnJsonArray, which takes a row that happens to carry a
 * top-level field named "json" for an item already (and would pass that field's value on instead
 * of the mention, dropping the rest) — SentiOne's mentions may carry any field (D-35).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export function toItems(rows: IDataObject[]): INodeExecutionData[] {
	return rows.map((json) => ({ json }));
}
