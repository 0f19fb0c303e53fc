/**
 * The one error mapper: every failure of a SentiOne request becomes a NodeApiError (the API
 * answered: httpErrors.ts) or an error that says why there is no answer to use (connectionErrors.ts),
 * whose message says what happened and what to do, and which declares why it failed for n8n
 * (failure.ts); details.ts holds what callers read back and the redaction every text from outside
 * goes through.
 */
export type { RateLimitState, RequestInfo, ResponseInfo, SentiOneErrorDetails } from './details';
export { asNodeError, errorDetails, redact } from './details';
export type { Failure, FailureCause } from './failure';
export { declareFailure, failureOf, FAILURES } from './failure';
export { describeBody, mapHttpError, refusedDates, tierKnownRefused } from './httpErrors';
export {
	credentialProblem,
	mapNetworkError,
	redirectRefused,
	streamInterrupted,
	unusableAnswer,
} from './connectionErrors';
