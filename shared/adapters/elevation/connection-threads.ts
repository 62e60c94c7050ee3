import path from 'node:path';
import type { TilePasses } from '../../application/elevation-models/model-connection';
import { joinTiles, type ConnectionTile, type TileTrace, type TileWindow } from '../../domain/hazards/tiled-connection';
import { LazyWorkerPool, WorkerPool } from '../worker-pool';

/**
 * Where a pooled thread reads one tile of a tiled analysis: level 0 of a processed model in a
 * directory, or a raw tile file (little-endian Float32 metres, NaN = no data, then one water byte
 * per cell, row-major) — either way the thread reads only its own window — or the tile's cells
 * and open water handed over as they are (read by the caller from wherever the model is kept).
 */
export type TileCells = TileWindow & ({ kind: 'model'; directory: string } | { kind: 'raw'; file: string } | ({ kind: 'given' } & ConnectionTile));

export type ConnectionTask =
  | { pass: 'trace'; cells: TileCells; seaSurface: number }
  | { pass: 'settle'; cells: TileCells; seaSurface: number; rimSpill: Float32Array; levels: number[] }
  | { pass: 'spill'; cells: TileCells; seaSurface: number; rimSpill: Float32Array };

/** What a settled tile reports: land cells connected to open water below each level, and the thread's memory. */
export interface SettledTile { connected: number[]; cells: number; threadPeakBytes: number }
/** A settled tile's every spill level (the connection cache's tile). */
export interface SpilledTile { spill: Float32Array; threadPeakBytes: number }
export type ConnectionReply = { trace: TileTrace; threadPeakBytes: number } | SettledTile | SpilledTile;

/**
 * Heap of a connection thread. A tile's arrays (ground, water, levels, labels, the heap: about 17
 * bytes a cell) live outside it; the heap holds the graph of passes, a few per rim cell.
 */
export const CONNECTION_THREAD_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 };

const ENTRY = path.join(__dirname, `connection-thread-entry${path.extname(__filename)}`);

/** A pool of connection threads, one per core unless told. */
export function connectionPool(size?: number): WorkerPool<ConnectionTask, ConnectionReply> {
  return new WorkerPool(ENTRY, { ...(size === undefined ? {} : { size }), resourceLimits: CONNECTION_THREAD_LIMITS });
}

export interface TiledInundation {
  /** Land cells connected to open water below each level, over the whole model. */
  connected: number[];
  cells: number;
  /** The most any one thread held (heap and arrays) during a pass. */
  threadPeakBytes: number;
}

/**
 * Tidal connection over a model's tiles in the pool: every tile traced, the rims joined here (only
 * the rims are held), every tile settled; the answer is exactly that of the single grid.
 */
export async function tiledInundation(pool: WorkerPool<ConnectionTask, ConnectionReply>, tiles: readonly TileCells[], seaSurface: number, levels: number[]): Promise<TiledInundation> {
  const traced = await Promise.all(tiles.map((cells) => pool.run({ pass: 'trace', cells, seaSurface })));
  const rims = joinTiles(traced.map((reply) => (reply as { trace: TileTrace }).trace));
  const settled = await Promise.all(tiles.map((cells, t) => pool.run({ pass: 'settle', cells, seaSurface, rimSpill: rims[t]!, levels }, [rims[t]!.buffer as ArrayBuffer]))) as SettledTile[];
  return {
    connected: levels.map((_, k) => settled.reduce((sum, tile) => sum + tile.connected[k]!, 0)),
    cells: settled.reduce((sum, tile) => sum + tile.cells, 0),
    threadPeakBytes: Math.max(...traced.map((reply) => reply.threadPeakBytes), ...settled.map((tile) => tile.threadPeakBytes)),
  };
}

/**
 * The per-tile passes of a model's connection on a pool of threads, one per core unless told,
 * started with the first pass: the caller reads and writes the tiles, the threads only compute.
 */
export class PooledTilePasses implements TilePasses {
  private readonly threads: LazyWorkerPool<ConnectionTask, ConnectionReply>;

  constructor(size?: number) {
    this.threads = new LazyWorkerPool('connection', () => connectionPool(size));
  }

  /** Tiles passed at once: one per thread. */
  get concurrency(): number {
    return this.threads.size;
  }

  async trace(tile: ConnectionTile): Promise<TileTrace> {
    const reply = await this.threads.run({ pass: 'trace', cells: { kind: 'given', ...tile }, seaSurface: Number.NaN });
    return (reply as { trace: TileTrace }).trace;
  }

  async settle(tile: ConnectionTile, rimSpill: Float32Array): Promise<Float32Array> {
    const reply = await this.threads.run({ pass: 'spill', cells: { kind: 'given', ...tile }, seaSurface: Number.NaN, rimSpill });
    return (reply as SpilledTile).spill;
  }

  /** Ends the threads; passes running or asked for later fail. */
  close(): Promise<void> {
    return this.threads.close();
  }
}
