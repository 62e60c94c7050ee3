import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'fflate';
import { connectionKeys } from '../../adapters/elevation/processed-keys';
import { MODEL_FILE } from '../../adapters/elevation/tiled-model';
import { CONNECTION_SEA_SURFACE_NAVD88_M, CONNECTION_TILE_SIDE, type ModelConnection } from '../../domain/elevation-models/connection';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { readCells } from '../../domain/elevation-models/pyramid';
import {
  decodeTrace, encodeTrace, joinTiles, settleTile, tileWindows, traceTile, type ConnectionTile, type TileTrace, type TileWindow,
} from '../../domain/hazards/tiled-connection';
import { logger } from '../../observability/logger';
import type { BlobStore } from '../../ports';

/**
 * The tidal connection of a processed model, traced tile by tile and kept beside it (the per-model
 * connection cache): the steps of the fan-out (a Step Functions Distributed Map in AWS, see
 * lib/elevation-tile-fan-out.ts), each reading and writing only objects under the model's prefix.
 * The cache holds every cell's spill level over the whole model for one sea surface.
 */

/** One tile of a model's connection: a window of level 0 of its pyramid. */
export type ConnectionTileWindow = TileWindow;

/** What a fan-out run is given: the model, its objects and the sea surface its connection is traced for. */
export interface ModelConnectionRun {
  account_id: string;
  elevation_model_id: string;
  /** Only this run's outcome lands on the model's record. */
  run_id: string;
  model_prefix: string;
  sea_surface_navd88_m: number;
}

/** A run as the fan-out starts it: the run and every tile it passes over. */
export interface ConnectionRunStart {
  run: ModelConnectionRun;
  tiles: ConnectionTileWindow[];
}

/** Starts a model's connection run; its steps record the outcome on the model when they end. */
export interface ConnectionFanOut {
  start(start: ConnectionRunStart): Promise<void>;
}

/** Where a model's connection state is kept: on its record, so every read of the model says it. */
export interface ConnectionRecords {
  /** A new run on a `ready` model; false when the model is gone or not ready. */
  startConnection(accountId: string, modelId: string, connection: ModelConnection): Promise<boolean>;
  /** The outcome of run `runId`, only while that run is the model's; false otherwise. */
  endConnection(accountId: string, modelId: string, runId: string, outcome: ConnectionOutcome): Promise<boolean>;
}

export type ConnectionOutcome = Pick<ModelConnection, 'finished_at' | 'error'> & { status: 'ready' | 'failed' };

/** The per-tile passes: in this thread, or handed to a pool of threads (they only compute). */
export interface TilePasses {
  trace(tile: ConnectionTile): Promise<TileTrace>;
  settle(tile: ConnectionTile, rimSpill: Float32Array): Promise<Float32Array>;
}

export const IN_PROCESS_PASSES: TilePasses = {
  trace: async (tile) => traceTile(tile),
  settle: async (tile, rimSpill) => settleTile(tile, rimSpill),
};

export { connectionKeys };

export type ConnectionStatus = { status: 'ready'; tiles: number; sea_surface_navd88_m: number } | { status: 'failed'; error: string; cause?: string };

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
export async function traceModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow, passes = IN_PROCESS_PASSES): Promise<void> {
  const trace = await passes.trace(await readModelTile(blobs, run, tile));
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
export async function settleModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow, passes = IN_PROCESS_PASSES): Promise<void> {
  const keys = connectionKeys(run.model_prefix);
  const rimBytes = await required(blobs, keys.rim(tile));
  const rim = new Float32Array(new Uint8Array(rimBytes).buffer);
  const spill = await passes.settle(await readModelTile(blobs, run, tile), rim);
  await blobs.put(keys.spill(tile), Buffer.from(gzipSync(new Uint8Array(spill.buffer), { level: 6, mtime: 0 })), 'application/gzip');
}

/** A settled tile's spill levels back from the cache. */
export async function cachedSpill(blobs: BlobStore, prefix: string, tile: ConnectionTileWindow): Promise<Float32Array | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).spill(tile));
  return bytes ? new Float32Array(gunzipSync(new Uint8Array(bytes)).slice().buffer) : undefined;
}

export interface ConnectionOutcomeDeps {
  blobs: BlobStore;
  records: ConnectionRecords;
  now: () => Date;
}

/**
 * The last step either way: the cache is usable (`ready`), or the run failed and says why. The
 * status is kept beside the cache, and the model's record says it (if the run is still the model's).
 */
