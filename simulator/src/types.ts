// Shapes of the resources, as the spec's tables describe them ("the service" read as `author`).

import type { AuthorGender, MentionType, Sentiment, SourceType } from './constants.ts';
import type { QueryDoc } from './query.ts';

export interface Attachment {
	url: string;
	type: 'Image' | 'Video' | 'Other';
}

export interface Author {
	id: string | null;
	name: string | null;
	avatar: Attachment | null;
	gender: AuthorGender;
	influenceMetrics: { followerCount: number | null; fanCount: number | null };
}

export interface Source {
	socialChannel: { id: string | null; name: string | null };
	mentionUrl: string;
	type: SourceType;
}

export interface CommonMetrics {
	likeCount: number | null;
	shareCount: number | null;
	commentCount: number | null;
	viewCount: number | null;
}

export interface EngagementMetrics {
	influenceScore: number | null;
	engagementRate: number | null;
	sourceMetrics: {
		common: CommonMetrics;
		facebook?: {
			likeCount: number;
			loveCount: number;
			hahaCount: number;
			wowCount: number;
			sadCount: number;
			angryCount: number;
		} | null;
		newsAggregators?: { digsCount: number; burrowsCount: number } | null;
		twitter?: { retweetsCount: number; favouritesCount: number } | null;
	};
}

export interface Location {
	coordinates: { latitude: number; longitude: number } | null;
	country: { code: string } | null;
	region: string | null;
	city: string | null;
}

export interface MentionContent {
	text: string | null;
	language: { code: string } | null;
	sentiment: Sentiment;
	title?: string;
	review?: { rating: { value: number; scale: { min: number; max: number; percent: number } } };
}

export interface Mention {
	id: string;
	author: Author;
	source: Source;
	type: MentionType;
	publishedAt: string;
	collectedAt: string;
	content: MentionContent;
	engagementMetrics: EngagementMetrics;
	location?: Location | null;
	attachments: Attachment[];
	tags?: string[];
	discussion?: { id: string; author: { name: string | null }; source: Source };
	context?: { parent: { content: { text: string }; author?: { name: string | null } } };
	deprecatedV1Fields?: { id: string };
	[unannounced: string]: unknown;
}

/** The store's record of one mention: the object served plus precomputed keys. */
export interface Rec {
	m: Mention;
	id: string;
	projectId: number;
	/** publishedAt / collectedAt in ms. */
	pub: number;
	col: number;
	/** Collected after startup (live collection or the admin API): index lag applies. */
	fresh: boolean;
	/** Sort keys (D-19), null = missing metric. */
	infl: number | null;
	er: number | null;
	like: number | null;
	share: number | null;
	foll: number | null;
	/** Cached words for the query language and the serialized JSON (also as `bigCounts=on` writes it). */
	doc?: QueryDoc;
	json?: string;
	bigJson?: string;
}

export interface Project {
	id: number;
	name: string;
	query: string;
	/** Display forms of the phrases the generated texts use so that they match the query. */
	keywords: string[];
	recs: Rec[];
	byId: Map<string, Rec>;
	/** Per sort order (cache key), all records in that order (kept up to date on insert). */
	sorted: Map<string, Rec[]>;
	/** Cached orders whose keys changed since (metrics): sorted again, nearly in order, when read. */
	unsorted: Set<string>;
	/** Tag name → ids of the mentions carrying it (D-22). */
	tags: Map<string, Set<string>>;
	/** Pools (per source type) used by the generator to let mentions share a discussion. */
	discussions: Map<string, Array<NonNullable<Mention['discussion']>>>;
}
