import { Readable } from 'node:stream';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { readFeatureFile } from '../../shared/domain/assets/formats';
import { readGeoPackage } from '../../shared/domain/assets/formats/geopackage';
import { formatOfFilename } from '../../shared/domain/assets/file-formats';
import type { FeatureFile } from '../../shared/domain/assets/formats/features';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { assetRoutes } from '../../shared/routes/assets';
import { readingFile } from './request';

const GIS_FORMATS = 'GIS validation takes a GeoJSON file (.geojson/.json), a zipped Shapefile (.zip) or a GeoPackage (.gpkg).';

function gisFormat(filename: string): FeatureFile['format'] {
  if (filename.toLowerCase().endsWith('.gpkg')) return 'geopackage';
  const format = formatOfFilename(filename);
  if (format === 'geojson' || format === 'shapefile') return format;
  throw new AssetFileError('unsupported_format', GIS_FORMATS);
}

/** POST /compliance/gis-validation: findings are the report (200); only an unreadable file is a 400. */
export async function validateGisData(request: RouteRequest<Extract<(typeof assetRoutes)[number], { id: 'validateGisData' }>>): Promise<RouteResult> {
  const { fields, file, files } = request.form;
  const metadataFile = files.find((f) => f.field === 'metadata');
  const metadata = fields.metadata ?? metadataFile?.data.toString('utf8');
  const report = await readingFile(async () => {
    const format = gisFormat(file.filename);
    const features = format === 'geopackage'
      ? await readGeoPackage(file.data, fields.layer)
      : await readFeatureFile(format, () => Readable.from([file.data]));
    return validateGisDeliverable(features, { coordinateSystem: fields.coordinate_system, metadata });
  });
  return { status: 200, body: report };
}
