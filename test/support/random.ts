/** mulberry32: a small seeded PRNG, so every "random" test and benchmark input is reproducible. */
export function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A whole number from min to max (both included). */
export const between = (next: () => number, min: number, max: number): number =>
	min + Math.floor(next() * (max - min + 1));

/** One element of the list. */
export const pick = <T>(next: () => number, list: readonly T[]): T =>
	list[Math.floor(next() * list.length)];
