import { encodeLevelTiles, levelTileNames, pyramidIndex, pyramidLevelSides, TILE_SIZE, type BuiltPyramid, type CellBlock } from './pyramid';
import type { CellWindow, LatticeFrame, ResampledWindow } from './reproject';
import type { SampleStats } from './budget';
import type { JobFailure } from '../job-failure';

/**
 * A model of any size is processed one window of its lattice at a time: a square of
 * `windowTiles` × `windowTiles` level-0 tiles (16: 4,096 × 4,096 cells), aligned on window
 * multiples, so each of its level-0 tiles, and its overview tiles as long as one covers no more
 * than the window, is made from that window alone. The coarser overview cells (one in 1,024 at
 * 16-tile windows) are gathered from every window and tiled once all are done.
 *
 * Memory per window: its resampled cells, 5 bytes each (84 MB at 4,096 × 4,096), the source cells
 * it decodes (budget.ts, at most 256 MiB; about 17 million 4-byte cells, 67 MB, at native
 * resolution) and its gzipped tiles; plus the gathered overview cells, 5 bytes per 1,024 cells of
 * the model (98 MB at 2 × 10¹⁰ cells).
 */
export const WINDOW_TILES = 16;

/** How a lattice of a given size is cut in windows: it follows from the size alone. */
export interface WindowLayout {
  windowTiles: number;
  /** Width and height of each level of the pyramid. */
  sides: Array<[number, number]>;
  /** The first level whose tiles span more than one window: from here on, tiled from the gathered cells. */
  gatheredLevel: number;
  windows: CellWindow[];
}

export interface WindowPlan extends WindowLayout {
  lattice: LatticeFrame;
}

/** The windows a lattice of `width` × `height` cells is processed in, rows of windows from the north-west. */
export function windowLayout({ width, height }: LatticeSize, windowTiles = WINDOW_TILES): WindowLayout {
  if (!(Number.isInteger(Math.log2(windowTiles)) && windowTiles >= 1)) throw new Error(`A window is a power of two tiles a side, not ${windowTiles}.`);
  const side = windowTiles * TILE_SIZE;
  const windows: CellWindow[] = [];
  for (let row0 = 0; row0 < height; row0 += side) {
    for (let col0 = 0; col0 < width; col0 += side) {
      windows.push({ row0, col0, width: Math.min(side, width - col0), height: Math.min(side, height - row0) });
    }
  }
  return { windowTiles, sides: pyramidLevelSides(width, height), gatheredLevel: Math.log2(windowTiles) + 1, windows };
}

/** The size of a lattice in cells. */
export interface LatticeSize { width: number; height: number }

/** The windows a lattice is processed in. */
export function planWindows(lattice: LatticeFrame, windowTiles = WINDOW_TILES): WindowPlan {
  return { lattice, ...windowLayout(lattice, windowTiles) };
}

/** What one window adds to the model: its tiles (to write now) and its share of the gathered overview cells. */
export interface WindowTiles {
  tiles: Map<string, Uint8Array>;
  /** Tile names per level, for the levels tiled within windows. */
  present: string[][];
  gathered?: CellBlock;
}

/**
 * One window's tiles: every level finer than the gathered level, from its resampled cells alone. It
 * depends on nothing but the window, so windows may be processed in any order or place.
 */
export function tileWindow(plan: WindowPlan, resampled: ResampledWindow): WindowTiles {
  const tiles = new Map<string, Uint8Array>();
  const block: CellBlock = { ...resampled, level: 0 };
  const ownLevels = Math.min(plan.gatheredLevel, plan.sides.length);
  const present = plan.sides.slice(0, ownLevels).map((side, level) => {
    const names: string[] = [];
    encodeLevelTiles(block, level, side, names, tiles);
    return names;
  });
  return { tiles, present, ...(ownLevels < plan.sides.length ? { gathered: gatheredCells(plan, block) } : {}) };
}

/**
 * The names, per level it tiles, of every tile window `index` may write: its `present` and the
 * tiles it reaches that turned out empty. Windows are whole tiles at every level they tile, so no
 * two windows share one of these names: removing them all after a batch died part-way touches no
 * other batch's tiles.
 */
export function windowTileNames(plan: WindowLayout, index: number): string[][] {
  const block = { ...plan.windows[index]!, level: 0 };
  return plan.sides.slice(0, Math.min(plan.gatheredLevel, plan.sides.length)).map((side, level) => levelTileNames(block, level, side));
}

/** The window's cells that are cells of the gathered level (every 2^level-th row and column). */
function gatheredCells(plan: WindowPlan, block: CellBlock): CellBlock {
  const step = 2 ** plan.gatheredLevel;
  const row0 = Math.ceil(block.row0 / step), col0 = Math.ceil(block.col0 / step);
  const height = Math.ceil((block.row0 + block.height) / step) - row0, width = Math.ceil((block.col0 + block.width) / step) - col0;
  const values = new Float32Array(width * height);
  const water = block.water && new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const src = ((row0 + r) * step - block.row0) * block.width + (col0 + c) * step - block.col0;
      values[r * width + c] = block.values[src]!;
      if (water) water[r * width + c] = block.water![src]!;
    }
  }
  return { level: plan.gatheredLevel, row0, col0, width, height, values, ...(water ? { water } : {}) };
}

/** Joins the windows' tiles into one pyramid: the tile names as they come, the gathered cells into one block. */
export class WindowedPyramid {
  private readonly present: string[][];
  private readonly gathered?: CellBlock;

