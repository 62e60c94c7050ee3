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

/** Finds the tile holding a cell among tiles that cover a grid once in rows and columns (tileWindows). */
function tileFinder(tiles: readonly TileWindow[]): (row: number, col: number) => number {
  const rows = [...new Set(tiles.map((tile) => tile.row))].sort((a, b) => a - b);
  const cols = [...new Set(tiles.map((tile) => tile.col))].sort((a, b) => a - b);
  const at = new Map(tiles.map((tile, t) => [`${tile.row},${tile.col}`, t]));
  const lastAtOrBelow = (starts: number[], value: number) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= value) lo = mid;
      else hi = mid - 1;
    }
    return starts[lo]!;
  };
  return (row, col) => {
    const t = at.get(`${lastAtOrBelow(rows, row)},${lastAtOrBelow(cols, col)}`);
    if (t === undefined) return -1;
    const tile = tiles[t]!;
    return row >= tile.row && row < tile.row + tile.height && col >= tile.col && col < tile.col + tile.width ? t : -1;
  };
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
  private finder?: (row: number, col: number) => number;

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
    const tileOf = (this.finder ??= tileFinder(this.tiles));
    const n = grid.values.length;
    // Each grid cell's tile and its index there (-1: outside the model), then the cells grouped by tile.
    const cellTile = new Int32Array(n).fill(-1);
    const local = new Int32Array(n);
    const counts = new Map<number, number>();
    for (let row = 0; row < grid.height; row++) {
      const r = Math.round((pyramid.north - (grid.north - row * grid.cellLat)) / cellLat);
      if (r < 0 || r >= height) continue;
      for (let col = 0; col < grid.width; col++) {
        const c = Math.round((grid.west + col * grid.cellLon - pyramid.west) / cellLon);
        if (c < 0 || c >= width) continue;
        const t = tileOf(r, c);
        if (t < 0) continue;
        const i = row * grid.width + col, tile = this.tiles[t]!;
        cellTile[i] = t;
        local[i] = (r - tile.row) * tile.width + (c - tile.col);
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
    }
    if (counts.size > maxTiles) return { tiles: counts.size };
    const spill = new Float32Array(n).fill(Infinity);
    const byTile = new Map<number, Int32Array>();
    const filled = new Map<number, number>();
    for (const [t, count] of counts) { byTile.set(t, new Int32Array(count)); filled.set(t, 0); }
    for (let i = 0; i < n; i++) {
      const t = cellTile[i]!;
      if (t < 0) continue;
      const at = filled.get(t)!;
      byTile.get(t)![at] = i;
      filled.set(t, at + 1);
    }
    for (const [t, cells] of byTile) {
      const levels = await this.tile(t);
      for (const i of cells) spill[i] = levels[local[i]!]!;
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
