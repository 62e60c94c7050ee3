import type { Resource } from '../../schemas/library';
import type { CatalogueEntry } from './catalogue';

/** Persistence of the resource library: one record per resource, counters kept with it. */
export interface ResourceStore {
  /** Every resource, read by a query on the catalogue index (never a scan). */
  listAll(): Promise<Resource[]>;
  get(id: string): Promise<Resource | undefined>;
  /** Atomically adds one view and returns the resource as updated; undefined when there is none. */
  recordView(id: string): Promise<Resource | undefined>;
  /** Atomically adds one download and returns the resource as updated; undefined when there is none. */
  recordDownload(id: string): Promise<Resource | undefined>;
  /**
   * Creates or updates each entry's catalogue fields. Existing counters are kept, and so is an
   * existing stored copy unless the entry names a new one (`file_path` not null).
   */
  upsert(entries: readonly CatalogueEntry[]): Promise<void>;
}

/** The part of the blob store the library needs: signing links to stored copies. */
export interface SignedUrlSigner {
  signedGetUrl(key: string, expiresInSeconds: number, downloadName?: string): Promise<string>;
}
