/** Types of parts.js (plain CommonJS, run by node without a build). */
import type { PartResults } from '../../test/support/results';

export declare const RESULTS_DIR: string;
export declare class Results {
	constructor(dir?: string);
	readonly dir: string;
	readonly files: string[];
	json(file: string): unknown;
	has(file: string): boolean;
	part(name: string): (PartResults & { finishedAt?: string }) | undefined;
	partNames(): string[];
}
export declare function partFile(name: string): string;
export declare function renderPart(part: PartResults | undefined): string | undefined;
