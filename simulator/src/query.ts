// The query language (D-15, D-16): terms, "exact phrases", AND, OR, NOT (upper case only),
// parentheses, suffix wildcard term* (prefix at least 4 characters). Adjacent terms mean AND;
// NOT binds tighter than AND, AND tighter than OR. Matching is case-insensitive on whole words
// of content.text and content.title.

import { QUERY_MAX_LENGTH, WILDCARD_MIN_PREFIX } from './constants.ts';

export type QueryNode =
	| { kind: 'seq'; words: string[]; prefix: boolean; source: string }
	| { kind: 'and'; left: QueryNode; right: QueryNode }
	| { kind: 'or'; left: QueryNode; right: QueryNode }
	| { kind: 'not'; operand: QueryNode };

export type ParseResult = { ok: true; ast: QueryNode } | { ok: false; error: string };

type Token =
	| { t: '(' | ')' | 'AND' | 'OR' | 'NOT'; pos: number }
	| { t: 'term'; pos: number; text: string }
	| { t: 'phrase'; pos: number; text: string };

class QueryError extends Error {}

const WORD = /[\p{L}\p{N}]+/gu;

/** Split text into lower-case words (letters and digits). */
export function words(text: string | null | undefined): string[] {
	if (!text) return [];
	return text.toLowerCase().match(WORD) ?? [];
}

