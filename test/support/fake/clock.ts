/**
 * The node's clock for the unit tier (nodes/SentiOne/shared/time.ts `setClock`): frozen at
 * test/support/time.ts NOW, so the 7-day window, "in the future" and the rate-limit resets are the
 * same on every run, and a wait for an hourly reset moves the clock at once instead of taking real
 * time. (With a simulator, test/support/simClock.ts moves both clocks together.)
 */
import { setClock } from '../../../nodes/SentiOne/shared/time';
import { NOW_MS } from '../time';

export class FakeClock {
	now: number;

	/** every wait the node asked for, in ms */
	slept: number[] = [];

	private restore: (() => void) | undefined;

	constructor(private readonly start = NOW_MS) {
		this.now = start;
	}

	install(): void {
		this.restore = setClock({
			now: () => this.now,
			sleep: async (ms: number, signal?: AbortSignal) => {
				if (signal?.aborted) throw new Error('The operation was aborted');
				this.slept.push(ms);
				this.now += ms;
			},
		});
	}

	uninstall(): void {
		this.restore?.();
		this.restore = undefined;
	}

	reset(): void {
		this.now = this.start;
		this.slept = [];
	}
}

/** A FakeClock installed before every test of the file (reset to its start) and removed after it. */
export function useFakeClock(start = NOW_MS): FakeClock {
	const clock = new FakeClock(start);
	beforeEach(() => {
		clock.reset();
		clock.install();
	});
	afterEach(() => clock.uninstall());
	return clock;
}
