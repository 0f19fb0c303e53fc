/**
 * A bounded memory of the ids a stream trigger has passed on: an id is passed on once, across
 * reconnects, backfills and gap fills. When full, the oldest ids are forgotten first; `forgotten`
 * counts them (a repeat is possible only for an id older than the whole memory).
 */
export const DEFAULT_DEDUP_CAPACITY = 20_000;

export class DedupMemory {
	readonly capacity: number;

	/** ids forgotten to stay within the capacity */
	forgotten = 0;

	private readonly ids = new Set<string>();

	constructor(capacity = DEFAULT_DEDUP_CAPACITY) {
		this.capacity = Math.max(1, Math.floor(capacity));
	}

	get size(): number {
		return this.ids.size;
	}

	has(id: string): boolean {
		return this.ids.has(id);
	}

	/** True when the id is new (it is now remembered); false when it was passed on before. */
	add(id: string): boolean {
		if (this.ids.has(id)) return false;
		this.ids.add(id);
		if (this.ids.size > this.capacity) {
			// A Set iterates in insertion order: the first id is the oldest.
			const oldest = this.ids.values().next().value;
			if (oldest !== undefined) this.ids.delete(oldest);
			this.forgotten++;
		}
		return true;
	}
}
