// Seeded generator of realistic projects and mentions, and the in-memory store that holds them.

import {
	SORT_TYPES,
	type MentionType,
	type Sentiment,
	type SourceType,
	type SortType,
} from './constants.ts';
import { Rng, deriveSeed } from './prng.ts';
import { parseQuery, positiveKeywords } from './query.ts';
import { comparator, insertSorted, METRIC_SORTS, refreshKeys } from './sorting.ts';
import type { Attachment, EngagementMetrics, Location, Mention, Project, Rec, Source } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Vocabulary

interface ProjectTemplate {
	name: string;
	query: string;
	keywords: string[];
	competitor: string;
}

const PROJECT_TEMPLATES: ProjectTemplate[] = [
	{
		name: 'Acme Mobile',
		query: '"acme mobile" OR acme OR acmephone*',
		keywords: ['Acme', 'Acme Mobile', 'AcmePhone', 'AcmePhone 12', 'acmephones'],
		competitor: 'Globex',
	},
	{
		name: 'Nordic Coffee Roasters',
		query: '"nordic coffee" OR nordicbrew* OR (nordic AND (espresso OR roast))',
		keywords: ['Nordic Coffee', 'NordicBrew', 'Nordic espresso', 'nordic coffee roasters'],
		competitor: 'Bean & Co',
	},
	{
		name: 'Vistula Bank',
		query: '"vistula bank" OR vistulabank OR (vistula AND (loan OR mortgage OR account))',
		keywords: ['Vistula Bank', 'VistulaBank', 'Vistula mortgage', 'Vistula account'],
		competitor: 'Baltic Credit',
	},
	{
		name: 'Orbit Airlines',
		query: '"orbit airlines" OR orbitair* NOT "orbit gum"',
		keywords: ['Orbit Airlines', 'OrbitAir', 'orbitair lounge'],
		competitor: 'SkyJet',
	},
	{
		name: 'GreenCart Delivery',
		query: 'greencart OR "green cart"',
		keywords: ['GreenCart', 'Green Cart', 'greencart courier'],
		competitor: 'QuickBasket',
	},
	{
		name: 'Helios Energy',
		query: '"helios energy" OR heliossolar OR (helios AND (solar OR tariff))',
		keywords: ['Helios Energy', 'HeliosSolar', 'Helios solar', 'Helios tariff'],
		competitor: 'Volta Power',
	},
];

const TOPICS = [
	'customer service',
	'battery life',
	'delivery time',
	'mobile app',
	'price increase',
	'new update',
	'loyalty program',
	'support team',
	'return policy',
	'online store',
	'checkout',
	'website',
	'subscription',
	'packaging',
];

const OPINIONS: Record<'Positive' | 'Negative' | 'Neutral', string[]> = {
	Positive: [
		'is absolutely great',
		'works like a charm',
		'made my day',
		'exceeded my expectations',
		'is worth every penny',
		'got so much better',
		'is the best I have used',
	],
	Negative: [
		'is a total disaster',
		'keeps crashing',
		'is way too expensive',
		'let me down again',
		'was terrible today',
		'still has not been fixed',
		'is a nightmare',
	],
	Neutral: [
		'was announced today',
		'is now available in more stores',
		'changed its pricing',
		'got a small update',
		'is being discussed on the forum',
		'will be presented next week',
	],
};

const TEMPLATES_EN = [
	'{kw} {topic} {opinion}.',
	'Has anyone tried the {topic} from {kw}? Mine {opinion}.',
	'Honestly, the {kw} {topic} {opinion}. {tag}',
	'Update on {kw}: the {topic} {opinion}, according to {outlet}.',
	'@{handle} your {topic} {opinion} {tag}',
	'Comparing {kw} with {competitor}: the {topic} {opinion}.',
	'Third day in a row and the {topic} at {kw} {opinion}. Customer service please reply!',
	'My friend says the {kw} {topic} {opinion}, I am not so sure.',
];

