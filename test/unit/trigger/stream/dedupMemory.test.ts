/**
 * The Stream Trigger's memory of the ids it passed on (trigger/stream/dedupMemory.ts): each id once,
 * bounded by count and by bytes, the oldest forgotten first (and counted).
 */
import { DedupMemory } from '../../../../nodes/SentiOne/trigger/stream/dedupMemory';

test('passes an id once and forgets the oldest beyond its capacity', () => {
	const memory = new DedupMemory(3);
	expect(['a', 'b', 'a', 'c', 'd'].map((id) => memory.add(id))).toEqual([
		true,
		true,
		false,
		true,
		true,
	]);
	expect(memory.size).toBe(3);
	expect(memory.forgotten).toBe(1);
	expect(memory.has('a')).toBe(false);
});

test('is bounded in bytes too: huge ids are kept as hashes, and the oldest go when the bytes run out', () => {
	const memory = new DedupMemory(1000, 20_000);
	for (let i = 0; i < 500; i++) expect(memory.add(`${i}:${'y'.repeat(1_000_000)}`)).toBe(true);
	expect(memory.sizeBytes).toBeLessThanOrEqual(20_000);
	expect(memory.add(`499:${'y'.repeat(1_000_000)}`)).toBe(false);
	expect(memory.forgotten).toBeGreaterThan(0);
});

test('a long id is known by its hash: has() finds it, and it costs what a short one does', () => {
	const memory = new DedupMemory();
	const long = 'z'.repeat(10_000);
	memory.add(long);
	expect(memory.has(long)).toBe(true);
	expect(memory.has(`${long}!`)).toBe(false);
	expect(memory.sizeBytes).toBeLessThan(300);
});

test('the bounds are sane whatever is asked: at least one id, at least 1 KB; the defaults are 20,000 ids and 4 MB', () => {
	expect(new DedupMemory(0, 0)).toMatchObject({ capacity: 1, maxBytes: 1024 });
	expect(new DedupMemory(2.9).capacity).toBe(2);
	expect(new DedupMemory()).toMatchObject({ capacity: 20_000, maxBytes: 4 * 1024 * 1024 });
	const one = new DedupMemory(1);
	one.add('a');
	one.add('b');
	expect([one.has('a'), one.has('b'), one.size, one.forgotten]).toEqual([false, true, 1, 1]);
});