function lex(q: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < q.length) {
		const c = q[i];
		if (/\s/.test(c)) {
			i++;
		} else if (c === '(' || c === ')') {
			tokens.push({ t: c, pos: i });
			i++;
		} else if (c === '"') {
			const end = q.indexOf('"', i + 1);
			if (end < 0) throw new QueryError(`unterminated quote starting at position ${i + 1}.`);
			const text = q.slice(i + 1, end);
			if (text.trim() === '') throw new QueryError(`empty phrase "" at position ${i + 1}.`);
			tokens.push({ t: 'phrase', pos: i, text });
			i = end + 1;
		} else {
			let j = i;
			while (j < q.length && !/[\s()"]/.test(q[j])) j++;
			const text = q.slice(i, j);
			if (text === 'AND' || text === 'OR' || text === 'NOT') {
				tokens.push({ t: text, pos: i });
			} else {
				const star = text.indexOf('*');
				if (star >= 0 && star !== text.length - 1) {
					throw new QueryError(`"*" is allowed only at the end of a term (got "${text}").`);
				}
				if (star >= 0 && star < WILDCARD_MIN_PREFIX) {
					throw new QueryError(
						`wildcard "${text}" needs a prefix of at least ${WILDCARD_MIN_PREFIX} characters before "*".`,
					);
				}
				tokens.push({ t: 'term', pos: i, text });
			}
			i = j;
		}
	}
	return tokens;
}

class Parser {
	private i = 0;
	private readonly tokens: Token[];

	constructor(tokens: Token[]) {
		this.tokens = tokens;
	}

	parse(): QueryNode {
		const node = this.parseOr();
		const extra = this.tokens[this.i];
		if (extra) {
			if (extra.t === ')') {
				throw new QueryError(
					`unbalanced parentheses: unexpected ")" at position ${extra.pos + 1}.`,
				);
			}
			throw new QueryError(`unexpected "${extra.t}" at position ${extra.pos + 1}.`);
		}
		return node;
	}

	private peek(): Token | undefined {
		return this.tokens[this.i];
	}

	private startsOperand(tok: Token | undefined): boolean {
		return !!tok && (tok.t === 'term' || tok.t === 'phrase' || tok.t === '(' || tok.t === 'NOT');
	}

	private parseOr(): QueryNode {
		let left = this.parseAnd();
		for (;;) {
			if (this.peek()?.t !== 'OR') return left;
			this.i++;
			if (!this.startsOperand(this.peek())) {
				throw new QueryError('operator OR is missing its right operand.');
			}
			left = { kind: 'or', left, right: this.parseAnd() };
		}
	}

	private parseAnd(): QueryNode {
		let left = this.parseUnary();
		for (;;) {
			const tok = this.peek();
			if (tok?.t === 'AND') {
				this.i++;
				if (!this.startsOperand(this.peek())) {
					throw new QueryError('operator AND is missing its right operand.');
				}
				left = { kind: 'and', left, right: this.parseUnary() };
			} else if (this.startsOperand(tok)) {
				left = { kind: 'and', left, right: this.parseUnary() };
			} else {
				return left;
			}
		}
	}

	private parseUnary(): QueryNode {
		if (this.peek()?.t === 'NOT') {
			this.i++;
			if (!this.startsOperand(this.peek())) {
				throw new QueryError('operator NOT is missing its operand.');
			}
			return { kind: 'not', operand: this.parseUnary() };
		}
		return this.parsePrimary();
	}

	private parsePrimary(): QueryNode {
		const tok = this.peek();
		if (!tok) throw new QueryError('the query ends where a term was expected.');
		if (tok.t === 'AND' || tok.t === 'OR') {
			throw new QueryError(`operator ${tok.t} is missing its left operand.`);
		}
		if (tok.t === ')') {
			throw new QueryError(`unbalanced parentheses: unexpected ")" at position ${tok.pos + 1}.`);
		}
		this.i++;
		if (tok.t === '(') {
			if (this.peek()?.t === ')')
				throw new QueryError(`empty parentheses at position ${tok.pos + 1}.`);
			const inner = this.parseOr();
			if (this.peek()?.t !== ')') {
				throw new QueryError(
					`unbalanced parentheses: "(" at position ${tok.pos + 1} is never closed.`,
				);
			}
			this.i++;
			return inner;
		}
		if (tok.t === 'phrase') {
			return { kind: 'seq', words: words(tok.text), prefix: false, source: `"${tok.text}"` };
		}
		if (tok.t === 'term') {
			const prefix = tok.text.endsWith('*');
			return {
				kind: 'seq',
				words: words(prefix ? tok.text.slice(0, -1) : tok.text),
				prefix,
				source: tok.text,
			};
		}
		throw new QueryError(`unexpected "${tok.t}".`);
	}
}

function rethrowQuery(err: unknown): never {
	throw err;
}

/** Parse and validate a query. The error text is the message reported on the field path (422). */
export function parseQuery(q: string): ParseResult {
	if (q.trim() === '') return { ok: false, error: 'must not be empty.' };
	if (q.length > QUERY_MAX_LENGTH) {
		return {
			ok: false,
			error: `must be at most ${QUERY_MAX_LENGTH} characters long (got ${q.length}).`,
		};
	}
	try {
		return { ok: true, ast: new Parser(lex(q)).parse() };
	} catch (err) {
		if (!(err instanceof QueryError)) return rethrowQuery(err);
		return { ok: false, error: `invalid query: ${err.message}` };
	}
}

/** A mention as the query sees it: the words of each searchable field. */
export interface QueryDoc {
	fields: string[][];
	sets: Array<Set<string>>;
}

export function makeDoc(texts: Array<string | null | undefined>): QueryDoc {
	const fields = texts.map(words);
	return { fields, sets: fields.map((f) => new Set(f)) };
}

function seqMatches(node: { words: string[]; prefix: boolean }, doc: QueryDoc): boolean {
	const n = node.words.length;
	if (n === 0) return false;
	if (n === 1 && !node.prefix) return doc.sets.some((s) => s.has(node.words[0]));
	for (const field of doc.fields) {
		for (let i = 0; i + n <= field.length; i++) {
			let ok = true;
			for (let j = 0; j < n; j++) {
				const w = field[i + j];
				const q = node.words[j];
				const hit = j === n - 1 && node.prefix ? w.startsWith(q) : w === q;
				if (!hit) {
					ok = false;
					break;
				}
			}
			if (ok) return true;
		}
	}
	return false;
}

export function evaluate(node: QueryNode, doc: QueryDoc): boolean {
	switch (node.kind) {
		case 'seq':
			return seqMatches(node, doc);
		case 'and':
			return evaluate(node.left, doc) && evaluate(node.right, doc);
		case 'or':
			return evaluate(node.left, doc) || evaluate(node.right, doc);
		case 'not':
			return !evaluate(node.operand, doc);
	}
}

/** Phrases that satisfy the positive side of a query (used to write texts that match a project). */
export function positiveKeywords(node: QueryNode, negated = false): string[] {
	switch (node.kind) {
		case 'seq':
			return negated || node.words.length === 0 ? [] : [node.words.join(' ')];
		case 'and':
		case 'or':
			return [...positiveKeywords(node.left, negated), ...positiveKeywords(node.right, negated)];
		case 'not':
			return positiveKeywords(node.operand, !negated);
	}
}
