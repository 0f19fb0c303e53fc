/**
 * A simulator with a frozen clock and the node's clock (nodes/SentiOne/shared/clock.ts `setClock`)
 * pinned to it: the simulator's seeded data, rate-limit windows and 7-day window are the same on
 * every run, and "wait until the hourly reset" is an instant jump of both clocks
 * (POST /__admin/clock) instead of a real wait of up to an hour.
 */
import { serverClock, setClock } from '../../nodes/SentiOne/shared/clock';
import { admin, clearLog, resetSim, startSim, type Sim } from './simulator';
import { HOUR, NOW_MS } from './time';

/**
 * The node's clock, pinned to the simulator's frozen clock; sleeping moves both. With a skew the
 * node's clock stands that far behind the simulator's (negative: ahead): SentiOne's clock and
 * n8n's differ by it, as they may in the field (D-50).
 */
export class SimClock {
	now = NOW_MS;
	/** every wait the node asked for, in ms */
	slept: number[] = [];
	private restore: (() => void) | undefined;

	constructor(
		private readonly sim: Sim,
		private skewMs = 0,
	) {
		this.now = NOW_MS - skewMs;
	}

	/**
	 * Sets how far SentiOne's clock is ahead of the node's (ms; negative: behind) from now on, and
	 * makes the node forget what SentiOne's answers told it of its clock (a new n8n process).
	 */
	skew(ms: number): void {
		this.now += this.skewMs - ms;
		this.skewMs = ms;
		serverClock.reset();
	}

	install(): void {
		serverClock.reset();
		this.restore = setClock({
			now: () => this.now,
			sleep: async (ms: number) => {
				this.slept.push(ms);
				await this.advance(ms);
			},
		});
	}

	/** Sets the simulator's clock to `ms` (POST /__admin/clock) and the node's with it. */
	async setTo(ms: number): Promise<void> {
		this.now = ms - this.skewMs;
		await admin(this.sim, 'POST', '/clock', { now: new Date(ms).toISOString() });
	}

	/** Moves the node's clock and the simulator's together */
	async advance(ms: number): Promise<void> {
		this.now += ms;
		await admin(this.sim, 'POST', '/clock', { advanceMs: ms });
	}

	/**
	 * Moves both clocks to a second past the next top of the hour, so that each clock hour from
	 * there is one window of the simulator's hourly budget.
	 */
	async toNextHour(): Promise<void> {
		await this.advance(Math.ceil(this.now / HOUR) * HOUR - this.now + 1000);
	}

	uninstall(): void {
		this.restore?.();
		this.restore = undefined;
	}

	reset(): void {
		this.now = NOW_MS - this.skewMs;
		this.slept = [];
		serverClock.reset();
	}
}

/**
 * The simulator of a test file: started with `flags` before its tests (the node's clock pinned to
 * it), reset before every test (`reset: 'log'`: only its request log is cleared) and stopped after
 * them. `use` receives the simulator and the clock once they exist.
 */
export function useSimulator(
	flags: string[],
	use: (sim: Sim, clock: SimClock) => void,
	options: { reset?: 'all' | 'log' | 'none' } = {},
): void {
	let sim: Sim | undefined;
	let clock: SimClock | undefined;
	beforeAll(async () => {
		sim = await startSim(flags);
		clock = new SimClock(sim);
		clock.install();
		use(sim, clock);
	});
	afterAll(async () => {
		clock?.uninstall();
		await sim?.stop();
	});
	beforeEach(async () => {
		if (options.reset === 'none') return;
		if (options.reset === 'log') await clearLog(sim!);
		else await resetSim(sim!, clock);
	});
}
