// From vocabulary to words: sentence templates filled in, the templates a project may use, what
// a project's mentions talk about, and the hashtags, handles and slugs made from names. Nothing
// here draws a random number; every result is cached by its input (templates, names and queries
// are few, mentions are many).

import type { Project } from '../types.ts';
import {
	GENERIC_COMMUNITIES,
	GENERIC_TOPICS,
	PROJECT_TEMPLATES,
	type Communities,
	type Topics,
} from './brands.ts';
import { TEXTS, type TextLanguage } from './languages.ts';

/** `f`, computed once per distinct argument. */
function memoize<A, R>(f: (arg: A) => R): (arg: A) => R {
	const cache = new Map<A, R>();
	return (arg) => {
		let value = cache.get(arg);
		if (value === undefined) {
			value = f(arg);
			cache.set(arg, value);
		}
		return value;
	};
}

/** A template split once: even indexes literal, odd indexes placeholder names. */
const templateParts = memoize((template: string) => template.split(/\{(\w+)\}/));

/** Fill {placeholders} (an unknown one becomes empty). */
export function fill(template: string, vars: Record<string, string>): string {
	const parts = templateParts(template);
	let out = '';
	for (let i = 0; i < parts.length; i++) out += i % 2 ? (vars[parts[i]] ?? '') : parts[i];
	return out;
}

export const hashtag = memoize((kw: string) => '#' + kw.replace(/[^\p{L}\p{N}]+/gu, ''));

/** A project's name as a brand handle (`AcmeMobile`) and as a URL slug (`acme-mobile`). */
export const projectText = memoize((name: string) => ({
	handle: name.replace(/[^A-Za-z0-9]+/g, ''),
	slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
}));

/** A social handle from a person's name: letters without diacritics, the rest `_`. */
export const handleBase = memoize((name: string) =>
	name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ł/g, 'l')
		.replace(/Ł/g, 'L')
		.toLowerCase()
		.replace(/[^a-z]+/g, '_'),
);

/** What a project's mentions talk about, and where. */
export interface ProjectProfile {
	/** The names people write (empty: the project's keywords). */
	names: string[];
	competitor: string | null;
	topics: Topics;
	communities: Communities;
}

const profileOfQuery = memoize((query: string): ProjectProfile => {
	const t = PROJECT_TEMPLATES.find((x) => x.query === query);
	return t
		? { names: t.names, competitor: t.competitor, topics: t.topics, communities: t.communities }
		: { names: [], competitor: null, topics: GENERIC_TOPICS, communities: GENERIC_COMMUNITIES };
});

/**
 * A project's profile: its template's, found by the query (a renamed project or a numbered repeat
 * keeps it); a project created through the API talks about what any brand has.
 */
export function projectProfile(project: Project): ProjectProfile {
	return profileOfQuery(project.query);
}

export interface TemplatePools {
	any: string[];
	negative: string[];
	titles: string[];
}

/** Each language's templates, with or without the ones naming a competitor. */
function pools(withCompetitor: boolean): Record<TextLanguage, TemplatePools> {
	const keep = (list: string[]) =>
		withCompetitor ? list : list.filter((t) => !t.includes('{competitor}'));
	return Object.fromEntries(
		(Object.keys(TEXTS) as TextLanguage[]).map((code) => {
			const t = TEXTS[code];
			return [
				code,
				{
					any: keep(t.templates),
					negative: keep([...t.templates, ...t.negative]),
					titles: keep(t.titles),
				},
			];
		}),
	) as Record<TextLanguage, TemplatePools>;
}
const POOLS_WITH_COMPETITOR = pools(true);
const POOLS_WITHOUT_COMPETITOR = pools(false);

/** The templates a project's mentions use in a language (none naming a competitor for API projects). */
export function templatePools(profile: ProjectProfile, language: TextLanguage): TemplatePools {
	return (profile.competitor ? POOLS_WITH_COMPETITOR : POOLS_WITHOUT_COMPETITOR)[language];
}
