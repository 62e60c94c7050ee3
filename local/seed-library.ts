import seedCatalogue from '../shared/data/library/resources.json';
import { changedCatalogueEntries, parseCatalogue } from '../shared/domain/library/catalogue';
import type { ResourceStore } from '../shared/domain/library/ports';

/**
 * Upserts the library catalogue shipped in the repo (on every local start, and by `npm run seed`):
 * edits to the file reach the store, and the views and downloads counted so far (and any stored
 * copy) are kept. Only entries that differ from the store are written.
 */
export async function seedLibrary(store: ResourceStore, catalogue: unknown = seedCatalogue): Promise<{ resources: number; written: number }> {
  const parsed = parseCatalogue(catalogue);
  if (!parsed.ok) {
    throw new Error(`Invalid library catalogue: ${parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  }
  if (parsed.entries.some((parsedEntry) => parsedEntry.file !== undefined)) {
    throw new Error('The seed catalogue cannot upload files; load entries with a "file" through npm run library:load');
  }
  const changed = changedCatalogueEntries(await store.listAll(), parsed.entries.map((parsedEntry) => parsedEntry.entry));
  await store.upsert(changed);
  return { resources: parsed.entries.length, written: changed.length };
}
