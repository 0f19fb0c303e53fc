/**
 * What every mapped error carries besides its words: the facts a caller reads back (status, kind of
 * 429, reset, field errors, how a stream ended, a refused tier), kept on the error itself. Also the
 * one redaction every text from outside goes through before it reaches a message, so an API key can
 * never travel into an execution, a log or an error workflow.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { EndpointGroup, EndpointName, RateLimitKind, Tier } from '../contract';
import { KEY_IN_TEXT } from '../contract';
import { declareFailure, failureOf } from './failure';

/** Removes anything shaped like an API key from a text that came from outside. */
export function redact(text: string): string {
	return text.replace(KEY_IN_TEXT, '[redacted API key]');
}

export interface RateLimitState {
	group: EndpointGroup;
	limit?: number;
	remaining?: number;
	/** epoch milliseconds */
	resetAt?: number;
	/** when the headers were read (epoch milliseconds, the node's clock) */
	readAt?: number;
}

export interface ResponseInfo {
	statusCode: number;
	/** parsed JSON when the body was JSON, else the raw text (possibly cut) */
	body: unknown;
	contentType?: string;
	rateLimit?: RateLimitState;
}

/** The request a message speaks of. */
export interface RequestInfo {
	/** the endpoint of the contract's table, when the caller named it */
	endpoint?: EndpointName;
	method: string;
	path: string;
	group: EndpointGroup;
	/** the tier the endpoint needs (D-06), for 401 wording */
	tier: Tier;
	itemIndex?: number;
	/** the workflow's time zone, for the instants in messages */
	zone?: string;
}

/** Extra facts a caller can read back from a mapped error. */
export interface SentiOneErrorDetails {
	statusCode?: number;
	rateLimitKind?: RateLimitKind;
	/** epoch ms when the hourly window resets, when known */
	resetAt?: number;
	fieldErrors?: Record<string, string[]>;
	/** set on errors of a stream that ended other than by a normal close */
	streamInterrupted?: 'dropped' | 'stalled' | 'deadline' | 'oversize';
	/** set when a 404/405 came from a route the specification only announces */
	routeMaybeAbsent?: boolean;
	/** set when SentiOne refused the key the tier of the endpoint */
	tierRefused?: Tier;
}

const DETAILS = Symbol('sentioneErrorDetails');

export function errorDetails(error: unknown): SentiOneErrorDetails | undefined {
	if (error && typeof error === 'object' && DETAILS in error) {
		return (error as { [DETAILS]: SentiOneErrorDetails })[DETAILS];
	}
	return undefined;
}

export function attach<T extends object>(error: T, details: SentiOneErrorDetails): T {
	Object.defineProperty(error, DETAILS, { value: details, enumerable: false });
	return error;
}

/**
 * Passes node errors through unchanged and wraps anything else, so nothing raw reaches n8n; a
 * wrapped error keeps the failure it declared (failure.ts), and declares none of its own.
 */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const message = redact(String((error as { message?: unknown })?.message ?? error));
	return declareFailure(new NodeOperationError(node, message, { itemIndex }), failureOf(error));
}
