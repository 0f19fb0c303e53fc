/** Types of render.js (plain CommonJS, run by node without a build). */
import type { Results } from './parts';

export declare const DOCUMENTS: Record<string, { file: string; blocks: Record<string, unknown> }>;
export declare function renderDocument(
	name: string,
	results: Results,
	root?: string,
): {
	text: string;
	changed: boolean;
	measured: string[];
	kept: string[];
	notMeasured: string[];
};
export declare function partsWithoutBlock(results: Results, root?: string): string[];
