/** Types of contributing.js (plain CommonJS, run by node without a build). */
export declare const BLOCKS: Record<
	string,
	{ render: (ctx: unknown, previous: string) => string | undefined; reads: string; how: string }
>;
export declare function took(seconds: number | undefined): string;
