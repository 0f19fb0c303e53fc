/**
 * A bounded memory of the ids a stream trigger has passed on: an id is passed on once, across
 * reconnects, backfills and gap fills. Bounded twice: by count and by bytes (an id longer than 64
 * characters is remembered by its SHA-256, so huge ids cost as little as short ones). When full,
 * the oldest ids are forgotten first; `forgotten` counts them (a repeat is possible only for an id
 * older than the whole memory).
 */
import { idKey } from '../../shared/text';

export const DEFAULT_DEDUP_CAPACITY = 20_000;
/** Bytes of ids kept at most (about 2 bytes per character, plus the Set's own overhead per entry). */
export const DEFAULT_DEDUP_BYTES = 4 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 48;

export class DedupMemory {
	readonly capacity: number;

	readonly maxBytes: number;

	/** ids forgotten to stay within the bounds */
	forgotten = 0;

	private readonly ids = new Set<string>();

	private bytes = 0;

	constructor(capacity = DEFAULT_DEDUP_CAPACITY, maxBytes = DEFAULT_DEDUP_BYTES) {
		this.capacity = Math.max(1, Math.floor(capacity));
		this.maxBytes = Math.max(1024, Math.floor(maxBytes));
	}

	get size(): number {
		return this.ids.size;
	}

	/** Approximate bytes the remembered ids take. */
	get sizeBytes(): number {
		return this.bytes;
	}

	has(id: string): boolean {
		return this.ids.has(idKey(id));
	}

	/** True when the id is new (it is now remembered); false when it was passed on before. */
	add(id: string): boolean {
		const key = idKey(id);
		if (this.ids.has(key)) return false;
		this.ids.add(key);
		this.bytes += cost(key);
		while (this.ids.size > this.capacity || (this.bytes > this.maxBytes && this.ids.size > 1)) {
			// A Set iterates in insertion order: the first id is the oldest.
			const oldest = this.ids.values().next().value;
			if (oldest === undefined) break;
			this.ids.delete(oldest);
			this.bytes -= cost(oldest);
			this.forgotten++;
		}
		return true;
	}
}

function cost(key: string): number {
	return key.length * 2 + ENTRY_OVERHEAD_BYTES;
}
