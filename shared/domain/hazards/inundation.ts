import type { MultiPolygon } from 'geojson';
import { cellIndexAt, rowCellAreas, type ElevationGrid } from './elevation';
import { haversineKm, type LatLon } from './geo';

/** A grid in NAVD88 with its spill levels (see flood-fill.ts). */
export interface FloodModel {
  grid: ElevationGrid;
  spill: Float32Array;
  /** Open-water surface in the grid's datum: cells at or below it are water, not land. */
  waterSurface: number;
}

/** Land cells connected to open water below `level`. */
export function isInundated(model: FloodModel, index: number, level: number): boolean {
  const ground = model.grid.values[index]!;
  return !Number.isNaN(ground) && ground > model.waterSurface && model.spill[index]! < level;
}

export interface PointDepth {
  ground_navd88_m: number;
  depth_m: number;
  /** Below the level but cut off from open water by higher ground. */
  isolated_low_ground: boolean;
}

export function depthAtPoint(model: FloodModel, point: LatLon, level: number): PointDepth | undefined {
  const index = cellIndexAt(model.grid, point.lat, point.lon);
  if (index === undefined) return undefined;
  const ground = model.grid.values[index]!;
  if (Number.isNaN(ground)) return undefined;
  const inundated = isInundated(model, index, level) || (ground <= model.waterSurface && ground < level);
  return { ground_navd88_m: ground, depth_m: inundated ? level - ground : 0, isolated_low_ground: !inundated && ground < level };
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
