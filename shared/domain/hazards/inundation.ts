import type { MultiPolygon } from 'geojson';
import { cellIndexAt, rowCellAreas, type ElevationGrid } from './elevation';
import { spillLevels } from './flood-fill';
import { haversineKm, type LatLon } from './geo';

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
 * surface above itself.
 */
export function floodModel(grid: ElevationGrid, waterSurface: number): FloodModel {
  let water = grid.water;
  if (!water) {
    const surface = Math.fround(waterSurface);
    water = new Uint8Array(grid.values.length);
    for (let i = 0; i < water.length; i++) {
      const ground = grid.values[i]!;
      if (!Number.isNaN(ground) && ground <= surface) water[i] = 1;
    }
  }
  const mask = water;
  return { grid, water: mask, spill: spillLevels(grid, (i) => mask[i] === 1) };
}

export function isOpenWater(model: FloodModel, index: number): boolean {
  return model.water[index] === 1;
}

/** Land cells connected to open water below `level`. */
export function isInundated(model: FloodModel, index: number, level: number): boolean {
  const ground = model.grid.values[index]!;
  return !Number.isNaN(ground) && model.water[index] !== 1 && model.spill[index]! < level;
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
  if (Number.isNaN(ground)) return undefined;
  const openWater = isOpenWater(model, index);
  const inundated = isInundated(model, index, level);
  return { ground_navd88_m: ground, depth_m: inundated ? level - ground : 0, isolated_low_ground: !inundated && !openWater && ground < level, open_water: openWater };
}

/** Inundated land within `radiusKm` of the centre: area and the cells (as a mask) for the map. */
export function inundationWithinRadius(model: FloodModel, centre: LatLon, radiusKm: number, level: number): { area_m2: number; mask: Uint8Array; cells: number } {
  const { grid } = model;
  const areas = rowCellAreas(grid);
  const mask = new Uint8Array(grid.values.length);
  let area = 0;
  let cells = 0;
  for (let row = 0; row < grid.height; row++) {
    const lat = grid.north - row * grid.cellLat;
    for (let col = 0; col < grid.width; col++) {
      const index = row * grid.width + col;
      if (!isInundated(model, index, level)) continue;
      if (haversineKm(centre, { lat, lon: grid.west + col * grid.cellLon }) > radiusKm) continue;
      mask[index] = 1;
      area += areas[row]!;
      cells++;
    }
  }
  return { area_m2: area, mask, cells };
}

/**
 * The masked cells as a MultiPolygon of row runs (one rectangle per run of adjacent cells), capped
 * so the response stays small; `truncated` says when runs were left out.
 */
export function maskToMultiPolygon(grid: ElevationGrid, mask: Uint8Array, maxRuns = 20_000): { geometry: MultiPolygon; truncated: boolean } {
  const polygons: MultiPolygon['coordinates'] = [];
  const halfLon = grid.cellLon / 2;
  const halfLat = grid.cellLat / 2;
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  for (let row = 0; row < grid.height; row++) {
    let col = 0;
    while (col < grid.width) {
      if (!mask[row * grid.width + col]) { col++; continue; }
      const start = col;
      while (col < grid.width && mask[row * grid.width + col]) col++;
      if (polygons.length === maxRuns) return { geometry: { type: 'MultiPolygon', coordinates: polygons }, truncated: true };
      const west = r6(grid.west + start * grid.cellLon - halfLon);
      const east = r6(grid.west + (col - 1) * grid.cellLon + halfLon);
      const north = r6(grid.north - row * grid.cellLat + halfLat);
      const south = r6(grid.north - row * grid.cellLat - halfLat);
      polygons.push([[[west, south], [east, south], [east, north], [west, north], [west, south]]]);
    }
  }
  return { geometry: { type: 'MultiPolygon', coordinates: polygons }, truncated: false };
}
