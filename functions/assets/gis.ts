import { Readable } from 'node:stream';
import { validateGisDeliverable } from '../../shared/domain/assets/gis-validation';
import { AssetFileError } from '../../shared/domain/assets/file-error';
import { readFeatureFile, requireFormat } from '../../shared/domain/assets/formats';
import type { RouteRequest, RouteResult } from '../../shared/http/types';
import { GisFields } from '../../shared/schemas/assets';
import { readForm, readingFile, requireFilePart, validateFields } from './request';

/** POST /compliance/gis-validation: findings are the report (200); only an unreadable file is a 400. */
export async function validateGisData(request: RouteRequest): Promise<RouteResult> {
  const form = await readForm(request, 2);
  const file = requireFilePart(form, 'file');
  const fields = validateFields(GisFields, form.fields);
  const metadataFile = form.files.find((f) => f.field === 'metadata');
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
