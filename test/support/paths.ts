/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * Where things are, for test code that reads files of the repository or writes figures.
 * Every test run writes its figures under `test/.results/` (ignored by git); the renderers in
 * scripts/docs/ read them from there. A test run never writes a tracked file.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root folder. */
export const REPO_ROOT = join(__dirname, '..', '..');

/** `test/.results/`, where test runs leave their figures. */
export const RESULTS_DIR = join(REPO_ROOT, 'test', '.results');

/** A file under test/.results/ (the folder is created on first use). */
export function resultsFile(name: string): string {
	mkdirSync(RESULTS_DIR, { recursive: true });
	return join(RESULTS_DIR, name);
}
