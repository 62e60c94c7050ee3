import type { MultiPolygon, Polygon } from 'geojson';
import type { ElevationSource } from './elevation';
import { sourceInfoFor } from './elevation';
import { connectedFloodModel, type Connection } from './connection';
import { isOpenWater } from './inundation';
import type { BBox } from './geo';
import { readGround, type GroundOptions } from './ground';
import { rowCellAreas } from './elevation';
import { forEachCellInPolygon } from './rasterize';

// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

/** Core side of a window, in native cells: a few MB of grid at a time, whatever the county. */
export const WINDOW_CELLS = 1024;
/**
 * Cells read around each core so that water reaching the core through its neighbours is seen: a
 * channel that leaves the window and comes back further than this is missed (stated in the answer).
 */
export const MARGIN_CELLS = 64;
/** Spill levels are tallied in millimetre bins from −5 m to +35 m NAVD88; higher ground never floods here. */
const BIN_M = 0.001;
const LOWEST_M = -5;
const BINS = 40_000;
const METRES_PER_DEGREE = 111_320;

/**
 * Land area of a boundary by the water level at which it connects to open water, tallied at the
 * DEM's native resolution window by window (bounded memory), so any still-water level's exposed
 * area is a lookup: the area of cells whose spill level lies below it.
 */
export class SpillTally {
  private readonly bins = new Float64Array(BINS);
  private prefix: Float64Array | undefined;
  openWaterM2 = 0;
  cellsRead = 0;
  windows = 0;
  cellSizeM = 0;

  add(spill: number, areaM2: number): void {
    if (!num.isFinite(spill)) return;
    const bin = math.floor((spill - LOWEST_M) / BIN_M);
    if (bin >= BINS) return;
    this.bins[math.max(0, bin)] += areaM2;
  }

  /** Land connected to open water below `level` (within a millimetre). */
  areaBelow(level: number): number {
    if (!this.prefix) {
      this.prefix = new Float64Array(BINS + 1);
      for (let i = 0; i < BINS; i++) this.prefix[i + 1] = this.prefix[i]! + this.bins[i]!;
    }
    const k = math.floor((level - LOWEST_M) / BIN_M);
    return this.prefix[math.min(BINS, math.max(0, k))]!;
  }
}

/** Native cells the box holds at the source's native resolution there. */
export function nativeCellCount(source: ElevationSource, box: BBox): number {
  const resolution = sourceInfoFor(source, box).resolution_m;
  if (!resolution) return 0;
  const midLat = ((box[1] + box[3]) / 2) * (math.PI / 180);
  return ((box[3] - box[1]) * METRES_PER_DEGREE / resolution) * ((box[2] - box[0]) * METRES_PER_DEGREE * math.cos(midLat) / resolution);
}

/**
 * Reads the boundary's box in windows at native resolution (core plus margin), floods each window
 * from its open water (and from the whole model's connection, when given) and tallies the core cells inside the boundary by spill level. Each cell is
 * counted once: it belongs to the core whose half-open box holds its centre.
 */
export async function tallyAtNativeResolution(
  source: ElevationSource,
  geometry: Polygon | MultiPolygon,
  box: BBox,
  mslNavd88: number,
  pause: () => Promise<void>,
  options: GroundOptions = {},
  /** The connection of the whole elevation model around the box (connection.ts): channels leaving a window are followed on it. */
  connection?: Connection,
): Promise<SpillTally> {
  const tally = new SpillTally();
  const resolution = sourceInfoFor(source, box).resolution_m!;
  tally.cellSizeM = resolution;
  const midLat = ((box[1] + box[3]) / 2) * (math.PI / 180);
  const stepLat = (WINDOW_CELLS * resolution) / METRES_PER_DEGREE;
  const stepLon = stepLat / math.cos(midLat);
  const marginLat = (MARGIN_CELLS * resolution) / METRES_PER_DEGREE;
  const marginLon = marginLat / math.cos(midLat);
  const maxCells = math.ceil(1.5 * (WINDOW_CELLS + 2 * MARGIN_CELLS + 4) ** 2);
  for (let north = box[3]; north > box[1]; north -= stepLat) {
    for (let west = box[0]; west < box[2]; west += stepLon) {
      const core: BBox = [west, math.max(box[1], north - stepLat), math.min(box[2], west + stepLon), north];
      const ground = await readGround(source, [core[0] - marginLon, core[1] - marginLat, core[2] + marginLon, core[3] + marginLat], maxCells, mslNavd88, { flagRelief: false, allowSurfaceModel: options.allowSurfaceModel });
      await pause();
      if (!ground) continue;
      const { grid } = ground;
      tally.windows++;
      tally.cellsRead += grid.values.length;
      const inside = new Uint8Array(grid.values.length);
      forEachCellInPolygon(geometry, grid, (i) => { inside[i] = 1; });
      if (!inside.includes(1)) continue;
      const { model } = await connectedFloodModel(grid, mslNavd88, connection);
      const areas = rowCellAreas(grid);
      for (let row = 0; row < grid.height; row++) {
        const lat = grid.north - row * grid.cellLat;
        if (lat > core[3] || lat <= core[1]) continue;
        for (let col = 0; col < grid.width; col++) {
          const lon = grid.west + col * grid.cellLon;
          const i = row * grid.width + col;
          if (lon < core[0] || lon >= core[2] || !inside[i] || num.isNaN(grid.values[i]!)) continue;
          if (isOpenWater(model, i)) tally.openWaterM2 += areas[row]!;
          else tally.add(model.spill[i]!, areas[row]!);
        }
      }
    }
  }
  return tally;
}