const LOCALIZED: Record<string, { templates: string[]; topics: string[]; opinions: Record<string, string[]> }> = {
	pl: {
		templates: ['{kw}: {topic} {opinion}.', 'Czy ktoś korzystał z {kw}? U mnie {topic} {opinion}.'],
		topics: ['obsługa klienta', 'czas dostawy', 'aplikacja mobilna', 'cena', 'infolinia'],
		opinions: {
			Positive: ['jest świetna', 'działa bez zarzutu', 'bardzo mi pomogła'],
			Negative: ['to porażka', 'znowu nie działa', 'jest za droga'],
			Neutral: ['bez zmian', 'została zmieniona', 'jest opisana na stronie'],
		},
	},
	de: {
		templates: ['{kw}: {topic} {opinion}.', 'Hat jemand Erfahrung mit {kw}? Bei mir {topic} {opinion}.'],
		topics: ['der Kundenservice', 'die Lieferzeit', 'die App', 'der Preis'],
		opinions: {
			Positive: ['ist super', 'funktioniert perfekt', 'ist echt gut'],
			Negative: ['ist eine Katastrophe', 'stürzt ständig ab', 'ist viel zu teuer'],
			Neutral: ['wurde heute angekündigt', 'ist jetzt verfügbar', 'wurde geändert'],
		},
	},
	fr: {
		templates: ['{kw} : {topic} {opinion}.', 'Quelqu’un a testé {kw} ? Chez moi {topic} {opinion}.'],
		topics: ['le service client', 'le délai de livraison', "l'application", 'le prix'],
		opinions: {
			Positive: ['est génial', 'fonctionne parfaitement', 'est top'],
			Negative: ['est une catastrophe', 'plante sans arrêt', 'est beaucoup trop cher'],
			Neutral: ['a été annoncé aujourd’hui', 'est disponible', 'a changé'],
		},
	},
	es: {
		templates: ['{kw}: {topic} {opinion}.', '¿Alguien probó {kw}? En mi caso {topic} {opinion}.'],
		topics: ['el servicio al cliente', 'el tiempo de entrega', 'la aplicación', 'el precio'],
		opinions: {
			Positive: ['es genial', 'funciona perfecto', 'me encanta'],
			Negative: ['es un desastre', 'no funciona', 'es carísimo'],
			Neutral: ['fue anunciado hoy', 'ya está disponible', 'cambió'],
		},
	},
};

const TITLES = [
	'Review: {kw} after two weeks',
	'{kw} announces a new {topic}',
	'Why everyone is talking about the {kw} {topic}',
	'{kw} vs {competitor}: which one to pick',
	'What the {kw} {topic} means for customers',
	'Hands-on with {kw}',
];

const PARENT_TEXTS = [
	'What do you think about the new {kw} {topic}?',
	'Is it just me or is the {kw} {topic} different lately?',
	'{kw} just posted an update about their {topic}.',
];

const OUTLETS = ['TechDaily', 'the Morning Post', 'City Herald', 'MarketWatchers', 'Gadget Review'];
const FIRST = ['Anna', 'Jan', 'Maria', 'Piotr', 'John', 'Emma', 'Lukas', 'Sofia', 'Liam', 'Olga', 'Marco', 'Chloé', 'Ahmed', 'Priya', 'Noah', 'Zofia', 'Kasia', 'Tom', 'Lea', 'Diego'];
const LAST = ['Kowalska', 'Nowak', 'Smith', 'Müller', 'Rossi', 'García', 'Dubois', 'Jansen', 'Svensson', 'Shevchenko', 'Silva', 'Patel', 'Brown', 'Wiśniewski', 'Lopez', 'Novak'];
const TAG_NAMES = ['complaint', 'lead', 'press', 'vip', 'follow-up', 'crisis', 'praise'];
const SUBREDDITS = ['technology', 'Android', 'poland', 'europe', 'personalfinance', 'coffee', 'travel'];
const NEWS_SITES = ['techdaily.com', 'morningpost.co.uk', 'cityherald.com', 'marketwatchers.net', 'gadgetreview.de'];
const FORUMS = ['forum.gsmspot.com', 'community.homebrewers.net', 'forum.money-talk.pl', 'flyertalk-like.example.com'];
const BLOGS = ['annareviews', 'techwithtom', 'kawa-i-ja', 'the-frequent-flyer'];
const REVIEW_SITES = ['www.trustpilot.com', 'www.opineo.pl', 'www.tripadvisor.com', 'play.google.com'];

