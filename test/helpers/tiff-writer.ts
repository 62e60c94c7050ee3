import { deflateSync } from 'node:zlib';
import { encodeTiff, TIFF_TYPE, type TiffEntry } from '../../local/tiff-writer';

/**
 * GeoTIFFs for tests, hostile ones included: one band, strips or tiles, no compression, deflate or
 * LZW, any declared size, and an EPSG CRS (GeoTIFF 1.0), through the project's TIFF encoder
 * (local/tiff-writer.ts), independent of the reader under test.
 */
export interface TiffSpec {
  width: number;
  height: number;
  sample?: 'float32' | 'int16';
  epsg: number;
  /** Corner of the first cell and the cell size, in CRS units (rows go down: north-up). */
  origin: [number, number];
  cellSize: [number, number];
  nodata?: string;
  compression?: 'none' | 'deflate' | 'lzw';
  /** Rows per strip (default 16), or square tiles of this side. */
  layout?: { rowsPerStrip: number } | { tile: number };
  value: (row: number, col: number) => number;
}

const COMPRESSION = { none: 1, deflate: 8, lzw: 5 } as const;
const { SHORT, LONG, DOUBLE, ASCII } = TIFF_TYPE;
const GEOGRAPHIC_EPSG = new Set([4269, 4326, 4267]);

/** TIFF LZW (MSB-first codes, early change), as libtiff writes it: a clear code before the table fills. */
export function lzwEncode(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let bits = 0, bitCount = 0, width = 9, next = 258;
  const table = new Int32Array(4096 * 256).fill(-1);
  const used: number[] = [];
  const emit = (code: number) => {
    bits = (bits << width) | code;
    bitCount += width;
    while (bitCount >= 8) {
      out.push((bits >>> (bitCount - 8)) & 0xff);
      bitCount -= 8;
    }
    bits &= (1 << bitCount) - 1;
  };
  emit(256);
  if (input.length === 0) {
    emit(257);
    return Uint8Array.from(bitCount > 0 ? [...out, (bits << (8 - bitCount)) & 0xff] : out);
  }
  let prefix = input[0]!;
  for (let i = 1; i < input.length; i++) {
    const c = input[i]!;
    const key = prefix * 256 + c;
    if (table[key]! >= 0) {
      prefix = table[key]!;
      continue;
    }
    emit(prefix);
    table[key] = next++;
    used.push(key);
    if (next >= 1 << width && width < 12) width++;
    prefix = c;
    // The reader's table holds 4,093 entries: start a new one well before.
    if (next >= 4000) {
      emit(256);
      for (const k of used) table[k] = -1;
      used.length = 0;
      next = 258;
      width = 9;
    }
  }
  emit(prefix);
  if (next + 1 >= 1 << width && width < 12) width++;
  emit(257);
  if (bitCount > 0) out.push((bits << (8 - bitCount)) & 0xff);
  return Uint8Array.from(out);
}

function compress(raw: Uint8Array, compression: TiffSpec['compression']): Uint8Array {
  if (compression === 'deflate') return deflateSync(raw);
  if (compression === 'lzw') return lzwEncode(raw);
  return raw;
}

/** The raw little-endian samples of one block (cells outside the raster are 0, as the spec pads tiles). */
function blockSamples(spec: TiffSpec, top: number, left: number, rows: number, cols: number): Uint8Array {
  const size = spec.sample === 'int16' ? 2 : 4;
  const view = new DataView(new ArrayBuffer(rows * cols * size));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [row, col] = [top + r, left + c];
      const v = row < spec.height && col < spec.width ? spec.value(row, col) : 0;
      if (size === 2) view.setInt16((r * cols + c) * 2, v, true);
      else view.setFloat32((r * cols + c) * 4, v, true);
    }
  }
  return new Uint8Array(view.buffer);
}

export function writeTiff(spec: TiffSpec): Uint8Array {
  const layout = spec.layout ?? { rowsPerStrip: 16 };
  const tiled = 'tile' in layout;
  const [blockW, blockH] = tiled ? [layout.tile, layout.tile] : [spec.width, Math.min(layout.rowsPerStrip, spec.height)];
  const blocks: Uint8Array[] = [];
  for (let top = 0; top < spec.height; top += blockH) {
    for (let left = 0; left < spec.width; left += blockW) {
      const rows = tiled ? blockH : Math.min(blockH, spec.height - top);
      blocks.push(compress(blockSamples(spec, top, left, rows, blockW), spec.compression ?? 'none'));
    }
  }
  const int16 = spec.sample === 'int16';
  const geographic = GEOGRAPHIC_EPSG.has(spec.epsg);
  const geoKeys = [1, 1, 0, 3, 1024, 0, 1, geographic ? 2 : 1, 1025, 0, 1, 1, geographic ? 2048 : 3072, 0, 1, spec.epsg];
  const entries: TiffEntry[] = [
    [256, LONG, [spec.width]], [257, LONG, [spec.height]], [258, SHORT, [int16 ? 16 : 32]],
    [259, SHORT, [COMPRESSION[spec.compression ?? 'none']]], [262, SHORT, [1]],
    [277, SHORT, [1]],
    ...(tiled ? [] : [[278, LONG, [blockH]]] as TiffEntry[]),
    [284, SHORT, [1]],
    ...(tiled ? [[322, LONG, [blockW]], [323, LONG, [blockH]]] as TiffEntry[] : []),
    [339, SHORT, [int16 ? 2 : 3]],
    [33550, DOUBLE, [spec.cellSize[0], spec.cellSize[1], 0]],
    [33922, DOUBLE, [0, 0, 0, spec.origin[0], spec.origin[1], 0]],
    [34735, SHORT, geoKeys],
    ...(spec.nodata === undefined ? [] : [[42113, ASCII, `${spec.nodata}\0`] as TiffEntry]),
  ];
  return encodeTiff([{ entries, blocks, layout: tiled ? 'tiles' : 'strips' }]);
}
