import { gunzipSync } from 'node:zlib';
import type { ElevationModelRecord } from '../../domain/elevation-models/model';
import type { CachedConnection, ElevationGrid } from '../../domain/hazards/elevation';
import type { TileWindow } from '../../domain/hazards/tiled-connection';
import { LruCache } from '../../lru-cache';
import type { BlobStore } from '../../ports';
import { connectionKeys } from './processed-keys';

/** How a connection run ended, as its finish wrote it beside the model. */
export type ConnectionStatus = { status: 'ready'; tiles: number; sea_surface_navd88_m: number } | { status: 'failed'; error: string; cause?: string };

export async function readConnectionStatus(blobs: BlobStore, prefix: string): Promise<ConnectionStatus | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).status);
  return bytes ? JSON.parse(bytes.toString('utf8')) as ConnectionStatus : undefined;
}

/** A settled tile's spill levels back from the cache. */
export async function readCachedSpill(blobs: BlobStore, prefix: string, tile: TileWindow): Promise<Float32Array | undefined> {
  const bytes = await blobs.get(connectionKeys(prefix).spill(tile));
  return bytes ? new Float32Array(new Uint8Array(gunzipSync(bytes)).buffer) : undefined;
}

/** Decoded cache tiles kept per model (16 MB each at 2,048²): successive windows of one pass reuse them. */
const KEPT_TILES = 4;

/**
 * Finds the tile holding a cell among a run's tiles: windows of one side on a lattice from the
 * model's north-west cell (tileWindows), those without data left out (-1 there).
 */
function tileFinder(tiles: readonly TileWindow[]): (row: number, col: number) => number {
  const rowSide = Math.max(...tiles.map((tile) => tile.height)), colSide = Math.max(...tiles.map((tile) => tile.width));
  const at = new Map(tiles.map((tile, t) => [`${tile.row},${tile.col}`, t]));
  return (row, col) => at.get(`${row - (row % rowSide)},${col - (col % colSide)}`) ?? -1;
}

/**
 * The connection cache of an uploaded model whose run is ready: the run's tile list, and each
 * tile's spill levels read when a grid needs it.
 */
export class BlobCachedConnection implements CachedConnection {
  readonly elevation_model_id: string;
  readonly water_flag: boolean;
  readonly cell_size_m: number;
  private readonly kept = new LruCache<number, Promise<Float32Array>>(KEPT_TILES);
  private readonly tileOf: (row: number, col: number) => number;

  private constructor(
    private readonly blobs: BlobStore,
    private readonly prefix: string,
    private readonly record: ElevationModelRecord,
    readonly sea_surface_navd88_m: number,
    private readonly tiles: readonly TileWindow[],
  ) {
    this.elevation_model_id = record.elevation_model_id;
    this.water_flag = record.pyramid.has_water_flag;
    this.cell_size_m = record.resolution_m;
    this.tileOf = tileFinder(tiles);
  }

  /**
   * The model's cache once its run is ready; undefined before, after a failed run, and for a model
   * held on another datum than NAVD88 (its run traced heights that are not NAVD88).
   */
  static async open(blobs: BlobStore, prefix: string, record: ElevationModelRecord): Promise<BlobCachedConnection | undefined> {
    if (record.pyramid.vertical_datum !== 'NAVD88') return undefined;
    const status = await readConnectionStatus(blobs, prefix);
    if (status?.status !== 'ready') return undefined;
    const list = await blobs.get(connectionKeys(prefix).tiles);
    if (!list) throw new Error(`Elevation model ${record.elevation_model_id} has a ready connection without its tile list.`);
    return new BlobCachedConnection(blobs, prefix, record, status.sea_surface_navd88_m, JSON.parse(list.toString('utf8')) as TileWindow[]);
  }

  async spillOn(grid: ElevationGrid, maxTiles: number): Promise<Float32Array | { tiles: number }> {
    const { pyramid } = this.record;
    const { width, height, cell_lon: cellLon, cell_lat: cellLat } = pyramid.levels[0]!;
    const n = grid.values.length;
    // Each grid cell's tile and its index there (-1: outside the model or its tiles with data).
    const cellTile = new Int32Array(n).fill(-1);
    const local = new Int32Array(n);
    const perTile = new Int32Array(this.tiles.length + 1);
    let spanned = 0;
    for (let row = 0; row < grid.height; row++) {
      const r = Math.round((pyramid.north - (grid.north - row * grid.cellLat)) / cellLat);
      if (r < 0 || r >= height) continue;
      for (let col = 0; col < grid.width; col++) {
        const c = Math.round((grid.west + col * grid.cellLon - pyramid.west) / cellLon);
        if (c < 0 || c >= width) continue;
        const t = this.tileOf(r, c);
        if (t < 0) continue;
        const i = row * grid.width + col, tile = this.tiles[t]!;
        cellTile[i] = t;
        local[i] = (r - tile.row) * tile.width + (c - tile.col);
        if (perTile[t + 1]++ === 0) spanned++;
      }
    }
    if (spanned > maxTiles) return { tiles: spanned };
    // The cells grouped by tile (a counting sort), so each tile is decoded once.
    for (let t = 0; t < this.tiles.length; t++) perTile[t + 1] += perTile[t]!;
    const next = perTile.slice(0, this.tiles.length);
    const byTile = new Int32Array(perTile[this.tiles.length]!);
    for (let i = 0; i < n; i++) if (cellTile[i]! >= 0) byTile[next[cellTile[i]!]!++] = i;
    const spill = new Float32Array(n).fill(Infinity);
    for (let t = 0; t < this.tiles.length; t++) {
      if (perTile[t] === perTile[t + 1]) continue;
      const levels = await this.tile(t);
      for (let k = perTile[t]!; k < perTile[t + 1]!; k++) spill[byTile[k]!] = levels[local[byTile[k]!]!]!;
    }
    return spill;
  }

  private tile(t: number): Promise<Float32Array> {
    return this.kept.getOrCreate(t, async () => {
      const levels = await readCachedSpill(this.blobs, this.prefix, this.tiles[t]!);
      if (!levels) throw new Error(`Elevation model ${this.elevation_model_id} is missing the connection cache of its tile ${t}.`);
      return levels;
    });
  }
}
