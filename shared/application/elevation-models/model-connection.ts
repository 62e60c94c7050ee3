import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { ConnectionStatus } from '../../adapters/elevation/connection-cache';
import { connectionKeys } from '../../adapters/elevation/processed-keys';
import { MODEL_FILE } from '../../adapters/elevation/tiled-model';
import { CONNECTION_TILE_SIDE, MAX_CONNECTION_TILES, type ModelConnection } from '../../domain/elevation-models/connection';
import { newLease, type JobLease, type LeaseHolder } from '../../domain/job-lease';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import { readCells, TILE_SIZE, tileName } from '../../domain/elevation-models/pyramid';
import { lowestMslNavd88Within } from '../../domain/hazards/tidal';
import {
  decodeTrace, encodeTrace, joinTiles, settleTile, tileWindows, traceTile, type ConnectionTile, type TileTrace, type TileWindow,
} from '../../domain/hazards/tiled-connection';
import { logger } from '../../observability/logger';
import { inLanes } from '../jobs/lanes';
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

/** A run as the fan-out starts it: the run and every tile it passes over (also listed beside the model, `connectionRunTiles`). */
export interface ConnectionRunStart {
  run: ModelConnectionRun;
  tiles: ConnectionTileWindow[];
}

/** Starts a model's connection run; its steps record the outcome on the model when they end. */
export interface ConnectionFanOut {
  /** How long a run it starts is leased for: only a lost executor lets the lease lapse. */
  readonly leaseMs: number;
  start(start: ConnectionRunStart): Promise<void>;
}

/**
 * Where a model's connection state is kept: on its record, so every read of the model says it. A
 * pending run is leased (owner: its run id) and listed once its lease lapsed, as every job.
 */
export interface ConnectionRecords {
  /** A new run on a `ready` model; false when the model is gone or not ready. */
  startConnection(accountId: string, modelId: string, connection: ModelConnection): Promise<boolean>;
  /** A lost run (`seen`, the lease that lapsed) replaced by `connection`, one attempt more; false when another sweep took it or it ended meanwhile. */
  restartConnection(accountId: string, modelId: string, seen: JobLease, connection: ModelConnection): Promise<boolean>;
  /** Run `runId`'s lease moved on to `expiresAt` while it is the model's pending run; false otherwise. */
  renewConnection(accountId: string, modelId: string, runId: string, expiresAt: string, now: Date): Promise<boolean>;
  /** The outcome of the pending run `holder` holds (its own id, or a sweep that saw its lease lapse); false when it is no longer the model's. */
  endConnection(accountId: string, modelId: string, holder: LeaseHolder, outcome: ConnectionOutcome): Promise<boolean>;
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

/**
 * The windows of at most `side` cells a side that level 0 of a model is traced in: those that hold
 * data. A window over no stored tile of level 0 has none, and water crosses no cell without data,
 * so leaving it out changes no answer (a box mostly sea without data costs what its land costs).
 */
export function connectionTiles(record: Pick<ElevationModelRecord, 'pyramid'>, side: number): ConnectionTileWindow[] {
  const { width, height, tiles } = record.pyramid.levels[0]!;
  const stored = new Set(tiles);
  const holdsData = ({ row, col, width: w, height: h }: ConnectionTileWindow) => {
    for (let ty = Math.floor(row / TILE_SIZE); ty <= Math.floor((row + h - 1) / TILE_SIZE); ty++) {
      for (let tx = Math.floor(col / TILE_SIZE); tx <= Math.floor((col + w - 1) / TILE_SIZE); tx++) if (stored.has(tileName(tx, ty))) return true;
    }
    return false;
  };
  return tileWindows(width, height, side).filter(holdsData);
}

/** Map step 1, per tile: its trace, kept for the join. */
export async function traceModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow, passes = IN_PROCESS_PASSES): Promise<void> {
  const trace = await passes.trace(await readModelTile(blobs, run, tile));
  await blobs.put(connectionKeys(run.model_prefix).trace(tile), Buffer.from(encodeTrace(trace)), 'application/octet-stream');
}

