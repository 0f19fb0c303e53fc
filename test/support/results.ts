/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * The figures a test part leaves for the generated docs: test/.results/part-<name>.json, rendered
 * into docs/reliability.md by scripts/docs/reliability.js.
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
	notes?: string[];
	figures?: Record<string, unknown>;
}

/** Writes the part's figures for render.js (test/.results/part-<name>.json). */
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
