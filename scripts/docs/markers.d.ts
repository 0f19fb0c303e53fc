/** Types of markers.js (plain CommonJS, run by node without a build). */
export declare const NOT_MEASURED: string;
export declare function startMarker(name: string): string;
export declare function endMarker(name: string): string;
export declare function notMeasured(how?: string): string;
export declare function findBlocks(
	text: string,
	doc?: string,
): Array<{ name: string; from: number; to: number }>;
export declare function blockNames(text: string, doc?: string): string[];
export declare function headingOf(text: string, name: string): string | undefined;
export declare function holdsFigures(body: string): boolean;
export declare function fillBlocks(
	text: string,
	render: (name: string, previous: string) => string | undefined,
	options?: { doc?: string; how?: (name: string) => string | undefined; required?: string[] },
): {
	text: string;
	measured: string[];
	kept: string[];
	notMeasured: string[];
	missing: string[];
};