const SOURCE_WEIGHTS: Array<readonly [SourceType, number]> = [
	['Facebook', 18],
	['X', 16],
	['Websites', 14],
	['Instagram', 10],
	['Reddit', 7],
	['Forums', 6],
	['Blogs', 6],
	['TikTok', 6],
	['Video', 6],
	['Reviews', 5],
	['Other', 4],
	['Imported', 2],
];

const TYPE_BY_SOURCE: Record<SourceType, Array<readonly [MentionType, number]>> = {
	Facebook: [['Post', 35], ['Comment', 45], ['Share', 10], ['PrivateMessage', 10]],
	X: [['Post', 55], ['Comment', 25], ['Share', 15], ['PrivateMessage', 5]],
	Instagram: [['Post', 45], ['Comment', 45], ['PrivateMessage', 10]],
	TikTok: [['Post', 50], ['Comment', 50]],
	Reddit: [['Post', 35], ['Comment', 65]],
	Forums: [['Post', 40], ['Comment', 60]],
	Websites: [['Article', 85], ['Comment', 15]],
	Blogs: [['Article', 80], ['Comment', 20]],
	Reviews: [['Post', 100]],
	Video: [['Post', 60], ['Comment', 40]],
	Imported: [['Post', 30], ['Comment', 30], ['Article', 20], ['Share', 10], ['PrivateMessage', 10]],
	Other: [['Post', 40], ['Article', 30], ['Comment', 30]],
};

const GENDER_WEIGHTS = [
	['Male', 40],
	['Female', 40],
	['Unspecified', 20],
] as const;

const SENTIMENT_WEIGHTS: Array<readonly [Sentiment, number]> = [
	['Positive', 30],
	['Negative', 25],
	['Neutral', 40],
	['Unspecified', 5],
];

const LANGUAGE_WEIGHTS: Array<readonly [string | null, number]> = [
	['en', 38],
	['pl', 15],
	['de', 8],
	['en-gb', 6],
	['fr', 6],
	['es', 6],
	['it', 4],
	['pt', 4],
	['nl', 3],
	['sv', 2],
	['uk', 2],
	[null, 4],
];

const COUNTRY_BY_LANGUAGE: Record<string, string[]> = {
	en: ['US', 'US', 'GB', 'IN', 'CA', 'AU'],
	'en-gb': ['GB'],
	pl: ['PL'],
	de: ['DE', 'DE', 'AT'],
	fr: ['FR'],
	es: ['ES', 'ES', 'US'],
	it: ['IT'],
	pt: ['BR', 'BR', 'PT'],
	nl: ['NL'],
	sv: ['SE'],
	uk: ['UA'],
};
const ALL_COUNTRIES = ['PL', 'US', 'GB', 'DE', 'FR', 'ES', 'IT', 'BR', 'IN', 'NL', 'SE', 'UA'];

const CITIES: Record<string, Array<[string, string, number, number]>> = {
	PL: [['Mazowieckie', 'Warszawa', 52.2297, 21.0122], ['Pomorskie', 'Gdańsk', 54.352, 18.6466], ['Małopolskie', 'Kraków', 50.0647, 19.945]],
	US: [['New York', 'New York', 40.7128, -74.006], ['California', 'San Francisco', 37.7749, -122.4194], ['Texas', 'Austin', 30.2672, -97.7431]],
	GB: [['England', 'London', 51.5072, -0.1276], ['Scotland', 'Edinburgh', 55.9533, -3.1883]],
	DE: [['Berlin', 'Berlin', 52.52, 13.405], ['Bayern', 'München', 48.1351, 11.582]],
	FR: [['Île-de-France', 'Paris', 48.8566, 2.3522]],
	ES: [['Madrid', 'Madrid', 40.4168, -3.7038]],
	IT: [['Lazio', 'Roma', 41.9028, 12.4964]],
	BR: [['São Paulo', 'São Paulo', -23.5505, -46.6333]],
	IN: [['Karnataka', 'Bengaluru', 12.9716, 77.5946]],
};

