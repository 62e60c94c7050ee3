import { gunzipSync, gzipSync } from 'node:zlib';
import type { ElevationGrid } from '../hazards/elevation';
import type { BBox } from '../hazards/geo';
import type { GeoLattice } from './reproject';

// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

export const TILE_SIZE = 256;
export const PYRAMID_FORMAT = 'float32-tile-pyramid/1';
/** Overviews are added until the coarsest level is at most this many cells a side. */
const COARSEST_SIDE = 64;

export interface PyramidLevel {
  level: number;
  width: number;
  height: number;
  cell_lon: number;
  cell_lat: number;
  /** Tiles holding at least one sample, as `tx-ty`; the others are all no-data and not stored. */
  tiles: string[];
}

/**
 * The index of a processed model: a pyramid of 256×256 tiles on a lon/lat lattice, level 0 at
 * native resolution, each level taking every second post of the one below. Every tile is its own
 * object (gzip of little-endian Float32 metres, NaN = no data, then one water byte per cell), so a
 * window is read by fetching only the tiles it touches, from S3 or disk alike.
 */
export interface PyramidIndex {
  format: typeof PYRAMID_FORMAT;
  west: number;
  north: number;
  bbox: BBox;
  resolution_m: number;
  vertical_datum: 'NAVD88' | 'EGM96';
  has_water_flag: boolean;
  levels: PyramidLevel[];
}

export function tileKey(level: number, tile: string): string {
  return `${level}/${tile}.bin.gz`;
}

export interface BuiltPyramid { index: PyramidIndex; tiles: Map<string, Uint8Array> }

/** Width and height of each level over a lattice: overviews until the coarsest is at most COARSEST_SIDE a side. */
export function pyramidLevelSides(width: number, height: number): Array<[number, number]> {
  const sides: Array<[number, number]> = [];
  for (let step = 1; ; step *= 2) {
    const side: [number, number] = [math.ceil(width / step), math.ceil(height / step)];
    sides.push(side);
    if (side[0] <= COARSEST_SIDE && side[1] <= COARSEST_SIDE) return sides;
  }
}

/**
 * A rectangle of one level's cells (NaN = no data): the whole lattice, a window of it, or the
 * overview cells gathered from all windows. Its first cell is at `row0`, `col0` of its level.
 */
export interface CellBlock {
  level: number;
  row0: number;
  col0: number;
  width: number;
  height: number;
  values: Float32Array;
  water?: Uint8Array;
}

/** Where a block's cells fall on one level: the level's cell range and the tiles over it. */
interface LevelSpan {
  /** Block cells per level cell along each axis. */
  step: number;
  /** End (exclusive) of the level's columns and rows the block reaches. */
  endCol: number;
  endRow: number;
  /** `[tx, ty]` of each tile over the range, by rows. */
  tiles: Array<[number, number]>;
}

function levelSpan(block: Omit<CellBlock, 'values' | 'water'>, level: number, [levelWidth, levelHeight]: [number, number]): LevelSpan {
  const step = 2 ** (level - block.level);
  const firstCol = math.ceil(block.col0 / step), endCol = math.min(levelWidth, math.ceil((block.col0 + block.width) / step));
  const firstRow = math.ceil(block.row0 / step), endRow = math.min(levelHeight, math.ceil((block.row0 + block.height) / step));
  const tiles: Array<[number, number]> = [];
  for (let ty = math.floor(firstRow / TILE_SIZE); ty * TILE_SIZE < endRow; ty++) {
    for (let tx = math.floor(firstCol / TILE_SIZE); tx * TILE_SIZE < endCol; tx++) tiles.push([tx, ty]);
  }
  return { step, endCol, endRow, tiles };
}

export const tileName = (tx: number, ty: number) => `${tx}-${ty}`;

/**
 * The names of every tile of `level` a block's cells reach, whether or not they hold a sample: those
 * `encodeLevelTiles` may write for it.
 */
export function levelTileNames(block: Omit<CellBlock, 'values' | 'water'>, level: number, side: [number, number]): string[] {
  return levelSpan(block, level, side).tiles.map(([tx, ty]) => tileName(tx, ty));
}

/**
 * The tiles of `level` that hold samples, among those whose cells all lie in the block (each
 * level-`level` cell is the block's cell at the same place: every 2^(level − block.level)-th one).
 * Their names are added to `present` and their bytes to `out`.
 */
