import MiniSearch from 'minisearch';
import type { Resource } from '../../schemas/library';
import { matchesFilter, type ResourceFilter } from './listing';
import { foldText } from './slug';

/** Words too common in this catalogue's language to tell documents apart. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'its', 'of', 'on', 'or', 's', 'that', 'the', 'this', 'to', 'with']);

type Indexed = Pick<Resource, 'id' | 'title' | 'summary' | 'tags' | 'category' | 'file_type'>;

export interface SearchHit {
  id: string;
  score: number;
}

export interface SearchQuery extends ResourceFilter {
  q: string;
}

/**
 * Full-text index over title, summary and tags. A title or tag match weighs more than a summary
 * match; words also match by prefix ("resil" → "resilience") and with small typos ("inundaton").
 * Building takes a few milliseconds for the catalogue; callers keep one per catalogue version.
 */
export class ResourceSearchIndex {
  private readonly index: MiniSearch<Indexed>;

  constructor(resources: readonly Indexed[]) {
    this.index = new MiniSearch<Indexed>({
      idField: 'id',
      fields: ['title', 'summary', 'tags'],
      storeFields: ['category', 'file_type'],
      extractField: (document, field) => {
        const value = document[field as keyof Indexed];
        return Array.isArray(value) ? value.join(' ') : (value as string);
      },
      processTerm: (term) => {
        const folded = foldText(term);
        return STOP_WORDS.has(folded) ? null : folded;
      },
      searchOptions: {
        boost: { title: 3, tags: 2 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.index.addAll(resources.map(({ id, title, summary, tags, category, file_type }) => ({ id, title, summary, tags, category, file_type })));
  }

  /** Matches best first; a tie keeps a stable order by id. */
  search(query: SearchQuery): SearchHit[] {
    return this.index
      .search(query.q, { filter: (result) => matchesFilter(result as unknown as Indexed, query) })
      .map((result) => ({ id: String(result.id), score: Math.round(result.score * 1000) / 1000 }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }
}