// ---------------------------------------------------------------------------------------------
// Generator

const DAY = 24 * 3600 * 1000;

const compiled = new Map<string, string[]>();

/** Fill {placeholders}; templates are split once (even indexes literal, odd indexes names). */
function fill(template: string, vars: Record<string, string>): string {
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
function hashtag(kw: string): string {
	let h = hashtags.get(kw);
	if (h === undefined) {
		h = '#' + kw.replace(/[^\p{L}\p{N}]+/gu, '');
		hashtags.set(kw, h);
	}
	return h;
}

interface ProjectText {
	competitor: string;
	handle: string;
	slug: string;
}
const projectTexts = new Map<string, ProjectText>();
function projectText(name: string): ProjectText {
	let t = projectTexts.get(name);
	if (!t) {
		t = {
			competitor: PROJECT_TEMPLATES.find((x) => name.startsWith(x.name))?.competitor ?? 'a competitor',
			handle: name.replace(/[^A-Za-z0-9]+/g, ''),
			slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
		};
		projectTexts.set(name, t);
	}
	return t;
}

export class MentionFactory {
	private readonly rng: Rng;
	private readonly ids: Set<string>;

	constructor(rng: Rng, ids: Set<string>) {
		this.rng = rng;
		this.ids = ids;
	}

	private newId(): string {
		for (;;) {
			const id = this.rng.hex(24);
			if (!this.ids.has(id)) {
				this.ids.add(id);
				return id;
			}
		}
	}

	private personName(): string {
		return `${this.rng.pick(FIRST)} ${this.rng.pick(LAST)}`;
	}

	private handle(name: string): string {
		return name.toLowerCase().replace(/[^a-z]+/g, '_') + this.rng.int(1, 999);
	}

	private source(type: SourceType, project: Project, author: string): Source {
		const r = this.rng;
		const { slug, handle: page } = projectText(project.name);
		switch (type) {
			case 'Facebook':
				return {
					socialChannel: { id: r.digits(15), name: r.chance(0.6) ? `${project.name}` : `${project.name} Fans` },
					mentionUrl: `https://www.facebook.com/${page}/posts/${r.digits(16)}`,
					type,
				};
			case 'X': {
				const h = this.handle(author);
				return {
					socialChannel: { id: r.digits(18), name: `@${h}` },
					mentionUrl: `https://x.com/${h}/status/${r.digits(19)}`,
					type,
				};
			}
			case 'Instagram':
				return {
					socialChannel: { id: r.digits(11), name: this.handle(author) },
					mentionUrl: `https://www.instagram.com/p/${r.alnum(11)}/`,
					type,
				};
			case 'TikTok': {
				const h = this.handle(author);
				return {
					socialChannel: { id: r.digits(19), name: `@${h}` },
					mentionUrl: `https://www.tiktok.com/@${h}/video/${r.digits(19)}`,
					type,
				};
			}
			case 'Reddit': {
				const sub = r.pick(SUBREDDITS);
				return {
					socialChannel: { id: `t5_${r.hex(6)}`, name: `r/${sub}` },
					mentionUrl: `https://www.reddit.com/r/${sub}/comments/${r.hex(7)}/${slug}/`,
					type,
				};
			}
			case 'Forums': {
				const site = r.pick(FORUMS);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://${site}/thread/${r.int(1000, 999999)}-${slug}`,
					type,
				};
			}
			case 'Websites': {
				const site = r.pick(NEWS_SITES);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://www.${site}/${r.pick(['business', 'tech', 'news', 'money'])}/${slug}-${r.hex(6)}`,
					type,
				};
			}
			case 'Blogs': {
				const b = r.pick(BLOGS);
				return {
					socialChannel: { id: null, name: b },
					mentionUrl: `https://${b}.blogspot.com/2026/${String(r.int(1, 12)).padStart(2, '0')}/${slug}.html`,
					type,
				};
			}
			case 'Reviews': {
				const site = r.pick(REVIEW_SITES);
				return {
					socialChannel: { id: null, name: site },
					mentionUrl: `https://${site}/review/${slug}?r=${r.hex(8)}`,
					type,
				};
			}
			case 'Video':
				return {
					socialChannel: { id: `UC${r.alnum(22)}`, name: `${this.rng.pick(FIRST)} Reviews` },
					mentionUrl: `https://www.youtube.com/watch?v=${r.alnum(11)}`,
					type,
				};
			case 'Imported':
				return {
					socialChannel: { id: null, name: null },
					mentionUrl: `https://import.sentione.com/item/${r.hex(16)}`,
					type,
				};
			default:
				return {
					socialChannel: { id: null, name: r.chance(0.5) ? null : 'misc-site.net' },
					mentionUrl: `https://misc-site.net/${slug}/${r.int(1, 99999)}`,
					type,
				};
		}
	}

	private metrics(type: SourceType): EngagementMetrics {
		const r = this.rng;
		const count = (median: number, pNull: number): number | null =>
			r.chance(pNull) ? null : Math.max(0, Math.round(r.logNormal(median, 1.4)));
		const video = type === 'Video' || type === 'TikTok';
		const em: EngagementMetrics = {
			influenceScore: r.chance(0.15) ? null : r.int(1, 10),
			engagementRate: r.chance(0.25) ? null : Math.round(r.next() * 0.2 * 10000) / 10000,
			sourceMetrics: {
				common: {
					likeCount: count(12, 0.1),
					shareCount: count(2, 0.25),
					commentCount: count(3, 0.2),
					viewCount: video ? count(5000, 0.05) : count(200, 0.6),
				},
				facebook: null,
				newsAggregators: null,
				twitter: null,
			},
		};
		if (type === 'Facebook') {
			const c = () => Math.round(r.logNormal(3, 1.2));
			em.sourceMetrics.facebook = {
				likeCount: c(),
				loveCount: c(),
				hahaCount: c(),
				wowCount: c(),
				sadCount: c(),
				angryCount: c(),
			};
		}
		if (type === 'X') {
			em.sourceMetrics.twitter = {
				retweetsCount: Math.round(r.logNormal(2, 1.3)),
				favouritesCount: Math.round(r.logNormal(10, 1.3)),
			};
		}
		if (type === 'Websites' && r.chance(0.3)) {
			em.sourceMetrics.newsAggregators = {
				digsCount: r.int(0, 80),
				burrowsCount: r.int(0, 30),
			};
		}
		return em;
	}

	private location(language: string | null): Location | null | undefined {
		const r = this.rng;
		const roll = r.next();
		if (roll < 0.2) return undefined;
		if (roll < 0.25) return null;
		const country = r.chance(0.1)
			? null
			: r.pick(language && COUNTRY_BY_LANGUAGE[language] ? COUNTRY_BY_LANGUAGE[language] : ALL_COUNTRIES);
		const place = country && CITIES[country] && r.chance(0.7) ? r.pick(CITIES[country]) : null;
		return {
			coordinates:
				place && r.chance(0.6)
					? {
							latitude: Math.round((place[2] + (r.next() - 0.5) * 0.1) * 1e5) / 1e5,
							longitude: Math.round((place[3] + (r.next() - 0.5) * 0.1) * 1e5) / 1e5,
						}
					: null,
			country: country ? { code: country } : null,
			region: place ? place[0] : null,
			city: place && r.chance(0.85) ? place[1] : null,
		};
	}

	private attachments(): Attachment[] {
		const r = this.rng;
		if (r.chance(0.7)) return [];
		const n = r.int(1, 3);
		const out: Attachment[] = [];
		for (let i = 0; i < n; i++) {
			const type = r.weighted([
				['Image', 70],
				['Video', 20],
				['Other', 10],
			] as const);
			const ext = type === 'Image' ? 'jpg' : type === 'Video' ? 'mp4' : 'pdf';
			out.push({ url: `https://cdn.sentione-media.com/att/${r.hex(20)}.${ext}`, type });
		}
		return out;
	}

	/** Build one mention of a project, published and collected at the given instants. */
	make(project: Project, pubMs: number, colMs: number): Mention {
		const r = this.rng;
		const sourceType = r.weighted(SOURCE_WEIGHTS);
		const type = r.weighted(TYPE_BY_SOURCE[sourceType]);
		const sentiment = r.weighted(SENTIMENT_WEIGHTS);
		const language = r.weighted(LANGUAGE_WEIGHTS);
		const kw = project.keywords.length ? r.pick(project.keywords) : project.name;
		const pt = projectText(project.name);
		const mood = sentiment === 'Unspecified' ? 'Neutral' : sentiment;
		const loc = language ? LOCALIZED[language.slice(0, 2)] : undefined;
		const authorName = this.personName();
		const vars: Record<string, string> = {
			kw,
			topic: loc ? r.pick(loc.topics) : r.pick(TOPICS),
			opinion: loc ? r.pick(loc.opinions[mood]) : r.pick(OPINIONS[mood]),
			tag: hashtag(kw),
			outlet: r.pick(OUTLETS),
			handle: pt.handle,
			competitor: pt.competitor,
		};
		const text = fill(loc ? r.pick(loc.templates) : r.pick(TEMPLATES_EN), vars);

		const orgLike = sourceType === 'Websites' || sourceType === 'Imported' || sourceType === 'Other';
		const source = this.source(sourceType, project, authorName);
		const author = {
			id: r.chance(orgLike ? 0.6 : 0.08) ? null : r.digits(r.int(8, 18)),
			name: r.chance(orgLike ? 0.3 : 0.03) ? null : authorName,
			avatar: r.chance(0.3)
				? null
				: { url: `https://cdn.sentione-media.com/avatars/${r.hex(16)}.jpg`, type: 'Image' as const },
			gender: r.weighted(GENDER_WEIGHTS),
			influenceMetrics: {
				followerCount: r.chance(0.2) ? null : Math.round(r.logNormal(800, 1.8)),
				fanCount: sourceType === 'Facebook' && r.chance(0.5) ? Math.round(r.logNormal(3000, 1.5)) : null,
			},
		};
		const content: Mention['content'] = {
			text: r.chance(0.02) ? null : text,
			language: language ? { code: language } : null,
			sentiment,
		};
		const engagementMetrics = this.metrics(sourceType);
		const location = this.location(language);
		const attachments = this.attachments();
		// Field order as in the spec's table; location only when available.
		const mention: Mention =
			location === undefined
				? {
						id: this.newId(),
						author,
						source,
						type,
						publishedAt: new Date(pubMs).toISOString(),
						collectedAt: new Date(colMs).toISOString(),
						content,
						engagementMetrics,
						attachments,
					}
				: {
						id: this.newId(),
						author,
						source,
						type,
						publishedAt: new Date(pubMs).toISOString(),
						collectedAt: new Date(colMs).toISOString(),
						content,
						engagementMetrics,
						location,
						attachments,
					};

		// Announced additions on some mentions.
		const titled =
			type === 'Article' || sourceType === 'Video' || sourceType === 'Blogs' || sourceType === 'Reviews';
		if (titled && r.chance(0.85)) mention.content.title = fill(r.pick(TITLES), vars);
		if (sourceType === 'Reviews' && r.chance(0.9)) {
			const max = r.chance(0.7) ? 5 : 10;
			const value =
				mood === 'Positive' ? r.int(max - 1, max) : mood === 'Negative' ? r.int(1, 2) : r.int(2, max - 1);
			mention.content.review = {
				rating: { value, scale: { min: 1, max, percent: Math.round(((value - 1) / (max - 1)) * 100) } },
			};
		}
		const social = !orgLike && sourceType !== 'Reviews';
		if (social && (type === 'Comment' || r.chance(0.4))) {
			let pool = project.discussions.get(sourceType);
			if (!pool) project.discussions.set(sourceType, (pool = []));
			if (pool.length === 0 || r.chance(0.15)) {
				pool.push({
					id: r.hex(24),
					author: { name: r.chance(0.05) ? null : this.personName() },
					source: { ...source, socialChannel: { ...source.socialChannel } },
				});
				if (pool.length > 50) pool.shift();
			}
			const d = r.pick(pool);
			mention.discussion = {
				id: d.id,
				author: { ...d.author },
				source: { ...d.source, socialChannel: { ...d.source.socialChannel } },
			};
		}
		if (r.chance(0.12)) {
			const tags = [r.pick(TAG_NAMES)];
			if (r.chance(0.3)) tags.push(r.pick(TAG_NAMES));
			mention.tags = [...new Set(tags)];
		}
		if (type === 'Comment' && r.chance(0.6)) {
			mention.context = {
				parent: {
					content: { text: fill(r.pick(PARENT_TEXTS), vars) },
					author: { name: mention.discussion?.author.name ?? this.personName() },
				},
			};
		}
		if (r.chance(0.5)) mention.deprecatedV1Fields = { id: r.digits(10) };
		if (r.chance(0.02)) mention.sentioneInternalScore = Math.round(r.next() * 1000) / 1000;
		return mention;
	}

	/** A realistic collection delay in ms (seconds to hours; a few "late" mentions take days). */
	collectionDelay(): number {
		const r = this.rng;
		const kind = r.weighted([
			['seconds', 60],
			['minutes', 30],
			['hours', 8],
			['days', 2],
		] as const);
		switch (kind) {
			case 'seconds':
				return r.int(5_000, 300_000);
			case 'minutes':
				return r.int(300_000, 6 * 3600_000);
			case 'hours':
				return r.int(6 * 3600_000, 48 * 3600_000);
			default:
				return r.int(2 * DAY, 5 * DAY);
		}
	}

	/** A publication delay for mentions collected live (mostly minutes, sometimes hours). */
	liveDelay(): number {
		const r = this.rng;
		return r.chance(0.85) ? r.int(2_000, 900_000) : r.int(900_000, 12 * 3600_000);
	}

	get random(): Rng {
		return this.rng;
	}
}

