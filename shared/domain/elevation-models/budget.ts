import { RasterError } from './raster-error';
import { toStoredMetres, type VerticalConversion } from './vertical';

/**
 * What an uploaded raster may cost, checked from its header before a single strip is decoded, and
 * what its samples must look like to be an elevation model. The figures are what one processing
 * run holds in memory at once: the decoded samples, the lattice they are resampled to, and the tiles.
 */

/** Cells of the source raster, and of the lattice it is resampled to (a 64 M-cell Float32 grid is 256 MiB). */
export const MAX_CELLS = 64_000_000;
/** Decoded samples held at once: 64 M cells of 4-byte samples (an 8-byte raster may have half as many). */
export const MAX_DECODED_BYTES = MAX_CELLS * 4;
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
  if (cells > MAX_CELLS) throw new RasterError(`The raster has ${cells} cells; the limit is ${MAX_CELLS} (split it into tiles).`, 'raster_too_large');
  const decoded = cells * bytesPerSample;
  if (decoded > MAX_DECODED_BYTES) {
    throw new RasterError(`The raster decodes to ${mib(decoded)} (${cells} cells of ${bytesPerSample} bytes); the limit is ${mib(MAX_DECODED_BYTES)} (split it into tiles, or store 4-byte samples).`, 'raster_too_large');
  }
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

/** Refuses a resampled lattice larger than the cell limit (cells stretched in one direction multiply it). */
export function checkLatticeSize(width: number, height: number, resolutionM: number): void {
  const cells = width * height;
  if (cells > MAX_CELLS) {
    throw new RasterError(`Resampled at its finest cell size (${resolutionM.toPrecision(3)} m) the raster covers ${Math.round(cells)} cells; the limit is ${MAX_CELLS}: are its cell sizes right?`, 'resampled_grid_too_large');
  }
}

/** A sample that is ground: finite, not the declared no-data, not a fill value. */
export function isElevationSample(value: number, nodata: number | undefined): boolean {
  return Number.isFinite(value) && value !== nodata && Math.abs(value) < FILL_VALUE_MAGNITUDE;
}

/** Refuses samples that are not a model of the ground: too few valid cells, or heights no ground has. */
export function checkElevationSamples(values: ArrayLike<number>, nodata: number | undefined, conversion: VerticalConversion): void {
  let valid = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!isElevationSample(value, nodata)) continue;
    valid++;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (valid < MIN_VALID_CELLS || valid < MIN_VALID_SHARE * values.length) {
    throw new RasterError(`The raster holds ${valid} valid cells of ${values.length} (no-data, NaN and fill values excluded); at least ${MIN_VALID_SHARE * 100} % are needed.`, 'no_valid_cells');
  }
  // The conversion scales by a positive factor and shifts, so the extremes stay the extremes.
  const [low, high] = [toStoredMetres(min, conversion), toStoredMetres(max, conversion)];
  if (low < MIN_ELEVATION_M || high > MAX_ELEVATION_M) {
    throw new RasterError(`The raster's values run from ${low.toFixed(1)} to ${high.toFixed(1)} m after conversion; ground lies between ${MIN_ELEVATION_M} and ${MAX_ELEVATION_M} m: are its units and no-data value right?`, 'elevation_out_of_range');
  }
}
