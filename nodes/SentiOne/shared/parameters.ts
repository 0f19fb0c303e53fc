/**
 * Reading parameters the way every node of the package does: values may come from expressions, so
 * each is checked for its type and range, and a refusal names the parameter and what was expected
 * (nothing is sent to SentiOne first).
 */
import type { INode } from 'n8n-workflow';

import { invalidParameter } from './errors';

function shown(value: unknown): string {
	let text: string;
	try {
		text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	} catch {
		text = String(value);
	}
	return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A whole number from `min` to `max`. Numbers and numeric text are accepted; anything else (a
 * fraction, a list, an object, text that is not a number) is refused.
 */
export function readWholeNumber(
	value: unknown,
	node: INode,
	parameter: string,
	min: number,
	max: number,
	itemIndex?: number,
): number {
	const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
	if (
		(typeof value === 'string' && value.trim() === '') ||
		!Number.isFinite(n) ||
		!Number.isInteger(n) ||
		n < min ||
		n > max
	) {
		throw invalidParameter(
			node,
			parameter,
			`"${shown(value)}" is not valid. Expected a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`,
			itemIndex,
		);
	}
	return n;
}

/**
 * Text (trimmed). A number is taken as its digits (an ID from an expression); a list, an object or
 * a boolean is refused rather than silently joined or stringified.
 */
export function readText(value: unknown, node: INode, parameter: string, itemIndex?: number): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalidParameter(
		node,
		parameter,
		`expected text, got ${kindOf(value)} (${shown(value)}). If an expression gives a list, pick one element, e.g. {{ $json.items[0] }}.`,
		itemIndex,
	);
}
