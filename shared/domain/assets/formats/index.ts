import type { Readable } from 'node:stream';
import { AssetFileError } from '../file-error';
import type { SourceRecord } from '../import-rows';
import { readCsv } from './csv';
import { featureRecords, type FeatureFile } from './features';
import { readGeoJson } from './geojson';
import { readShapefileZip } from './shapefile';
import { readAll } from './sniff';
import { readXlsx } from './xlsx';

export const ASSET_FILE_FORMATS = ['csv', 'xlsx', 'geojson', 'shapefile'] as const;
export type AssetFileFormat = (typeof ASSET_FILE_FORMATS)[number];

/** GeoJSON and Shapefiles are parsed in memory; tables stream. */
export const MAX_IN_MEMORY_BYTES = 100 * 1024 * 1024;

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

/** Opens the bytes again on each call: the importer reads a file twice (validate, then write). */
export type ByteSource = () => Promise<Readable> | Readable;

export async function readFeatureFile(format: 'geojson' | 'shapefile', open: ByteSource): Promise<FeatureFile> {
  const buffer = await readAll(await open(), MAX_IN_MEMORY_BYTES);
  return format === 'geojson' ? readGeoJson(buffer) : readShapefileZip(buffer);
}

export interface OpenedAssetFile {
  hasGeometry: boolean;
  headers?: string[];
  records: AsyncIterable<SourceRecord>;
}

export async function openAssetFile(format: AssetFileFormat, open: ByteSource): Promise<OpenedAssetFile> {
  switch (format) {
    case 'csv': return { hasGeometry: false, records: readCsv(await open()) };
    case 'xlsx': return { hasGeometry: false, records: readXlsx(await open()) };
    case 'geojson':
    case 'shapefile': {
      const file = await readFeatureFile(format, open);
      return { hasGeometry: true, headers: file.headers, records: featureRecords(file) };
    }
  }
}