// ---------------------------------------------------------------------------------------------
// Store

export interface GenerateOptions {
	seed: number;
	projects: number;
	mentionsPerProject: number;
	historyDays: number;
	nowMs: number;
}

export class Store {
	readonly projects = new Map<number, Project>();
	/** Every mention across projects, for the engagement firehose. */
	readonly mentions = new Map<string, Rec>();
	readonly ids = new Set<string>();
	private nextProjectId = 1001;
	readonly factory: MentionFactory;
	readonly liveFactory: MentionFactory;

	constructor(seed: number) {
		this.factory = new MentionFactory(new Rng(deriveSeed(seed, 'data')), this.ids);
		this.liveFactory = new MentionFactory(new Rng(deriveSeed(seed, 'live')), this.ids);
	}

	static generate(opts: GenerateOptions): Store {
		const store = new Store(opts.seed);
		for (let i = 0; i < opts.projects; i++) {
			const t = PROJECT_TEMPLATES[i % PROJECT_TEMPLATES.length];
			const round = Math.floor(i / PROJECT_TEMPLATES.length);
			const p = store.createProject(round ? `${t.name} ${round + 1}` : t.name, t.query, t.keywords);
			store.seedMentions(p, opts);
		}
		return store;
	}

	private seedMentions(p: Project, opts: GenerateOptions): void {
		const f = this.factory;
		const r = f.random;
		const now = opts.nowMs;
		const history = Math.max(opts.historyDays, 0) * DAY;
		const recent = Math.min(7 * DAY, history);
		const recs: Rec[] = [];
		let prevPub = now;
		for (let i = 0; i < opts.mentionsPerProject; i++) {
			// About 40% within the last 7 days, the rest spread over the history.
			const back =
				r.chance(0.4) || history <= recent ? r.next() * recent : recent + r.next() * (history - recent);
			let pub = Math.floor((now - back) / 1000) * 1000; // platforms give seconds
			if (i > 0 && r.chance(0.05)) pub = prevPub; // equal publishedAt
			prevPub = pub;
			const delay = f.collectionDelay();
			// Not collected in the future: a mention published just now was collected in between.
			const col = pub + delay <= now ? pub + delay : pub + Math.floor(r.next() * (now - pub));
			recs.push(this.makeRec(f.make(p, pub, col), p.id, false));
		}
		// Batches collected at the same instant: some mentions share exactly one collectedAt.
		recs.sort((a, b) => a.col - b.col);
		for (let i = 1; i < recs.length; i++) {
			const prev = recs[i - 1];
			if (r.chance(0.1) && prev.col >= recs[i].pub) {
				recs[i].m.collectedAt = prev.m.collectedAt;
				recs[i].col = prev.col;
			}
		}
		for (const rec of recs) this.insert(p, rec);
	}

