import { randomUUID } from 'node:crypto';
import type { BeyondOneRun, ProcessedDem, ProcessOptions, WindowedProcessing } from '../../adapters/elevation/geotiff-dem';
import type { StoredUpload } from '../../adapters/elevation/ranged-tiff';
import { ModelTileWriter, processedModelRecord, writeProcessedModel } from '../../adapters/elevation/processed-model';
import { MAX_DEM_UPLOAD_BYTES, accountModelPrefix, elevationUploadKey, parseElevationUploadKey } from '../../adapters/elevation/processed-keys';
import type { DynamoElevationModelStore } from '../../adapters/elevation-model-store';
import { uploadKeysOf, type UploadedElevationModel } from '../../domain/elevation-models/stored-model';
import { MAX_MODEL_ATTEMPTS, lostModelError, unreadableUploadError } from '../../domain/elevation-models/processing-job';
import { UploadReadError } from '../../domain/elevation-models/raster-error';
import { jobFailureOf, type JobFailure } from '../../domain/job-failure';
import type { JobLease } from '../../domain/job-lease';
import { windowBatches, WINDOWS_PER_RUN, type LatticeSize } from '../../domain/elevation-models/windows';
import { internalProcessingError, type ProcessingFanOut, type ProcessingOutcome, type ProcessingRun } from './processing-fan-out';
import { logger } from '../../observability/logger';
import { countJobEnd, METRIC } from '../../observability/metrics';
import type { JobRunner } from '../jobs/harness';
import { restartModelConnection, startModelConnection, type ConnectionFanOut, type ConnectionRecords } from './model-connection';
import { MAX_CONNECTION_ATTEMPTS, lostConnectionError } from '../../domain/elevation-models/connection';
import type { JobStart } from '../jobs/job-start';
import type { LapsedJob, SweptJobs } from '../jobs/sweep';
import type { RangedBlobStore } from '../../ports';

type ConnectionRecordsMethod = keyof ConnectionRecords;

export interface WorkerDeps {
  models: Pick<DynamoElevationModelStore, 'get' | 'claim' | 'finish' | 'release' | 'extendLease' | 'listExpiredLeases' | 'takeOver' | 'listPending' | 'listLapsedConnections' | ConnectionRecordsMethod>;
  blobs: RangedBlobStore;
  now: () => Date;
  /**
   * A model's uploaded GeoTIFFs (its parts, in order) → tiles, window by window, each upload read
   * by ranges where it is (never whole): in the worker Lambda itself (its memory is the cap),
   * locally in a worker thread.
   */
  processDem: (uploads: StoredUpload[], options: ProcessOptions, processing: WindowedProcessing) => Promise<ProcessedDem | BeyondOneRun>;
  /** Traces a ready model's tidal connection over its tiles (Step Functions in AWS, a thread pool locally). */
  fanOut: ConnectionFanOut;
  /**
   * Processes a model of more windows than one run takes (`windowsPerRun`, windows.ts) in batches
   * of `windowsPerBatch` (Step Functions in AWS, a thread pool locally); `windowTiles` sizes the windows.
   */
  processing: { fanOut: ProcessingFanOut; windowsPerRun?: number; windowsPerBatch?: number; windowTiles?: number };
}

/** What recording a model's outcome needs. */
export type OutcomeDeps = Pick<WorkerDeps, 'blobs' | 'now' | 'fanOut'> & { models: Pick<WorkerDeps['models'], 'get' | 'finish' | 'release' | ConnectionRecordsMethod> };

/** This process, as the holder of the leases it takes. */
const WORKER_ID = `worker_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

const tooLarge = (size: number, part: number, parts: number): JobFailure => ({
  code: 'file_too_large',
  detail: `${parts > 1 ? `Part ${part} of ${parts}` : 'The upload'} is ${size} bytes; at most ${MAX_DEM_UPLOAD_BYTES} (${MAX_DEM_UPLOAD_BYTES / 1024 ** 3} GiB) are accepted. Split the DEM and upload it as a model in parts (\`parts\`).`,
});

/** Each part's stored upload, or why they cannot be used: a part over the size limit, or gone. */
async function storedUploads(deps: WorkerDeps, keys: string[]): Promise<{ uploads: StoredUpload[] } | { error: JobFailure }> {
  const sizes = await Promise.all(keys.map((key) => deps.blobs.size(key)));
  const uploads: StoredUpload[] = [];
  for (const [i, size] of sizes.entries()) {
    if (size === undefined) return { error: { code: 'unusable_raster', detail: `${keys.length > 1 ? `Part ${i + 1} of the upload` : 'The upload'} is no longer in the bucket; create the model again.` } };
    if (size > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(size, i + 1, keys.length) };
    uploads.push({ key: keys[i]!, size });
  }
  return { uploads };
}

