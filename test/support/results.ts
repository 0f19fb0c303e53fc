/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * The figures a test part leaves for the generated docs: test/.results/part-<name>.json. `npm run
 * docs` (scripts/docs/render.js) renders a part into the block
 * `<!-- figures:<name>:start -->` … `<!-- figures:<name>:end -->` of whichever document holds it
 * (docs/reliability.md for the reliability parts); the prose around the block is written by hand
 * in the markdown. A new part: call writePart here, and add the two marker lines where it belongs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESULTS_DIR } from './paths';

/** One row of docs/reliability.md: a fault, how many cases were tried, what was lost. */
export interface ResultRow {
	fault: string;
	/** where the fault was tried (node, operation) */
	through: string;
	cases: number;
	/** mentions/items expected, when counting them makes sense */
	items?: number;
	lost?: number;
	duplicated?: number;
	/** what happened instead of a loss, in a few words */
	outcome: string;
}

export interface PartResults {
	part: string;
	title: string;
	/** the command that produced the figures */
	command: string;
	rows: ResultRow[];
	/**
	 * Sentences that carry measured figures (rendered under the part's rows). What the test does
	 * and why is prose: it belongs in the markdown around the part's block, not here.
	 */
	notes?: string[];
	figures?: Record<string, unknown>;
}

/** Writes the part's figures for the docs renderer (test/.results/part-<name>.json). */
export function writePart(results: PartResults): void {
	mkdirSync(RESULTS_DIR, { recursive: true });
	const data = {
		...results,
		runId: process.env.SENTIONE_TEST_RUN_ID ?? null,
		finishedAt: new Date().toISOString(),
	};
	writeFileSync(
		join(RESULTS_DIR, `part-${results.part}.json`),
		`${JSON.stringify(data, null, 2)}\n`,
	);
}
