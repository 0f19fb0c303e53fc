// Where a generated mention was posted and what comes with it: its source (channel and URL, by
// source type), engagement metrics (the network-specific ones only on their networks), location
// and attachments. Each draws from the mention factory's seeded generator, in a fixed order.

import type { SourceType } from '../constants.ts';
import type { Rng } from '../prng.ts';
import type { Attachment, EngagementMetrics, Location, Project, Source } from '../types.ts';
import type { Communities } from './brands.ts';
import type { LanguageText } from './languages.ts';
import { handleBase, projectText } from './text.ts';
import { ALL_COUNTRIES, CITIES, COUNTRY_BY_LANGUAGE } from './weights.ts';

/** A person's handle on a social network: their name and a number. */
function socialHandle(r: Rng, name: string): string {
	return handleBase(name) + r.int(1, 999);
}

/** The channel and URL of a mention of `project` by `author`, as its source type has them. */
export function drawSource(
	r: Rng,
	type: SourceType,
	project: Project,
	author: string,
	text: LanguageText,
	communities: Communities,
): Source {
	const { slug, handle: page } = projectText(project.name);
	switch (type) {
		case 'Facebook':
			return {
				socialChannel: {
					id: r.digits(15),
					name: r.chance(0.6) ? `${project.name}` : `${project.name} Fans`,
				},
				mentionUrl: `https://www.facebook.com/${page}/posts/${r.digits(16)}`,
				type,
			};
		case 'X': {
			const h = socialHandle(r, author);
			return {
				socialChannel: { id: r.digits(18), name: `@${h}` },
				mentionUrl: `https://x.com/${h}/status/${r.digits(19)}`,
				type,
			};
		}
		case 'Instagram':
			return {
				socialChannel: { id: r.digits(11), name: socialHandle(r, author) },
				mentionUrl: `https://www.instagram.com/p/${r.alnum(11)}/`,
				type,
			};
		case 'TikTok': {
			const h = socialHandle(r, author);
			return {
				socialChannel: { id: r.digits(19), name: `@${h}` },
				mentionUrl: `https://www.tiktok.com/@${h}/video/${r.digits(19)}`,
				type,
			};
		}
		case 'Reddit': {
			const sub = text.subreddit && r.chance(0.5) ? text.subreddit : r.pick(communities.subreddits);
			return {
				socialChannel: { id: `t5_${r.hex(6)}`, name: `r/${sub}` },
				mentionUrl: `https://www.reddit.com/r/${sub}/comments/${r.hex(7)}/${slug}/`,
				type,
			};
		}
		case 'Forums': {
			const site = r.pick(communities.forums);
			return {
				socialChannel: { id: null, name: site },
				mentionUrl: `https://${site}/thread/${r.int(1000, 999999)}-${slug}`,
				type,
			};
		}
		case 'Websites': {
			const site = r.pick(text.news);
			return {
				socialChannel: { id: null, name: site },
				mentionUrl: `https://www.${site}/${r.pick(['business', 'tech', 'news', 'money'])}/${slug}-${r.hex(6)}`,
				type,
			};
		}
		case 'Blogs': {
			const b = r.pick(communities.blogs);
			return {
				socialChannel: { id: null, name: b },
				mentionUrl: `https://${b}.blogspot.com/2026/${String(r.int(1, 12)).padStart(2, '0')}/${slug}.html`,
				type,
			};
		}
		case 'Reviews': {
			const site = r.pick(communities.reviews);
			return {
				socialChannel: { id: null, name: site },
				mentionUrl: `https://${site}/review/${slug}?r=${r.hex(8)}`,
				type,
			};
		}
		case 'Video':
			return {
				socialChannel: { id: `UC${r.alnum(22)}`, name: `${author.split(' ')[0]} Reviews` },
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

/** Metrics that may be null; Facebook, X and news-aggregator metrics only on their sources. */
export function drawMetrics(r: Rng, type: SourceType): EngagementMetrics {
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

/** undefined: the mention has no `location` key; null: the key with null. */
export function drawLocation(r: Rng, language: string | null): Location | null | undefined {
	const roll = r.next();
	if (roll < 0.2) return undefined;
	if (roll < 0.25) return null;
	const country = r.chance(0.1)
		? null
		: r.pick(
				language && COUNTRY_BY_LANGUAGE[language] ? COUNTRY_BY_LANGUAGE[language] : ALL_COUNTRIES,
			);
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

/** Mostly none; otherwise one to three images, videos or documents. */
export function drawAttachments(r: Rng): Attachment[] {
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
