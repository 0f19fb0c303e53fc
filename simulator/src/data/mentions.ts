// The seeded mention factory: one realistic mention of a project at a time, written in its
// language about the project's topics (see brands.ts, languages.ts), with everything the spec's
// mention object holds and the announced additions on some. The same seed draws the same
// numbers in the same order, so the same seed gives the same mentions.

import type { Sentiment } from '../constants.ts';
import type { Rng } from '../prng.ts';
import type { Mention, Project, Source } from '../types.ts';
import { TEXT_LANGUAGE, TEXTS, type LanguageText, type Mood } from './languages.ts';
import { drawAttachments, drawLocation, drawMetrics, drawSource } from './sources.ts';
import { fill, hashtag, projectProfile, projectText, templatePools } from './text.ts';
import {
	GENDER_WEIGHTS,
	LANGUAGE_WEIGHTS,
	OUTLETS,
	SENTIMENT_WEIGHTS,
	SOURCE_WEIGHTS,
	TAG_NAMES,
	TYPE_BY_SOURCE,
} from './weights.ts';

export const DAY = 24 * 3600 * 1000;

type Discussion = NonNullable<Mention['discussion']>;

function copySource(source: Source): Source {
	return { ...source, socialChannel: { ...source.socialChannel } };
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

	/** A name of the language; of the gender when it is known. */
	private personName(text: LanguageText, gender: 'Male' | 'Female' | 'Unspecified'): string {
		const r = this.rng;
		const g = gender === 'Unspecified' ? (r.chance(0.5) ? 'Male' : 'Female') : gender;
		const last = Array.isArray(text.names.last) ? text.names.last : text.names.last[g];
		return `${r.pick(text.names[g])} ${r.pick(last)}`;
	}

	/**
	 * Build one mention of a project, published and collected at the given instants; of the given
	 * sentiment (shaped live collection), else of a drawn one.
	 */
	make(project: Project, pubMs: number, colMs: number, sentimentOf?: Sentiment): Mention {
		const r = this.rng;
		const sourceType = r.weighted(SOURCE_WEIGHTS);
		const type = r.weighted(TYPE_BY_SOURCE[sourceType]);
		const sentiment = sentimentOf ?? r.weighted(SENTIMENT_WEIGHTS);
		const language = r.weighted(LANGUAGE_WEIGHTS);
		const textLanguage = language ? (TEXT_LANGUAGE[language] ?? 'en') : 'en';
		const lang = TEXTS[textLanguage];
		const profile = projectProfile(project);
		const names = profile.names.length
			? profile.names
			: project.keywords.length
				? project.keywords
				: [project.name];
		const kw = r.pick(names);
		const pt = projectText(project.name);
		const mood: Mood = sentiment === 'Unspecified' ? 'Neutral' : sentiment;
		const pools = templatePools(profile, textLanguage);
		const gender = r.weighted(GENDER_WEIGHTS);
		const authorName = this.personName(lang, gender);
		const vars: Record<string, string> = {
			kw,
			topic: r.pick(profile.topics[textLanguage]),
			opinion: r.pick(lang.opinions[mood]),
			tag: hashtag(kw),
			outlet: r.pick(OUTLETS),
			handle: pt.handle,
			competitor: profile.competitor ?? '',
		};
		const text = fill(r.pick(mood === 'Negative' ? pools.negative : pools.any), vars);

		const orgLike =
			sourceType === 'Websites' || sourceType === 'Imported' || sourceType === 'Other';
		const source = drawSource(r, sourceType, project, authorName, lang, profile.communities);
		const author = {
			id: r.chance(orgLike ? 0.6 : 0.08) ? null : r.digits(r.int(8, 18)),
			name: r.chance(orgLike ? 0.3 : 0.03) ? null : authorName,
			avatar: r.chance(0.3)
				? null
				: {
						url: `https://cdn.sentione-media.com/avatars/${r.hex(16)}.jpg`,
						type: 'Image' as const,
					},
			gender,
			influenceMetrics: {
				followerCount: r.chance(0.2) ? null : Math.round(r.logNormal(800, 1.8)),
				fanCount:
					sourceType === 'Facebook' && r.chance(0.5) ? Math.round(r.logNormal(3000, 1.5)) : null,
			},
		};
		const content: Mention['content'] = {
			text: r.chance(0.02) ? null : text,
			language: language ? { code: language } : null,
			sentiment,
		};
		const engagementMetrics = drawMetrics(r, sourceType);
		const location = drawLocation(r, language);
		const attachments = drawAttachments(r);
		// Field order as in the spec's table; location only when available.
		const mention: Mention = {
			id: this.newId(),
			author,
			source,
			type,
			publishedAt: new Date(pubMs).toISOString(),
			collectedAt: new Date(colMs).toISOString(),
			content,
			engagementMetrics,
			...(location === undefined ? {} : { location }),
			attachments,
		};

		// Announced additions on some mentions.
		const titled =
			type === 'Article' ||
			sourceType === 'Video' ||
			sourceType === 'Blogs' ||
			sourceType === 'Reviews';
		if (titled && r.chance(0.85)) mention.content.title = fill(r.pick(pools.titles), vars);
		if (sourceType === 'Reviews' && r.chance(0.9)) {
			const max = r.chance(0.7) ? 5 : 10;
			const value =
				mood === 'Positive'
					? r.int(max - 1, max)
					: mood === 'Negative'
						? r.int(1, 2)
						: r.int(2, max - 1);
			mention.content.review = {
				rating: {
					value,
					scale: { min: 1, max, percent: Math.round(((value - 1) / (max - 1)) * 100) },
				},
			};
		}
		const social = !orgLike && sourceType !== 'Reviews';
		if (social && (type === 'Comment' || r.chance(0.4))) {
			// threads in one language: a reply is written in its thread's language
			mention.discussion = this.discussion(project, `${sourceType}|${textLanguage}`, lang, source);
		}
		if (r.chance(0.12)) {
			const tags = [r.pick(TAG_NAMES)];
			if (r.chance(0.3)) tags.push(r.pick(TAG_NAMES));
			mention.tags = [...new Set(tags)];
		}
		if (type === 'Comment' && r.chance(0.6)) {
			mention.context = {
				parent: {
					content: { text: fill(r.pick(lang.parents), vars) },
					author: { name: mention.discussion?.author.name ?? this.personName(lang, 'Unspecified') },
				},
			};
		}
		if (r.chance(0.5)) mention.deprecatedV1Fields = { id: r.digits(10) };
		if (r.chance(0.02)) mention.sentioneInternalScore = Math.round(r.next() * 1000) / 1000;
		return mention;
	}

	/**
	 * The discussion (thread) a mention belongs to: one of the project's recent threads of that
	 * source and language, or a new one started from this mention's source. A copy: mentions of one
	 * thread share no objects.
	 */
	private discussion(
		project: Project,
		thread: string,
		lang: LanguageText,
		source: Source,
	): Discussion {
		const r = this.rng;
		let pool = project.discussions.get(thread);
		if (!pool) project.discussions.set(thread, (pool = []));
		if (pool.length === 0 || r.chance(0.15)) {
			pool.push({
				id: r.hex(24),
				author: { name: r.chance(0.05) ? null : this.personName(lang, 'Unspecified') },
				source: copySource(source),
			});
			if (pool.length > 50) pool.shift();
		}
		const d = r.pick(pool);
		return { id: d.id, author: { ...d.author }, source: copySource(d.source) };
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
