// From vocabulary to words: sentence templates filled in, the templates a project may use, what
// a project's mentions talk about, and the hashtags, handles and slugs made from names. Nothing
// here draws a random number; every result is cached by its input (templates, names and queries
// are few, mentions are many).

import type { Project } from '../types.ts';
import { GENERIC_COMMUNITIES, GENERIC_TOPICS, PROJECT_TEMPLATES, type Communities, type Topics } from './brands.ts';
import { TEXTS, type TextLanguage } from './languages.ts';

const compiled = new Map<string, string[]>();

/** Fill {placeholders}; templates are split once (even indexes literal, odd indexes names). */
export function fill(template: string, vars: Record<string, string>): string {
	let parts = compiled.get(template);
	if (!parts) {
		parts = template.split(/\{(\w+)\}/);
		compiled.set(template, parts);
	}
	let out = '';
	for (let i = 0; i < parts.length; i++) out += i % 2 ? (vars[parts[i]] ?? '') : parts[i];
	return out;
}

const hashtags = new Map<string, string>();
export function hashtag(kw: string): string {
	let h = hashtags.get(kw);
	if (h === undefined) {
		h = '#' + kw.replace(/[^\p{L}\p{N}]+/gu, '');
		hashtags.set(kw, h);
	}
	return h;
}

interface ProjectText {
	handle: string;
	slug: string;
}
const projectTexts = new Map<string, ProjectText>();
export function projectText(name: string): ProjectText {
	let t = projectTexts.get(name);
	if (!t) {
		t = {
			handle: name.replace(/[^A-Za-z0-9]+/g, ''),
			slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
		};
		projectTexts.set(name, t);
	}
	return t;
}

/** What a project's mentions talk about, and where. */
export interface ProjectProfile {
	/** The names people write (empty: the project's keywords). */
	names: string[];
	competitor: string | null;
	topics: Topics;
	communities: Communities;
}
const profiles = new Map<string, ProjectProfile>();
/**
 * A project's profile: its template's, found by the query (a renamed project or a numbered repeat
 * keeps it); a project created through the API talks about what any brand has.
 */
export function projectProfile(project: Project): ProjectProfile {
	let p = profiles.get(project.query);
	if (!p) {
		const t = PROJECT_TEMPLATES.find((x) => x.query === project.query);
		p = t
			? { names: t.names, competitor: t.competitor, topics: t.topics, communities: t.communities }
			: { names: [], competitor: null, topics: GENERIC_TOPICS, communities: GENERIC_COMMUNITIES };
		profiles.set(project.query, p);
	}
	return p;
}

export interface TemplatePools {
	any: string[];
	negative: string[];
	titles: string[];
}
/** Each language's templates, with and without the ones naming a competitor (none for API projects). */
const POOLS = (withCompetitor: boolean): Record<TextLanguage, TemplatePools> => {
	const keep = (list: string[]) => (withCompetitor ? list : list.filter((t) => !t.includes('{competitor}')));
	return Object.fromEntries(
		(Object.keys(TEXTS) as TextLanguage[]).map((code) => {
			const t = TEXTS[code];
			return [code, { any: keep(t.templates), negative: keep([...t.templates, ...t.negative]), titles: keep(t.titles) }];
		}),
	) as Record<TextLanguage, TemplatePools>;
};
const POOLS_WITH_COMPETITOR = POOLS(true);
const POOLS_WITHOUT_COMPETITOR = POOLS(false);

const handles = new Map<string, string>();
/** A social handle from a person's name: letters without diacritics, the rest `_`. */
export function handleBase(name: string): string {
	let h = handles.get(name);
	if (h === undefined) {
		h = name
			.normalize('NFD')
			.replace(/[\u0300-\u036f]/g, '')
			.replace(/ł/g, 'l')
			.replace(/Ł/g, 'L')
			.toLowerCase()
			.replace(/[^a-z]+/g, '_');
		handles.set(name, h);
	}
	return h;
}

/** The templates a project's mentions use in a language (none naming a competitor for API projects). */
export function templatePools(profile: ProjectProfile, language: TextLanguage): TemplatePools {
	return (profile.competitor ? POOLS_WITH_COMPETITOR : POOLS_WITHOUT_COMPETITOR)[language];
}
