/**
 * n8n queue mode, the throughput run: bursts of mentions with one worker and with two, then a
 * worker stopping while executions flow (test/queue/queueRun.ts says what each proves).
 */
import { defineQueueRun } from './queueRun';

defineQueueRun('throughput');
