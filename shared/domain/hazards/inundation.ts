import { contours } from 'd3-contour';
import type { MultiPolygon, Position } from 'geojson';
import { cellIndexAt, rowCellAreas, type ElevationGrid } from './elevation';
import { spillLevels } from './flood-fill';
import { haversineKm, type LatLon } from './geo';
import { LruCache } from '../../lru-cache';

// Hot loops read Math and Number through module bindings (named apart, so no code placed ahead of
// this line meets a shadowed global): a global lookup costs about a hundred times
// more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;

/** A grid in NAVD88 with its open water and spill levels (see flood-fill.ts). */
export interface FloodModel {
  grid: ElevationGrid;
  spill: Float32Array;
  /** 1 = open water: never land, never counted as inundated. */
  water: Uint8Array;
}

/**
 * The flood model of a NAVD88 grid. Water is the source's own flag when it has one (SRTM: raw 0,
 * set before the datum shift); otherwise ground at or below `waterSurface` (local mean sea level
 * in NAVD88), compared in the grid's float32 precision so a rounded offset cannot lift the sea
 * surface above itself. With `connection` (the flood model of the whole elevation model around the
 * grid, see connection.ts) a cell is connected at the lower of its spill level within the grid and
 * its spill level over the whole model (never below its own ground): a channel that reaches the sea
 * outside the grid connects, so the answer at a place does not depend on the window read around it.
 */
export function floodModel(grid: ElevationGrid, waterSurface: number, connection?: FloodModel): FloodModel {
  let water = grid.water;
  if (!water) {
    const surface = math.fround(waterSurface);
    water = new Uint8Array(grid.values.length);
    for (let i = 0; i < water.length; i++) {
      const ground = grid.values[i]!;
      if (!num.isNaN(ground) && ground <= surface) water[i] = 1;
    }
  }
  const mask = water;
  const spill = spillLevels(grid, (i) => mask[i] === 1);
  if (connection) lowerToModelSpill(grid, spill, connection);
  return { grid, water: mask, spill };
}

/** Lowers each cell's spill level to the whole model's at its place (its nearest cell there). */
function lowerToModelSpill(grid: ElevationGrid, spill: Float32Array, connection: FloodModel): void {
  const whole = connection.grid;
  for (let row = 0; row < grid.height; row++) {
    const lat = grid.north - row * grid.cellLat;
    for (let col = 0; col < grid.width; col++) {
      const i = row * grid.width + col;
      const ground = grid.values[i]!;
      if (num.isNaN(ground)) continue;
      const at = cellIndexAt(whole, lat, grid.west + col * grid.cellLon);
      if (at === undefined || num.isNaN(whole.values[at]!)) continue;
      const modelSpill = connection.water[at] === 1 ? ground : math.max(ground, connection.spill[at]!);
      if (modelSpill < spill[i]!) spill[i] = modelSpill;
    }
  }
}

/**
 * Lowers each cell's spill level to `sampled` (a whole model's spill levels at the cells of the
 * grid, Infinity where none) where that is lower, never below the cell's own ground (so open water,
 * at its ground already, and cells without data, NaN, are left as they are); the number of cells it lowered.
 */
export function lowerToSampledSpill(model: FloodModel, sampled: Float32Array): number {
  const { grid: { values }, spill } = model;
  let lowered = 0;
  for (let i = 0; i < values.length; i++) {
    const level = math.max(values[i]!, sampled[i]!);
    if (level < spill[i]!) {
      spill[i] = level;
      lowered++;
    }
  }
  return lowered;
}

export function isOpenWater(model: FloodModel, index: number): boolean {
  return model.water[index] === 1;
}

/** Land cells connected to open water below `level`. */
export function isInundated(model: FloodModel, index: number, level: number): boolean {
  const ground = model.grid.values[index]!;
  return !num.isNaN(ground) && model.water[index] !== 1 && model.spill[index]! < level;
}

export interface PointDepth {
  ground_navd88_m: number;
  depth_m: number;
  /** Below the level but cut off from open water by higher ground. */
  isolated_low_ground: boolean;
  /** The point itself is open water (sea, bay), not land. */
  open_water: boolean;
}

export function depthAtPoint(model: FloodModel, point: LatLon, level: number): PointDepth | undefined {
  const index = cellIndexAt(model.grid, point.lat, point.lon);
  if (index === undefined) return undefined;
  const ground = model.grid.values[index]!;
  if (num.isNaN(ground)) return undefined;
  const openWater = isOpenWater(model, index);
  const inundated = isInundated(model, index, level);
  return { ground_navd88_m: ground, depth_m: inundated ? level - ground : 0, isolated_low_ground: !inundated && !openWater && ground < level, open_water: openWater };
}

/**
 * Depth at a site (a point, an asset) from its own ground and its own water level. The water
 * reaches it when its cell of the analysis grid is open water or is connected to open water below
 * the level; where the grid has no data there (or no grid at all) the connection is unknown and
 * the level applies.
 */
export function siteDepth(model: FloodModel | undefined, cell: number | undefined, ground: number, level: number): { depth_m: number; connected: boolean } {
  const connected = reachesSite(model, cell, level);
  return { depth_m: connected ? math.max(0, level - ground) : 0, connected };
}

/** Whether water at `level` reaches a site in `cell` (see siteDepth). */
export function reachesSite(model: FloodModel | undefined, cell: number | undefined, level: number): boolean {
  const known = model !== undefined && cell !== undefined && !num.isNaN(model.grid.values[cell]!);
  return !known || model.water[cell] === 1 || model.spill[cell]! < level;
}

