/**
 * The block of docs/triggers.md that is not a part: `delivery`, the last run of
 * test/e2e/delivery.test.ts (test/.results/delivery.json): the live Slack template with Mark
 * Delivered When = Execution Succeeded through an outage of Slack, and the same workflow left at
 * Emitted beside it. The parts `trigger-poll` and `trigger-stream` are shown as any part is.
 */
'use strict';

const { when } = require('./parts');

function delivery(ctx) {
	const f = ctx.results.json('delivery.json');
	if (!f) return undefined;
	const control = f.controlEmitted ?? {};
	return [
		`Measured by \`npx jest test/e2e/delivery.test.ts\`, last run ${when(f.runAt)} (n8n ${f.n8n}, clock ×${f.timeLapse}, ${f.realSeconds} s of real time).`,
		'',
		`- Slack down for ${f.outageMinutes} simulated minutes; ${f.collected} negative mentions collected, ${f.collectedDuringOutage} of them during the outage; ${f.failuresInjected} messages refused with 503.`,
		`- **Execution Succeeded**: ${f.failedExecutions} executions failed, ${f.successfulExecutions} succeeded; ${f.delivered} messages in Slack: **${f.lost} lost, ${f.duplicated} twice**; the last arrived ${f.lastArrivedMinutesAfterRecovery} simulated minutes after Slack recovered.`,
		`- **Emitted** (the control, same n8n, same workflow): ${control.failedExecutions} executions failed; ${control.delivered} messages in Slack: **${control.lost} lost**, ${control.duplicated} twice.`,
	].join('\n');
}

module.exports = {
	BLOCKS: {
		delivery: {
			render: delivery,
			reads: 'delivery.json',
			how: 'test/.results/delivery.json is written by test/e2e/delivery.test.ts',
		},
	},
};
