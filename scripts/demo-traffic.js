/**
 * The demo's traffic, through the simulator's admin API (simulator/README.md, "Live collection"):
 * the past hours collected at start by moving the simulator's clock to now, and bursts of negative
 * mentions staged on top of the daily pattern. Used by the gulpfile (`gulp demo`, `gulp spike`)
 * and the end-to-end tests of the alert templates. Plain CommonJS, no dependencies.
 */
'use strict';

/** The simulator's admin API (simulator/README.md): JSON in, JSON out; a refusal throws its message. */
async function admin(base, route, body) {
	const response = await fetch(
		`${base}/__admin${route}`,
		body === undefined
			? {}
			: {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				},
	);
	const json = await response.json();
	if (!response.ok)
		throw new Error(`simulator ${route}: ${response.status} ${JSON.stringify(json)}`);
	return json;
}

/**
 * Moves the clock of a simulator started with `--now <the past> --clock frozen` to now and lets it
 * run: the simulator collects the time in between minute by minute on its live shape (a second,
 * small move catches up the time the first one took).
 */
async function catchUp(base) {
	for (const frozen of [true, false]) {
		const { now } = await admin(base, '/health');
		await admin(base, '/clock', { advanceMs: Math.max(0, Date.now() - Date.parse(now)), frozen });
	}
}

/**
 * Stages a burst of negative mentions of a project in a running simulator: starting `inMinutes`
 * from its now and lasting `minutes`, the project collects about `perMinute` mentions a minute
 * (whatever the hour's usual rate: the factor is worked out from the simulator's expected counts),
 * `negative` of them negative. Bursts already staged stay. Resolves with the burst as the
 * simulator took it and the usual rate it multiplies.
 */
async function stageBurst(
	base,
	{ projectId, inMinutes = 0, minutes = 15, perMinute = 8, negative = 0.8 },
) {
	const now = Date.parse((await admin(base, '/health')).now);
	const at = now + inMinutes * 60_000;
	const span = `from=${new Date(at).toISOString()}&to=${new Date(at + minutes * 60_000).toISOString()}`;
	const { expected } = await admin(
		base,
		`/live/expected?${span}&bucketMinutes=${minutes}&projectId=${projectId}`,
	);
	const usualPerMinute = expected / minutes;
	const factor = Math.max(2, Math.ceil(perMinute / Math.max(usualPerMinute, 0.05)));
	const { bursts } = await admin(base, '/live');
	const burst = {
		at: new Date(at).toISOString(),
		minutes,
		factor,
		projectId,
		sentiment: { Negative: negative },
		label: 'negative burst',
	};
	const live = await admin(base, '/live', { bursts: [...bursts, burst] });
	return { burst: live.bursts.at(-1), usualPerMinute };
}

/**
 * Makes the newest mention of a project (collected in the last hour) go viral in a running
 * simulator: from now on, for `minutes`, it gains `perMinute` likes and shares each minute
 * (SentiOne's engagement updates). Resolves with the mention's id and its growth.
 */
async function stageViral(
	base,
	{ projectId, minutes = 30, perMinute = { likeCount: 120, shareCount: 40 } },
) {
	const now = Date.parse((await admin(base, '/health')).now);
	const { mentions } = await admin(
		base,
		`/mentions?projectId=${projectId}&collectedFrom=${new Date(now - 3_600_000).toISOString()}`,
	);
	const mention = mentions.at(-1);
	if (!mention) throw new Error(`project ${projectId} collected no mention in the last hour`);
	const { viral } = await admin(base, '/engagement', {
		viral: [{ mentionId: mention.id, minutes, perMinute }],
	});
	return { mentionId: mention.id, growth: viral.find((v) => v.mentionId === mention.id) };
}

module.exports = { admin, catchUp, stageBurst, stageViral };
