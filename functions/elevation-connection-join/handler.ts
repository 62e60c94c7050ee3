import { S3BlobStore } from '../../shared/adapters/s3-blob-store';
import { connectionRunTiles, joinModelTiles, type ModelConnectionRun } from '../../shared/application/elevation-models/model-connection';

/** The join of the tile fan-out (lib/elevation-tile-fan-out.ts), between its two maps. */
export interface ConnectionJoinEvent {
  run: ModelConnectionRun;
}

let blobs: S3BlobStore | undefined;

/** Every tile's rim levels over the whole model, from the traces of the run's tiles (listed beside the model). */
export async function handler({ run }: ConnectionJoinEvent): Promise<{ step: 'join'; tiles: number }> {
  blobs ??= new S3BlobStore();
  const tiles = await connectionRunTiles(blobs, run);
  await joinModelTiles(blobs, run, tiles);
  return { step: 'join', tiles: tiles.length };
}
