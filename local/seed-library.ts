import seedCatalogue from '../shared/data/library/resources.json';
import { parseCatalogue } from '../shared/domain/library/catalogue';
import type { ResourceStore } from '../shared/domain/library/ports';

/**
 * Upserts the library catalogue shipped in the repo, on every start: edits to the file reach the
 * store, and the views and downloads counted so far (and any stored copy) are kept.
 * Returns how many resources the catalogue holds.
 */
export async function seedLibrary(store: ResourceStore, catalogue: unknown = seedCatalogue): Promise<number> {
  const parsed = parseCatalogue(catalogue);
  if (!parsed.ok) {
    throw new Error(`Invalid library catalogue: ${parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  }
  if (parsed.entries.some((parsedEntry) => parsedEntry.file !== undefined)) {
    throw new Error('The seed catalogue cannot upload files; load entries with a "file" through npm run library:load');
  }
  await store.upsert(parsed.entries.map((parsedEntry) => parsedEntry.entry));
  return parsed.entries.length;
}