/** A claimed model too large for one run: its uploads, and its windows in batches. */
interface FanOutNeeded { fan_out: { uploads: StoredUpload[]; options: ProcessOptions; windows: number; lattice: LatticeSize } }

/** Tiles and model.json for a claimed model's uploads, or why they cannot be used, or that it must be fanned out. */
async function tileUpload(deps: WorkerDeps, entry: UploadedElevationModel, size: number | undefined): Promise<ProcessingOutcome | FanOutNeeded> {
  const keys = uploadKeysOf(entry);
  if (size !== undefined && size > MAX_DEM_UPLOAD_BYTES) return { error: tooLarge(size, 1, 1) };
  const { account_id: accountId, elevation_model_id: modelId } = entry;
  const prefix = accountModelPrefix(accountId, modelId);
  // Each window's tiles are written as they are made, so the run holds one window whatever the model's size.
  const tiles = new ModelTileWriter(deps.blobs, prefix);
  try {
    const stored = await storedUploads(deps, keys);
    if ('error' in stored) return stored;
    const options: ProcessOptions = {
      vertical_datum: entry.vertical_datum,
      units: entry.units,
      ...(entry.ngvd29_to_navd88_m === null ? {} : { ngvd29_to_navd88_m: entry.ngvd29_to_navd88_m }),
    };
    const { windowTiles, windowsPerRun = WINDOWS_PER_RUN } = deps.processing;
    const processed = await deps.processDem(stored.uploads, options, {
      writeTiles: (windowTiles) => tiles.write(windowTiles), windowLimit: windowsPerRun, ...(windowTiles === undefined ? {} : { windowTiles }),
    });
    if ('beyond_one_run' in processed) return { fan_out: { uploads: stored.uploads, options, ...processed.beyond_one_run } };
    const record = processedModelRecord(processed, {
      elevation_model_id: modelId, name: entry.name, source_vertical_datum: entry.vertical_datum,
      vertical_accuracy_m: entry.vertical_accuracy_m, surface_model: false,
    });
    const modelKey = await writeProcessedModel(deps.blobs, prefix, record, processed.tiles, tiles);
    return { ready: { crs: record.crs, resolution_m: record.resolution_m, bbox: record.bbox, vertical_conversion: record.vertical_conversion, model_key: modelKey } };
  } catch (error) {
    await tiles.discard();
    if (error instanceof UploadReadError) return { unreadable: error.message };
    const failure = jobFailureOf(error);
    if (!failure) logger.error('Elevation model processing failed', { modelId, error: error as Error });
    return { error: failure ?? internalProcessingError(modelId) };
  }
}

/** Whether every part of a model's upload is in the bucket. */
async function allArrived(blobs: Pick<RangedBlobStore, 'exists'>, keys: string[]): Promise<boolean> {
  return (await Promise.all(keys.map((key) => blobs.exists(key)))).every(Boolean);
}

/**
 * An uploaded GeoTIFF: in AWS from the bucket's ObjectCreated notification on the elevation
 * uploads (through the kind's queue), locally from the upload watcher, through this same function.
 * A model in several parts waits for the last of them (whichever arrives last starts it). The
 * model is claimed (pending → processing, under a lease) first, so a repeated notification does nothing.
 */
export async function processElevationUpload(deps: WorkerDeps, key: string, size: number | undefined): Promise<void> {
  const owner = parseElevationUploadKey(key);
  if (!owner) {
    logger.warn('Ignoring an object outside the elevation model uploads', { key });
    return;
  }
  const model = await deps.models.get(owner.accountId, owner.modelId);
  if (model?.source !== 'upload') return;
  const keys = uploadKeysOf(model);
  if (!keys.includes(key) || (keys.length > 1 && !(await allArrived(deps.blobs, keys)))) return;
  const entry = await deps.models.claim(owner.accountId, owner.modelId, deps.now(), WORKER_ID);
  if (!entry) return;
  // The notified part's size answers a one-part model's size check before anything is read.
  await processClaimedModel(deps, entry, keys.length === 1 ? size : undefined);
}

/**
 * Processes a model this worker holds the lease of, and records the outcome if the lease still
 * holds; a model of more windows than one run takes is handed to the processing fan-out, its lease
 * moved on for as long as a fanned-out run may take, and the run's join records the outcome.
 */
export async function processClaimedModel(deps: WorkerDeps, entry: UploadedElevationModel, size?: number): Promise<void> {
  const processed = await tileUpload(deps, entry, size);
  const held: HeldModel = { account_id: entry.account_id, elevation_model_id: entry.elevation_model_id, lease: entry.lease, upload_keys: uploadKeysOf(entry) };
  if (!('fan_out' in processed)) {
    await recordProcessingOutcome(deps, held, processed);
    return;
  }
  await fanOutModel(deps, entry, processed.fan_out);
}

