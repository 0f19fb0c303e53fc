/**
 * A sped-up clock for n8n and the simulator together (timeLapse.js preloaded in both processes):
 * the lapsed now as they read it, and the environment that preloads it.
 */

/** Real `realOrigin` (ms) is lapsed `fakeOrigin`; from there the lapsed clock runs `factor` × faster. */
export interface Lapse {
	realOrigin: number;
	fakeOrigin: number;
	factor: number;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const preloaded = require('./timeLapse.js') as {
	lapsedNow(lapse: Lapse, real: number): number;
};

export interface TimeLapse {
	/** the lapsed clock now, as n8n and the simulator read it */
	now: () => number;
	/** the environment of a process that runs on the lapsed clock */
	env: { NODE_OPTIONS: string; SENTIONE_TIME_LAPSE: string };
}

export function timeLapse(lapse: Lapse): TimeLapse {
	return {
		now: () => preloaded.lapsedNow(lapse, Date.now()),
		env: {
			NODE_OPTIONS: `--require ${require.resolve('./timeLapse.js')}`,
			SENTIONE_TIME_LAPSE: JSON.stringify(lapse),
		},
	};
}
