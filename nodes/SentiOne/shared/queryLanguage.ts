/**
 * Local check of the Listen query language (D-15, D-16, D-44), so a query SentiOne would refuse
 * never spends a search request: terms, "exact phrases", AND / OR / NOT (upper case), parentheses,
 * implicit AND between neighbours, and a trailing * after at least 4 characters.
 */
import { QUERY_MAX_LENGTH, WILDCARD_MIN_PREFIX } from './contract';

type Token =
	| { kind: 'open' | 'close'; at: number }
	| { kind: 'op'; op: 'AND' | 'OR' | 'NOT'; at: number }
	| { kind: 'term' | 'phrase'; text: string; at: number };

function tokenize(query: string): Token[] | string {
	const tokens: Token[] = [];
	let i = 0;
	while (i < query.length) {
		const c = query[i];
		if (/\s/.test(c)) {
			i++;
		} else if (c === '(') {
			tokens.push({ kind: 'open', at: i++ });
		} else if (c === ')') {
			tokens.push({ kind: 'close', at: i++ });
		} else if (c === '"') {
			const end = query.indexOf('"', i + 1);
			if (end < 0) return `the quote opened at position ${i + 1} is never closed`;
			const text = query.slice(i + 1, end);
			if (text.trim() === '') return `the phrase at position ${i + 1} is empty`;
			tokens.push({ kind: 'phrase', text, at: i });
			i = end + 1;
		} else {
			let j = i;
			while (j < query.length && !/[\s()"]/.test(query[j])) j++;
			const text = query.slice(i, j);
			if (text === 'AND' || text === 'OR' || text === 'NOT') {
				tokens.push({ kind: 'op', op: text, at: i });
			} else {
				const star = text.indexOf('*');
				if (star >= 0 && star !== text.length - 1) {
					return `"${text}" at position ${i + 1}: a * may only end a term`;
				}
				if (star >= 0 && text.length - 1 < WILDCARD_MIN_PREFIX) {
					return `"${text}" at position ${i + 1}: a wildcard needs at least ${WILDCARD_MIN_PREFIX} characters before the *`;
				}
				tokens.push({ kind: 'term', text, at: i });
			}
			i = j;
		}
	}
	return tokens;
}

/** Returns undefined for a valid query, or what is wrong with it. */
export function checkQuery(query: string): string | undefined {
	if (query.trim() === '') return 'the query is empty';
	if (query.length > QUERY_MAX_LENGTH) {
		return `the query is ${query.length} characters long; SentiOne accepts at most ${QUERY_MAX_LENGTH}`;
	}
	const tokens = tokenize(query);
	if (typeof tokens === 'string') return tokens;
	let pos = 0;
	const describe = (t: Token | undefined) =>
		t === undefined
			? 'the end of the query'
			: t.kind === 'op'
				? `${t.op} at position ${t.at + 1}`
				: t.kind === 'open'
					? `"(" at position ${t.at + 1}`
					: t.kind === 'close'
						? `")" at position ${t.at + 1}`
						: `"${(t as { text: string }).text}" at position ${t.at + 1}`;
	const startsOperand = (t: Token | undefined) =>
		t !== undefined &&
		(t.kind === 'term' ||
			t.kind === 'phrase' ||
			t.kind === 'open' ||
			(t.kind === 'op' && t.op === 'NOT'));

	// Recursive descent over: or := and (OR and)* ; and := unary ((AND)? unary)* ; unary := NOT unary | primary
	const parseOr = (): string | undefined => {
		const left = parseAnd();
		if (left) return left;
		while (tokens[pos]?.kind === 'op' && (tokens[pos] as { op: string }).op === 'OR') {
			const op = tokens[pos++];
			if (!startsOperand(tokens[pos]))
				return `${describe(op)} has nothing after it (found ${describe(tokens[pos])})`;
			const right = parseAnd();
			if (right) return right;
		}
		return undefined;
	};
	const parseAnd = (): string | undefined => {
		const first = parseUnary();
		if (first) return first;
		for (;;) {
			const t = tokens[pos];
			if (t?.kind === 'op' && t.op === 'AND') {
				pos++;
				if (!startsOperand(tokens[pos]))
					return `${describe(t)} has nothing after it (found ${describe(tokens[pos])})`;
			} else if (!startsOperand(t)) {
				return undefined;
			}
			const next = parseUnary();
			if (next) return next;
		}
	};
	const parseUnary = (): string | undefined => {
		const t = tokens[pos];
		if (t?.kind === 'op' && t.op === 'NOT') {
			pos++;
			if (!startsOperand(tokens[pos]))
				return `${describe(t)} has nothing after it (found ${describe(tokens[pos])})`;
			return parseUnary();
		}
		return parsePrimary();
	};
	const parsePrimary = (): string | undefined => {
		const t = tokens[pos];
		if (t === undefined) return 'the query ends where a term was expected';
		if (t.kind === 'term' || t.kind === 'phrase') {
			pos++;
			return undefined;
		}
		if (t.kind === 'open') {
			pos++;
			if (tokens[pos]?.kind === 'close') return `the parentheses at position ${t.at + 1} are empty`;
			const inner = parseOr();
			if (inner) return inner;
			if (tokens[pos]?.kind !== 'close') {
				return tokens[pos] === undefined
					? `the "(" at position ${t.at + 1} is never closed`
					: `expected ")" for the "(" at position ${t.at + 1}, found ${describe(tokens[pos])}`;
			}
			pos++;
			return undefined;
		}
		if (t.kind === 'close') return `${describe(t)} closes nothing`;
		return `${describe(t)} has nothing before it`;
	};

	const problem = parseOr();
	if (problem) return problem;
	if (pos < tokens.length) {
		const t = tokens[pos];
		return t.kind === 'close' ? `${describe(t)} closes nothing` : `unexpected ${describe(t)}`;
	}
	return undefined;
}
