/**
 * Preloaded into one n8n process (`NODE_OPTIONS=--require <this file>`) by the queue-mode tier to
 * stand for a long outage of n8n main without waiting for it: the process reads the wall clock
 * `SENTIONE_CLOCK_OFFSET_MS` ahead of the machine's. The simulator's clock is moved forward by the
 * same amount (`POST /__admin/clock {advanceMs}`) while main is down, so main and SentiOne agree
 * again on "now", and 10 simulated minutes lie between main's stop and its start.
 *
 * Only the wall clock moves: `Date.now()` and `new Date()` without arguments. Timers,
 * `performance.now()` and every date built from a value stay as they are, `instanceof Date`
 * still holds, and nothing else in the process changes. Test code: never shipped.
 */
'use strict';

const offset = Number(process.env.SENTIONE_CLOCK_OFFSET_MS || 0);

if (Number.isFinite(offset) && offset !== 0) {
	const RealDate = Date;
	const realNow = RealDate.now.bind(RealDate);
	RealDate.now = () => realNow() + offset;
	// one line in the process' log: the test checks that main really started with the moved clock
	process.stderr.write(
		`[shifted-clock] wall clock ${offset > 0 ? '+' : ''}${offset} ms: ${new RealDate(realNow() + offset).toISOString()}\n`,
	);
	globalThis.Date = new Proxy(RealDate, {
		construct(target, args, newTarget) {
			return Reflect.construct(
				target,
				args.length === 0 ? [realNow() + offset] : args,
				newTarget === globalThis.Date ? target : newTarget,
			);
		},
		apply() {
			// `Date()` called as a function returns the current time as text
			return new RealDate(realNow() + offset).toString();
		},
	});
}
