import { DynamoElevationModelStore } from '../../shared/adapters/elevation-model-store';
import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import {
  finishModelConnection, settleModelTile, traceModelTile,
  type ConnectionOutcomeDeps, type ConnectionTileWindow, type ModelConnectionRun,
} from '../../shared/application/elevation-models/model-connection';

/**
 * One state of the tile fan-out (lib/elevation-tile-fan-out.ts): a tile's pass or the outcome. The
 * join, which holds every tile's rim, runs in its own function of more memory (elevation-connection-join).
 */
export type TileFanOutEvent =
  | { step: 'trace' | 'settle'; run: ModelConnectionRun; tile: ConnectionTileWindow }
  | { step: 'finish'; run: ModelConnectionRun; tile_count: number }
  | { step: 'fail'; run: ModelConnectionRun; failure: { Error?: string; Cause?: string } };

let deps: ConnectionOutcomeDeps | undefined;

/** Invoked by the state machine once per tile and pass (Distributed Map items) and for its outcome. */
export async function handler(event: TileFanOutEvent): Promise<{ step: string }> {
  deps ??= { blobs: new S3BlobStore(), records: new DynamoElevationModelStore(), now: () => new Date() };
  const { blobs } = deps;
  const { run } = event;
  switch (event.step) {
    case 'trace': await traceModelTile(blobs, run, event.tile); break;
    case 'settle': await settleModelTile(blobs, run, event.tile); break;
    case 'finish': await finishModelConnection(deps, run, { status: 'ready', tiles: event.tile_count, sea_surface_navd88_m: run.sea_surface_navd88_m }); break;
    case 'fail': await finishModelConnection(deps, run, { status: 'failed', error: event.failure.Error ?? 'unknown', ...(event.failure.Cause ? { cause: event.failure.Cause.slice(0, 2000) } : {}) }); break;
  }
  return { step: event.step };
}
