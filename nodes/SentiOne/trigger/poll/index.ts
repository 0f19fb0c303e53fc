/**
 * The SentiOne Trigger's entry: its parameters and the poll n8n calls on each Poll Times tick.
 * Which file holds which behaviour: ARCHITECTURE.md, "Where each behaviour lives".
 */
export { pollProperties } from './pollDescription';
export { pollNewMentions } from './pollMentions';
export { oneCheckAtATime } from './oneCheckAtATime';