  constructor(private readonly plan: WindowPlan, private readonly verticalDatum: 'NAVD88' | 'EGM96', private readonly hasWater: boolean) {
    this.present = plan.sides.map(() => []);
    if (plan.gatheredLevel < plan.sides.length) {
      const [width, height] = plan.sides[plan.gatheredLevel]!;
      this.gathered = { level: plan.gatheredLevel, row0: 0, col0: 0, width, height, values: new Float32Array(width * height).fill(Number.NaN), ...(hasWater ? { water: new Uint8Array(width * height) } : {}) };
    }
  }

  add(window: Omit<WindowTiles, 'tiles'>): void {
    window.present.forEach((names, level) => this.present[level]!.push(...names));
    const part = window.gathered, whole = this.gathered;
    if (!part || !whole) return;
    for (let r = 0; r < part.height; r++) {
      const at = (part.row0 + r) * whole.width + part.col0;
      whole.values.set(part.values.subarray(r * part.width, (r + 1) * part.width), at);
      if (part.water) whole.water!.set(part.water.subarray(r * part.width, (r + 1) * part.width), at);
    }
  }

  /** The overview tiles made from the gathered cells, and the model's index. */
  finish(): BuiltPyramid {
    const tiles = new Map<string, Uint8Array>();
    if (this.gathered) {
      for (let level = this.plan.gatheredLevel; level < this.plan.sides.length; level++) encodeLevelTiles(this.gathered, level, this.plan.sides[level]!, this.present[level]!, tiles);
    }
    return { index: pyramidIndex(this.plan.lattice, this.verticalDatum, this.hasWater, this.present), tiles };
  }
}

/**
 * Windows one run processes in turn: 16 windows of 4,096 × 4,096 cells (2.7 × 10⁸ cells) take
 * about 7 minutes at the 0.62 M cells/s measured (bench/results/elevation-windows.txt), well within
 * a 15-minute Lambda. A model of more is fanned out.
 */
export const WINDOWS_PER_RUN = 16;
/**
 * Windows per item of the fan-out: 4 (6.7 × 10⁷ cells, about 2 minutes), so that a county's model
 * spreads over many invocations (Miami-Dade at 1 m, 5 × 10⁹ cells: about 75 items), while each
 * item's opening of the uploads' headers stays a small share of its work.
 */
export const WINDOWS_PER_BATCH = 4;

/** A batch of consecutive windows of a plan: one item of the processing fan-out. */
export interface WindowBatch { first: number; count: number }

/** The plan's windows in batches of at most `perBatch`, in order. */
export function windowBatches(windows: number, perBatch = WINDOWS_PER_BATCH): WindowBatch[] {
  if (!(Number.isInteger(perBatch) && perBatch >= 1)) throw new Error(`A batch holds a whole number of windows, not ${perBatch}.`);
  const batches: WindowBatch[] = [];
  for (let first = 0; first < windows; first += perBatch) batches.push({ first, count: Math.min(perBatch, windows - first) });
  return batches;
}

/** What a batch leaves for the join: its cells' statistics and each window's tile names and gathered cells; or the file's refusal. */
export type WindowBatchResult =
  | { samples: SampleStats; windows: Array<Omit<WindowTiles, 'tiles'>> }
  | { refused: JobFailure };

interface GatheredHeader { level: number; row0: number; col0: number; width: number; height: number; water: boolean }
interface BatchHeader {
  refused?: JobFailure;
  samples?: { cells: number; valid: number; min: number | null; max: number | null };
  windows?: Array<{ present: string[][]; gathered?: GatheredHeader }>;
}

/**
 * A batch's result as bytes: a 4-byte little-endian header length, the header (JSON), padding to 4
 * bytes, then each window's gathered cells (Float32) and water flags in window order.
 */
export function encodeWindowBatch(result: WindowBatchResult): Uint8Array {
  const header: BatchHeader = 'refused' in result ? { refused: result.refused } : {
    samples: { cells: result.samples.cells, valid: result.samples.valid, min: result.samples.valid ? result.samples.min : null, max: result.samples.valid ? result.samples.max : null },
    windows: result.windows.map(({ present, gathered }) => ({
      present,
      ...(gathered ? { gathered: { level: gathered.level, row0: gathered.row0, col0: gathered.col0, width: gathered.width, height: gathered.height, water: gathered.water !== undefined } } : {}),
    })),
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((4 + text.byteLength) / 4) * 4;
  const blocks = 'refused' in result ? [] : result.windows.flatMap(({ gathered }) => (gathered ? [gathered] : []));
  const size = blocks.reduce((sum, block) => sum + block.values.byteLength + (block.water?.byteLength ?? 0), 0);
  const bytes = new Uint8Array(start + Math.ceil(size / 4) * 4);
  new DataView(bytes.buffer).setUint32(0, text.byteLength, true);
  bytes.set(text, 4);
  let at = start;
  for (const block of blocks) {
    bytes.set(new Uint8Array(block.values.buffer, block.values.byteOffset, block.values.byteLength), at);
    at += block.values.byteLength;
    if (block.water) {
      bytes.set(block.water, at);
      at += block.water.byteLength;
    }
  }
  return bytes;
}

export function decodeWindowBatch(bytes: Uint8Array): WindowBatchResult {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as BatchHeader;
  if (header.refused) return { refused: header.refused };
  let at = Math.ceil((4 + length) / 4) * 4;
  const take = (n: number) => bytes.slice(at, (at += n));
  const windows = header.windows!.map(({ present, gathered }) => {
    if (!gathered) return { present };
    const { water, ...frame } = gathered;
    const cells = frame.width * frame.height;
    const values = new Float32Array(take(cells * 4).buffer);
    return { present, gathered: { ...frame, values, ...(water ? { water: take(cells) } : {}) } };
  });
  const stats = header.samples!;
  return { samples: { cells: stats.cells, valid: stats.valid, min: stats.min ?? Infinity, max: stats.max ?? -Infinity }, windows };
}
