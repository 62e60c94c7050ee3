import { proj4 } from '../../proj4';
import type { ElevationGrid } from '../hazards/elevation';
import { checkLatticeSize, isElevationSample } from './budget';
import type { DemCrs } from './crs';
import { RasterError } from './raster-error';
import { toStoredMetres, type VerticalConversion } from './vertical';

/** A DEM as read from its file: raw samples in its own CRS and units. */
export interface SourceRaster {
  values: Float32Array | Float64Array | Int16Array | Int32Array | Uint16Array;
  width: number;
  height: number;
  /** CRS coordinates of the centre of the first (north-west) cell and the cell step (dy < 0 when north-up). */
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  nodata?: number;
  crs: DemCrs;
}

/** A model resampled on a lon/lat lattice (WGS84; NAD83 taken as coincident), values in metres, and its
 * resolution; water is set only when the caller names the source's water value. */
export type GeoLattice = Pick<ElevationGrid, 'values' | 'water' | 'width' | 'height' | 'west' | 'north' | 'cellLon' | 'cellLat'> & {
  resolution_m: number;
};

export { RasterError } from './raster-error';

/** Where a raster lies, without its samples: all the lattice's size depends on. */
export type RasterFrame = Pick<SourceRaster, 'width' | 'height' | 'x0' | 'y0' | 'dx' | 'dy' | 'crs'>;

export type LatticeFrame = Omit<GeoLattice, 'values' | 'water'>;

// The resampling loop reads Math and Number through module bindings: a global lookup costs about a
// hundred times more inside a vm context (the test runner's), for the same answer.
const { Math: math, Number: num } = globalThis;
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';
const METRES_PER_DEGREE_LAT = 111_320;
/** Edge samples used to find the lon/lat box of a projected raster (edges curve slightly). */
const EDGE_SAMPLES = 32;
const MIN_RESOLUTION_M = 0.01;

/** A rectangle of whole cells: `width` × `height` from row `row0`, column `col0`. */
export interface CellWindow { row0: number; col0: number; width: number; height: number }

/** Samples of a raster within a window of its cells (the whole raster, or what one lattice window needs). */
export type SourceBlock = CellWindow & { values: SourceRaster['values'] };

/** The lattice cells of one window, resampled, and whether a cell's nearest post is the source's water value. */
export type ResampledWindow = CellWindow & { values: Float32Array; water?: Uint8Array };

/**
 * The source cells a window of the lattice reads: every cell centre on the window's rim is
 * projected into the source CRS (a map projection is continuous and one-to-one, so the rim's image
 * bounds the interior's), widened by the posts bilinear interpolation and the rounding to the
 * nearest post reach. Undefined when the window lies wholly outside the raster.
 */
export function sourceWindow(source: RasterFrame, lattice: LatticeFrame, window: CellWindow): CellWindow | undefined {
  const toSource = proj4()(WGS84, source.crs.proj4);
  let minC = Infinity, maxC = -Infinity, minR = Infinity, maxR = -Infinity;
  const rim = (row: number, col: number) => {
    const [x, y] = toSource.forward([lattice.west + col * lattice.cellLon, lattice.north - row * lattice.cellLat]);
    const fc = (x! - source.x0) / source.dx, fr = (y! - source.y0) / source.dy;
    minC = Math.min(minC, fc); maxC = Math.max(maxC, fc); minR = Math.min(minR, fr); maxR = Math.max(maxR, fr);
  };
  const lastRow = window.row0 + window.height - 1, lastCol = window.col0 + window.width - 1;
  for (let col = window.col0; col <= lastCol; col++) { rim(window.row0, col); rim(lastRow, col); }
  for (let row = window.row0; row <= lastRow; row++) { rim(row, window.col0); rim(row, lastCol); }
  const margin = 2;
  const c0 = Math.max(0, Math.floor(minC) - margin), c1 = Math.min(source.width - 1, Math.ceil(maxC) + margin);
  const r0 = Math.max(0, Math.floor(minR) - margin), r1 = Math.min(source.height - 1, Math.ceil(maxR) + margin);
  if (!(c1 >= c0 && r1 >= r0)) return undefined;
  return { row0: r0, col0: c0, width: c1 - c0 + 1, height: r1 - r0 + 1 };
}

/**
 * Resamples one window of the lattice from the source cells it reads (`block`, from sourceWindow):
 * every lattice cell centre is projected into the DEM's CRS and its value interpolated bilinearly
 * between the four surrounding posts (fractional values kept; no rounding). Where a neighbour is
 * no-data the nearest post is used when valid, else the cell is no-data (NaN). A cell depends only
 * on its own position, so windows of any size give the same cells.
 */
