import { planGeoTiffDem, processedDemOf, processWindow, type ProcessOptions, type WindowedDem } from '../../adapters/elevation/geotiff-dem';
import { storedFile, type StoredUpload } from '../../adapters/elevation/ranged-tiff';
import { processedModelRecord, writeProcessedModel } from '../../adapters/elevation/processed-model';
import { processingBatchKey } from '../../adapters/elevation/processed-keys';
import { checkElevationStats, mergeStats, NO_SAMPLES } from '../../domain/elevation-models/budget';
import { tileKey } from '../../domain/elevation-models/pyramid';
import { RasterError, UploadReadError } from '../../domain/elevation-models/raster-error';
import { PROCESSING_FAN_OUT_LEASE_MS, PROCESSING_RUN_LIMIT_MS } from '../../domain/elevation-models/processing-job';
import { inLanes } from '../jobs/lanes';
import type { UploadedElevationModel } from '../../domain/elevation-models/stored-model';
import {
  decodeWindowBatch, encodeWindowBatch, WindowedPyramid, windowLayout, windowTileNames, type LatticeSize, type WindowBatch, type WindowBatchResult, type WindowLayout,
} from '../../domain/elevation-models/windows';
import { jobFailureOf, type JobFailure } from '../../domain/job-failure';
import type { JobLease } from '../../domain/job-lease';
import { logger } from '../../observability/logger';
import type { RangedBlobStore } from '../../ports';
import type { ProcessedFields } from '../../adapters/elevation-model-store';

/**
 * A model of more windows than one run processes, fanned out (a Step Functions Distributed Map in
 * AWS, lib/elevation-processing-fan-out.ts; a pool of threads locally): each batch of windows is
 * processed on its own — decoded, resampled, tiled, its tiles written — and leaves a small result
 * (its cells' statistics, its tile names, its share of the coarse overview cells); the join reads
 * the results in order and makes what only the whole model can: the coarse overviews, the checks
 * over every cell, `model.json`. A model processed so is the model one run would make, tile for tile.
 */

/** What every step of a run is given: the model, its uploads and how it is processed. */
export interface ProcessingRun {
  account_id: string;
  elevation_model_id: string;
  /** Names the execution and the batches' results. */
  run_id: string;
  /** The model's lease as the run holds it: its outcome lands only while it holds. */
  lease: JobLease;
  name: string;
  vertical_datum: UploadedElevationModel['vertical_datum'];
  vertical_accuracy_m: number | null;
  model_prefix: string;
  uploads: StoredUpload[];
  options: ProcessOptions;
  /** Side of a window in level-0 tiles (windows.ts); the default unless told. */
  window_tiles?: number;
  /**
   * The model's lattice in cells, as planned when the run started: the windows, and so the names
   * of every tile a batch may write, follow from it without the uploads. (Absent from runs started
   * before it was recorded.)
   */
  lattice?: LatticeSize;
}

/** A run as the fan-out starts it: the run and its batches of windows. */
export interface ProcessingRunStart {
  run: ProcessingRun;
  batches: WindowBatch[];
}

/** Starts a fanned-out run; its last step records the model's outcome. */
export interface ProcessingFanOut {
  /** How long the model's lease is held for a run it starts: only a lost run lets it lapse. */
  readonly leaseMs: number;
  start(start: ProcessingRunStart): Promise<void>;
}

/** What processing a model came to: ready, refused, or its uploads unreadable where they are stored (tried again). */
export type ProcessingOutcome = { ready: ProcessedFields } | { error: JobFailure } | { unreadable: string };

/** The run's DEM, opened where its uploads are (headers only) and planned: every step plans the same windows. */
function plannedDem(blobs: RangedBlobStore, run: ProcessingRun): Promise<WindowedDem> {
  return planGeoTiffDem(run.uploads.map((upload) => storedFile(blobs, upload.key, upload.size)), run.options, run.window_tiles);
}

/**
 * Map step, per batch: its windows processed, their tiles written, and its result kept for the
 * join. A refusal of the file (a window's heights out of range) is its result, not an error to
 * retry; a storage failure is thrown (`UploadReadError`), to be tried again.
 */