/** Objects the join reads or writes at once: a county's model has a few thousand tiles. */
const JOIN_TRANSFER_LANES = 16;

/** Join step, once: every tile's rim levels over the whole model, from the traces alone. */
export async function joinModelTiles(blobs: BlobStore, run: ModelConnectionRun, tiles: readonly ConnectionTileWindow[]): Promise<void> {
  const keys = connectionKeys(run.model_prefix);
  const indexes = [...tiles.keys()];
  const traces: TileTrace[] = [];
  await inLanes(indexes, JOIN_TRANSFER_LANES, async (t) => { traces[t] = decodeTrace(new Uint8Array(await required(blobs, keys.trace(tiles[t]!)))); });
  const rims = joinTiles(traces);
  await inLanes(indexes, JOIN_TRANSFER_LANES, (t) => blobs.put(keys.rim(tiles[t]!), Buffer.from(rims[t]!.buffer), 'application/octet-stream'));
}

/**
 * The tiles of `run`, as its start listed them beside the model: a fan-out hands them to its steps
 * from here, since a state's input is limited to 256 KiB (the 4,900 tiles of a square model of 2 × 10¹⁰ cells take 255 KiB).
 */
export async function connectionRunTiles(blobs: BlobStore, run: ModelConnectionRun): Promise<ConnectionTileWindow[]> {
  return JSON.parse((await required(blobs, connectionKeys(run.model_prefix).tiles)).toString('utf8')) as ConnectionTileWindow[];
}

/** Map step 2, per tile: every cell's spill level over the whole model, kept as the connection cache. */
export async function settleModelTile(blobs: BlobStore, run: ModelConnectionRun, tile: ConnectionTileWindow, passes = IN_PROCESS_PASSES): Promise<void> {
  const keys = connectionKeys(run.model_prefix);
  const rimBytes = await required(blobs, keys.rim(tile));
  const rim = new Float32Array(new Uint8Array(rimBytes).buffer);
  const spill = await passes.settle(await readModelTile(blobs, run, tile), rim);
  await blobs.put(keys.spill(tile), Buffer.from(gzipSync(new Uint8Array(spill.buffer), { level: 6 })), 'application/gzip');
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
  const recorded = await deps.records.endConnection(accountId, modelId, { owner: runId }, { status: outcome.status, finished_at: deps.now().toISOString(), error: failure });
  if (!recorded) logger.warn('A connection run ended after the model moved on; its outcome is not recorded', { modelId, runId });
}

export interface StartConnectionDeps extends ConnectionOutcomeDeps {
  fanOut: ConnectionFanOut;
}

/** The model a run traces: its record's key in the bucket, its tiles beside it. */
export interface ConnectedModel {
  account_id: string;
  elevation_model_id: string;
  model_key: string;
}

/** A new run over `model`, and its record (`pending`, leased to the run for the fan-out's lease). */
async function newRun(deps: StartConnectionDeps, model: ConnectedModel, attempt: number): Promise<{ start: ConnectionRunStart; pending: ModelConnection }> {
  const prefix = model.model_key.slice(0, model.model_key.length - MODEL_FILE.length);
  const record = JSON.parse((await required(deps.blobs, model.model_key)).toString('utf8')) as ElevationModelRecord;
  const tiles = connectionTiles(record, CONNECTION_TILE_SIDE);
  const run: ModelConnectionRun = {
    account_id: model.account_id, elevation_model_id: model.elevation_model_id,
    // Traced at the lowest mean sea level an answer over the model stands on, so that the cache's
    // water is water for those answers too (hazards/connection.ts checks each one).
    run_id: `conn_${randomUUID().replace(/-/g, '')}`, model_prefix: prefix, sea_surface_navd88_m: lowestMslNavd88Within(record.bbox),
  };
  const now = deps.now();
  const pending: ModelConnection = {
    status: 'pending', tiles: tiles.length, run_id: run.run_id, started_at: now.toISOString(), finished_at: null, error: null,
    lease: newLease(run.run_id, now, deps.fanOut.leaseMs, attempt),
  };
  return { start: { run, tiles }, pending };
}

