import type { S3Event } from 'aws-lambda';
import { processDem } from '../../shared/adapters/elevation/geotiff-dem';
import { processedModelRecord, writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, parseElevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import type { DynamoElevationModelStore, ElevationModelEntry, ProcessedFields } from '../../shared/adapters/elevation-model-store';
import { RasterError } from '../../shared/domain/elevation-models/reproject';
import { VerticalReferenceError } from '../../shared/domain/elevation-models/vertical';
import { logger } from '../../shared/observability/logger';
import type { BlobStore } from '../../shared/ports';

export interface WorkerDeps {
  models: Pick<DynamoElevationModelStore, 'claim' | 'finish'>;
  blobs: BlobStore;
  now: () => Date;
}

type Failure = { code: string; detail: string };

/** The reason code of a file processing refused, from what the reader says about it. */
export function failureOf(error: unknown): Failure | undefined {
  if (error instanceof VerticalReferenceError) return { code: 'invalid_vertical_reference', detail: error.message };
  if (!(error instanceof RasterError)) return undefined;
  const detail = error.message;
  if (/not a readable GeoTIFF/.test(detail)) return { code: 'not_a_geotiff', detail };
  if (/EPSG|coordinate system|do not transform|CRS/.test(detail)) return { code: 'unsupported_crs', detail };
  if (/cells; the limit/.test(detail)) return { code: 'file_too_large', detail };
  return { code: 'unusable_raster', detail };
}

const tooLarge = (size: number): Failure => ({
  code: 'file_too_large',
  detail: `The upload is ${size} bytes; at most ${MAX_DEM_UPLOAD_BYTES} (256 MiB) are accepted. Split the DEM into tiles and upload each as a model.`,
});

/** Tiles and model.json for a claimed model's upload, or why it cannot be used. */
async function tileUpload(deps: WorkerDeps, entry: ElevationModelEntry, size: number | undefined): Promise<{ ready: ProcessedFields } | { error: Failure }> {
  if (size !== undefined && size > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(size) };
  const { account_id: accountId, elevation_model_id: modelId } = entry;
  try {
    const bytes = await deps.blobs.get(entry.upload_key);
    if (!bytes) return { error: { code: 'unusable_raster', detail: 'The upload is no longer in the bucket; create the model again.' } };
    if (bytes.byteLength > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(bytes.byteLength) };
    const processed = await processDem(bytes, {
      vertical_datum: entry.vertical_datum,
      units: entry.units,
      ...(entry.ngvd29_to_navd88_m === null ? {} : { ngvd29_to_navd88_m: entry.ngvd29_to_navd88_m }),
    });
    const record = processedModelRecord(processed, {
      elevation_model_id: modelId, name: entry.name, source_vertical_datum: entry.vertical_datum,
      vertical_accuracy_m: entry.vertical_accuracy_m, surface_model: false,
    });
    const modelKey = await writeProcessedModel(deps.blobs, accountModelPrefix(accountId, modelId), record, processed.tiles);
    return { ready: { crs: record.crs, resolution_m: record.resolution_m, bbox: record.bbox, vertical_conversion: record.vertical_conversion, model_key: modelKey } };
  } catch (error) {
    const failure = failureOf(error);
    if (!failure) logger.error('Elevation model processing failed', { modelId, error: error as Error });
    return { error: failure ?? { code: 'internal_error', detail: `Processing stopped on an unexpected error; quote ${modelId} when reporting it, or create the model again.` } };
  }
}

/**
 * An uploaded GeoTIFF: in AWS from the bucket's ObjectCreated notification on the elevation
 * uploads, locally from the upload watcher, through this same function. The model is claimed
 * (pending → processing) first, so a repeated notification does nothing.
 */
export async function processElevationUpload(deps: WorkerDeps, key: string, size: number | undefined): Promise<void> {
  const owner = parseElevationUploadKey(key);
  if (!owner) {
    logger.warn('Ignoring an object outside the elevation model uploads', { key });
    return;
  }
  const entry = await deps.models.claim(owner.accountId, owner.modelId, deps.now());
  if (!entry || entry.upload_key !== key) return;
  await deps.models.finish(owner.accountId, owner.modelId, await tileUpload(deps, entry, size), deps.now());
  // The tiles are what is kept; the GeoTIFF is not needed once processed (or refused).
  await deps.blobs.delete(key).catch(() => undefined);
}

/** S3 notification keys are URL-encoded, with `+` for spaces. */
export async function processElevationUploadEvent(deps: WorkerDeps, event: S3Event): Promise<void> {
  for (const record of event.Records) {
    await processElevationUpload(deps, decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')), record.s3.object.size);
  }
}
