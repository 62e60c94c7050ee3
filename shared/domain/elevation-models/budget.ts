import { RasterError } from './raster-error';
import { toStoredMetres, type VerticalConversion } from './vertical';

/**
 * What an uploaded raster may cost, checked from its header before a single strip is decoded, and
 * what its samples must look like to be an elevation model. A model is processed one window of its
 * lattice at a time (windows.ts), so what one run holds at once is one window's decoded samples,
 * its resampled cells and their tiles, whatever the model's size.
 */

/**
 * Cells of a model: of the source raster, and of the lattice it is resampled to (a 1 m DEM of
 * 200 km × 200 km). At 1 m the bounding box of every county fits: Monroe's (the Keys and the
 * mainland) is 3.8 × 10¹⁰ cells, the next, Volusia's, 8.3 × 10⁹. What holds the whole model at once
 * is the join of its tidal connection, which holds the rims of the tiles with data only: a box
 * mostly sea without data costs what its land costs (Monroe's layout of 1,335 tiles with data:
 * 2.1 GB at its peak), and a model with data in more tiles than the join holds
 * (MAX_CONNECTION_TILES) is still processed, only not traced whole (bench/connection-join.bench.ts).
 */
export const MAX_MODEL_CELLS = 40_000_000_000;
/** Source cells one window decodes at once (a 4,096-cell window needs about 17 million at native resolution). */
export const MAX_WINDOW_CELLS = 64_000_000;
/** Decoded samples one window holds at once: 64 M cells of 4-byte samples (an 8-byte raster may have half as many). */
export const MAX_WINDOW_DECODED_BYTES = MAX_WINDOW_CELLS * 4;
/**
 * Lattice cells per source cell: a reprojection turns the grid by a few degrees and, in geographic
 * CRSs, stretches rows by 1 / cos(latitude) (1.15 in Florida); cells far from square (stretched
 * cells) multiply it, and a small file would become a huge lattice.
 */
export const MAX_RESAMPLE_GROWTH = 4;
/** Lattices up to this size are accepted at any growth: a few source cells turned 45° give a lattice many times their count. */
const SMALL_LATTICE_CELLS = 1_000_000;
/**
 * One strip or tile is decoded whole (the LZW decoder builds it in a plain array, several times its
 * size): a raster written as one huge strip is refused, as GDAL writes strips of a few rows and 256-cell tiles.
 */
export const MAX_BLOCK_DECODED_BYTES = 32 * 1024 * 1024;
/**
 * Declared decoded size over the compressed bytes. Terrain compresses 2–10 : 1 with LZW or deflate
 * and a DEM with wide no-data margins stays well under 100 : 1; a decompression bomb is 1,000 : 1 and more.
 */
export const MAX_COMPRESSION_RATIO = 200;
/** Fewer valid cells than this share of the raster is not a model of the ground (a mask, a fill, a wrong no-data). */
export const MIN_VALID_SHARE = 0.01;
/** And at least one 2 × 2 block, the least bilinear resampling reads. */
export const MIN_VALID_CELLS = 4;
/** Elevations on Earth, in metres after unit conversion: below the Dead Sea shore to above Everest, with margin. */
export const MIN_ELEVATION_M = -500;
export const MAX_ELEVATION_M = 9_000;
/**
 * Samples this large are fill values (−1e30, ±3.4e38 float extremes) whether or not the file declares
 * them as its no-data: they are read as no-data, never as ground.
 */
export const FILL_VALUE_MAGNITUDE = 1e29;