/** Why a run that could not be started ended `failed`. */
const NOT_STARTED = { code: 'connection_not_started', detail: 'The tidal connection run could not be started; upload the model again to trace it.' };

/** Why a run over more tiles with data than one join holds ended `failed` without starting. */
const tooLarge = (tiles: number) => ({
  code: 'connection_too_large',
  detail: `The model holds data in ${tiles} tiles of ${CONNECTION_TILE_SIDE}² cells; one join holds the rims of at most ${MAX_CONNECTION_TILES}. Its analyses trace their connection around each place as for any model; split it into models of fewer tiles to have each traced whole.`,
});

/**
 * Hands a recorded run to the fan-out: one that cannot be started, or is too large for its join,
 * is recorded `failed` at once, never left pending.
 */
async function launch(deps: StartConnectionDeps, start: ConnectionRunStart): Promise<ModelConnectionRun> {
  const { run } = start;
  if (start.tiles.length > MAX_CONNECTION_TILES) {
    await deps.records.endConnection(run.account_id, run.elevation_model_id, { owner: run.run_id }, { status: 'failed', finished_at: deps.now().toISOString(), error: tooLarge(start.tiles.length) });
    return run;
  }
  try {
    await deps.blobs.put(connectionKeys(run.model_prefix).tiles, JSON.stringify(start.tiles), 'application/json');
    await deps.fanOut.start(start);
  } catch (error) {
    logger.error('A connection run could not be started', { modelId: run.elevation_model_id, error: error as Error });
    await deps.records.endConnection(run.account_id, run.elevation_model_id, { owner: run.run_id }, { status: 'failed', finished_at: deps.now().toISOString(), error: NOT_STARTED });
  }
  return run;
}

/** A model that just turned `ready`: its connection run recorded `pending` on it, then started. */
export async function startModelConnection(deps: StartConnectionDeps, model: ConnectedModel): Promise<ModelConnectionRun | undefined> {
  const { start, pending } = await newRun(deps, model, 1);
  if (!(await deps.records.startConnection(model.account_id, model.elevation_model_id, pending))) return undefined;
  return launch(deps, start);
}

/**
 * A run whose executor was lost (`seen`, its lapsed lease, as the sweep sent it): a new run takes
 * its place, one attempt more, and starts; nothing when another retry took it or it ended meanwhile.
 */
export async function restartModelConnection(deps: StartConnectionDeps, model: ConnectedModel, seen: JobLease): Promise<ModelConnectionRun | undefined> {
  let next: Awaited<ReturnType<typeof newRun>>;
  try {
    next = await newRun(deps, model, seen.attempt + 1);
  } catch (error) {
    // The model's record unreadable: the lost run ends here rather than come back with every sweep.
    logger.error('A lost connection run could not be started again', { modelId: model.elevation_model_id, error: error as Error });
    await deps.records.endConnection(model.account_id, model.elevation_model_id, { seen }, { status: 'failed', finished_at: deps.now().toISOString(), error: NOT_STARTED });
    return undefined;
  }
  if (!(await deps.records.restartConnection(model.account_id, model.elevation_model_id, seen, next.pending))) return undefined;
  return launch(deps, next.start);
}

/** A run's lease lapsed now, its outcome unrecorded: the next sweep starts it again. */
async function letRunGo(deps: ConnectionOutcomeDeps, run: ModelConnectionRun): Promise<void> {
  const now = deps.now();
  await deps.records.renewConnection(run.account_id, run.elevation_model_id, run.run_id, now.toISOString(), now);
}

/**
 * A whole run in this process: every tile traced, the join, every tile settled, at most
 * `concurrency` tiles held at once; the outcome recorded either way. A run stopped by `stopped`
 * (its process is stopping) records no outcome: its lease is let go at once, so the next sweep
 * starts it again.
 */