	makeRec(m: Mention, projectId: number, fresh: boolean): Rec {
		const rec: Rec = {
			m,
			id: m.id,
			projectId,
			pub: 0,
			col: 0,
			fresh,
			infl: null,
			er: null,
			like: null,
			share: null,
			foll: null,
		};
		refreshKeys(rec);
		return rec;
	}

	createProject(name: string, query: string, keywords?: string[]): Project {
		const id = this.nextProjectId++;
		const p: Project = {
			id,
			name,
			query,
			keywords: keywords ?? keywordsFromQuery(query),
			recs: [],
			byId: new Map(),
			sorted: new Map(),
			tags: new Map(),
			discussions: new Map(),
		};
		this.projects.set(id, p);
		return p;
	}

	updateProject(p: Project, name: string, query: string): void {
		p.name = name;
		if (p.query !== query) {
			p.query = query;
			p.keywords = keywordsFromQuery(query);
		}
	}

	deleteProject(p: Project): void {
		for (const rec of p.recs) this.mentions.delete(rec.id);
		this.projects.delete(p.id);
	}

	/** Projects in id order (the list order, D-10). */
	listProjects(): Project[] {
		return [...this.projects.values()].sort((a, b) => a.id - b.id);
	}

	/** Add one record to a project: indices, tags, and every cached sort order. */
	insert(p: Project, rec: Rec): void {
		p.recs.push(rec);
		p.byId.set(rec.id, rec);
		this.mentions.set(rec.id, rec);
		for (const t of rec.m.tags ?? []) {
			let set = p.tags.get(t);
			if (!set) p.tags.set(t, (set = new Set()));
			set.add(rec.id);
		}
		for (const [sort, arr] of p.sorted) insertSorted(arr, sort as SortType, rec);
	}

	/** All records of a project in a sort order (cached; D-19). */
	sorted(p: Project, sort: SortType): Rec[] {
		let arr = p.sorted.get(sort);
		if (!arr) {
			arr = p.recs.slice().sort(comparator(sort));
			p.sorted.set(sort, arr);
		}
		return arr;
	}

	/** A mention's metrics changed: drop the orders that depend on them. */
	metricsChanged(rec: Rec): void {
		refreshKeys(rec);
		const p = this.projects.get(rec.projectId);
		if (!p) return;
		for (const s of METRIC_SORTS) p.sorted.delete(s);
	}

	/** A mention's other fields changed (tags): only the cached JSON is stale. */
	touched(rec: Rec): void {
		rec.json = undefined;
	}

	static allSorts(): readonly SortType[] {
		return SORT_TYPES;
	}
}

function titleCase(phrase: string): string {
	return phrase.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** Display keywords for a project created through the API: its query's positive phrases. */
export function keywordsFromQuery(query: string): string[] {
	const parsed = parseQuery(query);
	if (!parsed.ok) return [];
	return [...new Set(positiveKeywords(parsed.ast))].map(titleCase);
}
