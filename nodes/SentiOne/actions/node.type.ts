import type { AllEntities } from 'n8n-workflow';

/** Every valid resource → operation pair of the SentiOne node. */
type NodeMap = {
	project: 'create' | 'deleteProject' | 'getAll' | 'update';
	mention: 'export' | 'searchHistorical' | 'searchRecent';
	tag: 'add' | 'getAll' | 'remove';
};

export type SentiOneType = AllEntities<NodeMap>;