export async function processWindowBatch(blobs: RangedBlobStore, run: ProcessingRun, batch: WindowBatch): Promise<void> {
  let result: WindowBatchResult = { samples: NO_SAMPLES, windows: [] };
  try {
    const dem = await plannedDem(blobs, run);
    for (let i = batch.first; i < batch.first + batch.count; i++) {
      const { tiles, samples, ...window } = await processWindow(dem, i);
      for (const [key, bytes] of tiles) await blobs.put(`${run.model_prefix}${key}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'application/gzip');
      result.samples = mergeStats(result.samples, samples);
      result.windows.push(window);
    }
  } catch (error) {
    // The windows before the one that failed wrote their tiles: a batch that fails keeps none.
    await blobs.deleteMany(writtenTiles(run.model_prefix, result)).catch(() => undefined);
    const refused = jobFailureOf(error);
    if (!refused) throw error;
    result = { refused };
  }
  await blobs.put(processingBatchKey(run.model_prefix, run.run_id, batch.first), Buffer.from(encodeWindowBatch(result)), 'application/octet-stream');
}

/** The objects a batch's windows wrote. */
function writtenTiles(prefix: string, result: WindowBatchResult): string[] {
  if ('refused' in result) return [];
  return result.windows.flatMap((window) => window.present.flatMap((names, level) => names.map((name) => `${prefix}${tileKey(level, name)}`)));
}

/**
 * Join step, once: the batches' results in order, the overviews and index only the whole model
 * gives, `model.json` last. A refusal in any batch (the first in window order) is the model's; a
 * refused model keeps none of its tiles. The batches' results are removed either way.
 */
export async function joinWindowBatches(blobs: RangedBlobStore, run: ProcessingRun, batches: readonly WindowBatch[]): Promise<ProcessingOutcome> {
  const keys = batches.map((batch) => processingBatchKey(run.model_prefix, run.run_id, batch.first));
  const results: WindowBatchResult[] = [];
  for (const key of keys) {
    const bytes = await blobs.get(key);
    if (!bytes) throw new Error(`The result of window batch ${key} is missing.`);
    results.push(decodeWindowBatch(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  }
  const written = results.flatMap((result) => writtenTiles(run.model_prefix, result));
  const discard = () => blobs.deleteMany(written).catch(() => undefined);
  try {
    const refused = results.find((result): result is Extract<WindowBatchResult, { refused: JobFailure }> => 'refused' in result);
    if (refused) {
      await discard();
      return { error: refused.refused };
    }
    const dem = await plannedDem(blobs, run);
    const pyramid = new WindowedPyramid(dem.plan, dem.conversion.stored_datum, dem.waterRawValue !== undefined);
    let samples = NO_SAMPLES;
    for (const result of results as Array<Exclude<WindowBatchResult, { refused: JobFailure }>>) {
      samples = mergeStats(samples, result.samples);
      for (const window of result.windows) pyramid.add(window);
    }
    checkElevationStats(samples, dem.conversion);
    const built = pyramid.finish();
    const processed = processedDemOf(dem, built);
    const record = processedModelRecord(processed, {
      elevation_model_id: run.elevation_model_id, name: run.name, source_vertical_datum: run.vertical_datum,
      vertical_accuracy_m: run.vertical_accuracy_m, surface_model: false,
    });
    const modelKey = await writeProcessedModel(blobs, run.model_prefix, record, built.tiles);
    return { ready: { crs: record.crs, resolution_m: record.resolution_m, bbox: record.bbox, vertical_conversion: record.vertical_conversion, model_key: modelKey } };
  } catch (error) {
    await discard();
    if (error instanceof UploadReadError) return { unreadable: error.message };
    const failure = jobFailureOf(error);
    if (!failure) {
      logger.error('Joining an elevation model\'s windows failed', { modelId: run.elevation_model_id, error: error as Error });
      return { error: internalProcessingError(run.elevation_model_id) };
    }
    return { error: failure };
  } finally {
    await blobs.deleteMany(keys).catch(() => undefined);
  }
}

/** Why a model whose processing stopped on an unexpected error ended `failed`. */
export const internalProcessingError = (modelId: string): JobFailure => ({
  code: 'internal_error',
  detail: `Processing stopped on an unexpected error; quote ${modelId} when reporting it, or create the model again.`,
});

/**
 * A failed run's leftovers: the tiles of every batch whose result was kept, and the results. A
 * batch that fails with an error removes its own tiles; one with no result (its process died or
 * timed out part-way, or it never ran) may have written any of its windows' tiles, so all their
 * possible names are removed, from the windows of the run's lattice. A run started before its
 * lattice was recorded plans them from its uploads; if those can no longer be read, such tiles are
 * left, and said so.
 */
export async function discardWindowBatches(blobs: RangedBlobStore, run: ProcessingRun, batches: readonly WindowBatch[]): Promise<void> {
  let plan: Promise<WindowLayout | undefined> | undefined = run.lattice && Promise.resolve(windowLayout(run.lattice, run.window_tiles));
  for (const batch of batches) {
    const key = processingBatchKey(run.model_prefix, run.run_id, batch.first);
    const bytes = await blobs.get(key);
    if (bytes) {
      const result = decodeWindowBatch(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      await blobs.deleteMany([...writtenTiles(run.model_prefix, result), key]);
      continue;
    }
    plan ??= plannedDem(blobs, run).then((dem) => dem.plan, (error: Error) => {
      logger.warn('Window batches without a result may have left tiles: the uploads could not be planned', { modelId: run.elevation_model_id, error });
      return undefined;
    });
    const windows = await plan;
    if (windows) await blobs.deleteMany(batchTileKeys(run.model_prefix, windows, batch));
  }
}

/** Every object the windows of a batch may have written. */
function batchTileKeys(prefix: string, plan: WindowLayout, batch: WindowBatch): string[] {
  const keys: string[] = [];
  for (let i = batch.first; i < batch.first + batch.count; i++) {
    windowTileNames(plan, i).forEach((names, level) => keys.push(...names.map((name) => `${prefix}${tileKey(level, name)}`)));
  }
  return keys;
}

/** The steps of a run: in this thread, or each handed to a pool of threads. */
export interface ProcessingSteps {
  batch(run: ProcessingRun, batch: WindowBatch): Promise<void>;
  join(run: ProcessingRun, batches: readonly WindowBatch[]): Promise<ProcessingOutcome>;
}

/** The steps in this thread, over `blobs`. */
export const inProcessSteps = (blobs: RangedBlobStore): ProcessingSteps => ({
  batch: (run, batch) => processWindowBatch(blobs, run, batch),
  join: (run, batches) => joinWindowBatches(blobs, run, batches),
});

/** What running a whole run in this process needs: the steps, and the recording of its outcome. */
export interface InProcessRunDeps {
  steps: ProcessingSteps;
  /** Batches processed at once (one per thread). */
  concurrency: number;
  record(run: ProcessingRun, outcome: ProcessingOutcome): Promise<void>;
  /** Removes what the batches of a failed run wrote (discardWindowBatches). */
  discard(run: ProcessingRun, batches: readonly WindowBatch[]): Promise<void>;
  /** Lets the run's lease lapse now, its outcome unrecorded: the next sweep processes the model again. */
  letGo(run: ProcessingRun): Promise<void>;
  now: () => Date;
}

/**
 * A whole run in this process, as the state machine runs it: every batch (at most `concurrency`
 * at once), the join, the outcome recorded either way. A run past `limitMs` (checked between
 * batches) is refused `processing_limit_exceeded`; one stopped by `stopped` (its process is
 * stopping) records nothing and lets its lease go, so the next sweep processes the model again.
 */
export async function runModelProcessing(deps: InProcessRunDeps, { run, batches }: ProcessingRunStart, limitMs: number, stopped?: AbortSignal): Promise<void> {
  const deadline = deps.now().getTime() + limitMs;
  let outcome: ProcessingOutcome;
  try {
    await inLanes(batches, deps.concurrency, async (batch) => {
      if (deps.now().getTime() > deadline) throw new RasterError(`Processing the raster took longer than ${limitMs / 60_000} minutes and was stopped; split it into smaller tiles.`, 'processing_limit_exceeded');
      await deps.steps.batch(run, batch);
    }, stopped);
    outcome = await deps.steps.join(run, batches);
  } catch (error) {
    if (stopped?.aborted) {
      await deps.discard(run, batches).catch(() => undefined);
      await deps.letGo(run);
      logger.info('A processing run stopped with its process; the next sweep processes the model again', { modelId: run.elevation_model_id });
      return;
    }
    const refused = jobFailureOf(error);
    if (!refused && !(error instanceof UploadReadError)) logger.error('A processing run failed', { modelId: run.elevation_model_id, error: error as Error });
    outcome = error instanceof UploadReadError ? { unreadable: error.message } : { error: refused ?? internalProcessingError(run.elevation_model_id) };
    await deps.discard(run, batches).catch(() => undefined);
  }
  await deps.record(run, outcome);
}

/**
 * The fan-out in this process (local mode): each run goes on in the background over `deps.steps`
 * (a pool of threads) and records its own outcome; `stop` makes running runs let their leases go.
 */
export class InProcessProcessingFanOut implements ProcessingFanOut {
  readonly leaseMs = PROCESSING_FAN_OUT_LEASE_MS;
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: InProcessRunDeps) {}

  async start(start: ProcessingRunStart): Promise<void> {
    if (this.stopping.signal.aborted) {
      await this.deps.letGo(start.run);
      return;
    }
    const running: Promise<void> = runModelProcessing(this.deps, start, PROCESSING_RUN_LIMIT_MS, this.stopping.signal)
      .catch((error: Error) => logger.error('A processing run\'s outcome could not be recorded', { modelId: start.run.elevation_model_id, error }))
      .finally(() => this.runs.delete(running));
    this.runs.add(running);
  }

  /** No new run starts; runs going on stop at their next batch (or when their threads end) and let their leases go. */
  stop(): void {
    this.stopping.abort();
  }

  /** Resolves once every run started so far has recorded its outcome (or let its lease go). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all(this.runs);
  }
}
