import { parentPort, workerData } from 'node:worker_threads';
import { RasterError } from '../../domain/elevation-models/raster-error';
import { VerticalReferenceError } from '../../domain/elevation-models/vertical';
import type { DemThreadReply, DemThreadRequest } from './dem-thread';
import { processDem } from './geotiff-dem';

/** The thread of `processDemInThread`: one upload processed, the tiles handed back without a copy. */
async function run({ bytes, options }: DemThreadRequest): Promise<void> {
  let reply: DemThreadReply;
  try {
    reply = { ok: await processDem(bytes, options) };
  } catch (error) {
    reply = error instanceof RasterError
      ? { refused: { kind: 'raster', code: error.code, message: error.message } }
      : error instanceof VerticalReferenceError
        ? { refused: { kind: 'vertical', message: error.message } }
        : { crashed: (error as Error).stack ?? String(error) };
  }
  const transfer = 'ok' in reply ? [...new Set([...reply.ok.tiles.values()].map((tile) => tile.buffer as ArrayBuffer))] : [];
  parentPort!.postMessage(reply, transfer);
}

void run(workerData as DemThreadRequest);
