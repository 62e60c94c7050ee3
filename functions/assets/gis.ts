import { Readable } from 'node:stream';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { readFeatureFile, requireFormat } from '../../shared/domain/assets/formats';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import type { assetRoutes } from '../../shared/routes/assets';
import { readingFile } from './request';

/** POST /compliance/gis-validation: findings are the report (200); only an unreadable file is a 400. */
export async function validateGisData(request: RouteRequest<Extract<(typeof assetRoutes)[number], { id: 'validateGisData' }>>): Promise<RouteResult> {
  const { fields, file, files } = request.form;
  const metadataFile = files.find((f) => f.field === 'metadata');
  const metadata = fields.metadata ?? metadataFile?.data.toString('utf8');
  const report = await readingFile(async () => {
    const format = requireFormat(file.filename);
    if (format !== 'geojson' && format !== 'shapefile') {
      throw new AssetFileError('unsupported_format', 'GIS validation takes a GeoJSON file (.geojson/.json) or a zipped Shapefile (.zip).');
    }
    const features = await readFeatureFile(format, () => Readable.from([file.data]));
    return validateGisDeliverable(features, { coordinateSystem: fields.coordinate_system, metadata });
  });
  return { status: 200, body: report };
}
