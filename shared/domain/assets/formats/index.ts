import type { Readable } from 'node:stream';
import { type AssetFileFormat } from '../file-formats';
import type { SourceRecord } from '../import-rows';
import { readCsv } from './csv';
import { featureRecords, type FeatureFile } from './features';
import { readGeoJson } from './geojson';
import { readShapefileZip } from './shapefile';
import { readAll } from './sniff';
import { readXlsx } from './xlsx';

export { ASSET_FILE_FORMATS, formatOfFilename, requireFormat, type AssetFileFormat } from '../file-formats';

/** GeoJSON and Shapefiles are parsed in memory; tables stream. */
export const MAX_IN_MEMORY_BYTES = 100 * 1024 * 1024;

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

export async function openAssetFile(format: AssetFileFormat, open: ByteSource, options: { headerRow?: number } = {}): Promise<OpenedAssetFile> {
  switch (format) {
    case 'csv': return { hasGeometry: false, records: readCsv(await open(), options) };
    case 'xlsx': return { hasGeometry: false, records: readXlsx(await open(), undefined, options) };
    case 'geojson':
    case 'shapefile': {
      const file = await readFeatureFile(format, open);
      return { hasGeometry: true, headers: file.headers, records: featureRecords(file) };
    }
  }
}