export async function runModelConnection(deps: ConnectionOutcomeDeps, { run, tiles }: ConnectionRunStart, passes: TilePasses, concurrency: number, stopped?: AbortSignal): Promise<void> {
  const eachTile = (step: (tile: ConnectionTileWindow) => Promise<void>) => inLanes(tiles, concurrency, step, stopped);
  try {
    await eachTile((tile) => traceModelTile(deps.blobs, run, tile, passes));
    await joinModelTiles(deps.blobs, run, tiles);
    await eachTile((tile) => settleModelTile(deps.blobs, run, tile, passes));
  } catch (error) {
    if (stopped?.aborted) {
      await letRunGo(deps, run);
      logger.info('A connection run stopped with its process; the next sweep starts it again', { modelId: run.elevation_model_id });
      return;
    }
    logger.error('A connection run failed', { modelId: run.elevation_model_id, error: error as Error });
    await finishModelConnection(deps, run, { status: 'failed', error: (error as Error).name ?? 'Error', cause: String((error as Error).message ?? error).slice(0, 2000) });
    return;
  }
  await finishModelConnection(deps, run, { status: 'ready', tiles: tiles.length, sea_surface_navd88_m: run.sea_surface_navd88_m });
}


/** A run in this process is leased this long, and its lease renewed this often while the process lives. */
export const LOCAL_CONNECTION_LEASE_MS = 2 * 60_000;
const LOCAL_RENEW_EVERY_MS = 30_000;

/**
 * The fan-out in this process (local mode): each run goes on in the background over `passes` (a
 * pool of threads, one tile per thread at a time) and records its own outcome. Its runs' leases
 * are short and renewed while the process runs them: a run lost with its process (killed, crashed)
 * lapses within minutes and the sweep starts it again; one stopped with it is let go at once.
 */
export class InProcessConnectionFanOut implements ConnectionFanOut {
  readonly leaseMs: number;
  private readonly renewEveryMs: number;
  private readonly runs = new Map<Promise<void>, ModelConnectionRun>();
  private readonly stopping = new AbortController();
  /** Renews the leases while any run goes on. */
  private renewal: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly deps: ConnectionOutcomeDeps,
    private readonly passes: TilePasses & { readonly concurrency: number },
    lease: { leaseMs: number; renewEveryMs: number } = { leaseMs: LOCAL_CONNECTION_LEASE_MS, renewEveryMs: LOCAL_RENEW_EVERY_MS },
  ) {
    this.leaseMs = lease.leaseMs;
    this.renewEveryMs = lease.renewEveryMs;
  }

  async start(start: ConnectionRunStart): Promise<void> {
    if (this.stopping.signal.aborted) {
      // Started as the process stops: left for the next process's sweep, as a run stopped with it.
      await letRunGo(this.deps, start.run);
      return;
    }
    const running: Promise<void> = runModelConnection(this.deps, start, this.passes, this.passes.concurrency, this.stopping.signal)
      .catch((error: Error) => logger.error('A connection run\'s outcome could not be recorded', { modelId: start.run.elevation_model_id, error }))
      .finally(() => {
        this.runs.delete(running);
        if (this.runs.size === 0) this.stopRenewal();
      });
    this.runs.set(running, start.run);
    if (!this.renewal) {
      this.renewal = setInterval(() => { void this.renew(); }, this.renewEveryMs);
      this.renewal.unref();
    }
  }

  private stopRenewal(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  /** Moves every running run's lease on; a run that is no longer the model's is left to end unrecorded. */
  private async renew(): Promise<void> {
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + this.leaseMs).toISOString();
    await Promise.all([...this.runs.values()].map((run) => this.deps.records.renewConnection(run.account_id, run.elevation_model_id, run.run_id, expiresAt, now)
      .catch((error: Error) => logger.warn('A connection run\'s lease could not be renewed', { modelId: run.elevation_model_id, error }))));
  }

  /** No new run starts (one started now is let go); runs going on stop at their next tile (or when their threads end) and let their leases go. */
  stop(): void {
    this.stopRenewal();
    this.stopping.abort();
  }

  /** Resolves once every run started so far has recorded its outcome (or let its lease go). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all(this.runs.keys());
  }
}