/** A claimed model's batches handed to the fan-out under its lease, held for the fan-out's lease; a start that fails lets the lease go (the sweep tries again). */
async function fanOutModel(deps: WorkerDeps, entry: UploadedElevationModel, { uploads, options, windows, lattice }: FanOutNeeded['fan_out']): Promise<void> {
  const { account_id: accountId, elevation_model_id: modelId } = entry;
  if (!entry.lease) return;
  const { fanOut, windowTiles, windowsPerBatch } = deps.processing;
  const now = deps.now();
  const lease = { ...entry.lease, expires_at: new Date(now.getTime() + fanOut.leaseMs).toISOString() };
  if (!(await deps.models.extendLease(accountId, modelId, lease.owner, lease.expires_at, now))) return;
  const run: ProcessingRun = {
    account_id: accountId, elevation_model_id: modelId, run_id: `proc_${randomUUID().replace(/-/g, '')}`, lease,
    name: entry.name, vertical_datum: entry.vertical_datum, vertical_accuracy_m: entry.vertical_accuracy_m,
    model_prefix: accountModelPrefix(accountId, modelId), uploads, options, lattice, ...(windowTiles === undefined ? {} : { window_tiles: windowTiles }),
  };
  try {
    await fanOut.start({ run, batches: windowBatches(windows, windowsPerBatch) });
    logger.info('An elevation model is processed in batches of windows', { modelId, windows, runId: run.run_id });
  } catch (error) {
    logger.error('The processing fan-out of an elevation model could not be started', { modelId, error: error as Error });
    await deps.models.release(accountId, modelId, lease.owner, deps.now());
  }
}

/** A model held under a lease, as its outcome is recorded: by the worker that processed it, or by the join of its fanned-out run. */
export interface HeldModel {
  account_id: string;
  elevation_model_id: string;
  lease?: JobLease | null;
  upload_keys: string[];
}

/**
 * Records what processing came to if the lease still holds. Uploads that could not be read where
 * they are stored are not judged: with an attempt left the lease is let go at once (the sweep
 * processes the model again, uploads kept); on the last attempt the model fails
 * `storage_unavailable`. A model that turns ready starts its connection run.
 */
export async function recordProcessingOutcome(deps: OutcomeDeps, model: HeldModel | ProcessingRun, processed: ProcessingOutcome): Promise<void> {
  const { account_id: accountId, elevation_model_id: modelId, lease } = model;
  const uploadKeys = 'upload_keys' in model ? model.upload_keys : model.uploads.map((upload) => upload.key);
  if ('unreadable' in processed) logger.warn('An elevation model\'s upload could not be read from storage', { modelId, reason: processed.unreadable });
  if ('unreadable' in processed && lease && lease.attempt < MAX_MODEL_ATTEMPTS) {
    await deps.models.release(accountId, modelId, lease.owner, deps.now());
    return;
  }
  const outcome = 'unreadable' in processed ? { error: unreadableUploadError(processed.unreadable) } : processed;
  const finished = await deps.models.finish(accountId, modelId, outcome, deps.now(), lease);
  // The tiles are what is kept; the GeoTIFFs are not needed once processed (or refused).
  await deps.blobs.deleteMany(uploadKeys).catch(() => undefined);
  if (finished && 'ready' in outcome) {
    // The model is ready whatever becomes of its connection run, which records its own outcome.
    await startModelConnection({ ...deps, records: deps.models }, { account_id: accountId, elevation_model_id: modelId, model_key: outcome.ready.model_key! })
      .catch((error: Error) => logger.error('The connection run of a ready model was not recorded', { modelId, error }));
  }
}

/** The outcome of a fanned-out run, recorded and counted as the job harness counts a run of the worker's own. */
export async function recordRunOutcome(deps: OutcomeDeps, run: ProcessingRun, processed: ProcessingOutcome): Promise<void> {
  await recordProcessingOutcome(deps, run, processed);
  const after = await deps.models.get(run.account_id, run.elevation_model_id);
  countJobEnd('processing', after?.status, { succeeded: METRIC.elevationModelsProcessed, failed: METRIC.elevationModelsFailed });
}

/** What a fanned-out run that failed after its retries (the state machine's failure path) came to. */
export function failedRunOutcome(run: ProcessingRun, failure: { Error?: string; Cause?: string }): ProcessingOutcome {
  if (failure.Error === UploadReadError.name) return { unreadable: errorMessageOf(failure.Cause) };
  logger.error('A fanned-out elevation model processing run failed', { modelId: run.elevation_model_id, runId: run.run_id, error: failure.Error, cause: failure.Cause?.slice(0, 2000) });
  return { error: internalProcessingError(run.elevation_model_id) };
}

