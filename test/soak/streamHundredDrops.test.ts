/**
 * The live stream soak (`npm run test:soak`): 100 connection drops at random byte offsets,
 * with stalls, malformed and unknown events, legacy heartbeats and tiny write chunks mixed in,
 * against the real stream budget (5 connections an hour): 0 lost, 0 duplicated, at most 5
 * connections in any simulated hour. See streamScenario.ts for how the scenario and its clocks work.
 */
import { runStreamScenario } from '../support/streamScenario';

jest.setTimeout(900_000);

test('100 drops at random byte offsets, stalls, malformed events, legacy heartbeats (SSE): 0 lost, 0 duplicated, at most 5 connections a simulated hour', async () => {
	await runStreamScenario({
		drops: 100,
		seed: 20261122,
		format: 'sse',
		malformed: true,
		part: 'stream-soak',
		title: 'SentiOne Stream Trigger (soak)',
		command: 'npm run test:soak',
	});
});
