import path from 'node:path';
import { RasterError, type RasterErrorCode } from '../../domain/elevation-models/raster-error';
import { VerticalReferenceError } from '../../domain/elevation-models/vertical';
import type { ProcessOptions, ProcessedDem } from './geotiff-dem';
import { startWorkerThread } from '../worker-thread';

/**
 * Heap of the thread that decodes one upload. The samples and tiles live in typed arrays outside
 * it (bounded by budget.ts before decoding); the heap holds the decoders' working arrays, so a file
 * that makes them grow past this ends the thread, not the server.
 */
export const DEM_THREAD_LIMITS = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 };
/** Processing of the largest accepted model takes about a minute; a run past this is stopped. */
export const DEM_THREAD_TIME_LIMIT_MS = 10 * 60 * 1000;

/** What the thread answers: the processed model, or why the file was refused (or an unexpected error). */
export type DemThreadReply =
  | { ok: ProcessedDem }
  | { refused: { kind: 'raster'; code: RasterErrorCode; message: string } | { kind: 'vertical'; message: string } }
  | { crashed: string };

export interface DemThreadRequest { bytes: Uint8Array; options: ProcessOptions }

const ENTRY = path.join(__dirname, `dem-thread-entry${path.extname(__filename)}`);

/**
 * `processDem` in a worker thread with a capped heap and a time limit, so the API's event loop never
 * decodes a raster: an out-of-memory or overlong run ends only the thread, and the model `failed`.
 */
export function processDemInThread(bytes: Uint8Array, options: ProcessOptions, limits: typeof DEM_THREAD_LIMITS & { timeLimitMs: number } = { ...DEM_THREAD_LIMITS, timeLimitMs: DEM_THREAD_TIME_LIMIT_MS }): Promise<ProcessedDem> {
  const { timeLimitMs, ...resourceLimits } = limits;
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(ENTRY, {
      resourceLimits,
      workerData: { bytes, options } satisfies DemThreadRequest,
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
    worker.on('message', (reply: DemThreadReply) => settle(() => {
      if ('ok' in reply) return resolve(reply.ok);
      if ('crashed' in reply) return reject(new Error(reply.crashed));
      const { refused } = reply;
      reject(refused.kind === 'raster' ? new RasterError(refused.message, refused.code) : new VerticalReferenceError(refused.message));
    }));
    worker.on('error', (error: Error & { code?: string }) => settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new RasterError(`Decoding the raster needed more than the ${resourceLimits.maxOldGenerationSizeMb} MiB a model may use and was stopped; write it tiled or split it into smaller files.`, 'processing_limit_exceeded')
      : error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The processing thread ended (exit code ${code}) without an answer.`))));
  });
}
