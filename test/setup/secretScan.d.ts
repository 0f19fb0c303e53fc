/** Types of secretScan.js (plain CommonJS, shared with the jest reporter). */
export declare const KEY_SHAPE: RegExp;
export declare const MIN_SECRET_LENGTH: number;
export interface Leak {
	what: string;
	excerpt: string;
}
export declare function simulatorKeys(repoRoot: string): string[];
export declare function findLeaks(text: string, secrets: Iterable<string>, max?: number): Leak[];
export declare function isSecret(value: unknown): boolean;
export declare function mask(key: string): string;
