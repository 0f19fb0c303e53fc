// The server's clock (D-36). Starts at --now, runs with real time unless frozen; tests move it
// through the admin API.

export class Clock {
	private baseSim: number;
	private baseReal: number;
	private frozenFlag: boolean;

	constructor(startMs: number, frozen: boolean) {
		this.baseSim = startMs;
		this.baseReal = Date.now();
		this.frozenFlag = frozen;
	}

	now(): number {
		return this.frozenFlag ? this.baseSim : this.baseSim + (Date.now() - this.baseReal);
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	get frozen(): boolean {
		return this.frozenFlag;
	}

	set(ms: number): void {
		this.baseSim = ms;
		this.baseReal = Date.now();
	}

	advance(ms: number): void {
		this.set(this.now() + ms);
	}

	setFrozen(frozen: boolean): void {
		const now = this.now();
		this.frozenFlag = frozen;
		this.set(now);
	}
}
