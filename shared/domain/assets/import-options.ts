import type { ColumnMap } from './columns';

/** What happens to a row outside the named jurisdiction: refused (the default), imported with a warning, or imported. */
export const OUTSIDE_JURISDICTION_MODES = ['reject', 'warn', 'accept'] as const;
export type OutsideJurisdictionMode = (typeof OUTSIDE_JURISDICTION_MODES)[number];

/** How to read the file, from the import's optional fields (kept on the import for its worker). */
export interface ImportOptions {
  outside_jurisdiction?: OutsideJurisdictionMode;
  /** EPSG code of a table's coordinates (its x/y or easting/northing columns); WGS84 degrees when absent. */
  crs?: number;
  /** 1-based row of a table's header (rows above it are skipped). */
  header_row?: number;
  column_map?: ColumnMap;
}
