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