export interface RadiusInundation {
  /** Land newly inundated: below the level, not below today's MHHW (`existing`). */
  area_m2: number;
  /** Open water within the radius, and land already connected below today's MHHW (tidal wetlands, flats). */
  existing: { open_water_m2: number; land_m2: number };
  /** All land inundated at the level (new and existing), for the map. */
  mask: Uint8Array;
}

/** Inundated land within `radiusKm` of the centre at `level`, apart from what lies below `todayLevel` already. */
export function inundationWithinRadius(model: FloodModel, centre: LatLon, radiusKm: number, level: number, todayLevel = -Infinity): RadiusInundation {
  const cells = cellsWithinRadius(model, centre, radiusKm);
  const mask = new Uint8Array(model.grid.values.length);
  let area = 0;
  let existingLand = 0;
  // The land cells in row order, as a walk of the whole grid meets them: the same sums to the last bit.
  for (let k = 0; k < cells.land.length; k++) {
    const spill = cells.spill[k]!;
    if (!(spill < level)) continue;
    mask[cells.land[k]!] = 1;
    if (spill < todayLevel) existingLand += cells.area[k]!;
    else area += cells.area[k]!;
  }
  return { area_m2: area, existing: { open_water_m2: cells.openWater, land_m2: existingLand }, mask };
}

/** A model's cells within a radius of a centre: its land cells in row order, and its open water's area. */
interface RadiusCells {
  land: Uint32Array;
  spill: Float32Array;
  area: Float64Array;
  openWater: number;
}

/** Centres and radii kept per flood model: a point asked again at another level or horizon finds its cells without a distance per cell. */
const RADII_PER_MODEL = 8;
const radiusCells = new WeakMap<FloodModel, LruCache<string, RadiusCells>>();

function cellsWithinRadius(model: FloodModel, centre: LatLon, radiusKm: number): RadiusCells {
  let kept = radiusCells.get(model);
  if (!kept) radiusCells.set(model, (kept = new LruCache(RADII_PER_MODEL)));
  return kept.getOrCreate(`${centre.lat},${centre.lon},${radiusKm}`, () => findCellsWithinRadius(model, centre, radiusKm));
}

function findCellsWithinRadius(model: FloodModel, centre: LatLon, radiusKm: number): RadiusCells {
  const { grid } = model;
  const areas = rowCellAreas(grid);
  const land: number[] = [];
  let openWater = 0;
  for (let row = 0; row < grid.height; row++) {
    const lat = grid.north - row * grid.cellLat;
    for (let col = 0; col < grid.width; col++) {
      const index = row * grid.width + col;
      if (num.isNaN(grid.values[index]!)) continue;
      if (haversineKm(centre, { lat, lon: grid.west + col * grid.cellLon }) > radiusKm) continue;
      if (isOpenWater(model, index)) openWater += areas[row]!;
      else land.push(index);
    }
  }
  const indices = Uint32Array.from(land);
  const spill = new Float32Array(indices.length);
  const area = new Float64Array(indices.length);
  for (let k = 0; k < indices.length; k++) {
    spill[k] = model.spill[indices[k]!]!;
    area[k] = areas[math.floor(indices[k]! / grid.width)]!;
  }
  return { land: indices, spill, area, openWater };
}

const round6 = (value: number) => math.round(value * 1e6) / 1e6;

/** Drops the vertices of a closed ring that lie on the straight line between their neighbours. */
function dropCollinear(ring: Position[]): Position[] {
  const open = ring.slice(0, -1);
  const kept = open.filter((p, i) => {
    const a = open[(i + open.length - 1) % open.length]!;
    const b = open[(i + 1) % open.length]!;
    return (p[0]! - a[0]!) * (b[1]! - a[1]!) - (p[1]! - a[1]!) * (b[0]! - a[0]!) !== 0;
  });
  return [...kept, kept[0]!];
}

/**
 * The masked cells as a MultiPolygon traced by marching squares (d3-contour) around the cell
 * centres: one polygon per connected area (holes kept), edges within half a cell of the cells'
 * own, straight runs reduced to their end points. Nothing is capped.
 */
export function maskToMultiPolygon(grid: ElevationGrid, mask: ArrayLike<number>): MultiPolygon {
  const traced = contours().size([grid.width, grid.height]).thresholds([0.5])(Array.from(mask))[0]!;
  // d3-contour samples cell (col, row) at (col + 0.5, row + 0.5); grid.west/north are cell centres.
  const toLonLat = ([x, y]: Position): Position => [round6(grid.west + (x! - 0.5) * grid.cellLon), round6(grid.north - (y! - 0.5) * grid.cellLat)];
  return { type: 'MultiPolygon', coordinates: traced.coordinates.map((polygon) => polygon.map((ring) => dropCollinear(ring).map(toLonLat))) };
}

/**
 * The cell through which water first reaches a site standing on its own surveyed ground: of the
 * model cell it falls in and the eight around it, an open-water cell, else the one connected at the
 * lowest level. The cell it falls in (a roof, a berm, a shoreline cell) may stand higher than its
 * surveyed ground; water standing beside it still reaches it.
 */
export function surveyedSiteCell(model: FloodModel, cell: number): number {
  const { width, height, values } = model.grid;
  const row = math.floor(cell / width), col = cell % width;
  let best = cell;
  let lowest = num.isNaN(values[cell]!) ? Infinity : model.water[cell] === 1 ? -Infinity : model.spill[cell]!;
  for (let r = math.max(0, row - 1); r <= math.min(height - 1, row + 1); r++) {
    for (let c = math.max(0, col - 1); c <= math.min(width - 1, col + 1); c++) {
      const at = r * width + c;
      if (num.isNaN(values[at]!)) continue;
      const reachedAt = model.water[at] === 1 ? -Infinity : model.spill[at]!;
      if (reachedAt < lowest) {
        lowest = reachedAt;
        best = at;
      }
    }
  }
  return best;
}
