/**
 * n8n queue mode, the restarts run: main restarts (about 10 s and 70 s down, and a 10-minute
 * outage on the simulated clock) while live collection runs (test/queue/queueRun.ts says what
 * each proves).
 */
import { defineQueueRun } from './queueRun';

defineQueueRun('restarts');
