import { writeTiff, type TiffSpec } from './tiff-writer';

/** A raster in UTM 17N (Florida's east) of metre values, with what the caller changes. */
export const plainRaster = (spec: Partial<TiffSpec> & Pick<TiffSpec, 'width' | 'height' | 'value'>): Uint8Array =>
  writeTiff({ epsg: 26917, origin: [350_000, 3_100_000], cellSize: [10, 10], ...spec });

export interface HostileRaster {
  /** Built on demand: the bombs take a second or two to encode. */
  bytes: () => Uint8Array;
  /** The refusal expected. */
  code: string;
}

/**
 * Small files that once stopped or fooled the elevation upload, each with the refusal it must get:
 * decompression bombs (a huge strip of zeros in LZW, deflate tiles of 1,000 : 1), cells stretched so
 * a 1,600-cell file resamples to over 10⁸ cells, rasters of nothing but no-data, NaN or −1e30, heights
 * no ground has, and truncated or corrupt files.
 */
export function hostileRasters(): Record<string, HostileRaster> {
  const deflated = () => plainRaster({ width: 200, height: 120, compression: 'deflate', layout: { rowsPerStrip: 8 }, value: (row, col) => 2 + row / 10 + col / 100 });
  return {
    // 2,900 × 2,900 Float32 in one strip: 33.6 MB declared in about 28 KB.
    'LZW bomb': { code: 'raster_too_large', bytes: () => plainRaster({ width: 2900, height: 2900, compression: 'lzw', layout: { rowsPerStrip: 2900 }, value: () => 0 }) },
    // 2,048 × 2,048 Float32 in 256-cell tiles: 16 MiB declared in about 17 KB.
    'deflate bomb': { code: 'compression_ratio_exceeded', bytes: () => plainRaster({ width: 2048, height: 2048, compression: 'deflate', layout: { tile: 256 }, value: () => 0 }) },
    // 2 cm across, 5 km down: resampled at 2 cm, the 200 km column is 10⁷ rows (and slants across meridians, so many more columns).
    'stretched cells': { code: 'resampled_grid_too_large', bytes: () => plainRaster({ width: 40, height: 40, cellSize: [0.02, 5000], value: () => 3 }) },
    'all no-data': { code: 'no_valid_cells', bytes: () => plainRaster({ width: 64, height: 64, nodata: '-9999', value: () => -9999 }) },
    'all NaN': { code: 'no_valid_cells', bytes: () => plainRaster({ width: 64, height: 64, value: () => Number.NaN }) },
    'all −1e30 (undeclared fill)': { code: 'no_valid_cells', bytes: () => plainRaster({ width: 64, height: 64, value: () => -1e30 }) },
    'heights in millimetres': { code: 'elevation_out_of_range', bytes: () => plainRaster({ width: 64, height: 64, value: (row) => 1500 + row * 200 }) },
    'truncated file': { code: 'unreadable_raster', bytes: () => { const whole = deflated(); return whole.subarray(0, whole.length - 300); } },
    'corrupt strip': {
      code: 'unreadable_raster',
      bytes: () => {
        const corrupt = deflated().slice();
        // Overwrite the last strips' deflate streams (the data ends the file) with bytes no inflater accepts.
        corrupt.fill(0xff, corrupt.length - 400);
        return corrupt;
      },
    },
  };
}