/** The message of a Lambda error as Step Functions passes it on (a JSON `Cause` with `errorMessage`). */
function errorMessageOf(cause: string | undefined): string {
  try {
    return String((JSON.parse(cause ?? '') as { errorMessage?: unknown }).errorMessage ?? cause);
  } catch {
    return cause ?? 'unknown';
  }
}

/** Waiting models older than this are not restarted by the sweep (their upload URL expired long ago). */
const WAITING_WINDOW_MS = 24 * 3600 * 1000;

/** The elevation model kind of the job harness: its upload's notification starts it, the sweep retries it. */
export function elevationModelRunner(deps: WorkerDeps): JobRunner {
  return {
    kind: 'elevation_model',
    status: async (ref) => (await deps.models.get(ref.account_id, ref.job_id))?.status,
    async run(start: JobStart) {
      if (!start.retry_of) {
        await processElevationUpload(deps, start.upload?.key ?? elevationUploadKey(start.ref.account_id, start.ref.job_id), start.upload?.size);
        return;
      }
      const lost = await deps.models.get(start.ref.account_id, start.ref.job_id);
      if (lost?.source !== 'upload') return;
      // A ready model's lapsed lease is its connection run's: a new run replaces the lost one.
      if (lost.status === 'ready' && lost.model_key) {
        await restartModelConnection({ ...deps, records: deps.models }, { account_id: lost.account_id, elevation_model_id: lost.elevation_model_id, model_key: lost.model_key }, start.retry_of);
        return;
      }
      const taken = await deps.models.takeOver({ ...lost, lease: start.retry_of }, WORKER_ID, deps.now());
      if (taken) await processClaimedModel(deps, taken);
    },
    startOfUpload(key, size) {
      const owner = parseElevationUploadKey(key);
      return owner ? { kind: 'elevation_model', ref: { account_id: owner.accountId, job_id: owner.modelId }, upload: { key, ...(size === undefined ? {} : { size }) } } : undefined;
    },
    metrics: { succeeded: METRIC.elevationModelsProcessed, failed: METRIC.elevationModelsFailed },
  };
}

/**
 * Models for the sweep: one whose worker was lost is processed again with an attempt left and its
 * upload still there, else failed `worker_lost`; a ready one whose connection run was lost is
 * traced again with an attempt left, else its connection is failed `connection_lost`; one whose
 * upload arrived but was never claimed is started again.
 */
export function elevationModelJobs(deps: Pick<WorkerDeps, 'models'> & { blobs: Pick<RangedBlobStore, 'exists'> }): SweptJobs {
  return {
    kind: 'elevation_model',
    async listLapsed(now) {
      const lapsed: LapsedJob[] = [];
      for (const lost of await deps.models.listExpiredLeases(now)) {
        if (!lost.lease) continue;
        lapsed.push({
          ref: { account_id: lost.account_id, job_id: lost.elevation_model_id },
          lease: lost.lease,
          retryable: lost.lease.attempt < MAX_MODEL_ATTEMPTS && await allArrived(deps.blobs, uploadKeysOf(lost)),
          failure: lostModelError(lost.lease.attempt),
        });
      }
      for (const lost of await deps.models.listLapsedConnections(now)) {
        const lease = lost.connection?.lease;
        if (!lease) continue;
        lapsed.push({
          ref: { account_id: lost.account_id, job_id: lost.elevation_model_id },
          lease,
          retryable: lease.attempt < MAX_CONNECTION_ATTEMPTS,
          failure: lostConnectionError(lease.attempt),
        });
      }
      return lapsed;
    },
    // Conditional on the lost lease, so a model (or a run) that finished meanwhile keeps its outcome.
    failLost: (job, now) => (job.failure.code === 'connection_lost'
      ? deps.models.endConnection(job.ref.account_id, job.ref.job_id, { seen: job.lease }, { status: 'failed', finished_at: now.toISOString(), error: job.failure })
      : deps.models.finish(job.ref.account_id, job.ref.job_id, { error: job.failure }, now, job.lease)),
    async listWaiting(before, now) {
      const waiting = (await deps.models.listPending(new Date(now.getTime() - WAITING_WINDOW_MS))).filter((entry) => entry.created_at < before.toISOString());
      const arrived = await Promise.all(waiting.map((entry) => allArrived(deps.blobs, uploadKeysOf(entry))));
      return waiting.filter((_, i) => arrived[i]).map((entry) => ({
        kind: 'elevation_model' as const, ref: { account_id: entry.account_id, job_id: entry.elevation_model_id }, upload: { key: entry.upload_key },
      }));
    },
  };
}