export function encodeLevelTiles(block: CellBlock, level: number, side: [number, number], present: string[], out: Map<string, Uint8Array>): void {
  const { step, endCol, endRow, tiles } = levelSpan(block, level, side);
  const n = TILE_SIZE * TILE_SIZE;
  for (const [tx, ty] of tiles) {
    const bytes = new Uint8Array(n * 5);
    const values = new Float32Array(bytes.buffer, 0, n).fill(num.NaN);
    let any = false;
    for (let r = 0; r < TILE_SIZE; r++) {
      const row = ty * TILE_SIZE + r;
      if (row >= endRow) break;
      const srcRow = (row * step - block.row0) * block.width;
      for (let c = 0; c < TILE_SIZE; c++) {
        const col = tx * TILE_SIZE + c;
        if (col >= endCol) break;
        const src = srcRow + col * step - block.col0;
        const v = block.values[src]!;
        if (num.isNaN(v)) continue;
        values[r * TILE_SIZE + c] = v;
        bytes[n * 4 + r * TILE_SIZE + c] = block.water?.[src] ?? 0;
        any = true;
      }
    }
    if (!any) continue;
    const name = tileName(tx, ty);
    present.push(name);
    // In an array of its own: a small Buffer from zlib may be a view into Node's shared pool, which
    // must not be transferred to another thread.
    out.set(tileKey(level, name), new Uint8Array(gzipSync(bytes, { level: 6 })));
  }
}

/** Tile names in the order of rows, then columns, whatever order they were made in. */
const byRowThenColumn = (a: string, b: string) => {
  const [ax, ay] = a.split('-').map(num), [bx, by] = b.split('-').map(num);
  return ay! - by! || ax! - bx!;
};

/** The index of a pyramid over `lattice`, from the tiles present at each level. */
export function pyramidIndex(lattice: Omit<GeoLattice, 'values' | 'water'>, verticalDatum: 'NAVD88' | 'EGM96', hasWater: boolean, present: string[][]): PyramidIndex {
  const levels = pyramidLevelSides(lattice.width, lattice.height).map(([width, height], level) => ({
    level, width, height, cell_lon: lattice.cellLon * 2 ** level, cell_lat: lattice.cellLat * 2 ** level, tiles: [...present[level]!].sort(byRowThenColumn),
  }));
  const east = lattice.west + (lattice.width - 1) * lattice.cellLon;
  const south = lattice.north - (lattice.height - 1) * lattice.cellLat;
  return {
    format: PYRAMID_FORMAT, west: lattice.west, north: lattice.north, bbox: [lattice.west, south, east, lattice.north],
    resolution_m: lattice.resolution_m, vertical_datum: verticalDatum, has_water_flag: hasWater, levels,
  };
}

/** The pyramid of a lattice held whole (windows.ts builds one window at a time). */
export function buildPyramid(lattice: GeoLattice, verticalDatum: 'NAVD88' | 'EGM96'): BuiltPyramid {
  const tiles = new Map<string, Uint8Array>();
  const block: CellBlock = { level: 0, row0: 0, col0: 0, width: lattice.width, height: lattice.height, values: lattice.values, ...(lattice.water ? { water: lattice.water } : {}) };
  const present = pyramidLevelSides(lattice.width, lattice.height).map((side, level) => {
    const names: string[] = [];
    encodeLevelTiles(block, level, side, names, tiles);
    return names;
  });
  return { index: pyramidIndex(lattice, verticalDatum, lattice.water !== undefined, present), tiles };
}

export function decodeTile(bytes: Uint8Array): DecodedTile {
  const raw = gunzipSync(bytes);
  const n = TILE_SIZE * TILE_SIZE;
  if (raw.byteLength !== n * 5) throw new Error(`Elevation tile has ${raw.byteLength} bytes, expected ${n * 5}.`);
  // A copy of its own at offset 0 (a Buffer's `slice` is a view, possibly into a shared pool).
  const copy = new Uint8Array(raw);
  return { values: new Float32Array(copy.buffer, 0, n), water: copy.subarray(n * 4) };
}

export type TileLoader = (key: string) => Promise<Uint8Array>;

export interface DecodedTile { values: Float32Array; water: Uint8Array }

/**
 * Tiles decoded once per tile object: a loader that caches tile bytes (and so hands out the same
 * array for the same tile) gets each tile inflated once while it stays cached, not at every window
 * read; an entry goes when the loader lets go of its bytes.
 */
const decodedTiles = new WeakMap<Uint8Array, DecodedTile>();

function decodedOnce(bytes: Uint8Array): DecodedTile {
  let tile = decodedTiles.get(bytes);
  if (!tile) {
    tile = decodeTile(bytes);
    decodedTiles.set(bytes, tile);
  }
  return tile;
}

/**
 * The model's samples over `box` as an ElevationGrid, from the finest level whose window has at most
 * `maxCells` cells; undefined when the box misses the model.
 */
