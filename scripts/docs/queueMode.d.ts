/** Types of scripts/docs/queueMode.js, for the tests that import it. */
type Figures = Record<string, unknown>;
export function merge(byRun: Record<string, Figures | undefined>): Figures | undefined;
export function render(figures: Figures): string;
export const BLOCKS: Record<
	string,
	{
		render: (ctx: unknown) => string | undefined;
		reads: string | ((file: string) => boolean);
		how: string;
	}
>;