export function resampleWindow(source: RasterFrame & Pick<SourceRaster, 'nodata'>, block: SourceBlock | undefined, lattice: LatticeFrame, window: CellWindow, conversion: VerticalConversion, waterRawValue?: number): ResampledWindow {
  const { width, height, x0, y0, dx, dy } = source;
  const { west, north, cellLon, cellLat } = lattice;
  const values = new Float32Array(window.width * window.height).fill(num.NaN);
  const water = waterRawValue === undefined ? undefined : new Uint8Array(window.width * window.height);
  const resampled = { ...window, values, ...(water ? { water } : {}) };
  if (!block) return resampled;
  const toSource = proj4()(WGS84, source.crs.proj4);
  const raw = block.values;
  // Source post (row, col) in the block; the block holds every post a window cell reads (see sourceWindow).
  const at = (r: number, c: number) => {
    if (r < block.row0 || c < block.col0 || r >= block.row0 + block.height || c >= block.col0 + block.width) throw new Error(`Source post ${r}, ${c} lies outside the window read for it.`);
    return (r - block.row0) * block.width + (c - block.col0);
  };
  const valid = (i: number) => isElevationSample(raw[i]!, source.nodata);
  for (let r = 0; r < window.height; r++) {
    const lat = north - (window.row0 + r) * cellLat;
    for (let c = 0; c < window.width; c++) {
      const [x, y] = toSource.forward([west + (window.col0 + c) * cellLon, lat]);
      const fc = (x! - x0) / dx, fr = (y! - y0) / dy;
      if (fc < -0.5 || fr < -0.5 || fc > width - 0.5 || fr > height - 0.5) continue;
      const nc = math.min(width - 1, math.max(0, math.round(fc))), nr = math.min(height - 1, math.max(0, math.round(fr)));
      const nearest = at(nr, nc);
      if (!valid(nearest)) continue;
      const c0 = math.min(width - 2, math.max(0, math.floor(fc))), r0 = math.min(height - 2, math.max(0, math.floor(fr)));
      const tx = math.min(1, math.max(0, fc - c0)), ty = math.min(1, math.max(0, fr - r0));
      const i00 = at(r0, c0), i01 = at(r0, c0 + 1), i10 = at(r0 + 1, c0), i11 = at(r0 + 1, c0 + 1);
      const value = valid(i00) && valid(i01) && valid(i10) && valid(i11)
        ? (raw[i00]! * (1 - tx) + raw[i01]! * tx) * (1 - ty) + (raw[i10]! * (1 - tx) + raw[i11]! * tx) * ty
        : raw[nearest]!;
      const out = r * window.width + c;
      values[out] = toStoredMetres(value, conversion);
      if (water && raw[nearest] === waterRawValue) water[out] = 1;
    }
  }
  return resampled;
}

/** A DEM held whole resampled onto its lon/lat lattice at native resolution, in one window (see resampleWindow). */
export function reprojectToLattice(source: SourceRaster, conversion: VerticalConversion, waterRawValue?: number): GeoLattice {
  const frame = latticeFrame(source);
  const whole = { row0: 0, col0: 0, width: frame.width, height: frame.height };
  const { values, water } = resampleWindow(source, { row0: 0, col0: 0, width: source.width, height: source.height, values: source.values }, frame, whole, conversion, waterRawValue);
  return { ...frame, values, ...(water ? { water } : {}) };
}

/**
 * The lon/lat lattice a raster is resampled to, from its frame alone (no sample read), refused when
 * it would exceed the cell limit: cells stretched in one direction make a small file a huge lattice.
 */
export function latticeFrame(source: RasterFrame): LatticeFrame {
  const { width, height, x0, y0, dx, dy } = source;
  if (width < 2 || height < 2) throw new RasterError('The raster has fewer than 2×2 cells.');
  if (!(dx > 0) || dy === 0 || !Number.isFinite(dy)) throw new RasterError('The raster has no usable cell size (its geotransform is missing or rotated).');
  const toGeo = proj4()(source.crs.proj4, WGS84);
  let west = Infinity, east = -Infinity, south = Infinity, north = -Infinity;
  const edge = (col: number, row: number) => {
    const [lon, lat] = toGeo.forward([x0 + col * dx, y0 + row * dy]);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new RasterError(`The raster's coordinates do not transform from ${source.crs.name} to longitude/latitude.`, 'unsupported_crs');
    west = Math.min(west, lon!); east = Math.max(east, lon!); south = Math.min(south, lat!); north = Math.max(north, lat!);
  };
  for (let i = 0; i <= EDGE_SAMPLES; i++) {
    const c = (i / EDGE_SAMPLES) * (width - 1);
    const r = (i / EDGE_SAMPLES) * (height - 1);
    edge(c, 0); edge(c, height - 1); edge(0, r); edge(width - 1, r);
  }
  if (west < -180 || east > 180 || south < -90 || north > 90) throw new RasterError('The raster lies outside longitude/latitude bounds: is its CRS right?', 'unsupported_crs');

  // Native resolution: ground distance between the two central posts along x.
  const midCol = Math.floor((width - 1) / 2), midRow = Math.floor((height - 1) / 2);
  const [la, pa] = toGeo.forward([x0 + midCol * dx, y0 + midRow * dy]);
  const [lb, pb] = toGeo.forward([x0 + (midCol + 1) * dx, y0 + midRow * dy]);
  const cosLat = Math.cos((((pa! + pb!) / 2) * Math.PI) / 180);
  const resolution_m = Math.hypot((lb! - la!) * cosLat, pb! - pa!) * METRES_PER_DEGREE_LAT;
  // Posts (nearly) on one point, as at a pole, give no cell size: the lattice would be endless. No DEM is finer than a centimetre.
  if (!(resolution_m >= MIN_RESOLUTION_M)) throw new RasterError('The raster\'s central posts fall on one point in longitude/latitude (a pole?), so its resolution cannot be measured: is its CRS right?', 'unsupported_crs');
  const cellLat = resolution_m / METRES_PER_DEGREE_LAT;
  const cellLon = cellLat / cosLat;
  const outWidth = Math.floor((east - west) / cellLon) + 1;
  const outHeight = Math.floor((north - south) / cellLat) + 1;

  checkLatticeSize(outWidth, outHeight, resolution_m, width * height);
  return { width: outWidth, height: outHeight, west, north, cellLon, cellLat, resolution_m };
}
