import { AssetFileError } from './file-error';

/**
 * The file formats an import accepts, told from the file name. A leaf module: schemas and routes
 * import it without pulling in the parsers (exceljs, shapefile, proj4) of `./formats`.
 */
export const ASSET_FILE_FORMATS = ['csv', 'xlsx', 'geojson', 'shapefile'] as const;
export type AssetFileFormat = (typeof ASSET_FILE_FORMATS)[number];

/** The format of an upload from its file name (the extension is the claim the content must meet). */
export function formatOfFilename(filename: string): AssetFileFormat | undefined {
  const name = filename.toLowerCase();
  if (name.endsWith('.csv') || name.endsWith('.txt')) return 'csv';
  if (name.endsWith('.xlsx')) return 'xlsx';
  if (name.endsWith('.geojson') || name.endsWith('.json')) return 'geojson';
  if (name.endsWith('.zip')) return 'shapefile';
  return undefined;
}

export function requireFormat(filename: string): AssetFileFormat {
  const format = formatOfFilename(filename);
  if (!format) {
    throw new AssetFileError('unsupported_format', `Cannot tell the format of "${filename}": use .csv, .xlsx, .geojson (or .json) or a zipped Shapefile (.zip).`);
  }
  return format;
}
