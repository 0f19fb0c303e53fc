/**
 * The local check of the Listen query language (nodes/SentiOne/shared/queryLanguage.ts, decisions
 * D-15, D-16 and D-44 of docs/api-contract.md): what it accepts, what it refuses, and the exact
 * words and 1-based positions of each refusal (they reach the user in the node's error). Every
 * expected message and position is written out by hand from the query.
 */
import { checkQuery } from '../../../nodes/SentiOne/shared/queryLanguage';

describe('valid queries', () => {
	test.each([
		['one term', 'acme'],
		['neighbours (an implicit AND)', 'acme corp'],
		['an exact phrase', '"acme corp"'],
		['AND', 'acme AND corp'],
		['OR', 'acme OR corp'],
		['NOT at the start', 'NOT spam'],
		['NOT after a term (an implicit AND)', 'acme NOT spam'],
		['NOT twice', 'NOT NOT acme'],
		['AND NOT', 'acme AND NOT spam'],
		['parentheses', '(acme OR "acme corp") AND NOT (spam OR scam)'],
		['nested parentheses', '((acme))'],
		['a phrase next to parentheses, no space', '"acme"(corp)'],
		['lower-case and/or/not are ordinary words', 'acme and corp or not'],
		['an operator inside a phrase is text', '"AND" "OR" "NOT"'],
		['a * inside a phrase is literal', '"ac*me"'],
		['a wildcard after exactly 4 characters', 'acme*'],
		['a wildcard after more', 'brand* OR product*'],
		['punctuation inside a term', 'e-commerce'],
		['tabs and new lines between tokens', 'acme\tAND\ncorp'],
		['letters outside ASCII', 'zażółć gęślą jaźń'],
		['exactly 250 characters', 'a'.repeat(250)],
	])('%s: %s', (_what, query) => {
		expect(checkQuery(query)).toBeUndefined();
	});
});

describe('refused queries, with the problem and where it is', () => {
	test.each([
		// empty or too long (checked first)
		['empty', '', 'the query is empty'],
		['only spaces', '  \t ', 'the query is empty'],
		[
			'251 characters',
			'a'.repeat(251),
			'the query is 251 characters long; SentiOne accepts at most 250',
		],
		[
			'251 characters of anything (length before syntax)',
			'"'.repeat(251),
			'the query is 251 characters long; SentiOne accepts at most 250',
		],
		// quotes
		['a quote never closed', '"acme', 'the quote opened at position 1 is never closed'],
		['a quote never closed, later', 'acme "corp', 'the quote opened at position 6 is never closed'],
		['an empty phrase', 'acme ""', 'the phrase at position 6 is empty'],
		['a phrase of spaces', '"   "', 'the phrase at position 1 is empty'],
		// wildcards
		['a * inside a term', 'ac*me', '"ac*me" at position 1: a * may only end a term'],
		['a * inside a later term', 'x a*b', '"a*b" at position 3: a * may only end a term'],
		['two stars', 'acme**', '"acme**" at position 1: a * may only end a term'],
		[
			'a wildcard after 3 characters',
			'acm*',
			'"acm*" at position 1: a wildcard needs at least 4 characters before the *',
		],
		[
			'a bare *',
			'acme *',
			'"*" at position 6: a wildcard needs at least 4 characters before the *',
		],
		// operators without operands
		[
			'AND at the end',
			'acme AND',
			'AND at position 6 has nothing after it (found the end of the query)',
		],
		[
			'OR at the end',
			'acme OR',
			'OR at position 6 has nothing after it (found the end of the query)',
		],
		['NOT alone', 'NOT', 'NOT at position 1 has nothing after it (found the end of the query)'],
		['AND at the start', 'AND acme', 'AND at position 1 has nothing before it'],
		['OR at the start', 'OR acme', 'OR at position 1 has nothing before it'],
		[
			'AND OR',
			'acme AND OR corp',
			'AND at position 6 has nothing after it (found OR at position 10)',
		],
		[
			'OR before a closing parenthesis',
			'(acme OR )',
			'OR at position 7 has nothing after it (found ")" at position 10)',
		],
		[
			'NOT before OR',
			'acme NOT OR corp',
			'NOT at position 6 has nothing after it (found OR at position 10)',
		],
		[
			'an operator at the end inside parentheses',
			'(acme "corp" OR',
			'OR at position 14 has nothing after it (found the end of the query)',
		],
		// parentheses
		['empty parentheses', '()', 'the parentheses at position 1 are empty'],
		['empty parentheses, later', 'acme AND ( )', 'the parentheses at position 10 are empty'],
		['a parenthesis never closed', '(acme', 'the "(" at position 1 is never closed'],
		['the outer of two never closed', '((acme) OR corp', 'the "(" at position 1 is never closed'],
		['a closing parenthesis alone', ')', '")" at position 1 closes nothing'],
		['a closing parenthesis too many', '(acme) corp)', '")" at position 12 closes nothing'],
		// positions count characters, letters outside ASCII included
		[
			'a position after Polish letters',
			'zażółć ac*me',
			'"ac*me" at position 8: a * may only end a term',
		],
		// the first problem from the left is the one reported; quotes and wildcards before syntax
		[
			'a quote problem reported before an operator problem',
			'AND "acme',
			'the quote opened at position 5 is never closed',
		],
		[
			'the leftmost wildcard problem',
			'ab* cd*',
			'"ab*" at position 1: a wildcard needs at least 4 characters before the *',
		],
	])('%s: %j', (_what, query, problem) => {
		expect(checkQuery(query)).toBe(problem);
	});
});
