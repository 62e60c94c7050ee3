import { canonicalJson, sha256Hex } from '../content-hash';
import type { StoredAsset } from '../assets/ports';
import { decodeListCursor, encodeListCursor } from '../list-cursor';

/**
 * The statute's prioritized list of impacted critical assets: `GET /assets?sort=` and the
 * deliverables' asset list share this one order.
 *
 * - `-vulnerability_score`: highest score first; then deepest maximum depth, earliest first
 *   exposed year, name, id. Assets without a score come last.
 * - `vulnerability_score`: lowest first, assets without a score last.
 * - `first_exposed_year`: earliest first, never-exposed and unassessed assets last; ties by the
 *   highest score.
 * - `name`: alphabetical (case-insensitive), then id.
 */
export const ASSET_SORTS = ['-vulnerability_score', 'vulnerability_score', 'name', 'first_exposed_year'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];

const scoreOf = (asset: StoredAsset) => asset.vulnerability?.vulnerability_score ?? null;
const depthOf = (asset: StoredAsset) => asset.exposure?.max_depth_ft ?? asset.vulnerability?.flood_depth_ft ?? null;
export const firstExposedYearOf = (asset: StoredAsset) => asset.vulnerability?.first_exposed_year ?? asset.exposure?.first_exposed_year ?? null;

/** Nulls last whatever the direction. */
function compareNullable(a: number | null, b: number | null, direction: 1 | -1): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return (a - b) * direction;
}

const byName = (a: StoredAsset, b: StoredAsset) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || (a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0);

const COMPARATORS: Record<AssetSort, (a: StoredAsset, b: StoredAsset) => number> = {
  '-vulnerability_score': (a, b) => compareNullable(scoreOf(a), scoreOf(b), -1) || compareNullable(depthOf(a), depthOf(b), -1)
    || compareNullable(firstExposedYearOf(a), firstExposedYearOf(b), 1) || byName(a, b),
  vulnerability_score: (a, b) => compareNullable(scoreOf(a), scoreOf(b), 1) || byName(a, b),
  first_exposed_year: (a, b) => compareNullable(firstExposedYearOf(a), firstExposedYearOf(b), 1) || compareNullable(scoreOf(a), scoreOf(b), -1) || byName(a, b),
  name: byName,
};

/** The comparison of the sort, for a caller that sorts in runs (the package's inventory). */
export const assetOrder = (sort: AssetSort) => COMPARATORS[sort];

export function sortAssets(assets: readonly StoredAsset[], sort: AssetSort): StoredAsset[] {
  return [...assets].sort(COMPARATORS[sort]);
}

/**
 * A page of a sorted list. The cursor carries the offset and a fingerprint of the query (account,
 * filters and sort), so it only continues the list it came from.
 */
export function sortedPage<T>(sorted: readonly T[], query: { accountId: string; filter: unknown; sort: AssetSort }, limit: number, cursor?: string): { items: T[]; nextCursor: string | null } {
  const fingerprint = sha256Hex(canonicalJson(query)).slice(0, 16);
  let offset = 0;
  if (cursor !== undefined) {
    offset = decodeListCursor(cursor, ({ f, o }) => (f === fingerprint && Number.isInteger(o) && (o as number) >= 0 ? o as number : undefined));
  }
  const items = sorted.slice(offset, offset + limit);
  const next = offset + limit;
  return { items, nextCursor: next < sorted.length ? encodeListCursor({ o: next, f: fingerprint }) : null };
}
