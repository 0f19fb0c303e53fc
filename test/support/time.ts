/**
 * Time in tests: units, the instant the simulator's frozen clock starts at, and real time.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Where a simulator started with a frozen clock stands (startSim's default). */
export const NOW = '2026-11-21T10:30:00.000Z';
export const NOW_MS = Date.parse(NOW);

/** An instant in epoch ms as ISO 8601 in UTC, as SentiOne's dates read. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Real time in epoch ms, whatever a test does to Date.now (a fake clock, a jump). */
export const realNow = (): number => performance.timeOrigin + performance.now();

/**
 * The wait a run that started at `startedAt` may report when it waits "until the reset, + 1 s":
 * at most from the run's start to the reset (on its whole second, as the header carries it) + 1 s;
 * at least that less `answerMs`, the time the answer that carried the reset may take to arrive on
 * a loaded machine; never below `floorMs` (the transport's shortest wait after a 429). Bounds from
 * the run's own start, not from when the test chose the reset: the setup between the two (a ground
 * truth, a script) takes a second or more on a busy machine.
 */
export function resetWaitBounds(o: {
	resetAt: number;
	startedAt: number;
	floorMs?: number;
	answerMs?: number;
}): { min: number; max: number } {
	const floor = o.floorMs ?? 0;
	const untilReset = (resetAt: number) => resetAt + SECOND - o.startedAt;
	return {
		min: Math.max(floor, untilReset(o.resetAt) - (o.answerMs ?? 2 * SECOND)),
		max: Math.max(floor, untilReset(Math.ceil(o.resetAt / SECOND) * SECOND)) + 20,
	};
}