export async function readWindow(index: PyramidIndex, box: BBox, maxCells: number, load: TileLoader, source: string): Promise<ElevationGrid | undefined> {
  const [bw, bs, be, bn] = box;
  const [mw, ms, me, mn] = index.bbox;
  if (be < mw || bw > me || bn < ms || bs > mn) return undefined;
  // The window spans the whole box where a level fits the budget, cells past the model's edge left
  // without data, so a caller can complete them from another source instead of losing that ground.
  // Where none fits, the coarsest level is read over the model's part of the box only.
  const levelOf = (l: PyramidLevel, clamp: boolean) => {
    let c0 = math.floor((bw - index.west) / l.cell_lon), c1 = math.ceil((be - index.west) / l.cell_lon);
    let r0 = math.floor((index.north - bn) / l.cell_lat), r1 = math.ceil((index.north - bs) / l.cell_lat);
    if (clamp) { c0 = math.max(0, c0); c1 = math.min(l.width - 1, c1); r0 = math.max(0, r0); r1 = math.min(l.height - 1, r1); }
    return { l, c0, c1, r0, r1, cells: (c1 - c0 + 1) * (r1 - r0 + 1) };
  };
  const window = index.levels.map((l) => levelOf(l, false)).find((w) => w.cells <= maxCells) ?? levelOf(index.levels.at(-1)!, true);
  const { l, c0, c1, r0, r1 } = window;
  if (c1 < c0 || r1 < r0) return undefined;
  const width = c1 - c0 + 1, height = r1 - r0 + 1;
  const { values, water } = await readCells(index, l.level, r0, c0, width, height, load);
  if (!values.some((v) => !num.isNaN(v))) return undefined;
  return {
    values, width, height,
    ...(index.has_water_flag ? { water } : {}),
    west: index.west + c0 * l.cell_lon,
    north: index.north - r0 * l.cell_lat,
    cellLon: l.cell_lon, cellLat: l.cell_lat,
    verticalDatum: index.vertical_datum,
    source,
  };
}

/**
 * The cells of one level in a window of whole cells (row and column of its north-west cell, rows
 * down): no data where the model has none. A tile of a tiled analysis is read this way.
 */
export async function readCells(index: PyramidIndex, level: number, r0: number, c0: number, width: number, height: number, load: TileLoader): Promise<DecodedTile> {
  const l = index.levels[level]!;
  const r1 = r0 + height - 1, c1 = c0 + width - 1;
  const values = new Float32Array(width * height).fill(num.NaN);
  const water = new Uint8Array(width * height);
  const present = new Set(l.tiles);
  for (let ty = math.max(0, math.floor(r0 / TILE_SIZE)); ty <= math.floor(r1 / TILE_SIZE); ty++) {
    for (let tx = math.max(0, math.floor(c0 / TILE_SIZE)); tx <= math.floor(c1 / TILE_SIZE); tx++) {
      if (!present.has(`${tx}-${ty}`)) continue;
      const tile = decodedOnce(await load(tileKey(l.level, `${tx}-${ty}`)));
      const rowStart = math.max(r0, ty * TILE_SIZE), rowEnd = math.min(r1, ty * TILE_SIZE + TILE_SIZE - 1);
      const colStart = math.max(c0, tx * TILE_SIZE), colEnd = math.min(c1, tx * TILE_SIZE + TILE_SIZE - 1);
      for (let row = rowStart; row <= rowEnd; row++) {
        for (let col = colStart; col <= colEnd; col++) {
          const t = (row - ty * TILE_SIZE) * TILE_SIZE + (col - tx * TILE_SIZE);
          const out = (row - r0) * width + (col - c0);
          values[out] = tile.values[t]!;
          water[out] = tile.water[t]!;
        }
      }
    }
  }
  return { values, water };
}

/** Ground at a point, interpolated bilinearly between the four surrounding cells (NaN outside data). */
export function sampleBilinear(grid: ElevationGrid, lat: number, lon: number): number {
  const fc = (lon - grid.west) / grid.cellLon, fr = (grid.north - lat) / grid.cellLat;
  const c0 = math.floor(fc), r0 = math.floor(fr);
  if (c0 < 0 || r0 < 0 || c0 + 1 >= grid.width || r0 + 1 >= grid.height) return num.NaN;
  const tx = fc - c0, ty = fr - r0;
  const at = (r: number, c: number) => grid.values[r * grid.width + c]!;
  return (at(r0, c0) * (1 - tx) + at(r0, c0 + 1) * tx) * (1 - ty) + (at(r0 + 1, c0) * (1 - tx) + at(r0 + 1, c0 + 1) * tx) * ty;
}
