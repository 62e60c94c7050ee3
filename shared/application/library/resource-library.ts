import type { Resource } from '../../schemas/library';
import { LIBRARY_KEY_PREFIX } from '../../domain/library/catalogue';
import { libraryStats, type LibraryStats } from '../../domain/library/stats';
import { listResources, type ListQuery, type ResourcePage } from '../../domain/library/listing';
import { ResourceSearchIndex, type SearchQuery } from '../../domain/library/search';
import type { ResourceStore, SignedUrlSigner } from '../../domain/library/ports';

export interface LibraryDeps {
  store: ResourceStore;
  signer: SignedUrlSigner;
  signedUrlTtlSeconds: number;
}

export type Download = { kind: 'redirect'; location: string } | { kind: 'unavailable'; resource: Resource };

export interface SearchPage {
  data: Array<Resource & { score: number }>;
  total: number;
  query: string;
}

/**
 * The library's use cases. Every read goes to the store, so counters and newly loaded entries
 * show at once; only the search index is kept between requests, and rebuilt when the searchable
 * text of the catalogue has changed since it was built.
 */
export class ResourceLibrary {
  private searchIndex?: { version: string; index: ResourceSearchIndex };

  constructor(private readonly deps: LibraryDeps) {}

  async list(query: ListQuery): Promise<ResourcePage> {
    return listResources(await this.deps.store.listAll(), query);
  }

  async search(query: SearchQuery & { limit: number; offset: number }): Promise<SearchPage> {
    const resources = await this.deps.store.listAll();
    const byId = new Map(resources.map((resource) => [resource.id, resource]));
    const hits = this.indexFor(resources).search(query).filter((hit) => byId.has(hit.id));
    return {
      data: hits.slice(query.offset, query.offset + query.limit).map((hit) => ({ ...byId.get(hit.id)!, score: hit.score })),
      total: hits.length,
      query: query.q,
    };
  }

  async stats(): Promise<LibraryStats> {
    return libraryStats(await this.deps.store.listAll());
  }

  /** The resource, counting one view; undefined when there is no such id. */
  view(id: string): Promise<Resource | undefined> {
    return this.deps.store.recordView(id);
  }

  /**
   * Where to send a download: a short-lived signed link to the stored copy when the library holds
   * one, else the publisher's own https address. An entry with neither (no publisher copy
   * confirmed) has nothing to hand out — never a third-party mirror, never plain http — and its
   * download is not counted. undefined when there is no such id.
   */
  async download(id: string): Promise<Download | undefined> {
    const resource = await this.deps.store.get(id);
    if (!resource) return undefined;
    // Only keys under the library prefix are signed: the function may read nothing else.
    const stored = resource.file_path?.startsWith(LIBRARY_KEY_PREFIX) ? resource.file_path : undefined;
    const publisherCopy = resource.url?.startsWith('https://') ? resource.url : undefined;
    if (!stored && !publisherCopy) return { kind: 'unavailable', resource };
    if (!(await this.deps.store.recordDownload(id))) return undefined;
    return {
      kind: 'redirect',
      location: stored ? await this.deps.signer.signedGetUrl(stored, this.deps.signedUrlTtlSeconds, downloadName(resource)) : publisherCopy!,
    };
  }

  private indexFor(resources: readonly Resource[]): ResourceSearchIndex {
    const version = searchableVersion(resources);
    if (this.searchIndex?.version !== version) {
      this.searchIndex = { version, index: new ResourceSearchIndex(resources) };
    }
    return this.searchIndex.index;
  }
}

/** Changes exactly when something the index holds changes (not when a counter moves). */
function searchableVersion(resources: readonly Resource[]): string {
  return JSON.stringify(resources.map((r) => [r.id, r.title, r.summary, r.tags, r.category, r.file_type]));
}

/** `<id>.<extension of the stored object>`, the name a browser saves the file under. */
function downloadName(resource: Resource): string {
  const extension = /\.([a-z0-9]{1,10})$/i.exec(resource.file_path ?? '')?.[1];
  return extension ? `${resource.id}.${extension.toLowerCase()}` : resource.id;
}
