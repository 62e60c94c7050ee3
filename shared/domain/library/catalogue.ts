import { CatalogueEntryInput, ResourceId, type Resource } from '../../schemas/library';
import { resourceSlug } from './slug';

/** Object keys of stored copies live under this prefix of the bucket. */
export const LIBRARY_KEY_PREFIX = 'library/';

/** What the catalogue says about a resource; the counters live only in the store. */
export type CatalogueEntry = Omit<Resource, 'views' | 'downloads' | 'url_status'>;

/** An entry links a document only through a confirmed publisher copy (`url`); there is no other kind. */
export function urlStatusOf(url: string | null): Resource['url_status'] {
  return url === null ? 'unconfirmed' : 'confirmed';
}

/** An entry ready to store, plus the local file an operator asked to upload as its stored copy. */
export interface ParsedEntry {
  entry: CatalogueEntry;
  file?: string;
}

/** `field` names the entry (index and title) and the field, e.g. `resources[3] ("…").url`. */
export interface CatalogueError {
  field: string;
  message: string;
}

export type CatalogueParse =
  | { ok: true; entries: ParsedEntry[] }
  | { ok: false; errors: CatalogueError[] };

/**
 * Validates a whole catalogue (`{resources: [...]}` or a bare array) and normalises each entry:
 * trimmed text, lower-case unique tags, an id derived from the title when none is given. Either
 * every entry is valid or none is returned, so a loader never writes half a file.
 */
export function parseCatalogue(input: unknown): CatalogueParse {
  const list = Array.isArray(input) ? input : isRecord(input) && Array.isArray(input.resources) ? input.resources : undefined;
  if (!list) return { ok: false, errors: [{ field: '(root)', message: 'Expected an array of resources or an object with a "resources" array' }] };

  const errors: CatalogueError[] = [];
  const entries: ParsedEntry[] = [];
  const seen = new Map<string, number>();
  list.forEach((raw, index) => {
    const label = entryLabel(raw, index);
    const parsed = CatalogueEntryInput().safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const keys = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.map(String).join('.')];
        for (const key of keys) {
          errors.push({ field: `${label}.${key || '(entry)'}`, message: issue.code === 'unrecognized_keys' ? 'Unknown field' : issue.message });
        }
      }
      return;
    }
    const { file, id, tags, mirror_url: _mirror, ...fields } = parsed.data;
    const resourceId = id ?? resourceSlug(fields.title);
    if (!ResourceId().safeParse(resourceId).success) {
      errors.push({ field: `${label}.id`, message: 'No usable id can be made from the title; give the entry an id' });
      return;
    }
    const first = seen.get(resourceId);
    if (first !== undefined) {
      errors.push({ field: `${label}.id`, message: `Duplicate id "${resourceId}" (also resources[${first}])` });
      return;
    }
    seen.set(resourceId, index);
    entries.push({
      entry: { id: resourceId, ...fields, tags: normaliseTags(tags), file_path: null },
      ...(file === undefined ? {} : { file }),
    });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, entries };
}

function normaliseTags(tags: string[]): string[] {
  return [...new Set(tags.map((tag) => tag.toLowerCase()))];
}

/** `resources[3]` plus the title when there is one, so an operator finds the entry at once. */
function entryLabel(raw: unknown, index: number): string {
  const title = isRecord(raw) && typeof raw.title === 'string' ? raw.title.trim() : '';
  return title ? `resources[${index}] ("${title.length > 60 ? `${title.slice(0, 57)}...` : title}")` : `resources[${index}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The entries whose catalogue fields differ from what is stored (or that are not stored): only
 * these need writing. An entry without a stored copy (`file_path` null) keeps the store's copy, so
 * its `file_path` never counts as a difference.
 */
export function changedCatalogueEntries(stored: readonly Resource[], entries: readonly CatalogueEntry[]): CatalogueEntry[] {
  const byId = new Map(stored.map((resource) => [resource.id, resource]));
  return entries.filter((entry) => {
    const current = byId.get(entry.id);
    if (!current) return true;
    return (Object.keys(entry) as (keyof CatalogueEntry)[]).some((field) =>
      field === 'file_path' ? entry.file_path !== null && entry.file_path !== current.file_path : JSON.stringify(entry[field]) !== JSON.stringify(current[field]));
  });
}
