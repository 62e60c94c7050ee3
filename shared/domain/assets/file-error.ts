import { JobFailureError } from '../job-failure';

/**
 * A file that cannot be imported or validated as a whole: not what its name claims, unreadable,
 * without geometry, in the wrong coordinate order, outside Florida. Handlers answer it with 400;
 * nothing from the file is written.
 */
export type FileErrorCode =
  | 'empty_file'
  | 'unsupported_format'
  | 'malformed_csv'
  | 'malformed_xlsx'
  | 'malformed_json'
  | 'invalid_geojson'
  | 'malformed_zip'
  | 'malformed_shapefile'
  | 'malformed_geopackage'
  | 'layer_not_chosen'
  | 'missing_name_column'
  | 'no_geometry'
  | 'coordinate_order'
  | 'outside_florida'
  | 'unsupported_crs'
  | 'no_valid_rows'
  | 'outside_jurisdiction'
  | 'unknown_column'
  | 'column_name_too_long'
  | 'file_too_large';

export class AssetFileError extends JobFailureError {
  constructor(readonly code: FileErrorCode, detail: string, readonly extra: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'AssetFileError';
  }
}
