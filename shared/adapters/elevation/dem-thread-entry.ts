import { parentPort, workerData } from 'node:worker_threads';
import { RasterError, UploadReadError } from '../../domain/elevation-models/raster-error';
import { VerticalReferenceError } from '../../domain/elevation-models/vertical';
import type { DemThreadReply, DemThreadRequest, DemThreadTiles } from './dem-thread';
import { processDem, processStoredDem } from './geotiff-dem';
import { S3RangedBlobStore } from '../s3-ranged-blob-store';

/** Tiles handed to the parent without a copy, resolved once it has taken them (so one window's tiles are in flight at a time). */
function handOver(tiles: Map<string, Uint8Array>): Promise<void> {
  return new Promise((resolve) => {
    parentPort!.once('message', () => resolve());
    const message: DemThreadTiles = { tiles: [...tiles] };
    parentPort!.postMessage(message, [...new Set([...tiles.values()].map((tile) => tile.buffer as ArrayBuffer))]);
  });
}

/** The thread of `processDemInThread`: one model's upload (or its parts) processed window by window, each window's tiles handed over as made. */
async function run({ file, options, windowTiles, windowLimit }: DemThreadRequest): Promise<void> {
  let reply: DemThreadReply;
  try {
    const processing = { writeTiles: handOver, ...(windowTiles === undefined ? {} : { windowTiles }), ...(windowLimit === undefined ? {} : { windowLimit }) };
    const processed = file instanceof Uint8Array ? processDem(file, options, processing) : processStoredDem(new S3RangedBlobStore())(file, options, processing);
    reply = { ok: await processed };
  } catch (error) {
    reply = error instanceof RasterError
      ? { refused: { kind: 'raster', code: error.code, message: error.message } }
      : error instanceof VerticalReferenceError
        ? { refused: { kind: 'vertical', message: error.message } }
        : error instanceof UploadReadError
          ? { refused: { kind: 'storage', message: error.message } }
          : { crashed: (error as Error).stack ?? String(error) };
  }
  parentPort!.postMessage(reply);
}

void run(workerData as DemThreadRequest);
