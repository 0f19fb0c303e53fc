// A small seeded PRNG (mulberry32) with the helpers the generator needs. Same seed, same data.

const HEX = '0123456789abcdef';

export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Integer in [min, max] (both inclusive). */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** Pick by weight: entries are [value, weight]. */
	weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
		let total = 0;
		for (const [, w] of entries) total += w;
		let r = this.next() * total;
		for (const [v, w] of entries) {
			r -= w;
			if (r < 0) return v;
		}
		return entries[entries.length - 1][0];
	}

	hex(length: number): string {
		let s = '';
		for (let i = 0; i < length; i++) s += HEX[Math.floor(this.next() * 16)];
		return s;
	}

	digits(length: number): string {
		let s = String(this.int(1, 9));
		while (s.length < length) s += String(this.int(0, 9));
		return s;
	}

	alnum(length: number): string {
		const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
		let s = '';
		for (let i = 0; i < length; i++) s += chars[Math.floor(this.next() * chars.length)];
		return s;
	}

	/** Fisher-Yates, in place. */
	shuffle<T>(items: T[]): T[] {
		for (let i = items.length - 1; i > 0; i--) {
			const j = Math.floor(this.next() * (i + 1));
			const tmp = items[i];
			items[i] = items[j];
			items[j] = tmp;
		}
		return items;
	}

	/** Roughly log-normal positive number around median (for counts and delays). */
	logNormal(median: number, spread: number): number {
		const u1 = Math.max(this.next(), 1e-12);
		const u2 = this.next();
		const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
		return median * Math.exp(z * spread);
	}
}

/** Derive an independent seed from a base seed and a label. */
export function deriveSeed(seed: number, label: string): number {
	let h = 2166136261 ^ seed;
	for (let i = 0; i < label.length; i++) {
		h = Math.imul(h ^ label.charCodeAt(i), 16777619);
	}
	return h >>> 0;
}
