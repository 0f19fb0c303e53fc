/**
 * The SentiOne Stream Trigger's entry: its parameters and the trigger() n8n calls on activation.
 * Which file holds which behaviour: ARCHITECTURE.md, "Where each behaviour lives".
 */
export { streamProperties } from './streamDescription';
export { startStreamTrigger } from './streamTrigger';
