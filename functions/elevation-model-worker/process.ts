import { randomUUID } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import type { ProcessedDem, ProcessOptions } from '../../shared/adapters/elevation/geotiff-dem';
import { processedModelRecord, writeProcessedModel } from '../../shared/adapters/elevation/processed-model';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, parseElevationUploadKey } from '../../shared/adapters/elevation/processed-keys';
import type { DynamoElevationModelStore, ElevationModelEntry, ProcessedFields } from '../../shared/adapters/elevation-model-store';
import { isRetryable, lostModelError } from '../../shared/domain/elevation-models/processing-job';
import { jobFailureOf, type JobFailure } from '../../shared/domain/job-failure';
import { logger } from '../../shared/observability/logger';
import type { BlobStore } from '../../shared/ports';

export interface WorkerDeps {
  models: Pick<DynamoElevationModelStore, 'claim' | 'finish' | 'listExpiredLeases' | 'takeOver'>;
  blobs: BlobStore;
  now: () => Date;
  /** GeoTIFF → tiles: in the worker Lambda itself (its memory is the cap), locally in a worker thread. */
  processDem: (bytes: Uint8Array, options: ProcessOptions) => Promise<ProcessedDem>;
}

/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

const tooLarge = (size: number): JobFailure => ({
  code: 'file_too_large',
  detail: `The upload is ${size} bytes; at most ${MAX_DEM_UPLOAD_BYTES} (256 MiB) are accepted. Split the DEM into tiles and upload each as a model.`,
});

/** Tiles and model.json for a claimed model's upload, or why it cannot be used. */
async function tileUpload(deps: WorkerDeps, entry: ElevationModelEntry, size: number | undefined): Promise<{ ready: ProcessedFields } | { error: JobFailure }> {
  if (size !== undefined && size > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(size) };
  const { account_id: accountId, elevation_model_id: modelId } = entry;
  try {
    const bytes = await deps.blobs.get(entry.upload_key);
    if (!bytes) return { error: { code: 'unusable_raster', detail: 'The upload is no longer in the bucket; create the model again.' } };
    if (bytes.byteLength > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(bytes.byteLength) };
    const processed = await deps.processDem(bytes, {
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
    const failure = jobFailureOf(error);
    if (!failure) logger.error('Elevation model processing failed', { modelId, error: error as Error });
    return { error: failure ?? { code: 'internal_error', detail: `Processing stopped on an unexpected error; quote ${modelId} when reporting it, or create the model again.` } };
  }
}

/**
 * An uploaded GeoTIFF: in AWS from the bucket's ObjectCreated notification on the elevation
 * uploads, locally from the upload watcher, through this same function. The model is claimed
 * (pending → processing, under a lease) first, so a repeated notification does nothing.
 */
export async function processElevationUpload(deps: WorkerDeps, key: string, size: number | undefined): Promise<void> {
  const owner = parseElevationUploadKey(key);
  if (!owner) {
    logger.warn('Ignoring an object outside the elevation model uploads', { key });
    return;
  }
  const entry = await deps.models.claim(owner.accountId, owner.modelId, deps.now(), WORKER_ID);
  if (!entry || entry.upload_key !== key) return;
  await processClaimedModel(deps, entry, size);
}

/** Processes a model this worker holds the lease of, and records the outcome if the lease still holds. */
export async function processClaimedModel(deps: WorkerDeps, entry: ElevationModelEntry, size?: number): Promise<void> {
  const { account_id: accountId, elevation_model_id: modelId } = entry;
  await deps.models.finish(accountId, modelId, await tileUpload(deps, entry, size), deps.now(), entry.lease);
  // The tiles are what is kept; the GeoTIFF is not needed once processed (or refused).
  await deps.blobs.delete(entry.upload_key).catch(() => undefined);
}

/**
 * Models whose worker was lost (lease lapsed): with an attempt left and the upload still there, taken
 * over and returned, to be processed again with `processClaimedModel`; the others are failed
 * `worker_lost`. None stays `processing`.
 */
export async function sweepLostElevationModels(deps: WorkerDeps): Promise<ElevationModelEntry[]> {
  const now = deps.now();
  const retried: ElevationModelEntry[] = [];
  for (const lost of await deps.models.listExpiredLeases(now)) {
    if (isRetryable(lost, now) && await deps.blobs.exists(lost.upload_key)) {
      const taken = await deps.models.takeOver(lost, WORKER_ID, now);
      if (taken) retried.push(taken);
    } else {
      // Conditional on the lost lease, so a model that finished meanwhile keeps its outcome.
      await deps.models.finish(lost.account_id, lost.elevation_model_id, { error: lostModelError(lost.lease?.attempt ?? 1) }, now, lost.lease);
    }
  }
  return retried;
}

/** S3 notification keys are URL-encoded, with `+` for spaces. */
export async function processElevationUploadEvent(deps: WorkerDeps, event: S3Event): Promise<void> {
  for (const record of event.Records) {
    await processElevationUpload(deps, decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')), record.s3.object.size);
  }
}
