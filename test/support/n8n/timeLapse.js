/**
 * Preloaded (`NODE_OPTIONS=--require <this file>`) into a real n8n and into the simulator by the
 * budget-share test (test/e2e/budget.test.ts; delivery.test.ts too, and demo.test.ts into
 * `gulp demo` and all it starts but n8n's task runner, which n8n gives an environment of its own),
 * so that a simulated hour of n8n's default schedule passes in a few real minutes: both processes
 * read the same sped-up wall clock, and every timer waits the same factor less. A cron "every
 * minute" then fires every 60/factor real seconds and finds the minute has passed; the simulator's
 * hourly budget windows follow the same clock.
 *
 * `SENTIONE_TIME_LAPSE` is JSON `{ "realOrigin": ms, "fakeOrigin": ms, "factor": n }`; the clock
 * reads `fakeOrigin + (real - realOrigin) * factor`. The test process computes the same formula
 * (`lapsedNow` below, exported for it), so all three agree on "now" to the millisecond.
 *
 * What moves: `Date.now()`, `new Date()` without arguments, `Date()`; `setTimeout`/`setInterval`
 * (global, `node:timers`, `node:timers/promises`) wait `delay / factor`. What does not: dates built
 * from a value, `performance.now()`, `process.hrtime`, and timers inside Node's own C++ (sockets'
 * idle timeouts, `AbortSignal.timeout`) — they run in real time, which only makes them more
 * patient. Test code: never shipped.
 */
'use strict';

function parse(text) {
	if (!text) return undefined;
	const v = JSON.parse(text);
	if (
		![v.realOrigin, v.fakeOrigin, v.factor].every(
			(n) => typeof n === 'number' && Number.isFinite(n),
		) ||
		v.factor < 1
	) {
		throw new Error(
			`SENTIONE_TIME_LAPSE: expected {"realOrigin","fakeOrigin","factor"≥1}, got ${text}`,
		);
	}
	return v;
}

/** The lapsed clock at the real instant `real`. */
function lapsedNow(lapse, real) {
	return Math.round(lapse.fakeOrigin + (real - lapse.realOrigin) * lapse.factor);
}

module.exports = { lapsedNow, parse };

const lapse = parse(process.env.SENTIONE_TIME_LAPSE);
if (lapse && require.main !== module) install(lapse);

function install({ factor, ...origin }) {
	const RealDate = Date;
	const realNow = RealDate.now.bind(RealDate);
	const now = () => lapsedNow({ factor, ...origin }, realNow());
	RealDate.now = now;
	globalThis.Date = new Proxy(RealDate, {
		construct(target, args, newTarget) {
			return Reflect.construct(
				target,
				args.length === 0 ? [now()] : args,
				newTarget === globalThis.Date ? target : newTarget,
			);
		},
		apply() {
			return new RealDate(now()).toString();
		},
	});

	const timers = require('node:timers');
	const shorten = (delay) => {
		const ms = Number(delay);
		return Number.isFinite(ms) && ms > 0 ? ms / factor : delay;
	};
	const { setTimeout: realSetTimeout, setInterval: realSetInterval } = timers;
	const lapsedSetTimeout = (fn, delay, ...args) => realSetTimeout(fn, shorten(delay), ...args);
	const lapsedSetInterval = (fn, delay, ...args) => realSetInterval(fn, shorten(delay), ...args);
	// util.promisify(setTimeout) keeps working through the original's custom promisified form
	lapsedSetTimeout[require('node:util').promisify.custom] = (delay, value, options) =>
		require('node:timers/promises').setTimeout(delay, value, options);
	globalThis.setTimeout = timers.setTimeout = lapsedSetTimeout;
	globalThis.setInterval = timers.setInterval = lapsedSetInterval;

	const promises = require('node:timers/promises');
	const realPromiseTimeout = promises.setTimeout;
	const realPromiseInterval = promises.setInterval;
	promises.setTimeout = (delay, ...rest) => realPromiseTimeout(shorten(delay), ...rest);
	promises.setInterval = (delay, ...rest) => realPromiseInterval(shorten(delay), ...rest);

	process.stderr.write(`[time-lapse] clock ×${factor} from ${new RealDate(now()).toISOString()}\n`);
}
