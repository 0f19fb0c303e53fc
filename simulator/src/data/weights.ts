// Vocabulary: how often each kind of mention occurs (weights for the seeded picks), and where it
// comes from: a country where its language is spoken, a city there, an outlet, a tag.

import type { MentionType, Sentiment, SourceType } from '../constants.ts';

export const OUTLETS = [
	'TechDaily',
	'the Morning Post',
	'City Herald',
	'MarketWatchers',
	'Gadget Review',
];
export const TAG_NAMES = ['complaint', 'lead', 'press', 'vip', 'follow-up', 'crisis', 'praise'];

export const SOURCE_WEIGHTS: Array<readonly [SourceType, number]> = [
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

export const TYPE_BY_SOURCE: Record<SourceType, Array<readonly [MentionType, number]>> = {
	Facebook: [
		['Post', 35],
		['Comment', 45],
		['Share', 10],
		['PrivateMessage', 10],
	],
	X: [
		['Post', 55],
		['Comment', 25],
		['Share', 15],
		['PrivateMessage', 5],
	],
	Instagram: [
		['Post', 45],
		['Comment', 45],
		['PrivateMessage', 10],
	],
	TikTok: [
		['Post', 50],
		['Comment', 50],
	],
	Reddit: [
		['Post', 35],
		['Comment', 65],
	],
	Forums: [
		['Post', 40],
		['Comment', 60],
	],
	Websites: [
		['Article', 85],
		['Comment', 15],
	],
	Blogs: [
		['Article', 80],
		['Comment', 20],
	],
	Reviews: [['Post', 100]],
	Video: [
		['Post', 60],
		['Comment', 40],
	],
	Imported: [
		['Post', 30],
		['Comment', 30],
		['Article', 20],
		['Share', 10],
		['PrivateMessage', 10],
	],
	Other: [
		['Post', 40],
		['Article', 30],
		['Comment', 30],
	],
};

export const GENDER_WEIGHTS = [
	['Male', 40],
	['Female', 40],
	['Unspecified', 20],
] as const;

export const SENTIMENT_WEIGHTS: Array<readonly [Sentiment, number]> = [
	['Positive', 30],
	['Negative', 25],
	['Neutral', 40],
	['Unspecified', 5],
];

export const LANGUAGE_WEIGHTS: Array<readonly [string | null, number]> = [
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

/** Where a language is written (repeats weigh a country more). */
export const COUNTRY_BY_LANGUAGE: Record<string, string[]> = {
	en: ['US', 'US', 'GB', 'IN', 'CA', 'AU'],
	'en-gb': ['GB'],
	pl: ['PL'],
	de: ['DE', 'DE', 'AT'],
	fr: ['FR'],
	es: ['ES', 'ES', 'MX'],
	it: ['IT'],
	pt: ['BR', 'BR', 'PT'],
	nl: ['NL'],
	sv: ['SE'],
	uk: ['UA'],
};
/** Countries of mentions whose language was not detected. */
export const ALL_COUNTRIES = [
	'PL',
	'US',
	'GB',
	'DE',
	'FR',
	'ES',
	'IT',
	'BR',
	'IN',
	'NL',
	'SE',
	'UA',
];

export const CITIES: Record<string, Array<[string, string, number, number]>> = {
	PL: [
		['Mazowieckie', 'Warszawa', 52.2297, 21.0122],
		['Pomorskie', 'Gdańsk', 54.352, 18.6466],
		['Małopolskie', 'Kraków', 50.0647, 19.945],
	],
	US: [
		['New York', 'New York', 40.7128, -74.006],
		['California', 'San Francisco', 37.7749, -122.4194],
		['Texas', 'Austin', 30.2672, -97.7431],
	],
	GB: [
		['England', 'London', 51.5072, -0.1276],
		['Scotland', 'Edinburgh', 55.9533, -3.1883],
	],
	DE: [
		['Berlin', 'Berlin', 52.52, 13.405],
		['Bayern', 'München', 48.1351, 11.582],
	],
	FR: [['Île-de-France', 'Paris', 48.8566, 2.3522]],
	ES: [['Madrid', 'Madrid', 40.4168, -3.7038]],
	IT: [['Lazio', 'Roma', 41.9028, 12.4964]],
	BR: [['São Paulo', 'São Paulo', -23.5505, -46.6333]],
	IN: [['Karnataka', 'Bengaluru', 12.9716, 77.5946]],
	CA: [['Ontario', 'Toronto', 43.6532, -79.3832]],
	AU: [['New South Wales', 'Sydney', -33.8688, 151.2093]],
	AT: [['Wien', 'Wien', 48.2082, 16.3738]],
	MX: [['Ciudad de México', 'Ciudad de México', 19.4326, -99.1332]],
	PT: [['Lisboa', 'Lisboa', 38.7223, -9.1393]],
	NL: [['Noord-Holland', 'Amsterdam', 52.3676, 4.9041]],
	SE: [['Stockholms län', 'Stockholm', 59.3293, 18.0686]],
	UA: [['Kyiv', 'Kyiv', 50.4501, 30.5234]],
};
