import path from 'node:path';
import { MODEL_PROCESSING_LIMIT_MS } from '../../domain/elevation-models/processing-job';
import { RasterError, UploadReadError, type RasterErrorCode } from '../../domain/elevation-models/raster-error';
import { VerticalReferenceError } from '../../domain/elevation-models/vertical';
import type { BeyondOneRun, ProcessOptions, ProcessedDem, WindowedProcessing } from './geotiff-dem';
import type { StoredUpload } from './ranged-tiff';
import { startWorkerThread } from '../worker-thread';

/**
 * Heap of the thread that decodes one upload. The samples and tiles of a window live in typed
 * arrays outside it (bounded by budget.ts and windows.ts before decoding); the heap holds the
 * decoders' working arrays, so a file that makes them grow past this ends the thread, not the server.
 */
export const DEM_THREAD_LIMITS = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 };

/** What the thread answers: the processed model, or why the file was refused (or an unexpected error). */
export type DemThreadReply =
  | { ok: ProcessedDem | BeyondOneRun }
  | { refused: { kind: 'raster'; code: RasterErrorCode; message: string } | { kind: 'vertical'; message: string } | { kind: 'storage'; message: string } }
  | { crashed: string };

/** The file: its bytes, or a model's uploads in the bucket (its parts, in order) that the thread reads by ranges itself. */
export interface DemThreadRequest { file: Uint8Array | StoredUpload[]; options: ProcessOptions; windowTiles?: number; windowLimit?: number }

/** One window's tiles, handed over as made; the thread goes on once the parent answers that it took them. */
export interface DemThreadTiles { tiles: Array<[string, Uint8Array]> }

const ENTRY = path.join(__dirname, `dem-thread-entry${path.extname(__filename)}`);

/**
 * `processDem` in a worker thread with a capped heap and a time limit, so the API's event loop never
 * decodes a raster: an out-of-memory or overlong run ends only the thread, and the model `failed`.
 * The limit is the processing limit the worker Lambda has, which the model's lease outlasts: a
 * slow run is stopped, never taken over and processed twice.
 */
type ThreadLimits = typeof DEM_THREAD_LIMITS & { timeLimitMs: number };
export function processDemInThread(file: Uint8Array | StoredUpload[], options: ProcessOptions, processing?: Omit<WindowedProcessing, 'windowLimit'>, limits?: ThreadLimits): Promise<ProcessedDem>;
export function processDemInThread(file: Uint8Array | StoredUpload[], options: ProcessOptions, processing: WindowedProcessing, limits?: ThreadLimits): Promise<ProcessedDem | BeyondOneRun>;
export function processDemInThread(
  file: Uint8Array | StoredUpload[], options: ProcessOptions, processing: WindowedProcessing = {},
  limits: ThreadLimits = { ...DEM_THREAD_LIMITS, timeLimitMs: MODEL_PROCESSING_LIMIT_MS },
): Promise<ProcessedDem | BeyondOneRun> {
  const { timeLimitMs, ...resourceLimits } = limits;
  const kept = new Map<string, Uint8Array>();
  const take = processing.writeTiles ?? (async (tiles: Map<string, Uint8Array>) => { for (const [key, tile] of tiles) kept.set(key, tile); });
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(ENTRY, {
      resourceLimits,
      // The environment this caller sees (endpoints, bucket): the thread reads a stored upload itself.
      env: { ...process.env },
      workerData: {
        file, options,
        ...(processing.windowTiles === undefined ? {} : { windowTiles: processing.windowTiles }),
        ...(processing.windowLimit === undefined ? {} : { windowLimit: processing.windowLimit }),
      } satisfies DemThreadRequest,
      stdout: false,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new RasterError(`Processing the raster took longer than ${timeLimitMs / 60_000} minutes and was stopped; split it into smaller tiles.`, 'processing_limit_exceeded'))), timeLimitMs);
    worker.on('message', (message: DemThreadReply | DemThreadTiles) => {
      if ('tiles' in message) {
        take(new Map(message.tiles)).then(() => worker.postMessage('taken'), (error: unknown) => settle(() => reject(error)));
        return;
      }
      settle(() => answer(message));
    });
    const answer = (reply: DemThreadReply) => {
      if ('ok' in reply) return resolve('beyond_one_run' in reply.ok ? reply.ok : { ...reply.ok, tiles: kept });
      if ('crashed' in reply) return reject(new Error(reply.crashed));
      const { refused } = reply;
      reject(refused.kind === 'raster' ? new RasterError(refused.message, refused.code)
        : refused.kind === 'storage' ? new UploadReadError(refused.message) : new VerticalReferenceError(refused.message));
    };
    worker.on('error', (error: Error & { code?: string }) => settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new RasterError(`Decoding the raster needed more than the ${resourceLimits.maxOldGenerationSizeMb} MiB a model may use and was stopped; write it tiled or split it into smaller files.`, 'processing_limit_exceeded')
      : error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The processing thread ended (exit code ${code}) without an answer.`))));
  });
}
