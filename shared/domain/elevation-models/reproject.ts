import proj4 from 'proj4';
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

type LatticeFrame = Omit<GeoLattice, 'values' | 'water'>;

const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';
const METRES_PER_DEGREE_LAT = 111_320;
/** Edge samples used to find the lon/lat box of a projected raster (edges curve slightly). */
const EDGE_SAMPLES = 32;
const MIN_RESOLUTION_M = 0.01;

/**
 * Resamples a DEM onto a lon/lat lattice at its native resolution: every lattice cell centre is
 * projected into the DEM's CRS and its value interpolated bilinearly between the four surrounding
 * posts (fractional values kept; no rounding). Where a neighbour is no-data the nearest post is used
 * when valid, else the cell is no-data (NaN).
 */
export function reprojectToLattice(source: SourceRaster, conversion: VerticalConversion, waterRawValue?: number): GeoLattice {
  const { width, height, x0, y0, dx, dy } = source;
  const { west, north, cellLon, cellLat, resolution_m, width: outWidth, height: outHeight } = latticeFrame(source);
  const toSource = proj4(WGS84, source.crs.proj4);
  const values = new Float32Array(outWidth * outHeight).fill(Number.NaN);
  const water = waterRawValue === undefined ? undefined : new Uint8Array(outWidth * outHeight);
  const raw = source.values;
  const valid = (i: number) => isElevationSample(raw[i]!, source.nodata);
  for (let row = 0; row < outHeight; row++) {
    const lat = north - row * cellLat;
    for (let col = 0; col < outWidth; col++) {
      const [x, y] = toSource.forward([west + col * cellLon, lat]);
      const fc = (x! - x0) / dx, fr = (y! - y0) / dy;
      if (fc < -0.5 || fr < -0.5 || fc > width - 0.5 || fr > height - 0.5) continue;
      const nc = Math.min(width - 1, Math.max(0, Math.round(fc))), nr = Math.min(height - 1, Math.max(0, Math.round(fr)));
      const nearest = nr * width + nc;
      if (!valid(nearest)) continue;
      const c0 = Math.min(width - 2, Math.max(0, Math.floor(fc))), r0 = Math.min(height - 2, Math.max(0, Math.floor(fr)));
      const tx = Math.min(1, Math.max(0, fc - c0)), ty = Math.min(1, Math.max(0, fr - r0));
      const i00 = r0 * width + c0, i01 = i00 + 1, i10 = i00 + width, i11 = i10 + 1;
      const value = valid(i00) && valid(i01) && valid(i10) && valid(i11)
        ? (raw[i00]! * (1 - tx) + raw[i01]! * tx) * (1 - ty) + (raw[i10]! * (1 - tx) + raw[i11]! * tx) * ty
        : raw[nearest]!;
      const out = row * outWidth + col;
      values[out] = toStoredMetres(value, conversion);
      if (water && raw[nearest] === waterRawValue) water[out] = 1;
    }
  }
  return { values, ...(water ? { water } : {}), width: outWidth, height: outHeight, west, north, cellLon, cellLat, resolution_m };
}

/**
 * The lon/lat lattice a raster is resampled to, from its frame alone (no sample read), refused when
 * it would exceed the cell limit: cells stretched in one direction make a small file a huge lattice.
 */
export function latticeFrame(source: RasterFrame): LatticeFrame {
  const { width, height, x0, y0, dx, dy } = source;
  if (width < 2 || height < 2) throw new RasterError('The raster has fewer than 2×2 cells.');
  if (!(dx > 0) || dy === 0 || !Number.isFinite(dy)) throw new RasterError('The raster has no usable cell size (its geotransform is missing or rotated).');
  const toGeo = proj4(source.crs.proj4, WGS84);
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

  checkLatticeSize(outWidth, outHeight, resolution_m);
  return { width: outWidth, height: outHeight, west, north, cellLon, cellLat, resolution_m };
}
