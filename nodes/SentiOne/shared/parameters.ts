/**
 * Reading parameters the way every node of the package does: values may come from expressions, so
 * each is checked for its type and range, and a refusal names the parameter and what was expected
 * (nothing is sent to SentiOne first). One reader per kind of value — text, number, boolean, choice,
 * project ID — and one wording for a refused value: `<Parameter>: "<value>" is not valid. Expected …`.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { declareFailure, FAILURES, redact } from './errors';

/**
 * Bad input found before any request was sent: names the parameter and what was expected, and
 * declares the configuration the cause (someone has to correct it).
 */
export function invalidParameter(
	node: INode,
	parameter: string,
	problem: string,
	itemIndex?: number,
): NodeOperationError {
	const error = new NodeOperationError(node, `${parameter}: ${redact(problem)}`, {
		itemIndex,
		description: 'Nothing was sent to SentiOne, so no request budget was used.',
	});
	return declareFailure(error, FAILURES.configurationInvalid());
}

/** A value as a refusal quotes it: short, one line. */
function shown(value: unknown): string {
	let text: string;
	try {
		text =
			typeof value === 'string' || typeof value === 'number'
				? String(value)
				: (JSON.stringify(value) ?? String(value));
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

/** The refusal of a value that is not what the parameter takes. */
function notValid(
	node: INode,
	parameter: string,
	value: unknown,
	expected: string,
	itemIndex?: number,
): NodeOperationError {
	return invalidParameter(
		node,
		parameter,
		`"${shown(value)}" is not valid. Expected ${expected}.`,
		itemIndex,
	);
}

export interface NumberRange {
	min: number;
	/** none: no upper bound */
	max?: number;
	/** false: fractions are taken too (default: whole numbers only) */
	whole?: boolean;
}

/**
 * A number in a range. Numbers and numeric text are accepted (empty text, as a cleared field gives
 * it, reads as 0); anything else — a fraction where a whole number is expected, a list, an object,
 * text that is not a number, NaN, Infinity — is refused.
 */
export function readNumber(
	value: unknown,
	node: INode,
	parameter: string,
	range: NumberRange,
	itemIndex?: number,
): number {
	const { min, max, whole = true } = range;
	const n =
		typeof value === 'number'
			? value
			: typeof value === 'string' || value === undefined || value === null
				? Number(String(value ?? '').trim())
				: NaN;
	if (
		!Number.isFinite(n) ||
		(whole && !Number.isInteger(n)) ||
		n < min ||
		(max !== undefined && n > max)
	) {
		const kind = whole ? 'a whole number' : 'a number';
		const bounds = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
		throw notValid(node, parameter, value, `${kind} ${bounds}`, itemIndex);
	}
	return n;
}

/** A number of the Options collection: `options[name]`, or `fallback` when it is not set. */
export function readNumberOption(
	options: IDataObject,
	name: string,
	fallback: number,
	node: INode,
	label: string,
	range: NumberRange,
	itemIndex?: number,
): number {
	return readNumber(options[name] ?? fallback, node, `Options → ${label}`, range, itemIndex);
}

/**
 * A switch. A boolean, or the text "true" / "false" an expression may give; nothing (the parameter
 * is not set) is `fallback`; anything else is refused rather than taken for true or false.
 */
export function readBoolean(
	value: unknown,
	node: INode,
	parameter: string,
	fallback: boolean,
	itemIndex?: number,
): boolean {
	if (value === undefined || value === null) return fallback;
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true') return true;
	if (text === 'false') return false;
	throw notValid(node, parameter, value, 'true or false', itemIndex);
}

/**
 * Text (trimmed). A number is taken as its digits (an ID from an expression); a list, an object or
 * a boolean is refused rather than silently joined or stringified.
 */
export function readText(
	value: unknown,
	node: INode,
	parameter: string,
	itemIndex?: number,
): string {
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

/**
 * A value of an options parameter (it may come from an expression): one of `allowed`, or an error
 * naming the parameter — never silently the default.
 */
export function readChoice<T extends string>(
	value: unknown,
	allowed: readonly T[],
	node: INode,
	parameter: string,
	itemIndex?: number,
	what = 'a choice',
): T {
	const text = String(value ?? '');
	if (!(allowed as readonly string[]).includes(text)) {
		throw invalidParameter(
			node,
			parameter,
			`"${text}" is not ${what}. Expected one of: ${allowed.join(', ')}.`,
			itemIndex,
		);
	}
	return text as T;
}

/** A project ID from a resource locator or an expression: a positive whole number. */
export function parseProjectId(
	value: unknown,
	node: INode,
	itemIndex?: number,
	parameter = 'Project',
): number {
	const raw =
		value && typeof value === 'object' && 'value' in (value as IDataObject)
			? (value as IDataObject).value
			: value;
	const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (text === '') {
		throw invalidParameter(
			node,
			parameter,
			'no project is selected. Choose one from the list or enter its ID.',
			itemIndex,
		);
	}
	if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
		throw invalidParameter(
			node,
			parameter,
			`"${text}" is not a project ID. Expected a positive whole number such as 1001.`,
			itemIndex,
		);
	}
	return Number(text);
}
