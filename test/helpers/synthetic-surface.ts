import type { ElevationModelRecord } from '../../shared/domain/elevation-models/model';
import { buildPyramid } from '../../shared/domain/elevation-models/pyramid';

/**
 * A seeded synthetic coast of any size, defined cell by cell so that any window of it can be made
 * alone (a tile, a worker's share) and equal the same cells of the whole: rolling ground rising
 * inland from a sea along the west edge, hollows, ridges and channels at several scales, rough
 * noise, and a few cells without data.
 */
export interface SyntheticSurface {
  width: number;
  height: number;
  seed: number;
}

/** A 32-bit integer hash of a cell (splitmix-style mixing), uniform in [0, 1). */
function cellNoise(seed: number, row: number, col: number): number {
  let h = (Math.imul(row, 0x27d4eb2d) ^ Math.imul(col, 0x165667b1) ^ Math.imul(seed, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

/** Ground (NAVD88 m) at a cell; NaN where the surface has no data. */
export function syntheticGround(surface: SyntheticSurface, row: number, col: number): number {
  const { width, seed } = surface;
  const noise = cellNoise(seed, row, col);
  if (noise < 0.004) return NaN;
  const inland = col / width;
  const phase = seed * 0.37;
  return -1.5 + 6 * inland
    + 1.2 * Math.sin(row / 37 + phase) * Math.cos(col / 29 - phase)
    + 0.8 * Math.sin((row + 2 * col) / 113)
    + 0.5 * Math.cos((3 * row - col) / 251 + phase)
    + 0.6 * (noise - 0.5);
}

/** A window of the surface: its values row-major, and open water (ground at or below the sea surface). */
export function syntheticWindow(surface: SyntheticSurface, row: number, col: number, width: number, height: number, seaSurface = 0) {
  const values = new Float32Array(width * height);
  const water = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const i = r * width + c;
      values[i] = syntheticGround(surface, row + r, col + c);
      if (values[i]! <= seaSurface) water[i] = 1;
    }
  }
  return { values, water, width, height, row, col };
}

/** A processed model (NAVD88, no water flag) of a window's cells: its record and its pyramid tiles. */
export function syntheticModel(id: string, values: Float32Array, width: number, height: number): { record: ElevationModelRecord; tiles: Map<string, Uint8Array> } {
  const built = buildPyramid({ values, width, height, west: -82, north: 27, cellLon: 1e-4, cellLat: 1e-4, resolution_m: 10 }, 'NAVD88');
  return {
    record: {
      elevation_model_id: id, name: 'Synthetic', crs: { epsg: 4269, name: 'NAD83' }, resolution_m: 10, bbox: built.index.bbox,
      vertical_datum: 'NAVD88', source_vertical_datum: 'NAVD88', vertical_conversion: 'none', vertical_accuracy_m: null, surface_model: false, pyramid: built.index,
    },
    tiles: built.tiles,
  };
}
