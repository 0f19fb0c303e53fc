/**
 * A workflow as n8n exports it: what the engine runs (test/support/engine.ts) and what a real n8n
 * imports (test/support/n8n/host.ts), the fields the tests use.
 */
import type { IConnections, IDataObject, INode } from 'n8n-workflow';

export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IDataObject;
	[key: string]: unknown;
}

/** A workflow a real n8n imports: with the id and name n8n keeps it under. */
export interface SavedWorkflowJson extends WorkflowJson {
	id: string;
	name: string;
}
