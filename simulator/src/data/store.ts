// The in-memory store: projects and their mentions, with the indexes search needs (by id, by
// tag, every cached sort order kept sorted on insert), seeded from the mention factory.

import { SORT_TYPES, type SortType } from '../constants.ts';
import { Rng, deriveSeed } from '../prng.ts';
import { parseQuery, positiveKeywords } from '../query.ts';
import {
	comparator,
	insertSorted,
	mergeSorted,
	METRIC_SORTS,
	refreshKeys,
	sortSpec,
	specOfCacheKey,
} from '../sorting.ts';
import type { Mention, Project, Rec } from '../types.ts';
import { PROJECT_TEMPLATES } from './brands.ts';
import { DAY, MentionFactory } from './mentions.ts';

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
				r.chance(0.4) || history <= recent
					? r.next() * recent
					: recent + r.next() * (history - recent);
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
			unsorted: new Set(),
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
		this.index(p, rec);
		for (const [key, arr] of p.sorted) insertSorted(arr, specOfCacheKey(key), rec);
	}

	/** Add many records to a project at once (one merge per cached sort order). */
	insertMany(p: Project, recs: Rec[]): void {
		for (const rec of recs) this.index(p, rec);
		for (const [key, arr] of p.sorted) mergeSorted(arr, specOfCacheKey(key), recs);
	}

	private index(p: Project, rec: Rec): void {
		p.recs.push(rec);
		p.byId.set(rec.id, rec);
		this.mentions.set(rec.id, rec);
		for (const t of rec.m.tags ?? []) {
			let set = p.tags.get(t);
			if (!set) p.tags.set(t, (set = new Set()));
			set.add(rec.id);
		}
	}

	/** All records of a project in a sort order (cached; D-19), as the variant ranks counts. */
	sorted(p: Project, sort: SortType, bigCounts = false): Rec[] {
		const spec = sortSpec(sort, bigCounts);
		let arr = p.sorted.get(spec.cacheKey);
		if (!arr) {
			arr = p.recs.slice().sort(comparator(spec));
			p.sorted.set(spec.cacheKey, arr);
		} else if (p.unsorted.delete(spec.cacheKey)) {
			// a few keys changed: the array is nearly in order, which the sort handles in ~O(n)
			arr.sort(comparator(spec));
		}
		return arr;
	}

	/** A mention's metrics changed: the orders that depend on them are sorted again when read. */
	metricsChanged(rec: Rec): void {
		refreshKeys(rec);
		const p = this.projects.get(rec.projectId);
		if (!p) return;
		for (const s of METRIC_SORTS) if (p.sorted.has(s)) p.unsorted.add(s);
	}

	/** A mention's other fields changed (tags): only the cached JSON is stale. */
	touched(rec: Rec): void {
		rec.json = undefined;
		rec.bigJson = undefined;
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
