import { Readable } from 'node:stream';
import { validateGisDeliverable } from '../../domain/assets/gis-validation';
import { AssetFileError } from '../../domain/assets/file-error';
import { readFeatureFile } from '../../domain/assets/formats';
import { readGeoPackage } from '../../domain/assets/formats/geopackage';
import { formatOfFilename } from '../../domain/assets/file-formats';
import type { FeatureFile } from '../../domain/assets/formats/features';
import type { GisFields } from '../../schemas/assets';
import type * as z from 'zod';

const GIS_FORMATS = 'GIS validation takes a GeoJSON file (.geojson/.json), a zipped Shapefile (.zip) or a GeoPackage (.gpkg).';

function gisFormat(filename: string): FeatureFile['format'] {
  if (filename.toLowerCase().endsWith('.gpkg')) return 'geopackage';
  const format = formatOfFilename(filename);
  if (format === 'geojson' || format === 'shapefile') return format;
  throw new AssetFileError('unsupported_format', GIS_FORMATS);
}

/**
 * `POST /compliance/gis-validation`: the findings are the report; only an unreadable file throws
 * (its AssetFileError). The metadata comes as a field or as a `metadata` file part.
 */
export async function validateGisData(fields: z.infer<ReturnType<typeof GisFields>>, file: { filename: string; data: Buffer }, metadataFile: { data: Buffer } | undefined) {
  const metadata = fields.metadata ?? metadataFile?.data.toString('utf8');
  const format = gisFormat(file.filename);
  const features = format === 'geopackage'
    ? await readGeoPackage(file.data, fields.layer)
    : await readFeatureFile(format, () => Readable.from([file.data]));
  return validateGisDeliverable(features, { coordinateSystem: fields.coordinate_system, metadata });
}
