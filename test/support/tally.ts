/**
 * Loss and duplicate counts: the ids a trigger passed on against the ids it should have.
 */
import type { IDataObject } from 'n8n-workflow';

export interface Tally {
	expected: number;
	emitted: number;
	lost: string[];
	duplicated: string[];
	unexpected: string[];
}

/** Compares the ids a trigger emitted with the ids it should have emitted. */
export function tally(emittedIds: string[], expectedIds: string[]): Tally {
	const counts = new Map<string, number>();
	for (const id of emittedIds) counts.set(id, (counts.get(id) ?? 0) + 1);
	const expected = new Set(expectedIds);
	return {
		expected: expected.size,
		emitted: emittedIds.length,
		lost: expectedIds.filter((id) => !counts.has(id)),
		duplicated: [...counts.entries()].filter(([, n]) => n > 1).map(([id]) => id),
		unexpected: [...counts.keys()].filter((id) => !expected.has(id)),
	};
}

export const idsOf = (items: IDataObject[]): string[] => items.map((i) => String(i.id));