export async function finishModelConnection(deps: ConnectionOutcomeDeps, run: ModelConnectionRun, outcome: ConnectionStatus): Promise<void> {
  await deps.blobs.put(connectionKeys(run.model_prefix).status, `${JSON.stringify(outcome)}\n`, 'application/json');
  const failure = outcome.status === 'failed'
    ? { code: 'tile_pass_failed', detail: `The tidal connection could not be traced (${outcome.error}${outcome.cause ? `: ${outcome.cause}` : ''})`.slice(0, 990) }
    : null;
  const { account_id: accountId, elevation_model_id: modelId, run_id: runId } = run;
  const recorded = await deps.records.endConnection(accountId, modelId, runId, { status: outcome.status, finished_at: deps.now().toISOString(), error: failure });
  if (!recorded) logger.warn('A connection run ended after the model moved on; its outcome is not recorded', { modelId, runId });
}

export interface StartConnectionDeps extends ConnectionOutcomeDeps {
  fanOut: ConnectionFanOut;
}

/**
 * A model that just turned `ready`: its connection run recorded `pending` on it, then started
 * (a run that cannot be started is recorded `failed` at once, never left pending).
 */
export async function startModelConnection(deps: StartConnectionDeps, model: { account_id: string; elevation_model_id: string; model_key: string }): Promise<ModelConnectionRun | undefined> {
  const prefix = model.model_key.slice(0, model.model_key.length - MODEL_FILE.length);
  const record = JSON.parse((await required(deps.blobs, model.model_key)).toString('utf8')) as ElevationModelRecord;
  const tiles = connectionTiles(record, CONNECTION_TILE_SIDE);
  const run: ModelConnectionRun = {
    account_id: model.account_id, elevation_model_id: model.elevation_model_id,
    run_id: `conn_${randomUUID().replace(/-/g, '')}`, model_prefix: prefix, sea_surface_navd88_m: CONNECTION_SEA_SURFACE_NAVD88_M,
  };
  const pending: ModelConnection = { status: 'pending', tiles: tiles.length, run_id: run.run_id, started_at: deps.now().toISOString(), finished_at: null, error: null };
  if (!(await deps.records.startConnection(model.account_id, model.elevation_model_id, pending))) return undefined;
  try {
    await deps.fanOut.start({ run, tiles });
  } catch (error) {
    logger.error('A connection run could not be started', { modelId: model.elevation_model_id, error: error as Error });
    await deps.records.endConnection(model.account_id, model.elevation_model_id, run.run_id, {
      status: 'failed', finished_at: deps.now().toISOString(),
      error: { code: 'connection_not_started', detail: 'The tidal connection run could not be started; upload the model again to trace it.' },
    });
  }
  return run;
}

/**
 * A whole run in this process: every tile traced, the join, every tile settled, at most
 * `concurrency` tiles held at once; the outcome recorded either way.
 */
export async function runModelConnection(deps: ConnectionOutcomeDeps, { run, tiles }: ConnectionRunStart, passes: TilePasses, concurrency: number): Promise<void> {
  const eachTile = async (step: (tile: ConnectionTileWindow) => Promise<void>) => {
    let next = 0;
    const lane = async () => {
      while (next < tiles.length) await step(tiles[next++]!);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tiles.length)) }, lane));
  };
  try {
    await eachTile((tile) => traceModelTile(deps.blobs, run, tile, passes));
    await joinModelTiles(deps.blobs, run, tiles);
    await eachTile((tile) => settleModelTile(deps.blobs, run, tile, passes));
  } catch (error) {
    logger.error('A connection run failed', { modelId: run.elevation_model_id, error: error as Error });
    await finishModelConnection(deps, run, { status: 'failed', error: (error as Error).name ?? 'Error', cause: String((error as Error).message ?? error).slice(0, 2000) });
    return;
  }
  await finishModelConnection(deps, run, { status: 'ready', tiles: tiles.length, sea_surface_navd88_m: run.sea_surface_navd88_m });
}

export async function modelConnectionStatus(blobs: BlobStore, prefix: string): Promise<ConnectionStatus | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).status);
  return bytes ? JSON.parse(bytes.toString('utf8')) as ConnectionStatus : undefined;
}

/**
 * The fan-out in this process (local mode): each run goes on in the background over `passes` (a
 * pool of threads, one tile per thread at a time) and records its own outcome.
 */
export class InProcessConnectionFanOut implements ConnectionFanOut {
  private readonly runs = new Set<Promise<void>>();

  constructor(private readonly deps: ConnectionOutcomeDeps, private readonly passes: TilePasses & { readonly concurrency: number }) {}

  async start(start: ConnectionRunStart): Promise<void> {
    const running: Promise<void> = runModelConnection(this.deps, start, this.passes, this.passes.concurrency)
      .catch((error: Error) => logger.error('A connection run\'s outcome could not be recorded', { modelId: start.run.elevation_model_id, error }))
      .finally(() => this.runs.delete(running));
    this.runs.add(running);
  }

  /** Resolves once every run started so far has recorded its outcome. */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all(this.runs);
  }
}
