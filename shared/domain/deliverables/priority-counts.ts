import type { StoredAsset } from '../assets/ports';
import { VULNERABILITY_LEVELS as ASSESSED_LEVELS } from '../assets/vulnerability';

/**
 * The prioritized list as the report summarises a long one: assets per statute category and
 * vulnerability level. The report prints at most REPORT_LISTED_ASSETS entries of the list; the
 * workbook and the GIS layers always hold all of it.
 */
export const REPORT_LISTED_ASSETS = 500;

/** Most vulnerable first, as the list is ordered; `not_assessed` last. */
export const VULNERABILITY_LEVELS = [...[...ASSESSED_LEVELS].reverse(), 'not_assessed'] as const;

export interface PriorityCounts {
  total: number;
  /** Per category, assets per vulnerability level. */
  byCategory: Record<string, Record<string, number>>;
  byLevel: Record<string, number>;
}

export const emptyPriorityCounts = (): PriorityCounts => ({
  total: 0,
  byCategory: Object.create(null) as Record<string, Record<string, number>>,
  byLevel: Object.create(null) as Record<string, number>,
});

/** Counts one more asset of the list (in place). */
export function countPriority(
  counts: PriorityCounts,
  asset: Pick<StoredAsset, 'category' | 'vulnerability_level'>,
): void {
  const levels = (counts.byCategory[asset.category] ??= Object.create(null) as Record<string, number>);
  levels[asset.vulnerability_level] = (levels[asset.vulnerability_level] ?? 0) + 1;
  counts.byLevel[asset.vulnerability_level] = (counts.byLevel[asset.vulnerability_level] ?? 0) + 1;
  counts.total++;
}
