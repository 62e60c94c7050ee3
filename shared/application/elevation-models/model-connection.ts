import { gunzipSync, gzipSync } from 'fflate';
import { MODEL_FILE } from '../../adapters/elevation/tiled-model';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { readCells } from '../../domain/elevation-models/pyramid';
import { decodeTrace, encodeTrace, joinTiles, settleTile, tileWindows, traceTile, type ConnectionTile, type TileWindow } from '../../domain/hazards/tiled-connection';
import type { BlobStore } from '../../ports';

/**
 * The tidal connection of a processed model, traced tile by tile and kept beside it (the per-model
 * connection cache): the steps of the fan-out (a Step Functions Distributed Map in AWS, see
 * lib/elevation-tile-fan-out.ts), each reading and writing only objects under the model's prefix.
 * The cache holds every cell's spill level over the whole model for one sea surface.
 */

/** One tile of a model's connection: a window of level 0 of its pyramid. */
export type ConnectionTileWindow = TileWindow;

/** What a fan-out run is given: the model's objects and the sea surface its connection is traced for. */
export interface ModelConnectionRun {
  model_prefix: string;
  sea_surface_navd88_m: number;
}

export type ConnectionStatus = { status: 'ready'; tiles: number; sea_surface_navd88_m: number } | { status: 'failed'; error: string; cause?: string };

const tileName = (tile: ConnectionTileWindow) => `${tile.row}-${tile.col}-${tile.width}x${tile.height}`;
export const connectionKeys = (prefix: string) => ({
  trace: (tile: ConnectionTileWindow) => `${prefix}connection/trace/${tileName(tile)}.bin`,
  rim: (tile: ConnectionTileWindow) => `${prefix}connection/rim/${tileName(tile)}.bin`,
  spill: (tile: ConnectionTileWindow) => `${prefix}connection/spill/${tileName(tile)}.bin.gz`,
  status: `${prefix}connection/status.json`,
});

async function required(blobs: BlobStore, key: string): Promise<Buffer> {
  const bytes = await blobs.get(key);
  if (!bytes) throw new Error(`The object ${key} is missing.`);
  return bytes;
}

/** The cells and water of one tile, read from the model's pyramid tiles that it touches. */
async function readModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow): Promise<ConnectionTile> {
  const record = JSON.parse((await required(blobs, `${run.model_prefix}${MODEL_FILE}`)).toString('utf8')) as ElevationModelRecord;
  const { pyramid } = record;
  const { values, water } = await readCells(pyramid, 0, tile.row, tile.col, tile.width, tile.height, async (key) => new Uint8Array(await required(blobs, `${run.model_prefix}${key}`)));
  if (!pyramid.has_water_flag) {
    // Without the source's water flag, water is ground at or below the sea surface (as inundation.ts).
    const surface = Math.fround(run.sea_surface_navd88_m);
    for (let i = 0; i < values.length; i++) water[i] = values[i]! <= surface ? 1 : 0;
  }
  return { values, water, ...tile };
}

/** The windows of at most `side` cells a side that level 0 of a model is traced in. */
export function connectionTiles(record: Pick<ElevationModelRecord, 'pyramid'>, side: number): ConnectionTileWindow[] {
  const { width, height } = record.pyramid.levels[0]!;
  return tileWindows(width, height, side);
}

/** Map step 1, per tile: its trace, kept for the join. */
export async function traceModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow): Promise<void> {
  const trace = traceTile(await readModelTile(blobs, run, tile));
  await blobs.put(connectionKeys(run.model_prefix).trace(tile), Buffer.from(encodeTrace(trace)), 'application/octet-stream');
}

/** Join step, once: every tile's rim levels over the whole model, from the traces alone. */
export async function joinModelTiles(blobs: BlobStore, run: ModelConnectionRun, tiles: readonly ConnectionTileWindow[]): Promise<void> {
  const keys = connectionKeys(run.model_prefix);
  const traces = await Promise.all(tiles.map(async (tile) => decodeTrace(new Uint8Array(await required(blobs, keys.trace(tile))))));
  const rims = joinTiles(traces);
  for (const [t, tile] of tiles.entries()) await blobs.put(keys.rim(tile), Buffer.from(rims[t]!.buffer), 'application/octet-stream');
}

/** Map step 2, per tile: every cell's spill level over the whole model, kept as the connection cache. */
export async function settleModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow): Promise<void> {
  const keys = connectionKeys(run.model_prefix);
  const rimBytes = await required(blobs, keys.rim(tile));
  const rim = new Float32Array(new Uint8Array(rimBytes).buffer);
  const spill = settleTile(await readModelTile(blobs, run, tile), rim);
  await blobs.put(keys.spill(tile), Buffer.from(gzipSync(new Uint8Array(spill.buffer), { level: 6, mtime: 0 })), 'application/gzip');
}

/** A settled tile's spill levels back from the cache. */
export async function cachedSpill(blobs: BlobStore, prefix: string, tile: ConnectionTileWindow): Promise<Float32Array | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).spill(tile));
  return bytes ? new Float32Array(gunzipSync(new Uint8Array(bytes)).slice().buffer) : undefined;
}

/** The last step either way: the cache is usable (`ready`), or the run failed and says why. */
export async function finishModelConnection(blobs: BlobStore, run: ModelConnectionRun, outcome: ConnectionStatus): Promise<void> {
  await blobs.put(connectionKeys(run.model_prefix).status, `${JSON.stringify(outcome)}\n`, 'application/json');
}

export async function modelConnectionStatus(blobs: BlobStore, prefix: string): Promise<ConnectionStatus | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).status);
  return bytes ? JSON.parse(bytes.toString('utf8')) as ConnectionStatus : undefined;
}