/** What a TIFF's header declares about its one band: enough to price the decoding without doing it. */
export interface DeclaredRaster {
  width: number;
  height: number;
  bytesPerSample: number;
  /** Cells of one strip or tile. */
  blockCells: number;
  /** Compressed byte count of each strip or tile, and where it starts in the file. */
  blockByteCounts: ArrayLike<number>;
  blockOffsets: ArrayLike<number>;
  /** 1 = none. */
  compression: number;
  fileBytes: number;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Refuses, with its reason, a raster whose declared decoding would exceed a limit or read past the file. */
export function checkDeclaredRaster(raster: DeclaredRaster): void {
  const { width, height, bytesPerSample } = raster;
  const cells = width * height;
  if (cells > MAX_MODEL_CELLS) throw new RasterError(`The raster has ${cells} cells; the limit is ${MAX_MODEL_CELLS} (split it into several models).`, 'raster_too_large');
  const decoded = cells * bytesPerSample;
  const blockBytes = raster.blockCells * bytesPerSample;
  if (blockBytes > MAX_BLOCK_DECODED_BYTES) {
    throw new RasterError(`One strip or tile of the raster decodes to ${mib(blockBytes)}; the limit is ${mib(MAX_BLOCK_DECODED_BYTES)} (write it tiled, e.g. gdal_translate -co TILED=YES).`, 'raster_too_large');
  }
  let compressed = 0;
  for (let i = 0; i < raster.blockByteCounts.length; i++) {
    const count = raster.blockByteCounts[i]!, offset = raster.blockOffsets[i] ?? Number.NaN;
    if (!(offset >= 0 && count >= 0 && offset + count <= raster.fileBytes)) {
      throw new RasterError(`Strip or tile ${i} lies outside the file (it is truncated or corrupt).`, 'unreadable_raster');
    }
    compressed += count;
  }
  if (raster.compression !== 1 && decoded > MAX_COMPRESSION_RATIO * Math.max(compressed, 1)) {
    throw new RasterError(`The raster declares ${mib(decoded)} of samples in ${compressed} compressed bytes, a ratio over ${MAX_COMPRESSION_RATIO} : 1 that no elevation model has.`, 'compression_ratio_exceeded');
  }
}

/** Most cells a grid made from `sourceCells` cells of data may have (a lattice, or the grid a model's parts span). */
export function gridCellLimit(sourceCells: number): number {
  return Math.min(MAX_MODEL_CELLS, Math.max(SMALL_LATTICE_CELLS, MAX_RESAMPLE_GROWTH * sourceCells));
}

/**
 * Refuses a resampled lattice larger than the model's cell limit, or many times the source's cells
 * (cells stretched in one direction multiply it).
 */
export function checkLatticeSize(width: number, height: number, resolutionM: number, sourceCells: number): void {
  const cells = width * height;
  const limit = gridCellLimit(sourceCells);
  if (cells > limit) {
    throw new RasterError(`Resampled at its finest cell size (${resolutionM.toPrecision(3)} m) the raster covers ${Math.round(cells)} cells; the limit is ${limit} for its ${sourceCells} cells: are its cell sizes right?`, 'resampled_grid_too_large');
  }
}

/** Refuses, before decoding it, a window of source cells larger than one window may decode at once. */
export function checkWindowSource(width: number, height: number, bytesPerSample: number): void {
  const cells = width * height, decoded = cells * bytesPerSample;
  if (cells > MAX_WINDOW_CELLS || decoded > MAX_WINDOW_DECODED_BYTES) {
    throw new RasterError(`One window of the model needs ${cells} source cells (${mib(decoded)}); the limit is ${MAX_WINDOW_CELLS} cells and ${mib(MAX_WINDOW_DECODED_BYTES)}: are its cell sizes right, or are its samples over 4 bytes?`, 'raster_too_large');
  }
}

/** A sample that is ground: finite, not the declared no-data, not a fill value. */
export function isElevationSample(value: number, nodata: number | undefined): boolean {
  return value === value && value !== nodata && value < FILL_VALUE_MAGNITUDE && value > -FILL_VALUE_MAGNITUDE;
}

/** Valid samples among a set of samples, and their extremes (raw units). */
export interface SampleStats { cells: number; valid: number; min: number; max: number }

export const NO_SAMPLES: SampleStats = { cells: 0, valid: 0, min: Infinity, max: -Infinity };

export function sampleStats(values: ArrayLike<number>, nodata: number | undefined): SampleStats {
  let valid = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!isElevationSample(value, nodata)) continue;
    valid++;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { cells: values.length, valid, min, max };
}

export const mergeStats = (a: SampleStats, b: SampleStats): SampleStats =>
  ({ cells: a.cells + b.cells, valid: a.valid + b.valid, min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

/** Refuses heights no ground has (checked on each window as it is decoded, before its tiles are written). */
export function checkElevationRange(stats: SampleStats, conversion: VerticalConversion): void {
  if (stats.valid === 0) return;
  // The conversion scales by a positive factor and shifts, so the extremes stay the extremes.
  const [low, high] = [toStoredMetres(stats.min, conversion), toStoredMetres(stats.max, conversion)];
  if (low < MIN_ELEVATION_M || high > MAX_ELEVATION_M) {
    throw new RasterError(`The raster's values run from ${low.toFixed(1)} to ${high.toFixed(1)} m after conversion; ground lies between ${MIN_ELEVATION_M} and ${MAX_ELEVATION_M} m: are its units and no-data value right?`, 'elevation_out_of_range');
  }
}

/** Refuses samples that are not a model of the ground: too few valid cells, or heights no ground has. */
export function checkElevationStats(stats: SampleStats, conversion: VerticalConversion): void {
  const { valid, cells } = stats;
  if (valid < MIN_VALID_CELLS || valid < MIN_VALID_SHARE * cells) {
    throw new RasterError(`The raster holds ${valid} valid cells of ${cells} (no-data, NaN and fill values excluded); at least ${MIN_VALID_SHARE * 100} % are needed.`, 'no_valid_cells');
  }
  checkElevationRange(stats, conversion);
}
