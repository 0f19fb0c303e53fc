/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
/**
 * A fake of the node's clock (nodes/SentiOne/shared/time.ts `clock`) for the unit tier: `now` stands
 * still until a test moves it (`advance`, or a sleep), and every `clock.sleep` the node asks for is
 * recorded and passes at once, moving `now` by its length — an hourly reset or a reconnect backoff
 * costs no real time. Sleeps of at least `holdFrom` ms are held instead (until the signal aborts or
 * `release()`), so a test can see the node waiting and close it then.
 *
 * Only what the node waits for through `clock` is faked: the transport's stall guard and retry
 * backoff stay on real time (keep their options small in a test).
 */
import { setClock } from '../../../nodes/SentiOne/shared/clock';
import { NOW_MS } from '../time';

function aborted(): Error {
	const error = new Error('The operation was aborted');
	error.name = 'AbortError';
	return error;
}

export class FakeClock {
	/** every sleep the node asked for, in ms, in order */
	readonly slept: number[] = [];

	/** sleeps of at least this many ms are held until aborted or released (default: none held) */
	holdFrom = Infinity;

	private readonly held: Array<{ ms: number; pass: () => void }> = [];

	private restore: (() => void) | undefined;

	constructor(
		/** epoch ms */
		public now: number = NOW_MS,
	) {}

	/** Points the node's clock here; `uninstall()` puts the previous one back. */
	install(): this {
		this.restore = setClock({
			now: () => this.now,
			sleep: async (ms, signal) => await this.sleep(ms, signal),
		});
		return this;
	}

	uninstall(): void {
		this.restore?.();
		this.restore = undefined;
	}

	advance(ms: number): void {
		this.now += ms;
	}

	/** Sleeps being held now (see `holdFrom`). */
	get holding(): number {
		return this.held.length;
	}

	/** Lets the held sleeps pass, moving `now` by each. */
	release(): void {
		for (const sleep of this.held.splice(0)) sleep.pass();
	}

	private async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		this.slept.push(ms);
		if (signal?.aborted) throw aborted();
		if (ms >= this.holdFrom) {
			await new Promise<void>((resolve, reject) => {
				const entry = {
					ms,
					pass: () => {
						signal?.removeEventListener('abort', onAbort);
						resolve();
					},
				};
				const onAbort = () => {
					const at = this.held.indexOf(entry);
					if (at >= 0) this.held.splice(at, 1);
					reject(aborted());
				};
				signal?.addEventListener('abort', onAbort, { once: true });
				this.held.push(entry);
			});
		} else {
			// a turn of the event loop, so a loop of sleeps cannot starve everything else
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (signal?.aborted) throw aborted();
		}
		this.now += ms;
	}
}

/**
 * A fake clock for every test of a file: installed before each test (at `start`, a fresh one each
 * time) and uninstalled after it. Read it through the returned getter.
 */
export function useFakeClock(start: number = NOW_MS): () => FakeClock {
	let current: FakeClock | undefined;
	beforeEach(() => {
		current = new FakeClock(start).install();
	});
	afterEach(() => {
		current?.uninstall();
		current = undefined;
	});
	return () => {
		if (!current) throw new Error('the fake clock is installed only while a test runs');
		return current;
	};
}
